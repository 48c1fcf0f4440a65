#include "listener.hpp"

#include <boost/asio/post.hpp>
#include <boost/asio/strand.hpp>
#include <spdlog/spdlog.h>

#include "http_session.hpp"

namespace tinsel::server {

namespace net = boost::asio;
using tcp = net::ip::tcp;

listener::listener(net::io_context& ioc, tcp::endpoint endpoint, std::shared_ptr<server_state> state)
    : ioc_(ioc), acceptor_(net::make_strand(ioc)), state_(std::move(state)) {
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
  });
}

void listener::do_accept() {
  acceptor_.async_accept(net::make_strand(ioc_), [self = shared_from_this()](boost::system::error_code ec, tcp::socket socket) {
    if (ec == net::error::operation_aborted || !self->acceptor_.is_open()) return;
    if (ec) {
      spdlog::warn("accept failed error={}", ec.message());
    } else {
      std::make_shared<http_session>(std::move(socket), self->state_)->run();
    }
    self->do_accept();
  });
}

}  // namespace tinsel::server
