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
#include <catch2/catch.hpp>

#include <stdlib.h>
#include <sqlite3.h>

#include <filesystem>
#include <functional>
#include <random>

#include "server_process.hpp"
#include "ws_client.hpp"

using namespace tinsel::test;
using json = nlohmann::json;

namespace {

std::string temp_dir() {
  char t[] = "/tmp/tinsel-recovery-XXXXXX";
  REQUIRE(::mkdtemp(t) != nullptr);
  return t;
}

std::vector<std::string> flags(const std::string& dir) {
  return {"--data-dir", dir, "--rate-per-sec", "100000", "--rate-burst", "100000"};
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

// The database, opened while no server runs.
struct database {
  explicit database(const std::string& dir) { REQUIRE(sqlite3_open((dir + "/tinsel.db").c_str(), &db) == SQLITE_OK); }
  ~database() { sqlite3_close(db); }
  database(const database&) = delete;
  database& operator=(const database&) = delete;

  // Runs one statement with ?1 bound to `room` (and ?2 to `text`, if given); returns the rows changed.
  int exec(const std::string& sql, const std::string& room, const std::string& text = "") {
    sqlite3_stmt* s = nullptr;
    INFO(sql);
    REQUIRE(sqlite3_prepare_v2(db, sql.c_str(), -1, &s, nullptr) == SQLITE_OK);
    sqlite3_bind_text(s, 1, room.c_str(), -1, SQLITE_TRANSIENT);
    if (sqlite3_bind_parameter_count(s) >= 2) sqlite3_bind_text(s, 2, text.c_str(), -1, SQLITE_TRANSIENT);
    const int rc = sqlite3_step(s);
    sqlite3_finalize(s);
    REQUIRE((rc == SQLITE_DONE || rc == SQLITE_ROW));
    return sqlite3_changes(db);
  }
  // The first column of the first row, as text ("" when there is none).
  std::string text(const std::string& sql, const std::string& room) {
    sqlite3_stmt* s = nullptr;
    INFO(sql);
    REQUIRE(sqlite3_prepare_v2(db, sql.c_str(), -1, &s, nullptr) == SQLITE_OK);
    sqlite3_bind_text(s, 1, room.c_str(), -1, SQLITE_TRANSIENT);
    std::string out;
    if (sqlite3_step(s) == SQLITE_ROW && sqlite3_column_text(s, 0))
      out = reinterpret_cast<const char*>(sqlite3_column_text(s, 0));
    sqlite3_finalize(s);
    return out;
  }
  sqlite3* db = nullptr;
};

// Two rooms on one data folder, `bad` played `bad_steps` commands (to the end if negative) and
// `good` a few; the server stops; `tamper` edits bad's journal; a new server on the folder must set
// exactly `bad` aside for `reason` and bring `good` back; a third start keeps it set aside.
void expect_set_aside(int bad_steps, const json& bad_options, const std::function<void(database&, const std::string&)>& tamper,
                      const std::string& reason) {
  const auto dir = temp_dir();
  std::mt19937 rng(30);
  table good, bad;
  std::uint64_t good_seq = 0;
  {
    server_process a(flags(dir));
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
  {
    database db(dir);
    tamper(db, bad.code);
  }
  for (int start = 0; start < 2; ++start) {
    INFO("start " << start + 1 << " after the edit");
    server_process b(flags(dir));
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
  std::filesystem::remove_all(dir);
}

const json two_seats = {{"maxPlayers", 2}};

// The entry id of the `n`th (0-based) record of `kind` in the room's journal.
std::string nth(const std::string& kind, int n) {
  return "(SELECT id FROM entries WHERE room = ?1 AND kind = '" + kind + "' ORDER BY id LIMIT 1 OFFSET " +
         std::to_string(n) + ")";
}

}  // namespace

TEST_CASE("recovery: a stored state hash that no longer matches sets the room aside", "[recovery][integration]") {
  expect_set_aside(40, two_seats, [](database& db, const std::string& room) {
    const std::string where = "(SELECT min(id) FROM entries WHERE room = ?1 AND json_extract(body, '$.hash') IS NOT NULL)";
    std::string hash = db.text("SELECT json_extract(body, '$.hash') FROM entries WHERE id = " + where, room);
    REQUIRE(hash.size() == 64);
    hash[0] = hash[0] == '0' ? '1' : '0';  // well-formed, and wrong
    REQUIRE(db.exec("UPDATE entries SET body = json_set(body, '$.hash', ?2) WHERE id = " + where, room, hash) == 1);
  }, "the state hash differs at seq ");
}

TEST_CASE("recovery: a command by a seat the game did not prompt sets the room aside", "[recovery][integration]") {
  // The first command is the first player's; the same command from the other seat is refused.
  expect_set_aside(3, two_seats, [](database& db, const std::string& room) {
    REQUIRE(db.exec("UPDATE entries SET body = json_set(body, '$.seat', 1 - json_extract(body, '$.seat')) WHERE id = " +
                        nth("command", 0),
                    room) == 1);
  }, "the engine refuses the entry at seq ");
}

TEST_CASE("recovery: a game record whose seq does not follow the one before sets the room aside",
          "[recovery][integration]") {
  expect_set_aside(4, two_seats, [](database& db, const std::string& room) {
    REQUIRE(db.exec("UPDATE entries SET body = json_set(body, '$.seq', json_extract(body, '$.seq') + 1) WHERE id = " +
                        nth("command", 3),
                    room) == 1);
  }, "the entry at seq ");
}

TEST_CASE("recovery: a record that is not a JSON object sets the room aside", "[recovery][integration]") {
  expect_set_aside(3, two_seats, [](database& db, const std::string& room) {
    REQUIRE(db.exec("UPDATE entries SET body = '[\"command\"]' WHERE id = " + nth("command", 2), room) == 1);
  }, "an unreadable record");
}

TEST_CASE("recovery: a record that is not JSON at all sets the room aside", "[recovery][integration]") {
  expect_set_aside(3, two_seats, [](database& db, const std::string& room) {
    REQUIRE(db.exec("UPDATE entries SET body = substr(body, 1, length(body) - 1) WHERE id = " + nth("command", 2), room) ==
            1);
  }, "an unreadable record");
}

TEST_CASE("recovery: a record of an unknown kind sets the room aside", "[recovery][integration]") {
  expect_set_aside(3, two_seats, [](database& db, const std::string& room) {
    REQUIRE(db.exec("UPDATE entries SET body = json_set(body, '$.kind', 'bogus') WHERE id = " + nth("lobby", 0), room) ==
            1);
  }, "an unknown record kind 'bogus'");
}

TEST_CASE("recovery: a record without a field its kind needs sets the room aside", "[recovery][integration]") {
  expect_set_aside(3, two_seats, [](database& db, const std::string& room) {
    REQUIRE(db.exec("UPDATE entries SET body = json_remove(body, '$.seats') WHERE id = " + nth("lobby", 0), room) == 1);
  }, "a malformed record: ");
}

TEST_CASE("recovery: a first record that names no known game sets the room aside", "[recovery][integration]") {
  expect_set_aside(3, two_seats, [](database& db, const std::string& room) {
    REQUIRE(db.exec("UPDATE entries SET body = json_set(body, '$.game', 'chess') WHERE id = " + nth("created", 0), room) ==
            1);
  }, "no creation record naming a known game");
}

TEST_CASE("recovery: a journal without its creation record sets the room aside", "[recovery][integration]") {
  expect_set_aside(3, two_seats, [](database& db, const std::string& room) {
    REQUIRE(db.exec("DELETE FROM entries WHERE id = " + nth("created", 0), room) == 1);
  }, "no creation record naming a known game");
}

TEST_CASE("recovery: a game that does not start again from its started record sets the room aside",
          "[recovery][integration]") {
  // One player: Happy Holidays needs two.
  expect_set_aside(3, two_seats, [](database& db, const std::string& room) {
    REQUIRE(db.exec("UPDATE entries SET body = json_set(body, '$.players', json_array('Solo'), '$.player_ids', "
                    "json_array(json_extract(body, '$.player_ids[0]'))) WHERE id = " +
                        nth("started", 0),
                    room) == 1);
  }, "the game does not start again: ");
}

TEST_CASE("recovery: game records without the start of their game set the room aside", "[recovery][integration]") {
  expect_set_aside(3, two_seats, [](database& db, const std::string& room) {
    REQUIRE(db.exec("DELETE FROM entries WHERE id = " + nth("started", 0), room) == 1);
  }, "a game record outside a game");
}

TEST_CASE("recovery: an end record where the replayed game is not over sets the room aside", "[recovery][integration]") {
  expect_set_aside(3, two_seats, [](database& db, const std::string& room) {
    REQUIRE(db.exec("INSERT INTO entries(room, kind, body) VALUES (?1, 'ended', json_object('kind', 'ended', 'seq', "
                    "(SELECT max(json_extract(body, '$.seq')) FROM entries WHERE room = ?1), 'result', json_object()))",
                    room) == 1);
  }, "the game ended in the journal but not in the replay");
}

TEST_CASE("recovery: a replayed game that is over without its end record sets the room aside", "[recovery][integration]") {
  expect_set_aside(-1, {{"maxPlayers", 2}, {"giftsPerColour", 5}}, [](database& db, const std::string& room) {
    REQUIRE(db.exec("DELETE FROM entries WHERE id = " + nth("ended", 0), room) == 1);
  }, "the game is over but has no end record");
}
