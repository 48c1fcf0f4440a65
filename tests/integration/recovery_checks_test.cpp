// Every integrity check of the recovery path, each exercised by a journal that fails exactly that
// check: the room's journal is edited (as a damaged disk or a bad hand edit would) while the
// server is stopped, into something well-formed that only the check under test refuses. The
// documented outcome (docs/operations.md, "The journal"): that room is logged as set aside with
// the check's reason, its code answers `room_unavailable` (also after a further restart), and the
// other room of the same data folder comes back.
//
// The checks (server/src/rooms/lobby.cpp recover, server/src/rooms/room_journal.cpp restore):
// a first record that creates a known game; every record a JSON object; a known kind; the
// fields each kind needs; a game that starts again from its `started` record; game records only
// inside a game; every game record accepted by the engine; each game record's seq following the
// previous one; the stored state hashes; an `ended` record only where the replayed game is over;
// and a replayed game that is over has its `ended` record.
//
// Edits go through tests/support/journal_store.hpp, so the same checks run on SQLite
// (integration_tests) and PostgreSQL (postgres_journal_tests).
#include <catch2/catch.hpp>

#include <stdlib.h>

#include <filesystem>
#include <functional>
#include <random>

#include "journal_store.hpp"
#include "server_process.hpp"
#include "ws_client.hpp"

using namespace tinsel::test;
using json = nlohmann::json;

namespace {

std::vector<std::string> flags(const journal_store& store) {
  auto f = store.flags();
  f.insert(f.end(), {"--rate-per-sec", "100000", "--rate-burst", "100000"});
  return f;
}

struct player {
  std::unique_ptr<ws_client> c;
  std::string token;
  json last;  // the newest state seen
};

struct table {
  std::vector<player> ps;
  std::string code;
};

void drain(player& p) {
  while (auto m = p.c->recv(std::chrono::milliseconds(0)))
    if ((*m)["type"] == "state") p.last = *m;
}

void catch_up(player& p, std::uint64_t seq) {
  drain(p);
  if (p.last.is_null() || p.last["seq"].get<std::uint64_t>() < seq)
    p.last = p.c->expect([&](const json& m) { return m["type"] == "state" && m["seq"].get<std::uint64_t>() >= seq; },
                         "state " + std::to_string(seq), std::chrono::seconds(60));
  drain(p);
}

table two_players(std::uint16_t port, const json& options) {
  table t;
  for (int i = 0; i < 2; ++i) {
    player p;
    p.c = std::make_unique<ws_client>(port);
    p.token = say_hello(*p.c, "Player " + std::to_string(i))["token"];
    t.ps.push_back(std::move(p));
  }
  const auto created = t.ps[0].c->request({{"type", "create_room"}, {"game", "happy_holidays"}, {"options", options}});
  REQUIRE(created["type"] == "ok");
  t.code = created["room"];
  REQUIRE(t.ps[1].c->request({{"type", "join_room"}, {"room", t.code}})["type"] == "ok");
  REQUIRE(t.ps[0].c->request({{"type", "start_game"}})["type"] == "ok");
  for (auto& p : t.ps) catch_up(p, 1);
  return t;
}

// One command by a prompted seat (a random concrete legal one). False once the game is over.
// Happy Holidays between two connected players never waits for a timer, so someone can always move.
bool step(table& t, std::mt19937& rng) {
  for (auto& p : t.ps) drain(p);
  for (auto& p : t.ps) {
    const json& st = p.last;
    if (st["over"] == true) return false;
    if (st["prompt"].is_null()) continue;
    const auto& seats = st["prompt"]["seats"];
    if (std::find(seats.begin(), seats.end(), st["seat"]) == seats.end()) continue;
    json legal = json::array();
    for (const auto& e : st["legal"])
      if (!e.contains("domain")) legal.push_back(e);
    if (legal.empty()) continue;
    const json cmd = legal[std::uniform_int_distribution<std::size_t>(0, legal.size() - 1)(rng)];
    const auto reply = p.c->request({{"type", "action"}, {"action", cmd}}, std::chrono::seconds(60));
    REQUIRE(reply["type"] == "ok");
    const auto after = p.c->expect_type("state", std::chrono::seconds(60));
    p.last = after;
    for (auto& q : t.ps) catch_up(q, after["seq"].get<std::uint64_t>());
    return true;
  }
  FAIL("no seat of the table is prompted with a concrete command");
  return false;
}

// Two rooms on one data folder, `bad` played `bad_steps` commands (to the end if negative) and
// `good` a few; the server stops; `tamper` edits bad's journal; a new server on the folder must set
// exactly `bad` aside for `reason` and bring `good` back; a third start keeps it set aside.
void expect_set_aside(int bad_steps, const json& bad_options, const std::function<void(journal_store&, const std::string&)>& tamper,
                      const std::string& reason) {
  journal_store store;
  std::mt19937 rng(30);
  table good, bad;
  std::uint64_t good_seq = 0;
  {
    server_process a(flags(store));
    good = two_players(a.port, {{"maxPlayers", 2}});
    bad = two_players(a.port, bad_options);
    for (int i = 0; i < 3; ++i) REQUIRE(step(good, rng));
    if (bad_steps < 0) {
      while (step(bad, rng)) {
      }
    } else {
      for (int i = 0; i < bad_steps; ++i) REQUIRE(step(bad, rng));
    }
    good_seq = good.ps[0].last["seq"].get<std::uint64_t>();
    REQUIRE(a.terminate() == 0);
  }
  tamper(store, bad.code);
  for (int start = 0; start < 2; ++start) {
    INFO("start " << start + 1 << " after the edit");
    server_process b(flags(store));
    CHECK(b.log_lines_containing("room set aside: its journal does not replay room=" + bad.code + " reason=\"" +
                                 reason) == (start == 0 ? 1u : 0u));
    CHECK(b.log_lines_containing("room set aside") == (start == 0 ? 1u : 0u));
    CHECK(b.log_lines_containing("rooms recovered rooms=1 set_aside=" + std::to_string(start == 0 ? 1 : 0)) == 1);
    // The other room is back where it was.
    ws_client g(b.port);
    g.send({{"type", "hello"}, {"protocol", 1}, {"name", "again"}, {"token", good.ps[0].token}});
    CHECK(g.expect_type("welcome", std::chrono::seconds(60))["resumed"] == true);
    const auto ok = g.request({{"type", "join_room"}, {"room", good.code}, {"last_seq", good_seq}}, std::chrono::seconds(60));
    REQUIRE(ok["type"] == "ok");
    CHECK(g.expect_type("state", std::chrono::seconds(60))["seq"] == good_seq);
    // The set-aside room answers room_unavailable, to its own players too.
    ws_client c(b.port);
    c.send({{"type", "hello"}, {"protocol", 1}, {"name", "x"}, {"token", bad.ps[0].token}});
    c.expect_type("welcome", std::chrono::seconds(60));
    CHECK(c.request_unchecked({{"type", "join_room"}, {"room", bad.code}}, std::chrono::seconds(60))["code"] ==
          "room_unavailable");
    REQUIRE(b.terminate() == 0);
  }
}

const json two_seats = {{"maxPlayers", 2}};

// The room's `n`th (0-based) record of `kind`, edited by `edit` (on its parsed body).
void edit_nth(journal_store& db, const std::string& room, const std::string& kind, int n, const std::function<void(json&)>& edit) {
  const auto e = db.nth(room, kind, n);
  auto body = json::parse(e.body);
  edit(body);
  REQUIRE(db.set_body(room, e.id, body.dump()) == 1);
}

}  // namespace

TEST_CASE("recovery: a stored state hash that no longer matches sets the room aside", "[recovery][integration]") {
  expect_set_aside(40, two_seats, [](journal_store& db, const std::string& room) {
    for (const auto& e : db.entries(room)) {
      auto body = json::parse(e.body);
      if (!body.contains("hash")) continue;
      std::string hash = body["hash"];
      REQUIRE(hash.size() == 64);
      hash[0] = hash[0] == '0' ? '1' : '0';  // well-formed, and wrong
      body["hash"] = hash;
      REQUIRE(db.set_body(room, e.id, body.dump()) == 1);
      return;
    }
    FAIL("no stored state hash");
  }, "the state hash differs at seq ");
}

TEST_CASE("recovery: a command by a seat the game did not prompt sets the room aside", "[recovery][integration]") {
  // The first command is the first player's; the same command from the other seat is refused.
  expect_set_aside(3, two_seats, [](journal_store& db, const std::string& room) {
    edit_nth(db, room, "command", 0, [](json& b) { b["seat"] = 1 - b["seat"].get<int>(); });
  }, "the engine refuses the entry at seq ");
}

TEST_CASE("recovery: a game record whose seq does not follow the one before sets the room aside",
          "[recovery][integration]") {
  expect_set_aside(4, two_seats, [](journal_store& db, const std::string& room) {
    edit_nth(db, room, "command", 3, [](json& b) { b["seq"] = b["seq"].get<std::uint64_t>() + 1; });
  }, "the entry at seq ");
}

TEST_CASE("recovery: a record that is not a JSON object sets the room aside", "[recovery][integration]") {
  expect_set_aside(3, two_seats, [](journal_store& db, const std::string& room) {
    REQUIRE(db.set_body(room, db.nth(room, "command", 2).id, "[\"command\"]") == 1);
  }, "an unreadable record");
}

TEST_CASE("recovery: a record that is not JSON at all sets the room aside", "[recovery][integration]") {
  expect_set_aside(3, two_seats, [](journal_store& db, const std::string& room) {
    const auto e = db.nth(room, "command", 2);
    REQUIRE(db.set_body(room, e.id, e.body.substr(0, e.body.size() - 1)) == 1);
  }, "an unreadable record");
}

TEST_CASE("recovery: a record of an unknown kind sets the room aside", "[recovery][integration]") {
  expect_set_aside(3, two_seats, [](journal_store& db, const std::string& room) {
    edit_nth(db, room, "lobby", 0, [](json& b) { b["kind"] = "bogus"; });
  }, "an unknown record kind 'bogus'");
}

TEST_CASE("recovery: a record without a field its kind needs sets the room aside", "[recovery][integration]") {
  expect_set_aside(3, two_seats, [](journal_store& db, const std::string& room) {
    edit_nth(db, room, "lobby", 0, [](json& b) { REQUIRE(b.erase("seats") == 1); });
  }, "a malformed record: ");
}

TEST_CASE("recovery: a first record that names no known game sets the room aside", "[recovery][integration]") {
  expect_set_aside(3, two_seats, [](journal_store& db, const std::string& room) {
    edit_nth(db, room, "created", 0, [](json& b) { b["game"] = "chess"; });
  }, "no creation record naming a known game");
}

TEST_CASE("recovery: a journal without its creation record sets the room aside", "[recovery][integration]") {
  expect_set_aside(3, two_seats, [](journal_store& db, const std::string& room) {
    REQUIRE(db.remove(room, db.nth(room, "created", 0).id) == 1);
  }, "no creation record naming a known game");
}

TEST_CASE("recovery: a game that does not start again from its started record sets the room aside",
          "[recovery][integration]") {
  // One player: Happy Holidays needs two.
  expect_set_aside(3, two_seats, [](journal_store& db, const std::string& room) {
    edit_nth(db, room, "started", 0, [](json& b) {
      b["players"] = json::array({"Solo"});
      b["player_ids"] = json::array({b["player_ids"][0]});
    });
  }, "the game does not start again: ");
}

TEST_CASE("recovery: game records without the start of their game set the room aside", "[recovery][integration]") {
  expect_set_aside(3, two_seats, [](journal_store& db, const std::string& room) {
    REQUIRE(db.remove(room, db.nth(room, "started", 0).id) == 1);
  }, "a game record outside a game");
}

TEST_CASE("recovery: an end record where the replayed game is not over sets the room aside", "[recovery][integration]") {
  expect_set_aside(3, two_seats, [](journal_store& db, const std::string& room) {
    std::uint64_t seq = 0;
    for (const auto& e : db.entries(room)) {
      const auto b = json::parse(e.body);
      if (b.contains("seq")) seq = std::max(seq, b["seq"].get<std::uint64_t>());
    }
    REQUIRE(db.add(room, "ended", json{{"kind", "ended"}, {"seq", seq}, {"result", json::object()}}.dump()) == 1);
  }, "the game ended in the journal but not in the replay");
}

TEST_CASE("recovery: a replayed game that is over without its end record sets the room aside", "[recovery][integration]") {
  expect_set_aside(-1, {{"maxPlayers", 2}, {"giftsPerColour", 5}}, [](journal_store& db, const std::string& room) {
    REQUIRE(db.remove(room, db.nth(room, "ended", 0).id) == 1);
  }, "the game is over but has no end record");
}
