// Happy Holidays through the real server: clients choose only among the `legal` entries they
// receive, and play to a result whose scores follow the rule (sum of the two largest colour stacks).
#include <catch2/catch.hpp>

#include <algorithm>
#include <random>

#include "play_helpers.hpp"

using namespace tinsel::test;


TEST_CASE("three players play complete games of Happy Holidays, then play again in the same room", "[happy_holidays][play]") {
  test_server s(lift_rate_limit);
  auto t = seat_players(s, 3, {{"maxPlayers", 3}});
  std::mt19937 rng(12345);
  std::uint64_t seq = 0;
  for (int game = 0; game < 3; ++game) {
    INFO("game " << game);
    auto started = t.clients[0]->request({{"type", "start_game"}});
    REQUIRE(started["type"] == "ok");
    auto finals = play_to_end(t, rng, seq);
    check_final_state(finals);
    // The room is ready for another game, with the same three players.
    auto room = t.clients[1]->expect([](const json& j) { return j.value("type", "") == "room" && j["room"]["status"] == "finished"; },
                                     "the finished room");
    CHECK(room["room"]["result"] == finals[0]["result"]);
  }
}

TEST_CASE("a spectator sees every state of a game, with no legal commands", "[happy_holidays][play]") {
  test_server s(lift_rate_limit);
  auto t = seat_players(s, 2, {{"maxPlayers", 2}});
  ws_client watcher(s.port);
  say_hello(watcher, "Enkel");
  REQUIRE(watcher.request({{"type", "join_room"}, {"room", t.code}, {"as", "spectator"}})["type"] == "ok");
  REQUIRE(t.clients[0]->request({{"type", "start_game"}})["type"] == "ok");
  std::mt19937 rng(7);
  std::uint64_t seq = 0;
  auto finals = play_to_end(t, rng, seq);
  check_final_state(finals);
  std::uint64_t last = 0;
  for (;;) {
    auto st = watcher.expect_type("state");
    CHECK(st["legal"].empty());
    CHECK(st["seat"].is_null());
    CHECK(st["seq"].get<std::uint64_t>() == last + 1);
    last = st["seq"];
    if (st["over"] == true) {
      CHECK(st["view"] == finals[0]["view"]);
      break;
    }
  }
}

TEST_CASE("a prompt nobody answers is resolved by its timeout default", "[happy_holidays][timeout]") {
  test_server s(lift_rate_limit);
  auto t = seat_players(s, 2, {{"maxPlayers", 2}, {"mainTimeoutSec", 1}, {"subPromptTimeoutSec", 1}, {"startPlayer", "host-picks"}});
  REQUIRE(t.clients[0]->request({{"type", "start_game"}, {"first_seat", 1}})["type"] == "ok");
  auto first = t.clients[0]->expect_type("state");
  REQUIRE(first["prompt"]["seats"] == json::array({1}));
  const auto deadline = first["prompt"]["deadline"].get<long long>();
  const auto now = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch()).count();
  CHECK(deadline > now);
  CHECK(deadline <= now + 1500);
  // Nobody acts: within the deadline plus slack, the server applies the default (D1: seat 1 holds
  // no reindeer as the start player, so it takes one and rolls).
  auto next = t.clients[0]->expect_type("state", std::chrono::milliseconds(3000));
  CHECK(next["seq"] == first["seq"].get<int>() + 1);
  REQUIRE(next["events"].size() >= 2);
  CHECK(next["events"][0]["kind"] == "timed_out");
  CHECK(next["events"][0]["seats"] == json::array({1}));
  bool rolled = false;
  for (const auto& e : next["events"]) rolled |= e["kind"] == "rolled";
  CHECK(rolled);
}

TEST_CASE("when a player leaves mid-game their seat is played by defaults so the game finishes", "[happy_holidays][play]") {
  test_server s([](tinsel::server::config& c) {
    lift_rate_limit(c);
    c.auto_play_delay = std::chrono::milliseconds(20);
  });
  auto t = seat_players(s, 3, {{"maxPlayers", 3}});
  REQUIRE(t.clients[0]->request({{"type", "start_game"}})["type"] == "ok");
  REQUIRE(t.clients[2]->request({{"type", "leave_room"}})["type"] == "ok");
  t.clients.pop_back();
  std::mt19937 rng(99);
  std::uint64_t seq = 0;
  auto finals = play_to_end(t, rng, seq);
  check_final_state(finals);
  bool shown_gone = false;
  for (const auto& m : t.clients[0]->transcript())
    shown_gone |= m["type"] == "room" && m["room"]["status"] == "playing" && m["room"]["seats"][2]["status"] == "gone";
  CHECK(shown_gone);
}
