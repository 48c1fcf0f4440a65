#include "limits/log_throttle.hpp"

namespace tinsel::server {

std::optional<std::uint64_t> log_throttle::allow(const std::string& key, clock::time_point now) {
  std::lock_guard lock(mutex_);
  if (now - window_start_ >= interval_) {
    // A new interval: keys still holding lines back keep their count (said by their next line).
    std::erase_if(entries_, [](const auto& kv) { return kv.second.held == 0; });
    if (entries_.size() >= max_keys_) {  // keep the bound: their counts fold into the overflow
      for (const auto& kv : entries_) held_overflow_ += kv.second.held;
      entries_.clear();
    }
    window_start_ = now;
  }
  auto it = entries_.find(key);
  if (it != entries_.end() && now - it->second.last < interval_) {
    ++it->second.held;
    return std::nullopt;
  }
  if (it == entries_.end()) {
    if (entries_.size() >= max_keys_) {
      ++held_overflow_;
      return std::nullopt;
    }
    it = entries_.emplace(key, entry{}).first;
  }
  const std::uint64_t held = it->second.held + held_overflow_;
  held_overflow_ = 0;
  it->second = entry{now, 0};
  return held;
}

}  // namespace tinsel::server
