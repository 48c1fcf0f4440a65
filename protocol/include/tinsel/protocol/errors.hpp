#pragma once
// Every error code a client can cause, in one place. The codes are stable: clients switch on them.
// docs/protocol.md lists the same codes; tests/protocol/messages_test.cpp checks that it does.
#include <string_view>

namespace tinsel::protocol::errc {

// Envelope and session
inline constexpr std::string_view bad_json = "bad_json";                  // not valid JSON / UTF-8, a BOM, a NUL byte
inline constexpr std::string_view invalid_message = "invalid_message";    // not an object, no string `type`, a key twice, binary frame
inline constexpr std::string_view unknown_type = "unknown_type";
inline constexpr std::string_view invalid_field = "invalid_field";        // a field missing or of the wrong shape
inline constexpr std::string_view frame_too_large = "frame_too_large";
inline constexpr std::string_view frame_too_deep = "frame_too_deep";      // arrays/objects nested beyond limits::max_depth
inline constexpr std::string_view hello_required = "hello_required";
inline constexpr std::string_view already_hello = "already_hello";
inline constexpr std::string_view unsupported_protocol = "unsupported_protocol";
inline constexpr std::string_view internal_error = "internal_error";
// Rooms
inline constexpr std::string_view unknown_game = "unknown_game";
inline constexpr std::string_view invalid_option = "invalid_option";      // also produced by engines
inline constexpr std::string_view unknown_room = "unknown_room";
inline constexpr std::string_view room_full = "room_full";
inline constexpr std::string_view already_in_room = "already_in_room";
inline constexpr std::string_view not_in_room = "not_in_room";
inline constexpr std::string_view not_host = "not_host";
// Games
inline constexpr std::string_view game_in_progress = "game_in_progress";
inline constexpr std::string_view game_not_started = "game_not_started";
inline constexpr std::string_view not_enough_players = "not_enough_players";
inline constexpr std::string_view too_many_players = "too_many_players";  // set_game: more seated than the next game allows
inline constexpr std::string_view not_a_player = "not_a_player";
inline constexpr std::string_view not_awaited = "not_awaited";  // skip: the open prompt does not wait for that seat
// Host controls and limits
inline constexpr std::string_view unknown_player = "unknown_player";  // kick / transfer_host target not in the room
inline constexpr std::string_view not_a_bot = "not_a_bot";            // remove_bot on a seat without a bot
inline constexpr std::string_view too_many_bots = "too_many_bots";
inline constexpr std::string_view rate_limited = "rate_limited";
// Limits per client address and per room (docs/operations.md, "Limits per address")
inline constexpr std::string_view too_many_rooms = "too_many_rooms";            // create_room; may carry retry_after_ms
inline constexpr std::string_view too_many_attempts = "too_many_attempts";      // join_room after failed joins; carries retry_after_ms
inline constexpr std::string_view too_many_identities = "too_many_identities";  // hello without a valid token
inline constexpr std::string_view too_many_spectators = "too_many_spectators";  // join_room as a spectator
inline constexpr std::string_view kicked = "kicked";                  // join_room as a player after the host removed you
// Durable rooms (docs/operations.md, "The journal")
inline constexpr std::string_view storage_failed = "storage_failed";      // the request could not be saved; nothing changed
inline constexpr std::string_view room_unavailable = "room_unavailable";  // join_room: the room could not be recovered after a restart
// Cluster mode (docs/protocol.md, "Cluster mode"): carries room, instance and ws; the connection then closes with 4002
inline constexpr std::string_view room_moved = "room_moved";

// Every code above, for the documentation check.
inline constexpr std::string_view all[] = {
    bad_json,     invalid_message, unknown_type,    invalid_field,  frame_too_large,  frame_too_deep, hello_required,
    already_hello, unsupported_protocol, internal_error, unknown_game, invalid_option,   unknown_room,
    room_full,    already_in_room, not_in_room,     not_host,       game_in_progress, game_not_started,
    not_enough_players, too_many_players, not_a_player, not_awaited, unknown_player, not_a_bot, too_many_bots, rate_limited,
    too_many_rooms, too_many_attempts, too_many_identities, too_many_spectators, kicked,
    storage_failed, room_unavailable, room_moved};

}  // namespace tinsel::protocol::errc
