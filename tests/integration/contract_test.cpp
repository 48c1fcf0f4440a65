// One consistent contract (docs/protocol.md): no request without an `id` is answered with `ok`;
// the host's `skip` resolves a seat's prompt exactly as its timer would; a player the host sent
// away stays away, across reconnects, until the host lets them back (`readmit`).
#include <catch2/catch.hpp>

#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>

#include <algorithm>
#include <filesystem>
#include <set>

#include "play_helpers.hpp"
#include "server_process.hpp"
#include "tinsel/protocol/game_record.hpp"

using namespace tinsel::test;

namespace {

bool is_room(const json& j) { return j.value("type", "") == "room"; }
bool is_state(const json& j) { return j.value("type", "") == "state"; }

json untimed(int players) {
  return {{"maxPlayers", players}, {"mainTimeoutSec", "off"}, {"subPromptTimeoutSec", "off"}, {"startPlayer", "host-picks"}};
}

std::string player_of(ws_client& c) { return c.transcript().front()["player"]; }
std::string token_of(ws_client& c) { return c.transcript().front()["token"]; }

// A fence through the room: a chat with an id is handled on the room's strand after everything the
// client sent before it, so once its ok is read, whatever those requests caused has been sent.
void room_fence(ws_client& c) { REQUIRE(c.request({{"type", "chat"}, {"text", "fence"}})["type"] == "ok"); }

bool awaits(const json& st, int seat) {
  const auto& seats = st["prompt"]["seats"];
  return std::find(seats.begin(), seats.end(), json(seat)) != seats.end();
}

// The host skips `seat`; returns the state that follows (the first with a higher seq).
json skip(ws_client& host, int seat, std::uint64_t after_seq) {
  const auto ok = host.request({{"type", "skip"}, {"seat", seat}});
  INFO(ok.dump());
  REQUIRE(ok["type"] == "ok");
  return host.expect([&](const json& j) { return is_state(j) && j["seq"].get<std::uint64_t>() > after_seq; }, "the state after the skip");
}

// Checks that `st` is what a timeout of `seats` in prompt `kind` produces: timed_out first.
void check_timed_out(const json& st, const json& seats, const std::string& kind) {
  INFO(st["events"].dump());
  REQUIRE_FALSE(st["events"].empty());
  CHECK(st["events"][0] == json({{"kind", "timed_out"}, {"seats", seats}, {"prompt", kind}}));
}

json hello_with_token(ws_client& c, const std::string& name, const std::string& token) {
  c.send({{"type", "hello"}, {"protocol", 1}, {"name", name}, {"token", token}});
  return c.expect_type("welcome");
}

}  // namespace

TEST_CASE("no request without an id is answered with ok, whatever its type, while it takes effect", "[contract][envelope]") {
  test_server s(lift_rate_limit);
  ws_client oma(s.port), ben(s.port), clara(s.port);

  // hello: the welcome, no ok; a second hello (with an id) is the fence.
  oma.send({{"type", "hello"}, {"protocol", 1}, {"name", "Oma"}});
  oma.expect_type("welcome");
  CHECK(oma.request({{"type", "hello"}, {"protocol", 1}, {"name", "Oma"}})["code"] == "already_hello");
  const auto ben_id = say_hello(ben, "Ben")["player"];
  const auto clara_id = say_hello(clara, "Clara")["player"];

  // create_room and join_room: the room push tells the code and the seat.
  oma.send({{"type", "create_room"}, {"game", "happy_holidays"}, {"options", untimed(3)}});
  const std::string code = oma.expect(is_room, "the new room")["room"]["code"];
  room_fence(oma);
  ben.send({{"type", "join_room"}, {"room", code}});
  oma.expect([](const json& j) { return is_room(j) && j["room"]["seats"][1]["status"] == "connected"; }, "Ben seated");
  room_fence(ben);
  REQUIRE(clara.request({{"type", "join_room"}, {"room", code}})["type"] == "ok");

  // Host controls between games.
  oma.send({{"type", "set_options"}, {"options", untimed(4)}});
  oma.expect([](const json& j) { return is_room(j) && j["room"]["max_players"] == 4; }, "four seats");
  room_fence(oma);
  oma.send({{"type", "add_bot"}});
  oma.expect([](const json& j) { return is_room(j) && j["room"]["seats"][3]["status"] == "bot"; }, "the bot");
  room_fence(oma);
  oma.send({{"type", "remove_bot"}, {"seat", 3}});
  oma.expect([](const json& j) { return is_room(j) && j["room"]["seats"][3]["status"] == "empty"; }, "no bot");
  room_fence(oma);
  ben.send({{"type", "chat"}, {"text", "hallo"}});
  oma.expect([](const json& j) { return j.value("type", "") == "chat" && j["text"] == "hallo"; }, "Ben's chat");
  room_fence(ben);
  oma.send({{"type", "transfer_host"}, {"player", ben_id}});
  oma.expect([&](const json& j) { return is_room(j) && j["room"]["host"] == ben_id; }, "Ben hosting");
  room_fence(oma);
  ben.send({{"type", "transfer_host"}, {"player", player_of(oma)}});
  oma.expect([&](const json& j) { return is_room(j) && j["room"]["host"] == player_of(oma); }, "Oma hosting again");
  room_fence(ben);
  oma.send({{"type", "kick"}, {"player", clara_id}});
  clara.expect_type("kicked");
  room_fence(oma);
  oma.send({{"type", "readmit"}, {"player", clara_id}});
  oma.expect([](const json& j) { return is_room(j) && j["room"]["kicked"].empty(); }, "Clara readmitted");
  room_fence(oma);

  // The game: start, a command, a skip.
  oma.send({{"type", "start_game"}, {"first_seat", 0}});
  auto st = oma.expect_type("state");
  room_fence(oma);
  oma.send({{"type", "action"}, {"action", st["legal"][0]}});
  st = oma.expect([&](const json& j) { return is_state(j) && j["seq"] == st["seq"].get<std::uint64_t>() + 1; }, "the command's state");
  room_fence(oma);
  const int awaited = st["prompt"]["seats"][0];
  oma.send({{"type", "skip"}, {"seat", awaited}});
  st = oma.expect([&](const json& j) { return is_state(j) && j["seq"] == st["seq"].get<std::uint64_t>() + 1; }, "the skip's state");
  CHECK(st["events"][0]["kind"] == "timed_out");
  room_fence(oma);

  // leave_room: the fence goes through the room again, as a spectator's join.
  ben.send({{"type", "leave_room"}});
  oma.expect([](const json& j) { return is_room(j) && j["room"]["seats"][1]["status"] == "gone"; }, "Ben gone");
  REQUIRE(ben.request({{"type", "join_room"}, {"room", code}, {"as", "spectator"}})["type"] == "ok");

  // close_room: the host's last frame from the room is its closed push (an ok would come before it).
  oma.send({{"type", "close_room"}});
  oma.expect([](const json& j) { return is_room(j) && j["room"]["status"] == "closed"; }, "the closed room");
  ben.expect([](const json& j) { return is_room(j) && j["room"]["status"] == "closed"; }, "the closed room");
  CHECK(oma.request({{"type", "hello"}, {"protocol", 1}, {"name", "Oma"}})["code"] == "already_hello");

  for (auto* c : {&oma, &ben, &clara})
    for (const auto& f : c->transcript()) {
      INFO(f.dump());
      if (f["type"] == "ok") CHECK(f.contains("id"));
    }
}

TEST_CASE("the host's skip: Happy Holidays with timers off, refusals, and no away for skipped players", "[contract][skip]") {
  test_server s(lift_rate_limit);
  auto t = seat_players(s, 3, untimed(3));
  auto& oma = *t.clients[0];
  auto& ben = *t.clients[1];

  CHECK(oma.request({{"type", "skip"}, {"seat", 1}})["code"] == "game_not_started");
  CHECK(ben.request({{"type", "skip"}, {"seat", 1}})["code"] == "not_host");
  REQUIRE(oma.request({{"type", "start_game"}, {"first_seat", 1}})["type"] == "ok");
  auto st = oma.expect_type("state");
  REQUIRE(st["prompt"]["seats"] == json::array({1}));
  CHECK(st["prompt"]["deadline"].is_null());  // timers off

  CHECK(ben.request({{"type", "skip"}, {"seat", 1}})["code"] == "not_host");
  CHECK(oma.request({{"type", "skip"}, {"seat", 0}})["code"] == "not_awaited");
  CHECK(oma.request({{"type", "skip"}, {"seat", 5}})["code"] == "not_awaited");
  CHECK(oma.request_unchecked({{"type", "skip"}, {"seat", -1}})["code"] == "invalid_field");
  CHECK(oma.request_unchecked({{"type", "skip"}, {"seat", "1"}})["code"] == "invalid_field");
  CHECK(oma.request_unchecked({{"type", "skip"}})["code"] == "invalid_field");
  ws_client watcher(s.port);
  say_hello(watcher, "Wendy");
  REQUIRE(watcher.request({{"type", "join_room"}, {"room", t.code}, {"as", "spectator"}})["type"] == "ok");
  CHECK(watcher.request({{"type", "skip"}, {"seat", 1}})["code"] == "not_host");

  // Ben's whole turn is played by defaults, prompt after prompt, each state starting with timed_out.
  int skips = 0;
  while (awaits(st, 1)) {
    const std::string kind = st["prompt"]["kind"];
    const auto seq = st["seq"].get<std::uint64_t>();
    st = skip(oma, 1, seq);
    CHECK(st["seq"] == seq + 1);
    check_timed_out(st, json::array({1}), kind);
    ++skips;
  }
  CHECK(skips >= 1);
  // Ben sees the same states.
  auto bens = ben.expect([&](const json& j) { return is_state(j) && j["seq"] == st["seq"]; }, "Ben's copy");
  CHECK(bens["events"] == st["events"]);

  // The host may skip themself, and Clara too; skipped players are never marked away.
  for (int round = 0; round < 6 && st["over"] == false; ++round) {
    const int seat = st["prompt"]["seats"][0];
    st = skip(oma, seat, st["seq"]);
    CHECK(st["events"][0]["kind"] == "timed_out");
  }
  room_fence(oma);
  for (const auto& f : oma.transcript())
    if (is_room(f))
      for (const auto& seat : f["room"]["seats"]) CHECK(seat["status"] != "away");
}

TEST_CASE("the host's skip in Unterm Baum's ASSIGN resolves only that seat, the others keep writing", "[contract][skip]") {
  test_server s(lift_rate_limit);
  auto t = seat_players(s, 3,
                        {{"maxPlayers", 3}, {"assignSeconds", "off"}, {"memorizeSeconds", 1}, {"mainTimeoutSec", "off"}, {"maxRounds", 1}},
                        "unterm_baum");
  auto& oma = *t.clients[0];
  REQUIRE(oma.request({{"type", "start_game"}})["type"] == "ok");
  auto st = oma.expect_type("state");
  REQUIRE(st["prompt"]["kind"] == "assign");
  REQUIRE(st["prompt"]["seats"] == json::array({0, 1, 2}));
  CHECK(st["prompt"]["deadline"].is_null());

  st = skip(oma, 1, st["seq"]);
  check_timed_out(st, json::array({1}), "assign");
  CHECK(st["prompt"]["kind"] == "assign");
  CHECK(st["prompt"]["seats"] == json::array({0, 2}));
  CHECK(oma.request({{"type", "skip"}, {"seat", 1}})["code"] == "not_awaited");  // already done

  // Clara writes her own list; the host's own list is skipped last: the prompt closes.
  auto clara = t.clients[2]->expect([&](const json& j) { return is_state(j) && j["seq"] == st["seq"]; }, "Clara's state");
  REQUIRE(t.clients[2]->request({{"type", "action"}, {"action", clara["legal"][0]}})["type"] == "ok");
  st = oma.expect([&](const json& j) { return is_state(j) && j["seq"] == clara["seq"].get<std::uint64_t>() + 1; }, "after Clara");
  CHECK(st["prompt"]["seats"] == json::array({0}));
  st = skip(oma, 0, st["seq"]);
  check_timed_out(st, json::array({0}), "assign");
  CHECK(st["prompt"]["kind"] == "memorize");
  CHECK(oma.request({{"type", "skip"}, {"seat", 0}})["code"] == "not_awaited");  // memorize waits for nobody

  // The turns: each skip passes the turn, to the end of the game.
  st = oma.expect([](const json& j) { return is_state(j) && j["prompt"].is_object() && j["prompt"]["kind"] == "turn"; },
                  "the first turn");
  while (st["over"] == false) {
    REQUIRE(st["prompt"]["kind"] == "turn");
    const json seats = st["prompt"]["seats"];
    st = skip(oma, seats[0], st["seq"]);
    check_timed_out(st, seats, "turn");
  }
  CHECK(st["result"].is_object());
}

TEST_CASE("the host's skip in Christmas Penguins, down to a reaction window, with timers off", "[contract][skip]") {
  test_server s(lift_rate_limit);
  const json options = {{"maxPlayers", 3},       {"stones", "4/4/4"},         {"reactionWindowMs", 60000}, {"stopSeconds", "off"},
                        {"mainTimeoutSec", "off"}, {"subPromptTimeoutSec", "off"}, {"maxRounds", 30}};
  auto t = seat_players(s, 3, options, "christmas_penguins");
  auto& oma = *t.clients[0];
  bool reaction = false;
  std::set<std::string> kinds;
  for (int game = 0; game < 4 && !reaction; ++game) {
    REQUIRE(oma.request({{"type", "start_game"}})["type"] == "ok");
    auto st = oma.expect_type("state");
    while (st["over"] == false) {
      const std::string kind = st["prompt"]["kind"];
      const json seats = st["prompt"]["seats"];
      REQUIRE_FALSE(seats.empty());
      kinds.insert(kind);
      // The host plays everyone's defaults; in the reaction window, one seat at a time.
      const int seat = seats.back();
      st = skip(oma, seat, st["seq"]);
      check_timed_out(st, json::array({seat}), kind);
      if (kind == "reaction") {
        reaction = true;
        if (seats.size() > 1) {
          // Only that seat passed; the window stays open for the others, with their own time.
          CHECK(st["prompt"]["kind"] == "reaction");
          json rest = seats;
          rest.erase(rest.size() - 1);
          CHECK(st["prompt"]["seats"] == rest);
        } else {
          // The last seat: the window closes, as on its timeout (D7).
          CHECK(st["prompt"]["kind"] != "reaction");
          CHECK(std::any_of(st["events"].begin(), st["events"].end(), [](const json& e) { return e["kind"] == "reaction_closed"; }));
        }
        break;
      }
    }
    if (!reaction) oma.expect([](const json& j) { return is_room(j) && j["room"]["status"] == "finished"; }, "the finished room");
  }
  INFO("prompts skipped: " << json(kinds).dump());
  CHECK(reaction);
  CHECK(kinds.count("roll") == 1);
  CHECK(kinds.count("move") == 1);
}

TEST_CASE("sent away in the lobby: no seat again with any connection, token or last_seq until the host readmits", "[contract][kicked]") {
  test_server s;
  auto t = seat_players(s, 3, {{"maxPlayers", 3}});
  auto& oma = *t.clients[0];
  const auto ben_id = player_of(*t.clients[1]);
  const auto ben_token = token_of(*t.clients[1]);
  REQUIRE(oma.request({{"type", "kick"}, {"player", ben_id}})["type"] == "ok");
  CHECK(t.clients[1]->expect_type("kicked")["room"] == t.code);
  auto r = oma.expect([](const json& j) { return is_room(j) && !j["room"]["kicked"].empty(); }, "the sent-away list");
  CHECK(r["room"]["kicked"] == json::array({{{"player", ben_id}, {"name", "Player 1"}}}));
  CHECK(r["room"]["seats"][1]["status"] == "empty");

  CHECK(t.clients[1]->request({{"type", "join_room"}, {"room", t.code}})["code"] == "kicked");
  t.clients[1]->close();
  ws_client back(s.port);
  const auto w = hello_with_token(back, "Ben", ben_token);
  CHECK(w["resumed"] == true);
  CHECK(w["player"] == ben_id);
  CHECK(w["room"].is_null());  // not his room any more
  CHECK(back.request({{"type", "join_room"}, {"room", t.code}})["code"] == "kicked");
  CHECK(back.request({{"type", "join_room"}, {"room", t.code}, {"as", "player"}, {"last_seq", 0}})["code"] == "kicked");
  auto watching = back.request({{"type", "join_room"}, {"room", t.code}, {"as", "spectator"}});
  REQUIRE(watching["type"] == "ok");
  CHECK(watching["seat"].is_null());
  r = back.expect_type("room");
  CHECK(r["room"]["spectators"] == 1);
  for (const auto& seat : r["room"]["seats"]) CHECK(seat["player"] != ben_id);

  // Only the host may let him back, and only someone who was sent away.
  CHECK(t.clients[2]->request({{"type", "readmit"}, {"player", ben_id}})["code"] == "not_host");
  CHECK(oma.request({{"type", "readmit"}, {"player", player_of(*t.clients[2])}})["code"] == "unknown_player");
  CHECK(oma.request_unchecked({{"type", "readmit"}, {"player", ""}})["code"] == "invalid_field");
  REQUIRE(oma.request({{"type", "readmit"}, {"player", ben_id}})["type"] == "ok");
  r = back.expect([](const json& j) { return is_room(j) && j["room"]["kicked"].empty(); }, "Ben readmitted");
  CHECK(oma.request({{"type", "readmit"}, {"player", ben_id}})["code"] == "unknown_player");
  REQUIRE(back.request({{"type", "leave_room"}})["type"] == "ok");
  auto seated = back.request({{"type", "join_room"}, {"room", t.code}});
  REQUIRE(seated["type"] == "ok");
  CHECK(seated["seat"] == 1);
}

TEST_CASE("sent away while disconnected: the token resumes the player, but not the seat or the room", "[contract][kicked]") {
  test_server s;
  auto t = seat_players(s, 2, {{"maxPlayers", 3}});
  auto& oma = *t.clients[0];
  const auto ben_id = player_of(*t.clients[1]);
  const auto ben_token = token_of(*t.clients[1]);
  t.clients[1]->close();
  oma.expect([](const json& j) { return is_room(j) && j["room"]["seats"][1]["status"] == "disconnected"; }, "Ben disconnected");
  REQUIRE(oma.request({{"type", "kick"}, {"player", ben_id}})["type"] == "ok");
  oma.expect([](const json& j) { return is_room(j) && j["room"]["seats"][1]["status"] == "empty"; }, "Ben's seat freed");
  ws_client back(s.port);
  const auto w = hello_with_token(back, "Ben", ben_token);
  CHECK(w["resumed"] == true);
  CHECK(w["room"].is_null());
  CHECK(back.request({{"type", "join_room"}, {"room", t.code}, {"last_seq", 0}})["code"] == "kicked");
}

TEST_CASE("sent away mid-game: caught up only as a spectator, readmitted, the seat comes back from the bot", "[contract][kicked]") {
  test_server s;
  auto t = seat_players(s, 2, untimed(2));
  auto& oma = *t.clients[0];
  const auto ben_id = player_of(*t.clients[1]);
  const auto ben_token = token_of(*t.clients[1]);
  REQUIRE(oma.request({{"type", "start_game"}, {"first_seat", 0}})["type"] == "ok");
  const auto ben_seen = t.clients[1]->expect_type("state")["seq"].get<std::uint64_t>();
  REQUIRE(oma.request({{"type", "kick"}, {"player", ben_id}})["type"] == "ok");
  t.clients[1]->expect_type("kicked");
  t.clients[1]->close();
  oma.expect([](const json& j) { return is_room(j) && j["room"]["seats"][1]["status"] == "gone"; }, "Ben's seat gone");

  ws_client back(s.port);
  const auto w = hello_with_token(back, "Ben", ben_token);
  CHECK(w["resumed"] == true);
  CHECK(w["room"].is_null());
  CHECK(back.request({{"type", "join_room"}, {"room", t.code}, {"last_seq", ben_seen}})["code"] == "kicked");
  auto watching = back.request({{"type", "join_room"}, {"room", t.code}, {"as", "spectator"}, {"last_seq", ben_seen}});
  REQUIRE(watching["type"] == "ok");
  CHECK(watching["seat"].is_null());
  CHECK(watching["resumed"] == false);
  auto st = back.expect_type("state");
  CHECK(st["seat"].is_null());
  CHECK(st["legal"].empty());

  REQUIRE(oma.request({{"type", "readmit"}, {"player", ben_id}})["type"] == "ok");
  REQUIRE(back.request({{"type", "leave_room"}})["type"] == "ok");
  auto seated = back.request({{"type", "join_room"}, {"room", t.code}, {"last_seq", st["seq"]}});
  REQUIRE(seated["type"] == "ok");
  CHECK(seated["seat"] == 1);
  CHECK(seated["resumed"] == true);
  CHECK(back.expect_type("state")["seat"] == 1);
  oma.expect([](const json& j) { return is_room(j) && j["room"]["seats"][1]["status"] == "connected"; }, "Ben back in his seat");
}

TEST_CASE("after a restart a skip replays from the journal, a player sent away stays away, and the record checks out",
          "[contract][durable]") {
  char dir_template[] = "/tmp/tinsel-contract-XXXXXX";
  REQUIRE(::mkdtemp(dir_template) != nullptr);
  const std::string dir = dir_template;
  const std::vector<std::string> flags = {"--data-dir", dir, "--rate-per-sec", "100000", "--rate-burst", "100000"};
  const json options = {{"maxPlayers", 4}, {"assignSeconds", "off"}, {"memorizeSeconds", 1}, {"mainTimeoutSec", "off"}, {"maxRounds", 1}};
  std::vector<std::string> tokens;
  std::string code, dora_id;
  std::uint64_t seen = 0;
  {
    server_process a(flags);
    auto t = seat_players(a.port, 4, options, "unterm_baum");
    code = t.code;
    for (auto& c : t.clients) tokens.push_back(token_of(*c));
    dora_id = player_of(*t.clients[3]);
    REQUIRE(t.clients[0]->request({{"type", "kick"}, {"player", dora_id}})["type"] == "ok");
    REQUIRE(t.clients[0]->request({{"type", "start_game"}})["type"] == "ok");
    auto st = t.clients[0]->expect_type("state");
    REQUIRE(st["prompt"]["seats"] == json::array({0, 1, 2}));
    st = skip(*t.clients[0], 1, st["seq"]);
    check_timed_out(st, json::array({1}), "assign");
    seen = st["seq"];
    a.kill_hard();
  }
  server_process b(flags);
  // Dora resumes as herself, and is still away.
  ws_client dora(b.port);
  const auto w = hello_with_token(dora, "Dora", tokens[3]);
  CHECK(w["resumed"] == true);
  CHECK(w["player"] == dora_id);
  CHECK(w["room"].is_null());
  CHECK(dora.request({{"type", "join_room"}, {"room", code}})["code"] == "kicked");

  std::vector<std::unique_ptr<ws_client>> cs;
  json st;
  for (int i = 0; i < 3; ++i) {
    cs.push_back(std::make_unique<ws_client>(b.port));
    CHECK(hello_with_token(*cs.back(), "again", tokens[static_cast<std::size_t>(i)])["room"] == code);
    auto ok = cs.back()->request({{"type", "join_room"}, {"room", code}, {"last_seq", seen}}, std::chrono::seconds(30));
    REQUIRE(ok["type"] == "ok");
    CHECK(ok["resumed"] == true);
    if (i == 0) {
      auto r = cs[0]->expect_type("room");
      CHECK(r["room"]["kicked"] == json::array({{{"player", dora_id}, {"name", "Player 3"}}}));
    }
    st = cs.back()->expect_type("state", std::chrono::seconds(30));
    CHECK(st["seq"] == seen);
    CHECK(st["prompt"]["seats"] == json::array({0, 2}));  // seat 1's skip came back from the journal
  }
  auto& oma = *cs[0];
  st = skip(oma, 0, seen);
  st = skip(oma, 2, st["seq"]);
  CHECK(st["prompt"]["kind"] == "memorize");
  st = oma.expect([](const json& j) { return is_state(j) && j["prompt"].is_object() && j["prompt"]["kind"] == "turn"; },
                  "the first turn", std::chrono::seconds(30));
  while (st["over"] == false) st = skip(oma, st["prompt"]["seats"][0], st["seq"]);
  REQUIRE(st["result"].contains("record"));
  const auto res = http_get(b.port, "/records/" + st["result"]["record"].get<std::string>());
  REQUIRE(res.status == 200);
  const auto record = json::parse(res.body);
  const auto check = tinsel::protocol::check_record(record);
  INFO(check.why);
  CHECK(check.ok);
  int by_host = 0;
  for (const auto& e : record["commands"])
    if (e["kind"] == "timeout" && e.value("by", "") == "host") ++by_host;
  CHECK(by_host >= 4);  // three ASSIGN seats and at least one turn
  bool partial = false;
  for (const auto& e : record["commands"]) partial = partial || (e["kind"] == "timeout" && e.value("seat", -1) == 1);
  CHECK(partial);
  std::filesystem::remove_all(dir);
}

TEST_CASE("tinsel-server refuses grace periods that contradict each other with status 2, naming the flags", "[contract][binary]") {
  const auto run = [](const std::string& args, std::string& output) {
    const std::string cmd = std::string(TINSEL_SERVER_BINARY) + " " + args + " 2>&1";
    FILE* f = ::popen(cmd.c_str(), "r");
    REQUIRE(f != nullptr);
    char buf[512];
    output.clear();
    while (std::fgets(buf, sizeof buf, f)) output += buf;
    const int status = ::pclose(f);
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  };
  std::string out;
  CHECK(run("--port 0 --lobby-seat-grace-sec 700", out) == 2);
  CHECK(out.find("--lobby-seat-grace-sec") != std::string::npos);
  CHECK(out.find("--reconnect-grace-sec") != std::string::npos);
  CHECK(run("--port 0 --empty-room-grace-sec 10", out) == 2);
  CHECK(out.find("--empty-room-grace-sec") != std::string::npos);
  CHECK(out.find("--lobby-seat-grace-sec") != std::string::npos);
  CHECK(run("--port 0 --reconnect-grace-sec 30", out) == 2);  // below the lobby seat grace (60)
  CHECK(out.find("--reconnect-grace-sec") != std::string::npos);
}
