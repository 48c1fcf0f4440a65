#pragma once
// How a room reaches a connected client without knowing about sockets (as in Asio's chat example):
// a room holds weak pointers to participants and talks to them only through this interface.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace tinsel::server {

class room;

// Close codes beyond RFC 6455's; docs/protocol.md lists them.
enum class close_code : std::uint16_t {
  going_away = 1001,    // server shutting down (rooms in memory only: they end)
  service_restart = 1012,  // server restarting (durable rooms: reconnect and resume)
  too_big = 1009,       // frame over the hard limit
  replaced = 4001,      // another connection resumed this player
  too_slow = 4008,      // outgoing queue overflowed
  rate_limited = 4029,  // kept sending far beyond the rate limit
};

class participant {
 public:
  virtual ~participant() = default;
  // Unique per connection for the server's lifetime.
  virtual std::uint64_t connection_id() const = 0;
  // Queues one serialized frame. Thread-safe; never blocks; a frame shared by many recipients is
  // serialized once.
  virtual void send(std::shared_ptr<const std::string> frame) = 0;
  // Queues several frames in order, handed over at once, so that they can share one write on the
  // wire (a command's `ok` and the `state` it caused). Thread-safe; never blocks.
  virtual void send_all(std::vector<std::shared_ptr<const std::string>> frames) = 0;
  // The room no longer counts this participant as a member (join refused, kicked, room closed,
  // seat taken over by another connection). Thread-safe.
  virtual void left_room(const std::shared_ptr<room>& r) = 0;
  // Closes the connection with a WebSocket close code (docs/protocol.md, "Close codes").
  // Thread-safe.
  virtual void close_with(close_code code, std::string reason) = 0;
};

}  // namespace tinsel::server
