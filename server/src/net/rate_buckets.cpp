#include "net/rate_buckets.hpp"

#include <algorithm>
#include <cmath>

namespace tinsel::server {

double rate_buckets::level(const bucket& b, clock::time_point now) const {
  const double seconds = std::chrono::duration<double>(now - b.at).count();
  return std::min(burst_, b.tokens + std::max(0.0, seconds) * per_sec_);
}

std::optional<std::chrono::milliseconds> rate_buckets::take(const std::string& key, clock::time_point now) {
  std::lock_guard lock(mutex_);
  auto it = buckets_.find(key);
  if (it == buckets_.end()) {
    // Growing is the only way the map grows: sweep the full buckets once it has doubled, which
    // bounds it by twice the addresses busy within the last burst / per_sec seconds.
    if (buckets_.size() >= sweep_at_) {
      std::erase_if(buckets_, [&](const auto& kv) { return level(kv.second, now) >= burst_; });
      sweep_at_ = std::max<std::size_t>(1024, 2 * buckets_.size());
    }
    it = buckets_.emplace(key, bucket{burst_, now}).first;
  }
  const double tokens = level(it->second, now);
  if (tokens < 1.0) {
    const auto wait = std::chrono::milliseconds(static_cast<long long>(std::ceil((1.0 - tokens) / per_sec_ * 1000.0)));
    return std::max(wait, std::chrono::milliseconds(1));
  }
  it->second = bucket{tokens - 1.0, now};
  return std::nullopt;
}

std::size_t rate_buckets::tracked() const {
  std::lock_guard lock(mutex_);
  return buckets_.size();
}

}  // namespace tinsel::server
