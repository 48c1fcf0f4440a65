#pragma once
// Test helpers for the Happy Holidays scenario tests: a scripted table that checks the engine's
// contract (rejections change nothing) on every call, and builders for the wire commands.
#include <catch2/catch.hpp>
#include <optional>
#include <string>
#include <vector>

#include "happy_holidays/happy_holidays.hpp"
#include "tinsel/engine/game.hpp"

namespace hh_test {

using namespace tinsel::engine;
namespace hh = tinsel::engine::happy_holidays;

constexpr int A = 0, B = 1, C = 2;
// Die faces as dice.roll(6) returns them.
constexpr std::uint32_t F1 = 0, F2 = 1, F3 = 2, F4 = 3, F5 = 4, F6 = 5;
// Colour indexes in full_state arrays.
constexpr int red = 0, green = 1, blue = 2, yellow = 3;

inline json take(int from) { return {{"kind", "take_reindeer"}, {"from", from}}; }
inline json roll() { return {{"kind", "roll"}}; }
inline json sleigh_colour(const char* c) { return {{"kind", "sleigh_colour"}, {"colour", c}}; }
inline json choose_sleigh(int owner) { return {{"kind", "choose_sleigh"}, {"owner", owner}}; }
inline json wish_colour(const char* c) { return {{"kind", "wish_colour"}, {"colour", c}}; }

inline std::vector<std::string> kinds(const events& evs) {
  std::vector<std::string> out;
  for (const auto& e : evs) out.push_back(e.body.at("kind").get<std::string>());
  return out;
}

inline const event* find_event(const events& evs, const std::string& kind) {
  for (const auto& e : evs)
    if (e.body.at("kind") == kind) return &e;
  return nullptr;
}

inline outcome<std::unique_ptr<game>> create(const json& options, int players, std::optional<int> first_seat,
                                             dice& d) {
  return hh::info().create(setup{options, players, first_seat}, d);
}

// A table of players with scripted dice; every helper checks the engine's contract on the way.
struct table {
  std::unique_ptr<game> g;
  scripted_dice d;

  explicit table(json options = json::object(), int players = 3) {
    options["startPlayer"] = "host-picks";
    auto r = create(options, players, A, d);
    INFO((r.ok() ? "" : r.error().code + ": " + r.error().message));
    REQUIRE(r.ok());
    g = std::move(r.value());
  }

  events ok(int seat, const json& cmd) {
    auto r = g->apply(seat, cmd, d);
    INFO("command " << cmd.dump() << " -> " << (r.ok() ? "ok" : r.error().code + ": " + r.error().message));
    REQUIRE(r.ok());
    return r.value();
  }

  // Expects a rejection that changes nothing (state and dice) and returns its code.
  std::string rejected(int seat, const json& cmd) {
    const json before = g->full_state();
    const auto draws = d.draws();
    auto r = g->apply(seat, cmd, d);
    INFO("command " << cmd.dump());
    REQUIRE_FALSE(r.ok());
    CHECK(g->full_state() == before);
    CHECK(d.draws() == draws);
    return r.error().code;
  }

  events timeout() {
    auto p = g->current_prompt();
    REQUIRE(p);
    return g->on_timeout(p->serial, d);
  }

  template <class F>
  void edit(F f) {
    json s = g->full_state();
    f(s);
    auto r = hh::restore(s);
    INFO((r.ok() ? "" : r.error().message));
    REQUIRE(r.ok());
    g = std::move(r.value());
  }

  json v() const { return g->view(viewer::spectator()); }
  int stack(int seat, const char* colour) const { return v()["players"][seat]["stacks"][colour].get<int>(); }
  int sleigh(int seat, const char* colour) const {
    return v()["players"][seat]["sleigh"]["gifts"][colour].get<int>();
  }
  int tree(const char* colour) const { return v()["tree"][colour].get<int>(); }
  bool reindeer(int seat) const { return v()["players"][seat]["reindeer"].get<bool>(); }
  int active() const { return v()["active"].get<int>(); }
  std::string prompt_kind() const { return g->current_prompt() ? g->current_prompt()->kind : ""; }
};

// full_state arrays are [red, green, blue, yellow]; sleighs are indexed by sleigh id, which is the
// seat while nobody has swapped.
inline json gifts(int r, int g, int b, int y) { return json::array({r, g, b, y}); }

}  // namespace hh_test
