// Happy Holidays: timeout defaults D1–D5, the end (R12/A14, C8), scoring and ties (A15/A16), error
// codes, prompts and the public view. Same 3-player setup as happy_holidays_test.cpp.
#include "happy_holidays_table.hpp"

using namespace hh_test;

// ---- timeout defaults (rulebook 3.3) ----------------------------------------------------------

TEST_CASE("D1/D2: a timeout takes from the nearest holder clockwise and rolls, never forgetting",
          "[happy_holidays][timeout]") {
  table t;
  t.d.push(F5);
  const auto evs = t.timeout();
  CHECK(kinds(evs) == std::vector<std::string>{"took_reindeer", "rolled"});
  CHECK(evs[0].body["from"] == B);
  CHECK(t.reindeer(A));
  CHECK(t.d.draws() == 1);
  CHECK(t.prompt_kind() == "choose_sleigh");
}

TEST_CASE("D1: the nearest holder clockwise wraps past the last seat", "[happy_holidays][timeout]") {
  table t(json::object(), 4);
  t.edit([](json& s) {
    s["active"] = 3;
    s["turn"] = 4;
    s["reindeer"] = {false, true, true, false};
  });
  t.d.push(F6);  // nobody has gifts: roll again
  t.d.push(F1);
  const auto evs = t.timeout();
  CHECK(evs[0].body["from"] == 1);
  CHECK(t.reindeer(3));
  CHECK(t.prompt_kind() == "sleigh_colour");
}

TEST_CASE("D2: holding a reindeer, a timeout just rolls", "[happy_holidays][timeout]") {
  table t;
  t.ok(A, take(C));
  t.d.push(F2);
  CHECK(kinds(t.timeout()) == std::vector<std::string>{"rolled", "gifts_to_sleigh"});
}

TEST_CASE("D3: bank the rolled colour with more gifts on the own sleigh, a tie takes the face's first colour",
          "[happy_holidays][timeout]") {
  table t;
  t.edit([](json& s) {
    s["sleighs"][A] = gifts(0, 2, 0, 0);
    s["reindeer"] = {true, false, true};
  });
  SECTION("more gifts") {
    t.d.push(F1);
    t.ok(A, roll());
    t.timeout();
    CHECK(t.stack(A, "green") == 3);
    CHECK(t.sleigh(A, "red") == 1);
  }
  SECTION("tie: yellow_red banks yellow") {
    t.d.push(F4);
    t.ok(A, roll());
    t.timeout();
    CHECK(t.stack(A, "yellow") == 1);
    CHECK(t.sleigh(A, "red") == 1);
  }
}

TEST_CASE("D4: the sleigh with most gifts, ties go to the own sleigh, then clockwise",
          "[happy_holidays][timeout]") {
  table t;
  json a, b, c;
  int expected = -1;
  SECTION("clockwise tie") {
    a = gifts(1, 0, 0, 0), b = gifts(0, 2, 0, 0), c = gifts(0, 0, 2, 0), expected = B;
  }
  SECTION("own sleigh wins a tie") {
    a = gifts(2, 0, 0, 0), b = gifts(0, 2, 0, 0), c = gifts(0, 0, 1, 0), expected = A;
  }
  SECTION("strictly most") {
    a = gifts(0, 0, 0, 0), b = gifts(0, 1, 0, 0), c = gifts(0, 0, 3, 0), expected = C;
  }
  SECTION("all empty: own") { a = b = c = gifts(0, 0, 0, 0), expected = A; }
  t.edit([&](json& s) {
    s["sleighs"] = {a, b, c};
    s["reindeer"] = {true, false, true};
  });
  t.d.push(F5);
  t.ok(A, roll());
  const auto evs = t.timeout();
  CHECK(evs[0].body["sleigh_owner"] == expected);
}

TEST_CASE("D5: the colour held by most other players, ties to the lowest colour",
          "[happy_holidays][timeout]") {
  table t;
  json b, c;
  const char* expected = "";
  SECTION("most holders") { b = gifts(1, 0, 0, 1), c = gifts(0, 0, 0, 2), expected = "yellow"; }
  SECTION("tie") { b = gifts(0, 0, 1, 0), c = gifts(0, 5, 0, 0), expected = "green"; }
  t.edit([&](json& s) {
    s["stacks"][B] = b;
    s["stacks"][C] = c;
    s["stacks"][A] = gifts(9, 9, 9, 9);  // the wisher's own gifts do not matter
    s["reindeer"] = {true, false, true};
  });
  t.d.push(F6);
  t.ok(A, roll());
  const auto evs = t.timeout();
  CHECK(evs[0].body["colour"] == expected);
}

TEST_CASE("C4: prompts carry mainTimeoutSec for the turn start and subPromptTimeoutSec for choices",
          "[happy_holidays][timeout]") {
  table t;
  CHECK(t.g->current_prompt()->timeout_ms == 60000);
  CHECK(t.g->current_prompt()->seats == std::vector<int>{A});
  t.ok(A, take(B));
  CHECK(t.g->current_prompt()->timeout_ms == 60000);
  t.d.push(F1);
  t.ok(A, roll());
  CHECK(t.g->current_prompt()->timeout_ms == 30000);

  table off(json{{"mainTimeoutSec", "off"}, {"subPromptTimeoutSec", "off"}});
  CHECK_FALSE(off.g->current_prompt()->timeout_ms);
  off.d.push(F1);
  off.timeout();  // the host's "skip" still applies the default
  CHECK_FALSE(off.g->current_prompt()->timeout_ms);
  CHECK(off.prompt_kind() == "sleigh_colour");
}

TEST_CASE("C4: a timeout for a prompt already left changes nothing", "[happy_holidays][timeout]") {
  table t;
  const auto first = t.g->current_prompt()->serial;
  t.ok(A, take(B));
  const auto second = t.g->current_prompt()->serial;
  CHECK(second != first);
  const json before = t.g->full_state();
  CHECK(t.g->on_timeout(first, t.d).empty());
  CHECK(t.g->on_timeout(second + 1, t.d).empty());
  CHECK(t.g->full_state() == before);
  CHECK(t.d.draws() == 0);
}

TEST_CASE("C4: every new prompt gets a new serial", "[happy_holidays][timeout]") {
  table t;
  std::vector<std::uint64_t> serials{t.g->current_prompt()->serial};
  t.ok(A, take(B));
  serials.push_back(t.g->current_prompt()->serial);
  t.d.push(F1);
  t.ok(A, roll());
  serials.push_back(t.g->current_prompt()->serial);
  t.ok(A, sleigh_colour("green"));
  serials.push_back(t.g->current_prompt()->serial);
  for (std::size_t i = 1; i < serials.size(); ++i) CHECK(serials[i] > serials[i - 1]);
}

// ---- the end ------------------------------------------------------------------------------

TEST_CASE("R12/A14 endOfTurn: one colour left ends the game after step 2", "[happy_holidays][end]") {
  table t;
  t.edit([](json& s) {
    s["tree"] = gifts(1, 0, 0, 5);
    s["reindeer"] = {true, false, true};
  });
  t.d.push(F1);
  t.ok(A, roll());
  CHECK_FALSE(t.g->is_over());
  CHECK(t.prompt_kind() == "sleigh_colour");
  const auto evs = t.ok(A, sleigh_colour("red"));
  CHECK(kinds(evs) == std::vector<std::string>{"banked", "game_over"});
  CHECK(evs[1].body["reason"] == "tree");
  CHECK(t.g->is_over());
  CHECK_FALSE(t.g->current_prompt());
  for (int p = -1; p < 3; ++p) CHECK(t.g->legal(p).empty());
  CHECK(t.stack(A, "red") == 1);
  CHECK(t.g->result()["scores"] == json::array({1, 0, 0}));
  CHECK(t.rejected(A, roll()) == "game_over");
  CHECK(t.g->on_timeout(t.g->full_state()["serial"].get<std::uint64_t>(), t.d).empty());
}

TEST_CASE("R12/A14 immediate: the game ends right after step 1 and sleigh gifts are lost",
          "[happy_holidays][end]") {
  table t(json{{"endCheck", "immediate"}});
  t.edit([](json& s) {
    s["tree"] = gifts(1, 0, 0, 5);
    s["reindeer"] = {true, false, true};
  });
  t.d.push(F1);
  const auto evs = t.ok(A, roll());
  CHECK(kinds(evs) == std::vector<std::string>{"rolled", "gifts_to_sleigh", "game_over"});
  CHECK(t.g->is_over());
  CHECK(t.sleigh(A, "red") == 1);
  CHECK(t.g->result()["scores"] == json::array({0, 0, 0}));
}

TEST_CASE("R12: all gifts taken ends the game, two colours left does not", "[happy_holidays][end]") {
  table t;
  json tree;
  bool ends = false;
  SECTION("all taken") { tree = gifts(1, 1, 0, 0), ends = true; }
  SECTION("two colours left") { tree = gifts(1, 1, 1, 1), ends = false; }
  t.edit([&](json& s) {
    s["tree"] = tree;
    s["reindeer"] = {true, false, true};
  });
  t.d.push(F1);
  t.ok(A, roll());
  t.ok(A, sleigh_colour("red"));
  CHECK(t.g->is_over() == ends);
}

TEST_CASE("C8: the game ends after 200 rounds and is scored normally", "[happy_holidays][end]") {
  table t;
  t.edit([](json& s) {
    s["turn"] = 600;  // last turn of round 200 with 3 players
    s["reindeer"] = {true, false, true};
    s["stacks"][B] = gifts(2, 0, 0, 0);
  });
  CHECK(t.v()["round"] == 200);
  t.d.push(F5);
  t.ok(A, roll());
  const auto evs = t.ok(A, choose_sleigh(A));
  CHECK(evs.back().body["kind"] == "game_over");
  CHECK(evs.back().body["reason"] == "round_cap");
  CHECK(t.g->result()["winners"] == json::array({B}));
}

// ---- scoring and ties -----------------------------------------------------------------------

namespace {
// A ends the game by banking one red: A {5,3,5,0} = 10, C {2,2,2,2} = 4, B as given.
json final_result(const json& options, const json& b_stacks) {
  table t(options);
  t.edit([&](json& s) {
    s["tree"] = gifts(1, 0, 0, 5);
    s["reindeer"] = {true, false, true};
    s["stacks"] = {gifts(4, 3, 5, 0), b_stacks, gifts(2, 2, 2, 2)};
  });
  t.d.push(F1);
  t.ok(A, roll());
  t.ok(A, sleigh_colour("red"));
  REQUIRE(t.g->is_over());
  return t.g->result();
}
}  // namespace

TEST_CASE("A15: the score is the two largest colour stacks, sleigh gifts never count",
          "[happy_holidays][score]") {
  const json r = final_result(json::object(), gifts(0, 0, 7, 0));
  CHECK(r["scores"] == json::array({10, 7, 4}));
  CHECK(r["winners"] == json::array({A}));
  CHECK(r["decided_by"] == "score");
  CHECK(r["total_gifts"] == json::array({13, 7, 8}));
  CHECK(r["stacks"][0] == json({{"red", 5}, {"green", 3}, {"blue", 5}, {"yellow", 0}}));
  CHECK(r["reason"] == "tree");
}

TEST_CASE("A16 tieBreak=shared: tied players share the win", "[happy_holidays][score]") {
  const json r = final_result(json::object(), gifts(0, 0, 10, 0));
  CHECK(r["winners"] == json::array({A, B}));
  CHECK(r["decided_by"] == "shared");
  CHECK(r["tie_break"] == "shared");
}

TEST_CASE("A16 tieBreak=totalGifts: most banked gifts wins a tie, then shared", "[happy_holidays][score]") {
  const json r = final_result({{"tieBreak", "totalGifts"}}, gifts(0, 0, 10, 0));
  CHECK(r["winners"] == json::array({A}));
  CHECK(r["decided_by"] == "total_gifts");
  const json still_tied = final_result({{"tieBreak", "totalGifts"}}, gifts(5, 0, 5, 3));
  CHECK(still_tied["winners"] == json::array({A, B}));
  CHECK(still_tied["decided_by"] == "shared");
}

// ---- errors, view, state ------------------------------------------------------------------

TEST_CASE("C3: bad commands are rejected with stable codes and change nothing", "[happy_holidays][errors]") {
  table t;
  CHECK(t.rejected(B, roll()) == "not_your_turn");
  CHECK(t.rejected(-1, roll()) == "not_your_turn");
  CHECK(t.rejected(7, roll()) == "not_your_turn");
  for (const json& bad :
       {json(42), json("x"), json(nullptr), json::array(), json::object(), json({{"kind", "nope"}}),
        json({{"kind", 5}}), json({{"kind", "take_reindeer"}}),
        json({{"kind", "take_reindeer"}, {"from", "B"}}), json({{"kind", "take_reindeer"}, {"from", 1.0}}),
        json({{"kind", "take_reindeer"}, {"from", nullptr}}), json({{"kind", "roll"}, {"extra", 1}}),
        json({{"kind", "sleigh_colour"}, {"color", "red"}}),
        json({{"kind", "wish_colour"}, {"colour", 1}})}) {
    INFO(bad.dump());
    CHECK(t.rejected(A, bad) == "invalid_command");
  }
  CHECK(t.rejected(A, sleigh_colour("red")) == "wrong_phase");
  CHECK(t.rejected(A, choose_sleigh(A)) == "wrong_phase");
  CHECK(t.rejected(A, wish_colour("red")) == "wrong_phase");
  CHECK(t.rejected(A, take(3)) == "invalid_seat");
  CHECK(t.rejected(A, take(-1)) == "invalid_seat");
  CHECK(t.rejected(A, {{"kind", "take_reindeer"}, {"from", 18446744073709551615ULL}}) == "invalid_seat");

  table few(json{{"reindeerCount", 1}});  // only B holds one
  CHECK(few.rejected(A, take(C)) == "no_reindeer_there");
  few.d.push(F1);
  few.ok(A, take(B));
  few.ok(A, roll());
  CHECK(few.rejected(A, roll()) == "wrong_phase");
  CHECK(few.rejected(A, sleigh_colour("purple")) == "invalid_colour");
  CHECK(few.rejected(A, sleigh_colour("yellow")) == "colour_not_rolled");
}

TEST_CASE("3.4: everything is public, so every viewer gets the same view", "[happy_holidays][view]") {
  table t;
  t.d.push(F1);
  t.ok(A, take(B));
  t.ok(A, roll());
  const json v = t.g->view(viewer::spectator());
  for (int p = 0; p < 3; ++p) CHECK(t.g->view(viewer::player(p)) == v);
  CHECK(v["game"] == "happy_holidays");
  CHECK(v["phase"] == "sleigh_colour");
  CHECK(v["prompt"] == "sleigh_colour");
  CHECK(v["active"] == A);
  CHECK(v["turn"] == 1);
  CHECK(v["round"] == 1);
  CHECK(v["tree"] == json({{"red", 7}, {"green", 7}, {"blue", 8}, {"yellow", 8}}));
  CHECK(v["last_roll"] == json({{"seat", A}, {"face", "red_green"}}));
  CHECK(v["rolled_colours"] == json::array({"red", "green"}));
  CHECK(v["players"][A]["reindeer"] == true);
  CHECK(v["players"][B]["reindeer"] == false);
  CHECK(v["players"][A]["sleigh"] ==
        json({{"id", 0}, {"gifts", {{"red", 1}, {"green", 1}, {"blue", 0}, {"yellow", 0}}}}));
  CHECK(v["players"][A]["score"] == 0);
  CHECK_FALSE(v.contains("result"));  // the result travels in the state only, never in the view
  CHECK(t.g->result().is_null());
}

TEST_CASE("restore: full_state round-trips, clone is a deep copy, bad states are refused",
          "[happy_holidays][state]") {
  table t;
  t.ok(A, take(B));
  auto r = hh::restore(t.g->full_state());
  REQUIRE(r.ok());
  CHECK(r.value()->full_state() == t.g->full_state());

  auto copy = t.g->clone();
  CHECK(copy->full_state() == t.g->full_state());
  t.d.push(F5);
  t.ok(A, roll());
  CHECK(copy->full_state() != t.g->full_state());
  CHECK(copy->current_prompt()->kind == "roll");

  json broken = t.g->full_state();
  broken["sleigh_of"] = {0, 0, 1};
  CHECK(hh::restore(broken).error().code == "invalid_state");
  CHECK(hh::restore(json::object()).error().code == "invalid_state");
  CHECK(hh::restore(42).error().code == "invalid_state");
}
