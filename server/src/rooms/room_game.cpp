// The game side of a room: starting, commands, state pushes with per-viewer projections, the
// history for resuming clients, prompt timers (C4), away mode (C5), and server-played seats.
#include <algorithm>

#include <spdlog/spdlog.h>

#include "ops/metrics.hpp"
#include "rooms/random.hpp"
#include "rooms/room.hpp"
#include "tinsel/json_text/json_text.hpp"
#include "tinsel/engine/bot.hpp"
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

void room::do_start(const pptr& p, std::optional<int> first_seat, const json& id) {
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
  first_seat_ = first_seat;
  status_ = status::playing;
  last_result_ = nullptr;
  watchers_.clear();
  for (const auto& [c, m] : members_)
    if (m.seat < 0) watchers_.insert(m.who.player_id);
  prompt_serial_ = ~std::uint64_t{0};
  for (auto& st : seats_) {
    st.away = false;
    st.timeouts = 0;
  }
  spdlog::info("game started room={} game={} players={}", code_, game_.id, players);
  metrics().game_started(game_.id);
  json names = json::array();
  std::vector<std::string> ids;
  for (const auto& st : seats_) {
    names.push_back(st.name);
    ids.push_back(st.player_id);
  }
  begin_game_memory(ids, names);
  game_log_ = json::array();
  commands_since_hash_ = 0;
  append_record({{"kind", "started"},
           {"seq", seq_ + 1},
           {"seed", std::to_string(seed_)},
           {"players", names},
           {"player_ids", ids},
           {"first_seat", first_seat ? json(*first_seat) : json(nullptr)},
           {"options", options_}});
  reply_ok(p, id);
  broadcast_room();
  broadcast_state({game_started_event(names)});
}

void room::do_action(const pptr& p, const json& command, const json& id) {
  const command_timer timing(game_.id);
  auto refuse = [&](std::string_view code, std::string_view message) {
    metrics().command_refused(game_.id, code);
    reply_error(p, id, code, message);
  };
  const member* m = find_member(p->connection_id());
  if (!m) return refuse(errc::not_in_room, "you are not in this room");
  if (m->seat < 0) return refuse(errc::not_a_player, "spectators cannot play");
  if (status_ != status::playing || !game_state_)
    return refuse(errc::game_not_started, "no game is running in this room");
  auto& st = seats_[static_cast<std::size_t>(m->seat)];
  auto result = game_state_->apply(m->seat, command, *dice_);
  if (!result) return refuse(result.error().code, result.error().message);
  metrics().command_accepted(game_.id);
  if (journal_) journal_game({{"kind", "command"}, {"seat", m->seat}, {"command", command}});
  const bool was_away = st.away;
  st.timeouts = 0;  // any command clears away (C5)
  st.away = false;
  reply_ok(p, id);
  if (was_away) broadcast_room();
  broadcast_state(result.value());
}

struct room::state_parts {
  struct event_text {
    std::string body;  // serialized
    engine::event::audience to;
    int seat;
    std::string retold = {};  // serialized event::retold, for the history and the log; empty: as body
    bool visible_to(engine::viewer v) const { return engine::event{json(), to, seat}.visible_to(v); }
  };
  std::vector<event_text> events;
  std::string public_events;        // the events array, when every event is public
  bool all_public = true;
  std::string middle;               // from "over" to "seat": the same for every viewer
  std::string tail;                 // from "seq" to "view"
  std::string shared_view;          // the view, when the game shows everyone the same
};

void room::broadcast_state(const engine::events& evs) {
  ++seq_;
  const bool over = game_state_->is_over();
  if (over) {
    status_ = status::finished;
    last_result_ = game_state_->result();
    last_result_["seed"] = std::to_string(seed_);
    last_result_["names"] = game_names_;  // who played, whatever happens to the seats later
    if (journal_) {
      record_id_ = secure_hex(8);
      last_result_["record"] = record_id_;  // GET /records/<id> (docs/protocol.md, "Game records")
      append_record({{"kind", "ended"}, {"seq", seq_}, {"result", last_result_}, {"record_id", record_id_}, {"record", game_record()}});
    }
    prompt_timer_.cancel();
    bot_timer_.cancel();
    deadline_.reset();
  } else {
    arm_prompt_timer();
  }
  // One frame per distinct view: all spectators share one, and so do seats whose frames match.
  const state_parts parts = make_state_parts(evs);
  keep_events(seq_, parts);
  std::shared_ptr<const std::string> spectator_frame;
  std::vector<std::shared_ptr<const std::string>> seat_frames(seats_.size());  // by seat
  for (auto& [c, m] : members_) {
    auto p = m.p.lock();
    if (!p) continue;
    const auto index = static_cast<std::size_t>(m.seat);
    if (m.seat >= 0 && index >= seat_frames.size()) seat_frames.resize(index + 1);
    auto& frame = m.seat < 0 ? spectator_frame : seat_frames[index];
    if (!frame) frame = share(state_frame(engine::viewer{m.seat}, parts));
    tell(p, frame);
  }
  if (over) {
    finish_game_if_over();
  } else {
    arm_bot_timer();
  }
}

// The members come in the order nlohmann::json writes an object's (alphabetical), as they did when
// a frame was one JSON document; catch-up members (`resync`, `replayed_from`) follow at the end.
room::state_parts room::make_state_parts(const engine::events& evs) const {
  state_parts s = serialize_events(evs);
  complete_state_parts(s);
  return s;
}

room::state_parts room::serialize_events(const engine::events& evs) {
  state_parts s;
  s.events.reserve(evs.size());
  for (const auto& e : evs)
    s.events.push_back({protocol::dump(e.body), e.to, e.seat, e.retold.is_null() ? std::string() : protocol::dump(e.retold)});
  return s;
}

void room::complete_state_parts(state_parts& s) const {
  for (const auto& e : s.events)
    if (e.to != engine::event::audience::everyone) s.all_public = false;
  if (s.all_public) {
    s.public_events = "[";
    for (const auto& e : s.events) {
      if (s.public_events.size() > 1) s.public_events += ',';
      s.public_events += e.body;
    }
    s.public_events += ']';
  }
  namespace text = json_text;
  const bool over = game_state_->is_over();
  s.middle.reserve(128);
  s.middle += ",\"over\":";
  text::boolean(s.middle, over);
  s.middle += ",\"prompt\":";
  if (auto pr = game_state_->current_prompt()) {
    s.middle += "{\"deadline\":";
    if (deadline_) text::integer(s.middle, epoch_ms(*deadline_));
    else s.middle += "null";
    s.middle += ",\"kind\":";
    text::string(s.middle, pr->kind);
    s.middle += ",\"seats\":[";
    for (std::size_t i = 0; i < pr->seats.size(); ++i) {
      if (i) s.middle += ',';
      text::integer(s.middle, pr->seats[i]);
    }
    s.middle += "]}";
  } else {
    s.middle += "null";
  }
  s.middle += ",\"result\":";
  if (over) protocol::dump_to(s.middle, last_result_);
  else s.middle += "null";
  s.middle += ",\"room\":";
  text::string(s.middle, code_);
  s.middle += ",\"seat\":";
  s.tail = ",\"seq\":";
  text::integer(s.tail, seq_);
  s.tail += ",\"type\":\"state\",\"view\":";
  // The game's own text where it writes one (game::write_shared_view), else its json serialized.
  if (!game_state_->write_shared_view(s.shared_view))
    if (const auto shared = game_state_->shared_view()) protocol::dump_to(s.shared_view, *shared);
}

std::string room::state_frame(engine::viewer v, const state_parts& s, std::string_view extra) const {
  // One buffer, sized like the last frame, and every part appended in place.
  std::string f;
  f.reserve(frame_size_hint_ + 256);
  f += "{\"events\":";
  if (s.all_public) {
    f += s.public_events;
  } else {
    f += '[';
    bool first = true;
    for (const auto& e : s.events) {
      if (!e.visible_to(v)) continue;
      if (!first) f += ',';
      first = false;
      f += e.body;
    }
    f += ']';
  }
  f += ",\"legal\":";
  if (v.is_spectator()) f += "[]";
  else if (!game_state_->write_legal(v.seat, f)) protocol::dump_to(f, game_state_->legal(v.seat));
  f += s.middle;
  if (v.is_spectator()) f += "null";
  else f += std::to_string(v.seat);
  f += s.tail;
  if (s.shared_view.empty()) protocol::dump_to(f, game_state_->view(v));
  else f += s.shared_view;
  f += extra;
  f += '}';
  frame_size_hint_ = f.size();
  return f;
}

std::string room::state_frame(engine::viewer v, const engine::events& evs, const json& extra) const {
  std::string more;
  if (extra.is_object())
    for (const auto& [k, val] : extra.items()) more += "," + protocol::dump(json(k)) + ":" + protocol::dump(val);
  return state_frame(v, make_state_parts(evs), more);
}

// A (re)joining member gets one state with the current view. With `last_seq` from the history it
// carries every event of the states it missed, each tagged with its state's `seq`, so the stream
// continues with no gap and no duplicate; beyond the history it is marked `resync`.
std::string room::catch_up_frame(engine::viewer v, std::optional<std::uint64_t> last_seq, bool replay) const {
  state_parts missed;
  std::string extra;
  if (last_seq && *last_seq < seq_) {
    const bool covered = replay && !history_.empty() && history_.front().seq <= *last_seq + 1;
    if (covered) {
      for (const auto& h : history_) {
        if (h.seq <= *last_seq) continue;
        for (const auto& e : h.evs) missed.events.push_back({*e.body, e.to, e.seat});  // with their seq
      }
      extra = ",\"replayed_from\":" + std::to_string(*last_seq + 1);
    } else {
      extra = ",\"resync\":true";
    }
  }
  complete_state_parts(missed);
  return state_frame(v, missed, extra);
}

void room::keep_events(std::uint64_t seq, const engine::events& evs) { keep_events(seq, serialize_events(evs)); }

void room::keep_events(std::uint64_t seq, const state_parts& parts) {
  // Each body once more with its state's seq, shared by the history and the log: as it is told
  // again (event::retold), so a catch-up or a log never repeats what the live state showed once.
  history_.push_back({seq, {}});
  auto& kept = history_.back().evs;
  kept.reserve(parts.events.size());
  const std::string seq_text = std::to_string(seq);
  for (const auto& e : parts.events) {
    const std::string& told = e.retold.empty() ? e.body : e.retold;
    kept.push_back({seq, e.to, e.seat, std::make_shared<const std::string>(protocol::insert_member(told, "seq", seq_text))});
    event_log_.push_back(kept.back());
  }
  while (history_.size() > cfg_.history_states) history_.pop_front();
  while (event_log_.size() > cfg_.game_log_events) {
    event_log_.pop_front();
    event_log_truncated_ = true;
  }
}

void room::begin_game_memory(std::vector<std::string> player_ids, json names) {
  history_.clear();
  event_log_.clear();
  event_log_truncated_ = false;
  game_players_ = std::move(player_ids);
  game_names_ = std::move(names);
}

engine::viewer room::game_viewer(int seat_index, const std::string& player_id) const {
  if (status_ == status::playing || seat_index < 0) return engine::viewer{seat_index};
  const auto it = std::find(game_players_.begin(), game_players_.end(), player_id);
  return it == game_players_.end() ? engine::viewer::spectator()
                                   : engine::viewer::player(static_cast<int>(it - game_players_.begin()));
}

// The kept events `v` may see, each with its state's seq. Visibility is the state frames' own rule
// (event::visible_to), so the log never shows a viewer what its states did not.
std::string room::game_log_frame(engine::viewer v) const {
  std::string f = "{\"events\":[";
  bool first = true;
  for (const auto& e : event_log_) {
    if (!e.visible_to(v)) continue;
    if (!first) f += ',';
    first = false;
    f += *e.body;
  }
  f += "],\"game\":" + protocol::dump(json(game_.id)) + ",\"room\":" + protocol::dump(json(code_)) +
       ",\"seq\":" + std::to_string(seq_) + ",\"truncated\":" + (event_log_truncated_ ? "true" : "false") +
       ",\"type\":\"game_log\"}";
  return f;
}

engine::outcome<engine::events> room::play(int seat_index, const json& command) {
  auto result = game_state_->apply(seat_index, command, *dice_);
  if (result) {
    journal_game({{"kind", "command"}, {"seat", seat_index}, {"command", command}, {"by", "server"}});
    broadcast_state(result.value());
  }
  return result;
}

// When a seat's default applies: the engine's timer for the prompt (counted from when the prompt
// opened, so answers from other seats of a simultaneous prompt do not extend it), or sooner for a
// seat nobody answers (disconnected: after the reconnection grace; away: after away_delay). Seats
// the server plays are moved by the bot timer instead. nullopt: no timer for this seat.
std::optional<clock::time_point> room::seat_due(const seat& st, const engine::prompt& pr) const {
  std::optional<clock::time_point> due;
  if (pr.timeout_ms) due = prompt_opened_ + std::chrono::milliseconds(*pr.timeout_ms);
  std::optional<clock::time_point> own;
  if (st.played_by_server()) return std::nullopt;
  if (st.connection == 0) own = st.disconnected_at + cfg_.reconnect_grace;
  else if (st.away) own = prompt_opened_ + cfg_.away_delay;
  if (own && (!due || *own < *due)) due = own;
  return due;
}

void room::arm_prompt_timer() {
  prompt_timer_.cancel();
  deadline_.reset();
  if (!game_state_ || game_state_->is_over()) return;
  auto pr = game_state_->current_prompt();
  if (!pr) return;
  const auto now = clock::now();
  if (pr->serial != prompt_serial_) {
    prompt_serial_ = pr->serial;
    prompt_opened_ = now;
  }
  std::optional<clock::time_point> due;
  if (pr->timeout_ms) due = prompt_opened_ + std::chrono::milliseconds(*pr->timeout_ms);
  for (int s : pr->seats) {
    if (s < 0 || static_cast<std::size_t>(s) >= seats_.size()) continue;
    auto& st = seats_[static_cast<std::size_t>(s)];
    if (st.connection == 0 && !st.bot && !st.gone && now >= st.disconnected_at + cfg_.reconnect_grace) {
      st.gone = true;  // not back within the grace: gone for good, the bot takes over
      spdlog::info("seat given up room={} seat={}", code_, s);
      pass_host_if_needed();
      broadcast_room();
    }
    if (auto d = seat_due(st, *pr); d && (!due || *d < *due)) due = d;
  }
  if (!due) return;
  deadline_ = std::chrono::system_clock::now() +
              std::chrono::duration_cast<std::chrono::system_clock::duration>(std::max(clock::duration::zero(), *due - now));
  prompt_timer_.expires_at(*due);
  prompt_timer_.async_wait([self = shared_from_this(), serial = pr->serial](boost::system::error_code ec) {
    if (!ec) self->run_op([serial](room& r) { r.on_prompt_timer(serial); }, nullptr, nullptr);
  });
}

// The prompt's own timer ran out: the rulebook default for every awaited seat. Only some seats
// are due (away or disconnected in a simultaneous prompt): each of those is played alone, so the
// others keep their time.
void room::on_prompt_timer(std::uint64_t serial) {
  if (closed_ || !game_state_ || game_state_->is_over()) return;
  auto pr = game_state_->current_prompt();
  if (!pr || pr->serial != serial) return;  // the prompt was answered meanwhile
  const auto now = clock::now();
  const bool prompt_due = pr->timeout_ms && prompt_opened_ + std::chrono::milliseconds(*pr->timeout_ms) <= now;
  std::vector<int> due;
  for (int s : pr->seats) {
    if (s < 0 || static_cast<std::size_t>(s) >= seats_.size()) continue;
    auto d = seat_due(seats_[static_cast<std::size_t>(s)], *pr);
    if (prompt_due ? !seats_[static_cast<std::size_t>(s)].played_by_server() : (d && *d <= now)) due.push_back(s);
  }
  if (!prompt_due && due.empty()) return arm_prompt_timer();
  bool away_changed = false;
  for (int s : due) {
    auto& st = seats_[static_cast<std::size_t>(s)];
    if (pr->optional) continue;  // a window that closed by itself: nobody was late
    if (++st.timeouts >= cfg_.away_after_timeouts && !st.away) {
      st.away = true;
      away_changed = true;
    }
  }
  if (away_changed) broadcast_room();
  apply_default(*pr, due, prompt_due, false);
}

// The host's skip: the seat's part of the open prompt resolves now, by the same path as its timer
// (a timed_out event naming the seat, then the default's events), with timers off too. It does not
// count towards away: that is for players who let their own time run out.
void room::do_skip(const pptr& p, int seat_index, const json& id) {
  if (!check_host(p, id, "skip a player")) return;
  if (status_ != status::playing || !game_state_ || game_state_->is_over())
    return reply_error(p, id, errc::game_not_started, "no game is running in this room");
  const auto pr = game_state_->current_prompt();
  if (!pr || std::find(pr->seats.begin(), pr->seats.end(), seat_index) == pr->seats.end())
    return reply_error(p, id, errc::not_awaited, "the game is not waiting for seat " + std::to_string(seat_index));
  spdlog::info("host skipped room={} prompt={} seat={}", code_, pr->kind, seat_index);
  reply_ok(p, id);
  apply_default(*pr, {seat_index}, false, true);
}

void room::apply_default(const engine::prompt& pr, const std::vector<int>& due, bool whole, bool by_host) {
  const auto serial = pr.serial;
  engine::events evs{engine::event::public_event({{"kind", "timed_out"}, {"seats", due}, {"prompt", pr.kind}})};
  spdlog::info("prompt timed out room={} prompt={} seats={}", code_, pr.kind, json(due).dump());
  json entry = {{"kind", "timeout"}, {"serial", serial}, {"seats", due}, {"prompt", pr.kind}};
  if (by_host) entry["by"] = "host";
  if (whole || due.size() == pr.seats.size()) {
    auto more = game_state_->on_timeout(serial, *dice_);
    evs.insert(evs.end(), std::make_move_iterator(more.begin()), std::make_move_iterator(more.end()));
    journal_game(std::move(entry));
    return broadcast_state(evs);
  }
  // Part of a simultaneous prompt: the seat's own default entry.
  const int s = due.front();
  const json cmd = seat_default_entry(s);
  auto result = cmd.is_null() ? engine::outcome<engine::events>(engine::events{}) : game_state_->apply(s, cmd, *dice_);
  if (cmd.is_null() || !result) result = game_state_->on_timeout(serial, *dice_);  // no concrete entry: everyone's default
  entry["seat"] = s;
  entry["command"] = cmd;
  journal_game(std::move(entry));
  evs.insert(evs.end(), result.value().begin(), result.value().end());
  broadcast_state(evs);
}

json room::seat_default_entry(int seat_index) const {
  const auto pr = game_state_->current_prompt();
  json first = nullptr;
  for (const auto& cmd : game_state_->legal(seat_index)) {
    if (!cmd.is_object() || cmd.contains("domain")) continue;  // only concrete commands are sent
    if (first.is_null()) first = cmd;
    if (!pr) break;
    // Tried on a copy with throwaway dice: the answer keeps the prompt open for the others and
    // takes this seat out of it (a "Stop!" claim in a reaction window, say, opens another prompt).
    auto trial = game_state_->clone();
    engine::seeded_dice scratch(0);
    if (!trial->apply(seat_index, cmd, scratch)) continue;
    const auto after = trial->current_prompt();
    if (after && after->serial == pr->serial &&
        std::find(after->seats.begin(), after->seats.end(), seat_index) == after->seats.end())
      return cmd;
  }
  return first;
}

void room::arm_bot_timer() {
  bot_timer_.cancel();
  if (!game_state_ || game_state_->is_over()) return;
  auto pr = game_state_->current_prompt();
  if (!pr) return;
  const bool bot_turn = std::any_of(pr->seats.begin(), pr->seats.end(), [&](int s) {
    return s >= 0 && static_cast<std::size_t>(s) < seats_.size() && seats_[static_cast<std::size_t>(s)].played_by_server();
  });
  if (!bot_turn) return;
  bot_timer_.expires_after(cfg_.auto_play_delay);
  bot_timer_.async_wait([self = shared_from_this(), serial = pr->serial](boost::system::error_code ec) {
    if (!ec) self->run_op([serial](room& r) { r.on_bot_timer(serial); }, nullptr, nullptr);
  });
}

// One server-played seat moves; the resulting broadcast re-arms this timer if another is due.
void room::on_bot_timer(std::uint64_t serial) {
  if (closed_ || !game_state_ || game_state_->is_over()) return;
  auto pr = game_state_->current_prompt();
  if (!pr || pr->serial != serial) return;
  for (int s : pr->seats) {
    if (s < 0 || static_cast<std::size_t>(s) >= seats_.size() || !seats_[static_cast<std::size_t>(s)].played_by_server())
      continue;
    const json cmd = engine::choose_bot_command(*game_state_, s, secure_u64());
    if (cmd.is_null() || !play(s, cmd)) {
      // No concrete command to choose from: the rulebook default stands in.
      spdlog::warn("bot found no command room={} seat={} prompt={}", code_, s, pr->kind);
      auto evs = game_state_->on_timeout(serial, *dice_);
      journal_game({{"kind", "default"}, {"serial", serial}});
      broadcast_state(evs);
    }
    return;
  }
}

void room::finish_game_if_over() {
  spdlog::info("game finished room={} game={} winners={}", code_, game_.id, last_result_.value("winners", json::array()).dump());
  metrics().game_finished(game_.id);
  // Players who left for good free their seats; bots stay; a disconnected player keeps the seat
  // for the lobby grace from now on. The room is ready for another game.
  for (auto& st : seats_) {
    if (st.gone) st = seat{};
    else if (st.connection == 0 && !st.bot && !st.player_id.empty()) st.disconnected_at = clock::now();
  }
  compact_seats(static_cast<std::size_t>(game_.seats(options_).max));
  arm_seat_timer();
  pass_host_if_needed();
  broadcast_room();
}

}  // namespace tinsel::server
