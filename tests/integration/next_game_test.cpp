// One room for the evening (issue 31): after a game, and in the lobby, the host picks the next game
// (set_game) in the same room. Seats, names, bots, spectators and chat stay; the room push and the
// invite summary and preview show the new game; every refusal leaves the room as it was; and a
// room whose game changed comes back with that game after kill -9, also in the middle of it.
#include <catch2/catch.hpp>

#include <stdlib.h>

#include <filesystem>
#include <random>

#include "play_helpers.hpp"
#include "server_process.hpp"

using namespace tinsel::test;

namespace {

constexpr auto wait = std::chrono::seconds(60);

// The next room push this client receives that satisfies `pred`.
json room_push(ws_client& c, const std::function<bool(const json&)>& pred, const std::string& what) {
  return c.expect([&](const json& m) { return m["type"] == "room" && pred(m["room"]); }, what, wait)["room"];
}

json summary_of(std::uint16_t port, const std::string& code) {
  const auto r = http_get(port, "/rooms/" + code);
  REQUIRE(r.status == 200);
  return json::parse(r.body);
}

// The host's request is refused with `code`, and the invite summary is as it was.
void refused(ws_client& host, std::uint16_t port, const std::string& code, const json& request, const std::string& error,
             bool unchecked = false) {
  INFO(request.dump());
  const auto before = summary_of(port, code);
  const auto reply = unchecked ? host.request_unchecked(request, wait) : host.request(request, wait);
  CHECK(reply["type"] == "error");
  CHECK(reply["code"] == error);
  CHECK_FALSE(reply.value("message", "").empty());
  CHECK(summary_of(port, code) == before);
}

std::string temp_dir() {
  char t[] = "/tmp/tinsel-next-game-XXXXXX";
  REQUIRE(::mkdtemp(t) != nullptr);
  return t;
}

}  // namespace

TEST_CASE("next game: after a game the host picks another in the same room and everything but the game stays",
          "[next_game][integration]") {
  test_server s(lift_rate_limit);
  auto t = seat_players(s, 2, {{"maxPlayers", 3}, {"giftsPerColour", 5}, {"mainTimeoutSec", "off"}});
  auto& host = *t.clients[0];
  auto& ben = *t.clients[1];
  // Vetter Max sits down and is sent away: the sent-away list carries over to the next game.
  ws_client max(s.port);
  const std::string max_id = say_hello(max, "Vetter Max")["player"];
  REQUIRE(max.request({{"type", "join_room"}, {"room", t.code}}, wait)["type"] == "ok");
  REQUIRE(host.request({{"type", "kick"}, {"player", max_id}}, wait)["type"] == "ok");
  REQUIRE(host.request({{"type", "add_bot"}}, wait)["type"] == "ok");
  ws_client uncle(s.port);
  say_hello(uncle, "Onkel Tom");
  REQUIRE(uncle.request({{"type", "join_room"}, {"room", t.code}, {"as", "spectator"}}, wait)["type"] == "ok");
  REQUIRE(ben.request({{"type", "chat"}, {"text", "Frohe Weihnachten"}}, wait)["type"] == "ok");

  // In the lobby already: the host may change the game before the first one.
  REQUIRE(host.request({{"type", "set_game"}, {"game", "christmas_penguins"}}, wait)["type"] == "ok");
  auto room = room_push(uncle, [](const json& r) { return r["game"] == "christmas_penguins"; }, "penguins in the lobby");
  CHECK(room["status"] == "lobby");
  CHECK(room["options"]["maxPlayers"] == 6);  // options left out take their defaults
  REQUIRE(host.request({{"type", "set_game"}, {"game", "happy_holidays"},
                        {"options", {{"maxPlayers", 3}, {"giftsPerColour", 5}, {"mainTimeoutSec", "off"}}}},
                       wait)["type"] == "ok");
  room = room_push(uncle, [](const json& r) { return r["game"] == "happy_holidays"; }, "back to Happy Holidays");
  CHECK(room["max_players"] == 3);

  // The first game, to the end.
  REQUIRE(host.request({{"type", "start_game"}}, wait)["type"] == "ok");
  std::mt19937 rng(31);
  std::uint64_t seq = 0;
  const auto finals = play_to_end(t, rng, seq);
  REQUIRE(finals[0]["result"].is_object());
  room_push(host, [](const json& r) { return r["status"] == "finished"; }, "the first game finished");

  // Refusals, each leaving the room as it was.
  refused(ben, s.port, t.code, {{"type", "set_game"}, {"game", "unterm_baum"}}, "not_host");
  refused(host, s.port, t.code, {{"type", "set_game"}, {"game", "skat"}}, "unknown_game");
  refused(host, s.port, t.code, {{"type", "set_game"}, {"game", "unterm_baum"}, {"options", {{"maxPlayers", 99}}}},
          "invalid_option", /*unchecked=*/true);
  // Three are seated (two players and the bot); a game for two has no seat for one of them.
  refused(host, s.port, t.code, {{"type", "set_game"}, {"game", "christmas_penguins"}, {"options", {{"maxPlayers", 2}}}},
          "too_many_players");
  refused(host, s.port, t.code, {{"type", "set_game"}}, "invalid_field", /*unchecked=*/true);
  CHECK(summary_of(s.port, t.code)["game"] == "happy_holidays");
  CHECK(summary_of(s.port, t.code)["status"] == "finished");

  // The next game: Unterm Baum for four, in the same room.
  const auto ok = host.request({{"type", "set_game"}, {"game", "unterm_baum"},
                                {"options", {{"maxPlayers", 4}, {"mainTimeoutSec", "off"}}}},
                               wait);
  REQUIRE(ok["type"] == "ok");
  for (ws_client* c : {&host, &ben, &uncle}) {
    room = room_push(*c, [](const json& r) { return r["game"] == "unterm_baum"; }, "Unterm Baum next");
    CHECK(room["code"] == t.code);
    CHECK(room["title"] == "Unterm Baum");
    CHECK(room["status"] == "lobby");
    CHECK(room["options"]["maxPlayers"] == 4);
    CHECK(room["options"]["familySize"] == 4);  // the rest at their defaults
    CHECK(room["min_players"] == 2);
    CHECK(room["max_players"] == 4);
    REQUIRE(room["seats"].size() == 4);
    CHECK(room["seats"][0]["name"] == "Player 0");
    CHECK(room["seats"][1]["name"] == "Player 1");
    CHECK(room["seats"][2]["status"] == "bot");
    CHECK(room["seats"][3]["status"] == "empty");
    CHECK(room["host"] == room["seats"][0]["player"]);
    CHECK(room["spectators"] == 1);
    CHECK(room["kicked"] == json::array({{{"player", max_id}, {"name", "Vetter Max"}}}));
    // The last game's result leaves the push with its game (each player got it in the final state).
    CHECK(room["result"].is_null());
  }

  // The invite link shows what is played now.
  const auto summary = summary_of(s.port, t.code);
  CHECK(summary["game"] == "unterm_baum");
  CHECK(summary["title"] == "Unterm Baum");
  CHECK(summary["status"] == "lobby");
  CHECK(summary["free_seats"] == 1);
  CHECK(summary["max_players"] == 4);
  CHECK(summary["spectators"] == 1);
  const auto page = http_get(s.port, "/r/" + t.code);
  CHECK(page.body.find("Unterm Baum") != std::string::npos);
  CHECK(page.body.find("Happy Holidays") == std::string::npos);
  CHECK(http_get(s.port, "/watch/" + t.code).body.find("Unterm Baum") != std::string::npos);

  // A newcomer joining now finds the chat and no state of the finished game.
  ws_client aunt(s.port);
  say_hello(aunt, "Tante Eva");
  REQUIRE(aunt.request({{"type", "join_room"}, {"room", t.code}}, wait)["type"] == "ok");
  const auto history = aunt.expect_type("chat_history", wait);
  CHECK(history["messages"][0]["text"] == "Frohe Weihnachten");
  room = room_push(host, [](const json& r) { return r["seats"][3]["name"] == "Tante Eva"; }, "Tante Eva seated");
  CHECK(room["game"] == "unterm_baum");

  // The second game starts and is Unterm Baum, for everyone including the spectator.
  REQUIRE(host.request({{"type", "start_game"}}, wait)["type"] == "ok");
  for (ws_client* c : {&host, &ben, &uncle, &aunt}) {
    const auto st = c->expect_type("state", wait);
    CHECK(st["events"][0]["kind"] == "game_started");
    CHECK(st["events"][0]["game"] == "unterm_baum");
    CHECK(st["events"][0]["players"].size() == 4);
  }
  CHECK(summary_of(s.port, t.code)["status"] == "playing");
  // While it runs, the game stays.
  refused(host, s.port, t.code, {{"type", "set_game"}, {"game", "happy_holidays"}}, "game_in_progress");
}

TEST_CASE("next game: a room whose game changed comes back with it after kill -9, between games and during one",
          "[next_game][durable][integration]") {
  const auto dir = temp_dir();
  const std::vector<std::string> flags = {"--data-dir", dir, "--rate-per-sec", "100000", "--rate-burst", "100000",
                                          "--auto-play-delay-ms", "20"};
  std::string code;
  {
    server_process a(flags);
    auto t = seat_players(a.port, 2, {{"maxPlayers", 2}, {"giftsPerColour", 5}, {"mainTimeoutSec", "off"}});
    code = t.code;
    REQUIRE(t.clients[0]->request({{"type", "start_game"}}, wait)["type"] == "ok");
    std::mt19937 rng(7);
    std::uint64_t seq = 0;
    REQUIRE(play_to_end(t, rng, seq)[0]["result"].is_object());
    REQUIRE(t.clients[0]->request({{"type", "set_game"}, {"game", "christmas_penguins"},
                                   {"options", {{"maxPlayers", 3}, {"presentsPerColour", 3}}}},
                                  wait)["type"] == "ok");
    room_push(*t.clients[1], [](const json& r) { return r["game"] == "christmas_penguins"; }, "penguins next");
    a.kill_hard();
  }
  // Between games: the room is back with the next game and its options.
  {
    server_process b(flags);
    CHECK(b.log_lines_containing("rooms recovered rooms=1 set_aside=0") == 1);
    const auto summary = summary_of(b.port, code);
    CHECK(summary["game"] == "christmas_penguins");
    CHECK(summary["status"] == "lobby");
    CHECK(summary["max_players"] == 3);
    CHECK(summary["players"].size() == 2);
    ws_client uncle(b.port);
    say_hello(uncle, "Onkel Tom");
    REQUIRE(uncle.request({{"type", "join_room"}, {"room", code}, {"as", "spectator"}}, wait)["type"] == "ok");
    auto room = room_push(uncle, [](const json&) { return true; }, "the room after the restart");
    CHECK(room["game"] == "christmas_penguins");
    CHECK(room["options"]["presentsPerColour"] == 3);
    CHECK(room["options"]["maxPlayers"] == 3);
    CHECK(room["result"].is_null());
    CHECK(room["status"] == "lobby");
    CHECK(summary["free_seats"] == 1);  // the new game's third seat
    b.kill_hard();
  }
  std::filesystem::remove_all(dir);
}

TEST_CASE("next game: kill -9 during the next game brings it back as that game", "[next_game][durable][integration]") {
  const auto dir = temp_dir();
  const std::vector<std::string> flags = {"--data-dir", dir, "--rate-per-sec", "100000", "--rate-burst", "100000",
                                          "--auto-play-delay-ms", "20"};
  std::string code;
  std::uint64_t seq_before = 0;
  {
    server_process a(flags);
    auto t = seat_players(a.port, 2, {{"maxPlayers", 2}, {"giftsPerColour", 5}, {"mainTimeoutSec", "off"}});
    code = t.code;
    REQUIRE(t.clients[0]->request({{"type", "start_game"}}, wait)["type"] == "ok");
    std::mt19937 rng(8);
    std::uint64_t seq = 0;
    play_to_end(t, rng, seq);
    REQUIRE(t.clients[0]->request({{"type", "set_game"}, {"game", "unterm_baum"},
                                   {"options", {{"maxPlayers", 2}, {"mainTimeoutSec", "off"}}}},
                                  wait)["type"] == "ok");
    REQUIRE(t.clients[0]->request({{"type", "start_game"}}, wait)["type"] == "ok");
    const auto st = t.clients[0]->expect([](const json& m) { return m["type"] == "state" && m["events"][0]["kind"] == "game_started"; },
                                         "Unterm Baum started", wait);
    CHECK(st["events"][0]["game"] == "unterm_baum");
    seq_before = st["seq"];
    a.kill_hard();
  }
  server_process b(flags);
  CHECK(b.log_lines_containing("rooms recovered rooms=1 set_aside=0") == 1);
  const auto summary = summary_of(b.port, code);
  CHECK(summary["game"] == "unterm_baum");
  CHECK(summary["status"] == "playing");
  ws_client uncle(b.port);
  say_hello(uncle, "Onkel Tom");
  REQUIRE(uncle.request({{"type", "join_room"}, {"room", code}, {"as", "spectator"}}, wait)["type"] == "ok");
  const auto room = room_push(uncle, [](const json&) { return true; }, "the room after the restart");
  CHECK(room["game"] == "unterm_baum");
  CHECK(room["result"].is_null());
  const auto st = uncle.expect_type("state", wait);
  CHECK(st["seq"].get<std::uint64_t>() >= seq_before);
  CHECK(st["view"].contains("tree"));  // an Unterm Baum view
  std::filesystem::remove_all(dir);
}
