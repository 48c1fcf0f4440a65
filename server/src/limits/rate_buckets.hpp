#pragma once
// Token buckets by address key (address_limits.hpp: limit_key, client_key): `per_sec` tokens a
// second, up to `burst`. Used where one address must not make the server work without bound: new
// TCP connections at accept, record downloads. Thread-safe; no timers (a bucket is refilled from
// its timestamp when its address is next seen), and a full bucket is forgotten, so memory follows
// the addresses that were busy lately.
#include <chrono>
#include <cstddef>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>

#include "limits/token_bucket.hpp"

namespace tinsel::server {

class rate_buckets {
 public:
  using clock = std::chrono::steady_clock;
  rate_buckets(double per_sec, double burst) : per_sec_(per_sec), burst_(burst) {}

  // Takes a token for `key`: nullopt when there was one, else how long until there is.
  std::optional<std::chrono::milliseconds> take(const std::string& key, clock::time_point now = clock::now());
  std::size_t tracked() const;  // for tests of the memory bound

 private:
  const double per_sec_;
  const double burst_;
  mutable std::mutex mutex_;
  std::unordered_map<std::string, token_bucket> buckets_;
  std::size_t sweep_at_ = 1024;
};

}  // namespace tinsel::server
