#pragma once
// One WebSocket connection: a read loop and a bounded write queue with one write in flight, all on
// the connection's io_context, which one thread alone runs (io_pool): an implicit strand. Requests
// are handed to the `request_dispatcher`; rooms reach us through `send`.
#include <sys/socket.h>

#include <chrono>
#include <vector>
#include <memory>
#include <string>

#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/websocket.hpp>
#include <spdlog/spdlog.h>

#include "limits/connection_limits.hpp"
#include "limits/token_bucket.hpp"
#include "rooms/request_dispatcher.hpp"
#include "net/io_pool.hpp"
#include "rooms/participant.hpp"
#include "server_state.hpp"

namespace tinsel::server {

// The outgoing frames of one connection, oldest first. A vector and the index of its front: an
// idle connection holds no memory for it (a std::deque keeps a 512-byte block even when empty, a
// twentieth of what an idle connection costs in all).
class frame_queue {
 public:
  using frame = std::shared_ptr<const std::string>;
  bool empty() const { return head_ == frames_.size(); }
  std::size_t size() const { return frames_.size() - head_; }
  const frame& front() const { return frames_[head_]; }
  void push_back(frame f) { frames_.push_back(std::move(f)); }
  void pop_front() {
    frames_[head_++].reset();
    if (empty()) clear();
  }
  // Everything but the front (the write in flight) is dropped.
  void keep_front_only() {
    if (size() > 1) frames_.erase(frames_.begin() + static_cast<std::ptrdiff_t>(head_) + 1, frames_.end());
  }
  void clear() {
    frames_.clear();
    head_ = 0;
  }

 private:
  std::vector<frame> frames_;
  std::size_t head_ = 0;
};

// The TCP socket under a connection's WebSocket. While `hold` is set, what is written waits in the
// kernel for the next write (MSG_MORE): a command's `ok` and its `state`, handed over together,
// leave in one TCP segment, one wake-up of the client, without a setsockopt(TCP_CORK) pair around
// them. The last queued frame is always written without it, so nothing waits for long.
class held_socket {
 public:
  using executor_type = connection_executor;
  using next_layer_type = connection_socket;

  explicit held_socket(connection_socket&& s) : s_(std::move(s)) {}
  executor_type get_executor() noexcept { return s_.get_executor(); }
  connection_socket& next_layer() noexcept { return s_; }
  const connection_socket& next_layer() const noexcept { return s_; }
  void hold(bool more) noexcept { more_ = more; }

  template <class MutableBuffers, class Handler>
  auto async_read_some(const MutableBuffers& buffers, Handler&& handler) {
    return s_.async_read_some(buffers, std::forward<Handler>(handler));
  }
  template <class ConstBuffers, class Handler>
  auto async_write_some(const ConstBuffers& buffers, Handler&& handler) {
    return s_.async_send(buffers, more_ ? MSG_MORE : 0, std::forward<Handler>(handler));
  }

 private:
  connection_socket s_;
  bool more_ = false;
};

// Closing a WebSocket ends with the TCP socket's own teardown (found by Beast through ADL).
inline void teardown(boost::beast::role_type role, held_socket& s, boost::beast::error_code& ec) {
  boost::beast::websocket::teardown(role, s.next_layer(), ec);
}
template <class Handler>
void async_teardown(boost::beast::role_type role, held_socket& s, Handler&& handler) {
  boost::beast::websocket::async_teardown(role, s.next_layer(), std::forward<Handler>(handler));
}

class ws_session final : public participant, public std::enable_shared_from_this<ws_session> {
 public:
  // `address`: the client's address key; its connection slot (address_limits::open_connection)
  // is released when the session ends, as is `tcp`, the TCP connection's place in the count per
  // peer address (connection_limits).
  ws_session(connection_socket&& socket, std::shared_ptr<server_state> state, std::string address, connection_slot tcp);
  ~ws_session() override;

  void run(boost::beast::http::request<boost::beast::http::string_body> upgrade);

  std::uint64_t connection_id() const override { return id_; }
  void send(std::shared_ptr<const std::string> frame) override;
  void send_all(std::vector<std::shared_ptr<const std::string>> frames) override;
  void left_room(const std::shared_ptr<room>& r) override;
  void close_with(close_code code, std::string reason) override;

 private:
  void on_accept(boost::beast::error_code ec);
  void do_read();
  void on_read(boost::beast::error_code ec, std::size_t bytes);
  // Queues frames; false (and the connection is closing) when the client is too slow.
  bool enqueue(std::shared_ptr<const std::string> frame);
  void do_write();
  void on_write(boost::beast::error_code ec, std::size_t bytes);
  void do_close(close_code code, std::string reason);
  void finish();
  void detach();  // leave the room and release the identity, once
  bool take_token();
  // A line a client can cause at will: at most one per address and kind per interval (log_throttle).
  template <class... Args>
  void log_limited(spdlog::level::level_enum level, const char* kind, spdlog::format_string_t<Args...> fmt, Args&&... args);

  // On the bare socket: the websocket layer's own timeouts (handshake, idle pings) are all this
  // connection needs, and tcp_stream's per-operation timer bookkeeping would cost on every frame.
  boost::beast::websocket::stream<held_socket> ws_;
  boost::beast::flat_buffer buffer_;
  std::shared_ptr<server_state> state_;
  const std::string address_;
  connection_slot tcp_;
  std::uint64_t id_;
  request_dispatcher requests_;
  frame_queue queue_;
  std::size_t queued_bytes_ = 0;
  bool open_ = false;     // handshake done and not closing
  token_bucket bucket_;   // rate limit
  int refused_in_row_ = 0;
  bool finished_ = false;
  bool detached_ = false;
};

}  // namespace tinsel::server
