// Two real WebSocket clients share a private room through a real server.
#include <memory>

#include <catch2/catch.hpp>

#include "test_server.hpp"
#include "ws_client.hpp"

using namespace tinsel::test;

namespace {
json room_with_seats(ws_client& c, int seated) {
  return c.expect(
      [&](const json& j) {
        if (j.value("type", "") != "room") return false;
        int n = 0;
        for (const auto& s : j["room"]["seats"]) n += s["player"].is_null() ? 0 : 1;
        return n == seated;
      },
      "a room message with " + std::to_string(seated) + " seated players");
}
}  // namespace

TEST_CASE("hello is answered with a welcome carrying a player id and a secret token", "[lobby]") {
  test_server s;
  ws_client c(s.port);
  c.send({{"type", "hello"}, {"protocol", 1}, {"name", "  Oma  "}, {"id", 7}});
  auto w = c.expect_type("welcome");
  CHECK(c.expect_reply(7)["type"] == "ok");
  CHECK(w["protocol"] == 1);
  CHECK(w["name"] == "Oma");
  CHECK(w["player"].get<std::string>().starts_with("p_"));
  CHECK(w["token"].get<std::string>().size() >= 32);  // 128 random bits in hex
  bool has_hh = false;
  for (const auto& g : w["games"]) has_hh |= g["id"] == "happy_holidays";
  CHECK(has_hh);
}

TEST_CASE("two clients create and join a room, see both seats, chat, and leave", "[lobby]") {
  test_server s;
  ws_client host(s.port), guest(s.port);
  const auto host_id = say_hello(host, "Oma")["player"];
  const auto guest_id = say_hello(guest, "Ben")["player"];

  auto created = host.request({{"type", "create_room"}, {"game", "happy_holidays"}});
  REQUIRE(created["type"] == "ok");
  const std::string code = created["room"];
  CHECK(code.size() == 6);
  CHECK(code.find_first_of("01OIL") == std::string::npos);
  CHECK(created["seat"] == 0);

  auto r1 = room_with_seats(host, 1);
  CHECK(r1["room"]["host"] == host_id);
  CHECK(r1["room"]["game"] == "happy_holidays");
  CHECK(r1["room"]["status"] == "lobby");
  CHECK(r1["room"]["options"]["maxPlayers"] == 4);
  CHECK(r1["room"]["seats"].size() == 4);

  // Codes are case-insensitive and may be typed with a dash.
  std::string typed = code.substr(0, 3) + "-" + code.substr(3);
  for (auto& ch : typed) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  auto joined = guest.request({{"type", "join_room"}, {"room", typed}, {"as", "player"}});
  REQUIRE(joined["type"] == "ok");
  CHECK(joined["room"] == code);
  CHECK(joined["seat"] == 1);

  for (ws_client* c : {&host, &guest}) {
    auto r = room_with_seats(*c, 2);
    CHECK(r["room"]["code"] == code);
    CHECK(r["room"]["seats"][0]["name"] == "Oma");
    CHECK(r["room"]["seats"][0]["status"] == "connected");
    CHECK(r["room"]["seats"][1]["name"] == "Ben");
    CHECK(r["room"]["seats"][1]["player"] == guest_id);
    CHECK(r["room"]["spectators"] == 0);
  }

  auto sent = guest.request({{"type", "chat"}, {"text", "Frohe Weihnachten! 🎄"}});
  CHECK(sent["type"] == "ok");
  for (ws_client* c : {&host, &guest}) {
    auto chat = c->expect_type("chat");
    CHECK(chat["text"] == "Frohe Weihnachten! 🎄");
    CHECK(chat["from"]["name"] == "Ben");
    CHECK(chat["from"]["player"] == guest_id);
    CHECK(chat["from"]["seat"] == 1);
    CHECK(chat["room"] == code);
  }

  auto left = guest.request({{"type", "leave_room"}});
  CHECK(left["type"] == "ok");
  auto after = room_with_seats(host, 1);
  CHECK(after["room"]["seats"][1]["status"] == "empty");
  // The guest is no longer in a room.
  CHECK(guest.request({{"type", "chat"}, {"text", "hello?"}})["code"] == "not_in_room");
}

TEST_CASE("a spectator joins by code and is counted", "[lobby]") {
  test_server s;
  ws_client host(s.port), watcher(s.port);
  say_hello(host, "Oma");
  say_hello(watcher, "Enkel");
  const std::string code = host.request({{"type", "create_room"}, {"game", "happy_holidays"}})["room"];
  auto joined = watcher.request({{"type", "join_room"}, {"room", code}, {"as", "spectator"}});
  REQUIRE(joined["type"] == "ok");
  CHECK(joined["spectator"] == true);
  CHECK(joined["seat"].is_null());
  auto r = host.expect([](const json& j) { return j.value("type", "") == "room" && j["room"]["spectators"] == 1; },
                       "a room message counting one spectator");
  CHECK(r["room"]["seats"][1]["status"] == "empty");
}

TEST_CASE("the host role passes on when the host leaves", "[lobby]") {
  test_server s;
  ws_client host(s.port), guest(s.port);
  say_hello(host, "Oma");
  const auto guest_id = say_hello(guest, "Ben")["player"];
  const std::string code = host.request({{"type", "create_room"}, {"game", "happy_holidays"}})["room"];
  REQUIRE(guest.request({{"type", "join_room"}, {"room", code}})["type"] == "ok");
  REQUIRE(host.request({{"type", "leave_room"}})["type"] == "ok");
  auto r = guest.expect([&](const json& j) { return j.value("type", "") == "room" && j["room"]["host"] == guest_id; },
                        "the guest becoming host");
  CHECK(r["room"]["seats"][0]["status"] == "empty");
}

TEST_CASE("a host who disconnects in the lobby keeps seat and host role and comes back with the token", "[lobby]") {
  test_server s;
  auto host = std::make_unique<ws_client>(s.port);
  ws_client guest(s.port);
  const auto welcome = say_hello(*host, "Oma");
  say_hello(guest, "Ben");
  const std::string code = host->request({{"type", "create_room"}, {"game", "happy_holidays"}})["room"];
  REQUIRE(guest.request({{"type", "join_room"}, {"room", code}})["type"] == "ok");
  host->close();  // a reload
  auto r = guest.expect([](const json& j) { return j.value("type", "") == "room" && j["room"]["seats"][0]["status"] == "disconnected"; },
                        "the host's seat kept as disconnected");
  CHECK(r["room"]["host"] == welcome["player"]);
  CHECK(r["room"]["seats"][0]["player"] == welcome["player"]);

  host = std::make_unique<ws_client>(s.port);
  host->send({{"type", "hello"}, {"protocol", 1}, {"name", "Oma"}, {"token", welcome["token"]}, {"id", 1}});
  CHECK(host->expect_type("welcome")["resumed"] == true);
  auto back = host->request({{"type", "join_room"}, {"room", code}});
  CHECK(back["seat"] == 0);
  CHECK(back["resumed"] == true);
  r = guest.expect([](const json& j) { return j.value("type", "") == "room" && j["room"]["seats"][0]["status"] == "connected"; },
                   "the host connected again");
  CHECK(r["room"]["host"] == welcome["player"]);
  CHECK(host->request({{"type", "start_game"}})["type"] == "ok");
}

TEST_CASE("a host disconnected during a game past the lobby grace hands the host role on, the seat stays", "[lobby]") {
  test_server s([](tinsel::server::config& c) { c.lobby_seat_grace = std::chrono::milliseconds(300); });
  ws_client host(s.port), guest(s.port);
  say_hello(host, "Oma");
  const auto guest_id = say_hello(guest, "Ben")["player"];
  const std::string code = host.request({{"type", "create_room"}, {"game", "happy_holidays"}})["room"];
  REQUIRE(guest.request({{"type", "join_room"}, {"room", code}})["type"] == "ok");
  REQUIRE(host.request({{"type", "start_game"}})["type"] == "ok");
  host.close();
  auto r = guest.expect([&](const json& j) { return j.value("type", "") == "room" && j["room"]["host"] == guest_id; },
                        "the guest becoming host after the grace");
  CHECK(r["room"]["status"] == "playing");
  CHECK(r["room"]["seats"][0]["status"] == "disconnected");
}

TEST_CASE("a seat disconnected past the lobby grace is freed and the host role passes on", "[lobby]") {
  test_server s([](tinsel::server::config& c) { c.lobby_seat_grace = std::chrono::milliseconds(300); });
  ws_client host(s.port), guest(s.port);
  say_hello(host, "Oma");
  const auto guest_id = say_hello(guest, "Ben")["player"];
  const std::string code = host.request({{"type", "create_room"}, {"game", "happy_holidays"}})["room"];
  REQUIRE(guest.request({{"type", "join_room"}, {"room", code}})["type"] == "ok");
  host.close();
  auto r = guest.expect([&](const json& j) { return j.value("type", "") == "room" && j["room"]["host"] == guest_id; },
                        "the guest becoming host after the grace");
  CHECK(r["room"]["seats"][0]["status"] == "empty");
}

TEST_CASE("healthz counts rooms and connections, / serves the web client, unknown paths are 404", "[lobby][http]") {
  test_server s;
  auto empty = json::parse(http_get(s.port, "/healthz").body);
  CHECK(empty["status"] == "ok");
  CHECK(empty["rooms"] == 0);
  CHECK(empty["connections"] == 0);
  CHECK(empty["version"].is_string());

  ws_client c(s.port);
  say_hello(c, "Oma");
  REQUIRE(c.request({{"type", "create_room"}, {"game", "happy_holidays"}})["type"] == "ok");
  auto health = http_get(s.port, "/healthz");
  CHECK(health.status == 200);
  CHECK(health.content_type == "application/json");
  auto h = json::parse(health.body);
  CHECK(h["rooms"] == 1);
  CHECK(h["connections"] == 1);

  auto index = http_get(s.port, "/");
  CHECK(index.status == 200);
  CHECK(index.content_type.starts_with("text/html"));
  CHECK(index.body.find("Tinsel") != std::string::npos);
  CHECK(http_get(s.port, "/r/ABCDEF").status == 200);  // invite links open the client
  CHECK(http_get(s.port, "/nope").status == 404);
  CHECK(http_get(s.port, "/../CMakeLists.txt").status == 404);
}
