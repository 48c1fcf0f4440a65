#pragma once
// What every connection shares: configuration, the limits per client address, the lobby, the
// identities, and the set of live websocket sessions (for /healthz and for a graceful shutdown).
// Sessions are held weakly; they remove themselves.
#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <unordered_map>

#include "tinsel/server/config.hpp"
#include "cluster/lease.hpp"
#include "limits/address_limits.hpp"
#include "limits/connection_limits.hpp"
#include "limits/log_throttle.hpp"
#include "limits/rate_buckets.hpp"
#include "net/record_cache.hpp"
#include "net/static_files.hpp"
#include "rooms/identities.hpp"
#include "rooms/lobby.hpp"
#include "storage/journal.hpp"

namespace tinsel::server {

class ws_session;

struct server_state {
  // `next_executor`: where a new room lives (io_pool::next).
  server_state(std::function<boost::asio::any_io_executor()> next_executor, config c)
      : cfg(std::move(c)),
        limits(cfg),
        tcp_limits(cfg),
        record_downloads(cfg.record_downloads_per_address_per_minute / 60.0, cfg.record_downloads_per_address_per_minute),
        records(cfg.record_cache_bytes),
        journal(open_journal(cfg, journal_status)),
        rooms(std::move(next_executor), cfg, limits, journal.get()),
        players(cfg.reconnect_grace, limits) {}

  // The journal as configured; null (journal_status "unavailable") when its folder or database
  // cannot be used: the server then runs with rooms in memory only, and says so in its log and
  // on /healthz. A PostgreSQL database that cannot be used throws: the start fails.
  static std::unique_ptr<storage::journal> open_journal(const config& cfg, std::string& status);

  const config cfg;
  address_limits limits;
  connection_limits tcp_limits;   // every TCP connection, at accept
  rate_buckets record_downloads;  // GET /records/ per client address
  record_cache records;           // finished games' records, compressed
  log_throttle log_limit;         // lines a client can cause: one per address and kind per interval
  std::string journal_status;  // "sqlite", "postgres", "off" or "unavailable"
  std::unique_ptr<storage::journal> journal;
  lobby rooms;
  identities players;
  std::unique_ptr<cluster_lease> cluster;  // cluster mode (--instance); null outside it
  std::unique_ptr<miss_store> shared_misses;  // cluster mode: failed joins counted in the database
  static_files files;  // the browser client's files, in memory (gzip, ETag)
  std::atomic<bool> stopping{false};

  std::uint64_t next_connection_id() { return ++last_id_; }
  void add_session(std::uint64_t id, std::weak_ptr<ws_session> s);
  void remove_session(std::uint64_t id);
  std::size_t session_count() const;
  void for_each_session(const std::function<void(const std::shared_ptr<ws_session>&)>& f) const;

 private:
  std::atomic<std::uint64_t> last_id_{0};
  mutable std::mutex mutex_;
  std::unordered_map<std::uint64_t, std::weak_ptr<ws_session>> sessions_;
};

}  // namespace tinsel::server
