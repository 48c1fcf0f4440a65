// How the bot picks a command: only ever one of the concrete entries of `legal` (entries without
// a `domain`) or a command a domain entry stands for (expand_legal: Christmas Penguins' green
// moves, channels and flights, Unterm Baum's reveals and moves, written out as docs/protocol.md
// says), so it needs no rules of its own to play legally.
// Within that list a few per-game weights make the play look sensible and finish games
// (e.g. Happy Holidays: take a reindeer rather than forget it; Unterm Baum: reveal and move before
// ending the turn, never rearrange forever); the rest is seeded random choice.
#pragma once

#include <cstdint>
#include <optional>
#include <random>
#include <vector>

#include <nlohmann/json.hpp>

namespace tinsel_bot {

using json = nlohmann::json;

// `legal` with every domain the bot chooses from written out as commands, in the server's order,
// the example before each domain not repeated; other domains (assign, rearrange) are left out.
json expand_legal(const json& legal);

class chooser {
 public:
  chooser(std::uint64_t seed, double stop_chance);

  // The command to send for `state` (a `state` push) as seat `seat`, or nullopt to wait.
  // `refused` are entries of this same state the server has already refused (they are skipped).
  // Out of turn it only ever returns a Christmas Penguins `stop`, with the stop chance.
  std::optional<json> choose(const json& state, int seat, const std::vector<json>& refused);

 private:
  double weight(const json& view, int seat, const json& entry);
  double unterm_baum_weight(const json& view, const json& entry) const;
  bool chance(double p);

  std::mt19937_64 rng_;
  double stop_chance_;
  // Unterm Baum: commands this bot sent in the current turn, so it cannot rearrange forever.
  long long ub_turn_ = -1;
  int ub_actions_ = 0;
  int ub_rearranges_ = 0;
};

}  // namespace tinsel_bot
