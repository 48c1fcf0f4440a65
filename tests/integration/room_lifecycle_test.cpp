// Rooms that survive real families: resuming with the token, takeover, host controls, bots, away
// mode, and the limits that protect everyone else from one bad connection.
#include <catch2/catch.hpp>

#include <set>
#include <thread>

#include "play_helpers.hpp"

using namespace tinsel::test;

namespace {
json untimed() { return {{"maxPlayers", 2}, {"mainTimeoutSec", "off"}, {"subPromptTimeoutSec", "off"}, {"startPlayer", "host-picks"}}; }

}  // namespace

TEST_CASE("a player who drops mid-game resumes with the token and receives every missed event once", "[lifecycle][resume]") {
  test_server s;
  auto t = seat_players(s, 2, untimed());
  // Seat 1 (Ben) reconnects later with the token from his welcome.
  const std::string ben_token = t.clients[1]->transcript().front()["token"];
  REQUIRE(ben_token.size() == 32);

  REQUIRE(t.clients[0]->request({{"type", "start_game"}, {"first_seat", 0}})["type"] == "ok");
  auto oma_first = t.clients[0]->expect_type("state");
  auto ben_state = t.clients[1]->expect_type("state");
  const auto ben_last_seq = ben_state["seq"].get<std::uint64_t>();
  t.clients[1]->close();  // Wi-Fi drops
  t.clients[0]->expect([](const json& j) { return j.value("type", "") == "room" && j["room"]["seats"][1]["status"] == "disconnected"; },
                       "Ben shown as disconnected");

  // Oma plays her whole turn while Ben is away: several states he misses.
  auto oma = play_turn(*t.clients[0], oma_first);
  REQUIRE(oma["prompt"]["seats"] == json::array({1}));
  std::vector<json> oma_states;
  for (const auto& m : t.clients[0]->transcript())
    if (m["type"] == "state" && m["seq"].get<std::uint64_t>() > ben_last_seq) oma_states.push_back(m);
  REQUIRE(oma_states.size() >= 2);

  ws_client back(s.port);
  back.send({{"type", "hello"}, {"protocol", 1}, {"name", "Ben"}, {"token", ben_token}});
  auto welcome = back.expect_type("welcome");
  CHECK(welcome["resumed"] == true);
  CHECK(welcome["player"] == t.clients[1]->transcript().front()["player"]);
  CHECK(welcome["room"] == t.code);
  auto joined = back.request({{"type", "join_room"}, {"room", t.code}, {"last_seq", ben_last_seq}});
  REQUIRE(joined["type"] == "ok");
  CHECK(joined["resumed"] == true);
  CHECK(joined["seat"] == 1);
  auto catch_up = back.expect_type("state");
  CHECK(catch_up["seq"] == oma["seq"]);
  CHECK(catch_up["replayed_from"] == ben_last_seq + 1);
  // Exactly the missed events, in order, each tagged with its state's seq: no gap, no duplicate.
  std::vector<json> expected;
  for (const auto& st : oma_states)
    for (auto e : st["events"]) {
      e["seq"] = st["seq"];
      expected.push_back(e);
    }
  CHECK(catch_up["events"] == json(expected));
  CHECK(catch_up["view"] == oma["view"]);
  CHECK_FALSE(catch_up["legal"].empty());  // it is Ben's turn
  auto room = t.clients[0]->expect([](const json& j) { return j.value("type", "") == "room" && j["room"]["seats"][1]["status"] == "connected"; },
                                   "Ben shown as connected again");
  // Play continues with the next seq.
  back.send({{"type", "action"}, {"action", catch_up["legal"][0]}});
  CHECK(back.expect_type("state")["seq"] == catch_up["seq"].get<std::uint64_t>() + 1);
}

TEST_CASE("resuming beyond the history gets a full state marked resync", "[lifecycle][resume]") {
  test_server s([](tinsel::server::config& c) { c.history_states = 1; });
  auto t = seat_players(s, 2, untimed());
  std::string ben_token = t.clients[1]->transcript().front()["token"];
  REQUIRE(t.clients[0]->request({{"type", "start_game"}, {"first_seat", 0}})["type"] == "ok");
  t.clients[1]->close();
  auto oma = play_turn(*t.clients[0], t.clients[0]->expect_type("state"));
  ws_client back(s.port);
  back.send({{"type", "hello"}, {"protocol", 1}, {"name", "Ben"}, {"token", ben_token}});
  back.expect_type("welcome");
  REQUIRE(back.request({{"type", "join_room"}, {"room", t.code}, {"last_seq", 1}})["type"] == "ok");
  auto st = back.expect_type("state");
  CHECK(st["resync"] == true);
  CHECK(st["events"].empty());
  CHECK(st["seq"] == oma["seq"]);
  CHECK(st["view"] == oma["view"]);
}

TEST_CASE("a second connection with the same token takes over and the old one is closed with 4001", "[lifecycle][resume]") {
  test_server s;
  ws_client first(s.port);
  auto w = say_hello(first, "Oma");
  ws_client second(s.port);
  second.send({{"type", "hello"}, {"protocol", 1}, {"name", "Oma"}, {"token", w["token"]}});
  auto w2 = second.expect_type("welcome");
  CHECK(w2["player"] == w["player"]);
  CHECK(w2["resumed"] == true);
  CHECK(first.wait_closed() == 4001);
  // An unknown token simply gets a new identity.
  ws_client third(s.port);
  third.send({{"type", "hello"}, {"protocol", 1}, {"name", "Ben"}, {"token", std::string(32, 'a')}});
  auto w3 = third.expect_type("welcome");
  CHECK(w3["resumed"] == false);
  CHECK(w3["player"] != w["player"]);
}

TEST_CASE("the host hands over the host role and the new host removes a player", "[lifecycle][host]") {
  test_server s;
  auto t = seat_players(s, 3, {{"maxPlayers", 3}});
  const auto ben = t.clients[1]->transcript().front()["player"];
  const auto clara = t.clients[2]->transcript().front()["player"];
  CHECK(t.clients[1]->request({{"type", "kick"}, {"player", clara}})["code"] == "not_host");
  CHECK(t.clients[0]->request({{"type", "transfer_host"}, {"player", "p_nobody"}})["code"] == "unknown_player");
  REQUIRE(t.clients[0]->request({{"type", "transfer_host"}, {"player", ben}})["type"] == "ok");
  t.clients[2]->expect([&](const json& j) { return j.value("type", "") == "room" && j["room"]["host"] == ben; }, "Ben as host");
  CHECK(t.clients[0]->request({{"type", "start_game"}})["code"] == "not_host");
  REQUIRE(t.clients[1]->request({{"type", "kick"}, {"player", clara}})["type"] == "ok");
  CHECK(t.clients[2]->expect_type("kicked")["room"] == t.code);
  CHECK(t.clients[2]->request({{"type", "chat"}, {"text", "hi"}})["code"] == "not_in_room");
  auto r = t.clients[0]->expect([](const json& j) { return j.value("type", "") == "room" && j["room"]["seats"][2]["status"] == "empty"; },
                                "Clara's seat freed");
  CHECK(r["room"]["host"] == ben);
}

TEST_CASE("the host closes the room: everyone is told and the code stops working", "[lifecycle][host]") {
  test_server s;
  auto t = seat_players(s, 2, {{"maxPlayers", 2}});
  REQUIRE(t.clients[0]->request({{"type", "close_room"}})["type"] == "ok");
  t.clients[1]->expect([](const json& j) { return j.value("type", "") == "room" && j["room"]["status"] == "closed"; }, "the closed room");
  ws_client late(s.port);
  say_hello(late, "Late");
  CHECK(late.request({{"type", "join_room"}, {"room", t.code}})["code"] == "unknown_room");
  CHECK(t.clients[1]->request({{"type", "chat"}, {"text", "hi"}})["code"] == "not_in_room");
}

TEST_CASE("a bot fills an empty seat and plays a whole game with a human", "[lifecycle][bot]") {
  test_server s([](tinsel::server::config& c) {
    c.auto_play_delay = std::chrono::milliseconds(5);
    // The test player answers every state at once and a busy machine delivers them in bursts:
    // no rate limit here (it has its own tests), as in the other play tests.
    c.rate_per_sec = 1e6;
    c.rate_burst = 1e6;
  });
  auto t = seat_players(s, 1, {{"maxPlayers", 2}});
  auto added = t.clients[0]->request({{"type", "add_bot"}});
  REQUIRE(added["type"] == "ok");
  CHECK(added["seat"] == 1);
  auto r = t.clients[0]->expect([](const json& j) { return j.value("type", "") == "room" && j["room"]["seats"][1]["status"] == "bot"; },
                                "the bot seated");
  CHECK(t.clients[0]->request({{"type", "add_bot"}})["code"] == "room_full");
  REQUIRE(t.clients[0]->request({{"type", "start_game"}})["type"] == "ok");
  std::mt19937 rng(3);
  std::uint64_t seq = 0;
  auto finals = play_to_end(t, rng, seq);
  check_final_state(finals);
  // Between games the host may remove the bot again.
  t.clients[0]->expect([](const json& j) { return j.value("type", "") == "room" && j["room"]["status"] == "finished"; }, "finished");
  CHECK(t.clients[0]->request({{"type", "remove_bot"}, {"seat", 0}})["code"] == "not_a_bot");
  CHECK(t.clients[0]->request({{"type", "remove_bot"}, {"seat", 1}})["type"] == "ok");
}

TEST_CASE("a player who keeps timing out is shown as away and resolved quickly, any command brings them back", "[lifecycle][away]") {
  test_server s([](tinsel::server::config& c) { c.away_delay = std::chrono::milliseconds(700); });
  auto t = seat_players(s, 2, {{"maxPlayers", 2}, {"mainTimeoutSec", 1}, {"subPromptTimeoutSec", 1}, {"startPlayer", "host-picks"}});
  REQUIRE(t.clients[0]->request({{"type", "start_game"}, {"first_seat", 1}})["type"] == "ok");
  // Ben (seat 1) never answers; Oma plays her own turns when they come.
  std::uint64_t oma_seq = 0;
  t.clients[0]->expect(
      [&](const json& j) {
        if (j.value("type", "") == "state") {
          oma_seq = j["seq"];
          if (!j["legal"].empty()) t.clients[0]->send({{"type", "action"}, {"action", j["legal"][0]}});
        }
        return j.value("type", "") == "room" && j["room"]["seats"][1]["status"] == "away";
      },
      "Ben shown as away", std::chrono::milliseconds(10000));
  // Ben's next prompt resolves after away_delay, sooner than the 1 s timer.
  auto st = t.clients[1]->expect(
      [&](const json& j) {
        if (j.value("type", "") == "state" && j["seq"].get<std::uint64_t>() > oma_seq && j["over"] == false) {
          if (j["prompt"]["seats"] == json::array({1})) return true;
          if (!j["legal"].empty()) return false;
        }
        return false;
      },
      "a new prompt for Ben", std::chrono::milliseconds(10000));
  const auto now = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch()).count();
  CHECK(st["prompt"]["deadline"].get<long long>() <= now + 750);
  t.clients[1]->send({{"type", "action"}, {"action", st["legal"][0]}});
  t.clients[0]->expect(
      [&](const json& j) {
        if (j.value("type", "") == "state" && !j["legal"].empty()) t.clients[0]->send({{"type", "action"}, {"action", j["legal"][0]}});
        return j.value("type", "") == "room" && j["room"]["seats"][1]["status"] == "connected";
      },
      "Ben back from away", std::chrono::milliseconds(3000));
}

TEST_CASE("a flooding client is rate-limited and finally closed while others are served", "[lifecycle][limits]") {
  // Next to no refill, so that the refusals after the burst come in a row however slowly this
  // machine sends (one accepted request would reset the count towards the close).
  test_server s([](tinsel::server::config& c) { c.rate_per_sec = 0.01; });
  ws_client flood(s.port), good(s.port);
  say_hello(flood, "Flood");
  say_hello(good, "Oma");
  for (int i = 0; i < 300; ++i) flood.send({{"type", "chat"}, {"text", "spam"}, {"id", i}});
  CHECK(good.request({{"type", "create_room"}, {"game", "happy_holidays"}})["type"] == "ok");
  int limited = 0;
  while (auto m = flood.recv(std::chrono::milliseconds(500)))
    if ((*m)["type"] == "error" && (*m)["code"] == "rate_limited") ++limited;
  CHECK(limited > 0);
  CHECK(flood.wait_closed() == 4029);
  CHECK(good.request({{"type", "chat"}, {"text", "still here"}})["type"] == "ok");
}

TEST_CASE("a client too slow to read is closed with 4008 while the others play on at full speed", "[lifecycle][limits]") {
  test_server s([](tinsel::server::config& c) {
    c.write_queue_messages = 32;
    c.rate_per_sec = 1e6;
    c.rate_burst = 1e6;
  });
  auto t = seat_players(s, 2, {{"maxPlayers", 2}});
  ws_client slow(s.port, "/ws", 2048);
  say_hello(slow, "Slow");
  REQUIRE(slow.request({{"type", "join_room"}, {"room", t.code}, {"as", "spectator"}})["type"] == "ok");
  slow.pause_reading();
  t.clients[0]->expect([](const json& j) { return j.value("type", "") == "room" && j["room"]["spectators"] == 1; }, "the spectator",
                       std::chrono::seconds(60));
  // Chat traffic paced by the readers: a chat goes out only when both players have received all
  // but the last `window` ones, so each of their outgoing queues holds at most `window` chats (and
  // a room push) of the 32 allowed, however slowly this machine schedules their threads. (Paced by
  // a fixed sleep instead, a busy machine let the players fall 32 messages behind too.) The paused
  // spectator falls behind without bound and must be dropped.
  constexpr int window = 8;
  std::string text;
  for (int i = 0; i < 500; ++i) text += "\U0001F384";  // 500 characters, 2000 bytes
  int sent = 0;
  int received[2] = {0, 0};
  bool dropped = false;
  auto is_drop = [](const json& j) { return j.value("type", "") == "room" && j["room"]["spectators"] == 0; };
  while (!dropped && sent < 20000) {
    for (int i = 0; i < 2; ++i)
      while (sent - received[i] >= window) {
        auto m = t.clients[static_cast<std::size_t>(i)]->recv(std::chrono::seconds(60));
        REQUIRE(m);
        if ((*m)["type"] == "chat") ++received[i];
        if (i == 0 && is_drop(*m)) dropped = true;
      }
    if (dropped) break;
    t.clients[1]->send({{"type", "chat"}, {"text", text}});
    ++sent;
  }
  // The server dropped the spectator (it cannot see the close frame: it is not reading).
  if (!dropped) t.clients[0]->expect(is_drop, "the slow spectator removed", std::chrono::seconds(60));
  INFO("chats sent before the spectator was dropped: " << sent);
  CHECK_FALSE(t.clients[0]->closed());
  CHECK_FALSE(t.clients[1]->closed());
  REQUIRE(t.clients[0]->request({{"type", "start_game"}}, std::chrono::seconds(60))["type"] == "ok");
  std::mt19937 rng(5);
  std::uint64_t seq = 0;
  check_final_state(play_to_end(t, rng, seq));
}
