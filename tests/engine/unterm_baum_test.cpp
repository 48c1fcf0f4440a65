// Unterm Baum: the rulebook scenarios (UB-T1..T6) of shared/rules/unterm-baum.md, every option and
// timeout default (D#), and the other resolutions (A#). Each test is named after the rule it checks.
// The secrecy property is tested in unterm_baum_secrecy_test.cpp; the setup is in
// unterm_baum_common.hpp.
#include <algorithm>

#include "legal_domains.hpp"
#include "unterm_baum_common.hpp"

using namespace ub_test;

// ---- options and setup ------------------------------------------------------------------------

TEST_CASE("UB options: defaults (D1: K=8) are filled in and normalizing is idempotent",
          "[unterm_baum][options]") {
  const auto info = ub::info();
  CHECK(info.id == "unterm_baum");
  CHECK(info.title == "Unterm Baum");
  auto r = info.normalize_options(json::object());
  REQUIRE(r.ok());
  const json expected = {{"maxPlayers", 6},        {"startPlayer", "random"}, {"cardsToRemember", 8},
                         {"familySize", 4},        {"decoys", "auto"},        {"actionsMode", "oneEach"},
                         {"positionMode", "slot"}, {"tieBreak", "shared"},    {"maxRounds", "auto"},
                         {"assignSeconds", 90},    {"memorizeSeconds", 30},   {"revealSeconds", 4},
                         {"mainTimeoutSec", 90},   {"rearrangesPerTurn", 20}};
  CHECK(r.value() == expected);
  CHECK(info.normalize_options(r.value()).value() == expected);
  CHECK(info.normalize_options(nullptr).value() == expected);
  CHECK(info.seats(expected).min == 2);
  CHECK(info.seats(expected).max == 6);
  CHECK(info.seats(info.normalize_options({{"maxPlayers", 3}}).value()).max == 3);

  const json all = {{"maxPlayers", 2},
                    {"startPlayer", "host-picks"},
                    {"cardsToRemember", 20},
                    {"familySize", 5},
                    {"decoys", 0},
                    {"actionsMode", "anyTwo"},
                    {"positionMode", "ordinal"},
                    {"tieBreak", "exactThenRow"},
                    {"maxRounds", 1},
                    {"assignSeconds", "off"},
                    {"memorizeSeconds", 1},
                    {"revealSeconds", 1},
                    {"mainTimeoutSec", "off"},
                    {"rearrangesPerTurn", 1}};
  CHECK(info.normalize_options(all).value() == all);
  for (int k : {8, 12, 16, 20}) CHECK(info.normalize_options({{"cardsToRemember", k}}).ok());
  for (const char* key : {"assignSeconds", "memorizeSeconds", "revealSeconds", "mainTimeoutSec"})
    CHECK(info.normalize_options({{key, 1}}).ok());  // every timer goes down to 1 s
}

TEST_CASE("UB options: bad values and unknown keys are rejected as invalid_option",
          "[unterm_baum][options]") {
  const auto info = ub::info();
  const std::vector<json> bad = {
      {{"colour", "red"}},
      {{"subPromptTimeoutSec", 30}},
      {{"maxPlayers", 1}},
      {{"maxPlayers", 7}},
      {{"startPlayer", "youngest"}},
      {{"cardsToRemember", 10}},
      {{"cardsToRemember", 4}},
      {{"cardsToRemember", 24}},
      {{"cardsToRemember", "8"}},
      {{"familySize", 2}},
      {{"familySize", 6}},
      {{"decoys", -1}},
      {{"decoys", 41}},
      {{"decoys", "many"}},
      {{"actionsMode", "three"}},
      {{"positionMode", "column"}},
      {{"tieBreak", "coin"}},
      {{"maxRounds", 0}},
      {{"maxRounds", 1001}},
      {{"maxRounds", 2.5}},
      {{"assignSeconds", 0}},
      {{"assignSeconds", 3601}},
      {{"memorizeSeconds", "off"}},
      {{"memorizeSeconds", 0}},
      {{"memorizeSeconds", 601}},
      {{"revealSeconds", 0}},
      {{"revealSeconds", 61}},
      {{"revealSeconds", "off"}},
      {{"mainTimeoutSec", 0}},
      {{"mainTimeoutSec", "on"}},
      {{"rearrangesPerTurn", 0}},
      {{"rearrangesPerTurn", 101}},
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
}

TEST_CASE("UB C2 start player: host-picks needs a valid first seat, random rolls one die first",
          "[unterm_baum][options]") {
  scripted_dice d;
  auto missing = ub::info().create(setup{{{"startPlayer", "host-picks"}}, 3, std::nullopt}, d);
  REQUIRE_FALSE(missing.ok());
  CHECK(missing.error().code == "first_seat_required");
  auto outside = ub::info().create(setup{{{"startPlayer", "host-picks"}}, 3, 3}, d);
  REQUIRE_FALSE(outside.ok());
  CHECK(outside.error().code == "invalid_option");
  auto one = ub::info().create(setup{json::object(), 1, std::nullopt}, d);
  REQUIRE_FALSE(one.ok());
  CHECK(one.error().code == "invalid_player_count");
  CHECK(d.draws() == 0);

  // Draw order: start seat, each seat's K green cards, then the tree shuffle (D − 1 draws).
  d.push(1);
  for (int i = 0; i < 2 * 8 + 23; ++i) d.push(0);
  auto random = ub::info().create(setup{json::object(), 2, std::nullopt}, d);
  REQUIRE(random.ok());
  CHECK(d.remaining() == 0);
  const json v = random.value()->view(viewer::spectator());
  CHECK(v["start_seat"] == 1);
  CHECK(v["motif_count"] == 24);   // A2: D = P·K + decoys with decoys = K
  CHECK(v["slots_per_row"] == 5);  // A3: C = K − M + 1
}

TEST_CASE(
    "UB A2/A22 deck: distinct hands without replacement, the rest in the bag, all grey cards on the tree",
    "[unterm_baum][setup]") {
  seeded_dice d(7);
  auto g = ub::info().create(setup{{{"maxPlayers", 4}, {"decoys", 3}}, 4, std::nullopt}, d);
  REQUIRE(g.ok());
  const json s = g.value()->full_state();
  std::multiset<int> green, grey;
  for (const auto& h : s["hands"]) {
    CHECK(h.size() == 8);
    for (int x : h) green.insert(x);
  }
  for (int x : s["bag"]) green.insert(x);
  for (int x : s["tree"]) grey.insert(x);
  std::multiset<int> all;
  for (int x = 0; x < 4 * 8 + 3; ++x) all.insert(x);
  CHECK(green == all);
  CHECK(grey == all);
  CHECK(s["bag"].size() == 3);
}

// ---- ASSIGN and MEMORIZE ----------------------------------------------------------------------

TEST_CASE("UB A7 ASSIGN is simultaneous: every seat is prompted, in any order, with the same timer",
          "[unterm_baum][assign]") {
  table t(json::object(), 3);
  auto p = t.g->current_prompt();
  CHECK(p->kind == "assign");
  CHECK(p->seats == std::vector<int>{0, 1, 2});
  CHECK(p->timeout_ms == 90000);  // assignSeconds default
  const auto serial = p->serial;
  for (int s = 0; s < 3; ++s) {
    const json l = t.g->legal(s);
    REQUIRE(l.size() == 2);  // the default assignment, sendable as is, and the domain
    CHECK(l[1]["domain"]["rows"] == 4);
    CHECK(l[1]["domain"]["slots"] == 5);
    CHECK(l[1]["domain"]["motifs"].size() == 8);
  }
  const auto evs = t.ok(C, rulebook_assign(C));
  CHECK(kinds(evs) == std::vector<std::string>{"assigned"});
  CHECK(evs[0].body == json{{"kind", "assigned"}, {"seat", C}, {"family", "mueller"}, {"by_default", false}});
  CHECK(t.g->current_prompt()->seats == std::vector<int>{0, 1});
  CHECK(t.g->current_prompt()->serial == serial);  // the same prompt and timer go on
  CHECK(t.g->legal(C).empty());
  CHECK(t.rejected(C, rulebook_assign(C)) == "already_assigned");
  t.ok(A, rulebook_assign(A));
  const auto last = t.ok(B, rulebook_assign(B));
  CHECK(kinds(last) == std::vector<std::string>{"assigned", "memorize_started"});
  CHECK(last[1].body["ms"] == 30000);
}

TEST_CASE("UB R7/A7 a wish list places exactly the K own cards, one per slot, every row at least one",
          "[unterm_baum][assign]") {
  table t;
  const auto with = [](const std::function<void(json&)>& f) {
    json c = rulebook_assign(A);
    f(c["wishes"]);
    return c;
  };
  CHECK(t.rejected(A, with([](json& w) { w.erase(7); })) == "invalid_assignment");            // 7 cards
  CHECK(t.rejected(A, with([](json& w) { w[7]["motif"] = m(9); })) == "invalid_assignment");  // Bob's
  CHECK(t.rejected(A, with([](json& w) { w[7]["motif"] = m(1); })) == "invalid_assignment");  // twice
  CHECK(t.rejected(A, with([](json& w) { w[7]["slot"] = 1, w[7]["row"] = 0; })) == "invalid_assignment");
  CHECK(t.rejected(A, with([](json& w) { w[7]["slot"] = 5; })) == "invalid_assignment");
  CHECK(t.rejected(A, with([](json& w) { w[2]["row"] = 0, w[2]["slot"] = 2; })) ==
        "invalid_assignment");  // row 1 empty
  CHECK(t.rejected(A, with([](json& w) { w[0]["colour"] = "red"; })) == "invalid_command");
  CHECK(t.rejected(A, with([](json& w) { w[0]["row"] = "0"; })) == "invalid_command");
  CHECK(t.rejected(A, {{"kind", "assign"}}) == "invalid_command");
  CHECK(t.rejected(A, {{"kind", "assign"}, {"wishes", rulebook_assign(A)["wishes"]}, {"family", 3}}) ==
        "invalid_command");
  CHECK(t.rejected(A, {{"kind", "assign"}, {"wishes", rulebook_assign(A)["wishes"]}, {"family", "smith"}}) ==
        "unknown_family");
  // Gaps and any slot of a row are fine: all eight in rows 0..3, row 0 at its last slot.
  t.ok(A, with([](json& w) { w[0]["slot"] = 4; }));
}

TEST_CASE("UB R3/D2 family sheets: each taken once, the default is the first free sheet in catalogue order",
          "[unterm_baum][assign]") {
  table t(json::object(), 3);
  json c = rulebook_assign(B);
  c["family"] = "schmidt";
  t.ok(B, c);
  json taken = rulebook_assign(A);
  taken["family"] = "schmidt";
  CHECK(t.rejected(A, taken) == "family_taken");
  CHECK(t.g->legal(A)[0]["family"] == "mueller");
  CHECK(t.v()["free_families"].size() == 7);
  const auto evs = t.timeout();  // D2 + D3 for A and C, in seat order
  REQUIRE(evs.size() == 3);
  CHECK(evs[0].body == json{{"kind", "assigned"}, {"seat", A}, {"family", "mueller"}, {"by_default", true}});
  CHECK(evs[1].body ==
        json{{"kind", "assigned"}, {"seat", C}, {"family", "schneider"}, {"by_default", true}});
  CHECK(evs[2].body["kind"] == "memorize_started");
  const json v = t.v();
  CHECK(v["players"][B]["family"] == "schmidt");
  CHECK(v["players"][B]["members"].size() == 4);  // one member per row
}

TEST_CASE("UB D3 the default wish list: dealt order round-robin over the rows, lowest free slot",
          "[unterm_baum][assign][timeout]") {
  table t;
  t.timeout();
  const json w = t.v(viewer::player(A))["wish_list"];
  const json expected = {
      {{"motif", m(1)}, {"row", 0}, {"slot", 0}}, {{"motif", m(5)}, {"row", 0}, {"slot", 1}},
      {{"motif", m(2)}, {"row", 1}, {"slot", 0}}, {{"motif", m(6)}, {"row", 1}, {"slot", 1}},
      {{"motif", m(3)}, {"row", 2}, {"slot", 0}}, {{"motif", m(7)}, {"row", 2}, {"slot", 1}},
      {{"motif", m(4)}, {"row", 3}, {"slot", 0}}, {{"motif", m(8)}, {"row", 3}, {"slot", 1}}};
  CHECK(w["wishes"] == expected);
  // The legal default entry is the same list, so a player can send it as is.
  table u;
  CHECK(u.g->legal(A)[0]["wishes"] == expected);
}

TEST_CASE("UB A8/D4 MEMORIZE: a timer for everyone, nobody answers, the list is shown only to its owner",
          "[unterm_baum][memorize]") {
  table t(json{{"memorizeSeconds", 5}});
  // docs/protocol.md, Unterm Baum view: `turn` and `round` are already 1 before PLAY, `active` null.
  CHECK(t.v()["phase"] == "assign");
  CHECK(t.v()["turn"] == 1);
  CHECK(t.v()["round"] == 1);
  CHECK(t.v()["active"].is_null());
  // During ASSIGN the owner sees his dealt cards, nobody else does.
  CHECK(t.v(viewer::player(A))["wish_list"]["hand"].size() == 8);
  CHECK(t.v(viewer::player(A))["wish_list"]["wishes"].is_null());
  CHECK(t.v(viewer::player(B))["wish_list"]["hand"][0] == m(9));
  CHECK(t.v()["wish_list"].is_null());
  t.ok(A, rulebook_assign(A));
  t.ok(B, rulebook_assign(B));
  const auto p = t.g->current_prompt();
  CHECK(p->kind == "memorize");
  CHECK(t.v()["turn"] == 1);
  CHECK(t.v()["round"] == 1);
  CHECK(t.v()["active"].is_null());
  CHECK(p->seats.empty());
  CHECK(p->timeout_ms == 5000);
  for (int s : {A, B}) {
    CHECK(t.g->legal(s).empty());
    CHECK(t.rejected(s, end_turn()) == "wrong_phase");
  }
  CHECK(t.v(viewer::player(A))["wish_list"]["wishes"] == rulebook_assign(A)["wishes"]);
  CHECK(t.v(viewer::player(B))["wish_list"]["wishes"][0]["motif"] == m(9));
  CHECK(t.v()["wish_list"].is_null());
  CHECK(t.g->on_timeout(p->serial + 1, t.d).empty());
  const auto evs = t.timeout();
  CHECK(kinds(evs) == std::vector<std::string>{"memorize_ended", "turn_started"});
  CHECK(evs[1].body == json{{"kind", "turn_started"}, {"seat", A}, {"turn", 1}, {"round", 1}});
  // A8: from now on nobody, not even the owner, gets a wish list.
  for (int s : {A, B}) CHECK(t.v(viewer::player(s))["wish_list"].is_null());
  CHECK(t.g->current_prompt()->timeout_ms == 90000);  // mainTimeoutSec default for this game
}

// ---- the rulebook scenarios ---------------------------------------------------------------------

TEST_CASE("UB-T1 scoring table (R14/A20): 4 + 3 + 1 + 1 + 1 = 10, ordinal mode 11",
          "[unterm_baum][scenario]") {
  for (const char* mode : {"slot", "ordinal"}) {
    INFO(mode);
    table t(json{{"maxRounds", 1}, {"positionMode", mode}});
    t.to_play();
    t.edit([](json& s) {
      place(s, 1, A, 0, 0);
      place(s, 2, A, 0, 3);
      place(s, 3, A, 2, 0);
      place(s, 9, A, 1, 1);
      place(s, 20, A, 3, 4);
    });
    t.ok(A, end_turn());
    const auto evs = t.ok(B, end_turn());  // A19: the last turn of the only round
    CHECK(kinds(evs) == std::vector<std::string>{"turn_ended", "game_over"});
    REQUIRE(t.g->is_over());
    const json r = t.g->result();
    const bool slot = std::string(mode) == "slot";
    CHECK(r["scores"] == json::array({slot ? 10 : 11, 0}));
    CHECK(r["winners"] == json::array({A}));
    CHECK(r["reason"] == "round_cap");
    const json& cards = r["players"][A]["cards"];
    REQUIRE(cards.size() == 5);
    CHECK(cards[0] == json{{"row", 0}, {"slot", 0}, {"motif", m(1)}, {"points", 4}, {"match", "exact"}});
    CHECK(cards[1]["match"] == (slot ? "member" : "exact"));
    CHECK(cards[2] == json{{"row", 1}, {"slot", 1}, {"motif", m(9)}, {"points", 1}, {"match", "not_wished"}});
    CHECK(cards[3] == json{{"row", 2}, {"slot", 0}, {"motif", m(3)}, {"points", 1}, {"match", "wrong_row"}});
    CHECK(cards[4]["match"] == "not_wished");
    CHECK(r["players"][B]["cards"].empty());
    CHECK(r["players"][A]["wishes"] == rulebook_assign(A)["wishes"]);
    CHECK(r["undrawn"].size() == 8);
  }
}

TEST_CASE("UB-T2 last-card prohibition (R16/A17/A18)", "[unterm_baum][scenario]") {
  table t;
  t.to_play();
  t.edit([](json& s) {
    const int cells[7][2] = {{0, 0}, {0, 1}, {0, 2}, {0, 3}, {0, 4}, {1, 0}, {1, 1}};
    for (int i = 0; i < 7; ++i) place(s, 9 + i, B, cells[i][0], cells[i][1]);
  });
  CHECK(t.v()["players"][B]["open_to_others"] == false);
  CHECK(t.rejected(A, move(tree(4), at(B, 1, 2))) == "last_card_prohibited");
  CHECK(t.v()["actions"]["move"] == true);  // Alice still has her move
  for (const auto& e : t.g->legal(A))
    if (e["kind"] == "move" && e.contains("to")) CHECK(e["to"].value("seat", -1) != B);
  const auto evs = t.ok(A, move(at(B, 0, 0), at(A, 1, 1)));
  CHECK(evs[0].body == json{{"kind", "moved"}, {"seat", A}, {"from", at(B, 0, 0)}, {"to", at(A, 1, 1)}});
  CHECK(t.count(B) == 6);
  CHECK(t.v()["players"][B]["open_to_others"] == true);
  t.ok(A, end_turn());
  t.ok(B, end_turn());
  t.ok(A, move(tree(4), at(B, 1, 2)));  // legal again
  CHECK(t.count(B) == 7);
}

TEST_CASE("UB-T3 immediate end (R12/A16): the owner's K-th card ends the game at once",
          "[unterm_baum][scenario]") {
  table t;
  t.to_play();
  t.edit([](json& s) {
    for (int i = 0; i < 7; ++i) place(s, 1 + i, A, i % 4, i / 4);
  });
  CHECK(t.v()["players"][A]["open_to_others"] == false);
  const auto evs = t.ok(A, move(tree(10), at(A, 1, 2)));
  CHECK(kinds(evs) == std::vector<std::string>{"moved", "game_over"});
  // The event says how it ended and who won; the cards are in the state's result, once.
  CHECK(evs[1].body == json{{"kind", "game_over"}, {"reason", "field_complete"}, {"ended_by", A}, {"winners", {A}}});
  REQUIRE(t.g->is_over());
  CHECK_FALSE(t.g->current_prompt());
  CHECK(t.rejected(A, reveal(tree(0))) == "game_over");
  CHECK(t.rejected(A, rearrange({{cell(0, 0), cell(0, 4)}})) == "game_over");
  CHECK(t.rejected(B, end_turn()) == "game_over");
  for (int s = -1; s < 2; ++s) CHECK(t.g->legal(s).empty());
  const json r = t.g->result();
  CHECK(r["reason"] == "field_complete");
  CHECK(r["ended_by"] == A);
  // m01..m07 at round-robin cells plus m11: only m01 (0,0) is exact, the rest lie in other rows.
  CHECK(r["scores"] == json::array({4 + 7, 0}));
  CHECK(r["winners"] == json::array({A}));
  // Everything is open at the end, in the result: faces, every wish list.
  const auto& cards = r["players"][A]["cards"];
  CHECK(std::any_of(cards.begin(), cards.end(), [&](const json& c) {
    return c["row"] == 1 && c["slot"] == 2 && c["motif"] == m(11) && c["points"] == 1;
  }));
  CHECK(r["players"][B]["wishes"] == rulebook_assign(B)["wishes"]);
  CHECK(r["tree"][10].is_null());
  CHECK(r["tree"][11] == m(12));
  // The view does not repeat them: occupancy and counts only, as during the game.
  const json v = t.v(viewer::spectator());
  CHECK_FALSE(v.contains("result"));
  CHECK_FALSE(v.contains("tree_faces"));
  CHECK_FALSE(v["players"][A].contains("field_faces"));
  CHECK_FALSE(v["players"][B].contains("wishes"));
  CHECK(v["players"][A]["field"][1][2] == true);
}

TEST_CASE("UB-T4 action limits (A10): one reveal and one move, anyTwo: any two", "[unterm_baum][scenario]") {
  table t;
  t.to_play();
  t.ok(A, reveal(tree(2)));
  CHECK(t.rejected(A, reveal(tree(3))) == "reveal_already_used");
  t.ok(A, move(tree(2), at(A, 0, 1)));  // the revealed card may be moved
  CHECK(t.rejected(A, move(tree(5), at(A, 0, 2))) == "move_already_used");
  t.ok(A, rearrange({{cell(0, 1), cell(2, 3)}}));
  t.ok(A, rearrange({{cell(2, 3), cell(0, 0)}}));
  const auto evs = t.ok(A, end_turn());
  CHECK(kinds(evs) == std::vector<std::string>{"turn_ended", "turn_started"});

  table two(json{{"actionsMode", "anyTwo"}});
  two.to_play();
  two.ok(A, reveal(tree(2)));
  two.ok(A, reveal(tree(2)));
  CHECK(two.v()["actions"] == json{{"reveal", false}, {"move", false}, {"used", 2}});
  CHECK(two.rejected(A, move(tree(2), at(A, 0, 1))) == "no_actions_left");
  CHECK(two.rejected(A, reveal(tree(1))) == "no_actions_left");
}

TEST_CASE("UB-T5 reveal privacy (A11/A12): the motif travels once, to everyone, and never in a view",
          "[unterm_baum][scenario][secrecy]") {
  table t;
  t.to_play();
  t.ok(A, end_turn());
  t.ok(B, move(tree(0), at(B, 0, 0)));
  t.ok(B, end_turn());
  const auto evs = t.ok(A, reveal(at(B, 0, 0)));
  REQUIRE(evs.size() == 1);
  CHECK(evs[0].body == json{{"kind", "revealed"},
                            {"seat", A},
                            {"location", at(B, 0, 0)},
                            {"motif", m(1)},
                            {"display_ms", 4000}});
  CHECK(evs[0].to == event::audience::everyone);
  for (int s = -1; s < 2; ++s) {
    const std::string dump = t.v(viewer{s}).dump() + t.g->legal(s).dump();
    CHECK(dump.find(m(1)) == std::string::npos);
    CHECK(t.v(viewer{s})["players"][B]["field"][0][0] == true);
  }
  table quick(json{{"revealSeconds", 1}});
  quick.to_play();
  CHECK(quick.ok(A, reveal(tree(0)))[0].body["display_ms"] == 1000);
}

TEST_CASE("UB-T6 moves between fields and the illegal moves (A13, 3 players)", "[unterm_baum][scenario]") {
  table t(json::object(), 3);
  t.to_play();
  t.edit([](json& s) {
    place(s, 1, A, 0, 0);
    place(s, 2, A, 1, 0);
    place(s, 9, B, 0, 0);
    s["active"] = C;
  });
  CHECK(t.rejected(C, move(at(A, 0, 0), at(B, 0, 0))) == "location_occupied");
  CHECK(t.rejected(C, move(tree(5), tree(0))) == "move_within_tree");
  CHECK(t.rejected(C, move(at(A, 0, 0), at(A, 1, 1))) == "move_within_field");
  CHECK(t.rejected(C, move(tree(0), at(A, 0, 1))) == "location_empty");  // m01 left the tree
  CHECK(t.rejected(A, move(at(A, 0, 0), at(B, 3, 4))) == "not_your_turn");
  const auto evs = t.ok(C, move(at(A, 0, 0), at(B, 3, 4)));
  CHECK(evs[0].body == json{{"kind", "moved"}, {"seat", C}, {"from", at(A, 0, 0)}, {"to", at(B, 3, 4)}});
  CHECK(t.count(A) == 1);
  CHECK(t.count(B) == 2);
  t.ok(C, end_turn());
  t.ok(A, move(at(A, 1, 0), tree(0)));  // field → tree, into any empty tree slot
  CHECK(t.v()["tree"][0] == true);
}

// ---- more resolutions ---------------------------------------------------------------------------

TEST_CASE("UB A14 rearranging: free, repeatable, own field only, simultaneous, broadcast in full",
          "[unterm_baum][rearrange]") {
  table t;
  t.to_play();
  t.edit([](json& s) {
    place(s, 1, A, 0, 0);
    place(s, 2, A, 0, 1);
    place(s, 3, A, 1, 0);
    place(s, 9, B, 0, 0);
  });
  // A three-cycle across rows, then a swap: cards move at once.
  const auto evs =
      t.ok(A, rearrange({{cell(0, 0), cell(0, 1)}, {cell(0, 1), cell(1, 0)}, {cell(1, 0), cell(0, 0)}}));
  CHECK(evs[0].body["kind"] == "rearranged");
  CHECK(evs[0].body["moves"].size() == 3);
  CHECK(t.st()["fields"][A][1] == 0);
  CHECK(t.st()["fields"][A][5] == 1);
  CHECK(t.st()["fields"][A][0] == 2);
  t.ok(A, rearrange({{cell(0, 0), cell(3, 4)}}));
  CHECK(t.v()["actions"]["used"] == 0);  // not an action
  CHECK(t.rejected(A, rearrange({{cell(0, 0), cell(0, 2)}})) == "location_empty");
  CHECK(t.rejected(A, rearrange({{cell(0, 1), cell(1, 0)}})) == "location_occupied");
  CHECK(t.rejected(A, rearrange({{cell(0, 1), cell(2, 2)}, {cell(0, 1), cell(2, 3)}})) == "invalid_mapping");
  CHECK(t.rejected(A, rearrange({{cell(0, 1), cell(2, 2)}, {cell(1, 0), cell(2, 2)}})) == "invalid_mapping");
  CHECK(t.rejected(A, rearrange({{cell(0, 1), cell(4, 0)}})) == "invalid_location");
  CHECK(t.rejected(A, rearrange({})) == "invalid_command");
  CHECK(t.rejected(A, {{"kind", "rearrange"}, {"moves", {{{"from", cell(0, 1)}}}}}) == "invalid_command");
  CHECK(t.rejected(B, rearrange({{cell(0, 0), cell(0, 1)}})) == "not_your_turn");  // not on others' turns
}

TEST_CASE("UB A11 reveal anywhere: tree, own field, another field, never an empty slot",
          "[unterm_baum][reveal]") {
  table t(json{{"actionsMode", "anyTwo"}});
  t.to_play();
  t.edit([](json& s) {
    place(s, 5, A, 2, 2);
    place(s, 9, B, 3, 0);
  });
  CHECK(t.ok(A, reveal(at(A, 2, 2)))[0].body["motif"] == m(5));
  CHECK(t.ok(A, reveal(at(B, 3, 0)))[0].body["motif"] == m(9));
  t.ok(A, end_turn());
  CHECK(t.rejected(B, reveal(tree(4))) == "location_empty");
  CHECK(t.rejected(B, reveal(tree(24))) == "invalid_location");
  CHECK(t.rejected(B, reveal(at(2, 0, 0))) == "invalid_location");
  CHECK(t.rejected(B, reveal(at(A, 4, 0))) == "invalid_location");
  CHECK(t.rejected(B, reveal(json{{"tree", 1}, {"seat", 0}})) == "invalid_command");
  CHECK(t.rejected(B, reveal(json{{"tree", "1"}})) == "invalid_command");
  CHECK(t.rejected(B, {{"kind", "reveal"}}) == "invalid_command");
  CHECK(t.ok(B, reveal(tree(23)))[0].body["motif"] == m(24));
}

TEST_CASE("UB errors: phases, turns and shapes are checked before anything changes",
          "[unterm_baum][errors]") {
  table t;
  CHECK(t.rejected(A, reveal(tree(0))) == "wrong_phase");  // ASSIGN
  CHECK(t.rejected(A, end_turn()) == "wrong_phase");
  CHECK(t.rejected(-1, rulebook_assign(A)) == "not_your_turn");
  CHECK(t.rejected(2, rulebook_assign(A)) == "not_your_turn");
  for (const json& garbage : {json(42), json("x"), json::object(), json{{"kind", "nope"}}, json(nullptr),
                              json{{"kind", 7}}, json{{"kind", "end_turn"}, {"now", true}}})
    CHECK(t.rejected(A, garbage) == "invalid_command");
  t.to_play();
  CHECK(t.rejected(A, rulebook_assign(A)) == "wrong_phase");
  CHECK(t.rejected(B, end_turn()) == "not_your_turn");
  CHECK(t.rejected(B, reveal(tree(0))) == "not_your_turn");
  CHECK(t.rejected(A, move(tree(0), json{{"seat", A}, {"row", 0}})) == "invalid_command");
  CHECK(t.rejected(A, {{"kind", "move"}, {"from", tree(0)}}) == "invalid_command");
}

TEST_CASE("UB A19/C8 round cap: maxRounds auto = 5·K rounds, then scored normally", "[unterm_baum][end]") {
  table t;
  t.to_play();
  CHECK(t.v()["max_rounds"] == 40);
  t.edit([](json& s) {
    s["turn"] = 79;  // Alice's turn in round 40 of 2 players
    place(s, 9, B, 0, 0);
  });
  CHECK(t.v()["round"] == 40);
  t.ok(A, end_turn());
  CHECK_FALSE(t.g->is_over());
  const auto evs = t.ok(B, end_turn());
  CHECK(evs.back().body["kind"] == "game_over");
  CHECK(evs.back().body["reason"] == "round_cap");
  CHECK(t.g->result()["winners"] == json::array({B}));
  CHECK(t.g->result()["ended_by"].is_null());
}

TEST_CASE("UB A20/A24 scoring: only the owner's list counts, tree cards and missed wishes score nothing",
          "[unterm_baum][end]") {
  table t(json{{"maxRounds", 1}});
  t.to_play();
  t.edit([](json& s) {
    place(s, 1, B, 0, 0);  // Alice's exact wish, in Bob's field: 1 for Bob
    place(s, 9, B, 0, 1);  // Bob's m09 wished at (0,0): same row → 3
  });
  t.ok(A, end_turn());
  t.ok(B, end_turn());
  CHECK(t.g->result()["scores"] == json::array({0, 4}));
}

TEST_CASE("UB A21 ties: shared by default, exactThenRow prefers 4-point cards, then 3-point cards",
          "[unterm_baum][end]") {
  // Alice: one exact (4). Bob: one 3 and one 1 (4). Equal scores.
  const auto play = [](const char* tie) {
    table t(json{{"maxRounds", 1}, {"tieBreak", tie}});
    t.to_play();
    t.edit([](json& s) {
      place(s, 1, A, 0, 0);
      place(s, 9, B, 0, 4);
      place(s, 20, B, 1, 4);
    });
    t.ok(A, end_turn());
    t.ok(B, end_turn());
    return t.g->result();
  };
  const json shared = play("shared");
  CHECK(shared["scores"] == json::array({4, 4}));
  CHECK(shared["winners"] == json::array({A, B}));
  CHECK(shared["decided_by"] == "shared");
  const json broken = play("exactThenRow");
  CHECK(broken["winners"] == json::array({A}));
  CHECK(broken["decided_by"] == "tie_break");
}

TEST_CASE(
    "UB D5-D8 timeouts: a timed-out turn is a pass and moves no card, the host may skip with timers off",
    "[unterm_baum][timeout]") {
  table t;
  t.to_play();
  t.ok(A, reveal(tree(0)));
  const json before = t.st();
  const auto serial = t.g->current_prompt()->serial;
  const auto evs = t.timeout();
  CHECK(kinds(evs) == std::vector<std::string>{"turn_ended", "turn_started"});
  CHECK(evs[0].body == json{{"kind", "turn_ended"}, {"seat", A}, {"by_timeout", true}});
  CHECK(t.st()["tree"] == before["tree"]);
  CHECK(t.st()["fields"] == before["fields"]);
  CHECK(t.g->current_prompt()->seats == std::vector<int>{B});
  CHECK(t.g->current_prompt()->serial > serial);
  CHECK(t.g->on_timeout(serial, t.d).empty());  // C4: a stale timer changes nothing

  table off(json{{"mainTimeoutSec", "off"}, {"assignSeconds", "off"}});
  CHECK_FALSE(off.g->current_prompt()->timeout_ms);
  off.timeout();  // the host's skip applies D2 + D3
  CHECK(off.g->current_prompt()->kind == "memorize");
  CHECK(off.g->current_prompt()->timeout_ms == 30000);
  off.timeout();
  CHECK_FALSE(off.g->current_prompt()->timeout_ms);
  CHECK(off.timeout()[0].body["by_timeout"] == true);
}

// ---- legal and domains --------------------------------------------------------------------------

TEST_CASE("UB legal on a turn: end_turn, a reveal and a move example, exact compact domains",
          "[unterm_baum][legal]") {
  table t(json::object(), 3);
  t.to_play();
  t.edit([](json& s) {
    place(s, 1, A, 0, 0);
    place(s, 2, A, 0, 1);
    const int cells[7][2] = {{0, 0}, {0, 1}, {0, 2}, {0, 3}, {0, 4}, {1, 0}, {1, 1}};
    for (int i = 0; i < 7; ++i) place(s, 9 + i, B, cells[i][0], cells[i][1]);  // closed to others
  });
  const json l = t.g->legal(A);
  CHECK(l[0] == end_turn());
  int reveals = 0, moves = 0, rearranges = 0;
  json reveal_domain, move_domain, rearrange_domain;
  for (const auto& e : l) {
    if (e.contains("domain")) {
      (e["kind"] == "move" ? move_domain : e["kind"] == "reveal" ? reveal_domain : rearrange_domain) = e["domain"];
      continue;
    }
    if (e["kind"] == "reveal") ++reveals;
    if (e["kind"] == "move") ++moves;
    if (e["kind"] == "rearrange") ++rearranges;
    auto copy = t.g->clone();
    scripted_dice d;
    CHECK(copy->apply(A, e, d).ok());
  }
  // One example of each kind, the first card and the first move, before its domain.
  CHECK(reveals == 1);
  CHECK(moves == 1);
  CHECK(rearranges == 1);
  CHECK(l[1] == reveal(legal_domains::locations(reveal_domain["locations"]).front()));
  // A's two cards as indices, B's seven in a row as one run [first, last]; 23 on the tree.
  CHECK(reveal_domain["locations"]["fields"] == json{{A, {0, 1}}, {B, {{0, 6}}}});
  CHECK(reveal_domain["locations"]["slots"] == 5);
  CHECK(legal_domains::indices(reveal_domain["locations"]["tree"]).size() == 23);
  CHECK(legal_domains::locations(reveal_domain["locations"]).size() == 32);  // every card, wherever it lies
  CHECK(move_domain["from"] == reveal_domain["locations"]);
  CHECK(legal_domains::locations(move_domain["to"]).size() == 9 + 18 + 20);  // tree holes, A's holes, C's holes
  CHECK(move_domain["to"]["fields"].size() == 2);  // nothing into B's field (A17)
  CHECK(move_domain["rule"] == "different_areas");
  CHECK(rearrange_domain == json{{"occupied", {{0, 0}, {0, 1}}}, {"rows", 4}, {"slots", 5}});
  for (int s : {B, C}) CHECK(t.g->legal(s).empty());

  // commands() (the bots' list) writes the reveals out and keeps one example move per area pair:
  // tree→A, tree→C, A→tree, A→C, B→tree, B→A, B→C; nothing into B's field (A17).
  const json all = t.g->commands(A);
  CHECK(std::count_if(all.begin(), all.end(), [](const json& e) { return e["kind"] == "reveal"; }) == 32);
  CHECK(std::count_if(all.begin(), all.end(), [](const json& e) { return e["kind"] == "move"; }) == 7);
  CHECK(std::none_of(all.begin(), all.end(), [](const json& e) { return e.contains("domain"); }));
  // The written-out reveal domain is exactly the reveals of commands(), in board order.
  std::vector<json> listed;
  for (const auto& e : all)
    if (e["kind"] == "reveal") listed.push_back(e);
  CHECK(legal_domains::expand_domain({{"kind", "reveal"}, {"domain", reveal_domain}}) == listed);

  // The move domain is exact: every pair in different areas applies, every other pair is refused.
  const auto area = [](const json& loc) { return loc.contains("tree") ? -1 : loc["seat"].get<int>(); };
  const auto from = legal_domains::locations(move_domain["from"]);
  const auto to_list = legal_domains::locations(move_domain["to"]);
  int tried = 0;
  for (std::size_t i = 0; i < from.size(); i += 3)
    for (std::size_t j = 0; j < to_list.size(); j += 4) {
      const json& f = from[i];
      const json& to = to_list[j];
      auto copy = t.g->clone();
      scripted_dice d;
      const auto r = copy->apply(A, move(f, to), d);
      ++tried;
      if (area(f) != area(to)) {
        CHECK(r.ok());
      } else {
        REQUIRE_FALSE(r.ok());
        CHECK((r.error().code == "move_within_tree" || r.error().code == "move_within_field"));
      }
    }
  CHECK(tried > 100);
  // A location outside the sets: B's field (closed) and an occupied cell are refused.
  {
    auto copy = t.g->clone();
    scripted_dice d;
    REQUIRE(from.front().contains("tree"));
    CHECK_FALSE(copy->apply(A, move(from.front(), at(B, 2, 0)), d).ok());
    CHECK(copy->apply(A, move(from.front(), at(A, 0, 0)), d).error().code == "location_occupied");
  }
}

// ---- secrecy: the leak property -----------------------------------------------------------------
//
// Two independent checks at every step of many seeded random games, for every seat and a spectator:
// 1. Name search: every view, legal list, visible event and error message is split into word tokens
//    and searched for motif names the viewer may not know now (rulebook 2.4): before the end only
//    the seat's own hand during ASSIGN/MEMORIZE, and the revealed card's motif in its `revealed`
//    event (which must be the true card there).
// 2. Non-interference: a twin game with the motifs permuted (hands, bag, tree, fields, wishes) and
//    other wish layouts plays the same commands. Anything that depends on hidden motifs or layouts
//    (a name, an index, a count, an ordering) shows up as a difference between the two games' views,
//    legal lists, prompts, events or errors; only the owner's own wish list and revealed motifs may
//    differ (the latter exactly by the permutation).

TEST_CASE("UB full_state restores to an equal game, restore refuses broken bookkeeping",
          "[unterm_baum][state]") {
  table t;
  t.to_play();
  t.ok(A, move(tree(0), at(A, 0, 0)));
  const json s = t.st();
  auto r = ub::restore(s);
  REQUIRE(r.ok());
  CHECK(r.value()->full_state() == s);
  CHECK(r.value()->view(viewer::player(B)) == t.v(viewer::player(B)));
  json twice = s;
  twice["tree"][1] = 0;  // m01 both on the tree and in Alice's field
  CHECK(ub::restore(twice).error().code == "invalid_state");
  json other = s;
  other["game"] = "happy_holidays";
  CHECK(ub::restore(other).error().code == "invalid_state");
  CHECK(ub::restore(json{{"game", "unterm_baum"}}).error().code == "invalid_state");
}
