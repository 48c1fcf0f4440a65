// Clocks that tell the truth (issue 31): prompt.deadline is the time a decision is really taken
// for a player who is there (the prompt's timer, an away player's short delay), never the grace
// of a lost connection. In an untimed game a player who drops and comes back sees no deadline.
#include <catch2/catch.hpp>

#include "play_helpers.hpp"

using namespace tinsel::test;

namespace {
json untimed() { return {{"maxPlayers", 2}, {"mainTimeoutSec", "off"}, {"subPromptTimeoutSec", "off"}, {"startPlayer", "host-picks"}}; }

bool is_state(const json& j) { return j.value("type", "") == "state"; }
}  // namespace

TEST_CASE("clocks: in an untimed game a player who drops and comes back has no deadline, before or after her return",
          "[clocks][resume]") {
  test_server s;
  auto t = seat_players(s, 2, untimed());
  const std::string ben_token = t.clients[1]->transcript().front()["token"];
  REQUIRE(t.clients[0]->request({{"type", "start_game"}, {"first_seat", 0}})["type"] == "ok");
  auto oma_first = t.clients[0]->expect_type("state");
  CHECK(oma_first["prompt"]["deadline"].is_null());
  auto ben_state = t.clients[1]->expect_type("state");
  const auto ben_last_seq = ben_state["seq"].get<std::uint64_t>();
  t.clients[1]->close();  // her phone's screen locks
  t.clients[0]->expect([](const json& j) { return j.value("type", "") == "room" && j["room"]["seats"][1]["status"] == "disconnected"; },
                       "Ben shown as disconnected");

  // Oma plays her turn: the game then waits for Ben, who is gone for now. His reconnection grace
  // (10 minutes) is not a turn clock: the states say no deadline.
  auto oma = play_turn(*t.clients[0], oma_first);
  REQUIRE(oma["prompt"]["seats"] == json::array({1}));
  for (const auto& m : t.clients[0]->transcript())
    if (is_state(m)) CHECK(m["prompt"]["deadline"].is_null());

  // Ben reloads: the state that answers his join, and every state after it, has no deadline.
  ws_client back(s.port);
  back.send({{"type", "hello"}, {"protocol", 1}, {"name", "Ben"}, {"token", ben_token}});
  back.expect_type("welcome");
  auto joined = back.request({{"type", "join_room"}, {"room", t.code}, {"last_seq", ben_last_seq}});
  REQUIRE(joined["type"] == "ok");
  REQUIRE(joined["resumed"] == true);
  auto catch_up = back.expect_type("state");
  CHECK(catch_up["prompt"]["seats"] == json::array({1}));
  CHECK(catch_up["prompt"]["deadline"].is_null());
  back.send({{"type", "action"}, {"action", catch_up["legal"][0]}});
  auto next = back.expect_type("state");
  CHECK(next["prompt"]["deadline"].is_null());
  auto oma_next = t.clients[0]->expect([&](const json& j) { return is_state(j) && j["seq"] == next["seq"]; }, "Oma's state after Ben's move");
  CHECK(oma_next["prompt"]["deadline"].is_null());
}

TEST_CASE("clocks: a dropped player's prompt still resolves when the reconnection grace ends though no deadline shows it",
          "[clocks][resume]") {
  test_server s([](tinsel::server::config& c) {
    c.reconnect_grace = std::chrono::milliseconds(1500);
    c.lobby_seat_grace = std::chrono::milliseconds(1000);
  });
  auto t = seat_players(s, 2, untimed());
  REQUIRE(t.clients[0]->request({{"type", "start_game"}, {"first_seat", 0}})["type"] == "ok");
  auto oma_first = t.clients[0]->expect_type("state");
  t.clients[1]->expect_type("state");
  t.clients[1]->close();
  auto oma = play_turn(*t.clients[0], oma_first);
  REQUIRE(oma["prompt"]["seats"] == json::array({1}));
  CHECK(oma["prompt"]["deadline"].is_null());
  // The grace ends: Ben's seat is given up and the server plays it (timed_out, then the bot).
  auto moved = t.clients[0]->expect(
      [](const json& j) { return is_state(j) && (j["over"] == true || j["prompt"]["seats"] != json::array({1})); },
      "Ben's turn taken for him after the grace", 30s);
  CHECK(moved["seq"].get<std::uint64_t>() > oma["seq"].get<std::uint64_t>());
}

TEST_CASE("clocks: in a timed game the deadline is the prompt's timer, also while a player is disconnected", "[clocks]") {
  test_server s;
  json timed = untimed();
  timed["mainTimeoutSec"] = 90;
  timed["subPromptTimeoutSec"] = 30;
  auto t = seat_players(s, 2, timed);
  REQUIRE(t.clients[0]->request({{"type", "start_game"}, {"first_seat", 0}})["type"] == "ok");
  auto oma_first = t.clients[0]->expect_type("state");
  REQUIRE(oma_first["prompt"]["deadline"].is_number());
  t.clients[1]->expect_type("state");
  t.clients[1]->close();
  auto oma = play_turn(*t.clients[0], oma_first);
  REQUIRE(oma["prompt"]["seats"] == json::array({1}));
  // The turn clock: at most the 90 s of a main prompt from now (not the 10 minutes of the grace).
  const auto now_ms = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch()).count();
  REQUIRE(oma["prompt"]["deadline"].is_number());
  CHECK(oma["prompt"]["deadline"].get<long long>() <= now_ms + 90'000);
  CHECK(oma["prompt"]["deadline"].get<long long>() > now_ms);
}
