// tinsel-server --healthcheck URL, the container health check: exit 0 when the URL answers 200,
// 1 for anything else (another status, nobody listening, no answer in time, a URL it cannot use).
#include <catch2/catch.hpp>

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>

#include "server_process.hpp"

extern char** environ;

using namespace tinsel::test;

namespace {

// Runs tinsel-server with `args` to its end; its exit status, or -1 if it did not exit normally.
// No timeout of our own: the health check bounds itself (5 s), and CTest bounds the test.
int run_server_binary(std::vector<std::string> args) {
  args.insert(args.begin(), TINSEL_SERVER_BINARY);
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
  pid_t pid = 0;
  const int rc = posix_spawn(&pid, argv[0], &fa, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&fa);
  REQUIRE(rc == 0);
  int status = 0;
  REQUIRE(::waitpid(pid, &status, 0) == pid);
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

std::string url(std::uint16_t port, const std::string& path) { return "http://127.0.0.1:" + std::to_string(port) + path; }

}  // namespace

TEST_CASE("a health check (--healthcheck URL) exits 0 when the URL answers 200 and 1 for any other answer", "[healthcheck][binary]") {
  server_process srv;
  CHECK(run_server_binary({"--healthcheck", url(srv.port, "/healthz")}) == 0);
  CHECK(run_server_binary({"--healthcheck=" + url(srv.port, "/healthz")}) == 0);
  CHECK(run_server_binary({"--healthcheck", "http://localhost:" + std::to_string(srv.port) + "/healthz"}) == 0);
  CHECK(run_server_binary({"--healthcheck", url(srv.port, "/no-such-page")}) == 1);  // 404
  CHECK(run_server_binary({"--healthcheck", url(srv.metrics_port, "/metrics")}) == 0);
}

TEST_CASE("a health check (--healthcheck URL) exits 1 when nobody listens, nobody answers, or the URL is not plain http", "[healthcheck][binary]") {
  namespace net = boost::asio;
  net::io_context ioc;
  // A port that was just free: nobody listens there.
  std::uint16_t closed_port = 0;
  {
    net::ip::tcp::acceptor a(ioc, {net::ip::make_address("127.0.0.1"), 0});
    closed_port = a.local_endpoint().port();
  }
  CHECK(run_server_binary({"--healthcheck", url(closed_port, "/healthz")}) == 1);
  // A listener that never accepts: the kernel completes the connection, nothing ever answers, and
  // the health check gives up after its timeout.
  net::ip::tcp::acceptor silent(ioc, {net::ip::make_address("127.0.0.1"), 0});
  CHECK(run_server_binary({"--healthcheck", url(silent.local_endpoint().port(), "/healthz")}) == 1);
  for (const char* bad : {"https://127.0.0.1/healthz", "127.0.0.1:8080/healthz", "http://", "http://host:99999/", "http://[::1/"}) {
    INFO(bad);
    CHECK(run_server_binary({"--healthcheck", bad}) == 1);
  }
  CHECK(run_server_binary({"--healthcheck"}) == 2);  // a malformed command line, as for any flag
}
