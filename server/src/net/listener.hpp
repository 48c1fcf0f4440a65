#pragma once
// Accepts TCP connections and hands each to an http_session, on the next of the pool's contexts
// (round robin), whose one thread is the connection's implicit strand.
#include <chrono>
#include <cstdint>
#include <memory>

#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/steady_timer.hpp>

#include "net/io_pool.hpp"
#include "server_state.hpp"

namespace tinsel::server {

class listener : public std::enable_shared_from_this<listener> {
 public:
  listener(io_pool& pool, boost::asio::ip::tcp::endpoint endpoint, std::shared_ptr<server_state> state);
  std::uint16_t port() const;
  void run();
  void stop();  // thread-safe

 private:
  void do_accept();
  // A failed accept (out of descriptors, out of memory) would fail again at once: wait before
  // the next try, longer each time in a row, and log at most once a second.
  void back_off(const boost::system::error_code& ec);

  io_pool& pool_;
  boost::asio::ip::tcp::acceptor acceptor_;
  boost::asio::steady_timer retry_timer_;
  std::chrono::milliseconds retry_delay_{0};
  std::uint64_t failures_unlogged_ = 0;
  std::chrono::steady_clock::time_point last_failure_log_{};
  std::shared_ptr<server_state> state_;
};

}  // namespace tinsel::server
