#include "http_session.hpp"

#include <boost/asio/dispatch.hpp>
#include <boost/beast/websocket/rfc6455.hpp>
#include <nlohmann/json.hpp>
#include <spdlog/spdlog.h>

#include "ws_session.hpp"

namespace tinsel::server {

namespace beast = boost::beast;
namespace http = beast::http;
namespace net = boost::asio;

namespace {

std::string_view mime_type(std::string_view path) {
  const auto dot = path.rfind('.');
  const auto ext = dot == std::string_view::npos ? std::string_view{} : path.substr(dot);
  if (ext == ".html") return "text/html; charset=utf-8";
  if (ext == ".js" || ext == ".mjs") return "text/javascript; charset=utf-8";
  if (ext == ".css") return "text/css; charset=utf-8";
  if (ext == ".json" || ext == ".webmanifest") return "application/json";
  if (ext == ".svg") return "image/svg+xml";
  if (ext == ".png") return "image/png";
  if (ext == ".ico") return "image/x-icon";
  if (ext == ".woff2") return "font/woff2";
  if (ext == ".txt" || ext == ".md") return "text/plain; charset=utf-8";
  return "application/octet-stream";
}

// Maps a request target to a file under the web root, or "" if it must not be served.
std::string static_path(std::string_view target) {
  if (auto q = target.find('?'); q != std::string_view::npos) target = target.substr(0, q);
  if (target.empty() || target[0] != '/') return {};
  // The invite and watch links are routes of the single-page client.
  if (target == "/" || target.starts_with("/r/") || target.starts_with("/watch/")) return "/index.html";
  if (target.find("..") != std::string_view::npos || target.find('\\') != std::string_view::npos ||
      target.find('\0') != std::string_view::npos || target.find("//") != std::string_view::npos)
    return {};
  return std::string(target);
}

}  // namespace

http_session::http_session(net::ip::tcp::socket&& socket, std::shared_ptr<server_state> state)
    : stream_(std::move(socket)), state_(std::move(state)) {}

void http_session::run() {
  net::dispatch(stream_.get_executor(), beast::bind_front_handler(&http_session::do_read, shared_from_this()));
}

void http_session::do_read() {
  parser_.emplace();
  parser_->body_limit(16 * 1024);  // we serve no uploads
  stream_.expires_after(std::chrono::seconds(30));
  http::async_read(stream_, buffer_, *parser_, beast::bind_front_handler(&http_session::on_read, shared_from_this()));
}

template <class Response>
void http_session::write(Response&& res) {
  auto sp = std::make_shared<std::decay_t<Response>>(std::forward<Response>(res));
  const bool keep_alive = sp->keep_alive();
  http::async_write(stream_, *sp, [self = shared_from_this(), sp, keep_alive](beast::error_code ec, std::size_t n) {
    self->on_write(keep_alive, ec, n);
  });
}

void http_session::on_read(beast::error_code ec, std::size_t) {
  if (ec == http::error::end_of_stream) {
    stream_.socket().shutdown(net::ip::tcp::socket::shutdown_send, ec);
    return;
  }
  if (ec) return;  // timeouts and resets need no answer
  auto req = parser_->release();
  const std::string target(req.target());

  if (beast::websocket::is_upgrade(req)) {
    if (target != "/ws" && !target.starts_with("/ws?")) {
      http::response<http::string_body> res{http::status::not_found, req.version()};
      res.set(http::field::content_type, "text/plain");
      res.body() = "WebSocket endpoint is /ws\n";
      res.prepare_payload();
      return write(std::move(res));
    }
    if (state_->stopping) return;
    std::make_shared<ws_session>(stream_.release_socket(), state_)->run(std::move(req));
    return;
  }

  auto text_response = [&](http::status status, std::string_view type, std::string body) {
    http::response<http::string_body> res{status, req.version()};
    res.set(http::field::server, "tinsel/" + version_string());
    res.set(http::field::content_type, type);
    res.set(http::field::cache_control, "no-store");
    res.keep_alive(req.keep_alive());
    res.body() = std::move(body);
    res.prepare_payload();
    if (req.method() == http::verb::head) res.body().clear();
    return res;
  };

  if (req.method() != http::verb::get && req.method() != http::verb::head)
    return write(text_response(http::status::method_not_allowed, "text/plain", "method not allowed\n"));

  if (target == "/healthz") {
    nlohmann::json j = {{"status", state_->stopping ? "stopping" : "ok"},
                        {"rooms", state_->rooms.size()},
                        {"connections", state_->session_count()},
                        {"version", version_string()}};
    return write(text_response(state_->stopping ? http::status::service_unavailable : http::status::ok,
                               "application/json", j.dump() + "\n"));
  }

  const auto rel = static_path(target);
  if (!rel.empty()) {
    http::file_body::value_type body;
    beast::error_code fec;
    const auto path = state_->cfg.web_root + rel;
    body.open(path.c_str(), beast::file_mode::scan, fec);
    if (!fec) {
      const auto size = body.size();
      http::response<http::file_body> res{std::piecewise_construct, std::make_tuple(std::move(body)),
                                          std::make_tuple(http::status::ok, req.version())};
      res.set(http::field::server, "tinsel/" + version_string());
      res.set(http::field::content_type, mime_type(rel));
      res.set(http::field::cache_control, "no-cache");
      res.content_length(size);
      res.keep_alive(req.keep_alive());
      if (req.method() == http::verb::head) {
        http::response<http::empty_body> head{http::status::ok, req.version()};
        head.set(http::field::content_type, mime_type(rel));
        head.content_length(size);
        head.keep_alive(req.keep_alive());
        return write(std::move(head));
      }
      return write(std::move(res));
    }
  }
  write(text_response(http::status::not_found, "text/plain", "not found\n"));
}

void http_session::on_write(bool keep_alive, beast::error_code ec, std::size_t) {
  if (ec) return;
  if (!keep_alive) {
    stream_.socket().shutdown(net::ip::tcp::socket::shutdown_send, ec);
    return;
  }
  do_read();
}

}  // namespace tinsel::server
