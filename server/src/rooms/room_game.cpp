// The room's side of the game: starting, commands, who is told which state, who is due when the
// prompt's timer runs out (C4), away mode (C5), and server-played seats. The game itself, its
// frames, history and timers are at the table (table.hpp).
#include <algorithm>

#include <spdlog/spdlog.h>

#include "ops/metrics.hpp"
#include "rooms/random.hpp"
#include "rooms/room.hpp"
#include "tinsel/engine/bot.hpp"
#include "tinsel/protocol/errors.hpp"
#include "tinsel/protocol/outgoing.hpp"

namespace tinsel::server {

namespace errc = protocol::errc;
using clock = std::chrono::steady_clock;

void room::do_start(const pptr& p, std::optional<int> first_seat, const json& id) {
  if (!check_host(p, id, "start the game")) return;
  if (status_ == status::playing) return reply_error(p, id, errc::game_in_progress, "a game is already running");
  const int players = seated_count();
  const auto range = game().seats(options_);
  if (players < range.min)
    return reply_error(p, id, errc::not_enough_players,
                       game().title + " needs at least " + std::to_string(range.min) + " players");
  if (first_seat && *first_seat >= players)
    return reply_error(p, id, errc::invalid_field,
                       "field 'first_seat' must name a seated player (0 to " + std::to_string(players - 1) + ")");
  // The engine numbers players 0..n-1: seated players move to the front, in seat order.
  compact_seats(static_cast<std::size_t>(players));
  json names = json::array();
  std::vector<std::string> ids;
  for (const auto& st : seats_) {
    names.push_back(st.name);
    ids.push_back(st.player_id);
  }
  auto started = table_.start(options_, players, first_seat, names, std::move(ids));
  if (!started) {
    compact_seats(static_cast<std::size_t>(range.max));
    return reply_error(p, id, started.error().code, started.error().message);
  }
  status_ = status::playing;
  watchers_.clear();
  for (const auto& [c, m] : members_)
    if (m.seat < 0) watchers_.insert(m.who.player_id);
  for (auto& st : seats_) {
    st.away = false;
    st.timeouts = 0;
  }
  spdlog::info("game started room={} game={} players={}", code_, game().id, players);
  metrics().game_started(game().id);
  append_record(std::move(started.value()));
  reply_ok(p, id);
  broadcast_room();
  broadcast_state({table_.started_event()});
}

void room::do_action(const pptr& p, const json& command, const json& id) {
  const command_timer timing(game().id);
  auto refuse = [&](std::string_view code, std::string_view message) {
    metrics().command_refused(game().id, code);
    reply_error(p, id, code, message);
  };
  const member* m = find_member(p->connection_id());
  if (!m) return refuse(errc::not_in_room, "you are not in this room");
  if (m->seat < 0) return refuse(errc::not_a_player, "spectators cannot play");
  if (status_ != status::playing || !table_.has_game())
    return refuse(errc::game_not_started, "no game is running in this room");
  auto& st = seats_[static_cast<std::size_t>(m->seat)];
  auto result = table_.apply(m->seat, command);
  if (!result) return refuse(result.error().code, result.error().message);
  metrics().command_accepted(game().id);
  if (queue_.durable()) journal_game({{"kind", "command"}, {"seat", m->seat}, {"command", command}});
  const bool was_away = st.away;
  st.timeouts = 0;  // any command clears away (C5)
  st.away = false;
  reply_ok(p, id);
  if (was_away) broadcast_room();
  broadcast_state(result.value());
}

void room::broadcast_state(const engine::events& evs) {
  table_.next_seq();
  const bool over = table_.game().is_over();
  if (over) {
    status_ = status::finished;
    table_.finish();
    if (queue_.durable()) {
      std::vector<std::string> names;
      for (const auto& st : seats_) names.push_back(st.name);
      append_record(table_.ended_record(secure_hex(8), options_, names));
    }
    table_.cancel_timers();
  } else {
    arm_prompt_timer();
  }
  // One frame per distinct view: all spectators share one, and so do seats whose frames match.
  // Members taking views as changes share one patched frame per distinct view the same way.
  const auto parts = table_.publish(evs);
  const auto seq = table_.seq();
  frame_ptr spectator_frame, spectator_patched;
  std::vector<frame_ptr> seat_frames(seats_.size()), seat_patched;  // by seat; patched only when asked
  for (auto& [c, m] : members_) {
    auto p = m.p.lock();
    if (!p) continue;
    const auto index = static_cast<std::size_t>(m.seat);
    if (m.seat >= 0 && index >= seat_frames.size()) seat_frames.resize(index + 1);
    const engine::viewer v{m.seat};
    if (m.who.view_changes) {
      const bool follows = m.view_seq && *m.view_seq + 1 == seq && m.view_seat == v.seat;
      const std::string* patch = table_.view_patch(v);  // keeps this view as the next base, too
      m.view_seq = seq;
      m.view_seat = v.seat;
      if (follows && patch) {
        if (m.seat >= 0 && index >= seat_patched.size()) seat_patched.resize(seat_frames.size());
        auto& frame = m.seat < 0 ? spectator_patched : seat_patched[index];
        if (!frame) frame = share_frame(table_.frame(v, parts, patch));
        tell(p, frame);
        continue;
      }
    }
    auto& frame = m.seat < 0 ? spectator_frame : seat_frames[index];
    if (!frame) frame = share_frame(table_.frame(v, parts));
    tell(p, frame);
  }
  if (over) {
    finish_game_if_over();
  } else {
    arm_bot_timer();
  }
}

void room::sent_whole_view(member& m, engine::viewer v) {
  if (!m.who.view_changes) return;
  table_.keep_view(v);
  m.view_seq = table_.seq();
  m.view_seat = v.seat;
}

void room::full_view(std::shared_ptr<participant> p, json request_id) {
  dispatch([p, id = request_id](room& r) {
    member* m = r.find_member(p->connection_id());
    if (!m) return r.reply_error(p, id, errc::not_in_room, "you are not in this room");
    if (!r.table_.has_game()) return r.reply_error(p, id, errc::game_not_started, "there is no game in this room yet");
    r.reply_ok(p, id);
    // The current seq again (the member has seen it), without events: nothing is told twice.
    const auto v = r.table_.viewer_of(m->seat, m->who.player_id);
    r.tell(p, share_frame(r.table_.catch_up_frame(v, std::nullopt)));
    r.sent_whole_view(*m, v);
  }, p, request_id);
}

engine::outcome<engine::events> room::play(int seat_index, const json& command) {
  auto result = table_.apply(seat_index, command);
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
// `with_grace` false: the time a decision is taken for a player who is there (what
// prompt.deadline shows); a lost connection's grace is not a turn clock (issue 31).
std::optional<clock::time_point> room::seat_due(const seat& st, const engine::prompt& pr, bool with_grace) const {
  const auto opened = table_.prompt_opened();
  std::optional<clock::time_point> due;
  if (pr.timeout_ms) due = opened + std::chrono::milliseconds(*pr.timeout_ms);
  std::optional<clock::time_point> own;
  if (st.played_by_server()) return std::nullopt;
  if (st.connection == 0) {
    if (with_grace) own = st.disconnected_at + cfg_.reconnect_grace;
  } else if (st.away) own = opened + cfg_.away_delay;
  if (own && (!due || *own < *due)) due = own;
  return due;
}

void room::arm_prompt_timer() {
  table_.cancel_prompt_timer();
  if (!table_.running()) return;
  auto pr = table_.game().current_prompt();
  if (!pr) return;
  const auto now = clock::now();
  const auto opened = table_.prompt_opened(pr->serial, now);
  std::optional<clock::time_point> due;
  if (pr->timeout_ms) due = opened + std::chrono::milliseconds(*pr->timeout_ms);
  auto shown = due;  // prompt.deadline: without the grace of a lost connection
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
    if (auto d = seat_due(st, *pr, false); d && (!shown || *d < *shown)) shown = d;
  }
  if (!due) return;
  table_.arm_prompt_timer(*due, shown, now, [self = shared_from_this(), serial = pr->serial] {
    self->run_op([serial](room& r) { r.on_prompt_timer(serial); });
  });
}

// The prompt's own timer ran out: the rulebook default for every awaited seat. Only some seats
// are due (away or disconnected in a simultaneous prompt): each of those is played alone, so the
// others keep their time.
void room::on_prompt_timer(std::uint64_t serial) {
  if (closed_ || !table_.running()) return;
  auto pr = table_.game().current_prompt();
  if (!pr || pr->serial != serial) return;  // the prompt was answered meanwhile
  const auto now = clock::now();
  const bool prompt_due = pr->timeout_ms && table_.prompt_opened() + std::chrono::milliseconds(*pr->timeout_ms) <= now;
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
  if (status_ != status::playing || !table_.running())
    return reply_error(p, id, errc::game_not_started, "no game is running in this room");
  const auto pr = table_.game().current_prompt();
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
    auto more = table_.on_timeout(serial);
    evs.insert(evs.end(), std::make_move_iterator(more.begin()), std::make_move_iterator(more.end()));
    journal_game(std::move(entry));
    return broadcast_state(evs);
  }
  // Part of a simultaneous prompt: the seat's own default entry.
  const int s = due.front();
  const json cmd = table_.seat_default_entry(s);
  auto result = cmd.is_null() ? engine::outcome<engine::events>(engine::events{}) : table_.apply(s, cmd);
  if (cmd.is_null() || !result) result = engine::events(table_.on_timeout(serial));  // no concrete entry: everyone's default
  entry["seat"] = s;
  entry["command"] = cmd;
  journal_game(std::move(entry));
  evs.insert(evs.end(), result.value().begin(), result.value().end());
  broadcast_state(evs);
}

void room::arm_bot_timer() {
  table_.cancel_bot_timer();
  if (!table_.running()) return;
  auto pr = table_.game().current_prompt();
  if (!pr) return;
  const bool bot_turn = std::any_of(pr->seats.begin(), pr->seats.end(), [&](int s) {
    return s >= 0 && static_cast<std::size_t>(s) < seats_.size() && seats_[static_cast<std::size_t>(s)].played_by_server();
  });
  if (!bot_turn) return;
  table_.arm_bot_timer([self = shared_from_this(), serial = pr->serial] {
    self->run_op([serial](room& r) { r.on_bot_timer(serial); });
  });
}

// One server-played seat moves; the resulting broadcast re-arms this timer if another is due.
void room::on_bot_timer(std::uint64_t serial) {
  if (closed_ || !table_.running()) return;
  auto pr = table_.game().current_prompt();
  if (!pr || pr->serial != serial) return;
  for (int s : pr->seats) {
    if (s < 0 || static_cast<std::size_t>(s) >= seats_.size() || !seats_[static_cast<std::size_t>(s)].played_by_server())
      continue;
    const auto& st = seats_[static_cast<std::size_t>(s)];
    const json cmd = engine::choose_bot_command(table_.game(), s, secure_u64(), st.bot ? st.level : engine::bot_level::fair,
                                                table_.bot_memory_seed(s));
    if (cmd.is_null() || !play(s, cmd)) {
      // No concrete command to choose from: the rulebook default stands in.
      spdlog::warn("bot found no command room={} seat={} prompt={}", code_, s, pr->kind);
      auto evs = table_.on_timeout(serial);
      journal_game({{"kind", "default"}, {"serial", serial}});
      broadcast_state(evs);
    }
    return;
  }
}

void room::finish_game_if_over() {
  spdlog::info("game finished room={} game={} winners={}", code_, game().id, table_.last_result().value("winners", json::array()).dump());
  metrics().game_finished(game().id);
  // Players who left for good free their seats; bots stay; a disconnected player keeps the seat
  // for the lobby grace from now on. The room is ready for another game.
  for (auto& st : seats_) {
    if (st.gone) st = seat{};
    else if (st.connection == 0 && !st.bot && !st.player_id.empty()) st.disconnected_at = clock::now();
  }
  compact_seats(static_cast<std::size_t>(game().seats(options_).max));
  arm_seat_timer();
  pass_host_if_needed();
  broadcast_room();
}

}  // namespace tinsel::server
