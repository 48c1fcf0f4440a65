// The durable side of a room: what it writes to the journal, how it is rebuilt from it after a
// restart (or after a write that failed), and its finished games' records.
//
// A room journals: `created`; a `lobby` snapshot (host, options, seats with their players' token
// hashes, removed players with their names) whenever those change; `started` (seed, players' names and ids, first seat, options);
// every `command` a seat's player or the server played; every `timeout` default (also the host's skip, marked `by: "host"`); `default` (the
// rulebook default where a server-played seat had no command); `ended` (result, and the game record);
// `chat`; and finally `closed`. Replaying them through the engine rebuilds the room exactly.
#include <algorithm>

#include <boost/asio/post.hpp>

#include <spdlog/spdlog.h>

#include "ops/metrics.hpp"
#include "rooms/random.hpp"
#include "rooms/room.hpp"
#include "tinsel/protocol/sha256.hpp"
#include "tinsel/protocol/game_record.hpp"
#include "tinsel/protocol/messages.hpp"

namespace tinsel::server {

using clock = std::chrono::steady_clock;

namespace {
// Every this many game records, one carries the hash of the whole state, checked on replay.
constexpr int state_hash_every = 32;

std::shared_ptr<const std::string> share(std::string s) { return std::make_shared<const std::string>(std::move(s)); }

long long unix_ms() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch()).count();
}
}  // namespace

namespace {
// Chat lines a joining member receives (chat_history), and the journal keeps.
constexpr std::size_t chat_history_lines = 100;
}  // namespace

engine::event room::game_started_event(const json& names) const {
  return engine::event::public_event({{"kind", "game_started"},
                                      {"game", game_.id},
                                      {"players", names},
                                      {"commitment", protocol::sha256_hex(std::to_string(seed_))}});
}

void room::remember_chat(json msg) {
  chat_.push_back(std::move(msg));
  if (chat_.size() > chat_history_lines) chat_.pop_front();
}

void room::journal_lobby_if_changed() {
  if (!journal_) return;
  json seats = json::array();
  for (const auto& st : seats_)
    seats.push_back({{"player", st.player_id}, {"name", st.name}, {"token_hash", st.token_hash}, {"bot", st.bot}, {"gone", st.gone}});
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
  if (!journal_) return;
  body["seq"] = seq_ + 1;
  if (++commands_since_hash_ >= state_hash_every) {
    commands_since_hash_ = 0;
    body["hash"] = protocol::state_hash(*game_state_);
  }
  game_log_.push_back(body);
  append_record(std::move(body));
}

json room::game_record() const {
  json players = json::array();
  for (int s = 0; s < game_state_->players(); ++s) players.push_back(seats_[static_cast<std::size_t>(s)].name);
  const auto seed = std::to_string(seed_);
  return {{"format", "tinsel-game-record"},
          {"version", 1},
          {"id", record_id_},  // random, like the seed: nothing in a record leads to the room (no code)
          {"game", game_.id},
          {"options", options_},
          {"players", players},
          {"first_seat", first_seat_ ? json(*first_seat_) : json(nullptr)},
          {"seed", seed},
          {"commitment", protocol::sha256_hex(seed)},
          {"commands", game_log_},
          {"result", last_result_},
          {"finished_ms", unix_ms()}};
}

bool room::replay_game_record(const json& r, std::string& why) {
  if (!game_state_ || status_ != status::playing) {
    why = "a game record outside a game";
    return false;
  }
  // Each game record was written with the seq of the state it produced, one after the previous:
  // a gap or a repeat would hand resuming clients states they never saw, or skip some.
  if (const auto seq = r.at("seq").get<std::uint64_t>(); seq != seq_ + 1) {
    why = "the entry at seq " + std::to_string(seq) + " does not follow seq " + std::to_string(seq_);
    return false;
  }
  auto res = protocol::apply_game_entry(*game_state_, *dice_, r);
  if (!res) {
    why = "the engine refuses the entry at seq " + std::to_string(r.at("seq").get<std::uint64_t>()) + ": " + res.error().code;
    return false;
  }
  seq_ = r.at("seq").get<std::uint64_t>();
  keep_events(seq_, res.value());
  game_log_.push_back(r);
  if (r.contains("hash") && r["hash"] != protocol::state_hash(*game_state_)) {
    why = "the state hash differs at seq " + std::to_string(seq_);
    return false;
  }
  return true;
}

bool room::restore(const std::vector<json>& records, std::string& why) {
  // Stored options normalized again: a journal written before an option existed lacks it, and the
  // room shows every option (a game's full state, and so its hash, leaves a new option out at its
  // default: see ub_game::full_state). Options the game refuses are kept as they are.
  const auto stored_options = [this](const json& o) {
    auto normalized = game_.normalize_options(o);
    return normalized ? std::move(normalized.value()) : o;
  };
  seats_.assign(static_cast<std::size_t>(game_.seats(options_).max), seat{});
  host_.clear();
  {
    std::lock_guard lock(kicked_mutex_);
    kicked_.clear();
  }
  bots_added_ = 0;
  status_ = status::lobby;
  game_state_.reset();
  dice_.reset();
  seq_ = 0;
  last_result_ = nullptr;
  begin_game_memory({}, json::array());
  game_log_ = json::array();
  record_id_.clear();
  first_seat_.reset();
  commands_since_hash_ = 0;
  chat_.clear();
  try {
    for (const auto& r : records) {
      if (!r.is_object()) {
        why = "an unreadable record";
        return false;
      }
      const auto kind = r.at("kind").get<std::string>();
      if (kind == "created") {
        options_ = stored_options(r.at("options"));
        seats_.assign(static_cast<std::size_t>(game_.seats(options_).max), seat{});
      } else if (kind == "lobby") {
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
          seats_.push_back(std::move(st));
        }
        // Each removed player as {"player","name","token_hash"}; journals written before those were kept list ids.
        std::map<std::string, sent_away_player> kicked;
        for (const auto& k : r.at("kicked")) {
          if (k.is_string()) kicked[k.get<std::string>()] = {k.get<std::string>(), ""};  // no name: the id stands in
          else kicked[k.at("player").get<std::string>()] = {k.at("name").get<std::string>(), k.value("token_hash", "")};
        }
        std::lock_guard lock(kicked_mutex_);
        kicked_ = std::move(kicked);
        bots_added_ = r.at("bots_added").get<int>();
        journaled_lobby_ = r.dump();
      } else if (kind == "started") {
        seed_ = std::stoull(r.at("seed").get<std::string>());
        options_ = stored_options(r.at("options"));
        const auto names = r.at("players");
        first_seat_ = r.at("first_seat").is_null() ? std::nullopt : std::optional<int>(r.at("first_seat").get<int>());
        dice_ = std::make_unique<engine::seeded_dice>(seed_);
        auto created = game_.create(engine::setup{options_, static_cast<int>(names.size()), first_seat_}, *dice_);
        if (!created) {
          why = "the game does not start again: " + created.error().code;
          return false;
        }
        game_state_ = std::move(created.value());
        status_ = status::playing;
        last_result_ = nullptr;
        // The players' ids by game seat; journals written before they were kept: the seated
        // players of the last lobby snapshot, in seat order, as the start compacted them.
        std::vector<std::string> ids;
        if (r.contains("player_ids")) {
          ids = r.at("player_ids").get<std::vector<std::string>>();
        } else {
          for (const auto& st : seats_)
            if (!st.player_id.empty() && ids.size() < names.size()) ids.push_back(st.player_id);
        }
        begin_game_memory(std::move(ids), names);
        game_log_ = json::array();
        record_id_.clear();
        commands_since_hash_ = 0;
        seq_ = r.at("seq").get<std::uint64_t>();
        keep_events(seq_, {game_started_event(names)});
      } else if (kind == "command" || kind == "timeout" || kind == "default") {
        if (!replay_game_record(r, why)) return false;
      } else if (kind == "ended") {
        if (!game_state_ || !game_state_->is_over()) {
          why = "the game ended in the journal but not in the replay";
          return false;
        }
        status_ = status::finished;
        last_result_ = r.at("result");
        if (!last_result_.contains("names")) last_result_["names"] = game_names_;  // journals from before names
        record_id_ = r.value("record_id", "");
      } else if (kind == "chat") {
        remember_chat(r.at("message"));
      } else {
        why = "an unknown record kind '" + kind + "'";
        return false;
      }
    }
  } catch (const std::exception& e) {
    why = std::string("a malformed record: ") + e.what();
    return false;
  }
  if (status_ == status::playing && game_state_->is_over()) {
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
  boost::asio::post(strand_, [self = shared_from_this()] { self->run_op([](room& r) {
    const auto now = clock::now();
    for (auto& st : r.seats_)
      if (!st.player_id.empty() && !st.bot) {
        st.connection = 0;
        st.disconnected_at = now;
      }
    r.prompt_serial_ = ~std::uint64_t{0};  // the prompt's timer starts again from now
    r.update_empty_timer();
    r.arm_seat_timer();
    if (r.status_ == status::playing) {
      r.arm_prompt_timer();
      r.arm_bot_timer();
    }
  }, nullptr, nullptr, op_kind::membership); });
}

// A write failed: the operation that wrote it (and nothing after it) is undone by rebuilding the
// room from what the journal holds. Members stay; everyone gets the room and a full state.
void room::reload_from_journal() {
  if (closed_) return;
  std::string why = "the journal cannot be read";
  auto stored = journal_ ? journal_->load_room(code_) : std::nullopt;
  if (stored && stored->records.empty()) {
    stored.reset();  // not even its creation was written: there is no room to go back to
    why = "nothing of the room was written";
  }
  if (!stored || !restore(stored->records, why)) {
    spdlog::error("room set aside room={} reason=\"{}\"", code_, why);
    closed_ = true;
    prompt_timer_.cancel();
    bot_timer_.cancel();
    seat_timer_.cancel();
    empty_timer_.cancel();
    json j = room_json();
    j["room"]["status"] = "closed";
    auto frame = share(protocol::dump(j));
    for (auto& [c, m] : members_)
      if (auto p = m.p.lock()) {
        p->send(frame);
        p->left_room(shared_from_this());
      }
    members_.clear();
    if (journal_) journal_->set_aside(code_, why);
    if (on_expired_) on_expired_(code_, true);
    return;
  }
  // Once per room and failure (what follows is refused before it runs): a debug line and a count.
  metrics().room_rebuilt();
  spdlog::debug("room rebuilt from its journal after a failed write room={} seq={}", code_, seq_);
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
  prompt_serial_ = ~std::uint64_t{0};
  auto room_frame = share(protocol::dump(room_json()));
  for (auto& [c, m] : members_)
    if (auto p = m.p.lock()) {
      p->send(room_frame);
      if (game_state_) p->send(share(state_frame(game_viewer(m.seat, m.who.player_id), {}, {{"resync", true}})));
    }
  if (status_ == status::playing) {
    arm_prompt_timer();
    arm_bot_timer();
  }
  arm_seat_timer();
  update_empty_timer();
}

}  // namespace tinsel::server
