// Happy Holidays through the real server: clients choose only among the `legal` entries they
// receive, and play to a result whose scores follow the rule (sum of the two largest colour stacks).
#include <catch2/catch.hpp>

#include <algorithm>
#include <random>

#include "test_server.hpp"
#include "ws_client.hpp"

using namespace tinsel::test;

namespace {

struct table {
  std::vector<std::unique_ptr<ws_client>> clients;
  std::string code;
};

table seat_players(test_server& s, int n, const json& options) {
  table t;
  for (int i = 0; i < n; ++i) {
    t.clients.push_back(std::make_unique<ws_client>(s.port));
    say_hello(*t.clients.back(), "Player " + std::to_string(i));
  }
  auto created = t.clients[0]->request({{"type", "create_room"}, {"game", "happy_holidays"}, {"options", options}});
  REQUIRE(created["type"] == "ok");
  t.code = created["room"];
  for (int i = 1; i < n; ++i) REQUIRE(t.clients[i]->request({{"type", "join_room"}, {"room", t.code}})["type"] == "ok");
  return t;
}

int two_largest(const json& stacks) {
  std::vector<int> v;
  for (const auto& [colour, count] : stacks.items()) v.push_back(count.get<int>());
  std::sort(v.rbegin(), v.rend());
  return (v.size() > 0 ? v[0] : 0) + (v.size() > 1 ? v[1] : 0);
}

// Plays until every client has seen the final state; returns each client's final state.
std::vector<json> play_to_end(table& t, std::mt19937& rng, std::uint64_t& seq_seen) {
  const auto n = t.clients.size();
  std::vector<json> last(n);
  std::vector<bool> done(n, false);
  std::uint64_t acted_on = 0;
  int actions = 0;
  const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (std::count(done.begin(), done.end(), true) < static_cast<long>(n)) {
    REQUIRE(std::chrono::steady_clock::now() < until);
    for (std::size_t i = 0; i < n; ++i) {
      while (!done[i]) {
        auto m = t.clients[i]->recv(std::chrono::milliseconds(1));
        if (!m) break;
        if ((*m)["type"] == "error") FAIL("server refused a legal command: " << m->dump());
        if ((*m)["type"] != "state") continue;
        // seq increases by exactly one per state, with no gaps.
        const auto seq = (*m)["seq"].get<std::uint64_t>();
        if (!last[i].is_null()) CHECK(seq == last[i]["seq"].get<std::uint64_t>() + 1);
        last[i] = *m;
        seq_seen = std::max(seq_seen, seq);
        if ((*m)["over"] == true) done[i] = true;
      }
      const json& st = last[i];
      if (st.is_null() || st["over"] == true || st["legal"].empty()) continue;
      const auto seq = st["seq"].get<std::uint64_t>();
      if (seq <= acted_on) continue;
      // Someone whose seat is prompted chooses uniformly among its legal commands.
      const auto& legal = st["legal"];
      std::uniform_int_distribution<std::size_t> pick(0, legal.size() - 1);
      t.clients[i]->send({{"type", "action"}, {"action", legal[pick(rng)]}});
      acted_on = seq;
      ++actions;
    }
  }
  CHECK(actions > 0);
  return last;
}

void check_final_state(const std::vector<json>& finals) {
  const json& result = finals[0]["result"];
  REQUIRE(result.is_object());
  const json& players = finals[0]["view"]["players"];
  int best = -1;
  for (std::size_t p = 0; p < players.size(); ++p) {
    const int score = two_largest(players[p]["stacks"]);
    CHECK(result["scores"][p] == score);
    best = std::max(best, score);
  }
  for (const auto& w : result["winners"]) CHECK(result["scores"][w.get<int>()] == best);
  CHECK(result["seed"].is_string());  // revealed after the end (rulebook C1)
  for (const auto& f : finals) {
    CHECK(f["result"] == result);  // everyone sees the same result
    CHECK(f["prompt"].is_null());
    CHECK(f["legal"].empty());
  }
}

}  // namespace

TEST_CASE("three players play complete games of Happy Holidays, then play again in the same room", "[happy_holidays][play]") {
  test_server s;
  auto t = seat_players(s, 3, {{"maxPlayers", 3}});
  std::mt19937 rng(12345);
  std::uint64_t seq = 0;
  for (int game = 0; game < 3; ++game) {
    INFO("game " << game);
    auto started = t.clients[0]->request({{"type", "start_game"}});
    REQUIRE(started["type"] == "ok");
    auto finals = play_to_end(t, rng, seq);
    check_final_state(finals);
    // The room is ready for another game, with the same three players.
    auto room = t.clients[1]->expect([](const json& j) { return j.value("type", "") == "room" && j["room"]["status"] == "finished"; },
                                     "the finished room");
    CHECK(room["room"]["result"] == finals[0]["result"]);
  }
}

TEST_CASE("a spectator sees every state of a game, with no legal commands", "[happy_holidays][play]") {
  test_server s;
  auto t = seat_players(s, 2, {{"maxPlayers", 2}});
  ws_client watcher(s.port);
  say_hello(watcher, "Enkel");
  REQUIRE(watcher.request({{"type", "join_room"}, {"room", t.code}, {"as", "spectator"}})["type"] == "ok");
  REQUIRE(t.clients[0]->request({{"type", "start_game"}})["type"] == "ok");
  std::mt19937 rng(7);
  std::uint64_t seq = 0;
  auto finals = play_to_end(t, rng, seq);
  check_final_state(finals);
  std::uint64_t last = 0;
  for (;;) {
    auto st = watcher.expect_type("state");
    CHECK(st["legal"].empty());
    CHECK(st["seat"].is_null());
    CHECK(st["seq"].get<std::uint64_t>() == last + 1);
    last = st["seq"];
    if (st["over"] == true) {
      CHECK(st["view"] == finals[0]["view"]);
      break;
    }
  }
}

TEST_CASE("a prompt nobody answers is resolved by its timeout default", "[happy_holidays][timeout]") {
  test_server s;
  auto t = seat_players(s, 2, {{"maxPlayers", 2}, {"mainTimeoutSec", 1}, {"subPromptTimeoutSec", 1}, {"startPlayer", "host-picks"}});
  REQUIRE(t.clients[0]->request({{"type", "start_game"}, {"first_seat", 1}})["type"] == "ok");
  auto first = t.clients[0]->expect_type("state");
  REQUIRE(first["prompt"]["seats"] == json::array({1}));
  const auto deadline = first["prompt"]["deadline"].get<long long>();
  const auto now = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch()).count();
  CHECK(deadline > now);
  CHECK(deadline <= now + 1500);
  // Nobody acts: within the deadline plus slack, the server applies the default (D1: seat 1 holds
  // no reindeer as the start player, so it takes one and rolls).
  auto next = t.clients[0]->expect_type("state", std::chrono::milliseconds(3000));
  CHECK(next["seq"] == first["seq"].get<int>() + 1);
  REQUIRE(next["events"].size() >= 2);
  CHECK(next["events"][0]["kind"] == "timed_out");
  CHECK(next["events"][0]["seats"] == json::array({1}));
  bool rolled = false;
  for (const auto& e : next["events"]) rolled |= e["kind"] == "rolled";
  CHECK(rolled);
}

TEST_CASE("when a player leaves mid-game their seat is played by defaults so the game finishes", "[happy_holidays][play]") {
  test_server s([](tinsel::server::config& c) { c.auto_play_delay = std::chrono::milliseconds(20); });
  auto t = seat_players(s, 3, {{"maxPlayers", 3}});
  REQUIRE(t.clients[0]->request({{"type", "start_game"}})["type"] == "ok");
  REQUIRE(t.clients[2]->request({{"type", "leave_room"}})["type"] == "ok");
  t.clients.pop_back();
  std::mt19937 rng(99);
  std::uint64_t seq = 0;
  auto finals = play_to_end(t, rng, seq);
  check_final_state(finals);
  bool shown_gone = false;
  for (const auto& m : t.clients[0]->transcript())
    shown_gone |= m["type"] == "room" && m["room"]["status"] == "playing" && m["room"]["seats"][2]["status"] == "gone";
  CHECK(shown_gone);
}
