#pragma once
// The Tinsel server as a library: main() and the integration tests both start it through this
// header, which keeps Boost.Beast out of everything that includes it.
#include <cstdint>
#include <memory>

namespace tinsel::server {

struct config;

class server {
 public:
  explicit server(const config& cfg);
  ~server();  // shuts down gracefully if still running
  server(const server&) = delete;
  server& operator=(const server&) = delete;

  // Binds and listens, then runs the I/O threads. Returns the bound port (useful with port 0).
  // Throws std::runtime_error if the address cannot be bound.
  std::uint16_t start();
  // Thread-safe and idempotent: stop accepting, close every WebSocket with 1001, close the rooms,
  // then let the I/O threads finish.
  void shutdown();
  // Blocks until the I/O threads have finished.
  void wait();

 private:
  struct impl;
  std::unique_ptr<impl> impl_;
};

}  // namespace tinsel::server
