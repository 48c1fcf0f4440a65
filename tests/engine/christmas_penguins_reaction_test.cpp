// Christmas Penguins: "Stop!" claims made inside the reaction window (rulebook A23.2, A23.4; the
// engine's reading in docs/rules/christmas-penguins.md, "Deviations and additions": a stop is two
// commands, the window restarts after every stop, no re-claim until play moves on). Each scenario
// says who is granted, what everyone else sees and may do, and where play resumes.
#include "christmas_penguins_common.hpp"

using namespace cp_test;

namespace {

// stop_position, rolled: B (to move, no stone) has rolled a 3; C (red) and D (blue) may shout.
void in_window(table& t) {
  stop_position(t);
  t.roll(B, 3);
  REQUIRE(t.prompt() == "reaction");
  REQUIRE(t.g->current_prompt()->seats == std::vector<int>{C, D});
}

const event* find(const events& evs, const std::string& kind) {
  for (const auto& e : evs)
    if (e.body["kind"] == kind) return &e;
  return nullptr;
}

// Every seat and every spectator sees the event, unredacted.
void everyone_sees(const event& e, int players = 4) {
  CHECK(e.visible_to(viewer::spectator()));
  for (int s = 0; s < players; ++s) CHECK(e.visible_to(viewer::player(s)));
}

}  // namespace

TEST_CASE("A23.2 a claim inside the reaction window is granted at once, and everyone sees who holds it",
          "[christmas_penguins][stop][reaction]") {
  table t;
  in_window(t);
  const auto window = t.g->current_prompt()->serial;
  auto r = t.send(D, {{"kind", "stop"}});
  REQUIRE(r.ok());
  const event* claimed = find(r.value(), "stop_claimed");
  REQUIRE(claimed);
  CHECK(claimed->body["seat"] == D);
  CHECK(claimed->body["resumes"] == "reaction");
  everyone_sees(*claimed);
  CHECK(find(r.value(), "stop_queued") == nullptr);  // the window is a stable point: no queue
  CHECK(t.prompt() == "stopped");
  CHECK(t.g->current_prompt()->seats == std::vector<int>{D});
  for (int s = 0; s < 4; ++s) {
    INFO("seat " << s);
    CHECK(t.g->view(viewer::player(s))["prompt"] == "stopped");
  }
  // Nobody else moves the game on while D holds the stop: not the mover, not the other holder.
  CHECK(t.fails(C, {{"kind", "stop"}}) == "stop_already_claimed");
  CHECK(t.fails(C, {{"kind", "pass"}}) == "game_stopped");
  CHECK(t.fails(B, t.move(t.at(1, 2))) == "game_stopped");
  CHECK(t.fails(C, {{"kind", "use_stone"}, {"stone", "red"}, {"target", t.at(0, 0)}}) == "not_claimant");
  // The window's own timer is stale: its timeout neither closes the window nor ends the stop.
  CHECK(t.g->on_timeout(window, t.dice).empty());
  CHECK(t.prompt() == "stopped");
  CHECK(t.raw().roll == 3);
}

TEST_CASE("A23.3/A23.4 a stone used inside the window: the window opens again for every holder left, the die stays",
          "[christmas_penguins][stop][reaction]") {
  table t;
  in_window(t);
  t.ok(C, {{"kind", "pass"}});  // C passed; the stone D uses restarts the window for C too
  REQUIRE(t.g->current_prompt()->seats == std::vector<int>{D});
  const auto window = t.g->current_prompt()->serial;
  t.ok(D, {{"kind", "stop"}});
  auto r = t.send(D, {{"kind", "use_stone"}, {"stone", "blue"}, {"target", t.at(-3, 3)}});
  REQUIRE(r.ok());
  const event* used = find(r.value(), "stone_used");
  REQUIRE(used);
  everyone_sees(*used);
  CHECK(used->body["seat"] == D);
  const event* ended = find(r.value(), "stop_ended");
  REQUIRE(ended);
  CHECK(ended->body["reason"] == "used");
  CHECK(t.raw().santa == t.at(-2, 2));
  CHECK(t.pos(D) == t.at(-3, 3));
  // D has no stone left, so only C is asked again, on a fresh timer; B's 3 still stands.
  CHECK(t.prompt() == "reaction");
  CHECK(t.g->current_prompt()->seats == std::vector<int>{C});
  CHECK(t.g->current_prompt()->serial != window);
  CHECK(t.g->current_prompt()->timeout_ms == 4000);
  CHECK(t.raw().roll == 3);
  CHECK(t.fails(D, {{"kind", "stop"}}) == "no_usable_stone");
  t.ok(C, {{"kind", "pass"}});
  CHECK(t.prompt() == "move");
  CHECK(t.raw().active == B);
}

TEST_CASE("A23.2 a holder who passed may still shout in the same window", "[christmas_penguins][stop][reaction]") {
  table t;
  in_window(t);
  t.ok(C, {{"kind", "pass"}});
  CHECK(t.legal_has(C, {{"kind", "stop"}}));
  t.ok(C, {{"kind", "stop"}});
  CHECK(t.prompt() == "stopped");
  CHECK(t.g->current_prompt()->seats == std::vector<int>{C});
}

TEST_CASE("A23.4 a cancelled stop inside the window: the window restarts, the canceller may pass but not claim",
          "[christmas_penguins][stop][reaction]") {
  table t;
  in_window(t);
  t.ok(D, {{"kind", "pass"}});
  t.ok(C, {{"kind", "stop"}});
  auto r = t.send(C, {{"kind", "cancel_stop"}});
  REQUIRE(r.ok());
  const event* ended = find(r.value(), "stop_ended");
  REQUIRE(ended);
  CHECK(ended->body["reason"] == "cancelled");
  everyone_sees(*ended);
  CHECK(t.raw().stones[C][0] == 1);  // kept
  CHECK(t.prompt() == "reaction");
  CHECK(t.g->current_prompt()->seats == std::vector<int>{C, D});  // D's pass is forgotten too
  CHECK(t.fails(C, {{"kind", "stop"}}) == "stop_reclaim_blocked");
  CHECK_FALSE(t.legal_has(C, {{"kind", "stop"}}));
  // D was not the one who cancelled: D may shout now.
  t.ok(D, {{"kind", "stop"}});
  CHECK(t.g->current_prompt()->seats == std::vector<int>{D});
  t.ok(D, {{"kind", "cancel_stop"}});
  t.ok(C, {{"kind", "pass"}});
  t.ok(D, {{"kind", "pass"}});
  CHECK(t.prompt() == "move");
  // A pass does not move play on: both are still blocked from claiming until a real command.
  CHECK(t.fails(C, {{"kind", "stop"}}) == "stop_reclaim_blocked");
  t.ok(B, t.move(t.at(1, 2)));
  CHECK(t.legal_has(C, {{"kind", "stop"}}));
}

TEST_CASE("A23.3 a stop that lapses inside the window keeps the stone and reopens the window",
          "[christmas_penguins][stop][reaction]") {
  table t;
  in_window(t);
  t.ok(C, {{"kind", "stop"}});
  REQUIRE(t.g->current_prompt()->timeout_ms == 20000);
  auto lapse = t.timeout();
  const event* ended = find(lapse, "stop_ended");
  REQUIRE(ended);
  CHECK(ended->body["reason"] != "used");
  CHECK(ended->body["seat"] == C);
  CHECK(t.raw().stones[C][0] == 1);
  CHECK(t.prompt() == "reaction");
  CHECK(t.g->current_prompt()->seats == std::vector<int>{C, D});
  CHECK(t.raw().roll == 3);
  // D7: the window's timeout is everyone passing.
  t.timeout();
  CHECK(t.prompt() == "move");
}

TEST_CASE("A23.4 the mover's own reaction window: the mover may shout, Santa never", "[christmas_penguins][stop][reaction]") {
  table t;
  stop_position(t);
  t.st().stones[B] = {0, 0, 1};  // the mover holds a green stone
  t.st().stones[A] = {1, 1, 1};  // Santa's stones are unusable (A25)
  t.roll(B, 3);
  REQUIRE(t.prompt() == "reaction");
  CHECK(t.g->current_prompt()->seats == std::vector<int>{B, C, D});
  CHECK(t.fails(A, {{"kind", "stop"}}) == "no_usable_stone");
  CHECK(t.fails(A, {{"kind", "pass"}}) == "not_your_turn");
  t.ok(B, {{"kind", "stop"}});
  CHECK(t.g->current_prompt()->seats == std::vector<int>{B});
  auto second = t.send(C, {{"kind", "stop"}});
  REQUIRE_FALSE(second.ok());
  CHECK(second.error().code == "stop_already_claimed");
  CHECK(second.error().message.find("seat 1") != std::string::npos);
}

TEST_CASE("A23.3 use_stone inside the window without a claim is refused and changes nothing (two commands)",
          "[christmas_penguins][stop][reaction]") {
  table t;
  in_window(t);
  CHECK(t.fails(D, {{"kind", "use_stone"}, {"stone", "blue"}, {"target", t.at(-3, 3)}}) == "no_stop_claimed");
  CHECK(t.prompt() == "reaction");
  CHECK(t.g->current_prompt()->seats == std::vector<int>{C, D});
}
