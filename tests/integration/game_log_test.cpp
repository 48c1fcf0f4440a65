// The game log (docs/protocol.md, "The game log"): whoever joins a room with a game (a reload, a
// resume with last_seq, a spectator mid-game, after "Play again", after a server restart) receives
// the game's events from its start, as its own states showed them, right before the state that
// answers the join; bounded; never another seat's secrets. And results that stay true: a finished
// game names its players as they were, whoever leaves and comes back.
#include <catch2/catch.hpp>

#include <stdlib.h>

#include <filesystem>
#include <set>

#include "play_helpers.hpp"
#include "server_process.hpp"

using namespace tinsel::test;

namespace {

json untimed(int players = 2) {
  return {{"maxPlayers", players}, {"mainTimeoutSec", "off"}, {"subPromptTimeoutSec", "off"}, {"startPlayer", "host-picks"}};
}

// The newest state this client has received, waiting for one with at least `seq` if need be.
json latest_state(ws_client& c, std::uint64_t seq = 0) {
  while (c.recv(std::chrono::milliseconds(0))) {
  }
  json last;
  for (const auto& f : c.transcript())
    if (f["type"] == "state") last = f;
  if (last.is_null() || last["seq"].get<std::uint64_t>() < seq)
    last = c.expect([&](const json& j) { return j.value("type", "") == "state" && j["seq"].get<std::uint64_t>() >= seq; },
                    "state " + std::to_string(seq), std::chrono::seconds(30));
  return last;
}

// One command, by whoever the game waits for (timers off: nobody else moves), and everyone has
// seen its state. Returns the new seq; 0 when the game is over.
std::uint64_t step(const std::vector<ws_client*>& players, std::uint64_t seq) {
  for (auto* c : players) {
    const auto st = latest_state(*c, seq);
    if (st["over"] == true) return 0;
    const auto& seats = st["prompt"]["seats"];
    if (std::find(seats.begin(), seats.end(), st["seat"]) == seats.end()) continue;
    json cmd;
    for (const auto& e : st["legal"])
      if (!e.contains("domain")) {
        cmd = e;
        break;
      }
    REQUIRE(c->request({{"type", "action"}, {"action", cmd}})["type"] == "ok");
    const auto next = latest_state(*c, seq + 1)["seq"].get<std::uint64_t>();
    for (auto* o : players) latest_state(*o, next);
    return next;
  }
  FAIL("nobody was prompted at seq " << seq);
  return 0;
}

// Every event of the state frames in `frames` (from index `from`), each with the seq of its state
// (replayed events carry their own): what a client that appends states' events has in its log.
json logged_events(const std::vector<json>& frames, std::size_t from = 0) {
  json out = json::array();
  for (std::size_t i = from; i < frames.size(); ++i) {
    const auto& f = frames[i];
    if (f["type"] != "state") continue;
    for (auto e : f["events"]) {
      if (!e.contains("seq")) e["seq"] = f["seq"];
      out.push_back(e);
    }
  }
  return out;
}

// The log a client shows that follows docs/protocol.md: a game_log replaces it, the state that
// answers the join adds nothing, every other state appends its events.
json shown_log(const std::vector<json>& frames) {
  json log = json::array();
  bool answer = false;
  for (const auto& f : frames) {
    if (f["type"] == "game_log") {
      log = f["events"];
      answer = true;
    } else if (f["type"] == "state") {
      if (!answer)
        for (auto e : f["events"]) {
          if (!e.contains("seq")) e["seq"] = f["seq"];
          log.push_back(e);
        }
      answer = false;
    }
  }
  return log;
}

// The frames a join brought, from its `ok` on: the game_log, then the state that answers it.
struct join_answer {
  json ok, log, state;
  std::vector<std::string> order;  // the types of the frames, in order, from the ok to the state
};

join_answer join(ws_client& c, json request) {
  const auto from = c.transcript().size();
  join_answer a;
  a.ok = c.request(std::move(request));
  REQUIRE(a.ok["type"] == "ok");
  a.state = c.expect_type("state");
  for (const auto& f : c.transcript(from)) {
    a.order.push_back(f["type"]);
    if (f["type"] == "game_log") a.log = f;
  }
  REQUIRE(a.log.is_object());
  return a;
}

// Says hello again with a player's token, as a reload or a new connection does.
std::unique_ptr<ws_client> come_back(std::uint16_t port, const std::string& token) {
  auto c = std::make_unique<ws_client>(port);
  c->send({{"type", "hello"}, {"protocol", 1}, {"name", "Again"}, {"token", token}});
  REQUIRE(c->expect_type("welcome")["resumed"] == true);
  return c;
}

std::string token_of(ws_client& c) { return c.transcript().front()["token"]; }

}  // namespace

TEST_CASE("game log: a player who reloads mid-game gets the game from its start, right before the state that answers the join",
          "[game_log][integration]") {
  test_server s;
  auto t = seat_players(s, 2, untimed());
  const auto ben_token = token_of(*t.clients[1]);
  REQUIRE(t.clients[0]->request({{"type", "start_game"}, {"first_seat", 0}})["type"] == "ok");
  std::uint64_t seq = 1;
  for (int i = 0; i < 8; ++i) seq = step({t.clients[0].get(), t.clients[1].get()}, seq);
  const auto seen = logged_events(t.clients[1]->transcript());
  t.clients[1]->close();  // the page reloads: a new connection, no last_seq

  auto ben = come_back(s.port, ben_token);
  const auto a = join(*ben, {{"type", "join_room"}, {"room", t.code}});
  CHECK(a.order == std::vector<std::string>{"ok", "room", "game_log", "state"});
  CHECK(a.log["room"] == t.code);
  CHECK(a.log["game"] == "happy_holidays");
  CHECK(a.log["truncated"] == false);
  CHECK(a.log["seq"] == a.state["seq"]);
  CHECK(a.log["seq"] == seq);
  REQUIRE_FALSE(a.log["events"].empty());
  CHECK(a.log["events"][0]["kind"] == "game_started");
  CHECK(a.log["events"][0]["seq"] == 1);
  CHECK(a.log["events"] == seen);  // every event once, as Ben's states showed them
  CHECK(a.state["events"].empty());  // no last_seq: nothing replayed
}

TEST_CASE("game log: resuming with last_seq, the replayed events are the log's last ones, so nothing is shown twice",
          "[game_log][integration][resume]") {
  test_server s;
  auto t = seat_players(s, 2, untimed());
  const auto ben_token = token_of(*t.clients[1]);
  REQUIRE(t.clients[0]->request({{"type", "start_game"}, {"first_seat", 0}})["type"] == "ok");
  std::uint64_t seq = 1;
  for (int i = 0; i < 4; ++i) seq = step({t.clients[0].get(), t.clients[1].get()}, seq);
  const auto ben_seen = logged_events(t.clients[1]->transcript());
  const auto ben_last = latest_state(*t.clients[1])["seq"].get<std::uint64_t>();
  t.clients[1]->close();  // Wi-Fi drops; Oma plays on (her turn, or until it is Ben's)
  t.clients[0]->expect([](const json& j) { return j.value("type", "") == "room" && j["room"]["seats"][1]["status"] == "disconnected"; },
                       "Ben shown as disconnected");
  auto oma = latest_state(*t.clients[0], seq);
  if (oma["prompt"]["seats"] != json::array({0})) {
    // Ben's turn when he dropped: Oma cannot move; the catch-up then has nothing to replay.
    SUCCEED("nothing missed");
  } else {
    oma = play_turn(*t.clients[0], oma);
  }
  const auto oma_all = logged_events(t.clients[0]->transcript());

  auto ben = come_back(s.port, ben_token);
  const auto a = join(*ben, {{"type", "join_room"}, {"room", t.code}, {"last_seq", ben_last}});
  CHECK(a.log["seq"] == a.state["seq"]);
  CHECK(a.log["events"] == oma_all);  // the whole game so far, as Oma (and Ben) see it
  // What Ben had, plus the answering state's replayed events, is exactly the log: a client that
  // replaces its log with game_log and skips the answering state's events shows each event once.
  json merged = ben_seen;
  for (const auto& e : a.state["events"]) merged.push_back(e);
  CHECK(merged == a.log["events"]);
  if (a.state["seq"].get<std::uint64_t>() > ben_last) CHECK(a.state["replayed_from"] == ben_last + 1);
  // And the game goes on from there: the next state's events are new to the log.
  const auto next = step({t.clients[0].get(), ben.get()}, a.state["seq"].get<std::uint64_t>());
  CHECK(next == a.state["seq"].get<std::uint64_t>() + 1);
}

TEST_CASE("game log: a spectator who comes mid-game sees the game from its start, as a spectator who watched it all",
          "[game_log][integration][spectator]") {
  test_server s;
  auto t = seat_players(s, 2, untimed());
  ws_client early(s.port);
  say_hello(early, "Opa");
  REQUIRE(early.request({{"type", "join_room"}, {"room", t.code}, {"as", "spectator"}})["type"] == "ok");
  REQUIRE(t.clients[0]->request({{"type", "start_game"}, {"first_seat", 0}})["type"] == "ok");
  std::uint64_t seq = 1;
  for (int i = 0; i < 6; ++i) seq = step({t.clients[0].get(), t.clients[1].get()}, seq);
  latest_state(early, seq);

  ws_client late(s.port);
  say_hello(late, "Tante");
  const auto a = join(late, {{"type", "join_room"}, {"room", t.code}, {"as", "spectator"}});
  CHECK(a.ok["spectator"] == true);
  CHECK(a.state["seat"].is_null());
  CHECK(a.log["seq"] == seq);
  CHECK(a.log["events"] == logged_events(early.transcript()));
  CHECK(a.log["events"][0]["players"] == json::array({"Player 0", "Player 1"}));
}

TEST_CASE("game log: after Play again it holds the new game only, between games, the finished one", "[game_log][integration]") {
  test_server s(lift_rate_limit);
  auto t = seat_players(s, 2, {{"maxPlayers", 2}, {"giftsPerColour", 5}});
  const auto ben_token = token_of(*t.clients[1]);
  REQUIRE(t.clients[0]->request({{"type", "start_game"}})["type"] == "ok");
  std::mt19937 rng(7);
  std::uint64_t seq = 0;
  play_to_end(t, rng, seq);
  t.clients[0]->expect([](const json& j) { return j.value("type", "") == "room" && j["room"]["status"] == "finished"; }, "finished");

  // Between games: a visitor sees the finished game, to its end.
  ws_client visitor(s.port);
  say_hello(visitor, "Nachbar");
  const auto between = join(visitor, {{"type", "join_room"}, {"room", t.code}, {"as", "spectator"}});
  CHECK(between.log["seq"] == seq);
  CHECK(between.log["events"][0]["kind"] == "game_started");
  CHECK(between.log["events"].back()["kind"] == "game_over");
  CHECK(between.log["events"] == logged_events(t.clients[0]->transcript()));
  CHECK(between.state["result"]["names"] == json::array({"Player 0", "Player 1"}));

  // Play again: two moves of the new game, then Ben reloads.
  const auto game2_from = t.clients[0]->transcript().size();
  REQUIRE(t.clients[0]->request({{"type", "start_game"}})["type"] == "ok");
  std::uint64_t seq2 = latest_state(*t.clients[0], seq + 1)["seq"];
  CHECK(seq2 == seq + 1);
  for (int i = 0; i < 2; ++i) seq2 = step({t.clients[0].get(), t.clients[1].get()}, seq2);
  t.clients[1]->close();
  auto ben = come_back(s.port, ben_token);
  const auto a = join(*ben, {{"type", "join_room"}, {"room", t.code}});
  CHECK(a.log["seq"] == seq2);
  REQUIRE_FALSE(a.log["events"].empty());
  CHECK(a.log["events"][0]["kind"] == "game_started");
  CHECK(a.log["events"][0]["seq"] == seq + 1);
  for (const auto& e : a.log["events"]) CHECK(e["seq"].get<std::uint64_t>() > seq);  // nothing of the first game
  CHECK(a.log["events"] == logged_events(t.clients[0]->transcript(), game2_from));
}

TEST_CASE("game log: it keeps the last N events and says when older ones were left out", "[game_log][integration][limits]") {
  test_server s([](tinsel::server::config& c) { c.game_log_events = 5; });
  auto t = seat_players(s, 2, untimed());
  REQUIRE(t.clients[0]->request({{"type", "start_game"}, {"first_seat", 0}})["type"] == "ok");
  std::uint64_t seq = 1;
  ws_client early(s.port);
  say_hello(early, "Opa");
  const auto first = join(early, {{"type", "join_room"}, {"room", t.code}, {"as", "spectator"}});
  CHECK(first.log["truncated"] == false);  // one state so far: game_started and the first turn
  CHECK(first.log["events"].size() <= 5);
  for (int i = 0; i < 8; ++i) seq = step({t.clients[0].get(), t.clients[1].get()}, seq);
  const auto all = logged_events(t.clients[0]->transcript());
  REQUIRE(all.size() > 5);

  ws_client late(s.port);
  say_hello(late, "Tante");
  const auto a = join(late, {{"type", "join_room"}, {"room", t.code}, {"as", "spectator"}});
  CHECK(a.log["truncated"] == true);
  REQUIRE(a.log["events"].size() == 5);
  CHECK(a.log["events"] == json(std::vector<json>(all.end() - 5, all.end())));  // the newest five, oldest first
  CHECK(a.log["seq"] == seq);
}

TEST_CASE("results stay true: a finished game names its players as they were, and a rejoin after a leave sees the seat it had",
          "[game_log][integration][result]") {
  test_server s([](tinsel::server::config& c) {
    lift_rate_limit(c);
    c.auto_play_delay = std::chrono::milliseconds(5);
  });
  auto t = seat_players(s, 3, {{"maxPlayers", 3}, {"giftsPerColour", 5}});
  const auto ben_token = token_of(*t.clients[1]);
  REQUIRE(t.clients[0]->request({{"type", "start_game"}})["type"] == "ok");
  latest_state(*t.clients[1], 1);
  // Ben (seat 1) leaves mid-game: the bot plays his seat to the end.
  REQUIRE(t.clients[1]->request({{"type", "leave_room"}})["type"] == "ok");
  table rest;
  rest.code = t.code;
  rest.clients.push_back(std::move(t.clients[0]));
  rest.clients.push_back(std::move(t.clients[2]));
  std::mt19937 rng(11);
  std::uint64_t seq = 0;
  const auto finals = play_to_end(rest, rng, seq);
  const json names = json::array({"Player 0", "Player 1", "Player 2"});
  CHECK(finals[0]["result"]["names"] == names);
  const auto finished = rest.clients[0]->expect(
      [](const json& j) { return j.value("type", "") == "room" && j["room"]["status"] == "finished"; }, "finished");
  CHECK(finished["room"]["result"]["names"] == names);
  // Ben's seat was freed at the end and Clara moved up: the room's seats no longer say who played.
  CHECK(finished["room"]["seats"][1]["name"] == "Player 2");

  // Ben comes back and sits down again: a new room seat, but the game he sees is his own.
  auto ben = come_back(s.port, ben_token);
  const auto a = join(*ben, {{"type", "join_room"}, {"room", t.code}});
  CHECK(a.ok["seat"] == 2);
  CHECK(a.state["seat"] == 1);  // his seat in that game
  CHECK(a.state["result"] == finals[0]["result"]);
  CHECK(a.state["view"] == finals[0]["view"]);  // Happy Holidays shows everyone the same
  CHECK(a.log["events"].back()["kind"] == "game_over");
  // Someone who did not play it sees it as a spectator does, even from a seat.
  ws_client dora(s.port);
  say_hello(dora, "Dora");
  REQUIRE(rest.clients[1]->request({{"type", "leave_room"}})["type"] == "ok");  // Clara makes room
  const auto d = join(dora, {{"type", "join_room"}, {"room", t.code}});
  CHECK(d.ok["seat"].is_number());
  CHECK(d.state["seat"].is_null());
  CHECK(d.state["legal"].empty());
  CHECK(d.state["result"]["names"] == names);
}

TEST_CASE("game log: Unterm Baum secrets stay with their owner, each log is what that viewer's states showed",
          "[game_log][integration][unterm_baum][leak]") {
  test_server s(lift_rate_limit);
  auto t = seat_players(s, 2, {{"maxPlayers", 2}, {"cardsToRemember", 8}, {"assignSeconds", 120}, {"memorizeSeconds", 1},
                               {"mainTimeoutSec", 120}, {"maxRounds", 4}}, "unterm_baum");
  const auto ben_token = token_of(*t.clients[1]);
  ws_client early(s.port);  // watches from the start, never drops: every public event, once
  say_hello(early, "Opa");
  REQUIRE(early.request({{"type", "join_room"}, {"room", t.code}, {"as", "spectator"}})["type"] == "ok");
  REQUIRE(t.clients[0]->request({{"type", "start_game"}})["type"] == "ok");

  // Oma writes her wish list (the default one); until the end, it is hers alone.
  const auto oma_assign = latest_state(*t.clients[0], 1);
  REQUIRE(oma_assign["view"]["wish_list"].is_object());
  std::set<std::string> oma_hand;
  for (const auto& m : oma_assign["view"]["wish_list"]["hand"]) oma_hand.insert(m.get<std::string>());
  REQUIRE(oma_hand.size() == 8);
  REQUIRE(t.clients[0]->request({{"type", "action"}, {"action", oma_assign["legal"][0]}})["type"] == "ok");
  latest_state(early, 2);

  // A reveal as a log tells it again: who looked at which place, not the motif (A12).
  auto retold = [](json events) {
    for (auto& e : events)
      if (e["kind"] == "revealed") {
        e.erase("motif");
        e.erase("display_ms");
      }
    return events;
  };
  // A log holds the events of the states up to its seq, as the spectator's states showed them
  // (every Unterm Baum event is public) but for the motifs of reveals, and nothing of Oma's list.
  auto check_log = [&](const json& log, const std::string& who) {
    INFO(who);
    const auto upto = log["seq"].get<std::uint64_t>();
    latest_state(early, upto);
    json expected = json::array();
    for (const auto& e : logged_events(early.transcript()))
      if (e["seq"].get<std::uint64_t>() <= upto) expected.push_back(e);
    CHECK(log["events"] == retold(expected));
    const auto text = log.dump();
    CHECK(text.find("\"wishes\"") == std::string::npos);
    CHECK(text.find("\"hand\"") == std::string::npos);
    CHECK(text.find("\"motif\"") == std::string::npos);
    for (const auto& m : oma_hand) CHECK(text.find("\"" + m + "\"") == std::string::npos);
  };
  // A late spectator, and Ben reloading: Ben's new log begins with exactly what his page showed.
  auto visit = [&](const std::string& when) {
    INFO(when);
    ws_client late(s.port);
    say_hello(late, "Tante");
    check_log(join(late, {{"type", "join_room"}, {"room", t.code}, {"as", "spectator"}}).log, "the late spectator");
    const auto old_last = latest_state(*t.clients[1])["seq"].get<std::uint64_t>();
    const auto old_frames = t.clients[1]->transcript();
    auto ben = come_back(s.port, ben_token);
    const auto b = join(*ben, {{"type", "join_room"}, {"room", t.code}});
    check_log(b.log, "Ben");
    json had = json::array();
    for (const auto& e : b.log["events"])
      if (e["seq"].get<std::uint64_t>() <= old_last) had.push_back(e);
    CHECK(had == retold(shown_log(old_frames)));
    t.clients[1] = std::move(ben);  // Ben plays on from the new page
  };
  visit("Oma has written her list, Ben not yet");

  // Ben writes his list; memorize runs out (1 s); the player whose turn it is reveals a card.
  const auto ben_assign = latest_state(*t.clients[1], 2);
  REQUIRE(t.clients[1]->request({{"type", "action"}, {"action", ben_assign["legal"][0]}})["type"] == "ok");
  const auto play = early.expect([](const json& j) { return j.value("type", "") == "state" && j["view"]["phase"] == "play"; },
                                 "the play phase", std::chrono::seconds(30));
  const auto at = play["seq"].get<std::uint64_t>();
  auto* mover = play["prompt"]["seats"] == json::array({0}) ? t.clients[0].get() : t.clients[1].get();
  json reveal;
  const auto mover_state = latest_state(*mover, at);
  INFO(mover_state.dump().substr(0, 600));
  for (const auto& e : mover_state["legal"])
    if (e["kind"] == "reveal") {
      reveal = e;
      break;
    }
  REQUIRE(reveal.is_object());
  REQUIRE(mover->request({{"type", "action"}, {"action", reveal}})["type"] == "ok");
  latest_state(early, at + 1);
  visit("in the play phase, after a reveal");
}

namespace {

std::string temp_dir() {
  char t[] = "/tmp/tinsel-gamelog-XXXXXX";
  REQUIRE(::mkdtemp(t) != nullptr);
  return t;
}

std::vector<std::string> durable_flags(const std::string& dir) {
  return {"--data-dir", dir, "--rate-per-sec", "100000", "--rate-burst", "100000", "--auto-play-delay-ms", "20"};
}

}  // namespace

TEST_CASE("game log: after a server crash the log is the same as before it, for players and spectators, and results keep their names",
          "[game_log][integration][durable]") {
  const auto dir = temp_dir();
  json before_player, before_spectator, result;
  std::string code, oma_token, ben_token;
  {
    server_process a(durable_flags(dir));
    json options = untimed();
    options["giftsPerColour"] = 5;
    auto t = seat_players(a.port, 2, options);
    code = t.code;
    oma_token = token_of(*t.clients[0]);
    ben_token = token_of(*t.clients[1]);
    REQUIRE(t.clients[0]->request({{"type", "start_game"}, {"first_seat", 0}})["type"] == "ok");
    std::uint64_t seq = 1;
    for (int i = 0; i < 10; ++i) seq = step({t.clients[0].get(), t.clients[1].get()}, seq);
    ws_client tom(a.port);
    say_hello(tom, "Tom");
    before_spectator = join(tom, {{"type", "join_room"}, {"room", code}, {"as", "spectator"}}).log;
    t.clients[1]->close();
    auto ben = come_back(a.port, ben_token);
    before_player = join(*ben, {{"type", "join_room"}, {"room", code}}).log;
    CHECK(before_player["events"] == before_spectator["events"]);  // Happy Holidays hides nothing
    a.kill_hard();
  }
  {
    server_process b(durable_flags(dir));
    ws_client tom(b.port);
    say_hello(tom, "Tom");
    const auto spectator = join(tom, {{"type", "join_room"}, {"room", code}, {"as", "spectator"}});
    CHECK(spectator.log == before_spectator);
    auto ben = come_back(b.port, ben_token);
    const auto player = join(*ben, {{"type", "join_room"}, {"room", code}, {"last_seq", before_player["seq"]}});
    CHECK(player.log == before_player);
    CHECK(player.state["seq"] == before_player["seq"]);
    CHECK(player.state["events"].empty());  // missed nothing
    // Play the game to its end on the restarted server; its result names the players.
    auto oma = come_back(b.port, oma_token);
    REQUIRE(oma->request({{"type", "join_room"}, {"room", code}})["type"] == "ok");
    std::uint64_t seq = player.state["seq"];
    while (seq) seq = step({oma.get(), ben.get()}, seq);
    result = latest_state(*oma)["result"];
    CHECK(result["names"] == json::array({"Player 0", "Player 1"}));
    CHECK(result["record"].is_string());
    b.kill_hard();
  }
  {
    // The finished game after another crash: the same result, names and all, and its whole log.
    server_process c(durable_flags(dir));
    ws_client tom(c.port);
    say_hello(tom, "Tom");
    const auto after = join(tom, {{"type", "join_room"}, {"room", code}, {"as", "spectator"}});
    CHECK(after.state["result"] == result);
    CHECK(after.order == std::vector<std::string>{"ok", "room", "game_log", "state"});
    CHECK(after.log["events"][0]["kind"] == "game_started");
    CHECK(after.log["events"].back()["kind"] == "game_over");
    CHECK(after.log["events"].size() > before_spectator["events"].size());
  }
  std::filesystem::remove_all(dir);
}
