#pragma once
// Shared by the Unterm Baum engine tests (rules and secrecy). Common setup (rulebook 2.5): 2 players,
// Alice (seat 0, host-picked start) and Bob (seat 1); K=8, M=4, C=5, decoys=8, so D=24 motifs
// m01…m24. Scripted dice of zeros deal Alice m01…m08 and Bob m09…m16 and leave grey mXX in tree
// slot XX−1. Positions the rulebook starts from are set up by editing full_state() and restoring it.
#include "unterm_baum/unterm_baum.hpp"

#include <algorithm>
#include <catch2/catch.hpp>
#include <cctype>
#include <functional>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#include "tinsel/engine/game.hpp"

namespace ub_test {

using namespace tinsel::engine;
namespace ub = tinsel::engine::unterm_baum;

constexpr int A = 0, B = 1, C = 2;
constexpr int slots = 5;  // C = K − M + 1 with the default K=8, M=4

inline std::string m(int xx) { return std::string(ub::motif_name(xx - 1)); }  // the rulebook's mXX
inline json tree(int i) { return {{"tree", i}}; }
inline json at(int seat, int row, int slot) { return {{"seat", seat}, {"row", row}, {"slot", slot}}; }
inline json cell(int row, int slot) { return {{"row", row}, {"slot", slot}}; }
inline json reveal(const json& l) { return {{"kind", "reveal"}, {"location", l}}; }
inline json move(const json& f, const json& t) { return {{"kind", "move"}, {"from", f}, {"to", t}}; }
inline json end_turn() { return {{"kind", "end_turn"}}; }
inline json rearrange(const std::vector<std::pair<json, json>>& moves) {
  json list = json::array();
  for (const auto& [f, t] : moves) list.push_back({{"from", f}, {"to", t}});
  return {{"kind", "rearrange"}, {"moves", list}};
}

// The rulebook's wish list: the seat's eight motifs at (0,0) (0,1) (1,0) (2,0) (2,2) (3,0) (3,1) (3,2).
inline json rulebook_assign(int seat) {
  static const int cells[8][2] = {{0, 0}, {0, 1}, {1, 0}, {2, 0}, {2, 2}, {3, 0}, {3, 1}, {3, 2}};
  json wishes = json::array();
  for (int i = 0; i < 8; ++i)
    wishes.push_back({{"motif", m(seat * 8 + i + 1)}, {"row", cells[i][0]}, {"slot", cells[i][1]}});
  return {{"kind", "assign"}, {"wishes", wishes}};
}

// Moves grey mXX from wherever it lies into a seat's field (default grid of 5 slots per row).
inline void place(json& s, int xx, int seat, int row, int slot) {
  for (auto& t : s["tree"])
    if (t == xx - 1) t = -1;
  for (auto& f : s["fields"])
    for (auto& c : f)
      if (c == xx - 1) c = -1;
  s["fields"][seat][row * slots + slot] = xx - 1;
}

inline std::vector<std::string> kinds(const events& evs) {
  std::vector<std::string> out;
  for (const auto& e : evs) out.push_back(e.body.at("kind").get<std::string>());
  return out;
}

// A table with scripted dice of zeros; every helper checks the engine's contract on the way.
struct table {
  std::unique_ptr<game> g;
  scripted_dice d;
  int players;

  explicit table(json options = json::object(), int n = 2) : players(n) {
    if (!options.contains("startPlayer")) options["startPlayer"] = "host-picks";
    for (int i = 0; i < 400; ++i) d.push(0);
    auto r = ub::info().create(setup{options, n, A}, d);
    INFO((r.ok() ? "" : r.error().code + ": " + r.error().message));
    REQUIRE(r.ok());
    g = std::move(r.value());
  }

  events ok(int seat, const json& cmd) {
    auto r = g->apply(seat, cmd, d);
    INFO(cmd.dump() << " by " << seat << ": " << (r.ok() ? "" : r.error().code + " " + r.error().message));
    REQUIRE(r.ok());
    return r.value();
  }
  // The error code; checks that nothing changed.
  std::string rejected(int seat, const json& cmd) {
    const json before = g->full_state();
    const auto draws = d.draws();
    auto r = g->apply(seat, cmd, d);
    INFO(cmd.dump() << " by " << seat);
    REQUIRE_FALSE(r.ok());
    CHECK(g->full_state() == before);
    CHECK(d.draws() == draws);
    CHECK_FALSE(r.error().message.empty());
    return r.error().code;
  }
  events timeout() { return g->on_timeout(g->current_prompt()->serial, d); }
  json v(viewer w = viewer::spectator()) const { return g->view(w); }
  json st() const { return g->full_state(); }
  void edit(const std::function<void(json&)>& f) {
    json s = g->full_state();
    f(s);
    auto r = ub::restore(s);
    INFO((r.ok() ? "" : r.error().message));
    REQUIRE(r.ok());
    g = std::move(r.value());
  }
  void to_play() {
    for (int p = 0; p < players; ++p) ok(p, rulebook_assign(p));
    timeout();  // MEMORIZE ends
    REQUIRE(g->current_prompt()->kind == "turn");
  }
  int count(int seat) const { return v()["players"][seat]["card_count"].get<int>(); }
};

}  // namespace ub_test
