#pragma once
// At most one log line per address and kind of event per interval, and at most `max_keys` such
// lines per interval in all, so that no client, nor many clients together, can fill the disk
// through the log: what is held back is counted and the next line that gets through says how
// many (`suppressed=N`). For lines a client can cause at will: refused connections, refused
// origins and hosts, limits hit. Thread-safe; memory is bounded by `max_keys`.
#include <chrono>
#include <cstdint>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>

namespace tinsel::server {

class log_throttle {
 public:
  using clock = std::chrono::steady_clock;
  explicit log_throttle(std::chrono::milliseconds interval = std::chrono::seconds(10), std::size_t max_keys = 100)
      : interval_(interval), max_keys_(max_keys) {}

  // Whether a line for `key` (an address and the kind of event, e.g. "accept:1.2.3.4") may be
  // written now; if so, how many lines were held back since the last one (for this key, or in
  // all when the global bound held them).
  std::optional<std::uint64_t> allow(const std::string& key, clock::time_point now = clock::now());

 private:
  struct entry {
    clock::time_point last{};
    std::uint64_t held = 0;
  };
  const std::chrono::milliseconds interval_;
  const std::size_t max_keys_;
  std::mutex mutex_;
  std::unordered_map<std::string, entry> entries_;  // keys that logged in the current interval
  clock::time_point window_start_{};
  std::uint64_t held_overflow_ = 0;  // lines held because max_keys had logged this interval
};

}  // namespace tinsel::server
