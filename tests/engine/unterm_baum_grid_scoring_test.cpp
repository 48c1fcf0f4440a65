// Unterm Baum scoring (R14/A20, A5) on positions where the row and slot arithmetic differ: a
// family sheet is M rows of C slots stored as one index row·C + slot, and the rulebook's own
// scenario (UB-T1) uses only rows 0..3 and slots 0..3, where dividing by M instead of C, or
// swapping row and slot, often gives the same score. Here every card sits where such a slip
// changes its points or its reported (row, slot): slot 4 of a row, the first slot of the next row,
// the last row; and a second sheet where C < M (familySize 5: 5 rows of 4 slots).
#include "unterm_baum_common.hpp"

using namespace ub_test;

namespace {

// Alice's wish list, as (motif, row, slot).
struct wish {
  int xx, row, slot;
};

json assign_of(int seat_base, const std::vector<wish>& list) {
  json wishes = json::array();
  for (const auto& w : list) wishes.push_back({{"motif", m(seat_base + w.xx)}, {"row", w.row}, {"slot", w.slot}});
  return {{"kind", "assign"}, {"wishes", wishes}};
}

// Puts grey mXX into `seat`'s field at (row, slot) of a sheet with `c` slots per row.
void put(json& s, int xx, int seat, int row, int slot, int c) {
  for (auto& t : s["tree"])
    if (t == xx - 1) t = -1;
  for (auto& f : s["fields"])
    for (auto& x : f)
      if (x == xx - 1) x = -1;
  s["fields"][seat][row * c + slot] = xx - 1;
}

// Plays the only round to its end and returns the result.
json finish(table& t) {
  t.ok(A, end_turn());
  t.ok(B, end_turn());
  REQUIRE(t.g->is_over());
  return t.g->result();
}

json card(int row, int slot, int xx, int points, const char* match) {
  return {{"row", row}, {"slot", slot}, {"motif", m(xx)}, {"points", points}, {"match", match}};
}

// Default sheet, M = 4 rows of C = 5 slots.
const std::vector<wish> alice_wishes = {{1, 0, 4}, {2, 1, 0}, {3, 1, 4}, {4, 2, 0},
                                        {5, 3, 4}, {6, 0, 0}, {7, 2, 3}, {8, 3, 1}};

table default_sheet_position(const char* mode) {
  table t(json{{"maxRounds", 1}, {"positionMode", mode}});
  t.ok(A, assign_of(0, alice_wishes));
  t.ok(B, rulebook_assign(B));
  t.timeout();  // MEMORIZE ends
  REQUIRE(t.g->current_prompt()->kind == "turn");
  t.edit([](json& s) {
    put(s, 1, A, 0, 4, 5);   // wished at (0,4): exact
    put(s, 3, A, 2, 0, 5);   // wished at (1,4), index 9, here index 10: another row (both 2 if divided by M)
    put(s, 4, A, 1, 4, 5);   // wished at (2,0), index 10, here index 9: another row
    put(s, 5, A, 3, 0, 5);   // wished at (3,4), index 19, here 15: the same row (4 and 3 if divided by M)
    put(s, 6, A, 0, 2, 5);   // wished at (0,0): the same row, another slot
    put(s, 7, A, 2, 3, 5);   // wished at (2,3): exact
    put(s, 20, A, 3, 4, 5);  // a decoy in the very last slot
  });
  return t;
}

}  // namespace

TEST_CASE("UB A20 scoring on a 4 x 5 sheet: slot 4, the next row's first slot and the last row count by row and slot",
          "[unterm_baum][scoring]") {
  table t = default_sheet_position("slot");
  const json r = finish(t);
  // 4 + 1 + 1 + 3 + 3 + 4 + 1
  CHECK(r["scores"] == json::array({17, 0}));
  const json& cards = r["players"][A]["cards"];
  REQUIRE(cards.size() == 7);
  CHECK(cards[0] == card(0, 2, 6, 3, "member"));
  CHECK(cards[1] == card(0, 4, 1, 4, "exact"));
  CHECK(cards[2] == card(1, 4, 4, 1, "wrong_row"));
  CHECK(cards[3] == card(2, 0, 3, 1, "wrong_row"));
  CHECK(cards[4] == card(2, 3, 7, 4, "exact"));
  CHECK(cards[5] == card(3, 0, 5, 3, "member"));
  CHECK(cards[6] == card(3, 4, 20, 1, "not_wished"));
  // The wish list comes back with the rows and slots it was given.
  json wished = json::array();
  for (const auto& w : alice_wishes) wished.push_back({{"motif", m(w.xx)}, {"row", w.row}, {"slot", w.slot}});
  json sorted = r["players"][A]["wishes"];
  auto by_place = [](const json& a, const json& b) {
    return std::pair(a["row"].get<int>(), a["slot"].get<int>()) < std::pair(b["row"].get<int>(), b["slot"].get<int>());
  };
  std::sort(sorted.begin(), sorted.end(), by_place);
  std::sort(wished.begin(), wished.end(), by_place);
  CHECK(sorted == wished);
}

TEST_CASE("UB A5 ordinal scoring on a 4 x 5 sheet: the k-th occupied slot of each row, gaps ignored",
          "[unterm_baum][scoring]") {
  table t = default_sheet_position("ordinal");
  const json r = finish(t);
  // Field rows by occupied slot: row 0 m06, m01; row 1 m04; row 2 m03, m07; row 3 m05, m20.
  // Wish rows: row 0 m06, m01; row 1 m02, m03; row 2 m04, m07; row 3 m08, m05.
  // m06 1st of row 0 in both: 4; m01 2nd in both: 4; m04, m03 another row: 1 each; m07 2nd of
  // row 2 in both: 4; m05 1st of row 3, wished 2nd: 3; m20: 1.
  CHECK(r["scores"] == json::array({18, 0}));
  const json& cards = r["players"][A]["cards"];
  REQUIRE(cards.size() == 7);
  CHECK(cards[0] == card(0, 2, 6, 4, "exact"));
  CHECK(cards[1] == card(0, 4, 1, 4, "exact"));
  CHECK(cards[4] == card(2, 3, 7, 4, "exact"));
  CHECK(cards[5] == card(3, 0, 5, 3, "member"));
}

TEST_CASE("UB A3/A20 scoring on a 5 x 4 sheet (familySize 5): more rows than slots", "[unterm_baum][scoring]") {
  // K = 8, M = 5: C = 4 slots per row, 20 cells; index = row * 4 + slot.
  table t(json{{"maxRounds", 1}, {"familySize", 5}});
  const std::vector<wish> list = {{1, 0, 3}, {2, 1, 0}, {3, 4, 3}, {4, 2, 1}, {5, 3, 2}, {6, 4, 0}, {7, 1, 3}, {8, 0, 0}};
  t.ok(A, assign_of(0, list));
  t.ok(B, assign_of(8, {{1, 0, 0}, {2, 1, 0}, {3, 2, 0}, {4, 3, 0}, {5, 4, 0}, {6, 0, 1}, {7, 1, 1}, {8, 2, 1}}));
  t.timeout();
  REQUIRE(t.g->current_prompt()->kind == "turn");
  t.edit([](json& s) {
    put(s, 1, A, 0, 3, 4);  // wished (0,3), index 3: exact
    put(s, 2, A, 0, 2, 4);  // wished (1,0), index 4, here 2: another row (both 0 if divided by M = 5)
    put(s, 3, A, 4, 1, 4);  // wished (4,3), index 19, here 17: the same row (3 and 3 if divided by 5; fine)
    put(s, 4, A, 1, 3, 4);  // wished (2,1), index 9, here 7: another row (both 1 if divided by 5)
    put(s, 7, A, 1, 2, 4);  // wished (1,3), index 7... here 6: the same row, another slot
    put(s, 6, A, 4, 0, 4);  // wished (4,0), index 16: exact (row 3 if divided by 5)
  });
  const json r = finish(t);
  // 4 + 1 + 3 + 1 + 3 + 4
  CHECK(r["scores"] == json::array({16, 0}));
  const json& cards = r["players"][A]["cards"];
  REQUIRE(cards.size() == 6);
  CHECK(cards[0] == card(0, 2, 2, 1, "wrong_row"));
  CHECK(cards[1] == card(0, 3, 1, 4, "exact"));
  CHECK(cards[2] == card(1, 2, 7, 3, "member"));
  CHECK(cards[3] == card(1, 3, 4, 1, "wrong_row"));
  CHECK(cards[4] == card(4, 0, 6, 4, "exact"));
  CHECK(cards[5] == card(4, 1, 3, 3, "member"));
  // The view draws the sheet as 5 rows of 4.
  const json view = t.v();
  INFO(view["players"][A].dump());
  const json& rows = view["players"][A]["field"];
  REQUIRE(rows.size() == 5);
  for (const auto& row : rows) CHECK(row.size() == 4);
}
