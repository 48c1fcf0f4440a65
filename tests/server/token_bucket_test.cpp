// The per-connection rate limit (docs/protocol.md, "Limits": 20 requests per second, bursts of
// 40): the token bucket of every WebSocket connection, driven with a made-up clock so that no
// result depends on how fast the machine is.
#include <catch2/catch.hpp>

#include "limits/token_bucket.hpp"

using tinsel::server::token_bucket;
using namespace std::chrono_literals;

namespace {

const auto t0 = token_bucket::clock::time_point{} + 1000h;

// How many of `tries` requests sent at one instant are granted.
int granted(token_bucket& b, token_bucket::clock::time_point at, int tries = 1000) {
  int n = 0;
  for (int i = 0; i < tries; ++i) n += b.take(at) ? 1 : 0;
  return n;
}

}  // namespace

TEST_CASE("rate limit: a new connection may send its burst at once, and not one request more", "[rate]") {
  token_bucket b(20, 40, t0);
  CHECK(granted(b, t0, 39) == 39);  // below
  CHECK(b.take(t0));                // at: the 40th
  CHECK_FALSE(b.take(t0));          // above: the 41st
}

TEST_CASE("rate limit: after a long idle the burst stays capped", "[rate]") {
  token_bucket b(20, 40, t0);
  REQUIRE(granted(b, t0) == 40);
  // An hour idle would be 72,000 tokens without the cap.
  CHECK(granted(b, t0 + 1h) == 40);
  // Idle just long enough to refill the whole burst (2 s), and a little less and more.
  CHECK(granted(b, t0 + 1h + 1975ms) == 39);
  CHECK(granted(b, t0 + 1h + 1975ms + 2s) == 40);
  CHECK(granted(b, t0 + 1h + 1975ms + 2s + 3s) == 40);
}

TEST_CASE("rate limit: the bucket refills at the rate, fractions included", "[rate]") {
  token_bucket b(20, 40, t0);
  REQUIRE(granted(b, t0) == 40);
  CHECK_FALSE(b.take(t0 + 30ms));  // 0.6 of a token
  CHECK(b.take(t0 + 60ms));        // 1.2: one, 0.2 left
  CHECK_FALSE(b.take(t0 + 60ms));
  CHECK(b.take(t0 + 110ms));  // 0.2 + 1.0
  CHECK(granted(b, t0 + 110ms + 1s) == 20);  // one second: exactly the rate
}

TEST_CASE("rate limit: a fractional rate and a burst of one", "[rate]") {
  token_bucket b(0.1, 1, t0);
  CHECK(b.take(t0));
  CHECK_FALSE(b.take(t0 + 9s));
  CHECK(b.take(t0 + 10s + 1ms));
  CHECK(granted(b, t0 + 10h) == 1);
}
