#pragma once
// One plain TCP connection to 127.0.0.1:port from a loopback address of the test's choice (on
// Linux every 127.x.y.z is the machine itself, and a connection bound to 127.0.0.2 counts as
// another client address). It sends exact bytes and reads HTTP heads and bodies, for tests of what
// the server answers below the WebSocket layer.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>

namespace tinsel::test {

class raw_conn {
 public:
  // Connects or throws; a read or a write that waits longer than `timeout_sec` fails.
  explicit raw_conn(std::uint16_t port, const char* from = "127.0.0.1", int timeout_sec = 10)
      : fd_(::socket(AF_INET, SOCK_STREAM, 0)) {
    if (fd_ < 0) throw std::runtime_error("socket failed");
    timeval tv{timeout_sec, 0};
    ::setsockopt(fd_, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    ::setsockopt(fd_, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv);
    sockaddr_in src{};
    src.sin_family = AF_INET;
    ::inet_pton(AF_INET, from, &src.sin_addr);
    sockaddr_in dst{};
    dst.sin_family = AF_INET;
    dst.sin_port = htons(port);
    ::inet_pton(AF_INET, "127.0.0.1", &dst.sin_addr);
    if (::bind(fd_, reinterpret_cast<sockaddr*>(&src), sizeof src) != 0 ||
        ::connect(fd_, reinterpret_cast<sockaddr*>(&dst), sizeof dst) != 0) {
      ::close(fd_);
      throw std::runtime_error("connect failed");
    }
  }
  ~raw_conn() { ::close(fd_); }
  raw_conn(const raw_conn&) = delete;
  raw_conn& operator=(const raw_conn&) = delete;

  // Sends everything; false if the server stopped reading and closed first.
  bool send_all(std::string_view bytes) {
    while (!bytes.empty()) {
      const auto n = ::send(fd_, bytes.data(), bytes.size(), MSG_NOSIGNAL);
      if (n <= 0) return false;
      bytes.remove_prefix(static_cast<std::size_t>(n));
    }
    return true;
  }
  // The response head up to its blank line ("" if the connection closed or timed out first).
  std::string read_head() {
    std::string head;
    char c;
    while (!head.ends_with("\r\n\r\n") && ::recv(fd_, &c, 1, 0) == 1) head.push_back(c);
    return head.ends_with("\r\n\r\n") ? head : std::string();
  }
  // The status code of the next response (0 if none came); its head is kept for last_head().
  int status() {
    head_ = read_head();
    return head_.size() > 12 && head_.starts_with("HTTP/1.") ? std::stoi(head_.substr(9, 3)) : 0;
  }
  const std::string& last_head() const { return head_; }
  // The value of header `name` in the last head ("" if absent).
  std::string header(const std::string& name) const {
    const auto at = head_.find("\r\n" + name + ": ");
    if (at == std::string::npos) return {};
    const auto from = at + name.size() + 4;
    return head_.substr(from, head_.find("\r\n", from) - from);
  }
  // The body of the last head, by its Content-Length.
  std::string read_body() {
    const auto n = static_cast<std::size_t>(std::stoull(header("Content-Length")));
    std::string body(n, '\0');
    std::size_t got = 0;
    while (got < n) {
      const auto r = ::recv(fd_, body.data() + got, n - got, 0);
      if (r <= 0) throw std::runtime_error("body cut short");
      got += static_cast<std::size_t>(r);
    }
    return body;
  }
  // What follows the head until the server closes.
  std::string read_rest() {
    std::string out;
    char buf[4096];
    for (ssize_t n; (n = ::recv(fd_, buf, sizeof buf, 0)) > 0;) out.append(buf, static_cast<std::size_t>(n));
    return out;
  }
  // Whether the server has closed the connection, reading and dropping what came before; waits
  // up to `timeout` for it.
  bool closed_by_server(std::chrono::milliseconds timeout) {
    const auto until = std::chrono::steady_clock::now() + timeout;
    for (;;) {
      const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(until - std::chrono::steady_clock::now());
      pollfd p{fd_, POLLIN, 0};
      if (::poll(&p, 1, static_cast<int>(std::max<long long>(0, left.count()))) <= 0) return false;
      char buf[4096];
      const auto n = ::recv(fd_, buf, sizeof buf, MSG_DONTWAIT);
      if (n == 0 || (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK)) return true;
    }
  }

 private:
  int fd_;
  std::string head_;
};

}  // namespace tinsel::test
