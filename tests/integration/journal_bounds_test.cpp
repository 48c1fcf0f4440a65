// What a room keeps in its journal is bounded by what it needs to come back, not by how long its
// members keep sending legal requests: a host who changes the options and adds and removes bots
// forever leaves one seat snapshot (docs/operations.md, "The journal"), and the room still comes
// back after a crash exactly as it was.
#include <catch2/catch.hpp>

#include "journal_store.hpp"
#include "play_helpers.hpp"
#include "server_process.hpp"

using namespace tinsel::test;

TEST_CASE("journal: a lobby that changes forever keeps one seat snapshot and comes back as it was after a crash",
          "[journal][integration][durable][limits]") {
  journal_store store;  // SQLite or PostgreSQL (tests/support/journal_store.hpp)
  auto flags = store.flags();
  flags.insert(flags.end(), {"--rate-per-sec", "100000", "--rate-burst", "100000"});
  std::string code, oma_token;
  json room_before;
  {
    server_process a(flags);
    auto t = seat_players(a.port, 2, {{"maxPlayers", 4}});
    code = t.code;
    oma_token = t.clients[0]->transcript().front()["token"];
    auto& oma = *t.clients[0];
    for (int i = 0; i < 40; ++i) {
      REQUIRE(oma.request({{"type", "set_options"}, {"options", {{"maxPlayers", 3 + i % 2}}}})["type"] == "ok");
      const auto bot = oma.request({{"type", "add_bot"}});
      REQUIRE(bot["type"] == "ok");
      REQUIRE(oma.request({{"type", "remove_bot"}, {"seat", bot["seat"]}})["type"] == "ok");
    }
    REQUIRE(oma.request({{"type", "set_options"}, {"options", {{"maxPlayers", 4}, {"giftsPerColour", 6}}}})["type"] == "ok");
    REQUIRE(oma.request({{"type", "add_bot"}})["type"] == "ok");
    room_before = oma.expect([](const json& j) { return j.value("type", "") == "room" && j["room"]["seats"][2]["status"] == "bot"; },
                             "the room with its bot")["room"];
    // 121 changes of the seats and options: one snapshot in the journal, the last.
    CHECK(store.count(code, "lobby") == 1);
    a.kill_hard();
  }
  server_process b(flags);
  ws_client oma(b.port);
  oma.send({{"type", "hello"}, {"protocol", 1}, {"name", "Oma"}, {"token", oma_token}});
  REQUIRE(oma.expect_type("welcome")["resumed"] == true);
  REQUIRE(oma.request({{"type", "join_room"}, {"room", code}})["type"] == "ok");
  const auto after = oma.expect_type("room")["room"];
  CHECK(after["options"] == room_before["options"]);
  CHECK(after["seats"].size() == room_before["seats"].size());
  CHECK(after["seats"][2]["status"] == "bot");
  CHECK(after["host"] == room_before["host"]);
}
