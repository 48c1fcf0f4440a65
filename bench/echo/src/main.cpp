// tinsel-echo: the reference ceiling for tinsel-loadgen. A raw Boost.Beast WebSocket server with
// rooms that only echo, built the way Tinsel's own transport is (server/src/net/io_pool.hpp,
// ws_session.hpp), so that the difference between the two is the server's own work and nothing of
// the transport:
//
// - one io_context per thread (concurrency hint 1), connections and rooms spread round robin over
//   them; a connection's and a room's handlers run on their context's one thread: no strand, and no
//   lock on the path of a frame (the registry's mutex is taken on join only);
// - the WebSocket stream sits on the bare socket bound to the context's executor by type, with the
//   same options as Tinsel's (timeouts, keep-alive pings, a read limit), the recycling allocator on
//   every read and write, and MSG_MORE while more frames of the same hand-over follow;
// - a frame takes the same path as a Tinsel command: read on the sender's connection, posted to its
//   room, and from the room one hand-over posted to every member: the sender gets an `ok` and the
//   frame together (as Tinsel's `ok` and `state`), every other member the frame: P + 1 frames a
//   command, as Tinsel sends.
//
// A client's first text frame names its room ({"join":"r17"}, answered with
// {"joined":"r17","members":N} to that client alone). Every later frame of a member is a command.
// The room sends every member (the sender included) one shared buffer: the command itself, or,
// when the command begins with {"size":S, the command padded with spaces before its closing brace
// to S bytes (the same-size variant: tinsel-loadgen --echo --sizes FILE replays the sizes of
// Tinsel's own state frames). The sender also gets {"type":"ok","id":0} first.
//
//   tinsel-echo [--bind 127.0.0.1] [--port 0] [--threads 1]
//
// Prints "tinsel-echo listening port=N" once it accepts connections; stops on SIGINT or SIGTERM.
#include <sys/socket.h>

#include <algorithm>
#include <atomic>
#include <charconv>
#include <csignal>
#include <iostream>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include <boost/asio/bind_allocator.hpp>
#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/recycling_allocator.hpp>
#include <boost/asio/signal_set.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/websocket.hpp>
#include <nlohmann/json.hpp>

namespace tinsel_echo {

namespace beast = boost::beast;
namespace websocket = beast::websocket;
namespace net = boost::asio;
using tcp = net::ip::tcp;

using frame_ptr = std::shared_ptr<const std::string>;

// A slow reader is closed rather than queued for without end (Tinsel: --write-queue-messages).
constexpr std::size_t write_queue_limit = 1024;
// Tinsel's default hard frame limit; only the read limit is set, as Tinsel sets it.
constexpr std::size_t read_limit = 64 * 1024;

// ---- threads: one io_context per thread, as server/src/net/io_pool.hpp ---------------------------

class io_pool {
 public:
  explicit io_pool(unsigned threads) {
    for (unsigned i = 0; i < std::max(1u, threads); ++i) {
      contexts_.push_back(std::make_unique<net::io_context>(1));
      guards_.emplace_back(contexts_.back()->get_executor());
    }
  }
  net::io_context& main() { return *contexts_.front(); }
  net::io_context& next() {
    return *contexts_[next_.fetch_add(1, std::memory_order_relaxed) % static_cast<unsigned>(contexts_.size())];
  }
  void run() {
    for (std::size_t i = 1; i < contexts_.size(); ++i) threads_.emplace_back([&ctx = *contexts_[i]] { ctx.run(); });
    contexts_.front()->run();
    for (auto& t : threads_) t.join();
  }
  void stop() {
    for (auto& c : contexts_) c->stop();
  }

 private:
  std::vector<std::unique_ptr<net::io_context>> contexts_;
  std::vector<net::executor_work_guard<net::io_context::executor_type>> guards_;
  std::vector<std::thread> threads_;
  std::atomic<unsigned> next_{0};
};

using connection_executor = net::io_context::executor_type;
using connection_socket = net::basic_stream_socket<tcp, connection_executor>;

// ---- the transport pieces of server/src/net/ws_session.hpp, as they are there ---------------------

// The outgoing frames of one connection, oldest first: a vector and the index of its front.
class frame_queue {
 public:
  bool empty() const { return head_ == frames_.size(); }
  std::size_t size() const { return frames_.size() - head_; }
  const frame_ptr& front() const { return frames_[head_]; }
  void push_back(frame_ptr f) { frames_.push_back(std::move(f)); }
  void pop_front() {
    frames_[head_++].reset();
    if (empty()) clear();
  }
  void clear() {
    frames_.clear();
    head_ = 0;
  }

 private:
  std::vector<frame_ptr> frames_;
  std::size_t head_ = 0;
};

// The TCP socket under the WebSocket: while `hold` is set, writes carry MSG_MORE, so an `ok` and
// the frame after it leave in one segment.
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

inline void teardown(beast::role_type role, held_socket& s, beast::error_code& ec) {
  websocket::teardown(role, s.next_layer(), ec);
}
template <class Handler>
void async_teardown(beast::role_type role, held_socket& s, Handler&& handler) {
  websocket::async_teardown(role, s.next_layer(), std::forward<Handler>(handler));
}

// ---- rooms ------------------------------------------------------------------------------------------

class session;

// A room lives on one context; everything it does runs there. Members reach it by posting.
class room : public std::enable_shared_from_this<room> {
 public:
  explicit room(net::io_context& ctx) : ctx_(ctx) {}
  net::io_context& context() { return ctx_; }

  void join(std::shared_ptr<session> s, std::string name);
  void leave(const session* s);
  void command(std::shared_ptr<session> from, std::string text);

 private:
  net::io_context& ctx_;
  std::vector<std::shared_ptr<session>> members_;
};

// Room names to rooms: only joining looks here, under its mutex. Rooms stay (a benchmark's few
// hundred), so a name always finds the same room and its context.
class registry {
 public:
  explicit registry(io_pool& pool) : pool_(pool) {}
  std::shared_ptr<room> find_or_create(const std::string& name) {
    std::lock_guard lock(mutex_);
    auto& r = rooms_[name];
    if (!r) r = std::make_shared<room>(pool_.next());
    return r;
  }

 private:
  io_pool& pool_;
  std::mutex mutex_;
  std::map<std::string, std::shared_ptr<room>> rooms_;
};

// ---- one connection, as server/src/net/ws_session.cpp ----------------------------------------------

class session : public std::enable_shared_from_this<session> {
 public:
  session(connection_socket&& socket, registry& rooms) : ws_(std::move(socket)), rooms_(rooms) {}

  void start() {
    beast::error_code ignored;
    ws_.next_layer().next_layer().set_option(tcp::no_delay(true), ignored);
    websocket::stream_base::timeout t = websocket::stream_base::timeout::suggested(beast::role_type::server);
    t.handshake_timeout = std::chrono::seconds(10);
    t.idle_timeout = std::chrono::seconds(60);
    t.keep_alive_pings = true;
    ws_.set_option(t);
    ws_.read_message_max(read_limit);
    ws_.async_accept(beast::bind_front_handler(&session::on_accept, shared_from_this()));
  }

  // From the room: one hand-over of frames, in order, posted to this connection's context.
  void send(frame_ptr frame) {
    net::post(ws_.get_executor(), [self = shared_from_this(), frame = std::move(frame)]() mutable {
      if (self->enqueue(std::move(frame)) && self->queue_.size() == 1) self->write();
    });
  }
  void send_all(std::vector<frame_ptr> frames) {
    net::post(ws_.get_executor(), [self = shared_from_this(), frames = std::move(frames)]() mutable {
      const bool idle = self->queue_.empty();
      for (auto& f : frames)
        if (!self->enqueue(std::move(f))) return;
      if (idle && !self->queue_.empty()) self->write();
    });
  }

 private:
  void on_accept(beast::error_code ec) {
    if (ec) return;
    open_ = true;
    read();
  }

  void read() {
    ws_.async_read(buffer_, net::bind_allocator(net::recycling_allocator<void>(),
                                                beast::bind_front_handler(&session::on_read, shared_from_this())));
  }

  void on_read(beast::error_code ec, std::size_t) {
    if (ec) return end();
    const auto data = buffer_.cdata();
    std::string text(static_cast<const char*>(data.data()), data.size());
    buffer_.consume(buffer_.size());
    if (!room_) {
      if (!join(text)) return end();
    } else {
      net::post(room_->context(), [r = room_, self = shared_from_this(), text = std::move(text)]() mutable {
        r->command(std::move(self), std::move(text));
      });
    }
    read();
  }

  // The first frame: {"join":"NAME"}. Anything else ends the connection.
  bool join(const std::string& text) {
    const auto doc = nlohmann::json::parse(text, nullptr, false);
    if (!doc.is_object() || !doc.contains("join") || !doc["join"].is_string()) return false;
    auto name = doc["join"].get<std::string>();
    room_ = rooms_.find_or_create(name);
    net::post(room_->context(), [r = room_, self = shared_from_this(), name = std::move(name)]() mutable {
      r->join(std::move(self), std::move(name));
    });
    return true;
  }

  bool enqueue(frame_ptr frame) {
    if (!open_) return false;
    if (queue_.size() >= write_queue_limit) {
      end();
      return false;
    }
    queue_.push_back(std::move(frame));
    return true;
  }

  void write() {
    ws_.text(true);
    ws_.next_layer().hold(queue_.size() > 1);  // more frames follow this one
    ws_.async_write(net::buffer(*queue_.front()),
                    net::bind_allocator(net::recycling_allocator<void>(),
                                        beast::bind_front_handler(&session::on_write, shared_from_this())));
  }

  void on_write(beast::error_code ec, std::size_t) {
    if (ec) return end();
    if (queue_.empty()) return;
    queue_.pop_front();
    if (!queue_.empty() && open_) return write();
    ws_.next_layer().hold(false);
  }

  void end() {
    if (ended_) return;
    ended_ = true;
    open_ = false;
    if (room_) {
      net::post(room_->context(), [r = room_, self = shared_from_this()] { r->leave(self.get()); });
      room_.reset();
    }
    queue_.clear();
    beast::error_code ignored;
    ws_.next_layer().next_layer().close(ignored);
  }

  websocket::stream<held_socket> ws_;
  registry& rooms_;
  beast::flat_buffer buffer_;
  frame_queue queue_;
  std::shared_ptr<room> room_;
  bool open_ = false;
  bool ended_ = false;
};

// What the sender gets before the frame, as Tinsel's `ok` before its `state`.
const frame_ptr& ok_frame() {
  static const frame_ptr ok = std::make_shared<const std::string>(R"({"type":"ok","id":0})");
  return ok;
}

void room::join(std::shared_ptr<session> s, std::string name) {
  members_.push_back(s);
  const nlohmann::json ack{{"joined", name}, {"members", members_.size()}};
  s->send(std::make_shared<const std::string>(ack.dump()));
}

void room::leave(const session* s) {
  std::erase_if(members_, [s](const std::shared_ptr<session>& m) { return m.get() == s; });
}

// {"size":S,...}: the command padded to S bytes with spaces before its closing brace.
frame_ptr frame_for(std::string text) {
  constexpr std::string_view prefix = R"({"size":)";
  if (!std::string_view(text).starts_with(prefix) || text.back() != '}')
    return std::make_shared<const std::string>(std::move(text));
  std::size_t size = 0;
  const char* first = text.data() + prefix.size();
  const auto [end, ec] = std::from_chars(first, text.data() + text.size(), size);
  if (ec != std::errc() || size <= text.size() || size > read_limit * 16)
    return std::make_shared<const std::string>(std::move(text));
  text.pop_back();
  text.append(size - text.size() - 1, ' ');
  text.push_back('}');
  return std::make_shared<const std::string>(std::move(text));
}

void room::command(std::shared_ptr<session> from, std::string text) {
  if (std::find(members_.begin(), members_.end(), from) == members_.end()) return;  // left meanwhile
  const frame_ptr frame = frame_for(std::move(text));
  for (const auto& m : members_) {
    if (m == from) m->send_all({ok_frame(), frame});
    else m->send(frame);
  }
}

// ---- accepting ------------------------------------------------------------------------------------

class listener : public std::enable_shared_from_this<listener> {
 public:
  listener(io_pool& pool, tcp::endpoint at, registry& rooms) : pool_(pool), acceptor_(pool.main()), rooms_(rooms) {
    acceptor_.open(at.protocol());
    acceptor_.set_option(net::socket_base::reuse_address(true));
    acceptor_.bind(at);
    acceptor_.listen(net::socket_base::max_listen_connections);
  }
  unsigned short port() const { return acceptor_.local_endpoint().port(); }
  void accept() {
    acceptor_.async_accept(pool_.next(), beast::bind_front_handler(&listener::on_accept, shared_from_this()));
  }
  void stop() {
    beast::error_code ignored;
    acceptor_.close(ignored);
  }

 private:
  // The socket comes bound to the chosen context's executor by type, as Tinsel's listener takes it.
  void on_accept(beast::error_code ec, connection_socket socket) {
    if (ec == net::error::operation_aborted) return;
    if (!ec) std::make_shared<session>(std::move(socket), rooms_)->start();
    accept();  // also after a failed accept (EMFILE and the like): keep serving the others
  }

  io_pool& pool_;
  tcp::acceptor acceptor_;
  registry& rooms_;
};

int number(const std::string& flag, const std::string& text) {
  int v = 0;
  const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || ptr != text.data() + text.size() || v < 0)
    throw std::runtime_error(flag + " needs a non-negative number, not '" + text + "'");
  return v;
}

int run(int argc, char** argv) {
  std::string bind = "127.0.0.1";
  int port = 0;
  int threads = 1;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc) throw std::runtime_error(a + " needs a value");
      return argv[++i];
    };
    if (a == "--help" || a == "-h") {
      std::cout << "tinsel-echo [--bind 127.0.0.1] [--port 0] [--threads 1]\n"
                   "A WebSocket server whose rooms echo every frame to every member (bench/README.md).\n";
      return 0;
    } else if (a == "--bind") bind = value();
    else if (a == "--port") port = number(a, value());
    else if (a == "--threads") threads = std::max(1, number(a, value()));
    else throw std::runtime_error("unknown option " + a);
  }
  if (port > 65535) throw std::runtime_error("--port must be at most 65535");

  io_pool pool(static_cast<unsigned>(threads));
  registry rooms(pool);
  auto l = std::make_shared<listener>(pool, tcp::endpoint(net::ip::make_address(bind), static_cast<unsigned short>(port)), rooms);
  l->accept();
  net::signal_set signals(pool.main(), SIGINT, SIGTERM);
  signals.async_wait([&](beast::error_code, int) {
    l->stop();
    pool.stop();
  });
  std::cout << "tinsel-echo listening port=" << l->port() << " threads=" << threads << std::endl;
  pool.run();
  return 0;
}

}  // namespace tinsel_echo

int main(int argc, char** argv) {
  try {
    return tinsel_echo::run(argc, argv);
  } catch (const std::exception& e) {
    std::cerr << "tinsel-echo: " << e.what() << "\n";
    return 2;
  }
}
