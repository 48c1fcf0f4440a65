#pragma once
// The server-side bot: fills empty seats and plays for players who left. It plays through the same
// contract as any client: it picks one of the seat's `legal` commands. It sees only what its seat
// could see: legal(), the game's own heuristic (which must not use what is hidden from the seat) and,
// in Unterm Baum, what was revealed to everyone (see unterm_baum::bot_command).
//
// Two levels, chosen by the host per computer player (add_bot's "level"):
// - fair: plays as a sensible person would. By default the legal command whose simulated outcome the
//   game's heuristic() rates best (ties broken at random), so it prefers commands that score or take
//   from others over arbitrary ones; Unterm Baum has its own player that remembers what was revealed
//   (and forgets older reveals as people do) and collects its own wishes.
// - gentle: legal, friendly and clearly weaker, so a family with children usually wins: often the
//   second-best or a random sensible command, never the cruellest take from another player.
#include <cstdint>
#include <optional>
#include <string_view>

#include "tinsel/engine/game.hpp"

namespace tinsel::engine {

enum class bot_level { gentle, fair };

// "gentle" / "fair" (the wire names of add_bot's level and seats[].bot_level).
std::string_view bot_level_name(bot_level level);
std::optional<bot_level> bot_level_from_name(std::string_view name);

// A command for `seat` (an entry of g.commands(seat)), or null if the seat has nothing to do.
// Deterministic in `seed`: simulations roll throwaway dice seeded from it, never the game's own.
// `memory_seed` decides what the player forgets (Unterm Baum): pass one value per seat for the
// whole game, so that a card once forgotten stays forgotten until it is shown again, as with a
// person; without it, `seed` (then each decision forgets anew).
json choose_bot_command(const game& g, int seat, std::uint64_t seed, bot_level level = bot_level::fair,
                        std::optional<std::uint64_t> memory_seed = std::nullopt);

}  // namespace tinsel::engine
