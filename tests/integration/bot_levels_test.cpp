// A computer player's level (issue 31): the host adds a "gentle" or a "fair" one (fair when the
// level is left out), every room push shows it on the bot's seat, an unknown level is refused with
// invalid_field and changes nothing, and the level stays for the next game (set_game) and after the
// server is killed and restarted (the journal keeps it). A game with both levels plays to the end.
#include <catch2/catch.hpp>

#include <stdlib.h>

#include <filesystem>

#include "play_helpers.hpp"
#include "server_process.hpp"

using namespace tinsel::test;

namespace {

constexpr auto wait = std::chrono::seconds(60);

json room_push(ws_client& c, const std::function<bool(const json&)>& pred, const std::string& what) {
  return c.expect([&](const json& m) { return m["type"] == "room" && pred(m["room"]); }, what, wait)["room"];
}

// The levels of the room's seats in seat order: "gentle", "fair", "-" for a person, "" for a free seat.
std::vector<std::string> levels(const json& room) {
  std::vector<std::string> out;
  for (const auto& s : room["seats"]) {
    if (s["status"] == "empty") out.push_back("");
    else if (s["status"] == "bot") out.push_back(s.value("bot_level", "missing"));
    else {
      CHECK_FALSE(s.contains("bot_level"));
      out.push_back("-");
    }
  }
  return out;
}

bool has_bots(const json& room, std::size_t n) {
  std::size_t bots = 0;
  for (const auto& s : room["seats"]) bots += s["status"] == "bot" ? 1 : 0;
  return bots == n;
}

std::string temp_dir() {
  char t[] = "/tmp/tinsel-bot-levels-XXXXXX";
  REQUIRE(::mkdtemp(t) != nullptr);
  return t;
}

}  // namespace

TEST_CASE("bot levels: the host adds a gentle and a fair computer player whose level shows, stays across games and survives a restart",
          "[bot_levels][durable][integration]") {
  const auto dir = temp_dir();
  const std::vector<std::string> flags = {"--data-dir", dir, "--rate-per-sec", "100000", "--rate-burst", "100000",
                                          "--auto-play-delay-ms", "20"};
  std::string code;
  {
    server_process a(flags);
    auto t = seat_players(a.port, 1, {{"maxPlayers", 4}, {"mainTimeoutSec", "off"}}, "unterm_baum");
    code = t.code;
    auto& host = *t.clients[0];
    const auto gentle = host.request({{"type", "add_bot"}, {"level", "gentle"}}, wait);
    REQUIRE(gentle["type"] == "ok");
    CHECK(gentle["seat"] == 1);
    CHECK(levels(room_push(host, [](const json& r) { return has_bots(r, 1); }, "the gentle bot")) ==
          std::vector<std::string>{"-", "gentle", "", ""});
    // Left out: fair, as for every client written before levels.
    REQUIRE(host.request({{"type", "add_bot"}}, wait)["type"] == "ok");
    CHECK(levels(room_push(host, [](const json& r) { return has_bots(r, 2); }, "the fair bot")) ==
          std::vector<std::string>{"-", "gentle", "fair", ""});
    // Unknown levels: invalid_field, and no bot joins.
    for (const json& bad : {json("cruel"), json(1), json("Gentle"), json::object()}) {
      INFO(bad.dump());
      const auto reply = host.request_unchecked({{"type", "add_bot"}, {"level", bad}}, wait);
      CHECK(reply["type"] == "error");
      CHECK(reply["code"] == "invalid_field");
      CHECK_FALSE(reply.value("message", "").empty());
    }
    REQUIRE(host.request({{"type", "add_bot"}, {"level", "fair"}}, wait)["type"] == "ok");
    CHECK(levels(room_push(host, [](const json& r) { return has_bots(r, 3); }, "a third bot")) ==
          std::vector<std::string>{"-", "gentle", "fair", "fair"});  // the refused ones added nothing
    REQUIRE(host.request({{"type", "remove_bot"}, {"seat", 3}}, wait)["type"] == "ok");
    room_push(host, [](const json& r) { return has_bots(r, 2); }, "the third bot gone");
    // The next game keeps the bots and their levels.
    REQUIRE(host.request({{"type", "set_game"}, {"game", "happy_holidays"},
                          {"options", {{"maxPlayers", 3}, {"giftsPerColour", 5}, {"mainTimeoutSec", "off"}}}},
                         wait)["type"] == "ok");
    CHECK(levels(room_push(host, [](const json& r) { return r["game"] == "happy_holidays"; }, "the next game")) ==
          std::vector<std::string>{"-", "gentle", "fair"});
    a.kill_hard();
  }
  {
    server_process b(flags);
    CHECK(b.log_lines_containing("rooms recovered rooms=1 set_aside=0") == 1);
    ws_client uncle(b.port);
    say_hello(uncle, "Onkel Tom");
    REQUIRE(uncle.request({{"type", "join_room"}, {"room", code}, {"as", "spectator"}}, wait)["type"] == "ok");
    const auto room = room_push(uncle, [](const json&) { return true; }, "the room after the restart");
    CHECK(room["game"] == "happy_holidays");
    CHECK(levels(room) == std::vector<std::string>{"-", "gentle", "fair"});  // the host's seat is kept for her
    b.kill_hard();
  }
  std::filesystem::remove_all(dir);
}

TEST_CASE("bot levels: a gentle and a fair bot play a whole game of each kind with a person", "[bot_levels][integration]") {
  test_server s([](tinsel::server::config& c) {
    lift_rate_limit(c);
    c.auto_play_delay = std::chrono::milliseconds(20);
  });
  for (const std::string game : {"unterm_baum", "happy_holidays", "christmas_penguins"}) {
    INFO(game);
    json options = {{"maxPlayers", 3}, {"mainTimeoutSec", "off"}};
    if (game == "unterm_baum") options.update({{"memorizeSeconds", 1}, {"maxRounds", 6}});
    if (game == "happy_holidays") options["giftsPerColour"] = 5;
    if (game == "christmas_penguins") options["maxRounds"] = 2;
    auto t = seat_players(s, 1, options, game);
    auto& host = *t.clients[0];
    REQUIRE(host.request({{"type", "add_bot"}, {"level", "gentle"}}, wait)["type"] == "ok");
    REQUIRE(host.request({{"type", "add_bot"}, {"level", "fair"}}, wait)["type"] == "ok");
    REQUIRE(host.request({{"type", "start_game"}}, wait)["type"] == "ok");
    json st = host.expect_type("state", wait);
    for (int i = 0; i < 5000 && st["over"] == false; ++i) {
      if (st["prompt"].is_object() && st["prompt"]["seats"] == json::array({st["seat"]})) st = play_turn(host, st);
      else st = host.expect_type("state", wait);
    }
    CHECK(st["over"] == true);
    host.request({{"type", "leave_room"}}, wait);
  }
}
