#include "tinsel/engine/bot.hpp"

#include <limits>

namespace tinsel::engine {

json choose_bot_command(const game& g, int seat, std::uint64_t seed) {
  const json legal = g.legal(seat);
  seeded_dice tie_break(seed);
  json best = nullptr;
  double best_value = -std::numeric_limits<double>::infinity();
  int ties = 0;
  std::uint64_t i = 0;
  for (const auto& cmd : legal) {
    ++i;
    if (!cmd.is_object() || cmd.contains("domain")) continue;  // only concrete commands are sent
    auto trial = g.clone();
    seeded_dice sim(seed ^ (i * 0x9e3779b97f4a7c15ULL));
    if (!trial->apply(seat, cmd, sim)) continue;
    // Only the heuristic judges: result() of a trial could reveal hidden cards.
    const double value = trial->heuristic(seat);
    if (value > best_value + 1e-9) {
      best_value = value;
      best = cmd;
      ties = 1;
    } else if (value > best_value - 1e-9 && tie_break.roll(static_cast<std::uint32_t>(++ties)) == 0) {
      best = cmd;  // reservoir sampling: each tied command is equally likely
    }
  }
  return best;
}

}  // namespace tinsel::engine
