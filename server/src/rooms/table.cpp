// The game at a room's table (table.hpp): its state and dice, its frames, its history and log,
// its timers, and replaying it from the journal.
#include "rooms/table.hpp"

#include <algorithm>

#include "tinsel/protocol/game_record.hpp"
#include "tinsel/protocol/messages.hpp"
#include "tinsel/protocol/sha256.hpp"

namespace tinsel::server {

namespace {
// Every this many game records, one carries the hash of the whole state, checked on replay.
constexpr int state_hash_every = 32;

long long epoch_ms(std::chrono::system_clock::time_point t) {
  return std::chrono::duration_cast<std::chrono::milliseconds>(t.time_since_epoch()).count();
}

long long unix_ms() { return epoch_ms(std::chrono::system_clock::now()); }
}  // namespace

engine::outcome<table::json> table::start(const json& options, int players, std::optional<int> first_seat, json names,
                                           std::vector<std::string> ids) {
  const auto seed = seeds_();
  auto d = std::make_unique<engine::seeded_dice>(seed);
  auto created = game_->create(engine::setup{options, players, first_seat}, *d);
  if (!created) return created.error();
  state_ = std::move(created.value());
  dice_ = std::move(d);
  seed_ = seed;
  first_seat_ = first_seat;
  last_result_ = nullptr;
  prompt_serial_ = ~std::uint64_t{0};
  begin_memory(ids, names);
  records_ = json::array();
  commands_since_hash_ = 0;
  forget_views();  // a new game's first state carries the whole view
  return json{{"kind", "started"},
              {"seq", seq_ + 1},
              {"seed", std::to_string(seed_)},
              {"players", names},
              {"player_ids", ids},
              {"first_seat", first_seat ? json(*first_seat) : json(nullptr)},
              {"game", game_->id},
              {"options", options}};
}

engine::event table::started_event() const {
  return engine::event::public_event({{"kind", "game_started"},
                                      {"game", game_->id},
                                      {"players", names_},
                                      {"commitment", protocol::sha256_hex(std::to_string(seed_))}});
}

table::json table::journal_entry(json body) {
  body["seq"] = seq_ + 1;
  if (++commands_since_hash_ >= state_hash_every) {
    commands_since_hash_ = 0;
    body["hash"] = protocol::state_hash(*state_);
  }
  records_.push_back(body);
  return body;
}

void table::finish() {
  last_result_ = state_->result();
  last_result_["seed"] = std::to_string(seed_);
  last_result_["names"] = names_;  // who played, whatever happens to the seats later
}

table::json table::ended_record(const std::string& record_id, const json& options,
                                const std::vector<std::string>& seat_names) {
  last_result_["record"] = record_id;  // GET /records/<id> (docs/protocol.md, "Game records")
  return {{"kind", "ended"},
          {"seq", seq_},
          {"result", last_result_},
          {"record_id", record_id},
          {"record", game_record(options, seat_names, record_id)}};
}

table::json table::game_record(const json& options, const std::vector<std::string>& seat_names,
                               const std::string& record_id) const {
  json players = json::array();
  for (int s = 0; s < state_->players(); ++s) players.push_back(seat_names[static_cast<std::size_t>(s)]);
  const auto seed = std::to_string(seed_);
  return {{"format", "tinsel-game-record"},
          {"version", 1},
          {"id", record_id},  // random, like the seed: nothing in a record leads to the room (no code)
          {"game", game_->id},
          {"options", options},
          {"players", players},
          {"first_seat", first_seat_ ? json(*first_seat_) : json(nullptr)},
          {"seed", seed},
          {"commitment", protocol::sha256_hex(seed)},
          {"commands", records_},
          {"result", last_result_},
          {"finished_ms", unix_ms()}};
}

protocol::state_context table::context() const {
  return {code_, seq_, deadline_ ? std::optional<long long>(epoch_ms(*deadline_)) : std::nullopt, last_result_};
}

protocol::state_parts table::publish(const engine::events& evs) {
  auto parts = protocol::serialize_events(evs);
  protocol::complete_state_parts(parts, *state_, context());
  keep_events(seq_, parts);
  return parts;
}

std::string table::frame(engine::viewer v, const protocol::state_parts& parts, const std::string* view_patch) const {
  return protocol::make_state(*state_, v, parts, frame_size_hint_, {}, true, view_patch);
}

const std::string* table::view_patch(engine::viewer v) {
  auto& kept = views_[v.is_spectator() ? -1 : v.seat];
  if (kept.view && kept.seq == seq_) return kept.patch.get();
  if (shared_seq_ != seq_) {  // once per state
    shared_seq_ = seq_;
    shared_now_ = state_->shared_view();
    shared_patch_.reset();
  }
  auto now = shared_now_ ? shared_now_ : std::make_shared<const json>(state_->view(v));
  std::shared_ptr<const std::string> patch;
  if (kept.view && kept.seq + 1 == seq_) {
    if (shared_now_ && kept.shared) {  // the same base and the same view for everyone
      if (!shared_patch_) shared_patch_ = std::make_shared<const std::string>(protocol::dump(json::diff(*kept.view, *now)));
      patch = shared_patch_;
    } else {
      patch = std::make_shared<const std::string>(protocol::dump(json::diff(*kept.view, *now)));
    }
  }
  kept = {seq_, std::move(now), std::move(patch), shared_now_ != nullptr};
  return kept.patch.get();
}

// A (re)joining member gets one state with the current view. With `last_seq` from the history it
// carries every event of the states it missed, each tagged with its state's `seq`, so the stream
// continues with no gap and no duplicate; beyond the history it is marked `resync`.
std::string table::catch_up_frame(engine::viewer v, std::optional<std::uint64_t> last_seq, bool replay) const {
  protocol::state_parts missed;
  protocol::catch_up more;
  if (last_seq && *last_seq < seq_) {
    const bool covered = replay && !history_.empty() && history_.front().seq <= *last_seq + 1;
    if (covered) {
      for (const auto& h : history_) {
        if (h.seq <= *last_seq) continue;
        for (const auto& e : h.evs) missed.events.push_back({*e.body, e.to, e.seat});  // with their seq
      }
      more = {protocol::catch_up::kind::replayed_from, *last_seq + 1};
    } else {
      more = {protocol::catch_up::kind::resync, 0};
    }
  }
  protocol::complete_state_parts(missed, *state_, context());
  return protocol::make_state(*state_, v, missed, frame_size_hint_, more);
}

void table::keep_events(std::uint64_t seq, const protocol::state_parts& parts) {
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

void table::begin_memory(std::vector<std::string> ids, json names) {
  history_.clear();
  event_log_.clear();
  event_log_truncated_ = false;
  players_ = std::move(ids);
  names_ = std::move(names);
}

engine::viewer table::viewer_of(int seat, const std::string& player_id) const {
  if (running() || seat < 0) return engine::viewer{seat};
  const auto it = std::find(players_.begin(), players_.end(), player_id);
  return it == players_.end() ? engine::viewer::spectator() : engine::viewer::player(static_cast<int>(it - players_.begin()));
}

std::string table::game_log_frame(engine::viewer v) const {
  return protocol::make_game_log(event_log_, v, game_->id, code_, seq_, event_log_truncated_);
}

table::json table::seat_default_entry(int seat) const {
  const auto pr = state_->current_prompt();
  json first = nullptr;
  for (const auto& cmd : state_->legal(seat)) {
    if (!cmd.is_object() || cmd.contains("domain")) continue;  // only concrete commands are sent
    if (first.is_null()) first = cmd;
    if (!pr) break;
    // Tried on a copy with throwaway dice: the answer keeps the prompt open for the others and
    // takes this seat out of it (a "Stop!" claim in a reaction window, say, opens another prompt).
    auto trial = state_->clone();
    engine::seeded_dice scratch(0);
    if (!trial->apply(seat, cmd, scratch)) continue;
    const auto after = trial->current_prompt();
    if (after && after->serial == pr->serial &&
        std::find(after->seats.begin(), after->seats.end(), seat) == after->seats.end())
      return cmd;
  }
  return first;
}

table::clock::time_point table::prompt_opened(std::uint64_t serial, clock::time_point now) {
  if (serial != prompt_serial_) {
    prompt_serial_ = serial;
    prompt_opened_ = now;
  }
  return prompt_opened_;
}

void table::arm_prompt_timer(clock::time_point due, std::optional<clock::time_point> shown, clock::time_point now,
                             std::function<void()> fire) {
  deadline_.reset();
  if (shown)
    deadline_ = std::chrono::system_clock::now() + std::chrono::duration_cast<std::chrono::system_clock::duration>(
                                                       std::max(clock::duration::zero(), *shown - now));
  prompt_timer_.expires_at(due);
  prompt_timer_.async_wait([fire = std::move(fire)](boost::system::error_code ec) {
    if (!ec) fire();
  });
}

void table::cancel_prompt_timer() {
  prompt_timer_.cancel();
  deadline_.reset();
}

void table::arm_bot_timer(std::function<void()> fire) {
  bot_timer_.expires_after(cfg_.auto_play_delay);
  bot_timer_.async_wait([fire = std::move(fire)](boost::system::error_code ec) {
    if (!ec) fire();
  });
}

void table::change_game(const engine::game_info& game) {
  cancel_timers();
  game_ = &game;
  state_.reset();
  dice_.reset();
  deadline_.reset();
  last_result_ = nullptr;
  begin_memory({}, json::array());
  records_ = json::array();
  first_seat_.reset();
  commands_since_hash_ = 0;
  forget_views();
}

void table::reset() {
  state_.reset();
  dice_.reset();
  seq_ = 0;
  last_result_ = nullptr;
  begin_memory({}, json::array());
  records_ = json::array();
  first_seat_.reset();
  commands_since_hash_ = 0;
  forget_views();
}

bool table::restore_started(const json& r, const json& options, std::vector<std::string> ids, std::string& why) {
  seed_ = std::stoull(r.at("seed").get<std::string>());
  const auto names = r.at("players");
  first_seat_ = r.at("first_seat").is_null() ? std::nullopt : std::optional<int>(r.at("first_seat").get<int>());
  dice_ = std::make_unique<engine::seeded_dice>(seed_);
  auto created = game_->create(engine::setup{options, static_cast<int>(names.size()), first_seat_}, *dice_);
  if (!created) {
    why = "the game does not start again: " + created.error().code;
    return false;
  }
  state_ = std::move(created.value());
  last_result_ = nullptr;
  begin_memory(std::move(ids), names);
  records_ = json::array();
  commands_since_hash_ = 0;
  forget_views();
  seq_ = r.at("seq").get<std::uint64_t>();
  keep_events(seq_, protocol::serialize_events({started_event()}));
  return true;
}

bool table::replay(const json& r, std::string& why) {
  // Each game record was written with the seq of the state it produced, one after the previous:
  // a gap or a repeat would hand resuming clients states they never saw, or skip some.
  if (const auto seq = r.at("seq").get<std::uint64_t>(); seq != seq_ + 1) {
    why = "the entry at seq " + std::to_string(seq) + " does not follow seq " + std::to_string(seq_);
    return false;
  }
  auto res = protocol::apply_game_entry(*state_, *dice_, r);
  if (!res) {
    why = "the engine refuses the entry at seq " + std::to_string(r.at("seq").get<std::uint64_t>()) + ": " + res.error().code;
    return false;
  }
  seq_ = r.at("seq").get<std::uint64_t>();
  keep_events(seq_, protocol::serialize_events(res.value()));
  records_.push_back(r);
  if (r.contains("hash") && r["hash"] != protocol::state_hash(*state_)) {
    why = "the state hash differs at seq " + std::to_string(seq_);
    return false;
  }
  return true;
}

void table::restore_ended(const json& r) {
  last_result_ = r.at("result");
  if (!last_result_.contains("names")) last_result_["names"] = names_;  // journals from before names
}

std::uint64_t table::bot_memory_seed(int seat) const {
  // splitmix64 over the seed and the seat.
  std::uint64_t z = seed_ ^ (0x9e3779b97f4a7c15ULL * static_cast<std::uint64_t>(seat + 1)) ^ 0x6d656d6f7279ULL;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

}  // namespace tinsel::server
