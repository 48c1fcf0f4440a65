#pragma once
// Happy Holidays: The Christmas Game (LEGO, 2010), as fixed by shared/rules/happy-holidays.md and
// documented for players and client authors in docs/rules/happy-holidays.md.
//
// Rules in brief. 2–6 players sit in seat order (clockwise). Around the tree lie gifts in four
// colours, red, green, blue and yellow (giftsPerColour each). Every player has one sleigh in front
// of them, empty at the start, and all players but the start player hold a reindeer (there are
// reindeerCount of them). On your turn:
//   1. If you have no reindeer you must first take one from another player. In strict mode, rolling
//      without one is the rule's "forgetting": your turn is missed and the die is not rolled.
//   2. Roll the die: four faces show a colour pair (red+green, green+blue, blue+yellow,
//      yellow+red), one is the Reindeer reward, one the Christmas wish.
//      - Colour pair: one gift of each rolled colour goes from the tree onto your sleigh (only the
//        available ones; neither available: roll again). Then choose one of the two colours and
//        bank every gift of that colour from your sleigh into your stacks.
//      - Reindeer reward: choose any sleigh, bank all its gifts; if it was another player's, you
//        swap sleighs, so they get yours with whatever is on it.
//      - Christmas wish: if no other player has any banked gift, roll again; otherwise name a
//        colour and every other player who has a gift of it gives you one.
//   The game ends when at most one colour is left around the tree (checked at the end of the turn,
//   or right after the gifts move with endCheck=immediate), or after a fixed cap of 200 rounds
//   (convention C8). Your score is the sum of your two largest colour stacks; the highest wins.
//   Everything is public.
//
// Options: declared once, with their defaults and ranges, in declared_options() in
// happy_holidays.cpp; clients get the same list in welcome.games, and
// protocol/schema/games/happy_holidays/options.json is generated from it.
//
// Prompt kinds: take_reindeer_or_roll (strict, no reindeer), take_reindeer (assisted, no
// reindeer), roll, sleigh_colour, choose_sleigh, wish_colour. Command, event and error shapes are
// listed in docs/rules/happy-holidays.md ("Protocol").
#include <memory>

#include "tinsel/engine/game.hpp"

namespace tinsel::engine::happy_holidays {

// The registry entry: id "happy_holidays", title "Happy Holidays".
game_info info();

// Rebuilds a game from its own full_state() (post-game log, tests that set up a rulebook position).
// The shape is checked (invalid input gives rule_error "invalid_state"); the content is trusted, so
// never feed it client data.
outcome<std::unique_ptr<game>> restore(const json& full_state);

}  // namespace tinsel::engine::happy_holidays
