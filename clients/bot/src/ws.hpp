// A single-threaded event loop and a WebSocket client connection on it.
//
// Everything runs on the thread that calls event_loop::run(): callbacks of a connection and of
// timers are never concurrent, so the code above needs no locks. The connection keeps one read
// pending at all times (that is also what answers the server's pings) and one write in flight,
// queueing the rest. This header hides Boost.Beast so that only ws.cpp pays its compile time.
#pragma once

#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

namespace tinsel_bot {

// ws://HOST:PORT/PATH. wss:// is not supported (the bot has no TLS).
struct ws_url {
  std::string host;
  std::string port;
  std::string path;
};

// Parses ws://host[:port][/path]; http://host[:port][/…] is read as that server's /ws (so the
// address a browser shows works too). Port defaults to 80, path to /ws. nullopt if malformed.
std::optional<ws_url> parse_ws_url(std::string_view text);

class event_loop {
 public:
  event_loop();
  ~event_loop();
  event_loop(const event_loop&) = delete;
  event_loop& operator=(const event_loop&) = delete;

  // Runs until stop() is called.
  void run();
  void stop();
  // Calls fn once after delay, on the loop's thread. There is no cancel: callers that may change
  // their mind compare a generation number inside fn.
  void after(std::chrono::milliseconds delay, std::function<void()> fn);

  struct impl;
  impl& get() { return *impl_; }

 private:
  std::unique_ptr<impl> impl_;
};

// How a connection ended. code is the WebSocket close code the server sent (0 if there was no
// close frame, e.g. a refused or dropped TCP connection); error describes the transport failure.
struct close_info {
  int code = 0;
  std::string reason;
  std::string error;
  bool opened = false;  // the WebSocket handshake had succeeded
};

struct connection_callbacks {
  std::function<void()> opened;
  std::function<void(std::string text)> message;
  std::function<void(const close_info&)> closed;  // called exactly once, last
};

class ws_connection {
 public:
  // Starts connecting at once; callbacks follow on the loop.
  ws_connection(event_loop& loop, const ws_url& url, connection_callbacks callbacks);
  ~ws_connection();
  ws_connection(const ws_connection&) = delete;
  ws_connection& operator=(const ws_connection&) = delete;

  // Queues one text frame. Frames sent before `opened` wait for the handshake.
  void send(std::string text);
  // Sends a normal close (1000) once the queue has drained; `closed` follows.
  void close();

  struct impl;

 private:
  std::shared_ptr<impl> impl_;
};

}  // namespace tinsel_bot
