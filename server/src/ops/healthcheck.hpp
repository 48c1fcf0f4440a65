#pragma once
// tinsel-server --healthcheck URL: a tiny HTTP client for container health checks, so that the
// runtime image needs no curl. One plain-HTTP GET (no TLS, no redirects, no proxy), answered 200
// within the timeout: healthy.
#include <chrono>
#include <string>

namespace tinsel::server {

struct healthcheck_result {
  bool healthy = false;
  std::string message;  // one line: the status line received, or what went wrong
};

// GETs `url` (http://HOST[:PORT][/PATH], HOST an IP address, [IPv6] or a name) and reads the
// status line; healthy only on 200. Never throws.
healthcheck_result check_health(const std::string& url, std::chrono::milliseconds timeout = std::chrono::seconds(5));

}  // namespace tinsel::server
