// Happy Holidays writes `legal` and its shared view as JSON text (game::write_legal,
// game::write_shared_view) for the server's frames, which must not change by a byte: at every
// state of many random games, for every seat, with options from 2 to 6 players, the text must be
// exactly what protocol::dump writes for legal(seat) and for the shared view.
#include <catch2/catch.hpp>
#include <cstdint>
#include <string>
#include <vector>

#include "text_test_common.hpp"

namespace {

using namespace tinsel::engine;
using text_test::variant;

const std::vector<variant>& variants() {
  static const std::vector<variant> v = {
      {json::object(), 4},
      {{{"maxPlayers", 2}}, 2},
      {{{"maxPlayers", 3}, {"reindeerMode", "assisted"}}, 3},
      {{{"maxPlayers", 5}, {"endCheck", "immediate"}, {"tieBreak", "totalGifts"}}, 5},
      {{{"maxPlayers", 6}, {"giftsPerColour", 5}, {"reindeerCount", 1}}, 6},
      {{{"maxPlayers", 6}, {"giftsPerColour", 15}, {"rerollEmptyReward", true}, {"reindeerMode", "assisted"}}, 6},
      {{{"maxPlayers", 4}, {"startPlayer", "host-picks"}, {"reindeerCount", 2}, {"tieBreak", "totalGifts"}}, 4},
  };
  return v;
}

}  // namespace

TEST_CASE("Happy Holidays writes legal and the shared view as exactly the text of their json",
          "[happy_holidays][text]") {
  const game_info* info = builtin_games().find("happy_holidays");
  REQUIRE(info);
  constexpr int games_per_variant = 150;
  const auto n = text_test::play_games(
      *info, variants(), games_per_variant, 5000, 10, [](std::uint64_t seed, std::size_t) { return seed; },
      [](const game& g, const std::string&) { REQUIRE(text_test::check_text(g)); },
      [](const game& g, const prompt& pr, seeded_dice& pick) {
        const int seat = pr.seats.at(pick.roll(static_cast<std::uint32_t>(pr.seats.size())));
        const json legal = g.legal(seat);
        REQUIRE(!legal.empty());
        return std::pair{seat, legal.at(pick.roll(static_cast<std::uint32_t>(legal.size())))};
      });
  CHECK(n.over == static_cast<long>(variants().size()) * games_per_variant);
  CHECK(n.states > 10000);
}
