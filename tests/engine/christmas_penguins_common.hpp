#pragma once
// Shared by the Christmas Penguins engine tests (rules and the "Stop!" protocol with its stones).
//
// Positions: 4 players A=0 (first Santa, host-picked), B=1, C=2, D=3 on the radius-3 board, no
// stones unless a test gives some; the position is written into the state with cp_game::edit()
// and the die is scripted (roll value v is scripted as v-1).
#include <catch2/catch.hpp>
#include <memory>
#include <string>

#include "christmas_penguins/christmas_penguins.hpp"
#include "christmas_penguins/cp_game.hpp"

namespace cp_test {

using namespace tinsel::engine;
namespace cp = tinsel::engine::christmas_penguins;
using cp::detail::phase;

constexpr int A = 0, B = 1, C = 2, D = 3;

struct table {
  std::unique_ptr<game> g;
  cp::detail::cp_game* cpg = nullptr;
  scripted_dice dice;

  explicit table(json options = json::object(), int players = 4) {
    options["startPlayer"] = "host-picks";
    if (!options.contains("stones")) options["stones"] = "0/0/0";
    auto norm = cp::info().normalize_options(options);
    REQUIRE(norm.ok());
    scripted_dice setup_dice{0};  // the hut on floe 0; moved by the tests
    auto created = cp::info().create({norm.value(), players, 0}, setup_dice);
    REQUIRE(created.ok());
    g = std::move(created.value());
    cpg = dynamic_cast<cp::detail::cp_game*>(g.get());
    // A clean mid-game position: A is Santa, nobody placed yet; tests put the figures.
    auto& s = st();
    s.place_order.clear();
    s.tree = at(0, 3);
    s.bear = at(0, -3);
    s.santa = at(-3, 3);
    s.hut = at(-3, 3);
    for (auto& p : s.penguin) p = cp::detail::edge;
    s.ph = phase::await_roll;
    s.active = A;
  }
  cp::detail::state& st() { return cpg->edit(); }
  const cp::detail::state& raw() const { return cpg->raw(); }
  int at(int q, int r) const { return cp::detail::floe_at(cpg->raw(), q, r); }
  void put(int seat, int q, int r) { st().penguin[static_cast<std::size_t>(seat)] = at(q, r); }
  int pos(int seat) const { return raw().penguin[static_cast<std::size_t>(seat)]; }
  void turn(int seat) {
    st().active = seat;
    st().ph = phase::await_roll;
  }
  outcome<events> send(int seat, json cmd) { return g->apply(seat, cmd, dice); }
  void ok(int seat, json cmd) {
    auto r = send(seat, cmd);
    INFO(cmd.dump() << " -> " << (r.ok() ? "" : r.error().code + " " + r.error().message));
    REQUIRE(r.ok());
  }
  std::string fails(int seat, json cmd) {
    const json before = g->full_state();
    auto r = send(seat, cmd);
    INFO(cmd.dump());
    REQUIRE_FALSE(r.ok());
    CHECK(g->full_state() == before);
    return r.error().code;
  }
  void roll(int seat, int value) {
    dice.push(static_cast<std::uint32_t>(value - 1));
    ok(seat, {{"kind", "roll"}});
  }
  bool legal_has(int seat, const json& cmd) const {
    for (const auto& e : g->legal(seat))
      if (e == cmd) return true;
    return false;
  }
  std::string prompt() const { return g->current_prompt()->kind; }
  events timeout() { return g->on_timeout(g->current_prompt()->serial, dice); }
  static json move(int f) { return {{"kind", "move"}, {"to", f}}; }
  json chain(std::initializer_list<std::pair<int, int>> cells) const {
    json c = json::array();
    for (auto [q, r] : cells) c.push_back(at(q, r));
    return {{"kind", "push"}, {"chain", c}};
  }
};

inline bool has_event(const events& evs, const std::string& kind) {
  for (const auto& e : evs)
    if (e.body["kind"] == kind) return true;
  return false;
}

// B to roll at (0,0); C holds a red stone at (2,0), D a blue one at (-2,2); Santa A at (-3,3).
inline void stop_position(table& t) {
  t.put(B, 0, 0);
  t.put(C, 2, 0);
  t.put(D, -2, 2);
  t.st().stones[C] = {1, 0, 0};
  t.st().stones[D] = {0, 1, 0};
  t.turn(B);
}

}  // namespace cp_test
