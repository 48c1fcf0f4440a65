// Unterm Baum writes `legal` and its shared view as JSON text (game::write_legal,
// game::write_shared_view) for the server's frames, which must not change by a byte: at every
// state of many random games, for every seat, with options from 2 to 6 players, the text must be
// exactly what protocol::dump writes for legal(seat) and, outside ASSIGN and MEMORIZE, for the
// shared view; during ASSIGN and MEMORIZE, where every seat sees its own wish list, there is no
// shared view and write_shared_view declines, writing nothing.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "text_test_common.hpp"

namespace {

using namespace tinsel::engine;
using text_test::dump;
using text_test::pick_entry;
using text_test::variant;

const std::vector<variant>& variants() {
  static const std::vector<variant> v = {
      {{{"maxPlayers", 2}, {"maxRounds", 3}, {"decoys", 0}}, 2},
      {{{"maxPlayers", 3},
        {"maxRounds", 2},
        {"actionsMode", "anyTwo"},
        {"positionMode", "ordinal"},
        {"tieBreak", "exactThenRow"}},
       3},
      {{{"maxPlayers", 2}, {"familySize", 3}, {"decoys", 2}, {"maxRounds", 12}}, 2},
      {{{"startPlayer", "host-picks"}, {"maxPlayers", 4}, {"familySize", 5}, {"maxRounds", 2}}, 4},
      {{{"maxPlayers", 2}, {"cardsToRemember", 12}, {"maxRounds", 3}, {"tieBreak", "exactThenRow"}}, 2},
      {{{"maxRounds", 2}, {"cardsToRemember", 20}, {"decoys", 40}, {"positionMode", "ordinal"}}, 6},
      {{{"maxPlayers", 5}, {"maxRounds", 2}, {"actionsMode", "anyTwo"}, {"familySize", 3}}, 5},
      {{{"maxPlayers", 2}, {"maxRounds", 30}, {"decoys", 0}, {"tieBreak", "exactThenRow"}}, 2},
      {{{"maxPlayers", 3}, {"maxRounds", 30}, {"actionsMode", "anyTwo"}, {"tieBreak", "exactThenRow"},
        {"positionMode", "ordinal"}}, 3},
  };
  return v;
}

// Compares the text with the json at the current state; `where` names the state in a failure.
// Counts what the states showed, to prove the games reached it.
void check_state(const game& g, const std::string& where, std::map<std::string, long>& seen) {
  INFO(where);
  const auto shared = text_test::check_text(g, [&](const json& e) {
    ++seen[e["kind"].get<std::string>() + (e.contains("domain") ? " domain" : "")];
  });
  if (!shared) {
    ++seen["no shared view"];
    return;
  }
  const json& v = *shared;
  ++seen["view: " + v["phase"].get<std::string>()];
  CHECK_FALSE(v.contains("result"));  // the result travels in the state, not in the view
  if (g.is_over()) {
    const json r = g.result();
    ++seen["result: " + r["decided_by"].get<std::string>()];
    if (!r["ended_by"].is_null()) ++seen["result: ended_by"];
  }
}

}  // namespace

TEST_CASE("Unterm Baum writes legal and the shared view as exactly the text of their json",
          "[unterm_baum][text]") {
  const game_info* info = builtin_games().find("unterm_baum");
  REQUIRE(info);
  constexpr int games_per_variant = 40;
  std::map<std::string, long> seen;
  // MEMORIZE awaits nobody: play_games lets its timer run out.
  const auto n = text_test::play_games(
      *info, variants(), games_per_variant, 20000, 12, [](std::uint64_t seed, std::size_t vi) { return seed * 31 + vi; },
      [&](const game& g, const std::string& where) { check_state(g, where, seen); },
      [](const game& g, const prompt& pr, seeded_dice& pick) {
        const int seat = pr.seats.at(pick.roll(static_cast<std::uint32_t>(pr.seats.size())));
        const json legal = g.commands(seat);  // every reveal, one example move per pair of areas
        // Half the time a collector: a move into the own field when one is listed, so that fields
        // fill and games end with a complete field, not only at the round cap.
        json cmd = pick_entry(legal, pick);
        if (pick.roll(2) == 0)
          for (const auto& e : legal)
            if (e["kind"] == "move" && e.contains("to") && e["to"].value("seat", -1) == seat) cmd = e;
        return std::pair{seat, cmd};
      });
  CHECK(n.over == static_cast<long>(variants().size()) * games_per_variant);
  CHECK(n.states > 10000);
  for (const char* k : {"assign", "assign domain", "end_turn", "reveal", "reveal domain", "move", "move domain", "rearrange",
                        "rearrange domain", "no shared view", "view: play", "view: over", "result: score",
                        "result: shared", "result: tie_break", "result: ended_by"}) {
    INFO(k);
    CHECK(seen[k] > 0);
  }
}
