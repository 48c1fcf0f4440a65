#pragma once
// Plain HTTP on the WebSocket port: the browser client's static files, /healthz, and the upgrade of
// GET /ws to a websocket session. One request at a time, keep-alive, with a read timeout.
#include <memory>

#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>

#include "server_state.hpp"

namespace tinsel::server {

class http_session : public std::enable_shared_from_this<http_session> {
 public:
  http_session(boost::asio::ip::tcp::socket&& socket, std::shared_ptr<server_state> state);
  void run();

 private:
  void do_read();
  void on_read(boost::beast::error_code ec, std::size_t bytes);
  void on_write(bool keep_alive, boost::beast::error_code ec, std::size_t bytes);
  template <class Response>
  void write(Response&& res);

  boost::beast::tcp_stream stream_;
  boost::beast::flat_buffer buffer_;
  std::shared_ptr<server_state> state_;
  std::optional<boost::beast::http::request_parser<boost::beast::http::string_body>> parser_;
};

}  // namespace tinsel::server
