// The durable side of a room: what it writes to the journal, how it is rebuilt from it after a
// restart (or after a write that failed), and its finished games' records.
//
// A room journals: `created`; a `lobby` snapshot (host, options, seats with their players' token
// hashes, removed players with their names) whenever those change; `started` (seed, players' names and ids, first seat, options);
// every `command` a seat's player or the server played; every `timeout` default (also the host's skip, marked `by: "host"`); `default` (the
// rulebook default where a server-played seat had no command); `ended` (result, and the game record);
// `chat`; `game` (the host picked the next game: its id and options, set_game); and finally `closed`. Replaying them through the engine rebuilds the room exactly.
#include <algorithm>

#include <boost/asio/post.hpp>

#include <spdlog/spdlog.h>

#include "ops/metrics.hpp"
#include "rooms/random.hpp"
#include "rooms/room.hpp"
#include "tinsel/protocol/outgoing.hpp"

namespace tinsel::server {

using clock = std::chrono::steady_clock;

namespace {
// Chat lines a joining member receives (chat_history), and the journal keeps.
constexpr std::size_t chat_history_lines = 100;

}  // namespace

void room::remember_chat(json msg) {
  chat_.push_back(std::move(msg));
  if (chat_.size() > chat_history_lines) chat_.pop_front();
}

void room::journal_lobby_if_changed() {
  if (!queue_.durable()) return;
  json seats = json::array();
  for (const auto& st : seats_) {
    seats.push_back({{"player", st.player_id}, {"name", st.name}, {"token_hash", st.token_hash}, {"bot", st.bot}, {"gone", st.gone}});
    if (st.bot) seats.back()["bot_level"] = engine::bot_level_name(st.level);
  }
  json kicked = json::array();
  {
    std::lock_guard lock(kicked_mutex_);
    for (const auto& [player, who] : kicked_)
      kicked.push_back({{"player", player}, {"name", who.name}, {"token_hash", who.token_hash}});
  }
  json snapshot = {{"kind", "lobby"}, {"host", host_}, {"options", options_}, {"seats", seats},
                   {"kicked", kicked}, {"bots_added", bots_added_}};
  auto text = snapshot.dump();
  if (text == journaled_lobby_) return;
  journaled_lobby_ = std::move(text);
  append_record(std::move(snapshot));
}

void room::journal_game(json body) {
  if (queue_.durable()) append_record(table_.journal_entry(std::move(body)));
}

// Stored options normalized again: a journal written before an option existed lacks it, and the
// room shows every option (a game's full state, and so its hash, leaves a new option out at its
// default: see ub_game::full_state). Options the game refuses are kept as they are.
json room::stored_options(const json& o) const {
  auto normalized = game().normalize_options(o);
  return normalized ? std::move(normalized.value()) : o;
}

void room::restore_reset() {
  seats_.assign(static_cast<std::size_t>(game().seats(options_).max), seat{});
  host_.clear();
  {
    std::lock_guard lock(kicked_mutex_);
    kicked_.clear();
  }
  bots_added_ = 0;
  status_ = status::lobby;
  table_.reset();
  chat_.clear();
}

void room::restore_lobby(const json& r) {
  options_ = stored_options(r.at("options"));
  host_ = r.at("host").get<std::string>();
  seats_.clear();
  for (const auto& s : r.at("seats")) {
    seat st;
    st.player_id = s.at("player").get<std::string>();
    st.name = s.at("name").get<std::string>();
    st.token_hash = s.at("token_hash").get<std::string>();
    st.bot = s.at("bot").get<bool>();
    st.gone = s.at("gone").get<bool>();
    // Written before bots had levels: fair, as they played.
    st.level = engine::bot_level_from_name(s.value("bot_level", "fair")).value_or(engine::bot_level::fair);
    seats_.push_back(std::move(st));
  }
  // Each removed player as {"player","name","token_hash"}; journals written before those were kept list ids.
  std::map<std::string, sent_away_player> kicked;
  for (const auto& k : r.at("kicked")) {
    if (k.is_string()) kicked[k.get<std::string>()] = {k.get<std::string>(), ""};  // no name: the id stands in
    else kicked[k.at("player").get<std::string>()] = {k.at("name").get<std::string>(), k.value("token_hash", "")};
  }
  {
    std::lock_guard lock(kicked_mutex_);
    kicked_ = std::move(kicked);
  }
  bots_added_ = r.at("bots_added").get<int>();
  journaled_lobby_ = r.dump();
}

bool room::restore_started(const json& r, std::string& why) {
  // The game it started (journals written before set_game existed: the room's only game).
  if (r.contains("game") && r.at("game").get<std::string>() != game().id) {
    const auto* g = engine::builtin_games().find(r.at("game").get<std::string>());
    if (!g) {
      why = "a game '" + r.at("game").get<std::string>() + "' not hosted here";
      return false;
    }
    game_ = g;
    table_.change_game(*g);
  }
  options_ = stored_options(r.at("options"));
  // The players' ids by game seat; journals written before they were kept: the seated players of
  // the last lobby snapshot, in seat order, as the start compacted them.
  std::vector<std::string> ids;
  if (r.contains("player_ids")) {
    ids = r.at("player_ids").get<std::vector<std::string>>();
  } else {
    const auto players = r.at("players").size();
    for (const auto& st : seats_)
      if (!st.player_id.empty() && ids.size() < players) ids.push_back(st.player_id);
  }
  if (!table_.restore_started(r, options_, std::move(ids), why)) return false;
  status_ = status::playing;
  return true;
}

bool room::restore_ended(const json& r, std::string& why) {
  if (!table_.has_game() || !table_.game().is_over()) {
    why = "the game ended in the journal but not in the replay";
    return false;
  }
  status_ = status::finished;
  table_.restore_ended(r);
  return true;
}

bool room::restore_record(const json& r, std::string& why) {
  if (!r.is_object()) {
    why = "an unreadable record";
    return false;
  }
  const auto kind = r.at("kind").get<std::string>();
  if (kind == "created") {
    // The room's first game (a rebuild after a failed write may find the room at another one).
    if (const auto* g = engine::builtin_games().find(r.value("game", game().id))) game_ = g;
    table_.change_game(game());
    options_ = stored_options(r.at("options"));
    seats_.assign(static_cast<std::size_t>(game().seats(options_).max), seat{});
  } else if (kind == "lobby") {
    restore_lobby(r);
  } else if (kind == "game") {
    const auto* next = engine::builtin_games().find(r.at("game").get<std::string>());
    if (!next) {
      why = "the next game '" + r.at("game").get<std::string>() + "' is not hosted here";
      return false;
    }
    if (status_ == status::playing) {
      why = "the game changed while a game was running";
      return false;
    }
    switch_game(*next, json::object());
    options_ = stored_options(r.at("options"));
    compact_seats(static_cast<std::size_t>(game().seats(options_).max));  // as do_set_game left them
  } else if (kind == "started") {
    return restore_started(r, why);
  } else if (kind == "command" || kind == "timeout" || kind == "default") {
    if (!table_.has_game() || status_ != status::playing) {
      why = "a game record outside a game";
      return false;
    }
    return table_.replay(r, why);
  } else if (kind == "ended") {
    return restore_ended(r, why);
  } else if (kind == "chat") {
    remember_chat(r.at("message"));
  } else {
    why = "an unknown record kind '" + kind + "'";
    return false;
  }
  return true;
}

bool room::restore(const std::vector<json>& records, std::string& why) {
  restore_reset();
  try {
    for (const auto& r : records)
      if (!restore_record(r, why)) return false;
  } catch (const std::exception& e) {
    why = std::string("a malformed record: ") + e.what();
    return false;
  }
  if (status_ == status::playing && table_.game().is_over()) {
    // The last command ended the game but its `ended` record was not written with it: impossible,
    // as both are one batch; refuse rather than guess.
    why = "the game is over but has no end record";
    return false;
  }
  refresh_public_summary();
  return true;
}

std::vector<room::seated_identity> room::seated_identities() const {
  std::vector<seated_identity> out;
  for (const auto& st : seats_)
    if (!st.player_id.empty() && !st.bot && !st.token_hash.empty()) out.push_back({st.player_id, st.name, st.token_hash});
  // Players sent away too: resumed as themselves, they stay away (as new players they would not).
  std::lock_guard lock(kicked_mutex_);
  for (const auto& [player, who] : kicked_)
    if (!who.token_hash.empty()) out.push_back({player, who.name, who.token_hash});
  return out;
}

void room::resume_after_restart() {
  boost::asio::post(strand_, [self = shared_from_this()] {
    self->run_op(
        [](room& r) {
          const auto now = clock::now();
          for (auto& st : r.seats_)
            if (!st.player_id.empty() && !st.bot) {
              st.connection = 0;
              st.disconnected_at = now;
            }
          r.table_.restart_prompt_clock();  // the prompt's timer starts again from now
          r.update_empty_timer();
          r.arm_seat_timer();
          if (r.status_ == status::playing) {
            r.arm_prompt_timer();
            r.arm_bot_timer();
          }
        },
        op_kind::membership);
  });
}

// A write failed: the operation that wrote it (and nothing after it) is undone by rebuilding the
// room from what the journal holds. Members stay; everyone gets the room and a full state.
void room::reload_from_journal() {
  if (closed_) return;
  std::string why = "the journal cannot be read";
  auto* journal = queue_.journal();
  auto stored = journal ? journal->load_room(code_) : std::nullopt;
  if (stored && stored->records.empty()) {
    stored.reset();  // not even its creation was written: there is no room to go back to
    why = "nothing of the room was written";
  }
  if (!stored || !restore(stored->records, why)) return set_aside(why);
  // Once per room and failure (what follows is refused before it runs): a debug line and a count.
  metrics().room_rebuilt();
  spdlog::debug("room rebuilt from its journal after a failed write room={} seq={}", code_, table_.seq());
  reseat_members_after_reload();
  if (status_ == status::playing) {
    arm_prompt_timer();
    arm_bot_timer();
  }
  arm_seat_timer();
  update_empty_timer();
}

void room::set_aside(const std::string& why) {
  spdlog::error("room set aside room={} reason=\"{}\"", code_, why);
  closed_ = true;
  table_.cancel_timers();
  seat_timer_.cancel();
  empty_timer_.cancel();
  auto frame = share_frame(room_frame("closed"));
  for (auto& [c, m] : members_)
    if (auto p = m.p.lock()) {
      p->send(frame);
      p->left_room(shared_from_this());
    }
  members_.clear();
  if (auto* journal = queue_.journal()) journal->set_aside(code_, why);
  if (on_expired_) on_expired_(code_, true);
}

void room::reseat_members_after_reload() {
  const auto now = clock::now();
  for (auto& [c, m] : members_) {
    const bool was_seated = m.seat >= 0;
    m.seat = -1;
    if (!was_seated || sent_away(m.who.player_id)) continue;  // a spectator (one sent away, say) stays one
    for (std::size_t i = 0; i < seats_.size(); ++i)
      if (!seats_[i].bot && seats_[i].player_id == m.who.player_id) {
        seats_[i].connection = c;
        m.seat = static_cast<int>(i);
      }
  }
  for (auto& st : seats_)
    if (st.connection == 0) st.disconnected_at = now;
  table_.restart_prompt_clock();
  auto room_push = share_frame(room_frame());
  for (auto& [c, m] : members_)
    if (auto p = m.p.lock()) {
      p->send(room_push);
      if (!table_.has_game()) continue;
      const auto v = table_.viewer_of(m.seat, m.who.player_id);
      p->send(share_frame(table_.resync_frame(v)));
      sent_whole_view(m, v);
    }
}

}  // namespace tinsel::server
