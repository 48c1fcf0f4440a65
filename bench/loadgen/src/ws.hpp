// The load generator's I/O: an io_context run by one or more threads, lanes (strands) that
// serialize everything of one room, timers on a lane, and WebSocket client connections.
//
// Every callback of a connection and every timer of a lane runs on that lane, never two at once,
// so the room code above needs no locks even with --threads > 1. This header hides Boost.Beast so
// that only ws.cpp pays its compile time.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>

namespace tinsel_loadgen {

// ws://HOST:PORT/PATH, already resolved (once, not per connection).
struct ws_target {
  std::string host;  // as sent in the Host header
  std::string port;
  std::string path;
  struct endpoints;
  std::shared_ptr<const endpoints> resolved;
};

// Resolves host:port synchronously; throws std::runtime_error with the reason when it cannot.
ws_target resolve_target(const std::string& host, const std::string& port, const std::string& path);

class lane;

class event_loop {
 public:
  explicit event_loop(int threads);
  ~event_loop();
  event_loop(const event_loop&) = delete;
  event_loop& operator=(const event_loop&) = delete;

  // Runs the io_context on `threads` threads (the calling one included) until stop().
  void run();
  void stop();
  std::shared_ptr<lane> make_lane();

  struct impl;

 private:
  std::unique_ptr<impl> impl_;
  int threads_;
};

// A strand: functions posted to it and the callbacks of connections and timers made on it run one
// at a time, in order.
class lane {
 public:
  ~lane();
  void post(std::function<void()> fn);
  // Calls fn once after delay, on this lane. No cancel: callers check their own state inside fn.
  void after(std::chrono::steady_clock::duration delay, std::function<void()> fn);

  struct impl;
  explicit lane(std::unique_ptr<impl> i);
  impl& get() { return *impl_; }

 private:
  std::unique_ptr<impl> impl_;
};

// How a connection ended. http_status is the status of a refused upgrade (503 when the server
// or the address is full), 0 otherwise; close_code the WebSocket close code the server sent.
struct close_info {
  bool opened = false;
  int http_status = 0;
  int close_code = 0;
  std::string reason;
  std::string error;  // transport failure, empty for a clean close
};

struct connection_options {
  bool offer_deflate = false;  // offer permessage-deflate in the upgrade request
  std::chrono::seconds connect_timeout{10};
};

struct connection_callbacks {
  std::function<void()> opened;
  // The payload of one text frame, valid only during the call.
  std::function<void(std::string_view)> message;
  std::function<void(const close_info&)> closed;
};

// A WebSocket client connection. It keeps one read pending at all times (which also answers the
// server's pings) and one write in flight, queueing the rest. TCP_NODELAY is set after connecting.
class connection {
 public:
  // Starts connecting at once; the callbacks run on `on`.
  connection(lane& on, const ws_target& target, const connection_options& opts, connection_callbacks callbacks);
  // Drops the callbacks and closes the socket if it is still open (no close frame).
  ~connection();
  connection(const connection&) = delete;
  connection& operator=(const connection&) = delete;
  void send(std::string text);
  // Sends a close frame once every queued message is written; `closed` reports the end.
  void close();
  // True when the server accepted permessage-deflate (known once opened).
  bool deflate_negotiated() const;
  // Bytes read from the TCP socket so far: WebSocket frame headers and (compressed) payloads.
  std::uint64_t wire_bytes_read() const;

  struct impl;

 private:
  std::shared_ptr<impl> impl_;  // shared with the pending handlers
};

}  // namespace tinsel_loadgen
