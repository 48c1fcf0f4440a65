// Happy Holidays scenarios from shared/rules/happy-holidays.md (HH-T1..HH-T6) and the options.
// Timeout defaults, the end, scoring, errors and the view are in happy_holidays_rules_test.cpp.
// Each test is named after the rule it checks.
//
// Setup of the rulebook scenarios: 3 players A=0 (start, host-picked so no die is used), B=1, C=2;
// two reindeer (B and C); 8 gifts per colour; empty sleighs; scripted dice. Positions the rulebook
// starts from (a half-empty tree, filled sleighs) are set up by editing full_state() and restoring.
#include "happy_holidays_table.hpp"

using namespace hh_test;

// ---- options and setup ------------------------------------------------------------------

TEST_CASE("options: defaults are filled in and normalizing is idempotent", "[happy_holidays][options]") {
  const auto info = hh::info();
  auto r = info.normalize_options(json::object());
  REQUIRE(r.ok());
  const json expected = {{"maxPlayers", 4},          {"startPlayer", "random"},  {"giftsPerColour", 8},
                         {"reindeerCount", "auto"},  {"reindeerMode", "strict"}, {"rerollEmptyReward", false},
                         {"endCheck", "endOfTurn"},  {"tieBreak", "shared"},     {"mainTimeoutSec", 60},
                         {"subPromptTimeoutSec", 30}};
  CHECK(r.value() == expected);
  CHECK(info.normalize_options(r.value()).value() == expected);
  CHECK(info.seats(r.value()).min == 2);
  CHECK(info.seats(r.value()).max == 4);
  CHECK(info.seats(info.normalize_options({{"maxPlayers", 6}}).value()).max == 6);

  const json all = {{"maxPlayers", 6},         {"startPlayer", "host-picks"}, {"giftsPerColour", 15},
                    {"reindeerCount", 3},      {"reindeerMode", "assisted"},  {"rerollEmptyReward", true},
                    {"endCheck", "immediate"}, {"tieBreak", "totalGifts"},    {"mainTimeoutSec", "off"},
                    {"subPromptTimeoutSec", 5}};
  CHECK(info.normalize_options(all).value() == all);
}

TEST_CASE("options: bad values and unknown keys are rejected as invalid_option",
          "[happy_holidays][options]") {
  const auto info = hh::info();
  const std::vector<json> bad = {
      {{"colour", "red"}},
      {{"maxPlayers", 1}},
      {{"maxPlayers", 7}},
      {{"maxPlayers", "4"}},
      {{"startPlayer", "youngest"}},
      {{"giftsPerColour", 4}},
      {{"giftsPerColour", 16}},
      {{"reindeerCount", 0}},
      {{"reindeerCount", 6}},
      {{"reindeerCount", "many"}},
      {{"reindeerCount", 1.5}},
      {{"reindeerCount", 4}},  // > maxPlayers-1
      {{"reindeerMode", "lenient"}},
      {{"rerollEmptyReward", "yes"}},
      {{"endCheck", "never"}},
      {{"tieBreak", "coin"}},
      {{"mainTimeoutSec", 0}},
      {{"mainTimeoutSec", 3601}},
      {{"mainTimeoutSec", "on"}},
      {{"subPromptTimeoutSec", 0}},
      {{"subPromptTimeoutSec", 30.5}},
      json::array(),
      json("x"),
  };
  for (const auto& o : bad) {
    INFO(o.dump());
    auto r = info.normalize_options(o);
    REQUIRE_FALSE(r.ok());
    CHECK(r.error().code == "invalid_option");
    CHECK_FALSE(r.error().message.empty());
  }
  CHECK(info.normalize_options({{"maxPlayers", 5}, {"reindeerCount", 4}}).ok());
  CHECK(info.normalize_options(nullptr).ok());  // no options at all = all defaults
}

TEST_CASE("C2 start player: host-picks needs a valid first seat, random rolls one die",
          "[happy_holidays][options]") {
  scripted_dice d;
  auto missing = create({{"startPlayer", "host-picks"}}, 3, std::nullopt, d);
  REQUIRE_FALSE(missing.ok());
  CHECK(missing.error().code == "first_seat_required");
  auto outside = create({{"startPlayer", "host-picks"}}, 3, 3, d);
  REQUIRE_FALSE(outside.ok());
  CHECK(outside.error().code == "invalid_option");
  CHECK(d.draws() == 0);

  d.push(2);
  auto random = create(json::object(), 4, std::nullopt, d);
  REQUIRE(random.ok());
  CHECK(d.draws() == 1);
  const json v = random.value()->view(viewer::spectator());
  CHECK(v["start_seat"] == 2);
  CHECK(v["active"] == 2);
  CHECK(random.value()->current_prompt()->seats == std::vector<int>{2});
}

TEST_CASE("A6 reindeer: N-1 by default, all but the start player, more than N-1 is rejected",
          "[happy_holidays][options]") {
  scripted_dice d;
  auto g = create({{"startPlayer", "host-picks"}}, 4, 2, d);
  REQUIRE(g.ok());
  const json v = g.value()->view(viewer::spectator());
  for (int p = 0; p < 4; ++p) CHECK(v["players"][p]["reindeer"] == (p != 2));
  for (const char* c : {"red", "green", "blue", "yellow"}) CHECK(v["tree"][c] == 8);

  // Fewer reindeer go to the seats that move next after the start player.
  auto few = create({{"startPlayer", "host-picks"}, {"reindeerCount", 1}, {"giftsPerColour", 5}}, 4, 2, d);
  REQUIRE(few.ok());
  const json fv = few.value()->view(viewer::spectator());
  CHECK(fv["players"][3]["reindeer"] == true);
  CHECK(fv["players"][0]["reindeer"] == false);
  CHECK(fv["players"][1]["reindeer"] == false);
  CHECK(fv["tree"]["red"] == 5);

  auto too_many = create({{"startPlayer", "host-picks"}, {"reindeerCount", 3}}, 3, 0, d);
  REQUIRE_FALSE(too_many.ok());
  CHECK(too_many.error().code == "invalid_option");
  CHECK(too_many.error().message.find("reindeerCount") != std::string::npos);

  auto one_player = create(json::object(), 1, std::nullopt, d);
  REQUIRE_FALSE(one_player.ok());
  CHECK(one_player.error().code == "invalid_player_count");
  CHECK(d.draws() == 0);
}

// ---- rulebook scenarios -----------------------------------------------------------------

TEST_CASE("HH-T1 R5/A8 strict: rolling without a reindeer misses the turn and rolls no die",
          "[happy_holidays][scenario]") {
  table t;
  t.d.push(F5);
  CHECK(t.prompt_kind() == "take_reindeer_or_roll");
  const auto evs = t.ok(A, roll());
  CHECK(kinds(evs) == std::vector<std::string>{"forgot_reindeer", "turn_started"});
  CHECK(t.d.draws() == 0);
  CHECK_FALSE(t.reindeer(A));
  CHECK(t.active() == B);
  CHECK(t.prompt_kind() == "roll");
  // B uses the scripted result A did not consume.
  t.ok(B, roll());
  CHECK(t.d.draws() == 1);
  CHECK(t.prompt_kind() == "choose_sleigh");
}

TEST_CASE("HH-T1 A8 assisted: rolling without a reindeer is rejected, the player stays active",
          "[happy_holidays][scenario]") {
  table t(json{{"reindeerMode", "assisted"}});
  CHECK(t.prompt_kind() == "take_reindeer");
  CHECK(t.g->legal(A) == json::array({take(B), take(C)}));
  CHECK(t.rejected(A, roll()) == "must_take_reindeer");
  CHECK(t.active() == A);
}

TEST_CASE("HH-T2 R4/R7/A7: take a reindeer, stack the sleigh, bank one colour",
          "[happy_holidays][scenario]") {
  table t;
  CHECK(t.g->legal(A) == json::array({take(B), take(C), roll()}));
  CHECK(t.rejected(A, take(A)) == "cannot_take_from_self");

  const auto serial = t.g->current_prompt()->serial;
  t.ok(A, take(B));
  CHECK(t.g->current_prompt()->serial > serial);
  CHECK(t.reindeer(A));
  CHECK_FALSE(t.reindeer(B));
  CHECK(t.prompt_kind() == "roll");
  CHECK(t.g->legal(A) == json::array({roll()}));
  CHECK(t.rejected(A, take(C)) == "already_has_reindeer");
  CHECK(t.rejected(A, take(A)) == "already_has_reindeer");

  t.d.push(F1);
  const auto evs = t.ok(A, roll());
  CHECK(kinds(evs) == std::vector<std::string>{"rolled", "gifts_to_sleigh"});
  CHECK(evs[0].body["face"] == "red_green");
  CHECK(evs[0].body["colours"] == json::array({"red", "green"}));
  CHECK(t.tree("red") == 7);
  CHECK(t.tree("green") == 7);
  CHECK(t.sleigh(A, "red") == 1);
  CHECK(t.sleigh(A, "green") == 1);
  CHECK(t.rejected(A, take(C)) == "wrong_phase");  // after ROLL
  CHECK(t.g->legal(A) == json::array({sleigh_colour("red"), sleigh_colour("green")}));
  CHECK(t.rejected(A, sleigh_colour("blue")) == "colour_not_rolled");

  t.ok(A, sleigh_colour("red"));
  CHECK(t.stack(A, "red") == 1);
  CHECK(t.sleigh(A, "red") == 0);
  CHECK(t.sleigh(A, "green") == 1);

  // B lacks a reindeer now and must take one from A or C (nearest clockwise first).
  CHECK(t.active() == B);
  CHECK(t.prompt_kind() == "take_reindeer_or_roll");
  CHECK(t.g->legal(B) == json::array({take(C), take(A), roll()}));
  CHECK(t.g->legal(A).empty());
}

TEST_CASE("HH-T3 A9/A10: one colour exhausted, only the other moves, an older colour may be banked",
          "[happy_holidays][scenario]") {
  table t;
  t.edit([](json& s) {
    s["tree"] = gifts(3, 0, 8, 8);
    s["sleighs"][A] = gifts(0, 2, 0, 0);
    s["reindeer"] = {true, false, true};  // A already took B's reindeer
  });
  t.d.push(F1);
  t.ok(A, roll());
  CHECK(t.sleigh(A, "green") == 2);
  CHECK(t.sleigh(A, "red") == 1);
  CHECK(t.tree("red") == 2);
  CHECK(t.tree("green") == 0);
  const auto evs = t.ok(A, sleigh_colour("green"));
  CHECK(evs[0].body["count"] == 2);
  CHECK(t.stack(A, "green") == 2);
  CHECK(t.sleigh(A, "red") == 1);
  CHECK(t.sleigh(A, "green") == 0);
}

TEST_CASE("HH-T4 A9/A13: both rolled colours exhausted rolls again without a reindeer check",
          "[happy_holidays][scenario]") {
  table t;
  t.edit([](json& s) {
    s["tree"] = gifts(0, 0, 8, 8);
    s["reindeer"] = {true, false, true};
  });
  t.d.push(F1);
  t.d.push(F5);
  const auto evs = t.ok(A, roll());
  CHECK(kinds(evs) == std::vector<std::string>{"rolled", "roll_again", "rolled"});
  CHECK(evs[1].body["reason"] == "no_gifts_of_rolled_colours");
  CHECK(t.prompt_kind() == "choose_sleigh");
  CHECK(t.v()["rerolls"] == 1);
  CHECK(t.v()["last_roll"]["face"] == "reindeer_reward");
}

TEST_CASE("A13: after 100 consecutive rerolls the turn ends", "[happy_holidays][scenario]") {
  table t;
  t.edit([](json& s) {
    s["tree"] = gifts(0, 0, 8, 8);
    s["reindeer"] = {true, false, true};
  });
  for (int i = 0; i <= 100; ++i) t.d.push(F1);
  const auto evs = t.ok(A, roll());
  CHECK(t.d.draws() == 101);
  CHECK(find_event(evs, "reroll_cap") != nullptr);
  CHECK(t.active() == B);
  CHECK(t.v()["rerolls"] == 0);
}

TEST_CASE("HH-T5 R8/A11: Reindeer reward banks a sleigh and swaps it", "[happy_holidays][scenario]") {
  table t;
  t.edit([](json& s) {
    s["sleighs"][A] = gifts(0, 1, 0, 0);
    s["sleighs"][B] = gifts(2, 0, 1, 0);
    s["reindeer"] = {true, false, true};
  });
  t.d.push(F5);
  t.ok(A, roll());
  REQUIRE(t.prompt_kind() == "choose_sleigh");
  CHECK(t.g->legal(A) == json::array({choose_sleigh(A), choose_sleigh(B), choose_sleigh(C)}));
  const json before = t.g->full_state();

  SECTION("another player's sleigh: bank it, that player gets my sleigh with its gifts") {
    const auto evs = t.ok(A, choose_sleigh(B));
    CHECK(kinds(evs) == std::vector<std::string>{"banked", "sleigh_swapped", "turn_started"});
    CHECK(t.stack(A, "red") == 2);
    CHECK(t.stack(A, "blue") == 1);
    CHECK(t.sleigh(B, "green") == 1);
    CHECK(t.sleigh(B, "red") == 0);
    CHECK(t.sleigh(A, "green") == 0);
    CHECK(t.sleigh(A, "red") == 0);
    CHECK(t.v()["players"][A]["sleigh"]["id"] == B);
  }
  SECTION("own sleigh: bank it, nobody swaps") {
    const auto evs = t.ok(A, choose_sleigh(A));
    CHECK(kinds(evs) == std::vector<std::string>{"banked", "turn_started"});
    CHECK(t.stack(A, "green") == 1);
    CHECK(t.sleigh(B, "red") == 2);
    CHECK(t.v()["players"][A]["sleigh"]["id"] == A);
  }
  SECTION("an empty sleigh of C: nothing banked, C receives my sleigh") {
    t.ok(A, choose_sleigh(C));
    CHECK(t.v()["players"][A]["total_gifts"] == 0);
    CHECK(t.sleigh(C, "green") == 1);
    CHECK(t.sleigh(A, "green") == 0);
  }
  SECTION("out-of-range owners are rejected") {
    CHECK(t.rejected(A, choose_sleigh(3)) == "invalid_seat");
    CHECK(t.rejected(A, choose_sleigh(-1)) == "invalid_seat");
    CHECK(t.g->full_state() == before);
  }
}

TEST_CASE("A11 rerollEmptyReward: with every sleigh empty the reward rolls again only if enabled",
          "[happy_holidays][scenario]") {
  table off;
  off.d.push(F5);
  off.ok(A, take(B));
  off.ok(A, roll());
  CHECK(off.prompt_kind() == "choose_sleigh");

  table on(json{{"rerollEmptyReward", true}});
  on.d.push(F5);
  on.d.push(F1);
  on.ok(A, take(B));
  const auto evs = on.ok(A, roll());
  CHECK(evs[1].body["reason"] == "all_sleighs_empty");
  CHECK(on.prompt_kind() == "sleigh_colour");
}

TEST_CASE("HH-T6 R9/A12: Christmas wish takes one gift of the colour from each holder",
          "[happy_holidays][scenario]") {
  table t;
  t.edit([](json& s) {
    s["stacks"][B] = gifts(0, 0, 0, 3);
    s["stacks"][C] = gifts(1, 0, 0, 0);
    s["reindeer"] = {true, false, true};
  });
  t.d.push(F6);
  t.ok(A, roll());
  REQUIRE(t.prompt_kind() == "wish_colour");
  CHECK(t.g->legal(A).size() == 4);

  SECTION("yellow: B gives one, C has none") {
    const auto evs = t.ok(A, wish_colour("yellow"));
    CHECK(evs[0].body["from"] == json::array({B}));
    CHECK(evs[0].body["count"] == 1);
    CHECK(t.stack(B, "yellow") == 2);
    CHECK(t.stack(C, "red") == 1);
    CHECK(t.stack(A, "yellow") == 1);
  }
  SECTION("blue: nobody gives and there is no reroll") {
    const auto evs = t.ok(A, wish_colour("blue"));
    CHECK(evs[0].body["count"] == 0);
    CHECK(t.d.draws() == 1);
    CHECK(t.active() == B);
  }
  SECTION("a colour that does not exist is rejected") {
    CHECK(t.rejected(A, wish_colour("purple")) == "invalid_colour");
  }
}

TEST_CASE("A12: the wish rolls again when no other player has a banked gift, whatever the roller has",
          "[happy_holidays][scenario]") {
  table t;
  t.edit([](json& s) {
    s["stacks"][A] = gifts(4, 0, 0, 0);
    s["sleighs"][B] = gifts(0, 3, 0, 0);  // sleigh gifts do not count as "having"
    s["reindeer"] = {true, false, true};
  });
  t.d.push(F6);
  t.d.push(F2);
  const auto evs = t.ok(A, roll());
  CHECK(kinds(evs) == std::vector<std::string>{"rolled", "roll_again", "rolled", "gifts_to_sleigh"});
  CHECK(evs[1].body["reason"] == "nobody_has_gifts");
}
