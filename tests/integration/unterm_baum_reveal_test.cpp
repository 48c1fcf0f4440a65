// Unterm Baum, rulebook A12 and the visibility table (2.4): a revealed card's motif goes out once,
// in the live state of the reveal, to every player and spectator. Every later frame (the game log,
// the catch-up after a resume with last_seq, the state after a reload) says only who looked at
// which place: for players and spectators, resuming, reloading or coming late, before and after a
// server restart on its journal.
#include <catch2/catch.hpp>

#include <stdlib.h>

#include <filesystem>
#include <set>

#include "../engine/legal_domains.hpp"
#include "play_helpers.hpp"
#include "server_process.hpp"

using namespace tinsel::test;

namespace {

std::string temp_dir() {
  char t[] = "/tmp/tinsel-ubreveal-XXXXXX";
  REQUIRE(::mkdtemp(t) != nullptr);
  return t;
}

std::vector<std::string> durable_flags(const std::string& dir) {
  return {"--data-dir", dir, "--rate-per-sec", "100000", "--rate-burst", "100000"};
}

std::string token_of(ws_client& c) { return c.transcript().front()["token"]; }

// The newest state this client has, waiting for one that `pred` accepts if need be.
json state_where(ws_client& c, const std::function<bool(const json&)>& pred, const std::string& what) {
  while (c.recv(std::chrono::milliseconds(0))) {
  }
  const auto frames = c.transcript();
  for (auto it = frames.rbegin(); it != frames.rend(); ++it)
    if ((*it)["type"] == "state") {
      if (pred(*it)) return *it;
      break;
    }
  return c.expect([&](const json& j) { return j.value("type", "") == "state" && pred(j); }, what, std::chrono::seconds(30));
}

json state_after(ws_client& c, std::uint64_t seq) {
  return state_where(c, [&](const json& s) { return s["seq"].get<std::uint64_t>() >= seq; }, "state " + std::to_string(seq));
}

// The skip-th command of this kind, the domains written out (a turn lists one reveal and the
// reveal domain).
json first_entry(const json& legal, const std::string& kind, std::size_t skip = 0) {
  for (const auto& e : legal_domains::expand(legal))
    if (e["kind"] == kind && !e.contains("domain") && skip-- == 0) return e;
  FAIL("no " << kind << " entry");
  return nullptr;
}

std::unique_ptr<ws_client> come_back(std::uint16_t port, const std::string& token) {
  INFO("coming back with token " << token);
  auto c = std::make_unique<ws_client>(port);
  c->send({{"type", "hello"}, {"protocol", 1}, {"name", "Again"}, {"token", token}});
  REQUIRE(c->expect_type("welcome")["resumed"] == true);
  return c;
}

// Joins (a new connection) and returns every frame it received up to the state that answers.
std::vector<json> join_frames(ws_client& c, json request) {
  REQUIRE(c.request(std::move(request))["type"] == "ok");
  c.expect_type("state");
  return c.transcript();
}

// No frame names a motif of the past reveals; every `revealed` in them names seat and place only.
// Returns how many such reveals the frames told again.
int check_frames(const std::vector<json>& frames, const std::set<std::string>& motifs, const std::string& who) {
  INFO(who);
  int retold = 0;
  for (const auto& f : frames) {
    const auto text = f.dump();
    for (const auto& m : motifs) CHECK(text.find("\"" + m + "\"") == std::string::npos);
    if (f.contains("events"))
      for (const auto& e : f["events"])
        if (e["kind"] == "revealed") {
          ++retold;
          CHECK_FALSE(e.contains("motif"));
          CHECK_FALSE(e.contains("display_ms"));
          CHECK(e["location"].is_object());
          CHECK(e["seat"].is_number());
          CHECK(e["seq"].is_number());
        }
  }
  return retold;
}

}  // namespace

TEST_CASE("Unterm Baum A12: a revealed motif is sent once, live: no later frame to a player or spectator repeats it, "
          "after a reload, a resume, a late join or a restart",
          "[unterm_baum][integration][leak][durable]") {
  const auto dir = temp_dir();
  const json options = {{"maxPlayers", 2}, {"startPlayer", "host-picks"}, {"assignSeconds", 300},
                        {"memorizeSeconds", 1}, {"mainTimeoutSec", "off"}};
  std::set<std::string> motifs;
  std::string code, oma_token, ben_token, opa_token;
  std::uint64_t before_reveals = 0;
  {
    server_process a(durable_flags(dir));
    auto t = seat_players(a.port, 2, options, "unterm_baum");
    code = t.code;
    oma_token = token_of(*t.clients[0]);
    ben_token = token_of(*t.clients[1]);
    ws_client opa(a.port);  // watches from the start
    say_hello(opa, "Opa");
    opa_token = token_of(opa);
    REQUIRE(opa.request({{"type", "join_room"}, {"room", code}, {"as", "spectator"}})["type"] == "ok");
    REQUIRE(t.clients[0]->request({{"type", "start_game"}, {"first_seat", 0}})["type"] == "ok");
    for (auto& c : t.clients) {
      json assign = state_after(*c, 1)["legal"][0];
      assign.erase("family");  // the first free sheet when it arrives (no family_taken race)
      REQUIRE(c->request({{"type", "action"}, {"action", assign}})["type"] == "ok");
    }
    const auto play = state_where(*t.clients[0], [](const json& s) { return s["view"]["phase"] == "play"; }, "play");
    before_reveals = play["seq"];
    state_after(*t.clients[1], before_reveals);
    state_after(opa, before_reveals);

    // Oma looks at a card and ends her turn; Ben looks at another one.
    auto reveal = [&](ws_client& c, std::size_t which) {
      const auto st = state_where(c, [](const json& s) { return s["legal"].size() > 1; }, "a turn");
      REQUIRE(c.request({{"type", "action"}, {"action", first_entry(st["legal"], "reveal", which)}})["type"] == "ok");
      const auto live = state_after(c, st["seq"].get<std::uint64_t>() + 1);
      REQUIRE(live["events"].size() == 1);
      const auto& e = live["events"][0];
      REQUIRE(e["kind"] == "revealed");
      motifs.insert(e["motif"].get<std::string>());  // live, to the player who looks ...
      for (auto* other : {t.clients[0].get(), t.clients[1].get(), &opa})  // ... and to everyone else
        CHECK(state_after(*other, live["seq"])["events"] == live["events"]);
      return live["seq"].get<std::uint64_t>();
    };
    reveal(*t.clients[0], 0);
    REQUIRE(t.clients[0]->request({{"type", "action"}, {"action", {{"kind", "end_turn"}}}})["type"] == "ok");
    const auto last = reveal(*t.clients[1], 3);
    REQUIRE(motifs.size() == 2);
    state_after(opa, last);

    // Ben reloads (no last_seq), then resumes with the seq he had before both reveals.
    t.clients[1]->close();
    auto ben = come_back(a.port, ben_token);
    CHECK(check_frames(join_frames(*ben, {{"type", "join_room"}, {"room", code}}), motifs, "Ben reloading") == 2);
    ben->close();
    ben = come_back(a.port, ben_token);
    auto frames = join_frames(*ben, {{"type", "join_room"}, {"room", code}, {"last_seq", before_reveals}});
    CHECK(frames.back()["replayed_from"] == before_reveals + 1);
    CHECK(check_frames(frames, motifs, "Ben resuming with last_seq") == 4);  // the log's two and the catch-up's two
    // A spectator who comes late, and Opa, who watched it all, coming back with last_seq.
    ws_client tante(a.port);
    say_hello(tante, "Tante");
    CHECK(check_frames(join_frames(tante, {{"type", "join_room"}, {"room", code}, {"as", "spectator"}}), motifs,
                       "a late spectator") == 2);
    opa.close();
    auto opa2 = come_back(a.port, opa_token);
    frames = join_frames(*opa2, {{"type", "join_room"}, {"room", code}, {"as", "spectator"}, {"last_seq", before_reveals}});
    CHECK(frames.back()["replayed_from"] == before_reveals + 1);
    CHECK(check_frames(frames, motifs, "Opa resuming with last_seq") == 4);
    a.kill_hard();
  }
  {
    // The server comes back on its journal: the same, for everyone.
    server_process b(durable_flags(dir));
    auto ben = come_back(b.port, ben_token);
    auto frames = join_frames(*ben, {{"type", "join_room"}, {"room", code}, {"last_seq", before_reveals}});
    CHECK(frames.back()["replayed_from"] == before_reveals + 1);
    CHECK(check_frames(frames, motifs, "Ben resuming after the restart") == 4);
    auto oma = come_back(b.port, oma_token);
    CHECK(check_frames(join_frames(*oma, {{"type", "join_room"}, {"room", code}}), motifs, "Oma reloading after the restart") == 2);
    ws_client tante(b.port);
    say_hello(tante, "Tante");
    CHECK(check_frames(join_frames(tante, {{"type", "join_room"}, {"room", code}, {"as", "spectator"}}), motifs,
                       "a late spectator after the restart") == 2);
    // Spectators say hello anew after a restart (docs/operations.md), as Tante did.
  }
  std::filesystem::remove_all(dir);
}

TEST_CASE("Unterm Baum A8: during MEMORIZE a player who reloads or resumes sees his own wish list again, nobody else's",
          "[unterm_baum][integration][resume]") {
  server_process s({"--rate-per-sec", "100000", "--rate-burst", "100000"});
  auto t = seat_players(s.port, 2, {{"maxPlayers", 2}, {"memorizeSeconds", 600}, {"assignSeconds", 300}}, "unterm_baum");
  const auto ben_token = token_of(*t.clients[1]);
  REQUIRE(t.clients[0]->request({{"type", "start_game"}})["type"] == "ok");
  json hand;
  for (std::size_t i = 0; i < 2; ++i) {
    const auto st = state_after(*t.clients[i], 1);
    if (i == 1) hand = st["view"]["wish_list"]["hand"];
    json assign = st["legal"][0];
    assign.erase("family");
    REQUIRE(t.clients[i]->request({{"type", "action"}, {"action", assign}})["type"] == "ok");
  }
  const auto memorize = state_where(*t.clients[1], [](const json& st) { return st["view"]["phase"] == "memorize"; }, "MEMORIZE");
  REQUIRE(memorize["view"]["wish_list"]["hand"] == hand);
  t.clients[1]->close();
  for (const bool with_last_seq : {false, true}) {
    INFO((with_last_seq ? "resuming with last_seq" : "reloading"));
    auto ben = come_back(s.port, ben_token);
    json join = {{"type", "join_room"}, {"room", t.code}};
    if (with_last_seq) join["last_seq"] = 1;
    const auto frames = join_frames(*ben, join);
    const auto& st = frames.back();
    CHECK(st["view"]["phase"] == "memorize");
    CHECK(st["view"]["wish_list"]["hand"] == hand);
    CHECK(st["view"]["wish_list"]["wishes"].size() == 8);
    ben->close();
  }
  ws_client tante(s.port);
  say_hello(tante, "Tante");
  const auto seen = join_frames(tante, {{"type", "join_room"}, {"room", t.code}, {"as", "spectator"}});
  CHECK(seen.back()["view"]["wish_list"].is_null());
  for (const auto& m : hand) CHECK(seen.back().dump().find("\"" + m.get<std::string>() + "\"") == std::string::npos);
}
