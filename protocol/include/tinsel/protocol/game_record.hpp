#pragma once
// Game records: a finished game as anyone may download it and check it (docs/protocol.md, "Game
// records"), and the game entries the server's journal keeps for a running game, which are the
// same: `command` (a seat's command), `timeout` (the rulebook default applied when a prompt's
// timer ran out), `default` (the default where a server-played seat had no command).
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "tinsel/engine/game.hpp"

namespace tinsel::protocol {

using json = nlohmann::json;

// Applies one game entry to `g`; its events as the room sent them (a `timeout` starts with the
// room's `timed_out` event). A refused entry leaves `g` unchanged and returns the engine's error.
engine::outcome<engine::events> apply_game_entry(engine::game& g, engine::dice& d, const json& entry);

// The hash that every so many entries carry (`hash`): SHA-256 of the whole state after the entry.
std::string state_hash(const engine::game& g);

struct record_check {
  bool ok = false;
  std::string why;  // when not ok: what does not hold
  json result;      // the result the replay reached
};

// Replays a record through the engine from its seed and checks that the seed matches the
// commitment shown at the start of the game, that every entry is accepted (and every state hash
// matches), that the game ends with the last entry, and that the result is the recorded one.
record_check check_record(const json& record);

// How deep a record may nest arrays and objects. The server writes far less: a record puts three
// levels around a command, and a command comes in a frame of at most limits::max_depth (32).
inline constexpr std::size_t max_record_depth = 64;

// Reads a record given as text (a file someone passed on): nullopt, with `why`, for text that is
// not JSON, nests deeper than max_record_depth, or has an object with the same key twice. What
// it returns can be checked, copied and printed without any risk to the stack.
std::optional<json> read_record(std::string_view text, std::string& why);

}  // namespace tinsel::protocol
