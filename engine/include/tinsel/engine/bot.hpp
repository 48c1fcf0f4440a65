#pragma once
// The server-side bot: fills empty seats and plays for players who left. It plays through the same
// contract as any client: it picks one of the seat's `legal` commands, the one whose outcome the
// game's heuristic() rates best (ties broken at random), so it prefers commands that score or take
// from others over arbitrary ones. It sees only what legal() and the game's own heuristic expose.
#include <cstdint>

#include "tinsel/engine/game.hpp"

namespace tinsel::engine {

// A command for `seat` (an entry of g.legal(seat)), or null if the seat has nothing to do.
// Simulations roll throwaway dice seeded from `seed`, never the game's own.
json choose_bot_command(const game& g, int seat, std::uint64_t seed);

}  // namespace tinsel::engine
