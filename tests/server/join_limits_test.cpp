// What one address may cost through join_room, with a clock the test moves
// (server/src/limits/address_limits): failed joins counted per IPv6 /48 as well as per /64, and the
// bytes that joins send an address. docs/operations.md, "Limits per address".
#include <catch2/catch.hpp>

#include <string>

#include "limits/address_limits.hpp"
#include "tinsel/server/config.hpp"

using namespace tinsel::server;
using namespace std::chrono_literals;
using clock_type = address_limits::clock;

namespace {

// The /64 number `i` (0..65535) of the /48 2001:db8:`net`::/48, as a limit key.
std::string slash64(int net, int i) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "2001:db8:%x:%x::1", net, i);
  return limit_key(*canonical_address(buf));
}

}  // namespace

TEST_CASE("failed joins per /48: the /64s of one /48 count together, IPv4 and other /48s do not", "[limits][join48]") {
  CHECK(aggregate_key("2001:db8:1:2::/64") == "2001:db8:1::/48");
  CHECK(aggregate_key(slash64(1, 0xffff)) == aggregate_key(slash64(1, 0)));
  CHECK(aggregate_key(slash64(1, 7)) != aggregate_key(slash64(2, 7)));
  CHECK_FALSE(aggregate_key("192.0.2.1"));
  CHECK(client_key("10.0.0.2", {"2001:db8:1:2:3:4:5:6"}, {"10.0.0.2"}) == "2001:db8:1:2::/64");

  config cfg;  // 3 free per /64, 32 per /48
  address_limits l(cfg);
  auto t = clock_type::now();
  // Eleven /64s guess up to 3 codes each (all free for each of them): 32 misses in the /48.
  for (int n = 0; n < 32; ++n) {
    INFO("miss " << n);
    REQUIRE_FALSE(l.join_wait(slash64(1, n / 3), t));
    l.join_missed(slash64(1, n / 3), t);
  }
  // A /64 of that /48 that never missed now waits as well: 1 s, then 2 s after the next miss.
  REQUIRE(l.join_wait(slash64(1, 500), t));
  CHECK(*l.join_wait(slash64(1, 500), t) == 1000ms);
  CHECK(l.join_wait(slash64(1, 500), t + 999ms));
  CHECK_FALSE(l.join_wait(slash64(1, 500), t + 1s));
  // Not another /48, not an IPv4 address, and not a player going back to the room it is in.
  CHECK_FALSE(l.join_wait(slash64(2, 500), t));
  CHECK_FALSE(l.join_wait("192.0.2.1", t));
  CHECK_FALSE(l.join_wait(slash64(1, 500), t, /*with_aggregate=*/false));
  // A /64 of its own back-off still waits for that, also going back to its room.
  CHECK(l.join_wait(slash64(1, 0), t, false) == 1000ms);
  t += 1s;
  l.join_missed(slash64(1, 500), t);
  CHECK(*l.join_wait(slash64(1, 501), t) == 2000ms);
}

TEST_CASE("failed joins per /48: 65,536 /64s guessing whenever allowed get one guess per 10 minutes", "[limits][join48]") {
  config cfg;
  address_limits l(cfg);
  auto t = clock_type::now();
  // The attacker always uses a /64 with no wait of its own; the /48 is what holds it back.
  int next = 0, guesses = 0;
  const auto start = t;
  while (t < start + 24h) {
    if (auto w = l.join_wait(slash64(1, next), t)) {
      t += *w;
      continue;
    }
    l.join_missed(slash64(1, next), t);
    ++guesses;
    next = (next + 1) % 65536;
  }
  // 32 free, 1 s + 2 s + ... + 512 s (10 more in 17 minutes), then one every 600 s.
  CHECK(guesses >= 32 + 10 + 140);
  CHECK(guesses <= 32 + 10 + 143);
  CHECK(l.join_wait(slash64(1, next), t).value_or(0ms) <= std::chrono::milliseconds(cfg.max_join_wait_per_48));
  CHECK(l.tracked_aggregates() == 1);
  // Once the guessing stops, the /48 is forgiven by halves every 10 minutes: free within an hour.
  CHECK_FALSE(l.join_wait(slash64(1, 40000), t + 10min + 20min));
  l.join_missed(slash64(1, 40000), t + 10min + 20min);  // a family's typo, then the right code
  CHECK_FALSE(l.join_wait(slash64(1, 40001), t + 10min + 20min));
}

TEST_CASE("failed joins per /48: one noisy /64, or two, never make the rest of their /48 wait", "[limits][join48]") {
  config cfg;
  address_limits l(cfg);
  auto t = clock_type::now();
  const auto start = t;
  // Two /64s (a stale code in a looping client, a child typing at random) try again whenever
  // their own back-off allows, for a whole day; their neighbours check at every step.
  const std::string noisy[] = {slash64(1, 1), slash64(1, 2)};
  while (t < start + 24h) {
    auto next = t + 1h;
    for (const auto& k : noisy) {
      if (auto w = l.join_wait(k, t, false)) {
        next = std::min(next, t + *w);
        continue;
      }
      // Only its own /64's wait held it back; the /48 made nobody wait.
      REQUIRE_FALSE(l.join_wait(slash64(1, 999), t));
      l.join_missed(k, t);
      next = t;
    }
    REQUIRE_FALSE(l.join_wait(slash64(1, 999), t));
    t = std::max(next, t + 1ms);
  }
}

TEST_CASE("join bytes: a bucket per address, its burst at once, then its rate, and beyond it debt and a wait", "[limits][join_bytes]") {
  config cfg;
  cfg.join_bytes_per_sec = 1000;
  cfg.join_bytes_burst = 10'000;
  address_limits l(cfg);
  const std::string a = "192.0.2.1";
  auto t = clock_type::now();
  CHECK_FALSE(l.join_bytes_wait(a, t));
  CHECK(l.try_spend_join_bytes(a, 6000, t));
  CHECK_FALSE(l.try_spend_join_bytes(a, 6000, t));  // 4,000 left: nothing taken
  CHECK(l.try_spend_join_bytes(a, 4000, t));
  CHECK_FALSE(l.join_bytes_wait(a, t));             // empty, not in debt: the next join goes ahead
  l.spend_join_bytes(a, 1500, t);                   // what a join always sends, into debt
  REQUIRE(l.join_bytes_wait(a, t));
  CHECK(l.join_bytes_wait(a, t)->count() > 1499);   // 1,500 bytes at 1,000 per second
  CHECK(l.join_bytes_wait(a, t)->count() <= 1501);
  CHECK_FALSE(l.join_bytes_wait(a, t + 1500ms));
  CHECK_FALSE(l.join_bytes_wait("192.0.2.2", t));   // another address
  CHECK(l.try_spend_join_bytes("192.0.2.2", 10'000, t));
  // Refilled at 1,000 per second, never beyond the burst.
  CHECK_FALSE(l.try_spend_join_bytes(a, 3000, t + 4s));
  CHECK(l.try_spend_join_bytes(a, 2500, t + 4s));
  CHECK_FALSE(l.try_spend_join_bytes(a, 10'001, t + 1h));
  CHECK(l.try_spend_join_bytes(a, 10'000, t + 1h));
}

TEST_CASE("join bytes and /48 limits: flags, defaults, at least 1", "[limits][config]") {
  const auto parse = [](std::vector<std::string> a) {
    a.insert(a.begin(), "tinsel-server");
    return parse_args(a, nullptr);
  };
  auto p = parse({});
  REQUIRE(p.cfg);
  CHECK(p.cfg->join_bytes_per_sec == 16384);
  CHECK(p.cfg->join_bytes_burst == 8388608);
  CHECK(p.cfg->free_failed_joins_per_48 == 32);
  CHECK(p.cfg->max_join_wait_per_48 == 600s);
  for (const char* f : {"--join-bytes-per-sec", "--join-bytes-burst", "--free-failed-joins-per-48", "--max-join-wait-per-48-sec"}) {
    INFO(f);
    CHECK(parse({f, "0"}).exit_code == 2);
    CHECK(parse({f, "1"}).exit_code == 0);
  }
  auto set = parse({"--join-bytes-per-sec", "1000", "--join-bytes-burst", "5000", "--free-failed-joins-per-48", "7",
                    "--max-join-wait-per-48-sec", "60"});
  REQUIRE(set.cfg);
  CHECK(set.cfg->join_bytes_per_sec == 1000);
  CHECK(set.cfg->join_bytes_burst == 5000);
  CHECK(set.cfg->free_failed_joins_per_48 == 7);
  CHECK(set.cfg->max_join_wait_per_48 == 60s);
}
