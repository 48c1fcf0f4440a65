// Unterm Baum, A14 and A12 as the rulebook resolves them against a player who never stops: a
// rearrangement must change something, a turn allows at most 20 of them (legal stops offering
// them), and a revealed card is told again (catch-up, game log) without its motif.
#include "unterm_baum_common.hpp"

using namespace ub_test;

namespace {

bool lists_rearrange(const json& legal) {
  return std::any_of(legal.begin(), legal.end(), [](const json& e) { return e["kind"] == "rearrange"; });
}

}  // namespace

TEST_CASE("UB A14 a rearrangement that leaves every card where it was is refused and changes nothing",
          "[unterm_baum][rearrange][limits]") {
  table t;
  t.to_play();
  t.edit([](json& s) {
    place(s, 1, A, 0, 0);
    place(s, 2, A, 0, 1);
  });
  CHECK(t.rejected(A, rearrange({{cell(0, 0), cell(0, 0)}})) == "rearrange_changes_nothing");
  CHECK(t.rejected(A, rearrange({{cell(0, 0), cell(0, 0)}, {cell(0, 1), cell(0, 1)}})) ==
        "rearrange_changes_nothing");
  // The shape is checked first: an empty slot as `from` is still location_empty.
  CHECK(t.rejected(A, rearrange({{cell(1, 1), cell(1, 1)}})) == "location_empty");
  // One card staying put beside one that moves is a rearrangement.
  const auto evs = t.ok(A, rearrange({{cell(0, 0), cell(0, 0)}, {cell(0, 1), cell(2, 2)}}));
  CHECK(evs[0].body["moves"].size() == 2);
  CHECK(t.st()["fields"][A][12] == 1);
}

TEST_CASE("UB A14 a turn allows at most 20 rearrangements; legal stops offering them; the next turn starts afresh",
          "[unterm_baum][rearrange][limits]") {
  table t;
  t.to_play();
  t.edit([](json& s) {
    place(s, 1, A, 0, 0);
    place(s, 2, A, 0, 1);
    place(s, 9, B, 0, 0);
  });
  const json swap = rearrange({{cell(0, 0), cell(0, 1)}, {cell(0, 1), cell(0, 0)}});
  t.ok(A, reveal(tree(5)));  // actions do not count, and do not restore the allowance
  for (int i = 0; i < 20; ++i) {
    INFO("rearrangement " << i + 1);
    REQUIRE(lists_rearrange(t.g->legal(A)));
    t.ok(A, swap);
  }
  CHECK_FALSE(lists_rearrange(t.g->legal(A)));
  CHECK(t.rejected(A, swap) == "no_rearranges_left");
  CHECK(t.rejected(A, rearrange({{cell(0, 0), cell(3, 4)}})) == "no_rearranges_left");
  // Everything else of the turn is still there: the move, and ending it.
  const auto legal = t.g->legal(A);
  CHECK(legal[0] == end_turn());
  CHECK(std::any_of(legal.begin(), legal.end(), [](const json& e) { return e["kind"] == "move"; }));
  t.ok(A, move(tree(5), at(A, 1, 0)));
  t.ok(A, end_turn());
  // Bob's turn has its own 20, and so has Alice's next one.
  t.ok(B, rearrange({{cell(0, 0), cell(1, 1)}}));
  t.ok(B, end_turn());
  CHECK(lists_rearrange(t.g->legal(A)));
  t.ok(A, swap);
}

TEST_CASE("UB A12 a reveal told again (catch-up, game log) says who looked at which place, never the motif",
          "[unterm_baum][reveal][secrecy]") {
  table t;
  t.to_play();
  const auto evs = t.ok(A, reveal(tree(3)));
  REQUIRE(evs.size() == 1);
  CHECK(evs[0].body["motif"] == m(4));  // live: once, to everyone
  CHECK(evs[0].retold == json{{"kind", "revealed"}, {"seat", A}, {"location", tree(3)}});
  CHECK(evs[0].retold_body().dump().find(m(4)) == std::string::npos);
  CHECK(evs[0].to == event::audience::everyone);
  // Every other event is told again as it was.
  for (const auto& e : t.ok(A, end_turn())) CHECK(e.retold.is_null());
}
