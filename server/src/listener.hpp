#pragma once
// Accepts TCP connections and hands each, on its own strand, to an http_session.
#include <memory>

#include <boost/asio/ip/tcp.hpp>

#include "server_state.hpp"

namespace tinsel::server {

class listener : public std::enable_shared_from_this<listener> {
 public:
  listener(boost::asio::io_context& ioc, boost::asio::ip::tcp::endpoint endpoint, std::shared_ptr<server_state> state);
  std::uint16_t port() const;
  void run();
  void stop();  // thread-safe

 private:
  void do_accept();

  boost::asio::io_context& ioc_;
  boost::asio::ip::tcp::acceptor acceptor_;
  std::shared_ptr<server_state> state_;
};

}  // namespace tinsel::server
