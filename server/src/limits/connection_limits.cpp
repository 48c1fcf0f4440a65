#include "limits/connection_limits.hpp"

#include <algorithm>

#include "limits/address_limits.hpp"

namespace tinsel::server {

connection_slot& connection_slot::operator=(connection_slot&& o) noexcept {
  if (this != &o) {
    release();
    owner_ = o.owner_;
    key_ = std::move(o.key_);
    o.owner_ = nullptr;
  }
  return *this;
}

void connection_slot::release() {
  if (owner_) owner_->release(key_);
  owner_ = nullptr;
}

connection_limits::connection_limits(const config& cfg)
    : cfg_(cfg), new_connections_(cfg.connections_per_address_per_sec, cfg.connection_burst_per_address) {}

connection_limits::admission connection_limits::admit(const std::string& peer) {
  admission a;
  const std::string canonical = canonical_address(peer).value_or(peer);
  a.key = limit_key(canonical);
  if (std::find(cfg_.trusted_proxies.begin(), cfg_.trusted_proxies.end(), canonical) != cfg_.trusted_proxies.end())
    return a;
  if (new_connections_.take(a.key)) {
    a.what = verdict::too_fast;
    return a;
  }
  std::lock_guard lock(mutex_);
  auto& n = open_[a.key];
  if (n >= cfg_.max_tcp_connections_per_address) {
    a.what = verdict::too_many;
    return a;
  }
  ++n;
  a.slot = connection_slot(this, a.key);
  return a;
}

void connection_limits::release(const std::string& key) {
  std::lock_guard lock(mutex_);
  auto it = open_.find(key);
  if (it == open_.end()) return;
  if (--it->second == 0) open_.erase(it);
}

std::size_t connection_limits::open_from(const std::string& key) const {
  std::lock_guard lock(mutex_);
  auto it = open_.find(key);
  return it == open_.end() ? 0 : it->second;
}

std::size_t connection_limits::tracked_addresses() const {
  std::lock_guard lock(mutex_);
  return open_.size();
}

}  // namespace tinsel::server
