#include "net/metrics_listener.hpp"

#include <boost/asio/dispatch.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/strand.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <spdlog/spdlog.h>

#include "tinsel/server/config.hpp"

namespace tinsel::server {

namespace beast = boost::beast;
namespace http = beast::http;
namespace net = boost::asio;
using tcp = net::ip::tcp;

namespace {

// One scraper's connection: requests one at a time, kept alive as Prometheus does, each read
// bounded in time and size.
class metrics_session : public std::enable_shared_from_this<metrics_session> {
 public:
  metrics_session(tcp::socket&& socket, metrics_listener::render_fn render)
      : stream_(std::move(socket)), render_(std::move(render)) {}

  void run() { net::dispatch(stream_.get_executor(), beast::bind_front_handler(&metrics_session::do_read, shared_from_this())); }

 private:
  void do_read() {
    parser_.emplace();
    parser_->header_limit(8 * 1024);
    parser_->body_limit(0);
    stream_.expires_after(std::chrono::seconds(30));
    http::async_read(stream_, buffer_, *parser_, beast::bind_front_handler(&metrics_session::on_read, shared_from_this()));
  }

  void on_read(beast::error_code ec, std::size_t) {
    if (ec) {
      stream_.socket().shutdown(tcp::socket::shutdown_both, ec);
      return;
    }
    const auto& req = parser_->get();
    auto res = std::make_shared<http::response<http::string_body>>(http::status::ok, req.version());
    res->set(http::field::server, "tinsel/" + version_string());
    res->set(http::field::cache_control, "no-store");
    res->keep_alive(req.keep_alive());
    const std::string_view target = req.target();
    if (req.method() != http::verb::get) {
      res->result(http::status::method_not_allowed);
      res->set(http::field::content_type, "text/plain");
      res->body() = "method not allowed\n";
    } else if (target != "/metrics" && !target.starts_with("/metrics?")) {
      res->result(http::status::not_found);
      res->set(http::field::content_type, "text/plain");
      res->body() = "not found: the metrics are at /metrics\n";
    } else {
      res->set(http::field::content_type, "text/plain; version=0.0.4; charset=utf-8");
      res->body() = render_();
    }
    res->prepare_payload();
    http::async_write(stream_, *res, [self = shared_from_this(), res](beast::error_code wec, std::size_t) {
      if (wec) return;
      if (!res->keep_alive()) {
        self->stream_.socket().shutdown(tcp::socket::shutdown_send, wec);
        return;
      }
      self->do_read();
    });
  }

  beast::tcp_stream stream_;
  beast::flat_buffer buffer_;
  std::optional<http::request_parser<http::empty_body>> parser_;
  metrics_listener::render_fn render_;
};

}  // namespace

metrics_listener::metrics_listener(net::io_context& ioc, tcp::endpoint endpoint, render_fn render)
    : ioc_(ioc), acceptor_(net::make_strand(ioc)), retry_timer_(acceptor_.get_executor()), render_(std::move(render)) {
  acceptor_.open(endpoint.protocol());
  acceptor_.set_option(net::socket_base::reuse_address(true));
  acceptor_.bind(endpoint);
  acceptor_.listen(net::socket_base::max_listen_connections);
}

std::uint16_t metrics_listener::port() const { return acceptor_.local_endpoint().port(); }

void metrics_listener::run() { do_accept(); }

void metrics_listener::stop() {
  net::post(acceptor_.get_executor(), [self = shared_from_this()] {
    boost::system::error_code ec;
    self->acceptor_.close(ec);
    self->retry_timer_.cancel();
  });
}

void metrics_listener::do_accept() {
  acceptor_.async_accept(net::make_strand(ioc_), [self = shared_from_this()](boost::system::error_code ec, tcp::socket socket) {
    if (ec == net::error::operation_aborted || !self->acceptor_.is_open()) return;
    if (ec) {
      // Out of descriptors, most likely: the public listener logs it; try again in a second.
      spdlog::debug("metrics accept failed error={}", ec.message());
      self->retry_timer_.expires_after(std::chrono::seconds(1));
      self->retry_timer_.async_wait([self](boost::system::error_code wait_ec) {
        if (!wait_ec && self->acceptor_.is_open()) self->do_accept();
      });
      return;
    }
    std::make_shared<metrics_session>(std::move(socket), self->render_)->run();
    self->do_accept();
  });
}

}  // namespace tinsel::server
