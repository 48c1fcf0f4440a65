// Every error code of protocol/include/tinsel/protocol/errors.hpp is produced by at least one
// test. `producers` below names, for each code, a test that makes the server send it (and checks
// it); the check at the end fails when a code is added without one. The codes no test produced
// before (issue 30) are produced here: game_in_progress by each of its five requests,
// not_enough_players and too_many_bots at, below and above their limits.
#include <catch2/catch.hpp>

#include <map>
#include <set>

#include "play_helpers.hpp"
#include "tinsel/protocol/errors.hpp"

using namespace tinsel::test;
namespace errc = tinsel::protocol::errc;

namespace {

// A test (file: test case) that produces each code and checks it.
const std::map<std::string_view, std::string_view> producers = {
    {"bad_json", "errors_test.cpp: envelope errors carry stable codes and echo the request id"},
    {"invalid_message", "errors_test.cpp: envelope errors carry stable codes and echo the request id"},
    {"unknown_type", "errors_test.cpp: envelope errors carry stable codes and echo the request id"},
    {"invalid_field", "errors_test.cpp: hello validates protocol and name"},
    {"frame_too_large", "errors_test.cpp, limit_boundaries_test.cpp"},
    {"frame_too_deep", "hardening_test.cpp"},
    {"hello_required", "errors_test.cpp: requests before hello are refused with hello_required"},
    {"already_hello", "errors_test.cpp"},
    {"unsupported_protocol", "errors_test.cpp: hello validates protocol and name"},
    {"unknown_game", "errors_test.cpp"},
    {"invalid_option", "errors_test.cpp"},
    {"unknown_room", "errors_test.cpp, room_lifecycle_test.cpp"},
    {"room_full", "errors_test.cpp, room_lifecycle_test.cpp"},
    {"already_in_room", "errors_test.cpp"},
    {"not_in_room", "errors_test.cpp, lobby_test.cpp"},
    {"not_host", "errors_test.cpp, room_lifecycle_test.cpp"},
    {"game_in_progress", "error_codes_test.cpp: game_in_progress ..."},
    {"game_not_started", "errors_test.cpp, contract_test.cpp"},
    {"not_enough_players", "error_codes_test.cpp: not_enough_players ..."},
    {"too_many_players", "next_game_test.cpp: next game: after a game the host picks another ..."},
    {"not_a_player", "errors_test.cpp"},
    {"not_awaited", "contract_test.cpp"},
    {"unknown_player", "room_lifecycle_test.cpp, boundaries_test.cpp"},
    {"not_a_bot", "room_lifecycle_test.cpp"},
    {"too_many_bots", "error_codes_test.cpp: too_many_bots ..."},
    {"rate_limited", "limits_test.cpp, room_lifecycle_test.cpp"},
    {"too_many_rooms", "limits_test.cpp"},
    {"too_many_attempts", "limits_test.cpp, invite_test.cpp"},
    {"too_many_identities", "limits_test.cpp"},
    {"too_many_spectators", "limits_test.cpp"},
    {"kicked", "room_lifecycle_test.cpp, contract_test.cpp"},
    {"storage_failed", "durable_rooms_test.cpp: a command the journal cannot write is refused ..."},
    {"room_unavailable", "recovery_checks_test.cpp, durable_rooms_test.cpp"},
    {"room_moved", "tests/cluster/routing.test.mjs, claim.test.mjs, drain.test.mjs (cluster mode)"},
};

// Codes the server has no path to today, with the reason.
const std::map<std::string_view, std::string_view> not_produced = {
    {"internal_error", "documented, but no server code sends it (nothing a client does can cause it)"},
};

// The host's request is refused with `code`, and the room is as it was.
void refused(ws_client& c, const json& request, const std::string& code) {
  INFO(request.dump());
  const auto reply = c.request(request, std::chrono::seconds(60));
  CHECK(reply["type"] == "error");
  CHECK(reply["code"] == code);
  CHECK_FALSE(reply.value("message", "").empty());
}

}  // namespace

TEST_CASE("every error code has a test that produces it, or a reason why none can", "[errors]") {
  for (const auto code : errc::all) {
    INFO(code);
    CHECK(producers.count(code) + not_produced.count(code) == 1);
  }
  const std::set<std::string_view> all(std::begin(errc::all), std::end(errc::all));
  for (const auto& [code, where] : producers) CHECK(all.count(code) == 1);
  for (const auto& [code, why] : not_produced) CHECK(all.count(code) == 1);
}

TEST_CASE("game_in_progress: start, bots, options and a new player's seat wait for the game to end", "[errors]") {
  test_server s(lift_rate_limit);
  auto t = seat_players(s, 2, {{"maxPlayers", 4}});
  auto& host = *t.clients[0];
  const auto bot = host.request({{"type", "add_bot"}}, std::chrono::seconds(60));
  REQUIRE(bot["type"] == "ok");
  REQUIRE(host.request({{"type", "start_game"}}, std::chrono::seconds(60))["type"] == "ok");
  const auto started = host.expect_type("state", std::chrono::seconds(60));
  refused(host, {{"type", "start_game"}}, "game_in_progress");
  refused(host, {{"type", "add_bot"}}, "game_in_progress");
  refused(host, {{"type", "remove_bot"}, {"seat", bot["seat"]}}, "game_in_progress");
  refused(host, {{"type", "set_options"}, {"options", {{"maxPlayers", 3}}}}, "game_in_progress");
  ws_client late(s.port);
  say_hello(late, "Onkel Tom");
  refused(late, {{"type", "join_room"}, {"room", t.code}}, "game_in_progress");
  // Watching is still possible, and the game is the one that started, with the bot in it.
  const auto watch = late.request({{"type", "join_room"}, {"room", t.code}, {"as", "spectator"}}, std::chrono::seconds(60));
  REQUIRE(watch["type"] == "ok");
  const auto room = late.expect_type("room", std::chrono::seconds(60));
  CHECK(room["room"]["status"] == "playing");
  CHECK(room["room"]["options"]["maxPlayers"] == 4);
  int bots = 0;
  for (const auto& seat : room["room"]["seats"]) bots += seat.value("status", "") == "bot";
  CHECK(bots == 1);
  CHECK(started["seq"] == 1);
}

TEST_CASE("not_enough_players: a game starts with its minimum of players, not with one fewer", "[errors][boundaries]") {
  test_server s(lift_rate_limit);
  // Happy Holidays needs 2: 1 seated is refused; 2 start.
  auto t = seat_players(s, 1, {{"maxPlayers", 4}});
  refused(*t.clients[0], {{"type", "start_game"}}, "not_enough_players");
  ws_client second(s.port);
  say_hello(second, "Ben");
  REQUIRE(second.request({{"type", "join_room"}, {"room", t.code}}, std::chrono::seconds(60))["type"] == "ok");
  CHECK(t.clients[0]->request({{"type", "start_game"}}, std::chrono::seconds(60))["type"] == "ok");
  // A bot counts as a player: alone with one bot, the host can start.
  auto u = seat_players(s, 1, {{"maxPlayers", 4}});
  REQUIRE(u.clients[0]->request({{"type", "add_bot"}}, std::chrono::seconds(60))["type"] == "ok");
  CHECK(u.clients[0]->request({{"type", "start_game"}}, std::chrono::seconds(60))["type"] == "ok");
}

TEST_CASE("too_many_bots: --max-bots-per-room bots may sit, not one more (below, at, above)", "[errors][boundaries]") {
  test_server s([](tinsel::server::config& c) {
    lift_rate_limit(c);
    c.max_bots_per_room = 2;
  });
  auto t = seat_players(s, 1, {{"maxPlayers", 6}});
  auto& host = *t.clients[0];
  CHECK(host.request({{"type", "add_bot"}}, std::chrono::seconds(60))["type"] == "ok");  // 1: below
  const auto second = host.request({{"type", "add_bot"}}, std::chrono::seconds(60));    // 2: at
  CHECK(second["type"] == "ok");
  refused(host, {{"type", "add_bot"}}, "too_many_bots");  // 3: above, with seats still free
  // A bot removed makes room for one more, and only one.
  REQUIRE(host.request({{"type", "remove_bot"}, {"seat", second["seat"]}}, std::chrono::seconds(60))["type"] == "ok");
  CHECK(host.request({{"type", "add_bot"}}, std::chrono::seconds(60))["type"] == "ok");
  refused(host, {{"type", "add_bot"}}, "too_many_bots");
}
