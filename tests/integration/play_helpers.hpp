#pragma once
// Shared by the integration tests that play whole games: seat clients in a room and let them play
// by choosing among the `legal` entries they receive.
#include <catch2/catch.hpp>

#include <algorithm>
#include <random>

#include "test_server.hpp"
#include "ws_client.hpp"

namespace tinsel::test {


// Test players answer every state at once, far faster than people: the per-connection rate limit
// (tested on its own in room_lifecycle_test.cpp) is lifted so that a busy machine, which delivers
// states in bursts, cannot turn a play test into a rate-limit test.
inline void lift_rate_limit(server::config& c) {
  c.rate_per_sec = 1e6;
  c.rate_burst = 1e6;
}

struct table {
  std::vector<std::unique_ptr<ws_client>> clients;
  std::string code;
};

// Plays the seat's turn with its first legal entry until the prompt moves to another seat;
// returns the last state seen.
inline json play_turn(ws_client& c, json st) {
  const int me = st["seat"];
  while (st["over"] == false && st["prompt"]["seats"] == json::array({me})) {
    c.send({{"type", "action"}, {"action", st["legal"][0]}});
    st = c.expect_type("state");
  }
  return st;
}

// Players 0..n-1 say hello; player 0 creates the room and the others join it.
inline table seat_players(std::uint16_t port, int n, const json& options, const std::string& game = "happy_holidays") {
  table t;
  for (int i = 0; i < n; ++i) {
    t.clients.push_back(std::make_unique<ws_client>(port));
    say_hello(*t.clients.back(), "Player " + std::to_string(i));
  }
  auto created = t.clients[0]->request({{"type", "create_room"}, {"game", game}, {"options", options}});
  REQUIRE(created["type"] == "ok");
  t.code = created["room"];
  for (int i = 1; i < n; ++i) REQUIRE(t.clients[i]->request({{"type", "join_room"}, {"room", t.code}})["type"] == "ok");
  return t;
}

inline table seat_players(test_server& s, int n, const json& options, const std::string& game = "happy_holidays") {
  return seat_players(s.port, n, options, game);
}

inline int two_largest(const json& stacks) {
  std::vector<int> v;
  for (const auto& [colour, count] : stacks.items()) v.push_back(count.get<int>());
  std::sort(v.rbegin(), v.rend());
  return (v.size() > 0 ? v[0] : 0) + (v.size() > 1 ? v[1] : 0);
}

// Plays until every client has seen the final state; returns each client's final state.
inline std::vector<json> play_to_end(table& t, std::mt19937& rng, std::uint64_t& seq_seen) {
  const auto n = t.clients.size();
  std::vector<json> last(n);
  std::vector<bool> done(n, false);
  std::uint64_t acted_on = 0;
  int actions = 0;
  // A game ends after a bounded number of commands; the clock only guards against a server that
  // stopped answering (a busy machine plays the same game, later).
  const auto hang_guard = std::chrono::steady_clock::now() + std::chrono::minutes(10);
  while (std::count(done.begin(), done.end(), true) < static_cast<long>(n)) {
    REQUIRE(actions < 100000);
    REQUIRE(std::chrono::steady_clock::now() < hang_guard);
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
      // Someone whose seat is prompted chooses uniformly among its concrete legal commands
      // (entries describing a parameter's domain are not sendable as they are).
      json legal = json::array();
      for (const auto& e : st["legal"])
        if (!e.contains("domain")) legal.push_back(e);
      REQUIRE_FALSE(legal.empty());
      std::uniform_int_distribution<std::size_t> pick(0, legal.size() - 1);
      t.clients[i]->send({{"type", "action"}, {"action", legal[pick(rng)]}});
      acted_on = seq;
      ++actions;
    }
  }
  CHECK(actions > 0);
  return last;
}

inline void check_final_state(const std::vector<json>& finals) {
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


}  // namespace tinsel::test
