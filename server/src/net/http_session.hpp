#pragma once
// Plain HTTP on the WebSocket port: reads one request at a time (keep-alive, with a read timeout),
// asks http_routes what to answer, and writes it, or hands the socket to a websocket session
// after the connection limits (address_limits) admit it. Only I/O happens here.
#include <memory>
#include <string>

#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>

#include "net/http_routes.hpp"
#include "net/io_pool.hpp"
#include "server_state.hpp"

namespace tinsel::server {

class http_session : public std::enable_shared_from_this<http_session> {
 public:
  http_session(connection_socket&& socket, std::shared_ptr<server_state> state);
  void run();

 private:
  void do_read();
  void on_read(boost::beast::error_code ec, std::size_t bytes);
  void upgrade(http_request req, const std::string& client);
  void respond(const http_answer& a, unsigned version);
  void on_write(bool keep_alive, boost::beast::error_code ec, std::size_t bytes);
  // After an answer that closes: stop sending, then read and drop what the client still sends
  // (the rest of a refused body), so that closing does not reset the connection before the
  // client has read the answer.
  void drain();
  template <class Response>
  void write(Response&& res);

  boost::beast::basic_stream<boost::asio::ip::tcp, connection_executor> stream_;
  boost::beast::flat_buffer buffer_;
  std::shared_ptr<server_state> state_;
  std::string peer_;  // the TCP peer's address
  std::size_t drained_ = 0;
  std::optional<boost::beast::http::request_parser<boost::beast::http::string_body>> parser_;
};

}  // namespace tinsel::server
