// tinsel-bot-bench: how the computer players' two levels (engine/include/tinsel/engine/bot.hpp)
// play against random play and against each other, over many games of every game. Not a timed
// benchmark: it counts wins and points. See bench/README.md, "tinsel-bot-bench".
//
// For each game, player count P (2..4 by default) and pairing "A vs B", it plays N games with one
// A player (seat 0) against P−1 B players; the dice choose who begins. A is "fair", "gentle" or
// "random" (a uniform entry of commands(seat)), as is B. It prints one markdown row per game, P and
// pairing: A's share of the wins (a shared win counts as a share; 1/P is what equal players get),
// the mean points of A and of a B player, and, for Unterm Baum, how often per game A took a card
// from another player's table into its own.
//
//   tinsel-bot-bench [--games N] [--game ID] [--players 2,3,4] [--seed S]
//
// Deterministic: game k of a row uses seed S + k, for the dice and for every player.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "tinsel/engine/bot.hpp"
#include "tinsel/engine/game.hpp"

namespace {

using namespace tinsel::engine;
using json = nlohmann::json;

enum class who { random, gentle, fair };
const char* name(who w) { return w == who::random ? "random" : w == who::gentle ? "gentle" : "fair"; }

struct tally {
  double wins = 0, points_a = 0, points_b = 0, takes = 0;
  int games = 0, unfinished = 0;
};

// `memory`: one value per seat and game, as the server passes (what a player forgets stays forgotten).
json pick(const game& g, int seat, who w, std::uint64_t seed, std::uint64_t memory, seeded_dice& chooser) {
  if (w == who::random) {
    const json all = g.commands(seat);
    if (all.empty()) return nullptr;
    return all[chooser.roll(static_cast<std::uint32_t>(all.size()))];
  }
  return choose_bot_command(g, seat, seed, w == who::gentle ? bot_level::gentle : bot_level::fair, memory);
}

void play(const game_info& info, int players, who a, who b, std::uint64_t seed, tally& t) {
  seeded_dice d(seed);
  seeded_dice chooser(seed * 7919 + 1);
  auto opts = info.normalize_options({{"maxPlayers", players}});
  if (!opts) {
    std::fprintf(stderr, "%s: options refused: %s\n", info.id.c_str(), opts.error().message.c_str());
    std::exit(2);
  }
  auto created = info.create(setup{opts.value(), players, std::nullopt}, d);
  if (!created) {
    std::fprintf(stderr, "%s: %s\n", info.id.c_str(), created.error().message.c_str());
    std::exit(2);
  }
  auto& g = *created.value();
  const bool ub = info.id == "unterm_baum";
  for (std::uint64_t step = 0; step < 200000 && !g.is_over(); ++step) {
    const auto pr = g.current_prompt();
    if (!pr) break;
    if (pr->seats.empty()) {
      g.on_timeout(pr->serial, d);
      continue;
    }
    const int seat = pr->seats.front();
    const json cmd = pick(g, seat, seat == 0 ? a : b, seed * 1000003 + step, seed * 7907 + static_cast<std::uint64_t>(seat), chooser);
    if (cmd.is_null()) {
      g.on_timeout(pr->serial, d);
      continue;
    }
    if (ub && seat == 0 && cmd.value("kind", "") == "move" && cmd["from"].contains("seat") &&
        cmd["from"]["seat"] != 0 && cmd["to"].value("seat", -1) == 0)
      t.takes += 1;
    if (!g.apply(seat, cmd, d)) {
      std::fprintf(stderr, "%s: a refused command %s (seed %llu)\n", info.id.c_str(), cmd.dump().c_str(),
                   static_cast<unsigned long long>(seed));
      std::exit(1);
    }
  }
  ++t.games;
  if (!g.is_over()) {
    ++t.unfinished;
    return;
  }
  const json r = g.result();
  const auto& winners = r["winners"];
  for (const auto& w : winners)
    if (w == 0) t.wins += 1.0 / static_cast<double>(winners.size());
  const auto& scores = r["scores"];
  t.points_a += scores[0].get<double>();
  double rest = 0;
  for (int p = 1; p < players; ++p) rest += scores[static_cast<std::size_t>(p)].get<double>();
  t.points_b += rest / (players - 1);
}

}  // namespace

int main(int argc, char** argv) {
  int games = 200;
  std::string only;
  std::vector<int> counts{2, 3, 4};
  std::uint64_t seed = 1;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    const bool has_value = i + 1 < argc;
    if (arg == "--games" && has_value) games = std::atoi(argv[++i]);
    else if (arg == "--game" && has_value) only = argv[++i];
    else if (arg == "--seed" && has_value) seed = std::strtoull(argv[++i], nullptr, 10);
    else if (arg == "--players" && has_value) {
      counts.clear();
      for (const char* p = argv[++i]; *p;) {
        counts.push_back(std::atoi(p));
        while (*p && *p != ',') ++p;
        if (*p == ',') ++p;
      }
    } else {
      std::fprintf(stderr, "usage: tinsel-bot-bench [--games N] [--game ID] [--players 2,3,4] [--seed S]\n");
      return 2;
    }
  }
  const std::pair<who, who> pairings[] = {
      {who::fair, who::random}, {who::gentle, who::random}, {who::fair, who::gentle}, {who::gentle, who::fair}};
  std::printf("| game | players | A vs B | A's win share | equal share | A's mean points | B's mean points | A took from a table, per game | unfinished |\n");
  std::printf("|---|---|---|---|---|---|---|---|---|\n");
  for (const auto* info : builtin_games().all()) {
    if (!only.empty() && info->id != only) continue;
    for (int players : counts) {
      for (const auto& [a, b] : pairings) {
        tally t;
        for (int k = 0; k < games; ++k) play(*info, players, a, b, seed + static_cast<std::uint64_t>(k), t);
        const double done = t.games - t.unfinished > 0 ? t.games - t.unfinished : 1;
        std::printf("| %s | %d | %s vs %s | %.0f%% | %.0f%% | %.1f | %.1f | %s | %d |\n", info->id.c_str(), players,
                    name(a), name(b), 100.0 * t.wins / done, 100.0 / players, t.points_a / done, t.points_b / done,
                    info->id == "unterm_baum" ? std::to_string(t.takes / t.games).substr(0, 4).c_str() : "–",
                    t.unfinished);
        std::fflush(stdout);
      }
    }
  }
  return 0;
}
