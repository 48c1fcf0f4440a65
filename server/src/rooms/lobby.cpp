#include "rooms/lobby.hpp"

#include <spdlog/spdlog.h>

#include "cluster/lease.hpp"
#include "ops/metrics.hpp"
#include "rooms/random.hpp"

namespace tinsel::server {

lobby::lobby(std::function<boost::asio::any_io_executor()> next_executor, const config& cfg, address_limits& limits,
             storage::journal* journal)
    : next_executor_(std::move(next_executor)), cfg_(cfg), limits_(limits), journal_(journal) {}

std::shared_ptr<room> lobby::make_room(const std::string& code, const engine::game_info& game, nlohmann::json options,
                                       bool recovered) {
  return std::make_shared<room>(next_executor_(), code, game, std::move(options), cfg_, [this](const std::string& c, bool aside) { remove(c, aside); },
                                journal_, recovered);
}

std::shared_ptr<room> lobby::rebuild(const storage::stored_room& sr, identities& ids) {
  std::string why;
  const engine::game_info* game = nullptr;
  if (!sr.records.empty() && sr.records.front().is_object() && sr.records.front().value("kind", "") == "created")
    game = engine::builtin_games().find(sr.records.front().value("game", ""));
  std::shared_ptr<room> r;
  if (!game) {
    why = "no creation record naming a known game";
  } else {
    r = make_room(sr.code, *game, sr.records.front().value("options", nlohmann::json::object()), true);
    if (!r->restore(sr.records, why)) r.reset();
  }
  if (!r) {
    spdlog::error("room set aside: its journal does not replay room={} reason=\"{}\"", sr.code, why);
    journal_->set_aside(sr.code, why);
    std::lock_guard lock(mutex_);
    set_aside_.insert(sr.code);
    return nullptr;
  }
  for (const auto& who : r->seated_identities()) ids.restore(who.player_id, who.name, who.token_hash, sr.code);
  r->resume_after_restart();
  return r;
}

std::size_t lobby::recover(identities& ids) {
  // Cluster mode: rooms are claimed one by one (adopt) by whichever instance is asked first.
  if (!journal_ || cluster_) return 0;
  const auto started = std::chrono::steady_clock::now();
  std::vector<storage::stored_room> stored;
  try {
    for (auto& c : journal_->used_codes()) used_codes_.insert(std::move(c));
    for (auto& c : journal_->set_aside_codes()) set_aside_.insert(std::move(c));
    stored = journal_->open_rooms();
  } catch (const std::exception& e) {
    spdlog::error("journal unreadable, no room recovered error=\"{}\"", e.what());
    return 0;
  }
  std::size_t recovered = 0;
  for (auto& sr : stored) {
    auto r = rebuild(sr, ids);
    if (!r) continue;
    std::lock_guard lock(mutex_);
    rooms_.emplace(sr.code, entry{r, ""});
    ++recovered;
  }
  spdlog::info("rooms recovered rooms={} set_aside={} ms={}", recovered, stored.size() - recovered,
               std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - started).count());
  return recovered;
}

std::shared_ptr<room> lobby::adopt(const std::string& code, identities& ids) {
  std::lock_guard one(adopt_mutex_);
  if (auto r = find(code)) return r;
  auto stored = journal_->claim(code);
  if (!stored) return nullptr;
  const auto started = std::chrono::steady_clock::now();
  auto r = rebuild(*stored, ids);
  if (!r) return nullptr;
  {
    std::lock_guard lock(mutex_);
    rooms_.emplace(code, entry{r, ""});
  }
  metrics().room_taken_over();
  spdlog::info("room taken over room={} records={} ms={}", code, stored->records.size(),
               std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - started).count());
  return r;
}

lobby::routed lobby::route(const std::string& code, identities& ids) {
  if (auto r = find(code)) return {r};
  if (!cluster_) return {};
  const auto where = cluster_->locate(code);
  using kind = cluster_lease::whereabouts::kind;
  switch (where.what) {
    case kind::none:
      return {};
    case kind::elsewhere:
      return {nullptr, true, where.instance, where.owner_silent};
    case kind::unknown:
      return {nullptr, true, {}};  // the database cannot say: try again (through the proxy)
    case kind::here:
    case kind::orphaned:
      break;
  }
  if (auto r = adopt(code, ids)) return {r};
  // Another instance claimed it first: ask once more where.
  const auto again = cluster_->locate(code);
  if (again.what == kind::elsewhere) return {nullptr, true, again.instance, again.owner_silent};
  if (again.what == kind::none) return {};
  return {nullptr, true, {}};
}

void lobby::drop_all() {
  std::vector<std::shared_ptr<room>> all;
  {
    std::lock_guard lock(mutex_);
    for (auto& [code, e] : rooms_) all.push_back(e.r);
  }
  // Each room tells its members and then asks to be removed (on_expired), on its own strand.
  for (auto& r : all) r->moved();
}

bool lobby::set_aside(const std::string& code) const {
  std::lock_guard lock(mutex_);
  return set_aside_.count(code) > 0;
}

lobby::created lobby::create(const engine::game_info& game, nlohmann::json options, const std::string& creator) {
  if (auto no = limits_.create_room(creator)) {
    spdlog::debug("room refused: too many rooms client={}", creator);
    return {nullptr, std::move(no)};
  }
  std::string code;
  if (cluster_) {
    // The code is taken in the database first: unique across every instance. The creator's open
    // rooms are counted there too, across the instances.
    for (int tries = 0;; ++tries) {
      {
        std::lock_guard lock(mutex_);
        code = fresh_code();
      }
      const auto got = journal_->claim_code(code, creator, cfg_.live_rooms_per_address);
      if (got == storage::code_claim::taken) break;
      if (got == storage::code_claim::over_limit) {
        limits_.room_closed(creator);
        spdlog::debug("room refused: too many open rooms in the cluster client={}", creator);
        return {nullptr, address_limits::refusal{"your address already has " + std::to_string(cfg_.live_rooms_per_address) +
                                                     " open rooms; close one, or wait until an empty one expires, then try again",
                                                 std::nullopt}};
      }
      if (got == storage::code_claim::failed || tries == 8 || !journal_->writable()) {
        limits_.room_closed(creator);
        return {nullptr, std::nullopt, true};
      }
    }
  }
  std::lock_guard lock(mutex_);
  if (!cluster_) {
    code = fresh_code();
    if (journal_) used_codes_.insert(code);
  }
  auto r = make_room(code, game, std::move(options), false);
  rooms_.emplace(code, entry{r, creator});
  spdlog::info("room created room={} game={} rooms={}", code, game.id, rooms_.size());
  return {r, std::nullopt};
}

// A code no room here has, nor (with a journal) any room this server ever had. Under mutex_.
std::string lobby::fresh_code() const {
  std::string code;
  do {
    code = new_room_code();
  } while (rooms_.count(code) || used_codes_.count(code));
  return code;
}

std::shared_ptr<room> lobby::find(const std::string& code) const {
  std::lock_guard lock(mutex_);
  auto it = rooms_.find(code);
  return it == rooms_.end() ? nullptr : it->second.r;
}

std::size_t lobby::size() const {
  std::lock_guard lock(mutex_);
  return rooms_.size();
}

void lobby::for_each_room(const std::function<void(const room&)>& f) const {
  std::lock_guard lock(mutex_);
  for (const auto& [code, e] : rooms_) f(*e.r);
}

void lobby::remove(const std::string& code, bool aside) {
  std::lock_guard lock(mutex_);
  auto it = rooms_.find(code);
  if (it == rooms_.end()) return;
  if (aside) set_aside_.insert(code);
  limits_.room_closed(it->second.creator);
  rooms_.erase(it);
  spdlog::info("room removed room={} rooms={}", code, rooms_.size());
}

void lobby::close_all() {
  std::lock_guard lock(mutex_);
  for (auto& [code, e] : rooms_) {
    e.r->close();
    limits_.room_closed(e.creator);
  }
  rooms_.clear();
}

}  // namespace tinsel::server
