// Who is here (issue 31): the room push says since when a seat dropped or went away, and names the
// spectators in the order they joined, so that every screen can show who is connected, who dropped
// (and for how long, also after a reload) and who is watching.
#include <catch2/catch.hpp>

#include "server_process.hpp"
#include "ws_client.hpp"

using namespace tinsel::test;

namespace {

std::int64_t wall_ms() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch()).count();
}

json seat_of(const json& room_push, const std::string& player) {
  for (const auto& s : room_push["room"]["seats"])
    if (s["player"] == player) return s;
  return nullptr;
}

json names_watching(const json& room_push) {
  json names = json::array();
  for (const auto& w : room_push["room"]["watchers"]) names.push_back(w["name"]);
  return names;
}

bool is_room(const json& j) { return j.value("type", "") == "room"; }

}  // namespace

TEST_CASE("presence: the room push says since when a player dropped and who watches by name in join order",
          "[presence][binary]") {
  server_process srv;
  ws_client oma(srv.port);
  const auto oma_id = say_hello(oma, "Oma Rosi")["player"].get<std::string>();
  const auto created = oma.request({{"type", "create_room"}, {"game", "happy_holidays"},
                                    {"options", {{"mainTimeoutSec", "off"}, {"subPromptTimeoutSec", "off"}}}});
  REQUIRE(created["type"] == "ok");
  const auto code = created["room"].get<std::string>();

  auto ben = std::make_unique<ws_client>(srv.port);
  const auto ben_welcome = say_hello(*ben, "Ben");
  const auto ben_id = ben_welcome["player"].get<std::string>();
  REQUIRE(ben->request({{"type", "join_room"}, {"room", code}})["type"] == "ok");

  // Two watchers: both named, in the order they joined; players are not watchers.
  ws_client eva(srv.port);
  const auto eva_id = say_hello(eva, "Tante Eva")["player"].get<std::string>();
  REQUIRE(eva.request({{"type", "join_room"}, {"room", code}, {"as", "spectator"}})["type"] == "ok");
  ws_client paul(srv.port);
  say_hello(paul, "Onkel Paul");
  REQUIRE(paul.request({{"type", "join_room"}, {"room", code}, {"as", "spectator"}})["type"] == "ok");
  auto push = oma.expect([](const json& j) { return is_room(j) && j["room"]["spectators"] == 2; }, "both watchers");
  CHECK(names_watching(push) == json::array({"Tante Eva", "Onkel Paul"}));
  CHECK(push["room"]["watchers"][0]["player"] == eva_id);
  // Connected players carry no time.
  CHECK(seat_of(push, oma_id)["since"].is_null());
  CHECK(seat_of(push, ben_id)["since"].is_null());
  CHECK(seat_of(push, ben_id)["status"] == "connected");

  REQUIRE(oma.request({{"type", "start_game"}, {"first_seat", 0}})["type"] == "ok");
  oma.expect_type("state");

  // Ben's connection is cut: every member sees him disconnected, with the server time it happened.
  const auto before_drop = wall_ms();
  ben->close();
  push = eva.expect([&](const json& j) { return is_room(j) && seat_of(j, ben_id)["status"] == "disconnected"; },
                    "Ben shown as dropped to a watcher");
  const auto after_drop = wall_ms();
  const auto dropped_at = seat_of(push, ben_id)["since"];
  REQUIRE(dropped_at.is_number_integer());
  CHECK(dropped_at.get<std::int64_t>() >= before_drop);
  CHECK(dropped_at.get<std::int64_t>() <= after_drop);
  CHECK(seat_of(push, oma_id)["since"].is_null());

  // A watcher leaves: gone from the list; Ben's time stays the time he dropped, and a page that
  // joins now (a reload) is told the same time.
  REQUIRE(eva.request({{"type", "leave_room"}})["type"] == "ok");
  push = oma.expect([](const json& j) { return is_room(j) && j["room"]["spectators"] == 1; }, "Eva no longer watching");
  CHECK(names_watching(push) == json::array({"Onkel Paul"}));
  CHECK(seat_of(push, ben_id)["since"] == dropped_at);
  ws_client reloaded(srv.port);
  say_hello(reloaded, "Tante Eva");
  REQUIRE(reloaded.request({{"type", "join_room"}, {"room", code}, {"as", "spectator"}})["type"] == "ok");
  push = reloaded.expect_type("room");
  CHECK(seat_of(push, ben_id)["since"] == dropped_at);
  CHECK(names_watching(push) == json::array({"Onkel Paul", "Tante Eva"}));

  // Ben comes back with his token: connected again, no time; when he drops again, a new time.
  ben = std::make_unique<ws_client>(srv.port);
  ben->send({{"type", "hello"}, {"protocol", 1}, {"name", "Ben"}, {"token", ben_welcome["token"]}});
  REQUIRE(ben->expect_type("welcome")["resumed"] == true);
  REQUIRE(ben->request({{"type", "join_room"}, {"room", code}})["type"] == "ok");
  push = oma.expect([&](const json& j) { return is_room(j) && seat_of(j, ben_id)["status"] == "connected"; },
                    "Ben shown back");
  CHECK(seat_of(push, ben_id)["since"].is_null());
  ben->close();
  push = oma.expect([&](const json& j) { return is_room(j) && seat_of(j, ben_id)["status"] == "disconnected"; },
                    "Ben shown as dropped again");
  CHECK(seat_of(push, ben_id)["since"].get<std::int64_t>() >= dropped_at.get<std::int64_t>());
  CHECK(seat_of(push, ben_id)["since"].get<std::int64_t>() >= after_drop);
}

TEST_CASE("presence: an away player carries since when and loses it with the next command", "[presence][binary]") {
  server_process srv;
  ws_client emil(srv.port);
  say_hello(emil, "Emil");
  REQUIRE(emil.request({{"type", "create_room"}, {"game", "happy_holidays"},
                        {"options", {{"mainTimeoutSec", 2}, {"subPromptTimeoutSec", 2}}}})["type"] == "ok");
  REQUIRE(emil.request({{"type", "add_bot"}})["type"] == "ok");
  const auto before = wall_ms();
  REQUIRE(emil.request({{"type", "start_game"}, {"first_seat", 0}})["type"] == "ok");
  auto push = emil.expect([](const json& j) { return is_room(j) && j["room"]["seats"][0]["status"] == "away"; },
                          "the silent player marked away", 30s);
  CHECK(push["room"]["seats"][0]["since"].get<std::int64_t>() >= before);
  CHECK(push["room"]["seats"][0]["since"].get<std::int64_t>() <= wall_ms());
  CHECK(push["room"]["seats"][1]["status"] == "bot");
  CHECK(push["room"]["seats"][1]["since"].is_null());
  CHECK(push["room"]["watchers"] == json::array());

  // Any command brings him back. His turns time out after 2 s, so a command may reach the server
  // just after its prompt resolved (a busy machine); then he answers the next one.
  bool back = false;
  for (int tries = 0; tries < 20 && !back; ++tries) {
    const auto mine = emil.expect(
        [](const json& j) {
          return j.value("type", "") == "state" && j["prompt"].is_object() && j["prompt"]["seats"] == json::array({0}) &&
                 !j["legal"].empty();
        },
        "Emil's turn", 30s);
    back = emil.request({{"type", "action"}, {"action", mine["legal"][0]}})["type"] == "ok";
  }
  REQUIRE(back);
  push = emil.expect([](const json& j) { return is_room(j) && j["room"]["seats"][0]["status"] == "connected"; },
                     "Emil back", 10s);
  CHECK(push["room"]["seats"][0]["since"].is_null());
}
