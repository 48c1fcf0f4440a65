#pragma once
// The metrics port: a listener of its own (--metrics-bind, 127.0.0.1:9464 by default) that answers
// GET /metrics with the Prometheus text exposition and 404 to anything else. Kept apart from the
// public listener so that the internet never sees it; nothing runs here between scrapes.
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/steady_timer.hpp>

namespace tinsel::server {

class metrics_listener : public std::enable_shared_from_this<metrics_listener> {
 public:
  using render_fn = std::function<std::string()>;
  // Binds and listens; throws boost::system::system_error if it cannot.
  metrics_listener(boost::asio::io_context& ioc, boost::asio::ip::tcp::endpoint endpoint, render_fn render);
  std::uint16_t port() const;
  void run();
  void stop();  // thread-safe

 private:
  void do_accept();

  boost::asio::io_context& ioc_;
  boost::asio::ip::tcp::acceptor acceptor_;
  boost::asio::steady_timer retry_timer_;  // after a failed accept (out of descriptors)
  render_fn render_;
};

}  // namespace tinsel::server
