// The only translation unit that includes Boost.Beast.
#include "ws.hpp"

#include <deque>

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/websocket.hpp>

namespace tinsel_bot {

namespace beast = boost::beast;
namespace websocket = beast::websocket;
namespace net = boost::asio;
using tcp = net::ip::tcp;

std::optional<ws_url> parse_ws_url(std::string_view text) {
  bool http = false;
  if (text.starts_with("ws://")) {
    text.remove_prefix(5);
  } else if (text.starts_with("http://")) {
    text.remove_prefix(7);
    http = true;
  } else {
    return std::nullopt;
  }
  const auto slash = text.find('/');
  const std::string_view authority = text.substr(0, slash);
  std::string path = slash == std::string_view::npos ? std::string() : std::string(text.substr(slash));
  if (http || path.empty() || path == "/") path = "/ws";

  ws_url url;
  const auto colon = authority.rfind(':');
  const bool bracketed = authority.starts_with('[');  // [::1]:8080
  if (colon != std::string_view::npos && (!bracketed || authority.find(']') < colon)) {
    url.host = std::string(authority.substr(0, colon));
    url.port = std::string(authority.substr(colon + 1));
  } else {
    url.host = std::string(authority);
    url.port = "80";
  }
  if (url.host.size() > 2 && url.host.front() == '[' && url.host.back() == ']')
    url.host = url.host.substr(1, url.host.size() - 2);
  if (url.host.empty() || url.port.empty() || url.port.find_first_not_of("0123456789") != std::string::npos)
    return std::nullopt;
  url.path = std::move(path);
  return url;
}

// ---- event loop ------------------------------------------------------------------------------

struct event_loop::impl {
  net::io_context ioc{1};
  net::executor_work_guard<net::io_context::executor_type> work = net::make_work_guard(ioc);
};

event_loop::event_loop() : impl_(std::make_unique<impl>()) {}
event_loop::~event_loop() = default;

void event_loop::run() { impl_->ioc.run(); }
void event_loop::stop() { impl_->ioc.stop(); }

void event_loop::after(std::chrono::milliseconds delay, std::function<void()> fn) {
  auto timer = std::make_shared<net::steady_timer>(impl_->ioc, delay);
  timer->async_wait([timer, fn = std::move(fn)](beast::error_code ec) {
    if (!ec) fn();
  });
}

// ---- connection ------------------------------------------------------------------------------

struct ws_connection::impl : std::enable_shared_from_this<impl> {
  impl(net::io_context& ioc, ws_url u, connection_callbacks c)
      : resolver(ioc), ws(ioc), url(std::move(u)), cb(std::move(c)) {}

  tcp::resolver resolver;
  websocket::stream<beast::tcp_stream> ws;
  beast::flat_buffer buffer;
  std::deque<std::string> outbox;
  ws_url url;
  connection_callbacks cb;
  bool open = false;
  bool writing = false;
  bool close_wanted = false;
  bool closing = false;
  bool finished = false;

  void start() {
    resolver.async_resolve(url.host, url.port, [self = shared_from_this()](beast::error_code ec, tcp::resolver::results_type r) {
      if (ec) return self->finish(ec);
      beast::get_lowest_layer(self->ws).expires_after(std::chrono::seconds(10));
      beast::get_lowest_layer(self->ws).async_connect(r, [self](beast::error_code ec2, const tcp::endpoint&) {
        if (ec2) return self->finish(ec2);
        self->handshake();
      });
    });
  }

  void handshake() {
    beast::get_lowest_layer(ws).expires_never();
    // The server pings a quiet connection; Beast answers while a read is pending. Our own pings
    // notice a server that vanished without closing the TCP connection (docs/protocol.md, the
    // silence timer): after half the idle timeout without a frame Beast pings, and with nothing
    // at all by its end the connection is given up and the bot reconnects.
    websocket::stream_base::timeout t{};
    t.handshake_timeout = std::chrono::seconds(10);
    t.idle_timeout = std::chrono::seconds(35);
    t.keep_alive_pings = true;
    ws.set_option(t);
    ws.set_option(websocket::stream_base::decorator(
        [](websocket::request_type& req) { req.set(beast::http::field::user_agent, "tinsel-bot"); }));
    ws.read_message_max(1 << 24);
    const std::string host = url.host.find(':') != std::string::npos ? "[" + url.host + "]" : url.host;
    ws.async_handshake(host + ":" + url.port, url.path, [self = shared_from_this()](beast::error_code ec) {
      if (ec) return self->finish(ec);
      self->open = true;
      if (self->cb.opened) self->cb.opened();
      self->read();
      self->pump();
    });
  }

  void read() {
    ws.async_read(buffer, [self = shared_from_this()](beast::error_code ec, std::size_t) {
      if (ec) return self->finish(ec);
      std::string text = beast::buffers_to_string(self->buffer.data());
      self->buffer.consume(self->buffer.size());
      if (self->finished) return;
      if (self->cb.message) self->cb.message(std::move(text));
      if (!self->finished) self->read();
    });
  }

  // Starts the next write, or the close once everything queued is written.
  void pump() {
    if (!open || writing || closing || finished) return;
    if (!outbox.empty()) {
      writing = true;
      ws.text(true);
      ws.async_write(net::buffer(outbox.front()), [self = shared_from_this()](beast::error_code ec, std::size_t) {
        self->writing = false;
        if (ec) return self->finish(ec);
        self->outbox.pop_front();
        self->pump();
      });
    } else if (close_wanted) {
      closing = true;
      ws.async_close(websocket::close_code::normal, [self = shared_from_this()](beast::error_code ec) {
        // The pending read completes with `closed` once the server's close frame arrives.
        if (ec) self->finish(ec);
      });
    }
  }

  void finish(beast::error_code ec) {
    if (finished) return;
    finished = true;
    close_info info;
    info.opened = open;
    info.code = static_cast<int>(ws.reason().code);
    info.reason = std::string(ws.reason().reason.c_str());
    if (ec && ec != websocket::error::closed) info.error = ec.message();
    beast::error_code ignored;
    beast::get_lowest_layer(ws).socket().close(ignored);
    if (cb.closed) cb.closed(info);
    cb = {};  // drop whatever the callbacks captured
  }
};

ws_connection::ws_connection(event_loop& loop, const ws_url& url, connection_callbacks callbacks)
    : impl_(std::make_shared<impl>(loop.get().ioc, url, std::move(callbacks))) {
  impl_->start();
}

ws_connection::~ws_connection() {
  // Pending handlers hold the impl alive; they see `finished` and do nothing more.
  if (!impl_->finished) {
    impl_->finished = true;
    impl_->cb = {};
    beast::error_code ignored;
    impl_->resolver.cancel();
    beast::get_lowest_layer(impl_->ws).socket().close(ignored);
  }
}

void ws_connection::send(std::string text) {
  if (impl_->finished || impl_->close_wanted) return;
  impl_->outbox.push_back(std::move(text));
  impl_->pump();
}

void ws_connection::close() {
  if (impl_->finished || impl_->close_wanted) return;
  impl_->close_wanted = true;
  if (!impl_->open) {
    // Still connecting: abort that; its handler reports the end through `closed`.
    beast::error_code ignored;
    impl_->resolver.cancel();
    beast::get_lowest_layer(impl_->ws).socket().close(ignored);
    return;
  }
  impl_->pump();
}

}  // namespace tinsel_bot
