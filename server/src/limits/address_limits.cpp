#include "limits/address_limits.hpp"

#include <arpa/inet.h>
#include <netinet/in.h>

#include <algorithm>
#include <cstring>

#include <spdlog/spdlog.h>

namespace tinsel::server {

using clock = address_limits::clock;

namespace {

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

std::string to_text(int family, const void* addr) {
  char buf[INET6_ADDRSTRLEN] = {};
  return ::inet_ntop(family, addr, buf, sizeof buf) ? std::string(buf) : std::string();
}

}  // namespace

std::optional<std::string> canonical_address(std::string_view text) {
  text = trim(text);
  if (text.size() > 2 && text.front() == '[') {  // "[v6]" or "[v6]:port"
    const auto close = text.find(']');
    if (close == std::string_view::npos) return std::nullopt;
    text = text.substr(1, close - 1);
  } else if (text.find(':') == text.rfind(':') && text.find('.') != std::string_view::npos) {
    text = text.substr(0, text.find(':'));  // "v4:port"
  }
  if (text.empty() || text.size() >= INET6_ADDRSTRLEN) return std::nullopt;
  const std::string s(text);
  in_addr v4{};
  if (::inet_pton(AF_INET, s.c_str(), &v4) == 1) return to_text(AF_INET, &v4);
  in6_addr v6{};
  if (::inet_pton(AF_INET6, s.c_str(), &v6) != 1) return std::nullopt;
  if (IN6_IS_ADDR_V4MAPPED(&v6)) {
    std::memcpy(&v4, v6.s6_addr + 12, 4);
    return to_text(AF_INET, &v4);
  }
  return to_text(AF_INET6, &v6);
}

std::string limit_key(const std::string& canonical) {
  in6_addr v6{};
  if (canonical.find(':') == std::string::npos || ::inet_pton(AF_INET6, canonical.c_str(), &v6) != 1) return canonical;
  std::memset(v6.s6_addr + 8, 0, 8);
  return to_text(AF_INET6, &v6) + "/64";
}

std::optional<std::string> aggregate_key(const std::string& key) {
  if (!key.ends_with("/64")) return std::nullopt;
  in6_addr v6{};
  if (::inet_pton(AF_INET6, key.substr(0, key.size() - 3).c_str(), &v6) != 1) return std::nullopt;
  std::memset(v6.s6_addr + 6, 0, 10);
  return to_text(AF_INET6, &v6) + "/48";
}

std::string client_key(std::string_view peer, const std::vector<std::string_view>& forwarded_for,
                       const std::vector<std::string>& trusted_proxies) {
  const std::string from = canonical_address(peer).value_or(std::string(peer));
  auto trusted = [&](const std::string& a) {
    return std::find(trusted_proxies.begin(), trusted_proxies.end(), a) != trusted_proxies.end();
  };
  if (!trusted(from)) return limit_key(from);
  std::vector<std::string_view> hops;
  for (auto value : forwarded_for) {
    for (std::size_t start = 0; start <= value.size();) {
      const auto comma = std::min(value.find(',', start), value.size());
      hops.push_back(value.substr(start, comma - start));
      start = comma + 1;
    }
  }
  std::string client = from;  // every hop a trusted proxy (or none): the left-most one
  for (auto it = hops.rbegin(); it != hops.rend(); ++it) {
    auto hop = canonical_address(*it);
    if (!hop) break;  // a proxy that writes garbage: count against the last hop we understood
    client = *hop;
    if (!trusted(client)) break;
  }
  return limit_key(client);
}

address_limits::admission address_limits::open_connection(const std::string& key) {
  std::lock_guard lock(mutex_);
  if (connections_ >= cfg_.max_connections) return admission::server_full;
  const auto now = clock::now();
  auto& e = touch(key, now);
  if (e.connections >= cfg_.max_connections_per_address) {
    settle(entries_.find(key), now);
    return admission::address_full;
  }
  ++e.connections;
  ++connections_;
  return admission::ok;
}

void address_limits::close_connection(const std::string& key) {
  std::lock_guard lock(mutex_);
  auto it = entries_.find(key);
  if (it == entries_.end() || it->second.connections == 0) return;
  --it->second.connections;
  --connections_;
  settle(it, clock::now());
}

std::optional<address_limits::refusal> address_limits::create_room(const std::string& key, clock::time_point now) {
  std::lock_guard lock(mutex_);
  auto& e = touch(key, now);
  std::optional<refusal> no;
  if (e.live_rooms >= cfg_.live_rooms_per_address) {
    no = refusal{"your address already has " + std::to_string(e.live_rooms) +
                     " open rooms; close one, or wait until an empty one expires, then try again",
                 std::nullopt};
  } else if (const double tokens = room_tokens(e, now); tokens < 1.0) {
    const double per_ms = cfg_.rooms_per_address_per_minute / 60000.0;
    const auto wait = std::chrono::milliseconds(static_cast<long long>((1.0 - tokens) / per_ms) + 1);
    no = refusal{"too many rooms created from your address; try again in " +
                     std::to_string((wait.count() + 999) / 1000) + " s",
                 wait};
  } else {
    e.room_tokens = tokens - 1.0;
    e.room_tokens_at = now;
    ++e.live_rooms;
  }
  if (no) settle(entries_.find(key), now);
  return no;
}

void address_limits::room_closed(const std::string& key) {
  std::lock_guard lock(mutex_);
  auto it = entries_.find(key);
  if (it == entries_.end() || it->second.live_rooms == 0) return;
  --it->second.live_rooms;
  settle(it, clock::now());
}

std::optional<std::chrono::milliseconds> address_limits::join_wait(const std::string& key, clock::time_point now,
                                                                  bool with_aggregate) {
  std::optional<clock::time_point> until;
  {
    std::lock_guard lock(mutex_);
    until = with_aggregate ? aggregate_wait_until(key, now) : std::nullopt;
    if (auto it = entries_.find(key); it != entries_.end()) {
      const auto own = it->second.last_miss + join_wait_for(misses_now(it->second, now));
      if (!until || own > *until) until = own;
    }
  }
  if (shared_)
    if (auto cluster = shared_wait_until(key, now, with_aggregate); cluster && (!until || *cluster > *until)) until = cluster;
  if (!until || now >= *until) return std::nullopt;
  return std::chrono::ceil<std::chrono::milliseconds>(*until - now);
}

void address_limits::join_missed(const std::string& key, clock::time_point now) {
  {
    std::lock_guard lock(mutex_);
    auto& e = touch(key, now);
    // 64 misses wait as long as 13 do (the cap); the bound only keeps the shifts defined.
    e.misses = std::min(misses_now(e, now) + 1, 64);
    e.last_miss = now;
    aggregate_missed(key, now);
  }
  if (shared_) shared_missed(key, now);
}

// ---- Failed joins across a cluster ----
// The same arithmetic as this instance's own, on the records every instance writes: a guesser who
// spreads its tries over N instances waits as if it had made them all at one.

std::optional<address_limits::clock::time_point> address_limits::shared_wait_until(const std::string& key, clock::time_point now,
                                                                                    bool with_aggregate) const {
  std::vector<std::string> keys{key};
  const auto agg = with_aggregate ? aggregate_key(key) : std::nullopt;
  if (agg) keys.push_back(*agg);
  std::vector<std::optional<miss_store::record>> found;
  try {
    found = shared_->read(keys);
  } catch (const std::exception& e) {
    spdlog::debug("failed joins not read from the database (this instance's own count applies) error=\"{}\"", e.what());
    return std::nullopt;
  }
  std::optional<clock::time_point> until;
  if (found.size() > 0 && found[0]) {
    entry e;
    e.misses = found[0]->misses;
    e.last_miss = now - found[0]->since_last;
    until = e.last_miss + join_wait_for(misses_now(e, now));
  }
  if (found.size() > 1 && found[1]) {
    const aggregate_entry e{found[1]->misses, now - found[1]->since_last};
    const auto a = e.last_miss + aggregate_wait_for(aggregate_misses_now(e, now));
    if (!until || a > *until) until = a;
  }
  return until;
}

void address_limits::shared_missed(const std::string& key, clock::time_point now) {
  try {
    shared_->add(key, [&](const std::optional<miss_store::record>& r) {
      entry e;
      e.misses = r ? r->misses : 0;
      e.last_miss = now - (r ? r->since_last : std::chrono::milliseconds{});
      return std::min(misses_now(e, now) + 1, 64);
    });
    if (const auto agg = aggregate_key(key))
      shared_->add(*agg, [&](const std::optional<miss_store::record>& r) {
        const aggregate_entry e{r ? r->misses : 0, now - (r ? r->since_last : std::chrono::milliseconds{})};
        return std::min(aggregate_misses_now(e, now) + 1, cfg_.free_failed_joins_per_48 + 64);
      });
  } catch (const std::exception& e) {
    spdlog::debug("failed join not counted in the database (this instance counts it) error=\"{}\"", e.what());
  }
}

bool address_limits::add_identity(const std::string& key) {
  std::lock_guard lock(mutex_);
  const auto now = clock::now();
  auto& e = touch(key, now);
  if (e.identities >= cfg_.identities_per_address) {
    settle(entries_.find(key), now);
    return false;
  }
  ++e.identities;
  return true;
}

void address_limits::identity_released(const std::string& key) {
  std::lock_guard lock(mutex_);
  auto it = entries_.find(key);
  if (it == entries_.end() || it->second.identities == 0) return;
  --it->second.identities;
  settle(it, clock::now());
}

std::size_t address_limits::connections() const {
  std::lock_guard lock(mutex_);
  return connections_;
}

std::size_t address_limits::tracked_addresses() const {
  std::lock_guard lock(mutex_);
  return entries_.size();
}

std::size_t address_limits::tracked_aggregates() const {
  std::lock_guard lock(mutex_);
  return aggregates_.size();
}

// Inserting is the only way the map grows, so sweeping here, once it has doubled since the last
// sweep, bounds it by twice the addresses with something live or a penalty, at O(1) amortized.
address_limits::entry& address_limits::touch(const std::string& key, clock::time_point now) {
  if (auto it = entries_.find(key); it != entries_.end()) return it->second;
  if (entries_.size() >= sweep_at_) {
    std::erase_if(entries_, [&](auto& kv) { return idle(kv.second, now); });
    sweep_at_ = std::max<std::size_t>(1024, 2 * entries_.size());
  }
  return entries_[key];
}

void address_limits::settle(map::iterator it, clock::time_point now) {
  if (it != entries_.end() && idle(it->second, now)) entries_.erase(it);
}

bool address_limits::idle(const entry& e, clock::time_point now) const {
  return e.connections == 0 && e.live_rooms == 0 && e.identities == 0 &&
         room_tokens(e, now) >= cfg_.rooms_per_address_per_minute && misses_now(e, now) == 0;
}

// Refills continuously: rooms_per_address_per_minute per minute, never above that many.
double address_limits::room_tokens(const entry& e, clock::time_point now) const {
  const double cap = cfg_.rooms_per_address_per_minute;
  if (e.room_tokens < 0) return cap;
  const double minutes = std::chrono::duration<double, std::ratio<60>>(now - e.room_tokens_at).count();
  return std::min(cap, e.room_tokens + std::max(0.0, minutes) * cap);
}

clock::duration address_limits::join_wait_for(int misses) const {
  const int over = misses - cfg_.free_failed_joins;
  if (over < 0) return clock::duration::zero();
  if (over >= 12) return max_join_wait;  // 2^12 s is past the cap
  return std::min<clock::duration>(std::chrono::seconds(1LL << over), max_join_wait);
}

// Misses are forgiven only once the wait they caused has passed, by half for every
// miss_half_life after that without another miss: a guesser who tries again as soon as allowed
// is never forgiven, a family that mistyped is back to zero within the hour.
int address_limits::misses_now(const entry& e, clock::time_point now) const {
  if (e.misses == 0) return 0;
  const auto quiet_from = e.last_miss + join_wait_for(e.misses);
  if (now <= quiet_from) return e.misses;
  const auto halvings = (now - quiet_from) / miss_half_life;
  return halvings >= 31 ? 0 : e.misses >> halvings;
}

// ---- Failed joins per IPv6 /48 ----
// One /48 holds 65,536 /64s, each with its own back-off: together they would guess about 15,000
// codes a minute. Their misses also count against the /48, with more free misses (one noisy /64
// makes at most 15 in its first hour, and one an hour after: it alone never makes its neighbours
// wait) and a shorter cap (while a /48 is guessed from, every /64 of it waits; a short cap keeps
// that bearable for the families there). docs/operations.md, "Failed joins", has the arithmetic.

std::optional<clock::time_point> address_limits::aggregate_wait_until(const std::string& key, clock::time_point now) const {
  const auto agg = aggregate_key(key);
  if (!agg) return std::nullopt;
  auto it = aggregates_.find(*agg);
  if (it == aggregates_.end()) return std::nullopt;
  return it->second.last_miss + aggregate_wait_for(aggregate_misses_now(it->second, now));
}

void address_limits::aggregate_missed(const std::string& key, clock::time_point now) {
  const auto agg = aggregate_key(key);
  if (!agg) return;
  if (!aggregates_.count(*agg) && aggregates_.size() >= aggregate_sweep_at_) {
    std::erase_if(aggregates_, [&](auto& kv) { return aggregate_misses_now(kv.second, now) == 0; });
    aggregate_sweep_at_ = std::max<std::size_t>(1024, 2 * aggregates_.size());
  }
  auto& e = aggregates_[*agg];
  // Far past the cap; the bound only keeps the shifts defined.
  e.misses = std::min(aggregate_misses_now(e, now) + 1, cfg_.free_failed_joins_per_48 + 64);
  e.last_miss = now;
}

clock::duration address_limits::aggregate_wait_for(int misses) const {
  const int over = misses - cfg_.free_failed_joins_per_48;
  if (over < 0) return clock::duration::zero();
  const clock::duration cap = cfg_.max_join_wait_per_48;
  if (over >= 17) return cap;  // 2^17 s is past the longest cap the flag allows (a day)
  return std::min<clock::duration>(std::chrono::seconds(1LL << over), cap);
}

// Forgiven as a key's misses are: by half for every miss_half_life after the wait has passed.
int address_limits::aggregate_misses_now(const aggregate_entry& e, clock::time_point now) const {
  if (e.misses == 0) return 0;
  const auto quiet_from = e.last_miss + aggregate_wait_for(e.misses);
  if (now <= quiet_from) return e.misses;
  const auto halvings = (now - quiet_from) / miss_half_life;
  return halvings >= 31 ? 0 : e.misses >> halvings;
}

// ---- Bytes a join sends ----
// A join_room answers a few bytes with the room's chat and game log, 200 KB in a long game; the
// bucket bounds what one address pulls that way (docs/operations.md, "Bytes a join sends").

std::optional<std::chrono::milliseconds> address_limits::join_bytes_wait(const std::string& key, clock::time_point now) {
  std::lock_guard lock(mutex_);
  auto it = join_bytes_.find(key);
  if (it == join_bytes_.end()) return std::nullopt;
  const double tokens = join_bytes_now(it->second, now);
  if (tokens >= 0) return std::nullopt;
  const double ms = -tokens * 1000.0 / static_cast<double>(cfg_.join_bytes_per_sec);
  return std::chrono::milliseconds(static_cast<long long>(ms) + 1);
}

bool address_limits::try_spend_join_bytes(const std::string& key, std::size_t bytes, clock::time_point now) {
  std::lock_guard lock(mutex_);
  auto& b = join_bucket(key, now);
  if (b.tokens < static_cast<double>(bytes)) return false;
  b.tokens -= static_cast<double>(bytes);
  return true;
}

void address_limits::spend_join_bytes(const std::string& key, std::size_t bytes, clock::time_point now) {
  std::lock_guard lock(mutex_);
  join_bucket(key, now).tokens -= static_cast<double>(bytes);
}

// The key's bucket, refilled up to now; a new one is full. Inserting is the only way the map
// grows, so sweeping the full buckets here bounds it as touch() bounds entries_.
address_limits::byte_bucket& address_limits::join_bucket(const std::string& key, clock::time_point now) {
  auto it = join_bytes_.find(key);
  if (it == join_bytes_.end()) {
    if (join_bytes_.size() >= join_bytes_sweep_at_) {
      const double full = static_cast<double>(cfg_.join_bytes_burst);
      std::erase_if(join_bytes_, [&](auto& kv) { return join_bytes_now(kv.second, now) >= full; });
      join_bytes_sweep_at_ = std::max<std::size_t>(1024, 2 * join_bytes_.size());
    }
    it = join_bytes_.emplace(key, byte_bucket{static_cast<double>(cfg_.join_bytes_burst), now}).first;
  }
  it->second.tokens = join_bytes_now(it->second, now);
  it->second.at = std::max(it->second.at, now);
  return it->second;
}

double address_limits::join_bytes_now(const byte_bucket& b, clock::time_point now) const {
  const double seconds = std::max(0.0, std::chrono::duration<double>(now - b.at).count());
  return std::min(static_cast<double>(cfg_.join_bytes_burst), b.tokens + seconds * static_cast<double>(cfg_.join_bytes_per_sec));
}

}  // namespace tinsel::server
