#pragma once
// A token bucket: it refills continuously at `rate` tokens per second up to `burst` and starts
// full; each request spends one token, and a request that finds less than one is refused. The
// time is passed in, so that a test can drive the bucket without a clock.
#include <algorithm>
#include <chrono>

namespace tinsel::server {

class token_bucket {
 public:
  using clock = std::chrono::steady_clock;

  token_bucket() = default;
  token_bucket(double rate, double burst, clock::time_point now) : rate_(rate), burst_(burst), tokens_(burst), at_(now) {}

  // Spends one token if there is one at `now` (never earlier than the previous call).
  bool take(clock::time_point now) {
    const double elapsed = std::chrono::duration<double>(now - at_).count();
    at_ = now;
    tokens_ = std::min(burst_, tokens_ + elapsed * rate_);
    if (tokens_ < 1.0) return false;
    tokens_ -= 1.0;
    return true;
  }

 private:
  double rate_ = 0;
  double burst_ = 0;
  double tokens_ = 0;
  clock::time_point at_{};
};

}  // namespace tinsel::server
