#include "room.hpp"

#include <algorithm>

#include <boost/asio/post.hpp>
#include <spdlog/spdlog.h>

#include "random.hpp"
#include "tinsel/protocol/errors.hpp"
#include "tinsel/protocol/messages.hpp"

namespace tinsel::server {

namespace errc = protocol::errc;
using clock = std::chrono::steady_clock;

namespace {
std::shared_ptr<const std::string> share(std::string s) { return std::make_shared<const std::string>(std::move(s)); }

long long epoch_ms(std::chrono::system_clock::time_point t) {
  return std::chrono::duration_cast<std::chrono::milliseconds>(t.time_since_epoch()).count();
}
}  // namespace

room::room(boost::asio::any_io_executor ex, std::string code, const engine::game_info& game, json options,
           const config& cfg, on_expired_fn on_expired)
    : strand_(boost::asio::make_strand(ex)),
      code_(std::move(code)),
      game_(game),
      options_(std::move(options)),
      cfg_(cfg),
      on_expired_(std::move(on_expired)),
      prompt_timer_(strand_),
      empty_timer_(strand_) {
  seats_.resize(static_cast<std::size_t>(game_.seats(options_).max));
}

template <class F>
void room::dispatch(F&& f) {
  boost::asio::post(strand_, [self = shared_from_this(), f = std::forward<F>(f)]() mutable { f(*self); });
}

void room::join(std::shared_ptr<participant> p, identity who, bool spectator, json request_id) {
  dispatch([p = std::move(p), who = std::move(who), spectator, id = std::move(request_id)](room& r) mutable {
    r.do_join(p, std::move(who), spectator, id);
  });
}
void room::leave(std::shared_ptr<participant> p, json request_id) {
  dispatch([p = std::move(p), id = std::move(request_id)](room& r) { r.do_leave(p->connection_id(), p.get(), id); });
}
void room::disconnected(std::uint64_t connection) {
  dispatch([connection](room& r) { r.do_leave(connection, nullptr, nullptr); });
}
void room::close() {
  dispatch([](room& r) {
    r.closed_ = true;
    r.prompt_timer_.cancel();
    r.empty_timer_.cancel();
    r.members_.clear();
  });
}

void room::chat(std::shared_ptr<participant> p, std::string text, json request_id) {
  dispatch([p = std::move(p), text = std::move(text), id = std::move(request_id)](room& r) {
    const member* m = r.find_member(p->connection_id());
    if (!m) return reply_error(*p, id, errc::not_in_room, "you are not in this room");
    json msg = {{"type", "chat"},
                {"room", r.code_},
                {"from", {{"player", m->who.player_id}, {"name", m->who.name}, {"seat", m->seat < 0 ? json(nullptr) : json(m->seat)}}},
                {"text", text}};
    if (!id.is_null()) p->send(share(protocol::make_ok(id)));
    r.send_to_all(share(protocol::dump(msg)));
  });
}

void room::set_options(std::shared_ptr<participant> p, json options, json request_id) {
  dispatch([p = std::move(p), options = std::move(options), id = std::move(request_id)](room& r) mutable {
    r.do_set_options(*p, std::move(options), id);
  });
}

void room::start_game(std::shared_ptr<participant> p, std::optional<int> first_seat, json request_id) {
  dispatch([p = std::move(p), first_seat, id = std::move(request_id)](room& r) { r.do_start(*p, first_seat, id); });
}

void room::action(std::shared_ptr<participant> p, json command, json request_id) {
  dispatch([p = std::move(p), command = std::move(command), id = std::move(request_id)](room& r) {
    r.do_action(*p, command, id);
  });
}

bool room::check_host(participant& p, const json& id, std::string_view what) {
  if (!find_member(p.connection_id())) {
    reply_error(p, id, errc::not_in_room, "you are not in this room");
    return false;
  }
  if (!is_host(p.connection_id())) {
    reply_error(p, id, errc::not_host, "only the host can " + std::string(what));
    return false;
  }
  return true;
}

void room::do_set_options(participant& p, json options, const json& id) {
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
  p.send(share(protocol::make_ok(id)));
  broadcast_room();
}

void room::do_join(const std::shared_ptr<participant>& p, identity who, bool spectator, const json& id) {
  const auto connection = p->connection_id();
  auto refuse = [&](std::string_view code, std::string_view message) {
    p->left_room(shared_from_this());
    p->send(share(protocol::make_error(id, code, message)));
  };
  if (closed_) return refuse(errc::unknown_room, "there is no room with this code");
  if (members_.count(connection)) return refuse(errc::already_in_room, "you are already in this room");

  member m{p, who, -1};
  if (!spectator) {
    if (status_ == status::playing)
      return refuse(errc::game_in_progress, "a game is running in this room; join as a spectator to watch");
    auto free = std::find_if(seats_.begin(), seats_.end(), [](const seat& s) { return s.player_id.empty(); });
    if (free == seats_.end()) return refuse(errc::room_full, "every seat in this room is taken");
    *free = seat{who.player_id, who.name, connection, false, {}};
    m.seat = static_cast<int>(free - seats_.begin());
  }
  members_.emplace(connection, std::move(m));
  if (host_.empty() && !spectator) host_ = who.player_id;
  pass_host_if_needed();
  spdlog::info("room joined room={} player={} seat={} members={}", code_, who.player_id,
               spectator ? -1 : members_[connection].seat, members_.size());

  json ok = {{"room", code_}, {"seat", spectator ? json(nullptr) : json(members_[connection].seat)}, {"spectator", spectator}};
  p->send(share(protocol::make_ok(id, ok)));
  update_empty_timer();
  broadcast_room();
  if (game_state_) p->send(share(state_frame(engine::viewer{members_[connection].seat}, {})));
}

void room::do_leave(std::uint64_t connection, participant* p, const json& id) {
  const bool disconnected = p == nullptr;
  auto it = members_.find(connection);
  if (it == members_.end()) {
    if (p) reply_error(*p, id, errc::not_in_room, "you are not in this room");
    return;
  }
  const int s = it->second.seat;
  if (p) p->send(share(protocol::make_ok(id)));
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
    } else {
      st = seat{};
    }
  }
  pass_host_if_needed();
  update_empty_timer();
  broadcast_room();
}

void room::do_start(participant& p, std::optional<int> first_seat, const json& id) {
  if (!check_host(p, id, "start the game")) return;
  if (status_ == status::playing) return reply_error(p, id, errc::game_in_progress, "a game is already running");
  const int players = seated_count();
  const auto range = game_.seats(options_);
  if (players < range.min)
    return reply_error(p, id, errc::not_enough_players,
                       game_.title + " needs at least " + std::to_string(range.min) + " players");
  if (first_seat && *first_seat >= players)
    return reply_error(p, id, errc::invalid_field,
                       "field 'first_seat' must name a seated player (0 to " + std::to_string(players - 1) + ")");
  // The engine numbers players 0..n-1: seated players move to the front, in seat order.
  compact_seats(static_cast<std::size_t>(players));

  seed_ = secure_u64();
  auto d = std::make_unique<engine::seeded_dice>(seed_);
  auto created = game_.create(engine::setup{options_, players, first_seat}, *d);
  if (!created) {
    compact_seats(static_cast<std::size_t>(range.max));
    return reply_error(p, id, created.error().code, created.error().message);
  }
  game_state_ = std::move(created.value());
  dice_ = std::move(d);
  status_ = status::playing;
  last_result_ = nullptr;
  spdlog::info("game started room={} game={} players={}", code_, game_.id, players);
  p.send(share(protocol::make_ok(id)));
  broadcast_room();
  json names = json::array();
  for (const auto& st : seats_) names.push_back(st.name);
  broadcast_state({engine::event::public_event({{"kind", "game_started"}, {"game", game_.id}, {"players", names}})});
}

void room::do_action(participant& p, const json& command, const json& id) {
  const member* m = find_member(p.connection_id());
  if (!m) return reply_error(p, id, errc::not_in_room, "you are not in this room");
  if (m->seat < 0) return reply_error(p, id, errc::not_a_player, "spectators cannot play");
  if (status_ != status::playing || !game_state_)
    return reply_error(p, id, errc::game_not_started, "no game is running in this room");
  auto result = game_state_->apply(m->seat, command, *dice_);
  if (!result) return reply_error(p, id, result.error().code, result.error().message);
  p.send(share(protocol::make_ok(id)));
  broadcast_state(result.value());
}

void room::broadcast_state(const engine::events& evs) {
  ++seq_;
  deadline_.reset();
  std::shared_ptr<const std::string> spectator_frame;
  std::map<int, std::shared_ptr<const std::string>> seat_frames;
  const bool over = game_state_->is_over();
  if (over) {
    status_ = status::finished;
    last_result_ = game_state_->result();
    last_result_["seed"] = std::to_string(seed_);
    prompt_timer_.cancel();
  } else {
    arm_prompt_timer();
  }
  for (auto& [c, m] : members_) {
    auto p = m.p.lock();
    if (!p) continue;
    std::shared_ptr<const std::string> frame;
    if (m.seat < 0) {
      if (!spectator_frame) spectator_frame = share(state_frame(engine::viewer::spectator(), evs));
      frame = spectator_frame;
    } else {
      auto& f = seat_frames[m.seat];
      if (!f) f = share(state_frame(engine::viewer{m.seat}, evs));
      frame = f;
    }
    p->send(frame);
  }
  if (over) finish_game_if_over();
}

std::string room::state_frame(engine::viewer v, const engine::events& evs) const {
  json evj = json::array();
  for (const auto& e : evs)
    if (e.visible_to(v)) evj.push_back(e.body);
  json prompt = nullptr;
  if (auto pr = game_state_->current_prompt()) {
    prompt = {{"kind", pr->kind}, {"seats", pr->seats}, {"deadline", deadline_ ? json(epoch_ms(*deadline_)) : json(nullptr)}};
  }
  const bool over = game_state_->is_over();
  json j = {{"type", "state"},
            {"room", code_},
            {"seq", seq_},
            {"seat", v.is_spectator() ? json(nullptr) : json(v.seat)},
            {"view", game_state_->view(v)},
            {"legal", v.is_spectator() ? json::array() : game_state_->legal(v.seat)},
            {"prompt", prompt},
            {"events", std::move(evj)},
            {"over", over},
            {"result", over ? last_result_ : json(nullptr)}};
  return protocol::dump(j);
}

void room::arm_prompt_timer() {
  prompt_timer_.cancel();
  deadline_.reset();
  if (!game_state_ || game_state_->is_over()) return;
  auto pr = game_state_->current_prompt();
  if (!pr) return;
  std::optional<clock::duration> wait;
  if (pr->timeout_ms) wait = std::chrono::milliseconds(*pr->timeout_ms);
  const auto now = clock::now();
  for (int s : pr->seats) {
    if (s < 0 || static_cast<std::size_t>(s) >= seats_.size()) continue;
    const auto& st = seats_[static_cast<std::size_t>(s)];
    if (st.connection != 0) continue;
    clock::duration w = st.gone ? clock::duration(cfg_.auto_play_delay)
                                : std::max(clock::duration::zero(), st.disconnected_at + cfg_.reconnect_grace - now);
    wait = wait ? std::min(*wait, w) : w;
  }
  if (!wait) return;
  deadline_ = std::chrono::system_clock::now() + std::chrono::duration_cast<std::chrono::system_clock::duration>(*wait);
  prompt_timer_.expires_after(*wait);
  prompt_timer_.async_wait([self = shared_from_this(), serial = pr->serial](boost::system::error_code ec) {
    if (!ec) self->on_prompt_timer(serial);
  });
}

void room::on_prompt_timer(std::uint64_t serial) {
  if (closed_ || !game_state_ || game_state_->is_over()) return;
  auto pr = game_state_->current_prompt();
  if (!pr || pr->serial != serial) return;  // the prompt was answered meanwhile
  engine::events evs{engine::event::public_event({{"kind", "timed_out"}, {"seats", pr->seats}, {"prompt", pr->kind}})};
  auto more = game_state_->on_timeout(serial, *dice_);
  evs.insert(evs.end(), std::make_move_iterator(more.begin()), std::make_move_iterator(more.end()));
  spdlog::info("prompt timed out room={} prompt={}", code_, pr->kind);
  broadcast_state(evs);
}

void room::finish_game_if_over() {
  spdlog::info("game finished room={} game={} result={}", code_, game_.id, last_result_.value("winners", json::array()).dump());
  // Players who left for good free their seats; the room is ready for another game.
  for (auto& st : seats_)
    if (st.gone || st.connection == 0) st = seat{};
  compact_seats(static_cast<std::size_t>(game_.seats(options_).max));
  pass_host_if_needed();
  broadcast_room();
}

void room::pass_host_if_needed() {
  for (const auto& [c, m] : members_)
    if (m.seat >= 0 && m.who.player_id == host_) return;
  for (const auto& st : seats_) {
    if (st.connection != 0) {
      if (!host_.empty()) spdlog::info("host passed room={} from={} to={}", code_, host_, st.player_id);
      host_ = st.player_id;
      return;
    }
  }
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
    if (ec || self->closed_ || !self->members_.empty()) return;
    self->closed_ = true;
    self->prompt_timer_.cancel();
    spdlog::info("room expired room={}", self->code_);
    if (self->on_expired_) self->on_expired_(self->code_);
  });
}

json room::room_json() const {
  json seats = json::array();
  for (std::size_t i = 0; i < seats_.size(); ++i) {
    const auto& st = seats_[i];
    if (st.player_id.empty()) {
      seats.push_back({{"seat", i}, {"player", nullptr}, {"name", nullptr}, {"status", "empty"}});
      continue;
    }
    const char* state = st.connection != 0 ? "connected" : st.gone ? "gone" : "disconnected";
    seats.push_back({{"seat", i}, {"player", st.player_id}, {"name", st.name}, {"status", state}});
  }
  const auto range = game_.seats(options_);
  const auto spectators = std::count_if(members_.begin(), members_.end(), [](const auto& kv) { return kv.second.seat < 0; });
  const char* st = status_ == status::lobby ? "lobby" : status_ == status::playing ? "playing" : "finished";
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
            {"result", last_result_}}}};
}

void room::broadcast_room() { send_to_all(share(protocol::dump(room_json()))); }

void room::send_to_all(const std::shared_ptr<const std::string>& frame) {
  for (auto& [c, m] : members_)
    if (auto p = m.p.lock()) p->send(frame);
}

void room::reply_error(participant& p, const json& id, std::string_view code, std::string_view message) {
  p.send(share(protocol::make_error(id, code, message)));
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
