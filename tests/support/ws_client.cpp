#include "ws_client.hpp"

#include <atomic>
#include <condition_variable>
#include <deque>
#include <iostream>
#include <mutex>
#include <stdexcept>
#include <thread>

#include <boost/asio/connect.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/post.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/websocket.hpp>

#include "json_schema.hpp"

namespace tinsel::test {

namespace beast = boost::beast;
namespace websocket = beast::websocket;
namespace net = boost::asio;

namespace {

std::atomic<std::size_t> unreported{0};

std::string excerpt(const std::string& frame) {
  return frame.size() > 2000 ? frame.substr(0, 2000) + "..." : frame;
}

// Checks a frame against one of the protocol's top-level schemas; returns the violation, if any.
std::optional<std::string> violation(const std::string& frame, const json* parsed, const char* schema,
                                     const char* direction) {
  std::optional<std::string> why;
  if (!parsed) {
    why = "not JSON";
  } else {
    why = schema_set::protocol().validate(*parsed, schema);
  }
  if (!why) return std::nullopt;
  return std::string(direction) + " frame violates protocol/schema/" + schema + " " + *why + "\n  frame: " +
         excerpt(frame);
}

}  // namespace

struct ws_client::impl : std::enable_shared_from_this<impl> {
  net::io_context ioc;
  websocket::stream<beast::tcp_stream> ws{ioc};
  beast::flat_buffer buffer;
  std::thread thread;

  mutable std::mutex mutex;
  std::condition_variable cv;
  struct frame {
    std::string text;
    std::optional<json> parsed;
  };
  std::deque<frame> inbox;
  std::vector<json> all;
  std::vector<std::string> violations;  // in server frames, in arrival order
  std::size_t reported = 0;             // violations already thrown by recv()
  std::size_t bytes = 0;  // received, in frame payloads
  bool is_closed = false;
  int close_code = -1;
  bool paused = false;
  bool reading = false;

  std::deque<std::pair<std::string, bool>> outbox;  // text?, only touched on the I/O thread

  void read() {
    reading = true;
    ws.async_read(buffer, [self = shared_from_this()](beast::error_code ec, std::size_t) {
      self->reading = false;
      if (ec) {
        std::lock_guard lock(self->mutex);
        self->is_closed = true;
        if (self->ws.reason().code != websocket::close_code::none || ec == websocket::error::closed)
          self->close_code = self->ws.reason().code;
        self->cv.notify_all();
        return;
      }
      {
        frame f{beast::buffers_to_string(self->buffer.data()), std::nullopt};
        f.parsed = json::parse(f.text, nullptr, /*allow_exceptions=*/false);
        if (f.parsed->is_discarded()) f.parsed.reset();
        auto bad = self->ws.got_text() ? violation(f.text, f.parsed ? &*f.parsed : nullptr, "server-message.json", "server")
                                       : std::optional<std::string>("server sent a binary frame");
        std::lock_guard lock(self->mutex);
        self->bytes += f.text.size();
        if (bad) self->violations.push_back(std::move(*bad));
        self->inbox.push_back(std::move(f));
        self->cv.notify_all();
      }
      self->buffer.consume(self->buffer.size());
      if (!self->paused) self->read();
    });
  }

  void write_next() {
    ws.text(outbox.front().second);
    ws.async_write(net::buffer(outbox.front().first), [self = shared_from_this()](beast::error_code ec, std::size_t) {
      self->outbox.pop_front();
      if (ec) return;
      if (!self->outbox.empty()) self->write_next();
    });
  }

  void post_send(std::string data, bool text) {
    net::post(ioc, [self = shared_from_this(), data = std::move(data), text]() mutable {
      self->outbox.emplace_back(std::move(data), text);
      if (self->outbox.size() == 1) self->write_next();
    });
  }
};

ws_client::ws_client(std::uint16_t port, const std::string& path, int receive_buffer, const std::string& forwarded_for)
    : impl_(std::make_shared<impl>()) {
  auto& sock = beast::get_lowest_layer(impl_->ws).socket();
  sock.open(net::ip::tcp::v4());
  if (receive_buffer > 0) sock.set_option(net::socket_base::receive_buffer_size(receive_buffer));
  sock.connect(net::ip::tcp::endpoint(net::ip::make_address("127.0.0.1"), port));
  beast::get_lowest_layer(impl_->ws).expires_never();
  if (!forwarded_for.empty())
    impl_->ws.set_option(websocket::stream_base::decorator(
        [forwarded_for](websocket::request_type& req) { req.set("X-Forwarded-For", forwarded_for); }));
  beast::error_code ec;
  impl_->ws.handshake("127.0.0.1:" + std::to_string(port), path, ec);
  if (ec) throw std::runtime_error("websocket handshake failed: " + ec.message());
  impl_->read();
  impl_->thread = std::thread([i = impl_] { i->ioc.run(); });
}

ws_client::~ws_client() {
  close();
  if (impl_->thread.joinable()) impl_->thread.join();
  // Handlers still queued (a close posted after the I/O thread had ended, operations left behind by
  // ioc.stop()) hold a reference to impl, which owns the io_context: a cycle that LeakSanitizer
  // reports. Run them to completion on a closed socket so that the last reference is ours.
  beast::error_code ec;
  beast::get_lowest_layer(impl_->ws).socket().close(ec);
  impl_->ioc.restart();
  impl_->ioc.run();
  std::lock_guard lock(impl_->mutex);
  for (auto i = impl_->reported; i < impl_->violations.size(); ++i) {
    std::cerr << "SCHEMA VIOLATION (in a frame the test did not read): " << impl_->violations[i] << "\n";
    ++unreported;
  }
}

std::size_t unreported_schema_violations() { return unreported.load(); }

void ws_client::send_text(const std::string& text) {
  const json parsed = json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (auto bad = violation(text, parsed.is_discarded() ? nullptr : &parsed, "client-message.json", "client"))
    throw std::runtime_error(*bad + "\n  (send a deliberately malformed request with send_unchecked)");
  impl_->post_send(text, true);
}

void ws_client::send_unchecked(const std::string& text) { impl_->post_send(text, true); }
void ws_client::send_binary(const std::string& bytes) { impl_->post_send(bytes, false); }

std::optional<json> ws_client::recv(std::chrono::milliseconds timeout) {
  std::unique_lock lock(impl_->mutex);
  impl_->cv.wait_for(lock, timeout, [&] { return !impl_->inbox.empty() || impl_->is_closed; });
  if (impl_->reported < impl_->violations.size()) throw std::runtime_error(impl_->violations[impl_->reported++]);
  if (impl_->inbox.empty()) return std::nullopt;
  auto f = std::move(impl_->inbox.front());
  impl_->inbox.pop_front();
  auto j = f.parsed ? std::move(*f.parsed) : json::parse(f.text);
  impl_->all.push_back(j);
  return j;
}

json ws_client::expect(const std::function<bool(const json&)>& pred, const std::string& what,
                       std::chrono::milliseconds timeout) {
  const auto until = std::chrono::steady_clock::now() + timeout;
  for (;;) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(until - std::chrono::steady_clock::now());
    if (left.count() <= 0) break;
    auto j = recv(left);
    if (!j) break;
    if (pred(*j)) return *j;
  }
  throw std::runtime_error("timed out waiting for " + what);
}

json ws_client::expect_type(const std::string& type, std::chrono::milliseconds timeout) {
  return expect([&](const json& j) { return j.value("type", "") == type; }, "a '" + type + "' message", timeout);
}

json ws_client::expect_reply(const json& id, std::chrono::milliseconds timeout) {
  return expect(
      [&](const json& j) {
        const auto t = j.value("type", "");
        return (t == "ok" || t == "error") && j.contains("id") && j["id"] == id;
      },
      "the reply to request " + id.dump(), timeout);
}

json ws_client::request(json msg, std::chrono::milliseconds timeout) {
  const json id = "r" + std::to_string(next_id_++);
  msg["id"] = id;
  send(msg);
  return expect_reply(id, timeout);
}

json ws_client::request_unchecked(json msg, std::chrono::milliseconds timeout) {
  const json id = "r" + std::to_string(next_id_++);
  msg["id"] = id;
  send_unchecked(msg.dump());
  return expect_reply(id, timeout);
}

int ws_client::wait_closed(std::chrono::milliseconds timeout) {
  const auto until = std::chrono::steady_clock::now() + timeout;
  std::unique_lock lock(impl_->mutex);
  // Frames still queued are kept for transcript(); we only wait for the close.
  impl_->cv.wait_until(lock, until, [&] { return impl_->is_closed; });
  return impl_->is_closed ? impl_->close_code : -1;
}

bool ws_client::closed() const {
  std::lock_guard lock(impl_->mutex);
  return impl_->is_closed;
}

void ws_client::pause_reading() {
  net::post(impl_->ioc, [i = impl_] { i->paused = true; });
}

void ws_client::close() {
  net::post(impl_->ioc, [i = impl_] {
    if (i->ws.is_open())
      i->ws.async_close(websocket::close_code::normal, [i](beast::error_code) {});
  });
  // The I/O thread ends once the close handshake and the pending read finish.
  std::unique_lock lock(impl_->mutex);
  impl_->cv.wait_for(lock, 2s, [&] { return impl_->is_closed; });
  lock.unlock();
  if (!closed()) impl_->ioc.stop();
}

std::vector<json> ws_client::transcript(std::size_t from) const {
  std::lock_guard lock(impl_->mutex);
  if (from >= impl_->all.size()) return {};
  return std::vector<json>(impl_->all.begin() + static_cast<std::ptrdiff_t>(from), impl_->all.end());
}

std::size_t ws_client::bytes_received() const {
  std::lock_guard lock(impl_->mutex);
  return impl_->bytes;
}

http_response http_get(std::uint16_t port, const std::string& target) {
  namespace http = beast::http;
  net::io_context ioc;
  beast::tcp_stream stream(ioc);
  stream.expires_after(std::chrono::seconds(5));
  stream.connect(net::ip::tcp::endpoint(net::ip::make_address("127.0.0.1"), port));
  http::request<http::empty_body> req{http::verb::get, target, 11};
  req.set(http::field::host, "127.0.0.1");
  http::write(stream, req);
  beast::flat_buffer buf;
  http::response<http::string_body> res;
  http::read(stream, buf, res);
  beast::error_code ec;
  stream.socket().shutdown(net::ip::tcp::socket::shutdown_both, ec);
  return {static_cast<int>(res.result_int()), std::string(res[http::field::content_type]), res.body()};
}

json say_hello(ws_client& c, const std::string& name) {
  c.send({{"type", "hello"}, {"protocol", 1}, {"name", name}});
  return c.expect_type("welcome");
}

}  // namespace tinsel::test
