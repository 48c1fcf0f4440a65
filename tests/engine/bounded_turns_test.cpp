// No sequence of legal commands repeats forever: whatever the players send, a turn (the game's
// active seat, turn and round as its view shows them) moves on or the game ends within a bounded
// number of commands. A room journals and records every accepted command, so a turn that could go
// on forever would let one player grow the room's memory, journal and game record without bound.
//
// From positions reached by random play, an adversary keeps sending, from any seat, concrete
// legal entries that leave the turn where it is (tried on a clone), and the test counts how many
// it gets through before none is left.
#include <algorithm>
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "tinsel/engine/game.hpp"

namespace {

using namespace tinsel::engine;

std::string turn_key(const game& g) {
  const json v = g.view(viewer::spectator());
  return v.value("active", json()).dump() + "/" + v.value("turn", json()).dump() + "/" + v.value("round", json()).dump();
}

struct candidate {
  int seat;
  json cmd;
};

std::vector<candidate> concrete_entries(const game& g) {
  std::vector<candidate> out;
  for (int s = 0; s < g.players(); ++s)
    for (const auto& e : g.commands(s))
      if (e.is_object() && !e.contains("domain")) out.push_back({s, e});
  return out;
}

// The longest run of turn-preserving commands the adversary found, over `games` seeded games.
int longest_turn(const game_info& info, const json& options, int players, int games) {
  int longest = 0;
  for (int g = 0; g < games; ++g) {
    seeded_dice d(1000 + static_cast<std::uint64_t>(g));
    seeded_dice pick(77 + static_cast<std::uint64_t>(g));
    auto created = info.create(setup{options, players, 0}, d);
    REQUIRE(created.ok());
    auto game = std::move(created.value());
    // Random play to a position somewhere in the game.
    const auto warmup = pick.roll(120);
    for (std::uint32_t i = 0; i < warmup && !game->is_over(); ++i) {
      const auto entries = concrete_entries(*game);
      if (entries.empty() || pick.roll(10) == 0) {
        game->on_timeout(game->current_prompt()->serial, d);
        continue;
      }
      const auto& c = entries[pick.roll(static_cast<std::uint32_t>(entries.size()))];
      REQUIRE(game->apply(c.seat, c.cmd, d).ok());
    }
    if (game->is_over()) continue;
    const auto key = turn_key(*game);
    int run = 0;
    for (; run < 1000; ++run) {
      auto entries = concrete_entries(*game);
      // Try them in a random order; the first one that keeps the turn is sent.
      for (std::size_t i = entries.size(); i > 1; --i)
        std::swap(entries[i - 1], entries[pick.roll(static_cast<std::uint32_t>(i))]);
      bool sent = false;
      for (std::size_t i = 0; i < entries.size() && i < 60 && !sent; ++i) {
        auto trial = game->clone();
        seeded_dice td = d;
        if (!trial->apply(entries[i].seat, entries[i].cmd, td).ok() || trial->is_over() || turn_key(*trial) != key) continue;
        REQUIRE(game->apply(entries[i].seat, entries[i].cmd, d).ok());
        sent = true;
      }
      if (!sent) break;
    }
    INFO(info.id << " game " << g << " ran " << run << " commands without the turn moving on");
    REQUIRE(run < 1000);
    longest = std::max(longest, run);
  }
  return longest;
}

}  // namespace

TEST_CASE("no turn lasts forever: Unterm Baum allows 2 actions and 20 rearrangements a turn",
          "[limits][unterm_baum]") {
  const auto* info = builtin_games().find("unterm_baum");
  REQUIRE(info);
  const int longest = longest_turn(*info, {{"maxPlayers", 3}, {"startPlayer", "host-picks"}}, 3, 12);
  CHECK(longest <= 22);
  const int any_two = longest_turn(*info, {{"maxPlayers", 2}, {"startPlayer", "host-picks"}, {"actionsMode", "anyTwo"}}, 2, 6);
  CHECK(any_two <= 22);
}

TEST_CASE("no turn lasts forever: Happy Holidays", "[limits][happy_holidays]") {
  const auto* info = builtin_games().find("happy_holidays");
  REQUIRE(info);
  CHECK(longest_turn(*info, {{"maxPlayers", 4}, {"startPlayer", "host-picks"}}, 4, 12) < 100);
}

TEST_CASE("no turn lasts forever: Christmas Penguins, \"Stop!\" claims and passes included", "[limits][christmas_penguins]") {
  const auto* info = builtin_games().find("christmas_penguins");
  REQUIRE(info);
  CHECK(longest_turn(*info, {{"startPlayer", "host-picks"}}, 4, 8) < 400);
}
