// A player's own move must come back at once: the `state` that follows the `ok` of a command may
// not wait for the client's delayed ACK (Nagle's algorithm without TCP_NODELAY stalls it 40 ms on
// Linux, up to 200 ms on Windows). This is the one test with a time bound, and it is relative to the
// machine: before each move the player sends a command the server refuses (one frame back, which
// never stalls), and the faster quarter of the moves (an `ok` and a `state`) may take at most 20 ms
// longer than the faster quarter of those refusals. With the stall every move takes 40 ms more.
// (Measured on an idle 2-core machine: moves p25 0.9 ms; with ASan on a loaded one: 10 ms.)
#include <catch2/catch.hpp>

#include <algorithm>

#include "test_server.hpp"
#include "ws_client.hpp"

using namespace tinsel::test;

TEST_CASE("a player's own move comes back without a delayed-ACK stall", "[latency]") {
  test_server s([](tinsel::server::config& c) { c.rate_per_sec = c.rate_burst = 1000; });
  ws_client a(s.port), b(s.port);
  say_hello(a, "Oma");
  say_hello(b, "Ben");
  const json options = {{"mainTimeoutSec", "off"}, {"subPromptTimeoutSec", "off"}};
  const std::string code = a.request({{"type", "create_room"}, {"game", "happy_holidays"}, {"options", options}})["room"];
  REQUIRE(b.request({{"type", "join_room"}, {"room", code}})["type"] == "ok");
  REQUIRE(a.request({{"type", "start_game"}, {"first_seat", 0}})["type"] == "ok");

  ws_client* clients[] = {&a, &b};
  json last[2];
  last[0] = a.expect_type("state");
  last[1] = b.expect_type("state");

  std::vector<double> own_move_ms, refusal_ms;
  const auto ms_since = [](std::chrono::steady_clock::time_point t) {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t).count();
  };
  for (int moves = 0; moves < 60 && !last[0].value("over", false); ++moves) {
    const int i = !last[0]["legal"].empty() ? 0 : !last[1]["legal"].empty() ? 1 : -1;
    REQUIRE(i >= 0);
    json command;
    for (const auto& e : last[i]["legal"])
      if (!e.contains("domain")) command = e;
    REQUIRE_FALSE(command.is_null());
    const auto probe = std::chrono::steady_clock::now();
    const auto refused = clients[i]->request_unchecked({{"type", "action"}, {"action", {{"kind", "no_such_move"}}}});
    refusal_ms.push_back(ms_since(probe));
    REQUIRE(refused["type"] == "error");
    const auto sent = std::chrono::steady_clock::now();
    clients[i]->send({{"type", "action"}, {"id", moves}, {"action", command}});
    const auto st = clients[i]->expect([](const json& j) { return j["type"] == "state" || j["type"] == "error"; }, "a state");
    REQUIRE(st["type"] == "state");
    own_move_ms.push_back(ms_since(sent));
    last[i] = st;
    // Both players' views of this move (a server bot does not play here, so this is the latest).
    const auto seq = st["seq"].get<std::uint64_t>();
    last[1 - i] = clients[1 - i]->expect([&](const json& j) { return j["type"] == "state" && j["seq"] == seq; }, "the other view");
  }
  REQUIRE(own_move_ms.size() >= 20);
  const auto quantile = [](std::vector<double> v, std::size_t num, std::size_t den) {
    std::sort(v.begin(), v.end());
    return v[v.size() * num / den];
  };
  const double p25 = quantile(own_move_ms, 1, 4), p50 = quantile(own_move_ms, 1, 2);
  const double base = quantile(refusal_ms, 1, 4);
  INFO("own-move latency over " << own_move_ms.size() << " moves: p25 " << p25 << " ms, p50 " << p50
                                << " ms; a refused command: p25 " << base << " ms");
  CHECK(p25 < base + 20.0);
}
