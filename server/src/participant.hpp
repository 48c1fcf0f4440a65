#pragma once
// How a room reaches a connected client without knowing about sockets (as in Asio's chat example):
// a room holds weak pointers to participants and talks to them only through this interface.
#include <cstdint>
#include <memory>
#include <string>

namespace tinsel::server {

class room;

class participant {
 public:
  virtual ~participant() = default;
  // Unique per connection for the server's lifetime.
  virtual std::uint64_t connection_id() const = 0;
  // Queues one serialized frame. Thread-safe; never blocks; a frame shared by many recipients is
  // serialized once.
  virtual void send(std::shared_ptr<const std::string> frame) = 0;
  // The room no longer counts this participant as a member (join refused, room closed).
  // Thread-safe.
  virtual void left_room(const std::shared_ptr<room>& r) = 0;
};

}  // namespace tinsel::server
