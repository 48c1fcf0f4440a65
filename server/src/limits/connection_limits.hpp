#pragma once
// Every accepted TCP connection, plain HTTP or WebSocket, counted against its peer's address at
// accept, before a byte is read (docs/operations.md, "Limits per address"): at most
// max_tcp_connections_per_address open at once, and new ones at most at
// connections_per_address_per_sec (bursts of connection_burst_per_address). Beyond either the
// listener closes the connection at once. The key is the peer's limit_key (an IPv6 peer counts per
// /64); X-Forwarded-For is not read yet at accept, so a trusted proxy's own connections are not
// counted here: they carry many clients, whom the limits of address_limits count once their
// request is read, and the proxy bounds its own connections.
#include <cstddef>
#include <mutex>
#include <string>
#include <unordered_map>

#include "limits/rate_buckets.hpp"
#include "tinsel/server/config.hpp"

namespace tinsel::server {

class connection_limits;

// A connection's place in the count, released when it is destroyed; moves from the HTTP session
// to the WebSocket session on an upgrade. Empty (counting nothing) for a trusted proxy.
class connection_slot {
 public:
  connection_slot() = default;
  connection_slot(connection_slot&& o) noexcept : owner_(o.owner_), key_(std::move(o.key_)) { o.owner_ = nullptr; }
  connection_slot& operator=(connection_slot&& o) noexcept;
  connection_slot(const connection_slot&) = delete;
  connection_slot& operator=(const connection_slot&) = delete;
  ~connection_slot() { release(); }
  void release();

 private:
  friend class connection_limits;
  connection_slot(connection_limits* owner, std::string key) : owner_(owner), key_(std::move(key)) {}
  connection_limits* owner_ = nullptr;
  std::string key_;
};

class connection_limits {
 public:
  explicit connection_limits(const config& cfg);

  enum class verdict { ok, too_many, too_fast };
  struct admission {
    verdict what = verdict::ok;
    std::string key;       // the peer's limit key
    connection_slot slot;  // held while the connection lives (when ok)
  };
  // A connection accepted from `peer` (its address as text).
  admission admit(const std::string& peer);

  std::size_t open_from(const std::string& key) const;  // for tests
  std::size_t tracked_addresses() const;                 // for tests of the memory bound

 private:
  friend class connection_slot;
  void release(const std::string& key);

  const config& cfg_;
  rate_buckets new_connections_;
  mutable std::mutex mutex_;
  std::unordered_map<std::string, std::size_t> open_;  // only addresses with connections open
};

}  // namespace tinsel::server
