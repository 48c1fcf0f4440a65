#include "net/listener.hpp"

#include <algorithm>

#include <boost/asio/post.hpp>
#include <boost/asio/strand.hpp>
#include <spdlog/spdlog.h>

#include "limits/connection_limits.hpp"
#include "net/http_session.hpp"

namespace tinsel::server {

namespace net = boost::asio;
using tcp = net::ip::tcp;

listener::listener(io_pool& pool, tcp::endpoint endpoint, std::shared_ptr<server_state> state)
    : pool_(pool), acceptor_(net::make_strand(pool.main())), retry_timer_(acceptor_.get_executor()), state_(std::move(state)) {
  acceptor_.open(endpoint.protocol());
  acceptor_.set_option(net::socket_base::reuse_address(true));
  acceptor_.bind(endpoint);
  acceptor_.listen(net::socket_base::max_listen_connections);
}

std::uint16_t listener::port() const { return acceptor_.local_endpoint().port(); }

void listener::run() { do_accept(); }

void listener::stop() {
  net::post(acceptor_.get_executor(), [self = shared_from_this()] {
    boost::system::error_code ec;
    self->acceptor_.close(ec);
    self->retry_timer_.cancel();
  });
}

void listener::do_accept() {
  acceptor_.async_accept(pool_.next_context(), [self = shared_from_this()](boost::system::error_code ec, connection_socket socket) {
    if (ec == net::error::operation_aborted || !self->acceptor_.is_open()) return;
    if (ec) return self->back_off(ec);
    self->retry_delay_ = std::chrono::milliseconds(0);
    // Small frames go out at once: without this, a state that follows an `ok` waits for the
    // client's delayed ACK (40 ms on Linux, up to 200 ms on Windows).
    boost::system::error_code opt_ec;
    const auto peer = socket.remote_endpoint(opt_ec);
    if (opt_ec) {  // gone already (reset before we got to it): nothing to answer
      socket.close(opt_ec);
      return self->do_accept();
    }
    auto admitted = self->state_->tcp_limits.admit(peer.address().to_string());
    if (admitted.what != connection_limits::verdict::ok) {
      // Closed before a byte is read: the cheapest answer, and the same for a flood of them.
      socket.close(opt_ec);
      const bool too_fast = admitted.what == connection_limits::verdict::too_fast;
      if (const auto held = self->state_->log_limit.allow((too_fast ? "accept-rate|" : "accept-count|") + admitted.key))
        spdlog::info("connection refused: {} client={} suppressed={}",
                     too_fast ? "too many new connections from this address" : "too many open connections from this address",
                     admitted.key, *held);
      return self->do_accept();
    }
    socket.set_option(tcp::no_delay(true), opt_ec);
    std::make_shared<http_session>(std::move(socket), self->state_, std::move(admitted.slot))->run();
    self->do_accept();
  });
}

void listener::back_off(const boost::system::error_code& ec) {
  using namespace std::chrono_literals;
  retry_delay_ = std::clamp(retry_delay_ * 2, 10ms, 1000ms);
  ++failures_unlogged_;
  const auto now = std::chrono::steady_clock::now();
  if (now - last_failure_log_ >= 1s) {
    spdlog::warn("accept failed error={} failures={} retry_in_ms={}", ec.message(), failures_unlogged_, retry_delay_.count());
    failures_unlogged_ = 0;
    last_failure_log_ = now;
  }
  retry_timer_.expires_after(retry_delay_);
  retry_timer_.async_wait([self = shared_from_this()](boost::system::error_code wait_ec) {
    if (!wait_ec && self->acceptor_.is_open()) self->do_accept();
  });
}

}  // namespace tinsel::server
