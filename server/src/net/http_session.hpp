#pragma once
// Plain HTTP on the WebSocket port: reads one request at a time (keep-alive: an idle connection is
// closed after --http-idle-timeout-sec, a request must arrive whole within 30 s),
// asks http_routes what to answer, and writes it, or hands the socket to a websocket session
// after the connection limits (address_limits) admit it. Only I/O happens here.
#include <memory>
#include <string>

#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>

#include "limits/connection_limits.hpp"
#include "net/http_routes.hpp"
#include "net/io_pool.hpp"
#include "server_state.hpp"

namespace tinsel::server {

class http_session : public std::enable_shared_from_this<http_session> {
 public:
  // `slot`: the connection's place in the count per address (connection_limits), held while the
  // connection lives, and handed to the WebSocket session on an upgrade.
  http_session(connection_socket&& socket, std::shared_ptr<server_state> state, connection_slot slot);
  void run();

 private:
  // Waits, up to the idle timeout, for the first byte of the next request; then reads it.
  void do_wait();
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
  connection_slot slot_;  // released before state_ (declared after it)
  std::string peer_;  // the TCP peer's address
  std::shared_ptr<const void> body_owner_;  // keeps a shared body alive during its write
  std::size_t drained_ = 0;
  std::optional<boost::beast::http::request_parser<boost::beast::http::string_body>> parser_;
};

}  // namespace tinsel::server
