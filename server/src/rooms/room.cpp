#include "rooms/room.hpp"

#include <algorithm>
#include <array>
#include <cctype>

#include <boost/asio/post.hpp>
#include <spdlog/spdlog.h>

#include "ops/metrics.hpp"
#include "rooms/random.hpp"
#include "tinsel/protocol/errors.hpp"
#include "tinsel/protocol/messages.hpp"

namespace tinsel::server {

namespace errc = protocol::errc;
using clock = std::chrono::steady_clock;

namespace {
std::shared_ptr<const std::string> share(std::string s) { return std::make_shared<const std::string>(std::move(s)); }

}  // namespace

room::room(boost::asio::any_io_executor ex, std::string code, const engine::game_info& game, json options,
           const config& cfg, on_expired_fn on_expired, storage::journal* journal, bool recovered)
    : strand_(std::move(ex)),
      code_(std::move(code)),
      game_(game),
      options_(std::move(options)),
      cfg_(cfg),
      on_expired_(std::move(on_expired)),
      journal_(journal),
      prompt_timer_(strand_),
      bot_timer_(strand_),
      seat_timer_(strand_),
      empty_timer_(strand_) {
  seats_.resize(static_cast<std::size_t>(game_.seats(options_).max));
  // Written with the room's first operation (the creator's join).
  if (!recovered) append_record({{"kind", "created"}, {"game", game_.id}, {"options", options_}});
  refresh_public_summary();
}

template <class F>
void room::dispatch(F&& f, pptr sender, json id, op_kind kind) {
  boost::asio::post(strand_, [self = shared_from_this(), f = std::function<void(room&)>(std::forward<F>(f)),
                              sender = std::move(sender), id = std::move(id), kind]() mutable {
    self->run_op(std::move(f), std::move(sender), std::move(id), kind);
  });
}

void room::run_op(std::function<void(room&)> f, pptr sender, json id, op_kind kind) {
  if (writing_) {
    deferred_.push_back({std::move(f), std::move(sender), std::move(id), kind});
    return;
  }
  start_op(std::move(f), std::move(sender), std::move(id), kind);
}

void room::start_op(std::function<void(room&)> f, pptr sender, json id, op_kind kind) {
  if (journal_ && !journal_->writable() && kind != op_kind::membership) {
    if (kind == op_kind::request) {
      metrics().storage_refused();
      if (sender)
        sender->send(share(protocol::make_error(id, errc::storage_failed,
                                                "the server could not save this; nothing changed, please try again")));
      return;
    }
    // A server move waits for the journal; a timer that was re-armed meanwhile makes it stale,
    // and it then does nothing, as a stale timer does.
    auto retry = std::make_shared<boost::asio::steady_timer>(strand_, std::chrono::seconds(1));
    retry->async_wait([self = shared_from_this(), retry, f = std::move(f)](boost::system::error_code ec) mutable {
      if (!ec && !self->closed_) self->run_op(std::move(f), nullptr, nullptr, op_kind::server_move);
    });
    return;
  }
  f(*this);
  end_op(sender, id);
}

void room::end_op(const pptr& sender, const json& id) {
  if (records_.empty() || !journal_) {
    records_.clear();
    auto out = std::move(outbox_);
    outbox_.clear();
    committed(true, std::move(out), sender, id);
    return;
  }
  writing_ = true;
  auto batch = std::move(records_);
  records_.clear();
  journal_->append(std::move(batch), [self = shared_from_this(), out = std::move(outbox_), sender, id](bool ok) mutable {
    boost::asio::post(self->strand_, [self, ok, out = std::move(out), sender = std::move(sender), id = std::move(id)]() mutable {
      self->writing_ = false;
      self->committed(ok, std::move(out), sender, id);
      // What waited behind the write runs now, in order, until one of them writes again.
      while (!self->writing_ && !self->deferred_.empty()) {
        auto next = std::move(self->deferred_.front());
        self->deferred_.pop_front();
        self->start_op(std::move(next.f), std::move(next.sender), std::move(next.id), next.kind);
      }
    });
  });
  outbox_.clear();
}

// Written (or nothing to write): what the operation told goes out, in order. Not written: none of
// it goes out; the sender is refused, and the room goes back to what its journal holds.
void room::committed(bool ok, std::vector<outgoing> out, const pptr& sender, const json& id) {
  if (!ok && closed_) return;  // the server is stopping
  if (!ok) {
    // The journal said so once (journal write failed); this is one room's part of it.
    spdlog::debug("journal write failed, operation refused room={}", code_);
    if (sender) {
      metrics().storage_refused();
      sender->send(share(protocol::make_error(id, errc::storage_failed,
                                              "the server could not save this; nothing changed, please try again")));
    }
    return reload_from_journal();
  }
  // Each participant's frames go in one hand-over, in order: a command's `ok` and its `state`
  // can then share a write. Anything else flushes what is gathered first, to keep the order.
  // Most get one frame: a batch holds its first frame by itself and a vector only for more.
  struct batch {
    const pptr* to;
    frame_ptr first;
    std::vector<frame_ptr> more;
  };
  std::vector<batch> batches;
  batches.reserve(out.size());
  const auto flush = [&] {
    for (auto& b : batches) {
      if (b.more.empty()) {
        (*b.to)->send(std::move(b.first));
      } else {
        b.more.insert(b.more.begin(), std::move(b.first));
        (*b.to)->send_all(std::move(b.more));
      }
    }
    batches.clear();
  };
  for (auto& o : out) {
    switch (o.kind) {
      case outgoing::what::send: {
        auto it = std::find_if(batches.begin(), batches.end(), [&](const batch& b) { return *b.to == o.to; });
        if (it == batches.end()) batches.push_back({&o.to, std::move(o.frame), {}});
        else it->more.push_back(std::move(o.frame));
        break;
      }
      case outgoing::what::left_room:
        flush();
        o.to->left_room(shared_from_this());
        break;
      case outgoing::what::expired:
        flush();
        if (on_expired_) on_expired_(code_, false);
        break;
    }
  }
  flush();
}

void room::tell(const pptr& p, frame_ptr frame) { outbox_.push_back({outgoing::what::send, p, std::move(frame)}); }
void room::tell_left(const pptr& p) { outbox_.push_back({outgoing::what::left_room, p, nullptr}); }

void room::append_record(json body) {
  if (journal_) records_.push_back({code_, std::move(body)});
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
    r.prompt_timer_.cancel();
    r.bot_timer_.cancel();
    r.seat_timer_.cancel();
    r.empty_timer_.cancel();
    r.members_.clear();
    r.deferred_.clear();
  });
}

void room::kick(std::shared_ptr<participant> p, std::string player, json request_id) {
  dispatch([p, player = std::move(player), id = request_id](room& r) { r.do_kick(p, player, id); }, p, request_id);
}

void room::transfer_host(std::shared_ptr<participant> p, std::string player, json request_id) {
  dispatch([p, player = std::move(player), id = request_id](room& r) {
    if (!r.check_host(p, id, "hand over the host role")) return;
    const bool connected_player = std::any_of(r.members_.begin(), r.members_.end(), [&](const auto& kv) {
      return kv.second.seat >= 0 && kv.second.who.player_id == player;
    });
    if (!connected_player)
      return r.reply_error(p, id, errc::unknown_player, "the new host must be a connected player in this room");
    spdlog::info("host handed over room={} from={} to={}", r.code_, r.host_, player);
    r.host_ = player;
    r.reply_ok(p, id);
    r.broadcast_room();
  }, p, request_id);
}

namespace {
// A computer player's name: friendly, the same in every language, and not one a seated player
// already has (a family's "Holly" and a computer's "Holly" at one table confuse everyone). The
// web client renames the "Bot N" that rooms journaled by older servers still carry by the same
// list (clients/web/js/state.js, botNames).
std::string bot_name(int n, const std::vector<std::string>& at_table) {
  static constexpr std::array<const char*, 6> names{"Holly", "Rudi", "Noel", "Stella", "Niko", "Ella"};
  const auto lower = [](std::string_view v) {
    std::string out(v);
    for (auto& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return out;
  };
  for (std::size_t i = 0; i < names.size(); ++i) {
    const char* name = names[(static_cast<std::size_t>(n - 1) + i) % names.size()];
    if (std::none_of(at_table.begin(), at_table.end(), [&](const std::string& t) { return lower(t) == lower(name); }))
      return name;
  }
  return "Bot " + std::to_string(n);  // every name taken: at most 6 seats, so only by people
}
}  // namespace

void room::add_bot(std::shared_ptr<participant> p, json request_id) {
  dispatch([p, id = request_id](room& r) {
    if (!r.check_host(p, id, "add a bot")) return;
    if (r.status_ == status::playing) return r.reply_error(p, id, errc::game_in_progress, "bots join between games");
    const auto bots = std::count_if(r.seats_.begin(), r.seats_.end(), [](const seat& s) { return s.bot; });
    if (bots >= r.cfg_.max_bots_per_room)
      return r.reply_error(p, id, errc::too_many_bots, "this room already has the most bots allowed");
    auto free = std::find_if(r.seats_.begin(), r.seats_.end(), [](const seat& s) { return s.player_id.empty(); });
    if (free == r.seats_.end()) return r.reply_error(p, id, errc::room_full, "every seat in this room is taken");
    ++r.bots_added_;
    *free = seat{};
    free->player_id = "bot_" + std::to_string(r.bots_added_);
    std::vector<std::string> at_table;
    for (const auto& s : r.seats_)
      if (!s.player_id.empty()) at_table.push_back(s.name);
    free->name = bot_name(r.bots_added_, at_table);
    free->bot = true;
    r.reply_ok(p, id, {{"seat", free - r.seats_.begin()}, {"player", free->player_id}});
    r.broadcast_room();
  }, p, request_id);
}

void room::remove_bot(std::shared_ptr<participant> p, int seat_index, json request_id) {
  dispatch([p, seat_index, id = request_id](room& r) {
    if (!r.check_host(p, id, "remove a bot")) return;
    if (r.status_ == status::playing) return r.reply_error(p, id, errc::game_in_progress, "bots leave between games");
    if (seat_index < 0 || static_cast<std::size_t>(seat_index) >= r.seats_.size() || !r.seats_[static_cast<std::size_t>(seat_index)].bot)
      return r.reply_error(p, id, errc::not_a_bot, "no bot sits in that seat");
    r.seats_[static_cast<std::size_t>(seat_index)] = seat{};
    r.reply_ok(p, id);
    r.broadcast_room();
  }, p, request_id);
}

void room::close_room(std::shared_ptr<participant> p, json request_id) {
  dispatch([p, id = request_id](room& r) { r.do_close_room(p, id); }, p, request_id);
}

void room::skip(std::shared_ptr<participant> p, int seat_index, json request_id) {
  dispatch([p, seat_index, id = request_id](room& r) { r.do_skip(p, seat_index, id); }, p, request_id);
}

void room::readmit(std::shared_ptr<participant> p, std::string player, json request_id) {
  dispatch([p, player = std::move(player), id = request_id](room& r) {
    if (!r.check_host(p, id, "let players back")) return;
    {
      std::lock_guard lock(r.kicked_mutex_);
      if (!r.kicked_.erase(player))
        return r.reply_error(p, id, errc::unknown_player, "nobody by that id was sent away from this room");
    }
    spdlog::info("readmitted room={} player={}", r.code_, player);
    r.reply_ok(p, id);
    r.broadcast_room();  // journals the lobby snapshot without them
  }, p, request_id);
}

bool room::sent_away(const std::string& player) const {
  std::lock_guard lock(kicked_mutex_);
  return kicked_.count(player) > 0;
}

void room::do_kick(const pptr& p, const std::string& player, const json& id) {
  if (!check_host(p, id, "remove players")) return;
  const auto me = find_member(p->connection_id());
  if (me && me->who.player_id == player) return reply_error(p, id, errc::unknown_player, "the host cannot remove themself; leave instead");
  auto seat_it = std::find_if(seats_.begin(), seats_.end(),
                              [&](const seat& s) { return !s.bot && !s.player_id.empty() && s.player_id == player; });
  std::vector<std::uint64_t> connections;
  for (const auto& [c, m] : members_)
    if (m.who.player_id == player) connections.push_back(c);
  if (seat_it == seats_.end() && connections.empty())
    return reply_error(p, id, errc::unknown_player, "no such player or spectator in this room");
  spdlog::info("kicked room={} player={}", code_, player);
  {
    sent_away_player who;
    if (seat_it != seats_.end()) who = {seat_it->name, seat_it->token_hash};
    else who = {members_[connections.front()].who.name, members_[connections.front()].who.token_hash};
    std::lock_guard lock(kicked_mutex_);
    kicked_[player] = std::move(who);
  }
  for (auto c : connections) {
    if (auto target = members_[c].p.lock()) {
      tell(target, share(protocol::dump({{"type", "kicked"}, {"room", code_}})));
      tell_left(target);
    }
    members_.erase(c);
  }
  if (seat_it != seats_.end()) {
    if (status_ == status::playing) {
      seat_it->connection = 0;
      seat_it->gone = true;  // the bot finishes the game in this seat
    } else {
      *seat_it = seat{};
    }
  }
  reply_ok(p, id);
  update_empty_timer();
  broadcast_room();
  if (status_ == status::playing) {
    arm_prompt_timer();
    arm_bot_timer();
  }
}

void room::do_close_room(const pptr& p, const json& id) {
  if (!check_host(p, id, "close the room")) return;
  spdlog::info("room closed by host room={}", code_);
  closed_ = true;
  prompt_timer_.cancel();
  bot_timer_.cancel();
  seat_timer_.cancel();
  append_record({{"kind", "closed"}, {"reason", "host"}});
  // Before the ok: the host's connection is out of the room (left_room is queued on its strand
  // ahead of the ok) and the room out of the lobby and the host's live-room count, so a client
  // that creates a room as soon as it reads the ok finds both done.
  tell_left(p);
  outbox_.push_back({outgoing::what::expired, nullptr, nullptr});
  reply_ok(p, id);
  json j = room_json();
  j["room"]["status"] = "closed";
  send_to_all(share(protocol::dump(j)));
  for (auto& [c, m] : members_)
    if (auto target = m.p.lock(); target && target != p) tell_left(target);
  members_.clear();
}

void room::chat(std::shared_ptr<participant> p, std::string text, json request_id) {
  dispatch([p, text = std::move(text), id = request_id](room& r) {
    const member* m = r.find_member(p->connection_id());
    if (!m) return r.reply_error(p, id, errc::not_in_room, "you are not in this room");
    json msg = {{"type", "chat"},
                {"room", r.code_},
                {"from", {{"player", m->who.player_id}, {"name", m->who.name}, {"seat", m->seat < 0 ? json(nullptr) : json(m->seat)}}},
                {"text", text}};
    r.append_record({{"kind", "chat"}, {"message", msg}});
    r.remember_chat(msg);
    r.reply_ok(p, id);
    r.send_to_all(share(protocol::dump(msg)));
  }, p, request_id);
}

void room::set_options(std::shared_ptr<participant> p, json options, json request_id) {
  dispatch([p, options = std::move(options), id = request_id](room& r) mutable {
    r.do_set_options(p, std::move(options), id);
  }, p, request_id);
}

void room::start_game(std::shared_ptr<participant> p, std::optional<int> first_seat, json request_id) {
  dispatch([p, first_seat, id = request_id](room& r) { r.do_start(p, first_seat, id); }, p, request_id);
}

void room::action(std::shared_ptr<participant> p, json command, json request_id) {
  dispatch([p, command = std::move(command), id = request_id](room& r) { r.do_action(p, command, id); }, p, request_id);
}

bool room::check_host(const pptr& p, const json& id, std::string_view what) {
  if (!find_member(p->connection_id())) {
    reply_error(p, id, errc::not_in_room, "you are not in this room");
    return false;
  }
  if (!is_host(p->connection_id())) {
    reply_error(p, id, errc::not_host, "only the host can " + std::string(what));
    return false;
  }
  return true;
}

void room::do_set_options(const pptr& p, json options, const json& id) {
  if (!check_host(p, id, "change the options")) return;
  if (status_ == status::playing) return reply_error(p, id, errc::game_in_progress, "options can only change between games");
  auto normalized = game_.normalize_options(options);
  if (!normalized) return reply_error(p, id, normalized.error().code, normalized.error().message);
  const int max = game_.seats(normalized.value()).max;
  if (seated_count() > max)
    return reply_error(p, id, errc::invalid_option,
                       std::to_string(seated_count()) + " players are seated, more than these options allow");
  options_ = std::move(normalized.value());
  compact_seats(static_cast<std::size_t>(max));
  reply_ok(p, id);
  broadcast_room();
}

void room::do_join(const pptr& p, identity who, bool spectator,
                   std::optional<std::uint64_t> last_seq, const json& id, const join_budget& budget) {
  const auto connection = p->connection_id();
  auto refuse = [&](std::string_view code, std::string_view message) {
    tell_left(p);
    tell(p, share(protocol::make_error(id, code, message)));
  };
  if (closed_) return refuse(errc::unknown_room, "there is no room with this code");
  if (members_.count(connection)) return refuse(errc::already_in_room, "you are already in this room");

  if (!spectator && sent_away(who.player_id))
    return refuse(errc::kicked, "the host removed you from this room; you may still watch");

  member m{p, who, -1};
  bool resumed = false;
  auto mine = std::find_if(seats_.begin(), seats_.end(), [&](const seat& s) { return !s.bot && s.player_id == who.player_id; });
  // Only someone who was in this game (seated, or watching it) is caught up with what they missed.
  const bool in_this_game = mine != seats_.end() || watchers_.count(who.player_id);
  if (!spectator && mine != seats_.end()) {
    // The same player again (a resumed connection): take the seat back; a connection still
    // attached to it has been replaced.
    if (mine->connection != 0 && mine->connection != connection) {
      if (auto old = members_.count(mine->connection) ? members_[mine->connection].p.lock() : nullptr)
        tell_left(old);
      members_.erase(mine->connection);
    }
    mine->connection = connection;
    mine->gone = false;
    mine->away = false;
    mine->timeouts = 0;
    m.seat = static_cast<int>(mine - seats_.begin());
    resumed = true;
  } else if (!spectator) {
    if (status_ == status::playing)
      return refuse(errc::game_in_progress, "a game is running in this room; join as a spectator to watch");
    auto free = std::find_if(seats_.begin(), seats_.end(), [](const seat& s) { return s.player_id.empty(); });
    if (free == seats_.end()) return refuse(errc::room_full, "every seat in this room is taken");
    *free = seat{};
    free->player_id = who.player_id;
    free->name = who.name;
    free->token_hash = who.token_hash;
    free->connection = connection;
    m.seat = static_cast<int>(free - seats_.begin());
  }
  if (m.seat < 0 && std::count_if(members_.begin(), members_.end(), [](const auto& kv) { return kv.second.seat < 0; }) >=
                       cfg_.max_spectators_per_room)
    return refuse(errc::too_many_spectators, "this room has as many spectators as it allows (" +
                                                 std::to_string(cfg_.max_spectators_per_room) + ")");
  const int seat_index = m.seat;
  members_.emplace(connection, std::move(m));
  if (spectator) watchers_.insert(who.player_id);
  if (host_.empty() && !spectator) host_ = who.player_id;
  pass_host_if_needed();
  spdlog::info("room joined room={} player={} seat={} resumed={} members={}", code_, who.player_id, seat_index, resumed,
               members_.size());

  // What the join sends: its ok, the room push (to everyone), the chat, and with a game its log
  // from the start (as far as kept) and the state that answers the join. The log covers every
  // state up to this one, so a client shows the log and skips that state's events. When the
  // address's budget cannot pay for all of it, the histories stay home (docs/protocol.md, join_room).
  const auto v = game_viewer(seat_index, who.player_id);
  const auto caught_up = in_this_game ? last_seq : std::nullopt;
  json ok = {{"room", code_}, {"seat", seat_index < 0 ? json(nullptr) : json(seat_index)}, {"spectator", spectator},
             {"resumed", resumed}};
  std::string ok_frame = id.is_null() ? std::string() : protocol::make_ok(id, ok);
  const auto room_frame = share(protocol::dump(room_json()));
  std::string chat_frame, log_frame, state;
  if (!chat_.empty()) chat_frame = protocol::dump({{"type", "chat_history"}, {"room", code_}, {"messages", json(chat_)}});
  if (game_state_) {
    log_frame = game_log_frame(v);
    state = catch_up_frame(v, caught_up);
  }
  if (!budget.try_spend(ok_frame.size() + room_frame->size() + chat_frame.size() + log_frame.size() + state.size())) {
    spdlog::debug("join without histories: join byte budget used up room={} player={}", code_, who.player_id);
    chat_frame.clear();
    log_frame.clear();
    if (game_state_) state = catch_up_frame(v, caught_up, /*replay=*/false);
    ok["history_withheld"] = true;
    if (!id.is_null()) ok_frame = protocol::make_ok(id, std::move(ok));
    budget.spend(ok_frame.size() + room_frame->size() + state.size());
  }
  if (!ok_frame.empty()) tell(p, share(std::move(ok_frame)));
  update_empty_timer();
  broadcast_room(room_frame);
  if (!chat_frame.empty()) tell(p, share(std::move(chat_frame)));
  if (!log_frame.empty()) tell(p, share(std::move(log_frame)));
  if (!state.empty()) tell(p, share(std::move(state)));
  if (resumed && status_ == status::playing) {
    arm_prompt_timer();  // a returning player gets the normal timers again
    arm_bot_timer();
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
    if (!ec) self->run_op([](room& r) { r.free_expired_seats(); }, nullptr, nullptr);
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
    if (!ec) self->run_op([](room& r) { r.do_expire(); }, nullptr, nullptr);
  });
}

void room::do_expire() {
  if (closed_ || !members_.empty()) return;
  closed_ = true;
  prompt_timer_.cancel();
  bot_timer_.cancel();
  seat_timer_.cancel();
  spdlog::info("room expired room={}", code_);
  append_record({{"kind", "closed"}, {"reason", "expired"}});
  outbox_.push_back({outgoing::what::expired, nullptr, nullptr});
}

json room::room_json() const {
  json seats = json::array();
  for (std::size_t i = 0; i < seats_.size(); ++i) {
    const auto& st = seats_[i];
    if (st.player_id.empty()) {
      seats.push_back({{"seat", i}, {"player", nullptr}, {"name", nullptr}, {"status", "empty"}});
      continue;
    }
    const char* state = st.bot         ? "bot"
                        : st.gone      ? "gone"
                        : st.connection == 0 ? "disconnected"
                        : st.away      ? "away"
                                       : "connected";
    seats.push_back({{"seat", i}, {"player", st.player_id}, {"name", st.name}, {"status", state}});
  }
  const auto range = game_.seats(options_);
  const auto spectators = std::count_if(members_.begin(), members_.end(), [](const auto& kv) { return kv.second.seat < 0; });
  const char* st = status_ == status::lobby ? "lobby" : status_ == status::playing ? "playing" : "finished";
  json kicked = json::array();
  {
    std::lock_guard lock(kicked_mutex_);
    for (const auto& [player, who] : kicked_) kicked.push_back({{"player", player}, {"name", who.name}});
  }
  return {{"type", "room"},
          {"room",
           {{"code", code_},
            {"game", game_.id},
            {"title", game_.title},
            {"options", options_},
            {"min_players", range.min},
            {"max_players", range.max},
            {"host", host_.empty() ? json(nullptr) : json(host_)},
            {"seats", seats},
            {"spectators", spectators},
            {"status", st},
            {"seq", seq_},
            {"result", last_result_},
            {"kicked", kicked}}}};
}

void room::broadcast_room(frame_ptr prepared) {
  journal_lobby_if_changed();
  refresh_public_summary();
  send_to_all(prepared ? prepared : share(protocol::dump(room_json())));
}

void room::send_to_all(const std::shared_ptr<const std::string>& frame) {
  for (auto& [c, m] : members_)
    if (auto p = m.p.lock()) tell(p, frame);
}

void room::reply_error(const pptr& p, const json& id, std::string_view code, std::string_view message) {
  tell(p, share(protocol::make_error(id, code, message)));
}

void room::reply_ok(const pptr& p, const json& id, json extra) {
  if (!id.is_null()) tell(p, share(protocol::make_ok(id, std::move(extra))));
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
