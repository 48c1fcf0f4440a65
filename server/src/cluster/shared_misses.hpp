#pragma once
// Cluster mode: failed joins counted in the shared PostgreSQL database (table join_misses, one row
// per address key or IPv6 /48), so that a guesser who spreads its tries over the instances waits
// as long as at one (../shared/design/CLUSTER.md, "What stays per instance"). The arithmetic is
// address_limits's own; this only keeps each key's count and when its last miss was, on the
// database's clock. Rows nobody has missed with for 30 hours (every count forgiven by then) are
// deleted now and then, by the instance counting a miss: an idle cluster does nothing for them.
// A join waits on these calls: after the database failed one, they fail at once for a few seconds
// (the caller then uses its own count) rather than each waiting for a connection that will not come.
#include <atomic>
#include <chrono>
#include <memory>
#include <mutex>
#include <string>

#include "limits/address_limits.hpp"

namespace tinsel::server {

namespace storage::pg {
class connection;
}

class shared_misses final : public miss_store {
 public:
  // Connects on first use (a connection of its own, one statement at a time).
  explicit shared_misses(std::string conninfo);
  ~shared_misses() override;

  std::vector<std::optional<record>> read(const std::vector<std::string>& keys) override;
  void add(const std::string& key, const std::function<int(const std::optional<record>&)>& next) override;

 private:
  storage::pg::connection& db();  // under mutex_
  // Runs f(connection) under mutex_, unless the database failed a call less than a pause ago.
  template <class F>
  void with_db(F&& f);

  std::string conninfo_;
  std::mutex mutex_;
  std::unique_ptr<storage::pg::connection> db_;
  std::chrono::steady_clock::time_point forget_at_{};
  std::atomic<std::chrono::steady_clock::rep> paused_until_{0};
};

}  // namespace tinsel::server
