#include "limits/rate_buckets.hpp"

#include <algorithm>

namespace tinsel::server {

std::optional<std::chrono::milliseconds> rate_buckets::take(const std::string& key, clock::time_point now) {
  std::lock_guard lock(mutex_);
  auto it = buckets_.find(key);
  if (it == buckets_.end()) {
    // Growing is the only way the map grows: sweep the full buckets once it has doubled, which
    // bounds it by twice the addresses busy within the last burst / per_sec seconds.
    if (buckets_.size() >= sweep_at_) {
      std::erase_if(buckets_, [&](const auto& kv) { return kv.second.full(now); });
      sweep_at_ = std::max<std::size_t>(1024, 2 * buckets_.size());
    }
    it = buckets_.emplace(key, token_bucket(per_sec_, burst_, now)).first;
  }
  return it->second.take_or_wait(now);
}

std::size_t rate_buckets::tracked() const {
  std::lock_guard lock(mutex_);
  return buckets_.size();
}

}  // namespace tinsel::server
