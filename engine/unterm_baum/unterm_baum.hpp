#pragma once
// Unterm Baum, as fixed by shared/rules/unterm-baum.md and documented for players and client
// authors in docs/rules/unterm-baum.md.
//
// Rules in brief. 2–6 players each take a family sheet: M family members, one row each, every row
// with C = K − M + 1 slots. The deck has D = P·K + decoys motifs; each motif exists once as a green
// (wish) card and once as a grey (present) card. All grey cards lie face-down on the tree board, one
// per tree slot 0…D−1, shuffled. Each player draws K green cards and, simultaneously and in secret,
// places them on the inner side of his sheet (ASSIGN: every row at least one card, one card per
// slot). Then everybody memorises his own wish list for memorizeSeconds (MEMORIZE); after that
// nobody sees any wish list again until the end, not even its owner.
//   On your turn you may, in any order, reveal one grey card anywhere (shown to everyone once, then
// put back face-down) and move one grey card face-down: tree → any field, a field → another field,
// a field → tree (actionsMode=anyTwo: any two of these actions). Between them you may rearrange the
// cards of your own field freely, face-down and in public: up to rearrangesPerTurn times a turn,
// and never in a way that leaves every card where it was. A move may not bring another player's
// field to K cards (the last card is the owner's). The game ends at once when a player's own move
// brings his own field to K cards, or after maxRounds rounds.
//   Scoring per card in your field, against your own wish list: not wished by you or wished in
// another row (another family member) 1, right row but wrong position 3, exact position 4
// (positionMode=ordinal: the k-th occupied slot of the row instead of the slot index). Most points
// wins; ties are shared, or broken by more 4-point cards, then more 3-point cards (exactThenRow).
//
// Hidden information: the view shows occupancy only (which slots hold a card); a revealed motif
// travels only in the live `revealed` event, whose retold form (catch-up, game log) names the place
// and not the motif; nothing on the wire identifies a card across moves except its location.
// Everything is opened at the end.
//
// Options: declared once, with their defaults and ranges, in declared_options() in unterm_baum.cpp;
// clients get the same list in welcome.games, and protocol/schema/games/unterm_baum/options.json is
// generated from it.
//
// Prompt kinds: assign (every seat that has not submitted), memorize (no seats, timer only), turn
// (the active seat). Commands, legal entries, events and errors: docs/rules/unterm-baum.md.
#include <memory>
#include <string>
#include <string_view>

#include "tinsel/engine/game.hpp"

namespace tinsel::engine::unterm_baum {

// The registry entry: id "unterm_baum", title "Unterm Baum".
game_info info();

// Rebuilds a game from its own full_state() (post-game log, tests that set up a rulebook position).
// The shape and the card bookkeeping are checked (invalid input gives rule_error "invalid_state");
// never feed it client data.
outcome<std::unique_ptr<game>> restore(const json& full_state);

// The public motif catalogue: a game with D motifs uses the first D names. Names are the motif
// identifiers on the wire (snake_case, unique).
inline constexpr int catalogue_size = 160;

// The computer player's command for `seat` in a turn of the play phase (ub_bot.cpp); null when `g`
// is not an Unterm Baum game or the seat is not taking its turn (then the generic bot chooses).
// It knows its own wish list, the occupancy everyone sees and the motifs revealed to everyone, of
// which it forgets older ones with a human, seeded chance; never a face nobody was shown.
// gentle: forgets more, never takes from another table, collects slowly and leaves the end to others.
// `seed` breaks ties and rolls its trials; `memory_seed` (one per seat and game) what it forgets.
json bot_command(const game& g, int seat, std::uint64_t seed, std::uint64_t memory_seed, bool gentle);
std::string_view motif_name(int motif);

}  // namespace tinsel::engine::unterm_baum
