// The only translation unit of tinsel-loadgen that includes Boost.Beast.
#include "ws.hpp"

#include <deque>
#include <stdexcept>
#include <thread>
#include <vector>

#include <boost/asio/associator.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/websocket.hpp>

namespace tinsel_loadgen {

namespace beast = boost::beast;
namespace websocket = beast::websocket;
namespace net = boost::asio;
using tcp = net::ip::tcp;

// ---- a stream layer that counts the bytes read from the socket -------------------------------
//
// Sits between the WebSocket stream and the TCP stream, so what it counts is what came over the
// wire: frame headers and payloads as sent (compressed, when permessage-deflate is on).

template <class Handler>
struct counted_read {
  Handler handler;
  std::uint64_t* counter;
  void operator()(beast::error_code ec, std::size_t n) {
    *counter += n;
    std::move(handler)(ec, n);
  }
};

}  // namespace tinsel_loadgen

// The wrapped handler keeps the executor, allocator and cancellation slot of the handler it wraps.
template <template <typename, typename> class Associator, typename Handler, typename DefaultCandidate>
struct boost::asio::associator<Associator, tinsel_loadgen::counted_read<Handler>, DefaultCandidate>
    : Associator<Handler, DefaultCandidate> {
  static typename Associator<Handler, DefaultCandidate>::type get(const tinsel_loadgen::counted_read<Handler>& h,
                                                                 const DefaultCandidate& c = DefaultCandidate()) noexcept {
    return Associator<Handler, DefaultCandidate>::get(h.handler, c);
  }
};

namespace tinsel_loadgen {

template <class NextLayer>
class counting_stream {
 public:
  using executor_type = typename NextLayer::executor_type;

  template <class Arg>
  explicit counting_stream(Arg&& arg) : next_(std::forward<Arg>(arg)) {}

  executor_type get_executor() noexcept { return next_.get_executor(); }
  NextLayer& next_layer() noexcept { return next_; }
  const NextLayer& next_layer() const noexcept { return next_; }
  std::uint64_t bytes_read() const noexcept { return bytes_read_; }

  template <class MutableBuffers, class Token>
  auto async_read_some(const MutableBuffers& buffers, Token&& token) {
    return net::async_initiate<Token, void(beast::error_code, std::size_t)>(
        [this](auto handler, const MutableBuffers& b) {
          next_.async_read_some(b, counted_read<std::decay_t<decltype(handler)>>{std::move(handler), &bytes_read_});
        },
        token, buffers);
  }

  template <class ConstBuffers, class Token>
  auto async_write_some(const ConstBuffers& buffers, Token&& token) {
    return next_.async_write_some(buffers, std::forward<Token>(token));
  }

 private:
  NextLayer next_;
  std::uint64_t bytes_read_ = 0;
};

// websocket::stream closes its next layer through these (found by argument-dependent lookup).
template <class NextLayer>
void teardown(beast::role_type role, counting_stream<NextLayer>& s, beast::error_code& ec) {
  using beast::websocket::teardown;
  teardown(role, s.next_layer(), ec);
}

template <class NextLayer, class Handler>
void async_teardown(beast::role_type role, counting_stream<NextLayer>& s, Handler&& handler) {
  using beast::websocket::async_teardown;
  async_teardown(role, s.next_layer(), std::forward<Handler>(handler));
}

// ---- target --------------------------------------------------------------------------------

struct ws_target::endpoints {
  tcp::resolver::results_type results;
};

ws_target resolve_target(const std::string& host, const std::string& port, const std::string& path) {
  net::io_context ioc;
  tcp::resolver resolver(ioc);
  beast::error_code ec;
  auto results = resolver.resolve(host, port, ec);
  if (ec) throw std::runtime_error("cannot resolve " + host + ":" + port + ": " + ec.message());
  ws_target t;
  t.host = (host.find(':') != std::string::npos ? "[" + host + "]" : host) + ":" + port;
  t.port = port;
  t.path = path;
  t.resolved = std::make_shared<const ws_target::endpoints>(ws_target::endpoints{std::move(results)});
  return t;
}

// ---- event loop and lanes ------------------------------------------------------------------

struct event_loop::impl {
  explicit impl(int threads) : ioc(threads) {}
  net::io_context ioc;
  net::executor_work_guard<net::io_context::executor_type> work = net::make_work_guard(ioc);
};

event_loop::event_loop(int threads) : impl_(std::make_unique<impl>(threads)), threads_(threads < 1 ? 1 : threads) {}
event_loop::~event_loop() = default;

void event_loop::run() {
  std::vector<std::thread> others;
  for (int i = 1; i < threads_; ++i) others.emplace_back([this] { impl_->ioc.run(); });
  impl_->ioc.run();
  for (auto& t : others) t.join();
}

void event_loop::stop() { impl_->ioc.stop(); }

struct lane::impl {
  explicit impl(net::io_context& ioc) : strand(net::make_strand(ioc)) {}
  net::strand<net::io_context::executor_type> strand;
};

std::shared_ptr<lane> event_loop::make_lane() { return std::make_shared<lane>(std::make_unique<lane::impl>(impl_->ioc)); }

lane::lane(std::unique_ptr<impl> i) : impl_(std::move(i)) {}
lane::~lane() = default;

void lane::post(std::function<void()> fn) { net::post(impl_->strand, std::move(fn)); }

void lane::after(std::chrono::steady_clock::duration delay, std::function<void()> fn) {
  auto timer = std::make_shared<net::steady_timer>(impl_->strand, delay);
  timer->async_wait([timer, fn = std::move(fn)](beast::error_code ec) {
    if (!ec) fn();
  });
}

// ---- connection ----------------------------------------------------------------------------

struct connection::impl : std::enable_shared_from_this<impl> {
  impl(lane& on, ws_target t, connection_options o, connection_callbacks c)
      : ws(on.get().strand), target(std::move(t)), opts(o), cb(std::move(c)) {}

  websocket::stream<counting_stream<beast::tcp_stream>> ws;
  websocket::response_type upgrade_response;
  beast::flat_buffer buffer;
  std::deque<std::string> outbox;
  ws_target target;
  connection_options opts;
  connection_callbacks cb;
  bool open = false;
  bool writing = false;
  bool close_wanted = false;
  bool closing = false;
  bool finished = false;
  bool deflate = false;

  beast::tcp_stream& tcp() { return ws.next_layer().next_layer(); }

  void start() {
    tcp().expires_after(opts.connect_timeout);
    tcp().async_connect(target.resolved->results, [self = shared_from_this()](beast::error_code ec, const tcp::endpoint&) {
      if (ec) return self->finish(ec);
      beast::error_code ignored;
      self->tcp().socket().set_option(tcp::no_delay(true), ignored);
      self->tcp().expires_never();
      self->handshake();
    });
  }

  void handshake() {
    auto t = websocket::stream_base::timeout::suggested(beast::role_type::client);
    t.handshake_timeout = opts.connect_timeout;
    ws.set_option(t);
    ws.set_option(websocket::stream_base::decorator(
        [](websocket::request_type& req) { req.set(beast::http::field::user_agent, "tinsel-loadgen"); }));
    if (opts.offer_deflate) {
      websocket::permessage_deflate pmd;
      pmd.client_enable = true;
      ws.set_option(pmd);
    }
    ws.async_handshake(upgrade_response, target.host, target.path, [self = shared_from_this()](beast::error_code ec) {
      if (ec) return self->finish(ec);
      self->open = true;
      const auto ext = self->upgrade_response[beast::http::field::sec_websocket_extensions];
      self->deflate = ext.find("permessage-deflate") != beast::string_view::npos;
      if (self->cb.opened) self->cb.opened();
      if (self->finished) return;
      self->read();
      self->pump();
    });
  }

  void read() {
    ws.async_read(buffer, [self = shared_from_this()](beast::error_code ec, std::size_t) {
      if (ec) return self->finish(ec);
      if (self->finished) return;
      const auto data = self->buffer.cdata();
      if (self->cb.message) self->cb.message(std::string_view(static_cast<const char*>(data.data()), data.size()));
      self->buffer.consume(self->buffer.size());
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
    if (ec == websocket::error::upgrade_declined) info.http_status = static_cast<int>(upgrade_response.result_int());
    info.close_code = static_cast<int>(ws.reason().code);
    info.reason = std::string(ws.reason().reason.c_str());
    if (ec && ec != websocket::error::closed) info.error = ec.message();
    beast::error_code ignored;
    tcp().socket().close(ignored);
    auto closed = std::move(cb.closed);
    cb = {};  // drop whatever the callbacks captured
    if (closed) closed(info);
  }
};

connection::connection(lane& on, const ws_target& target, const connection_options& opts, connection_callbacks callbacks)
    : impl_(std::make_shared<impl>(on, target, opts, std::move(callbacks))) {
  impl_->start();
}

connection::~connection() {
  // Pending handlers hold the impl alive; they see `finished` and do nothing more.
  if (!impl_->finished) {
    impl_->finished = true;
    impl_->cb = {};
    beast::error_code ignored;
    impl_->tcp().socket().close(ignored);
  }
}

void connection::send(std::string text) {
  if (impl_->finished || impl_->close_wanted) return;
  impl_->outbox.push_back(std::move(text));
  impl_->pump();
}

void connection::close() {
  if (impl_->finished || impl_->close_wanted) return;
  impl_->close_wanted = true;
  if (!impl_->open) {
    // Still connecting: abort that; its handler reports the end through `closed`.
    beast::error_code ignored;
    impl_->tcp().socket().close(ignored);
    return;
  }
  impl_->pump();
}

bool connection::deflate_negotiated() const { return impl_->deflate; }

std::uint64_t connection::wire_bytes_read() const { return impl_->ws.next_layer().bytes_read(); }

}  // namespace tinsel_loadgen
