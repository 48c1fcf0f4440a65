#pragma once
// A token bucket: it refills continuously at `rate` tokens per second up to `burst` and starts
// full; each request spends one token, and a request that finds less than one is refused. The
// time is passed in, so that a test can drive the bucket without a clock. One connection's
// request rate uses it directly; rate_buckets.hpp keeps one per address.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <optional>

namespace tinsel::server {

class token_bucket {
 public:
  using clock = std::chrono::steady_clock;

  token_bucket() = default;
  token_bucket(double rate, double burst, clock::time_point now) : rate_(rate), burst_(burst), tokens_(burst), at_(now) {}

  // Spends one token if there is one at `now` (never earlier than the previous call).
  bool take(clock::time_point now) { return !take_or_wait(now); }

  // Spends one token if there is one at `now`: nullopt; else how long until there is one (at
  // least 1 ms), spending nothing.
  std::optional<std::chrono::milliseconds> take_or_wait(clock::time_point now) {
    tokens_ = level(now);
    at_ = std::max(at_, now);
    if (tokens_ < 1.0) {
      const auto wait = std::chrono::milliseconds(static_cast<long long>(std::ceil((1.0 - tokens_) / rate_ * 1000.0)));
      return std::max(wait, std::chrono::milliseconds(1));
    }
    tokens_ -= 1.0;
    return std::nullopt;
  }

  // The tokens there are at `now`, refilled since the last call; a time before it adds none.
  double level(clock::time_point now) const {
    const double elapsed = std::chrono::duration<double>(now - at_).count();
    return std::min(burst_, tokens_ + std::max(0.0, elapsed) * rate_);
  }
  bool full(clock::time_point now) const { return level(now) >= burst_; }

 private:
  double rate_ = 0;
  double burst_ = 0;
  double tokens_ = 0;
  clock::time_point at_{};
};

}  // namespace tinsel::server
