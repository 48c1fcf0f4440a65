#include "rooms/identities.hpp"

#include <algorithm>

#include "rooms/random.hpp"
#include "tinsel/protocol/sha256.hpp"

namespace tinsel::server {

using clock = std::chrono::steady_clock;

std::optional<identity_info> identities::issue(std::string name, const std::shared_ptr<participant>& conn,
                                               const std::string& address) {
  identity_info info{"p_" + secure_hex(8), std::move(name), secure_hex(16), "", ""};
  info.token_hash = protocol::sha256_hex(info.token);
  std::lock_guard lock(mutex_);
  purge(clock::now());
  if (!limits_.add_identity(address)) return std::nullopt;
  by_token_[info.token_hash] = record{info, conn, conn->connection_id(), std::nullopt, address};
  return info;
}

std::optional<identity_info> identities::resume(const std::string& token, const std::shared_ptr<participant>& conn,
                                                std::shared_ptr<participant>& replaced) {
  const auto hash = protocol::sha256_hex(token);
  std::lock_guard lock(mutex_);
  purge(clock::now());
  auto it = by_token_.find(hash);
  if (it == by_token_.end()) return std::nullopt;
  it->second.info.token = token;
  if (!it->second.released_at) replaced = it->second.conn.lock();
  it->second.conn = conn;
  it->second.connection = conn->connection_id();
  it->second.released_at.reset();
  return it->second.info;
}

void identities::set_room(const std::string& token, const std::string& room) {
  const auto hash = protocol::sha256_hex(token);
  std::lock_guard lock(mutex_);
  if (auto it = by_token_.find(hash); it != by_token_.end()) it->second.info.room = room;
}

std::string identities::room_of(const std::string& token_hash) const {
  std::lock_guard lock(mutex_);
  auto it = by_token_.find(token_hash);
  return it == by_token_.end() ? std::string() : it->second.info.room;
}

void identities::released(const std::string& token, std::uint64_t connection) {
  const auto hash = protocol::sha256_hex(token);
  std::lock_guard lock(mutex_);
  auto it = by_token_.find(hash);
  if (it != by_token_.end() && it->second.connection == connection) {
    it->second.released_at = clock::now();
    next_expiry_ = std::min(next_expiry_, *it->second.released_at + keep_);
  }
}

std::size_t identities::size() const {
  std::lock_guard lock(mutex_);
  return by_token_.size();
}

void identities::restore(const std::string& player_id, const std::string& name, const std::string& token_hash,
                         const std::string& room) {
  std::lock_guard lock(mutex_);
  if (by_token_.count(token_hash)) return;
  record rec;
  rec.info = identity_info{player_id, name, "", room, token_hash};
  rec.released_at = clock::now();
  by_token_.emplace(token_hash, std::move(rec));
  next_expiry_ = std::min(next_expiry_, clock::now() + keep_);
}

void identities::purge(clock::time_point now) {
  if (now < next_expiry_) return;
  next_expiry_ = clock::time_point::max();
  std::erase_if(by_token_, [&](const auto& kv) {
    const auto& rec = kv.second;
    if (!rec.released_at) return false;
    const auto expiry = *rec.released_at + keep_;
    if (expiry >= now) {
      next_expiry_ = std::min(next_expiry_, expiry);
      return false;
    }
    limits_.identity_released(rec.address);
    return true;
  });
}

}  // namespace tinsel::server
