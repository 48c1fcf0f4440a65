#pragma once
// Christmas Penguins (tactical dice game), as fixed by shared/rules/christmas-penguins.md and
// documented for players and client authors in docs/rules/christmas-penguins.md.
//
// Rules in brief. 2–6 players; one of them is Santa, the others are thieving penguins. Ice floes form
// a hexagon of radius 3 or 4 (37 or 61 floes). Santa's hut and the event stones (red, blue, green)
// lie on random floes; Santa's figure starts on the hut floe, every other player places a penguin,
// then Santa places the Christmas tree (at least treeMinDistance away) and the polar bear. Every
// player holds two presents of their colour and three water channels; the rest of the presents lie
// under the tree (the pool).
// On your turn: Santa may first have to re-place handed-in stones; you may place channels (on an
// edge between two floes; the board must stay connected), roll one d6 and move your figure along a
// path of exactly that many steps: no floe twice, no passing a figure or a channel, Santa never on
// the tree floe. No legal path: you stay. A penguin ending on another penguin pushes it (the mover
// picks the whole chain); on the tree it steals one present from the pool and Santa moves the tree
// (distance rule with fallbacks); on a stone it may take the stone; it collects loose presents.
// Santa and a penguin meeting swap roles: Santa confiscates one present (back to the pool), the caught
// player becomes Santa on that floe, the old Santa re-enters from the hut. On a 1 you also move the
// polar bear one step; a penguin it reaches leaves a present on that floe and flees. Anyone holding a
// usable stone may shout "Stop!" at any time: red swaps your penguin with another penguin, blue with
// any figure, green moves a whole floe to a vacant cell; the stone goes to Santa, who re-places it.
// The game ends when the pool is empty (or after maxRounds rounds). One point per present, +1 for the
// most of one colour or the most colours; the final Santa cannot win. Everything is public.
//
// Coordinates (axial, pointy hexagons; s = -q - r; radius 3 shown; floe ids sorted by r, then q):
//
//                 r=-3     (0,-3) (1,-3) (2,-3) (3,-3)            ids  0 ..  3
//                 r=-2  (-1,-2) (0,-2) (1,-2) (2,-2) (3,-2)         ids  4 ..  8
//                 r=-1 (-2,-1) ... (3,-1)                           ids  9 .. 14
//                 r= 0 (-3,0) (-2,0) (-1,0) (0,0) (1,0) (2,0) (3,0) ids 15 .. 21 (0,0) = 18
//                 r= 1 (-3,1) ... (2,1)                             ids 22 .. 27
//                 r= 2 (-3,2) ... (1,2)                             ids 28 .. 32
//                 r= 3 (-3,3) (-2,3) (-1,3) (0,3)                   ids 33 .. 36
//   neighbours of (q,r): (q+1,r) (q+1,r-1) (q,r-1) (q-1,r) (q-1,r+1) (q,r+1)
//   hexDist = (|dq| + |dr| + |dq+dr|) / 2
//
// Options: declared once, with their defaults and ranges, in declared_options() in
// christmas_penguins.cpp; clients get the same list in welcome.games, and
// protocol/schema/games/christmas_penguins/options.json is generated from it.
//
// Prompt kinds: place_penguin, place_tree, place_bear, place_stone, roll, reaction, move,
// push_chain, confiscate, steal_colour, relocate_tree, pickup_stone, bear_move, flee, post_move,
// stopped. Commands, events and error codes: docs/rules/christmas-penguins.md ("Protocol").
#include "tinsel/engine/game.hpp"

namespace tinsel::engine::christmas_penguins {

// The registry entry: id "christmas_penguins", title "Christmas Penguins".
game_info info();

}  // namespace tinsel::engine::christmas_penguins
