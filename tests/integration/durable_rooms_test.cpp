// Durable rooms: a server killed with SIGKILL in the middle of a game comes back on the same data
// folder with every room; players resume with their token and last_seq as after a network drop,
// nothing acknowledged is lost, the games play to the end, and their records replay to the same
// result. Also: SIGTERM restarts with 1012, a damaged database, a room whose journal does not
// replay, and the record check that tinsel-replay runs.
//
// The same tests run on both journals (tests/support/journal_store.hpp): integration_tests on
// SQLite, postgres_journal_tests on PostgreSQL. Those tagged [sqlite] are about SQLite's data
// folder and run on it only.
#include <catch2/catch.hpp>

#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <thread>

#include "../engine/legal_domains.hpp"
#include "journal_store.hpp"
#include "postgres_cluster.hpp"
#include "server_process.hpp"
#include "storage/pg.hpp"
#include "tinsel/protocol/game_record.hpp"
#include "ws_client.hpp"

using namespace tinsel::test;
using json = nlohmann::json;

namespace {

std::vector<std::string> server_flags(const journal_store& store) {
  auto f = store.flags();
  f.insert(f.end(), {"--rate-per-sec", "100000", "--rate-burst", "100000", "--auto-play-delay-ms", "20"});
  return f;
}

struct player {
  std::unique_ptr<ws_client> c;
  std::string token;
  json last;  // the last state seen
};

struct table {
  std::vector<player> ps;
  std::string code;
  std::vector<json> acked;  // {"seat","command"} of every action answered with ok, in order
};

// Reads every frame already there; keeps the newest state (seq never goes back).
void drain(player& p) {
  while (auto m = p.c->recv(std::chrono::milliseconds(0))) {
    if ((*m)["type"] != "state") continue;
    if (!p.last.is_null()) REQUIRE((*m)["seq"].get<std::uint64_t>() >= p.last["seq"].get<std::uint64_t>());
    p.last = *m;
  }
}

// Waits until this player has seen a state with at least `seq`.
void catch_up(player& p, std::uint64_t seq) {
  drain(p);
  while (p.last.is_null() || p.last["seq"].get<std::uint64_t>() < seq)
    p.last = p.c->expect([&](const json& m) { return m["type"] == "state" && m["seq"].get<std::uint64_t>() >= seq; },
                         "state " + std::to_string(seq), std::chrono::seconds(30));
  drain(p);
}

table seat_players(std::uint16_t port, int n, const std::string& game, const json& options) {
  table t;
  for (int i = 0; i < n; ++i) {
    player p;
    p.c = std::make_unique<ws_client>(port);
    p.token = say_hello(*p.c, "Player " + std::to_string(i))["token"];
    t.ps.push_back(std::move(p));
  }
  auto created = t.ps[0].c->request({{"type", "create_room"}, {"game", game}, {"options", options}});
  REQUIRE(created["type"] == "ok");
  t.code = created["room"];
  for (int i = 1; i < n; ++i) REQUIRE(t.ps[i].c->request({{"type", "join_room"}, {"room", t.code}})["type"] == "ok");
  REQUIRE(t.ps[0].c->request({{"type", "start_game"}})["type"] == "ok");
  for (auto& p : t.ps) catch_up(p, 1);
  return t;
}

// One move: a prompted seat sends one of its concrete legal commands (`prefer` first, if listed).
// Returns false when the game is over.
bool step(table& t, std::mt19937& rng, const std::string& prefer = "") {
  for (auto& p : t.ps) drain(p);
  for (int round = 0; round < 3000; ++round) {
    for (auto& p : t.ps) {
      if (p.last["over"] == true) return false;
      const json& st = p.last;
      const int me = st["seat"];
      if (st["prompt"].is_null() || st["legal"].empty()) continue;
      const auto& seats = st["prompt"]["seats"];
      const bool prompted = std::find(seats.begin(), seats.end(), json(me)) != seats.end();
      json legal = json::array();  // the domains written out: every reveal, channel, green move, flight
      for (const auto& e : legal_domains::expand(st["legal"]))
        if (!e.contains("domain") && (prompted || e["kind"] == prefer)) legal.push_back(e);
      if (legal.empty()) continue;
      json cmd = legal[std::uniform_int_distribution<std::size_t>(0, legal.size() - 1)(rng)];
      for (const auto& e : legal)
        if (!prefer.empty() && e["kind"] == prefer) cmd = e;
      auto reply = p.c->request({{"type", "action"}, {"action", cmd}}, std::chrono::seconds(30));
      if (reply["type"] == "ok") {
        t.acked.push_back({{"seat", me}, {"command", cmd}});
        const auto after = p.c->expect_type("state", std::chrono::seconds(30));
        p.last = after;
        for (auto& q : t.ps) catch_up(q, after["seq"].get<std::uint64_t>());
      }
      return true;
    }
    // Nobody may act: a timer or a server-played seat moves next.
    for (auto& p : t.ps) {
      if (auto m = p.c->recv(std::chrono::milliseconds(20)); m && (*m)["type"] == "state") p.last = *m;
    }
  }
  FAIL("nobody could move for a minute");
  return false;
}

// One sample of the server's /metrics, or -1 when it has none.
double metric(std::uint16_t metrics_port, const std::string& series) {
  const auto r = http_get(metrics_port, "/metrics");
  REQUIRE(r.status == 200);
  std::istringstream lines(r.body);
  for (std::string line; std::getline(lines, line);)
    if (line.starts_with(series + " ")) return std::stod(line.substr(series.size() + 1));
  return -1;
}

std::string journal_health(std::uint16_t port) { return json::parse(http_get(port, "/healthz").body)["journal"]; }

// The journal tries every second whether it can write again: until then rooms refuse requests.
void wait_until_writable(std::uint16_t port, const journal_store& store) {
  const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (journal_health(port) != store.health()) {
    REQUIRE(std::chrono::steady_clock::now() < until);
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
}

// The seat the open prompt waits for, and a concrete command it may send.
std::pair<player*, json> prompted(table& t) {
  for (auto& p : t.ps) {
    const auto& seats = p.last["prompt"]["seats"];
    if (std::find(seats.begin(), seats.end(), p.last["seat"]) == seats.end()) continue;
    for (const auto& e : p.last["legal"])
      if (!e.contains("domain")) return {&p, e};
  }
  FAIL("nobody is prompted");
  return {nullptr, nullptr};
}

std::uint64_t max_seq(const table& t) {
  std::uint64_t s = 0;
  for (const auto& p : t.ps) s = std::max(s, p.last["seq"].get<std::uint64_t>());
  return s;
}

// Every player reconnects to the restarted server with its token and last_seq.
void resume_all(table& t, std::uint16_t port) {
  for (auto& p : t.ps) {
    const auto last_seq = p.last["seq"].get<std::uint64_t>();
    p.c = std::make_unique<ws_client>(port);
    p.c->send({{"type", "hello"}, {"protocol", 1}, {"name", "again"}, {"token", p.token}});
    const auto welcome = p.c->expect_type("welcome", std::chrono::seconds(30));
    CHECK(welcome["resumed"] == true);
    CHECK(welcome["room"] == t.code);
    const auto ok = p.c->request({{"type", "join_room"}, {"room", t.code}, {"last_seq", last_seq}}, std::chrono::seconds(30));
    REQUIRE(ok["type"] == "ok");
    CHECK(ok["resumed"] == true);
    const auto st = p.c->expect_type("state", std::chrono::seconds(30));
    // Nothing this player saw is gone: the state goes on from where it was, without a gap.
    REQUIRE(st["seq"].get<std::uint64_t>() >= last_seq);
    if (st["seq"].get<std::uint64_t>() > last_seq) CHECK(st["replayed_from"] == last_seq + 1);
    p.last = st;
  }
}

// The record of the finished game, downloaded as the results screen does.
json download_record(std::uint16_t port, const json& result) {
  REQUIRE(result.contains("record"));
  const auto res = http_get(port, "/records/" + result["record"].get<std::string>());
  REQUIRE(res.status == 200);
  return json::parse(res.body);
}

// Every acknowledged command is in the record, in order.
void check_acknowledged_in_record(const table& t, const json& record) {
  std::size_t next = 0;
  for (const auto& e : record["commands"])
    if (next < t.acked.size() && e["kind"] == "command" && e["seat"] == t.acked[next]["seat"] &&
        e["command"] == t.acked[next]["command"])
      ++next;
  CHECK(next == t.acked.size());
}

void finish_and_verify(table& t, std::uint16_t port, std::mt19937& rng) {
  while (step(t, rng)) {
  }
  for (auto& p : t.ps) catch_up(p, max_seq(t));
  const json result = t.ps[0].last["result"];
  for (const auto& p : t.ps) CHECK(p.last["result"] == result);
  const auto record = download_record(port, result);
  check_acknowledged_in_record(t, record);
  const auto check = tinsel::protocol::check_record(record);
  INFO(check.why);
  REQUIRE(check.ok);
  for (const auto& [k, v] : check.result.items()) CHECK(result[k] == v);
}

}  // namespace

TEST_CASE("durable rooms: Happy Holidays survives kill -9 mid-game and plays to the end", "[durable][integration]") {
  journal_store store;
  std::mt19937 rng(11);
  table t;
  std::uint64_t seen = 0;
  {
    server_process a(server_flags(store));
    t = seat_players(a.port, 3, "happy_holidays", {{"maxPlayers", 3}, {"giftsPerColour", 5}});
    for (int i = 0; i < 15; ++i) REQUIRE(step(t, rng));
    seen = max_seq(t);
    a.kill_hard();
  }
  server_process b(server_flags(store));
  CHECK(b.log_lines_containing("rooms recovered rooms=1 set_aside=0") == 1);
  resume_all(t, b.port);
  CHECK(max_seq(t) >= seen);
  finish_and_verify(t, b.port, rng);
}

TEST_CASE("durable rooms: Christmas Penguins survives kill -9 with a Stop! pending", "[durable][integration]") {
  journal_store store;
  std::mt19937 rng(12);
  table t;
  int claimant = -1;
  {
    server_process a(server_flags(store));
    t = seat_players(a.port, 3, "christmas_penguins",
                     {{"maxRounds", 40}, {"stones", "4/4/4"}, {"reactionWindowMs", 60000}, {"stopSeconds", 600},
                      {"mainTimeoutSec", 600}, {"subPromptTimeoutSec", 600}});
    // Play until somebody shouts "Stop!" and it is granted.
    for (int i = 0; i < 400 && claimant < 0; ++i) {
      REQUIRE(step(t, rng, "stop"));
      const auto& pr = t.ps[0].last["prompt"];
      if (!pr.is_null() && pr["kind"] == "stopped") claimant = pr["seats"][0];
    }
    REQUIRE(claimant >= 0);
    a.kill_hard();
  }
  server_process b(server_flags(store));
  resume_all(t, b.port);
  for (const auto& p : t.ps) {
    CHECK(p.last["prompt"]["kind"] == "stopped");
    CHECK(p.last["prompt"]["seats"] == json::array({claimant}));
  }
  finish_and_verify(t, b.port, rng);
}

TEST_CASE("durable rooms: Unterm Baum survives kill -9 during MEMORIZE", "[durable][integration]") {
  journal_store store;
  std::mt19937 rng(13);
  table t;
  {
    server_process a(server_flags(store));
    t = seat_players(a.port, 3, "unterm_baum",
                     {{"maxPlayers", 3}, {"cardsToRemember", 8}, {"assignSeconds", 600}, {"memorizeSeconds", 3},
                      {"mainTimeoutSec", 600}, {"maxRounds", 2}});
    // Everyone writes a wish list; then the memorize timer runs.
    for (int i = 0; i < 20 && t.ps[0].last["prompt"]["kind"] != "memorize"; ++i) REQUIRE(step(t, rng));
    REQUIRE(t.ps[0].last["prompt"]["kind"] == "memorize");
    a.kill_hard();
  }
  server_process b(server_flags(store));
  resume_all(t, b.port);
  for (const auto& p : t.ps) CHECK(p.last["prompt"]["kind"] == "memorize");
  finish_and_verify(t, b.port, rng);
}

// A server before rearrangesPerTurn stored the options without it, in every record, and hashed game
// states whose options lacked it (the engine leaves the option out of the state at its default:
// engine test "UB rearrangesPerTurn at its default stays out of full_state"). Such a journal, made
// here by taking the option out of the stored records, replays: the game goes on and the rooms show
// every option again (received frames are checked against the schemas, which require them all).
TEST_CASE("durable rooms: an Unterm Baum journal written before rearrangesPerTurn comes back", "[durable][integration][unterm_baum]") {
  journal_store store;
  std::mt19937 rng(16);
  table t;
  player host;
  std::string lobby_code;
  {
    server_process a(server_flags(store));
    t = seat_players(a.port, 2, "unterm_baum",
                     {{"maxPlayers", 2}, {"assignSeconds", 600}, {"memorizeSeconds", 1}, {"mainTimeoutSec", 600}});
    // Past the first state hash of the journal (one every 32 game records).
    while (t.acked.size() < 40) REQUIRE(step(t, rng));
    host.c = std::make_unique<ws_client>(a.port);
    host.token = say_hello(*host.c, "Oma")["token"];
    const auto created = host.c->request({{"type", "create_room"}, {"game", "unterm_baum"}, {"options", {{"maxPlayers", 3}}}});
    REQUIRE(created["type"] == "ok");
    lobby_code = created["room"];
    REQUIRE(a.terminate() == 0);
  }
  {
    // created, lobby and started of the game; created and lobby of the waiting room.
    int changed = 0;
    for (const auto& room : {t.code, lobby_code})
      for (const auto& e : store.entries(room)) {
        auto body = json::parse(e.body);
        if (!body.contains("options") || body["options"].value("rearrangesPerTurn", 0) != 20) continue;
        body["options"].erase("rearrangesPerTurn");
        changed += store.set_body(room, e.id, body.dump());
      }
    CHECK(changed >= 5);
    int started_without = 0, hashed = 0;
    for (const auto& e : store.entries(t.code)) {
      const auto body = json::parse(e.body);
      started_without += e.kind == "started" && !body["options"].contains("rearrangesPerTurn");
      hashed += body.contains("hash");
    }
    CHECK(started_without == 1);
    CHECK(hashed >= 1);
  }
  server_process b(server_flags(store));
  CHECK(b.log_lines_containing("room set aside") == 0);
  resume_all(t, b.port);
  // The waiting room shows all its options, the one its journal lacks at its default.
  host.c = std::make_unique<ws_client>(b.port);
  host.c->send({{"type", "hello"}, {"protocol", 1}, {"name", "Oma"}, {"token", host.token}});
  CHECK(host.c->expect_type("welcome", std::chrono::seconds(30))["room"] == lobby_code);
  REQUIRE(host.c->request({{"type", "join_room"}, {"room", lobby_code}}, std::chrono::seconds(30))["type"] == "ok");
  const auto pushed = host.c->expect_type("room", std::chrono::seconds(30));
  CHECK(pushed["room"]["options"]["rearrangesPerTurn"] == 20);
  CHECK(pushed["room"]["options"]["maxPlayers"] == 3);
  finish_and_verify(t, b.port, rng);
}

TEST_CASE("durable rooms: SIGTERM closes with 1012 and the players continue after the restart", "[durable][integration]") {
  journal_store store;
  std::mt19937 rng(14);
  table t;
  {
    server_process a(server_flags(store));
    t = seat_players(a.port, 2, "happy_holidays", {{"maxPlayers", 2}, {"giftsPerColour", 5}});
    for (int i = 0; i < 6; ++i) REQUIRE(step(t, rng));
    REQUIRE(t.ps[1].c->request({{"type", "chat"}, {"text", "Frohe Weihnachten!"}})["type"] == "ok");
    REQUIRE(a.terminate() == 0);
    for (auto& p : t.ps) CHECK(p.c->wait_closed(std::chrono::seconds(30)) == 1012);
  }
  server_process b(server_flags(store));
  resume_all(t, b.port);
  // The chat is still there: a relative who comes to watch gets it with the room.
  ws_client uncle(b.port);
  say_hello(uncle, "Onkel Tom");
  REQUIRE(uncle.request({{"type", "join_room"}, {"room", t.code}, {"as", "spectator"}})["type"] == "ok");
  const auto history = uncle.expect_type("chat_history");
  REQUIRE(history["messages"].size() == 1);
  CHECK(history["messages"][0]["text"] == "Frohe Weihnachten!");
  CHECK(history["messages"][0]["from"]["name"] == "Player 1");
  finish_and_verify(t, b.port, rng);
}

TEST_CASE("durable rooms: a damaged database is set aside and the server starts", "[durable][integration][sqlite]") {
  journal_store store;
  const auto& dir = store.dir();
  {
    std::ofstream bad(dir + "/tinsel.db", std::ios::binary);
    bad << std::string(8192, 'x');
  }
  server_process s(server_flags(store));
  CHECK(s.log_lines_containing("journal database is damaged") == 1);
  bool kept = false;
  for (const auto& f : std::filesystem::directory_iterator(dir)) kept |= f.path().filename().string().starts_with("tinsel.db.corrupt-");
  CHECK(kept);
  CHECK(json::parse(http_get(s.port, "/healthz").body)["journal"] == "sqlite");
  // And it serves: a room can be created and played in.
  ws_client c(s.port);
  say_hello(c, "Anna");
  CHECK(c.request({{"type", "create_room"}, {"game", "happy_holidays"}})["type"] == "ok");
}

TEST_CASE("durable rooms: a room whose journal does not replay is set aside and the others come back", "[durable][integration]") {
  journal_store store;
  std::mt19937 rng(15);
  table good, bad;
  {
    server_process a(server_flags(store));
    good = seat_players(a.port, 2, "happy_holidays", {{"maxPlayers", 2}});
    bad = seat_players(a.port, 2, "happy_holidays", {{"maxPlayers", 2}});
    for (int i = 0; i < 4; ++i) REQUIRE(step(good, rng));
    for (int i = 0; i < 4; ++i) REQUIRE(step(bad, rng));
    REQUIRE(a.terminate() == 0);
  }
  // Tamper with the second room's first command, as a damaged disk or a bad edit would.
  {
    const auto first = store.nth(bad.code, "command", 0);
    auto body = json::parse(first.body);
    body["seat"] = 7;
    REQUIRE(store.set_body(bad.code, first.id, body.dump()) == 1);
  }
  server_process b(server_flags(store));
  CHECK(b.log_lines_containing("room set aside: its journal does not replay room=" + bad.code) == 1);
  resume_all(good, b.port);
  finish_and_verify(good, b.port, rng);
  ws_client c(b.port);
  c.send({{"type", "hello"}, {"protocol", 1}, {"name", "x"}, {"token", bad.ps[0].token}});
  c.expect_type("welcome");
  CHECK(c.request({{"type", "join_room"}, {"room", bad.code}})["code"] == "room_unavailable");
}

TEST_CASE("game records: an honest record is confirmed and an altered command or seed is rejected", "[durable][records]") {
  journal_store store;
  std::mt19937 rng(16);
  server_process s(server_flags(store));
  table t = seat_players(s.port, 2, "happy_holidays", {{"maxPlayers", 2}, {"giftsPerColour", 5}});
  // The commitment is shown when the game starts, before any die is rolled.
  const json first = t.ps[1].last;
  REQUIRE(first["seq"] == 1);
  REQUIRE(first["events"][0]["kind"] == "game_started");
  const auto commitment = first["events"][0]["commitment"];
  while (step(t, rng)) {
  }
  for (auto& p : t.ps) catch_up(p, max_seq(t));
  const auto record = download_record(s.port, t.ps[0].last["result"]);
  CHECK(tinsel::protocol::check_record(record).ok);
  CHECK(record["commitment"] == commitment);

  auto seed_changed = record;
  seed_changed["seed"] = std::to_string(std::stoull(record["seed"].get<std::string>()) ^ 1);
  auto c1 = tinsel::protocol::check_record(seed_changed);
  CHECK_FALSE(c1.ok);
  CHECK(c1.why.find("commitment") != std::string::npos);

  // A roll changed into another command, or a command moved to another seat.
  auto command_changed = record;
  auto& cmds = command_changed["commands"];
  for (auto& e : cmds)
    if (e["kind"] == "command") {
      e["seat"] = (e["seat"].get<int>() + 1) % 2;
      break;
    }
  CHECK_FALSE(tinsel::protocol::check_record(command_changed).ok);

  auto result_changed = record;
  result_changed["result"]["winners"] = json::array({5});
  CHECK_FALSE(tinsel::protocol::check_record(result_changed).ok);
  CHECK(http_get(s.port, "/records/0000000000000000").status == 404);
  CHECK(http_get(s.port, "/records/..%2f..%2fetc").status == 404);
}

TEST_CASE("durable rooms: a data folder that cannot be created leaves the server running without a journal",
          "[durable][integration][sqlite]") {
  // /proc refuses new folders even to root.
  server_process s({"--data-dir", "/proc/tinsel-cannot-be-here", "--log-level", "info"});
  CHECK(s.log_lines_containing("journal unavailable, rooms will NOT survive a restart") == 1);
  CHECK(json::parse(http_get(s.port, "/healthz").body)["journal"] == "unavailable");
  ws_client c(s.port);
  say_hello(c, "Anna");
  CHECK(c.request({{"type", "create_room"}, {"game", "happy_holidays"}})["type"] == "ok");
}

TEST_CASE("durable rooms: a command the journal cannot write is refused and seen by nobody and the room goes on",
          "[durable][integration]") {
  journal_store store;
  std::mt19937 rng(17);
  server_process s(server_flags(store));
  table t = seat_players(s.port, 2, "happy_holidays", {{"maxPlayers", 2}, {"giftsPerColour", 5}});
  for (int i = 0; i < 3; ++i) REQUIRE(step(t, rng));
  for (auto& p : t.ps) drain(p);
  const auto seq_before = max_seq(t);
  // Another process holds the database's write lock (as a stuck backup tool might): the writer
  // waits its busy timeout (5 s; PostgreSQL: lock_timeout), then gives up.
  auto held = store.hold_writes();
  player* mover = nullptr;
  for (auto& p : t.ps) {
    const auto& seats = p.last["prompt"]["seats"];
    if (std::find(seats.begin(), seats.end(), p.last["seat"]) != seats.end()) mover = &p;
  }
  REQUIRE(mover != nullptr);
  json cmd;
  for (const auto& e : mover->last["legal"])
    if (!e.contains("domain")) cmd = e;
  const auto reply = mover->c->request({{"type", "action"}, {"action", cmd}}, std::chrono::seconds(60));
  CHECK(reply["type"] == "error");
  CHECK(reply["code"] == "storage_failed");
  held.reset();
  // Everyone is resynced to the state before the refused command; nobody saw it applied.
  for (auto& p : t.ps) {
    const auto st = p.c->expect([](const json& m) { return m["type"] == "state" && m.value("resync", false); }, "resync",
                                std::chrono::seconds(30));
    CHECK(st["seq"] == seq_before);
    p.last = st;
  }
  CHECK(s.log_lines_containing("journal write failed") == 1);  // the journal says it; the room only at debug
  // The same command goes through once the journal writes again, and the game plays to its end.
  wait_until_writable(s.port, store);
  CHECK(mover->c->request({{"type", "action"}, {"action", cmd}}, std::chrono::seconds(30))["type"] == "ok");
  finish_and_verify(t, s.port, rng);
  CHECK(s.log_lines_containing("journal writes again") == 1);
}

TEST_CASE("durable rooms: while the journal cannot write requests are refused before they run (said once and no rebuild each) "
          "and the room goes on where it was",
          "[durable][integration]") {
  journal_store store;
  std::mt19937 rng(23);
  server_process s(server_flags(store));
  REQUIRE(s.metrics_port != 0);
  table t = seat_players(s.port, 2, "happy_holidays", {{"maxPlayers", 2}, {"giftsPerColour", 5}});
  for (int i = 0; i < 3; ++i) REQUIRE(step(t, rng));
  for (auto& p : t.ps) drain(p);
  const auto seq_before = max_seq(t);
  CHECK(journal_health(s.port) == store.health());
  CHECK(metric(s.metrics_port, "tinsel_journal_writable") == 1);

  // A held write lock (a stuck backup tool): the first write waits its busy timeout and fails; the
  // room goes back to its journal once.
  auto held = store.hold_writes();
  auto [mover, cmd] = prompted(t);
  const auto first = mover->c->request({{"type", "action"}, {"action", cmd}}, std::chrono::seconds(60));
  CHECK(first["code"] == "storage_failed");
  for (auto& p : t.ps) {
    p.last = p.c->expect([](const json& m) { return m["type"] == "state" && m.value("resync", false); }, "resync",
                         std::chrono::seconds(30));
    CHECK(p.last["seq"] == seq_before);
  }
  CHECK(metric(s.metrics_port, "tinsel_room_rebuilds_total") == 1);
  CHECK(metric(s.metrics_port, "tinsel_journal_writable") == 0);
  CHECK(journal_health(s.port) == "failing");
  ws_client newcomer(s.port);
  say_hello(newcomer, "Tante");
  const auto log_lines = s.log_lines_containing("");

  // 40 more requests from both players (moves and chat): each refused at once, no log line, no
  // rebuild, nothing sent to anyone but the sender's error.
  constexpr int refused = 40;
  for (int i = 0; i < refused; ++i) {
    auto& p = t.ps[static_cast<std::size_t>(i) % t.ps.size()];
    const json req = &p == mover ? json{{"type", "action"}, {"action", cmd}} : json{{"type", "chat"}, {"text", "hello?"}};
    const auto reply = p.c->request(req, std::chrono::seconds(30));
    CHECK(reply["type"] == "error");
    CHECK(reply["code"] == "storage_failed");
  }
  // Nor is a new room made that could not be saved.
  for (int i = 0; i < 5; ++i)
    CHECK(newcomer.request({{"type", "create_room"}, {"game", "happy_holidays"}})["code"] == "storage_failed");
  CHECK(metric(s.metrics_port, "tinsel_room_rebuilds_total") == 1);
  CHECK(metric(s.metrics_port, "tinsel_storage_refused_total") == 1 + refused + 5);
  CHECK(s.log_lines_containing("") == log_lines);
  CHECK(s.log_lines_containing("journal write failed") == 1);
  for (auto& p : t.ps) {
    while (auto m = p.c->recv(std::chrono::milliseconds(0))) CHECK((*m)["type"] == "error");  // late replies only
  }

  // The lock goes; the journal notices by itself (it tries every second) and says so once.
  held.reset();
  wait_until_writable(s.port, store);
  CHECK(metric(s.metrics_port, "tinsel_journal_writable") == 1);
  CHECK(metric(s.metrics_port, "tinsel_journal_failures_total") == 1);
  CHECK(s.log_lines_containing("journal writes again") == 1);
  // The room goes on from where it was: the same command now, then the game to its end, with every
  // acknowledged command in its record.
  const auto ok = mover->c->request({{"type", "action"}, {"action", cmd}}, std::chrono::seconds(30));
  REQUIRE(ok["type"] == "ok");
  t.acked.push_back({{"seat", mover->last["seat"]}, {"command", cmd}});
  mover->last = mover->c->expect_type("state", std::chrono::seconds(30));
  CHECK(mover->last["seq"] == seq_before + 1);
  finish_and_verify(t, s.port, rng);
  CHECK(metric(s.metrics_port, "tinsel_room_rebuilds_total") == 1);
}

TEST_CASE("game records: a record older than --keep-records-days is gone while the server runs", "[durable][records]") {
  journal_store store;
  std::mt19937 rng(29);
  auto flags = server_flags(store);
  flags.insert(flags.end(), {"--keep-records-days", "2"});
  server_process s(flags);
  const auto play_one = [&] {
    table t = seat_players(s.port, 2, "happy_holidays", {{"maxPlayers", 2}, {"giftsPerColour", 5}});
    finish_and_verify(t, s.port, rng);
    return t.ps[0].last["result"]["record"].get<std::string>();
  };
  const auto old_record = play_one();
  CHECK(http_get(s.port, "/records/" + old_record).status == 200);

  // Three days pass for that record (its finish time moved back in the database itself).
  store.age_record(old_record, 3);
  REQUIRE(store.records(old_record) == 1);
  // Past its days it is no longer served, and the next game that ends takes it out of the file.
  CHECK(http_get(s.port, "/records/" + old_record).status == 404);
  const auto new_record = play_one();
  CHECK(store.records(old_record) == 0);
  CHECK(store.records(new_record) == 1);
  CHECK(http_get(s.port, "/records/" + new_record).status == 200);
}

// PostgreSQL only (postgres_journal_tests): what a database server adds to the journal's faults.
namespace {

// Runs tinsel-server with `args` to its end (it is expected not to start); its exit status and
// everything it wrote.
std::pair<int, std::string> run_server_to_end(std::vector<std::string> args) {
  args.insert(args.begin(), {TINSEL_SERVER_BINARY, "--port", "0", "--metrics-bind", "off"});
  char out[] = "/tmp/tinsel-pg-start-XXXXXX";
  const int fd = ::mkstemp(out);
  REQUIRE(fd >= 0);
  ::close(fd);
  std::string line;
  for (const auto& a : args) line += "'" + a + "' ";
  const int status = std::system((line + ">'" + out + "' 2>&1").c_str());
  std::ifstream in(out);
  std::string text((std::istreambuf_iterator<char>(in)), {});
  std::filesystem::remove(out);
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, text};
}

std::size_t lines_of(const std::string& text) { return static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n')); }

}  // namespace

TEST_CASE("postgres journal: a database that cannot be used stops the start with one clear line and no password",
          "[durable][postgres]") {
  REQUIRE(journal_under_test() == journal_kind::postgres);
  // No such server (its socket folder does not exist): exit 1, one line naming the database.
  const auto [code, out] =
      run_server_to_end({"--journal", "postgres", "--postgres", "host=/nonexistent/tinsel user=oma password=Geheim123 dbname=tinsel"});
  INFO(out);
  CHECK(code == 1);
  CHECK(out.find("cannot use the PostgreSQL database host=/nonexistent/tinsel dbname=tinsel user=oma") != std::string::npos);
  CHECK(out.find("Geheim123") == std::string::npos);
  CHECK(lines_of(out) == 1);
  // Not a connection string at all; nor does the password show in what libpq quotes of it.
  const auto [code2, out2] = run_server_to_end({"--journal", "postgres", "--postgres", "password=Geheim123 dbname"});
  INFO(out2);
  CHECK(code2 == 1);
  CHECK(out2.find("not a libpq connection string") != std::string::npos);
  CHECK(out2.find("Geheim123") == std::string::npos);
  CHECK(lines_of(out2) == 1);
  // --journal postgres without --postgres: a usage error (2), before anything starts.
  const auto [code3, out3] = run_server_to_end({"--journal", "postgres"});
  CHECK(code3 == 2);
  CHECK(out3.find("--journal postgres needs --postgres") != std::string::npos);
}

TEST_CASE("postgres journal: the server creates its schema with a version and refuses a newer one", "[durable][postgres]") {
  REQUIRE(journal_under_test() == journal_kind::postgres);
  journal_store store;
  {
    server_process a(server_flags(store));
    // Version 1: the journal; version 2: cluster mode's instances and room owners; version 3:
    // the limits counted across a cluster.
    CHECK(a.log_lines_containing("journal schema migrated to version=1") == 1);
    CHECK(a.log_lines_containing("journal schema migrated to version=2") == 1);
    CHECK(a.log_lines_containing("journal schema migrated to version=3") == 1);
    REQUIRE(a.terminate() == 0);
  }
  {
    server_process again(server_flags(store));  // already there: nothing to migrate
    CHECK(again.log_lines_containing("journal schema migrated") == 0);
    CHECK(journal_health(again.port) == "postgres");
    REQUIRE(again.terminate() == 0);
  }
  {
    tinsel::server::storage::pg::connection c(store.conninfo());
    CHECK(c.exec("SELECT max(version) FROM schema_version").integer(0, 0) == 3);
    c.exec("INSERT INTO schema_version(version) VALUES (99)");
  }
  const auto [code, out] = run_server_to_end(store.flags());
  INFO(out);
  CHECK(code == 1);
  CHECK(out.find("the database's schema is version 99, newer than this server's (3)") != std::string::npos);
}

TEST_CASE("postgres journal: a database that goes away mid-game fails commands with storage_failed and the room goes on "
          "where it was once it is back",
          "[durable][postgres]") {
  REQUIRE(journal_under_test() == journal_kind::postgres);
  // power: synchronous_commit on, every acknowledged commit is in the database's WAL. process:
  // off, a crash of the database loses its last commits, and the journal writes the rooms it lost
  // again from memory once it is connected again.
  const std::string durability = GENERATE(as<std::string>{}, "power", "process");
  INFO("--durability " << durability);
  postgres_cluster own;  // stopped and started by this test alone
  journal_store store(&own);
  std::mt19937 rng(31);
  auto flags = server_flags(store);
  flags.insert(flags.end(), {"--durability", durability});
  server_process s(flags);
  table t = seat_players(s.port, 2, "happy_holidays", {{"maxPlayers", 2}, {"giftsPerColour", 5}});
  for (int i = 0; i < 5; ++i) REQUIRE(step(t, rng));
  REQUIRE(t.ps[1].c->request({{"type", "chat"}, {"text", "gleich geht's weiter"}})["type"] == "ok");
  for (auto& p : t.ps) drain(p);
  const auto seq_before = max_seq(t);

  own.crash();  // pg_ctl stop -m immediate
  auto [mover, cmd] = prompted(t);
  const auto first = mover->c->request({{"type", "action"}, {"action", cmd}}, std::chrono::seconds(60));
  CHECK(first["code"] == "storage_failed");
  // The room went back to what the journal holds, though the database cannot be read now.
  for (auto& p : t.ps) {
    p.last = p.c->expect([](const json& m) { return m["type"] == "state" && m.value("resync", false); }, "resync",
                         std::chrono::seconds(30));
    CHECK(p.last["seq"] == seq_before);
  }
  CHECK(journal_health(s.port) == "failing");
  for (int i = 0; i < 5; ++i) {
    CHECK(mover->c->request({{"type", "action"}, {"action", cmd}}, std::chrono::seconds(30))["code"] == "storage_failed");
    CHECK(t.ps[1].c->request({{"type", "chat"}, {"text", "hallo?"}}, std::chrono::seconds(30))["code"] == "storage_failed");
  }
  CHECK(s.log_lines_containing("journal write failed") == 1);
  CHECK(s.log_lines_containing("room set aside") == 0);

  own.restart();
  wait_until_writable(s.port, store);
  CHECK(s.log_lines_containing("journal writes again") == 1);
  const auto ok = mover->c->request({{"type", "action"}, {"action", cmd}}, std::chrono::seconds(30));
  INFO(ok.dump());
  REQUIRE(ok["type"] == "ok");
  t.acked.push_back({{"seat", mover->last["seat"]}, {"command", cmd}});
  mover->last = mover->c->expect_type("state", std::chrono::seconds(30));
  CHECK(mover->last["seq"] == seq_before + 1);
  for (int i = 0; i < 5; ++i) REQUIRE(step(t, rng));

  // Nothing acknowledged is lost: a kill -9 now, and the next server has every command and the chat.
  s.kill_hard();
  server_process b(flags);
  resume_all(t, b.port);
  ws_client uncle(b.port);
  say_hello(uncle, "Onkel Tom");
  REQUIRE(uncle.request({{"type", "join_room"}, {"room", t.code}, {"as", "spectator"}})["type"] == "ok");
  CHECK(uncle.expect_type("chat_history")["messages"].size() == 1);
  finish_and_verify(t, b.port, rng);
}

TEST_CASE("postgres journal: with process durability a room whose last commits the crashed database lost is written again "
          "from memory",
          "[durable][postgres]") {
  REQUIRE(journal_under_test() == journal_kind::postgres);
  postgres_cluster own;
  journal_store store(&own);
  std::mt19937 rng(37);
  auto flags = server_flags(store);
  flags.insert(flags.end(), {"--durability", "process"});
  server_process s(flags);
  table t = seat_players(s.port, 2, "happy_holidays", {{"maxPlayers", 2}, {"giftsPerColour", 5}});
  for (int i = 0; i < 6; ++i) REQUIRE(step(t, rng));
  for (auto& p : t.ps) drain(p);
  // What synchronous_commit off can cost in a crash of the database, made certain: its last three
  // records are gone from the database, and then it crashes and comes back.
  {
    tinsel::server::storage::pg::connection c(store.conninfo());
    REQUIRE(c.exec("DELETE FROM entries WHERE room = $1 AND n > (SELECT head - 3 FROM rooms WHERE code = $1)", {t.code}).affected() == 3);
    c.exec("UPDATE rooms SET head = head - 3 WHERE code = $1", {t.code});
  }
  own.crash();
  own.restart();
  // The next command finds the connection gone, connects again, puts the room back, and goes through.
  for (int i = 0; i < 3; ++i) REQUIRE(step(t, rng));
  INFO(s.log());
  CHECK(s.log_lines_containing("journal room written again") == 1);
  CHECK(s.log_lines_containing("room=" + t.code + " head_in_database=") == 1);
  // Nothing acknowledged is lost: the next server replays every command.
  s.kill_hard();
  server_process b(flags);
  CHECK(b.log_lines_containing("room set aside") == 0);
  resume_all(t, b.port);
  finish_and_verify(t, b.port, rng);
}
