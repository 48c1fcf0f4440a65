// tinsel-echo: the reference ceiling for tinsel-loadgen. A raw Boost.Beast WebSocket server with
// rooms that only echo: a client's first text frame names its room ({"join":"r17"}, answered with
// {"joined":"r17","members":N} to that client alone), and every later frame of a member goes to every
// member of that room, the sender included, as one shared buffer. No JSON beyond the join, no game,
// no journal: whatever Tinsel costs above this is the server's own work.
//
//   tinsel-echo [--bind 127.0.0.1] [--port 0] [--threads 1]
//
// Prints "tinsel-echo listening port=N" once it accepts connections; stops on SIGINT or SIGTERM.
// Roles as in Beast's chat-multi example: listener, session (read loop and a bounded write queue on
// its own strand) and the room registry (shared state behind a mutex).
#include <charconv>
#include <csignal>
#include <deque>
#include <iostream>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/signal_set.hpp>
#include <boost/asio/strand.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/websocket.hpp>
#include <nlohmann/json.hpp>

namespace tinsel_echo {

namespace beast = boost::beast;
namespace websocket = beast::websocket;
namespace net = boost::asio;
using tcp = net::ip::tcp;

// A slow reader is closed rather than queued for without end.
constexpr std::size_t write_queue_limit = 1024;

class session;

// The members of one room. Sessions join with their first frame and leave when they end.
class room {
 public:
  void join(const std::shared_ptr<session>& s) {
    std::lock_guard lock(mutex_);
    members_.push_back(s);
  }
  // Returns how many members are left.
  std::size_t leave(const session* s) {
    std::lock_guard lock(mutex_);
    std::erase_if(members_, [s](const std::weak_ptr<session>& w) {
      auto p = w.lock();
      return !p || p.get() == s;
    });
    return members_.size();
  }
  std::size_t size() const {
    std::lock_guard lock(mutex_);
    return members_.size();
  }
  void broadcast(const std::shared_ptr<const std::string>& frame);

 private:
  mutable std::mutex mutex_;
  std::vector<std::weak_ptr<session>> members_;
};

class registry {
 public:
  std::shared_ptr<room> find_or_create(const std::string& name) {
    std::lock_guard lock(mutex_);
    auto& r = rooms_[name];
    if (!r) r = std::make_shared<room>();
    return r;
  }
  void leave(const std::string& name, const session* s) {
    std::lock_guard lock(mutex_);
    const auto it = rooms_.find(name);
    if (it != rooms_.end() && it->second->leave(s) == 0) rooms_.erase(it);
  }

 private:
  std::mutex mutex_;
  std::map<std::string, std::shared_ptr<room>> rooms_;
};

class session : public std::enable_shared_from_this<session> {
 public:
  session(tcp::socket&& socket, registry& rooms) : ws_(std::move(socket)), rooms_(rooms) {}

  void start() {
    beast::error_code ignored;
    beast::get_lowest_layer(ws_).socket().set_option(tcp::no_delay(true), ignored);
    ws_.set_option(websocket::stream_base::timeout::suggested(beast::role_type::server));
    ws_.async_accept(beast::bind_front_handler(&session::on_accept, shared_from_this()));
  }

  // From any thread: queues the frame on this session's strand.
  void send(std::shared_ptr<const std::string> frame) {
    net::post(ws_.get_executor(), [self = shared_from_this(), frame = std::move(frame)]() mutable {
      self->queue(std::move(frame));
    });
  }

 private:
  void on_accept(beast::error_code ec) {
    if (ec) return;
    read();
  }

  void read() { ws_.async_read(buffer_, beast::bind_front_handler(&session::on_read, shared_from_this())); }

  void on_read(beast::error_code ec, std::size_t) {
    if (ec) return end();
    auto frame = std::make_shared<const std::string>(beast::buffers_to_string(buffer_.data()));
    buffer_.consume(buffer_.size());
    if (!room_) {
      if (!join(*frame)) return end();
    } else {
      room_->broadcast(frame);
    }
    read();
  }

  // The first frame: {"join":"NAME"}. Anything else ends the connection.
  bool join(const std::string& text) {
    const auto doc = nlohmann::json::parse(text, nullptr, false);
    if (!doc.is_object() || !doc.contains("join") || !doc["join"].is_string()) return false;
    room_name_ = doc["join"].get<std::string>();
    room_ = rooms_.find_or_create(room_name_);
    room_->join(shared_from_this());
    const nlohmann::json ack{{"joined", room_name_}, {"members", room_->size()}};
    queue(std::make_shared<const std::string>(ack.dump()));
    return true;
  }

  void queue(std::shared_ptr<const std::string> frame) {
    if (ended_) return;
    if (queue_.size() >= write_queue_limit) return end();
    queue_.push_back(std::move(frame));
    if (queue_.size() == 1) write();
  }

  void write() {
    ws_.text(true);
    ws_.async_write(net::buffer(*queue_.front()), beast::bind_front_handler(&session::on_write, shared_from_this()));
  }

  void on_write(beast::error_code ec, std::size_t) {
    if (ec) return end();
    queue_.pop_front();
    if (!queue_.empty()) write();
  }

  void end() {
    if (ended_) return;
    ended_ = true;
    if (room_) rooms_.leave(room_name_, this);
    room_.reset();
    queue_.clear();
    beast::error_code ignored;
    beast::get_lowest_layer(ws_).socket().close(ignored);
  }

  websocket::stream<beast::tcp_stream> ws_;
  registry& rooms_;
  beast::flat_buffer buffer_;
  std::deque<std::shared_ptr<const std::string>> queue_;
  std::shared_ptr<room> room_;
  std::string room_name_;
  bool ended_ = false;
};

void room::broadcast(const std::shared_ptr<const std::string>& frame) {
  std::vector<std::shared_ptr<session>> to;
  {
    std::lock_guard lock(mutex_);
    to.reserve(members_.size());
    for (const auto& w : members_)
      if (auto s = w.lock()) to.push_back(std::move(s));
  }
  for (const auto& s : to) s->send(frame);
}

class listener : public std::enable_shared_from_this<listener> {
 public:
  listener(net::io_context& ioc, tcp::endpoint at, registry& rooms) : ioc_(ioc), acceptor_(ioc), rooms_(rooms) {
    acceptor_.open(at.protocol());
    acceptor_.set_option(net::socket_base::reuse_address(true));
    acceptor_.bind(at);
    acceptor_.listen(net::socket_base::max_listen_connections);
  }
  unsigned short port() const { return acceptor_.local_endpoint().port(); }
  void accept() {
    acceptor_.async_accept(net::make_strand(ioc_), beast::bind_front_handler(&listener::on_accept, shared_from_this()));
  }
  void stop() {
    beast::error_code ignored;
    acceptor_.close(ignored);
  }

 private:
  void on_accept(beast::error_code ec, tcp::socket socket) {
    if (ec == net::error::operation_aborted) return;
    if (!ec) std::make_shared<session>(std::move(socket), rooms_)->start();
    accept();  // also after a failed accept (EMFILE and the like): keep serving the others
  }

  net::io_context& ioc_;
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

  net::io_context ioc(threads);
  registry rooms;
  auto l = std::make_shared<listener>(ioc, tcp::endpoint(net::ip::make_address(bind), static_cast<unsigned short>(port)), rooms);
  l->accept();
  net::signal_set signals(ioc, SIGINT, SIGTERM);
  signals.async_wait([&](beast::error_code, int) {
    l->stop();
    ioc.stop();
  });
  std::cout << "tinsel-echo listening port=" << l->port() << " threads=" << threads << std::endl;
  std::vector<std::thread> others;
  for (int i = 1; i < threads; ++i) others.emplace_back([&ioc] { ioc.run(); });
  ioc.run();
  for (auto& t : others) t.join();
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
