#pragma once
// Bookkeeping per client address: connections, live rooms and room creation rate, identities, and
// the back-off after failed joins (docs/operations.md, "Limits per address"). Not game state, so a
// mutex guards it. Costs nothing while idle: no timers; rates and forgiveness are computed from
// timestamps when an address is next seen. An address with nothing live and no penalty left is
// forgotten, so memory follows the addresses in use.
//
// Addresses are "keys" from client_key(): the canonical text of an IPv4 address, or of an IPv6
// address's /64 network (one home gets a whole /64, like one IPv4 address behind its router).
// Failed joins also count per IPv6 /48 (aggregate_key): one /48 holds 65,536 /64s.
#include <chrono>
#include <cstddef>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "tinsel/server/config.hpp"

namespace tinsel::server {

// "1.2.3.4", "::ffff:1.2.3.4" (as 1.2.3.4), "2001:db8::1", "[2001:db8::1]" or "1.2.3.4:5678" in
// canonical text, or nullopt if it is not an IP address.
std::optional<std::string> canonical_address(std::string_view text);
// The key limits count against: an IPv4 address itself, an IPv6 address's /64 ("2001:db8::/64").
std::string limit_key(const std::string& canonical);
// The aggregate a key's failed joins also count against: an IPv6 /64 key's /48 ("2001:db8:1::/48");
// nullopt for an IPv4 address (counted on its own).
std::optional<std::string> aggregate_key(const std::string& key);
// Who the client is: the TCP peer, unless the peer is a trusted proxy; then the right-most
// X-Forwarded-For hop that is not itself a trusted proxy (the hops left of it could be forged by
// the client). `forwarded_for` holds the X-Forwarded-For header values in order. Returns a key.
std::string client_key(std::string_view peer, const std::vector<std::string_view>& forwarded_for,
                       const std::vector<std::string>& trusted_proxies);

// Failed joins as every instance of a cluster counts them (cluster/shared_misses.hpp keeps them in
// the database): per key, the misses not yet forgiven and how long ago the last one was. Both calls
// may block on the database and throw when it cannot be reached.
class miss_store {
 public:
  struct record {
    int misses = 0;
    std::chrono::milliseconds since_last{};
  };
  virtual ~miss_store() = default;
  // The records of `keys`, in order (nullopt: none kept).
  virtual std::vector<std::optional<record>> read(const std::vector<std::string>& keys) = 0;
  // One more miss for `key`, atomically across the instances: its new count is `next(its record)`.
  virtual void add(const std::string& key, const std::function<int(const std::optional<record>&)>& next) = 0;
};

class address_limits {
 public:
  using clock = std::chrono::steady_clock;
  // The longest back-off after failed joins, and how fast misses are forgiven once it has passed.
  static constexpr std::chrono::seconds max_join_wait{3600};
  static constexpr std::chrono::minutes miss_half_life{10};

  explicit address_limits(const config& cfg) : cfg_(cfg) {}

  enum class admission { ok, server_full, address_full };
  // A new WebSocket session from `key`; counted when ok, until close_connection.
  admission open_connection(const std::string& key);
  void close_connection(const std::string& key);

  struct refusal {
    std::string message;
    std::optional<std::chrono::milliseconds> retry_after;  // when known
  };
  // A room created by `key`: nullopt when allowed (the room then counts as live until
  // room_closed), else why not.
  std::optional<refusal> create_room(const std::string& key, clock::time_point now = clock::now());
  void room_closed(const std::string& key);

  // How long `key` must wait before its next join_room; nullopt: go ahead. The longer of the
  // key's own wait and, for an IPv6 /64, its /48's (`with_aggregate` false: the key's own only, for
  // a player going back to the room it is in).
  std::optional<std::chrono::milliseconds> join_wait(const std::string& key, clock::time_point now = clock::now(),
                                                     bool with_aggregate = true);
  // A join_room from `key` named no live room (a miss of its /48 too).
  void join_missed(const std::string& key, clock::time_point now = clock::now());
  // Cluster mode: failed joins count across the instances too. join_wait is then the longer of
  // this instance's wait and the cluster's (when the store cannot be reached, this instance's).
  // Set before the first connection; `store` outlives this object.
  void share_misses(miss_store* store) { shared_ = store; }

  // Bytes sent in answer to join_room (docs/operations.md, "Bytes a join sends"): a token bucket
  // of bytes per key, join_bytes_per_sec up to join_bytes_burst. A join takes what it sends.
  // How long `key` must wait before its next join_room because its budget is in debt; nullopt: go ahead.
  std::optional<std::chrono::milliseconds> join_bytes_wait(const std::string& key, clock::time_point now = clock::now());
  // Takes `bytes` if the budget holds them (true); else takes nothing (false).
  bool try_spend_join_bytes(const std::string& key, std::size_t bytes, clock::time_point now = clock::now());
  // Takes `bytes` whatever the budget holds: it may go into debt (what a join always sends).
  void spend_join_bytes(const std::string& key, std::size_t bytes, clock::time_point now = clock::now());

  // A new identity held by `key`: false (not counted) at the limit.
  bool add_identity(const std::string& key);
  void identity_released(const std::string& key);

  std::size_t connections() const;
  std::size_t tracked_addresses() const;  // for tests of the memory bound
  std::size_t tracked_aggregates() const;  // /48s with misses, for the same

 private:
  struct entry {
    std::size_t connections = 0;
    int live_rooms = 0;
    int identities = 0;
    double room_tokens = -1;  // token bucket of room creations; < 0: full, never used
    clock::time_point room_tokens_at{};
    int misses = 0;  // failed joins not yet forgiven
    clock::time_point last_miss{};
  };
  using map = std::unordered_map<std::string, entry>;

  entry& touch(const std::string& key, clock::time_point now);
  // Erases the entry if nothing is live and no penalty is left.
  void settle(map::iterator it, clock::time_point now);
  bool idle(const entry& e, clock::time_point now) const;
  double room_tokens(const entry& e, clock::time_point now) const;
  clock::duration join_wait_for(int misses) const;
  int misses_now(const entry& e, clock::time_point now) const;

  // The cluster's wait for `key` (and its /48 with `with_aggregate`), from the shared store.
  std::optional<clock::time_point> shared_wait_until(const std::string& key, clock::time_point now, bool with_aggregate) const;
  void shared_missed(const std::string& key, clock::time_point now);

  const config& cfg_;
  miss_store* shared_ = nullptr;
  mutable std::mutex mutex_;
  map entries_;
  std::size_t connections_ = 0;
  std::size_t sweep_at_ = 1024;  // entries_ size at which idle entries are swept out

  // Failed joins per IPv6 /48: the same back-off as a key's, with free_failed_joins_per_48 free
  // misses and waits up to max_join_wait_per_48. Under mutex_.
  struct aggregate_entry {
    int misses = 0;
    clock::time_point last_miss{};
  };
  std::optional<clock::time_point> aggregate_wait_until(const std::string& key, clock::time_point now) const;
  void aggregate_missed(const std::string& key, clock::time_point now);
  clock::duration aggregate_wait_for(int misses) const;
  int aggregate_misses_now(const aggregate_entry& e, clock::time_point now) const;
  std::unordered_map<std::string, aggregate_entry> aggregates_;
  std::size_t aggregate_sweep_at_ = 1024;

  // Join bytes per key; a bucket that is full again is forgotten. Under mutex_.
  struct byte_bucket {
    double tokens = 0;
    clock::time_point at{};
  };
  byte_bucket& join_bucket(const std::string& key, clock::time_point now);
  double join_bytes_now(const byte_bucket& b, clock::time_point now) const;
  std::unordered_map<std::string, byte_bucket> join_bytes_;
  std::size_t join_bytes_sweep_at_ = 1024;
};

// One address's join byte budget, for a room to use on its own thread. Default: no budget.
struct join_budget {
  address_limits* limits = nullptr;
  std::string key;
  bool try_spend(std::size_t bytes) const { return !limits || limits->try_spend_join_bytes(key, bytes); }
  void spend(std::size_t bytes) const {
    if (limits) limits->spend_join_bytes(key, bytes);
  }
};

}  // namespace tinsel::server
