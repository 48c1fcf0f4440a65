// A room: joining and leaving, seats and their grace periods, the room push, chat, and the
// operations every request runs as (room.hpp).
#include "rooms/room.hpp"

#include <algorithm>
#include <array>
#include <cctype>

#include <boost/asio/post.hpp>
#include <spdlog/spdlog.h>

#include "ops/metrics.hpp"
#include "rooms/random.hpp"
#include "tinsel/protocol/errors.hpp"
#include "tinsel/protocol/outgoing.hpp"

namespace tinsel::server {

namespace errc = protocol::errc;
using clock = std::chrono::steady_clock;

room::room(boost::asio::any_io_executor ex, std::string code, const engine::game_info& game, json options,
           const config& cfg, on_expired_fn on_expired, storage::journal* journal, bool recovered)
    : strand_(std::move(ex)),
      code_(std::move(code)),
      game_(&game),
      options_(std::move(options)),
      cfg_(cfg),
      on_expired_(std::move(on_expired)),
      queue_(strand_, code_, journal),
      table_(strand_, game, cfg_, code_),
      seat_timer_(strand_),
      empty_timer_(strand_) {
  queue_.set_hooks({[this] { return closed_; }, [this] {
                      if (on_expired_) on_expired_(code_, false);
                    },
                    [this] { reload_from_journal(); }, [this] { moved(); },
                    [this]() -> json {
                      auto s = public_summary();
                      s.erase("spectators");  // not worth a write
                      auto text = s.dump();
                      if (text == journaled_summary_) return nullptr;
                      journaled_summary_ = std::move(text);
                      return s;
                    }});
  seats_.resize(static_cast<std::size_t>(game.seats(options_).max));
  // Written with the room's first operation (the creator's join).
  if (!recovered) append_record({{"kind", "created"}, {"game", game.id}, {"options", options_}});
  refresh_public_summary();
}

void room::run_op(std::function<void(room&)> f, op_kind kind) {
  queue_.run(shared_from_this(), [this, f = std::move(f)] { f(*this); }, nullptr, nullptr, kind);
}

void room::join(std::shared_ptr<participant> p, identity who, bool spectator, std::optional<std::uint64_t> last_seq,
                json request_id, join_budget budget) {
  dispatch([p, who = std::move(who), spectator, last_seq, id = request_id, budget = std::move(budget)](room& r) mutable {
    r.do_join(p, std::move(who), spectator, last_seq, id, budget);
  }, p, request_id, op_kind::membership);
}
void room::leave(std::shared_ptr<participant> p, json request_id) {
  dispatch([p, id = request_id](room& r) { r.do_leave(p->connection_id(), p, id); }, p, request_id, op_kind::membership);
}
void room::disconnected(std::uint64_t connection) {
  dispatch([connection](room& r) { r.do_leave(connection, nullptr, nullptr); }, nullptr, nullptr, op_kind::membership);
}
void room::close() {
  // Not an operation: the server is stopping, and nothing of it is journaled (the room comes back
  // after the restart). A write in flight still completes; what waits behind it is dropped.
  boost::asio::post(strand_, [self = shared_from_this()] {
    auto& r = *self;
    r.closed_ = true;
    r.table_.cancel_timers();
    r.seat_timer_.cancel();
    r.empty_timer_.cancel();
    r.members_.clear();
    r.queue_.drop_waiting();
  });
}

void room::moved(std::string instance) {
  // As a membership operation: after the write in flight (its members hear its answer first).
  dispatch([instance = std::move(instance)](room& r) { r.leave_instance(instance); }, nullptr, nullptr, op_kind::membership);
}

void room::leave_instance(const std::string& instance) {
  if (closed_) return;
  closed_ = true;
  table_.cancel_timers();
  seat_timer_.cancel();
  empty_timer_.cancel();
  queue_.drop_waiting();
  auto self = shared_from_this();
  auto frame = share_frame(protocol::make_room_moved(nullptr, code_, instance));
  for (auto& [c, m] : members_)
    if (auto p = m.p.lock()) {
      p->send(frame);
      p->left_room(self);
      p->close_with(close_code::room_moved, "room moved");
    }
  members_.clear();
  if (auto* journal = queue_.journal()) journal->forget(code_);
  if (on_expired_) on_expired_(code_, false);
}

void room::chat(std::shared_ptr<participant> p, std::string text, json request_id) {
  dispatch([p, text = std::move(text), id = request_id](room& r) {
    const member* m = r.find_member(p->connection_id());
    if (!m) return r.reply_error(p, id, errc::not_in_room, "you are not in this room");
    json msg = protocol::chat_message(r.code_, m->who.player_id, m->who.name,
                                      m->seat < 0 ? std::nullopt : std::optional<int>(m->seat), text);
    r.append_record({{"kind", "chat"}, {"message", msg}});
    r.reply_ok(p, id);
    r.send_to_all(share_frame(protocol::make_chat(msg)));
    r.remember_chat(std::move(msg));
  }, p, request_id);
}

void room::start_game(std::shared_ptr<participant> p, std::optional<int> first_seat, json request_id) {
  dispatch([p, first_seat, id = request_id](room& r) { r.do_start(p, first_seat, id); }, p, request_id);
}

void room::action(std::shared_ptr<participant> p, json command, json request_id) {
  dispatch([p, command = std::move(command), id = request_id](room& r) { r.do_action(p, command, id); }, p, request_id);
}

// The seat a joining player takes: its own again (a resumed connection, which replaces one still
// attached to it), else a free one; a spectator none (-1). The refusal when it may not sit.
std::optional<engine::rule_error> room::take_seat(const identity& who, std::uint64_t connection, bool spectator,
                                                  int& seat_index, bool& resumed) {
  seat_index = -1;
  if (spectator) return std::nullopt;
  auto mine = std::find_if(seats_.begin(), seats_.end(), [&](const seat& s) { return !s.bot && s.player_id == who.player_id; });
  if (mine != seats_.end()) {
    if (mine->connection != 0 && mine->connection != connection) {
      if (auto old = members_.count(mine->connection) ? members_[mine->connection].p.lock() : nullptr)
        tell_left(old);
      members_.erase(mine->connection);
    }
    mine->connection = connection;
    mine->gone = false;
    mine->away = false;
    mine->timeouts = 0;
    seat_index = static_cast<int>(mine - seats_.begin());
    resumed = true;
    return std::nullopt;
  }
  if (status_ == status::playing)
    return engine::rule_error{std::string(errc::game_in_progress), "a game is running in this room; join as a spectator to watch"};
  auto free = std::find_if(seats_.begin(), seats_.end(), [](const seat& s) { return s.player_id.empty(); });
  if (free == seats_.end()) return engine::rule_error{std::string(errc::room_full), "every seat in this room is taken"};
  *free = seat{};
  free->player_id = who.player_id;
  free->name = who.name;
  free->token_hash = who.token_hash;
  free->connection = connection;
  seat_index = static_cast<int>(free - seats_.begin());
  return std::nullopt;
}

void room::do_join(const pptr& p, identity who, bool spectator,
                   std::optional<std::uint64_t> last_seq, const json& id, const join_budget& budget) {
  const auto connection = p->connection_id();
  auto refuse = [&](std::string_view code, std::string_view message) {
    tell_left(p);
    tell(p, share_frame(protocol::make_error(id, code, message)));
  };
  if (closed_) return refuse(errc::unknown_room, "there is no room with this code");
  if (members_.count(connection)) return refuse(errc::already_in_room, "you are already in this room");
  if (!spectator && sent_away(who.player_id))
    return refuse(errc::kicked, "the host removed you from this room; you may still watch");

  // Only someone who was in this game (seated, or watching it) is caught up with what they missed.
  const bool in_this_game =
      std::any_of(seats_.begin(), seats_.end(), [&](const seat& s) { return !s.bot && s.player_id == who.player_id; }) ||
      watchers_.count(who.player_id);
  int seat_index = -1;
  bool resumed = false;
  if (auto no = take_seat(who, connection, spectator, seat_index, resumed)) return refuse(no->code, no->message);
  if (seat_index < 0 && spectator_count() >= cfg_.max_spectators_per_room)
    return refuse(errc::too_many_spectators, "this room has as many spectators as it allows (" +
                                                 std::to_string(cfg_.max_spectators_per_room) + ")");
  members_.emplace(connection, member{p, who, seat_index, std::nullopt, -1, ++joins_});
  if (spectator) watchers_.insert(who.player_id);
  if (host_.empty() && !spectator) host_ = who.player_id;
  pass_host_if_needed();
  spdlog::info("room joined room={} player={} seat={} resumed={} members={}", code_, who.player_id, seat_index, resumed,
               members_.size());
  if (resumed && status_ == status::playing) {
    // A returning player gets the normal timers again, before the state that answers the join:
    // that state shows their deadline as it is now (no longer the away delay).
    arm_prompt_timer();
    arm_bot_timer();
  }
  send_join(p, who, seat_index, spectator, resumed, in_this_game ? last_seq : std::nullopt, id, budget);
}

// What the join sends: its ok, the room push (to everyone), the chat, and with a game its log
// from the start (as far as kept) and the state that answers the join. The log covers every
// state up to this one, so a client shows the log and skips that state's events. When the
// address's budget cannot pay for all of it, the histories stay home (docs/protocol.md, join_room).
void room::send_join(const pptr& p, const identity& who, int seat_index, bool spectator, bool resumed,
                     std::optional<std::uint64_t> caught_up, const json& id, const join_budget& budget) {
  const auto v = table_.viewer_of(seat_index, who.player_id);
  json ok = {{"room", code_}, {"seat", seat_index < 0 ? json(nullptr) : json(seat_index)}, {"spectator", spectator},
             {"resumed", resumed}};
  std::string ok_frame = id.is_null() ? std::string() : protocol::make_ok(id, ok);
  const auto room_push = share_frame(room_frame());
  std::string chat_frame, log_frame, state;
  if (!chat_.empty()) chat_frame = protocol::make_chat_history(code_, chat_);
  if (table_.has_game()) {
    log_frame = table_.game_log_frame(v);
    state = table_.catch_up_frame(v, caught_up);
  }
  if (!budget.try_spend(ok_frame.size() + room_push->size() + chat_frame.size() + log_frame.size() + state.size())) {
    spdlog::debug("join without histories: join byte budget used up room={} player={}", code_, who.player_id);
    chat_frame.clear();
    log_frame.clear();
    if (table_.has_game()) state = table_.catch_up_frame(v, caught_up, /*replay=*/false);
    ok["history_withheld"] = true;
    if (!id.is_null()) ok_frame = protocol::make_ok(id, std::move(ok));
    budget.spend(ok_frame.size() + room_push->size() + state.size());
  }
  if (!ok_frame.empty()) tell(p, share_frame(std::move(ok_frame)));
  update_empty_timer();
  broadcast_room(room_push);
  if (!chat_frame.empty()) tell(p, share_frame(std::move(chat_frame)));
  if (!log_frame.empty()) tell(p, share_frame(std::move(log_frame)));
  if (!state.empty()) {
    tell(p, share_frame(std::move(state)));
    if (auto* m = find_member(p->connection_id())) sent_whole_view(*m, v);
  }
}

void room::do_leave(std::uint64_t connection, const pptr& p, const json& id) {
  const bool disconnected = p == nullptr;
  auto it = members_.find(connection);
  if (it == members_.end()) {
    if (p) reply_error(p, id, errc::not_in_room, "you are not in this room");
    return;
  }
  const int s = it->second.seat;
  if (p) reply_ok(p, id);
  spdlog::info("room {} room={} player={} seat={}", disconnected ? "disconnected" : "left", code_,
               it->second.who.player_id, s);
  members_.erase(it);
  if (s >= 0) {
    auto& st = seats_[static_cast<std::size_t>(s)];
    if (status_ == status::playing) {
      st.connection = 0;
      st.gone = !disconnected;
      st.disconnected_at = clock::now();
      arm_prompt_timer();  // a seat nobody plays resolves sooner
      arm_bot_timer();
      arm_seat_timer();    // the host role passes on if the host does not come back soon
    } else if (disconnected) {
      st.connection = 0;  // kept for the lobby grace: a reload comes back to the same seat
      st.disconnected_at = clock::now();
      arm_seat_timer();
    } else {
      st = seat{};
    }
  }
  pass_host_if_needed();
  update_empty_timer();
  broadcast_room();
}

void room::pass_host_if_needed() {
  // The host keeps the role while seated and connected, or disconnected for less than the lobby
  // seat grace (a reload, a locked phone); then, or when the seat is given up, it passes on.
  const auto now = clock::now();
  for (const auto& st : seats_)
    if (!host_.empty() && st.player_id == host_ && !st.bot && !st.gone &&
        (st.connection != 0 || now < st.disconnected_at + cfg_.lobby_seat_grace))
      return;
  for (const auto& st : seats_) {
    if (st.connection != 0) {
      if (!host_.empty()) spdlog::info("host passed room={} from={} to={}", code_, host_, st.player_id);
      host_ = st.player_id;
      return;
    }
  }
}

void room::arm_seat_timer() {
  // Outside a game every disconnected seat has a lobby grace; in a game only the host's role does
  // (the seat itself follows the reconnection grace there).
  // In a game, a host whose grace is over keeps the role until a player connects (do_join passes
  // it on then): nothing is due until that happens, so no timer, or it would fire again at once.
  const bool playing = status_ == status::playing;
  const auto now = clock::now();
  std::optional<clock::time_point> due;
  for (const auto& st : seats_)
    if (!st.player_id.empty() && !st.bot && !st.gone && st.connection == 0 && (!playing || st.player_id == host_)) {
      const auto t = st.disconnected_at + cfg_.lobby_seat_grace;
      if (playing && t <= now) continue;
      if (!due || t < *due) due = t;
    }
  if (!due) return;
  seat_timer_.expires_at(*due);
  seat_timer_.async_wait([self = shared_from_this()](boost::system::error_code ec) {
    if (!ec) self->run_op([](room& r) { r.free_expired_seats(); });
  });
}

void room::free_expired_seats() {
  if (closed_) return;
  const auto now = clock::now();
  bool changed = false;
  if (status_ != status::playing) {
    for (auto& st : seats_)
      if (!st.player_id.empty() && !st.bot && st.connection == 0 && now >= st.disconnected_at + cfg_.lobby_seat_grace) {
        spdlog::info("seat freed after the lobby grace room={} player={}", code_, st.player_id);
        st = seat{};
        changed = true;
      }
  }
  const auto host = host_;
  pass_host_if_needed();
  if (changed || host != host_) broadcast_room();
  arm_seat_timer();
}

void room::update_empty_timer() {
  if (!members_.empty()) {
    empty_timer_.cancel();
    return;
  }
  auto grace = cfg_.empty_room_grace;
  if (status_ == status::playing) grace = std::max(grace, cfg_.reconnect_grace);
  empty_timer_.expires_after(grace);
  empty_timer_.async_wait([self = shared_from_this()](boost::system::error_code ec) {
    if (!ec) self->run_op([](room& r) { r.do_expire(); });
  });
}

void room::do_expire() {
  if (closed_ || !members_.empty()) return;
  closed_ = true;
  table_.cancel_timers();
  seat_timer_.cancel();
  spdlog::info("room expired room={}", code_);
  append_record({{"kind", "closed"}, {"reason", "expired"}});
  queue_.tell_expired();
}

std::string room::room_frame(std::string_view status_override) const {
  const auto now_ms =
      std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch()).count();
  std::vector<protocol::room_seat> seats;
  seats.reserve(seats_.size());
  for (const auto& st : seats_) {
    const std::string_view state = st.bot               ? "bot"
                                   : st.gone            ? "gone"
                                   : st.connection == 0 ? "disconnected"
                                   : st.away            ? "away"
                                                        : "connected";
    if (st.player_id.empty()) st.shown_status = {};
    else if (st.shown_status != state) {
      st.shown_status = state;
      st.shown_since_ms = now_ms;
    }
    const bool timed = state == "disconnected" || state == "away" || state == "gone";
    seats.push_back({st.player_id, st.name, state, timed ? std::optional<std::int64_t>(st.shown_since_ms) : std::nullopt,
                     st.bot ? engine::bot_level_name(st.level) : std::string_view{}});
  }
  // Spectators in the order they joined (members_ is ordered by connection).
  std::vector<const member*> watching;
  for (const auto& [c, m] : members_)
    if (m.seat < 0) watching.push_back(&m);
  std::sort(watching.begin(), watching.end(), [](const member* a, const member* b) { return a->joined < b->joined; });
  std::vector<protocol::watcher_entry> watchers;
  watchers.reserve(watching.size());
  for (const auto* m : watching) watchers.push_back({m->who.player_id, m->who.name});
  const auto range = game().seats(options_);
  std::lock_guard lock(kicked_mutex_);
  std::vector<protocol::sent_away_entry> kicked;
  for (const auto& [player, who] : kicked_) kicked.push_back({player, who.name});
  return protocol::make_room({code_, game().id, game().title, options_, range.min, range.max, host_, std::move(seats),
                              spectator_count(), status_override.empty() ? status_name() : status_override,
                              table_.seq(), table_.last_result(), std::move(kicked), std::move(watchers)});
}

long room::spectator_count() const {
  return static_cast<long>(std::count_if(members_.begin(), members_.end(), [](const auto& kv) { return kv.second.seat < 0; }));
}

void room::broadcast_room(frame_ptr prepared) {
  journal_lobby_if_changed();
  refresh_public_summary();
  send_to_all(prepared ? prepared : share_frame(room_frame()));
}

void room::send_to_all(const std::shared_ptr<const std::string>& frame) {
  for (auto& [c, m] : members_)
    if (auto p = m.p.lock()) tell(p, frame);
}

void room::reply_error(const pptr& p, const json& id, std::string_view code, std::string_view message) {
  tell(p, share_frame(protocol::make_error(id, code, message)));
}

void room::reply_ok(const pptr& p, const json& id, json extra) {
  if (!id.is_null()) tell(p, share_frame(protocol::make_ok(id, std::move(extra))));
}

void room::compact_seats(std::size_t count) {
  std::stable_partition(seats_.begin(), seats_.end(), [](const seat& s) { return !s.player_id.empty(); });
  seats_.resize(std::max<std::size_t>(count, static_cast<std::size_t>(seated_count())));
  for (auto& [c, m] : members_) m.seat = -1;
  for (std::size_t i = 0; i < seats_.size(); ++i)
    if (seats_[i].connection != 0)
      if (auto* m = find_member(seats_[i].connection)) m->seat = static_cast<int>(i);
}

int room::seated_count() const {
  return static_cast<int>(std::count_if(seats_.begin(), seats_.end(), [](const seat& s) { return !s.player_id.empty(); }));
}

room::member* room::find_member(std::uint64_t connection) {
  auto it = members_.find(connection);
  return it == members_.end() ? nullptr : &it->second;
}

bool room::is_host(std::uint64_t connection) const {
  auto it = members_.find(connection);
  return it != members_.end() && it->second.seat >= 0 && it->second.who.player_id == host_;
}

}  // namespace tinsel::server
