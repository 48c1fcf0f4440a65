// Christmas Penguins scenarios from shared/rules/christmas-penguins.md (CP-T1..CP-T6), options,
// the polar bear, the timeout defaults D1-D17 and the end of the game; the "Stop!" protocol and the
// stones are in christmas_penguins_stop_test.cpp. Named after the rule they check.
#include "christmas_penguins_common.hpp"

using namespace cp_test;

// ---- options ------------------------------------------------------------------------------

TEST_CASE("options: defaults, idempotence, timers down to 1 second", "[christmas_penguins][options]") {
  const auto info = cp::info();
  auto r = info.normalize_options(json::object());
  REQUIRE(r.ok());
  const json& o = r.value();
  CHECK(o["minPlayers"] == 2);
  CHECK(o["boardRadius"] == "auto");
  CHECK(o["presentsPerColour"] == 4);
  CHECK(o["stones"] == "2/2/2");
  CHECK(o["channelsPerPlayer"] == 3);
  CHECK(o["channelsPerTurn"] == "unlimited");
  CHECK(o["treeMinDistance"] == 3);
  CHECK(o["reactionWindowMs"] == 4000);
  CHECK(o["connectivityGuard"] == true);
  CHECK(o["maxRounds"] == 20);
  CHECK(o["mainTimeoutSec"] == 60);
  CHECK(o["subPromptTimeoutSec"] == 30);
  CHECK(o["stopSeconds"] == 20);
  CHECK(info.normalize_options(o).value() == o);
  CHECK(info.seats(o).min == 2);
  CHECK(info.seats(o).max == 6);
  CHECK(info.normalize_options({{"mainTimeoutSec", 1}, {"subPromptTimeoutSec", 1}, {"stopSeconds", 1}}).ok());
  CHECK(info.normalize_options({{"mainTimeoutSec", "off"}, {"boardRadius", 4}, {"channelsPerTurn", 1}}).ok());
}

TEST_CASE("options: bad values and unknown keys are invalid_option", "[christmas_penguins][options]") {
  const std::vector<json> bad = {{{"colour", 1}},          {{"minPlayers", 1}},         {{"minPlayers", 7}},
                                 {{"boardRadius", 5}},     {{"boardRadius", "big"}},    {{"presentsPerColour", 2}},
                                 {{"stones", "2/2"}},      {{"stones", "5/0/0"}},       {{"stones", 6}},
                                 {{"channelsPerTurn", 2}}, {{"backtrackRule", "free"}}, {{"treeMinDistance", 0}},
                                 {{"reactionWindowMs", -1}}, {{"connectivityGuard", "yes"}}, {{"maxRounds", 0}},
                                 {{"mainTimeoutSec", 0}},  {{"stopSeconds", 0}},        {{"bonusMode", "three"}},
                                 json::array()};
  for (const auto& o : bad) {
    INFO(o.dump());
    auto r = cp::info().normalize_options(o);
    REQUIRE_FALSE(r.ok());
    CHECK(r.error().code == "invalid_option");
  }
}

TEST_CASE("A2/A3/A6 setup: board size, hut and stones by the dice, penguins placed after Santa",
          "[christmas_penguins][setup]") {
  seeded_dice d(7);
  auto norm = cp::info().normalize_options(json::object()).value();
  auto g = std::move(cp::info().create({norm, 5, std::nullopt}, d).value());
  const auto* cpg = dynamic_cast<cp::detail::cp_game*>(g.get());
  const auto& s = cpg->raw();
  CHECK(s.floes.size() == 61);  // auto radius: 4 for 5 players
  int stones = 0;
  for (const auto& f : s.floes) stones += f.stone != cp::detail::no_stone;
  CHECK(stones == 6);
  CHECK(s.floes[static_cast<std::size_t>(s.hut)].stone == cp::detail::no_stone);
  CHECK(s.santa == s.hut);
  CHECK(g->current_prompt()->kind == "place_penguin");
  CHECK(g->current_prompt()->seats == std::vector<int>{(s.santa_player + 1) % 5});
  CHECK(s.pool[0] == 2);  // 4 red minus the 2 seat 0 holds
  CHECK(s.pool[5] == 4);  // orange: nobody sits there (all6)
  // Timeouts D1, D2, D3 carry the setup through to Santa's first roll.
  while (g->current_prompt()->kind != "roll") REQUIRE_FALSE(g->on_timeout(g->current_prompt()->serial, d).empty());
  CHECK(s.tree >= 0);
  CHECK(s.bear >= 0);
  CHECK(cp::detail::hex_dist(s, s.tree, s.santa) >= 3);
}

TEST_CASE("A7 the bear never starts on the tree floe: not legal, refused, not the default, over many seeds",
          "[christmas_penguins][setup]") {
  const auto norm = cp::info().normalize_options(json::object()).value();
  int default_met_tree_floe = 0;  // seeds where D3's scan reaches the tree floe first
  for (std::uint64_t seed = 1; seed <= 300; ++seed) {
    INFO("seed " << seed);
    seeded_dice d(seed);
    const int players = 2 + static_cast<int>(seed % 5);
    auto g = std::move(cp::info().create({norm, players, std::nullopt}, d).value());
    const auto& s = dynamic_cast<const cp::detail::cp_game&>(*g).raw();
    // Penguins by their default (D1); the tree on the lowest-numbered floe it may take, so that
    // D3 (the lowest-numbered free floe) meets the tree floe first in many seeds.
    while (g->current_prompt()->kind != "place_bear") {
      const auto pr = *g->current_prompt();
      if (pr.kind == "place_tree") {
        REQUIRE(g->apply(pr.seats.front(), g->legal(pr.seats.front()).front(), d).ok());
      } else {
        REQUIRE_FALSE(g->on_timeout(pr.serial, d).empty());
      }
    }
    const int santa = g->current_prompt()->seats.front();
    REQUIRE(s.tree >= 0);
    REQUIRE(s.bear < 0);
    const json legal = g->legal(santa);
    CHECK_FALSE(legal.empty());
    for (const auto& e : legal) CHECK(e["floe"] != s.tree);
    int first_free = 0;
    while (cp::detail::has_figure(s, first_free)) ++first_free;
    default_met_tree_floe += first_free == s.tree;

    const json before = g->full_state();
    CHECK_FALSE(g->apply(santa, {{"kind", "place_bear"}, {"floe", s.tree}}, d).ok());
    CHECK(g->full_state() == before);
    REQUIRE_FALSE(g->on_timeout(g->current_prompt()->serial, d).empty());  // D3
    CHECK(s.bear >= 0);
    CHECK(s.bear != s.tree);
    CHECK_FALSE(cp::detail::has_figure(s, s.tree));
  }
  CHECK(default_met_tree_floe >= 10);  // the default was really put to the test
}

TEST_CASE("a command with a field its kind does not have is bad_command and changes nothing",
          "[christmas_penguins][commands]") {
  seeded_dice d(7);
  auto norm = cp::info().normalize_options(json::object()).value();
  auto g = std::move(cp::info().create({norm, 2, std::nullopt}, d).value());
  const int seat = g->current_prompt()->seats.front();
  const json listed = g->legal(seat).front();  // a place_penguin entry
  REQUIRE(listed["kind"] == "place_penguin");
  const json before = g->full_state();
  json extra = listed;
  extra["extra"] = 1;  // found by tests/fuzz: this was accepted although legal() does not list it
  auto r = g->apply(seat, extra, d);
  REQUIRE_FALSE(r.ok());
  CHECK(r.error().code == "bad_command");
  CHECK(g->full_state() == before);
  // use_stone: red and blue take a target only, green a floe and a destination only.
  for (const json& cmd : {json{{"kind", "use_stone"}, {"stone", "red"}, {"target", 1}, {"floe", 1}},
                          json{{"kind", "use_stone"}, {"stone", "green"}, {"floe", 1}, {"to", {0, 1}}, {"target", 1}}}) {
    auto u = g->apply(seat, cmd, d);
    REQUIRE_FALSE(u.ok());
    CHECK(u.error().code == "bad_command");
  }
  CHECK(g->apply(seat, listed, d).ok());
}

// ---- CP-T1 .. CP-T6 -------------------------------------------------------------------------

TEST_CASE("CP-T1a R11/R14 blocked by figures and channels: no path, the penguin stays", "[christmas_penguins][T1]") {
  table t;
  t.put(B, 3, 0);
  t.put(C, 2, 0);
  t.st().channels = {{std::min(t.at(3, 0), t.at(3, -1)), std::max(t.at(3, 0), t.at(3, -1)), A},
                     {std::min(t.at(3, 0), t.at(2, 1)), std::max(t.at(3, 0), t.at(2, 1)), A}};
  t.turn(B);
  t.dice.push(1);  // a 2
  auto r = t.send(B, {{"kind", "roll"}});
  REQUIRE(r.ok());
  CHECK(has_event(r.value(), "no_move"));
  CHECK(t.prompt() == "post_move");
  CHECK(t.pos(B) == t.at(3, 0));
  CHECK(t.fails(B, t.move(t.at(2, 0))) == "wrong_phase");

  table u;
  u.put(B, 3, 0);
  u.put(C, 2, 0);
  u.st().channels = t.raw().channels;
  u.turn(B);
  u.roll(B, 1);
  CHECK(u.legal_has(B, u.move(u.at(2, 0))));  // a push
}

TEST_CASE("CP-T1b A12 Santa never passes or enters the tree floe", "[christmas_penguins][T1]") {
  table t;
  t.st().santa = t.at(0, 0);
  t.st().tree = t.at(1, 0);
  t.put(B, -3, 3);
  t.roll(A, 2);
  CHECK_FALSE(t.legal_has(A, t.move(t.at(2, 0))));
  CHECK(t.legal_has(A, t.move(t.at(2, -1))));
  CHECK(t.legal_has(A, t.move(t.at(0, -2))));
  CHECK(t.fails(A, t.move(t.at(2, 0))) == "illegal_destination");

  table u;
  u.st().santa = u.at(0, 0);
  u.st().tree = u.at(1, 0);
  u.put(B, -3, 3);
  u.roll(A, 1);
  CHECK(u.fails(A, u.move(u.at(1, 0))) == "illegal_destination");
}

TEST_CASE("CP-T2 A11 simple paths: no return to the start floe", "[christmas_penguins][T2]") {
  for (const char* rule : {"simplePath", "noImmediateReverse"}) {
    table t(json{{"backtrackRule", rule}});
    t.put(B, 0, 0);
    t.turn(B);
    t.roll(B, 2);
    CHECK_FALSE(t.legal_has(B, t.move(t.at(0, 0))));
    table u(json{{"backtrackRule", rule}});
    u.put(B, 0, 0);
    u.turn(B);
    u.roll(B, 3);
    if (std::string(rule) == "simplePath") {
      CHECK(u.fails(B, u.move(u.at(0, 0))) == "illegal_destination");
    } else {
      u.ok(B, u.move(u.at(0, 0)));
      CHECK(u.pos(B) == u.at(0, 0));
    }
  }
}

TEST_CASE("CP-T3 R15-R17/A14/A15 push chains are chosen whole by the mover", "[christmas_penguins][T3]") {
  const auto setup = [](table& t) {
    t.put(B, 0, 0);
    t.put(C, 1, 0);
    t.put(D, 2, 0);
    t.st().tree = t.at(2, -1);
    t.st().santa = t.at(1, 1);
    t.st().bear = t.at(0, 1);
    t.st().channels = {{std::min(t.at(1, 0), t.at(1, -1)), std::max(t.at(1, 0), t.at(1, -1)), A}};
    t.turn(B);
    t.roll(B, 1);
    t.ok(B, t.move(t.at(1, 0)));
  };
  table t;
  setup(t);
  CHECK(t.prompt() == "push_chain");
  CHECK(t.g->current_prompt()->seats == std::vector<int>{B});
  CHECK(t.fails(B, t.chain({{2, 0}, {1, 0}})) == "illegal_chain");   // revisits X
  CHECK(t.fails(B, t.chain({{2, 0}})) == "illegal_chain");           // ends on a penguin
  CHECK(t.fails(B, t.chain({{0, 0}, {-1, 0}})) == "illegal_chain");  // (0,0) is free: the chain ends there
  CHECK(t.fails(B, t.chain({{1, -1}})) == "illegal_chain");          // across a channel
  CHECK(t.fails(B, t.chain({{2, -1}})) == "illegal_chain");          // tree
  CHECK(t.fails(B, t.chain({{1, 1}})) == "illegal_chain");           // Santa
  CHECK(t.fails(B, t.chain({{0, 1}})) == "illegal_chain");           // bear
  table back;
  setup(back);
  back.ok(B, back.chain({{0, 0}}));
  CHECK(back.pos(C) == back.at(0, 0));
  t.ok(B, t.chain({{2, 0}, {3, 0}}));
  CHECK(t.pos(B) == t.at(1, 0));
  CHECK(t.pos(C) == t.at(2, 0));
  CHECK(t.pos(D) == t.at(3, 0));
  CHECK(t.prompt() == "bear_move");  // a 1: the bear follows

  table ff(json{{"pushMode", "freeFirst"}});
  setup(ff);
  CHECK(ff.fails(B, ff.chain({{2, 0}, {3, 0}})) == "illegal_chain");
  ff.ok(B, ff.chain({{0, 0}}));
}

TEST_CASE("CP-T4 R27-R30 Santa catches a penguin: confiscation, role swap, hut re-entry", "[christmas_penguins][T4]") {
  table t;
  t.st().santa = t.at(0, 0);
  t.st().hut = t.at(-3, 0);
  t.put(B, 2, 0);
  t.put(C, -1, 3);
  t.put(D, 3, -3);
  t.st().presents[B] = {2, 1, 0, 0, 0, 0};
  const int pool_red = t.raw().pool[0];
  t.roll(A, 2);
  t.ok(A, t.move(t.at(2, 0)));
  CHECK(t.prompt() == "confiscate");
  CHECK(t.g->current_prompt()->seats == std::vector<int>{A});
  CHECK(t.fails(A, {{"kind", "confiscate"}, {"colour", "green"}}) == "colour_not_available");
  t.ok(A, {{"kind", "confiscate"}, {"colour", "red"}});
  CHECK(t.raw().presents[B][0] == 1);
  CHECK(t.raw().presents[B][1] == 1);
  CHECK(t.raw().pool[0] == pool_red + 1);
  CHECK(t.raw().santa_player == B);
  CHECK(t.pos(B) == cp::detail::edge);
  CHECK(t.pos(A) == cp::detail::at_hut);
  CHECK(t.raw().santa == t.at(2, 0));
  CHECK(t.prompt() == "post_move");
  t.ok(A, {{"kind", "end_turn"}});
  CHECK(t.raw().active == B);  // B moves Santa from (2,0)
  t.roll(B, 1);
  CHECK(t.legal_has(B, t.move(t.at(1, 0))));
  // A re-enters from the hut (-3,0); with every exit walled, A is put on the free hut floe.
  t.turn(A);
  t.roll(A, 1);
  CHECK(t.legal_has(A, t.move(t.at(-2, 0))));
  table w;
  w.st().hut = w.at(-3, 0);
  w.put(A, 0, 0);
  w.st().penguin[A] = cp::detail::at_hut;
  w.st().santa_player = B;
  w.st().santa = w.at(3, -3);
  w.put(C, 0, 0);
  for (auto [q, r] : {std::pair{-2, 0}, {-2, -1}, {-3, 1}})
    w.st().channels.push_back({std::min(w.at(-3, 0), w.at(q, r)), std::max(w.at(-3, 0), w.at(q, r)), B});
  w.turn(A);
  w.roll(A, 3);
  CHECK(w.pos(A) == w.at(-3, 0));
  CHECK(w.prompt() == "post_move");
}

TEST_CASE("CP-T5 A26 a penguin walking into Santa swaps roles, D10 on timeout", "[christmas_penguins][T5]") {
  table t;
  t.st().santa = t.at(2, 0);
  t.put(B, 0, 0);
  t.put(C, -3, 3);
  t.turn(B);
  t.roll(B, 2);
  // D8: the default never walks into Santa while another destination exists.
  {
    auto twin = t.g->clone();
    twin->on_timeout(twin->current_prompt()->serial, t.dice);
    CHECK(dynamic_cast<cp::detail::cp_game*>(twin.get())->raw().santa_player == A);
  }
  t.ok(B, t.move(t.at(2, 0)));
  CHECK(t.prompt() == "confiscate");
  CHECK(t.g->current_prompt()->seats == std::vector<int>{A});
  t.timeout();  // D10: B holds blue 2 -> blue
  CHECK(t.raw().presents[B][1] == 1);
  CHECK(t.raw().santa_player == B);
  CHECK(t.pos(A) == cp::detail::at_hut);
  CHECK(t.raw().santa == t.at(2, 0));
  CHECK(t.prompt() == "post_move");
  CHECK(t.raw().active == B);

  table v;  // on a 1 the bear still moves, by B as the new Santa
  v.st().santa = v.at(1, 0);
  v.put(B, 0, 0);
  v.turn(B);
  v.roll(B, 1);
  v.ok(B, v.move(v.at(1, 0)));
  v.ok(A, {{"kind", "confiscate"}, {"colour", "blue"}});
  CHECK(v.prompt() == "bear_move");
  CHECK(v.g->current_prompt()->seats == std::vector<int>{B});
}

TEST_CASE("CP-T6 R19/R20/A19 steal and tree relocation at distance 3", "[christmas_penguins][T6]") {
  const auto setup = [](table& t) {
    t.st().santa = t.at(-2, 0);
    t.st().tree = t.at(2, 0);
    t.put(B, 0, 0);
    t.put(C, -3, 3);
    t.st().pool = {1, 3, 0, 0, 0, 0};
    t.turn(B);
    t.roll(B, 2);
    t.ok(B, t.move(t.at(2, 0)));
    REQUIRE(t.prompt() == "steal_colour");
    t.ok(B, {{"kind", "steal"}, {"colour", "blue"}});
  };
  table t;
  setup(t);
  CHECK(t.raw().pool[1] == 2);
  CHECK(t.prompt() == "relocate_tree");
  CHECK(t.g->current_prompt()->seats == std::vector<int>{A});
  const json reloc = {{"kind", "relocate_tree"}};
  const auto at = [&](int q, int r) { json c = reloc; c["floe"] = t.at(q, r); return c; };
  CHECK(t.fails(A, at(-1, 0)) == "illegal_floe");
  CHECK(t.fails(A, at(0, 0)) == "illegal_floe");
  CHECK(t.fails(A, at(2, 0)) == "illegal_floe");
  t.ok(A, at(1, 0));
  CHECK(t.raw().tree == t.at(1, 0));
  CHECK(t.prompt() == "post_move");
  CHECK(t.raw().active == B);
  table d12;
  setup(d12);
  d12.timeout();
  CHECK(cp::detail::hex_dist(d12.raw(), d12.raw().tree, d12.raw().santa) >= 3);
  CHECK(d12.prompt() == "post_move");
}

// ---- the polar bear (A31-A34) ------------------------------------------------------------------

TEST_CASE("A32-A34 the bear meets a penguin: a present stays on the floe, the victim flees, D14/D15",
          "[christmas_penguins][bear]") {
  table t;
  t.st().santa = t.at(-3, 3);
  t.st().bear = t.at(0, 0);
  t.put(B, -3, 0);
  t.put(C, 1, 0);
  t.turn(B);
  t.roll(B, 1);
  t.ok(B, t.move(t.at(-2, 0)));
  CHECK(t.prompt() == "bear_move");
  t.ok(B, {{"kind", "bear_move"}, {"to", t.at(1, 0)}});
  CHECK(t.prompt() == "flee");
  CHECK(t.g->current_prompt()->seats == std::vector<int>{C});
  CHECK(t.fails(C, {{"kind", "flee"}, {"colour", "red"}, {"to", t.at(2, 0)}}) == "colour_not_available");
  CHECK(t.fails(C, {{"kind", "flee"}, {"colour", "green"}, {"to", t.at(3, 0)}}) == "illegal_floe");
  t.timeout();  // D15: green (held most), the adjacent refuge farthest from Santa
  CHECK(t.raw().presents[C][2] == 1);
  CHECK(t.raw().floes[static_cast<std::size_t>(t.at(1, 0))].loose[2] == 1);
  CHECK(t.pos(C) == t.at(2, -1));
  CHECK(t.prompt() == "post_move");
  // A34: a penguin ending its own move there collects the loose present.
  t.ok(B, {{"kind", "end_turn"}});
  t.turn(B);
  t.st().bear = t.at(-3, 2);
  t.roll(B, 3);
  t.ok(B, t.move(t.at(1, 0)));
  CHECK(t.raw().presents[B][2] == 1);

  table d14;  // D14: the lowest-id step without a penguin
  d14.st().bear = d14.at(0, 0);
  d14.put(B, -3, 0);
  d14.put(C, 0, -1);
  d14.turn(B);
  d14.roll(B, 1);
  d14.ok(B, d14.move(d14.at(-2, 0)));
  d14.timeout();
  CHECK(d14.raw().bear == d14.at(1, -1));
}

// ---- timeout defaults -------------------------------------------------------------------------

TEST_CASE("D6 roll, D9 shortest chain, D8 nearest the tree, D13 takes the stone, D17 ends the turn",
          "[christmas_penguins][defaults]") {
  table t;
  t.st().tree = t.at(3, 0);
  t.put(B, 0, 0);
  t.put(C, 1, 0);
  t.turn(B);
  t.dice.push(0);
  t.timeout();  // D6: the server rolls (a 1)
  CHECK(t.prompt() == "move");
  t.ok(B, t.move(t.at(1, 0)));
  t.timeout();  // D9: one-hop chains; the lowest floe id is (1,-1)
  CHECK(t.pos(C) == t.at(1, -1));
  CHECK(t.prompt() == "bear_move");

  table d8;
  d8.st().tree = d8.at(3, 0);
  d8.put(B, 0, 0);
  d8.st().floes[static_cast<std::size_t>(d8.at(2, 0))].stone = 0;
  d8.turn(B);
  d8.roll(B, 2);
  d8.timeout();  // D8: the only floe at distance 1 from the tree
  CHECK(d8.pos(B) == d8.at(2, 0));
  CHECK(d8.prompt() == "pickup_stone");
  d8.timeout();  // D13
  CHECK(d8.raw().stones[B][0] == 1);
  CHECK(d8.prompt() == "post_move");
  d8.timeout();  // D17
  CHECK(d8.raw().active == C);
}

// ---- end and scoring (A37, A38) -----------------------------------------------------------------

TEST_CASE("A37/A38 the last stolen present ends the game, one bonus point, the final Santa cannot win",
          "[christmas_penguins][scoring]") {
  for (const char* tie : {"shared", "presentsThenDistinct"}) {
    table t(json{{"tieBreak", tie}});
    t.st().santa = t.at(-2, 0);
    t.st().tree = t.at(2, 0);
    t.put(B, 0, 0);
    t.put(C, -3, 3);
    t.put(D, 3, -3);
    t.st().pool = {0, 0, 0, 0, 0, 1};
    t.st().presents = {{5, 0, 0, 0, 0, 0}, {0, 2, 0, 0, 0, 0}, {0, 0, 3, 0, 0, 0}, {1, 1, 1, 0, 0, 0}};
    t.turn(B);
    t.roll(B, 2);
    t.ok(B, t.move(t.at(2, 0)));
    t.ok(B, {{"kind", "steal"}, {"colour", "orange"}});
    REQUIRE(t.g->is_over());
    const json r = t.g->result();
    CHECK(r["scores"] == json({5, 3, 4, 4}));
    CHECK(r["reason"] == "pool_empty");
    CHECK(r["winners"] == (std::string(tie) == "shared" ? json({C, D}) : json({D})));
    CHECK(t.g->legal(B).empty());
  }
  table two(json{{"bonusMode", "twoAwards"}});
  two.st().presents = {{0, 0, 0, 0, 0, 0}, {3, 1, 1, 1, 0, 0}, {0, 0, 0, 0, 0, 0}, {1, 1, 1, 0, 0, 0}};
  CHECK(two.cpg->points() == std::vector<int>{0, 8, 0, 3});  // +1 per category
}

TEST_CASE("C8 the round cap ends the game after maxRounds rounds", "[christmas_penguins][scoring]") {
  table t(json{{"maxRounds", 1}});
  t.put(B, 0, 0);
  t.put(C, 2, 0);
  t.put(D, -2, 2);
  t.st().turns = 3;
  t.st().active = D;
  t.st().ph = phase::await_post;
  t.ok(D, {{"kind", "end_turn"}});
  CHECK(t.g->is_over());
  CHECK(t.g->result()["reason"] == "round_cap");
}

TEST_CASE("D1 places a penguin farthest from Santa, D4 re-places a stone at random on a legal floe",
          "[christmas_penguins][defaults]") {
  table t;
  t.st().place_order = {B};
  t.st().ph = phase::place_penguin;
  t.st().santa = t.at(0, 0);
  t.timeout();
  CHECK(cp::detail::hex_dist(t.raw(), t.pos(B), t.at(0, 0)) == 3);
  CHECK(t.pos(B) == t.at(1, -3));  // the lowest id at distance 3; the bear stands on (0,-3)
  table u;
  u.st().supply = {2};
  u.st().active = D;
  u.st().ph = phase::await_post;
  u.ok(D, {{"kind", "end_turn"}});
  REQUIRE(u.prompt() == "place_stone");
  const auto legal = cp::detail::stone_floes(u.raw());
  u.dice.push(4);
  u.timeout();
  CHECK(u.raw().floes[static_cast<std::size_t>(legal[4])].stone == 2);
  CHECK(u.raw().supply.empty());
  CHECK(u.prompt() == "roll");
}

TEST_CASE("options: bearMode=instead, confiscatedTo=santaPlayer, bearDropTo=pool, stoneRecycle=discard",
          "[christmas_penguins][options]") {
  table t(json{{"bearMode", "instead"}, {"confiscatedTo", "santaPlayer"}, {"bearDropTo", "pool"}});
  t.st().santa = t.at(2, 0);
  t.st().bear = t.at(0, 1);
  t.put(B, 0, 0);
  t.put(C, 1, 1);
  t.turn(B);
  t.roll(B, 1);
  CHECK(t.prompt() == "bear_move");  // on a 1 only the bear moves
  CHECK(t.pos(B) == t.at(0, 0));
  t.ok(B, {{"kind", "bear_move"}, {"to", t.at(1, 1)}});
  const int pool_green = t.raw().pool[2];
  t.ok(C, {{"kind", "flee"}, {"colour", "green"}, {"to", t.at(1, 2)}});
  CHECK(t.raw().pool[2] == pool_green + 1);
  t.turn(B);
  t.roll(B, 2);
  t.ok(B, t.move(t.at(2, 0)));  // into Santa: A confiscates and keeps it
  t.ok(A, {{"kind", "confiscate"}, {"colour", "blue"}});
  CHECK(t.raw().presents[A][1] == 1);

  table d(json{{"stoneRecycle", "discard"}});
  stop_position(d);
  d.ok(C, {{"kind", "stop"}});
  d.ok(C, {{"kind", "use_stone"}, {"stone", "red"}, {"target", d.at(0, 0)}});
  CHECK(d.raw().supply.empty());
  CHECK(d.raw().stones[C][0] == 0);
}
