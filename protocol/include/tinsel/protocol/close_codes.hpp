#pragma once
// The WebSocket close codes the server uses, beyond RFC 6455's; docs/protocol.md ("Close codes")
// lists them. Part of the wire, like the error codes (errors.hpp).
#include <cstdint>

namespace tinsel::protocol {

enum class close_code : std::uint16_t {
  going_away = 1001,       // server shutting down (rooms in memory only: they end)
  service_restart = 1012,  // server restarting (durable rooms: reconnect and resume)
  too_big = 1009,          // frame over the hard limit
  replaced = 4001,         // another connection resumed this player
  room_moved = 4002,       // cluster mode: the room is served by another instance (after a room_moved error)
  too_slow = 4008,         // outgoing queue overflowed
  rate_limited = 4029,     // kept sending far beyond the rate limit
};

}  // namespace tinsel::protocol
