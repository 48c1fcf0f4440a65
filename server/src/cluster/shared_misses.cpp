// Failed joins across a cluster, in the database (shared_misses.hpp).
#include "cluster/shared_misses.hpp"

#include <algorithm>
#include <stdexcept>

#include <spdlog/spdlog.h>

#include "storage/pg.hpp"

namespace tinsel::server {

namespace {
// A join waits on these reads: a database that does not answer must not hold it long.
constexpr const char* statement_timeout = "SET statement_timeout = 2000";
// How often the instance counting a miss also deletes the rows that are long forgiven.
constexpr std::chrono::minutes forget_every{10};
// After a failed call, how long the next ones fail at once.
constexpr std::chrono::seconds pause_after_failure{5};
}  // namespace

shared_misses::shared_misses(std::string conninfo) : conninfo_(std::move(conninfo)) {}
shared_misses::~shared_misses() = default;

storage::pg::connection& shared_misses::db() {
  if (!db_) {
    db_ = std::make_unique<storage::pg::connection>(conninfo_);
    db_->exec(statement_timeout);
  } else if (!db_->alive()) {
    db_->reconnect();
    db_->exec(statement_timeout);
  }
  return *db_;
}

template <class F>
void shared_misses::with_db(F&& f) {
  using clock = std::chrono::steady_clock;
  if (clock::now().time_since_epoch().count() < paused_until_.load(std::memory_order_acquire))
    throw std::runtime_error("the database failed a moment ago");
  std::lock_guard lock(mutex_);
  try {
    f(db());
  } catch (const storage::pg::error& e) {
    // Said once per pause: the joins meanwhile say nothing (address_limits logs them at debug).
    spdlog::warn("failed joins not shared: the database cannot be reached; each instance counts its own for {} s error=\"{}\"",
                 pause_after_failure.count(), e.what());
    paused_until_.store((clock::now() + pause_after_failure).time_since_epoch().count(), std::memory_order_release);
    throw;
  }
}

std::vector<std::optional<miss_store::record>> shared_misses::read(const std::vector<std::string>& keys) {
  std::vector<std::optional<record>> out(keys.size());
  if (keys.empty()) return out;
  std::string in;
  std::vector<storage::pg::param> params;
  for (std::size_t i = 0; i < keys.size(); ++i) {
    in += (i ? ", $" : "$") + std::to_string(i + 1);
    params.emplace_back(keys[i]);
  }
  with_db([&](storage::pg::connection& c) {
    auto r = c.exec("SELECT key, misses, (extract(epoch FROM clock_timestamp() - last_miss) * 1000)::bigint FROM join_misses WHERE key IN (" +
                        in + ")",
                    params);
    for (int row = 0; row < r.rows(); ++row)
      for (std::size_t i = 0; i < keys.size(); ++i)
        if (keys[i] == r.text(row, 0))
          out[i] = record{static_cast<int>(r.integer(row, 1)), std::chrono::milliseconds(std::max(0LL, r.integer(row, 2)))};
  });
  return out;
}

// One transaction: the row is locked while its new count is worked out, so that two instances
// counting a miss of the same key at once both count.
void shared_misses::add(const std::string& key, const std::function<int(const std::optional<record>&)>& next) {
  with_db([&](storage::pg::connection& c) {
    storage::pg::transaction t(c);
    c.exec("INSERT INTO join_misses(key, misses, last_miss) VALUES ($1, 0, clock_timestamp()) ON CONFLICT (key) DO NOTHING", {key});
    auto r = c.exec("SELECT misses, (extract(epoch FROM clock_timestamp() - last_miss) * 1000)::bigint FROM join_misses WHERE key = $1 FOR UPDATE",
                    {key});
    std::optional<record> was;
    if (r.rows() == 1 && r.integer(0, 0) > 0)
      was = record{static_cast<int>(r.integer(0, 0)), std::chrono::milliseconds(std::max(0LL, r.integer(0, 1)))};
    c.exec("UPDATE join_misses SET misses = $2, last_miss = clock_timestamp() WHERE key = $1", {key, std::to_string(next(was))});
    const auto now = std::chrono::steady_clock::now();
    if (now >= forget_at_) {
      // Forgiven by then: past the longest wait the flags allow (a /48's, at most a day) and the
      // halvings after it (address_limits: every 10 minutes, from at most the free misses + 64).
      c.exec("DELETE FROM join_misses WHERE last_miss < clock_timestamp() - interval '30 hours'");
      forget_at_ = now + forget_every;
    }
    t.commit();
  });
}

}  // namespace tinsel::server
