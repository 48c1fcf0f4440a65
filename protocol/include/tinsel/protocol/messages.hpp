#pragma once
// The v1 envelope: one JSON object per text frame with a `type`. Requests may carry an `id`
// (string or integer) that is echoed in exactly one `ok` or `error`. This file parses and validates
// what clients send and builds what the server sends; it knows nothing of sockets.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>

#include <nlohmann/json.hpp>

#include "tinsel/protocol/limits.hpp"
// What the server sends (make_ok, make_error and the rest) has its own home; included here for
// the users of make_ok/make_error that predate it.
#include "tinsel/protocol/outgoing.hpp"

namespace tinsel::protocol {

using json = nlohmann::json;

struct hello_msg {
  int protocol = 0;
  std::string name;
  std::optional<std::string> token;  // resume the player this secret was issued to
  bool view_changes = false;         // views: "changes": states carry view_patch after the first
};
struct create_room_msg {
  std::string game;
  json options = json::object();
};
struct join_room_msg {
  std::string room;  // normalized: upper case, no separators
  bool spectator = false;
  std::optional<std::uint64_t> last_seq;  // resuming: the last state seq this client saw
};
struct leave_room_msg {};
struct chat_msg {
  std::string text;
};
struct set_options_msg {
  json options = json::object();
};
// The host picks the next game in the same room (between games); options left out take defaults.
struct set_game_msg {
  std::string game;
  json options = json::object();
};
// Host controls. `player` is a public player id (as in the room push).
struct kick_msg {
  std::string player;
};
struct transfer_host_msg {
  std::string player;
};
// The host seats a server bot; level "gentle" or "fair" (the default when absent).
struct add_bot_msg {
  std::string level = "fair";
};
struct remove_bot_msg {
  int seat = 0;
};
struct close_room_msg {};
// The host resolves a seat's part of the open prompt with the rulebook default, as its timer would.
struct skip_msg {
  int seat = 0;  // a seat of the game (0..n-1)
};
// The host lets a player it sent away (kick) sit in the room again.
struct readmit_msg {
  std::string player;
};
struct start_game_msg {
  std::optional<int> first_seat;
};
struct action_msg {
  json action;  // an object with a string "kind"; the engine validates the rest
};
// A client that takes views as changes asks for the whole view again (its copy went wrong).
struct full_view_msg {};
// A client that heard nothing for a while asks whether the connection still carries: answered ok.
struct ping_msg {};

using client_message =
    std::variant<hello_msg, create_room_msg, join_room_msg, leave_room_msg, chat_msg, set_options_msg, start_game_msg,
                 action_msg, kick_msg, transfer_host_msg, add_bot_msg, remove_bot_msg, close_room_msg, skip_msg,
                 readmit_msg, full_view_msg, set_game_msg, ping_msg>;

struct protocol_error {
  std::string code;
  std::string message;
};

// A parsed request. `id` is null when the client gave none.
struct request {
  json id;
  client_message message;
};

struct parse_result {
  std::optional<request> ok;
  std::optional<protocol_error> error;
  json id;  // the request id when it could be read, even if the message was rejected
};

parse_result parse_client_message(std::string_view frame, const limits& lim);

// Counts Unicode code points of valid UTF-8 (nlohmann has already validated the encoding).
std::size_t utf8_length(std::string_view s);
// Drops bidirectional control characters (U+061C, U+200E, U+200F, U+202A..U+202E, U+2066..U+2069)
// and trims spaces (and newlines); rejects control characters (C0 but a newline when allowed, DEL,
// C1) and the separators U+2028 and U+2029. Returns nullopt if the result is
// too long or has no visible character (only white space, invisible or format characters, or
// combining marks).
std::optional<std::string> clean_display_text(std::string_view s, std::size_t max_chars, bool allow_newlines);
// Upper-cases and drops spaces and dashes; nullopt unless it is room_code_length symbols of the alphabet.
std::optional<std::string> normalize_room_code(std::string_view s);

// Serializes a server message; never throws (invalid UTF-8 would be replaced, though all text we
// send has been validated on the way in).
std::string dump(const json& j);
// The same, appended to `out` (a frame built in one buffer, without a string per part).
void dump_to(std::string& out, const json& j);
// `object` is a JSON object as dump() writes it (members sorted by key, no spaces); returns it with
// the member `key` (plain text, nothing to escape) set to `value` (serialized JSON) in the place
// dump() would give it: the same text as dump() of the object with that member set, without
// parsing or building a document. An existing member of that key is replaced.
std::string insert_member(std::string_view object, std::string_view key, std::string_view value);

}  // namespace tinsel::protocol
