#pragma once
// How a room reaches a connected client without knowing about sockets (as in Asio's chat example):
// a room holds weak pointers to participants and talks to them only through this interface.
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "tinsel/protocol/close_codes.hpp"

namespace tinsel::server {

class room;

// The close codes are the protocol's (close_codes.hpp); named here as the sessions always have.
using protocol::close_code;

// A frame as participants take it: serialized once, shared by every recipient.
inline std::shared_ptr<const std::string> share_frame(std::string frame) {
  return std::make_shared<const std::string>(std::move(frame));
}

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
