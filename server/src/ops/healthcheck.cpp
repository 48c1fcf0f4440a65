#include "ops/healthcheck.hpp"

#include <optional>

#include <boost/asio/connect.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/read_until.hpp>
#include <boost/asio/streambuf.hpp>
#include <boost/asio/write.hpp>

namespace tinsel::server {

namespace net = boost::asio;
using tcp = net::ip::tcp;

namespace {

struct http_url {
  std::string host;  // without brackets
  std::string port = "80";
  std::string host_header;
  std::string target = "/";
};

std::optional<http_url> parse_url(const std::string& url) {
  constexpr std::string_view scheme = "http://";
  if (!url.starts_with(scheme)) return std::nullopt;
  const auto rest = url.substr(scheme.size());
  const auto slash = rest.find('/');
  http_url u;
  u.host_header = rest.substr(0, slash);
  if (slash != std::string::npos) u.target = rest.substr(slash);
  std::string authority = u.host_header;
  if (authority.empty() || authority.find_first_of("@ \t\r\n") != std::string::npos) return std::nullopt;
  if (u.target.find_first_of(" \t\r\n") != std::string::npos) return std::nullopt;
  if (authority.starts_with('[')) {
    const auto close = authority.find(']');
    if (close == std::string::npos) return std::nullopt;
    u.host = authority.substr(1, close - 1);
    const auto after = authority.substr(close + 1);
    if (!after.empty()) {
      if (!after.starts_with(':')) return std::nullopt;
      u.port = after.substr(1);
    }
  } else {
    const auto colon = authority.find(':');
    u.host = authority.substr(0, colon);
    if (colon != std::string::npos) u.port = authority.substr(colon + 1);
  }
  if (u.host.empty() || u.port.empty() || u.port.size() > 5 ||
      u.port.find_first_not_of("0123456789") != std::string::npos)
    return std::nullopt;
  return u;
}

}  // namespace

healthcheck_result check_health(const std::string& url, std::chrono::milliseconds timeout) {
  const auto u = parse_url(url);
  if (!u) return {false, "not a plain http://HOST[:PORT]/PATH URL: " + url};

  net::io_context ioc;
  tcp::resolver resolver(ioc);
  tcp::socket socket(ioc);
  net::streambuf response;
  const std::string request = "GET " + u->target + " HTTP/1.1\r\nHost: " + u->host_header +
                              "\r\nUser-Agent: tinsel-healthcheck\r\nConnection: close\r\n\r\n";
  healthcheck_result result;
  auto fail = [&](const std::string& what, boost::system::error_code ec) { result = {false, what + ": " + ec.message()}; };

  resolver.async_resolve(u->host, u->port, [&](boost::system::error_code resolve_ec, tcp::resolver::results_type endpoints) {
    if (resolve_ec) return fail("cannot resolve " + u->host, resolve_ec);
    net::async_connect(socket, endpoints, [&](boost::system::error_code connect_ec, const tcp::endpoint&) {
      if (connect_ec) return fail("cannot connect to " + u->host_header, connect_ec);
      net::async_write(socket, net::buffer(request), [&](boost::system::error_code write_ec, std::size_t) {
        if (write_ec) return fail("cannot send the request", write_ec);
        net::async_read_until(socket, response, "\r\n", [&](boost::system::error_code read_ec, std::size_t n) {
          if (read_ec) return fail("no answer", read_ec);
          std::string line(net::buffers_begin(response.data()), net::buffers_begin(response.data()) + static_cast<std::ptrdiff_t>(n));
          while (!line.empty() && (line.back() == '\r' || line.back() == '\n')) line.pop_back();
          // "HTTP/1.1 200 OK": the code is the second word.
          const auto sp = line.find(' ');
          const bool ok = line.starts_with("HTTP/") && sp != std::string::npos && line.compare(sp + 1, 3, "200") == 0 &&
                          (line.size() == sp + 4 || line[sp + 4] == ' ');
          result = {ok, line};
        });
      });
    });
  });
  ioc.run_for(timeout);
  if (!ioc.stopped()) {
    // Out of time: abort whatever is pending and let the handlers see it, so none outlives us.
    boost::system::error_code ignored;
    resolver.cancel();
    socket.close(ignored);
    ioc.restart();
    ioc.run();
    result = {false, "timed out after " + std::to_string(timeout.count()) + " ms"};
  }
  return result;
}

}  // namespace tinsel::server
