// Christmas Penguins: "Stop!" (A23), the stones (A21, A22, A24) and the channels (A35, A36), from
// shared/rules/christmas-penguins.md. Named after the rule they check.
#include "christmas_penguins_common.hpp"

using namespace cp_test;

// ---- "Stop!" (A23) and the stones (A21, A22, A24) -----------------------------------------------

TEST_CASE("A23 Stop!: the first claim wins, the second is refused, only the claimant acts, it lapses",
          "[christmas_penguins][stop]") {
  table t;
  stop_position(t);
  CHECK(t.legal_has(C, {{"kind", "stop"}}));
  CHECK_FALSE(t.legal_has(B, {{"kind", "stop"}}));
  CHECK(t.fails(B, {{"kind", "stop"}}) == "no_usable_stone");
  const auto serial = t.g->current_prompt()->serial;
  t.ok(C, {{"kind", "stop"}});
  CHECK(t.prompt() == "stopped");
  CHECK(t.g->current_prompt()->seats == std::vector<int>{C});
  CHECK(t.g->current_prompt()->serial != serial);
  CHECK(t.g->current_prompt()->timeout_ms == 20000);
  auto second = t.send(D, {{"kind", "stop"}});
  REQUIRE_FALSE(second.ok());
  CHECK(second.error().code == "stop_already_claimed");
  CHECK(second.error().message.find("seat 2") != std::string::npos);
  CHECK(t.fails(B, {{"kind", "roll"}}) == "game_stopped");
  CHECK(t.fails(D, {{"kind", "cancel_stop"}}) == "not_claimant");
  CHECK(t.fails(D, {{"kind", "use_stone"}, {"stone", "blue"}, {"target", t.at(0, 0)}}) == "not_claimant");
  CHECK(t.g->on_timeout(serial, t.dice).empty());  // the roll's timer is stale now
  auto lapse = t.timeout();  // D16: lapses, the stone is kept
  CHECK(has_event(lapse, "stop_ended"));
  CHECK(t.raw().stones[C][0] == 1);
  CHECK(t.prompt() == "roll");
  // No claim/cancel loop: C may claim again only once play has moved on (here: B places a channel).
  CHECK(t.fails(C, {{"kind", "stop"}}) == "stop_reclaim_blocked");
  CHECK_FALSE(t.legal_has(C, {{"kind", "stop"}}));
  t.ok(B, {{"kind", "place_channel"}, {"a", t.at(3, 0)}, {"b", t.at(3, -1)}});
  // Claim again and use it: red swaps C's penguin with D's; the stone goes to Santa's supply.
  t.ok(C, {{"kind", "stop"}});
  CHECK(t.fails(C, {{"kind", "use_stone"}, {"stone", "red"}, {"target", t.at(-3, 3)}}) == "illegal_target");
  CHECK(t.fails(C, {{"kind", "use_stone"}, {"stone", "blue"}, {"target", t.at(-2, 2)}}) == "no_stone");
  t.ok(C, {{"kind", "use_stone"}, {"stone", "red"}, {"target", t.at(-2, 2)}});
  CHECK(t.pos(C) == t.at(-2, 2));
  CHECK(t.pos(D) == t.at(2, 0));
  CHECK(t.raw().supply == std::vector<int>{0});
  CHECK(t.prompt() == "roll");
  // A24: Santa re-places it at the start of the Santa player's next turn.
  t.st().active = D;
  t.st().ph = phase::await_post;
  t.ok(D, {{"kind", "end_turn"}});
  CHECK(t.prompt() == "place_stone");
  CHECK(t.fails(A, {{"kind", "place_stone"}, {"floe", t.at(-3, 3)}}) == "illegal_floe");  // the hut
  t.ok(A, {{"kind", "place_stone"}, {"floe", t.at(3, -3)}});
  CHECK(t.raw().floes[static_cast<std::size_t>(t.at(3, -3))].stone == 0);
  CHECK(t.prompt() == "roll");
}

TEST_CASE("A23.4 reaction window after the roll: eligible holders, pass, D7 on timeout",
          "[christmas_penguins][stop]") {
  table t;
  stop_position(t);
  t.st().stones[A] = {1, 1, 1};  // Santa's own stones are unusable (A25)
  t.roll(B, 3);
  CHECK(t.prompt() == "reaction");
  CHECK(t.g->current_prompt()->seats == std::vector<int>{C, D});
  CHECK(t.g->current_prompt()->timeout_ms == 4000);
  t.ok(C, {{"kind", "pass"}});
  CHECK(t.g->current_prompt()->seats == std::vector<int>{D});
  t.timeout();
  CHECK(t.prompt() == "move");
  // Blue swaps with any figure, here Santa; the die already rolled stays valid.
  t.ok(D, {{"kind", "stop"}});
  t.ok(D, {{"kind", "use_stone"}, {"stone", "blue"}, {"target", t.at(-3, 3)}});
  CHECK(t.raw().santa == t.at(-2, 2));
  CHECK(t.pos(D) == t.at(-3, 3));
  CHECK(t.prompt() == "move");
  CHECK(t.raw().roll == 3);
}

TEST_CASE("A23.2 a claim during a sub-prompt is queued and granted at the next stable point",
          "[christmas_penguins][stop]") {
  table t(json{{"reactionWindowMs", 0}});
  stop_position(t);
  t.put(C, 1, 0);
  t.roll(B, 1);
  t.ok(B, t.move(t.at(1, 0)));
  REQUIRE(t.prompt() == "push_chain");
  auto q = t.send(D, {{"kind", "stop"}});
  REQUIRE(q.ok());
  CHECK(has_event(q.value(), "stop_queued"));
  CHECK(t.prompt() == "push_chain");
  CHECK(t.fails(D, {{"kind", "stop"}}) == "stop_already_queued");
  CHECK(t.legal_has(D, {{"kind", "withdraw_stop"}}));
  auto r = t.send(B, t.chain({{2, 0}}));
  REQUIRE(r.ok());
  CHECK(has_event(r.value(), "stop_granted"));
  CHECK(t.prompt() == "stopped");
  CHECK(t.g->current_prompt()->seats == std::vector<int>{D});
  t.ok(D, {{"kind", "cancel_stop"}});
  CHECK(t.prompt() == "bear_move");  // play resumes where it stopped
}

TEST_CASE("A22 the green stone moves a floe with everything on it and drops its channels",
          "[christmas_penguins][stones]") {
  table t;
  stop_position(t);
  t.st().stones[C] = {0, 0, 1};
  const int f = t.at(0, 0);
  t.st().channels = {{std::min(f, t.at(1, 0)), std::max(f, t.at(1, 0)), B}};
  t.ok(C, {{"kind", "stop"}});
  CHECK(t.fails(C, {{"kind", "use_stone"}, {"stone", "green"}, {"floe", f}, {"to", {5, 0}}}) == "illegal_target");
  CHECK(t.fails(C, {{"kind", "use_stone"}, {"stone", "green"}, {"floe", f}, {"to", {1, 0}}}) == "illegal_target");
  t.ok(C, {{"kind", "use_stone"}, {"stone", "green"}, {"floe", f}, {"to", {4, 0}}});
  CHECK(t.raw().floes[static_cast<std::size_t>(f)].q == 4);
  CHECK(t.pos(B) == f);
  CHECK(t.raw().channels.empty());
  CHECK(cp::detail::board_connected(t.raw()));
}

TEST_CASE("A35/A36 channels: own turn, supply, no double edge, connectivity guard", "[christmas_penguins][channels]") {
  table t(json{{"channelsPerTurn", 1}});
  t.put(B, 0, 0);
  t.turn(B);
  const json ch = {{"kind", "place_channel"}, {"a", t.at(3, 0)}, {"b", t.at(3, -1)}};
  CHECK(t.fails(C, ch) == "not_your_turn");
  t.ok(B, ch);
  CHECK(t.raw().channels_left[B] == 2);
  CHECK(t.fails(B, {{"kind", "place_channel"}, {"a", t.at(3, 0)}, {"b", t.at(2, 0)}}) == "channel_limit");
  t.st().channels_this_turn = 0;
  CHECK(t.fails(B, ch) == "illegal_edge");
  CHECK(t.fails(B, {{"kind", "place_channel"}, {"a", t.at(0, 0)}, {"b", t.at(2, 0)}}) == "illegal_edge");
  t.ok(B, {{"kind", "place_channel"}, {"a", t.at(3, 0)}, {"b", t.at(2, 0)}});
  t.st().channels_this_turn = 0;
  CHECK(t.fails(B, {{"kind", "place_channel"}, {"a", t.at(3, 0)}, {"b", t.at(2, 1)}}) == "disconnects_board");
}

// A23.1/A23.2, two claims queued during a sub-prompt: the first is granted at the stable point,
// the second keeps its place in line through that stop (it was shouted before the game was
// stopped, so it is not refused) and is granted when play reaches the stable point again, at the
// end of the first stop, before anything else. A claim that arrives while a stop is held is
// refused, not queued: also one sent right after the first stop ended, since the queued claim was
// granted by the very command that ended it. Only when the queue is empty does play go on.
TEST_CASE("A23.2 a second queued claim is granted when the first stop ends and claims during a stop are refused",
          "[christmas_penguins][stop]") {
  table t(json{{"reactionWindowMs", 0}});
  stop_position(t);
  t.st().stones[B] = {0, 0, 1};  // the mover holds a green stone too
  t.put(C, 1, 0);
  t.roll(B, 1);
  t.ok(B, t.move(t.at(1, 0)));
  REQUIRE(t.prompt() == "push_chain");
  t.ok(D, {{"kind", "stop"}});
  t.ok(C, {{"kind", "stop"}});
  CHECK(t.raw().stop_queue == std::deque<int>{D, C});
  CHECK(t.prompt() == "push_chain");

  auto granted = t.send(B, t.chain({{2, 0}}));
  REQUIRE(granted.ok());
  CHECK(has_event(granted.value(), "stop_granted"));
  CHECK(t.prompt() == "stopped");
  CHECK(t.raw().claimant == D);
  CHECK(t.raw().stop_queue == std::deque<int>{C});  // C keeps its place
  CHECK(t.g->view(viewer::spectator())["stop"]["queue"] == json::array({C}));
  // B shouts during D's stop: refused, naming D, and not queued.
  auto during = t.send(B, {{"kind", "stop"}});
  REQUIRE_FALSE(during.ok());
  CHECK(during.error().code == "stop_already_claimed");
  CHECK(during.error().message.find("seat 3") != std::string::npos);
  CHECK(t.raw().stop_queue == std::deque<int>{C});

  // D's stop ends: C's queued claim is granted in the same command, before play goes on.
  auto ended = t.send(D, {{"kind", "cancel_stop"}});
  REQUIRE(ended.ok());
  std::vector<std::string> kinds;
  for (const auto& e : ended.value()) kinds.push_back(e.body["kind"]);
  CHECK(kinds == std::vector<std::string>{"stop_ended", "stop_granted"});
  CHECK(ended.value()[1].body == json({{"kind", "stop_granted"}, {"seat", C}, {"resumes", "bear_move"}}));
  CHECK(t.prompt() == "stopped");
  CHECK(t.g->current_prompt()->seats == std::vector<int>{C});
  CHECK(t.raw().stop_queue.empty());
  // B's claim right after D's stop ended is refused: C holds the stop now.
  auto after = t.send(B, {{"kind", "stop"}});
  REQUIRE_FALSE(after.ok());
  CHECK(after.error().code == "stop_already_claimed");
  CHECK(after.error().message.find("seat 2") != std::string::npos);

  // C's stop ends with the queue empty: play resumes at the bear, and B may claim now.
  t.ok(C, {{"kind", "cancel_stop"}});
  CHECK(t.prompt() == "bear_move");
  t.ok(B, {{"kind", "stop"}});
  CHECK(t.raw().claimant == B);
}
