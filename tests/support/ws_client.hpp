#pragma once
// A real WebSocket client for integration tests. Beast stays inside ws_client.cpp, so test files
// that include this header compile quickly. Frames are read on the client's own I/O thread and
// queued; the test thread waits for them with timeouts.
//
// Conformance: every text frame the client sends is checked against
// protocol/schema/client-message.json before it leaves (a violation throws at the call), and every
// frame the server sends against protocol/schema/server-message.json as it arrives. A server frame
// that violates the schema makes the next recv()/expect() throw; one that no test reads is reported
// when the client is destroyed and makes the test binary fail (unreported_schema_violations()).
// Tests that send malformed requests on purpose use the *_unchecked calls.
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace tinsel::test {

using json = nlohmann::json;
using namespace std::chrono_literals;

class ws_client {
 public:
  // Connects to ws://127.0.0.1:port/path; throws std::runtime_error on failure. A non-zero
  // `receive_buffer` shrinks the socket's kernel receive buffer (for slow-client tests). A
  // non-empty `forwarded_for` is sent as X-Forwarded-For (a server that trusts 127.0.0.1 as a
  // proxy then takes the client for that address).
  explicit ws_client(std::uint16_t port, const std::string& path = "/ws", int receive_buffer = 0,
                     const std::string& forwarded_for = "");
  ~ws_client();
  ws_client(const ws_client&) = delete;
  ws_client& operator=(const ws_client&) = delete;

  // Sends a text frame; throws std::runtime_error if it is not a valid client message.
  void send_text(const std::string& text);
  void send(const json& j) { send_text(j.dump()); }
  // Sends a frame as it is, without the schema check: only for requests that are wrong on purpose.
  void send_unchecked(const std::string& text);
  void send_binary(const std::string& bytes);

  // The next received frame parsed as JSON (invalid JSON fails the test via exception), or nullopt
  // if none arrives within `timeout` or the connection closed.
  std::optional<json> recv(std::chrono::milliseconds timeout = 5s);
  // Skips frames until one satisfies `pred`; throws std::runtime_error (naming `what`) on timeout.
  json expect(const std::function<bool(const json&)>& pred, const std::string& what,
              std::chrono::milliseconds timeout = 5s);
  json expect_type(const std::string& type, std::chrono::milliseconds timeout = 5s);
  // The `ok` or `error` answering request `id`.
  json expect_reply(const json& id, std::chrono::milliseconds timeout = 5s);
  // Sends a request with a fresh id and returns its `ok`/`error` reply (other frames stay queued
  // only if they arrive after the reply; those before it are skipped).
  json request(json msg, std::chrono::milliseconds timeout = 5s);
  // The same for a request that is wrong on purpose (not checked against the schema).
  json request_unchecked(json msg, std::chrono::milliseconds timeout = 5s);

  // Waits until the server closes the connection; returns the close code, or -1 on timeout.
  int wait_closed(std::chrono::milliseconds timeout = 5s);
  bool closed() const;
  // Stops reading from the socket (to simulate a client that cannot keep up).
  void pause_reading();
  void close();
  // Every frame received so far (for leak checks and schema validation), from index `from` on.
  std::vector<json> transcript(std::size_t from = 0) const;
  // Bytes of the frames received so far (their payloads).
  std::size_t bytes_received() const;

 private:
  struct impl;
  std::shared_ptr<impl> impl_;
  int next_id_ = 1;
};

struct http_response {
  int status = 0;
  std::string content_type;
  std::string body;
};
// A plain HTTP/1.1 GET against 127.0.0.1:port; throws std::runtime_error on failure.
http_response http_get(std::uint16_t port, const std::string& target);

// Schema violations in server frames that no recv() reported, over all clients destroyed so far;
// the test runner's main fails the run when this is not zero.
std::size_t unreported_schema_violations();

// hello + welcome; returns the welcome.
json say_hello(ws_client& c, const std::string& name);

}  // namespace tinsel::test
