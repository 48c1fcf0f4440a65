// Graceful shutdown: stop accepting, tell connected clients (1001), exit 0.
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <fcntl.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <thread>

#include "server_process.hpp"
#include "test_server.hpp"
#include "ws_client.hpp"

extern char** environ;

using namespace tinsel::test;

TEST_CASE("shutdown closes every WebSocket with 1001 and stops the server", "[shutdown]") {
  auto s = std::make_unique<test_server>();
  ws_client a(s->port), b(s->port);
  say_hello(a, "Oma");
  say_hello(b, "Ben");
  a.request({{"type", "create_room"}, {"game", "happy_holidays"}});
  s->srv->shutdown();
  CHECK(a.wait_closed() == 1001);
  CHECK(b.wait_closed() == 1001);
  s->srv->wait();  // returns: the I/O threads finished
  CHECK_THROWS(ws_client(s->port));
}

TEST_CASE("tinsel-server exits 0 on SIGTERM after telling clients 1001", "[shutdown][binary]") {
  server_process srv;
  ws_client c(srv.port);
  say_hello(c, "Oma");
  const auto status = srv.terminate();
  REQUIRE(status.has_value());  // it ended within the minute
  CHECK(WIFEXITED(*status));
  CHECK(WEXITSTATUS(*status) == 0);
  CHECK(c.wait_closed(30s) == 1001);
  CHECK(srv.log_lines_containing("stopped") == 1);
}

TEST_CASE("tinsel-server answers --version and --help, and rejects unknown flags", "[binary]") {
  auto run = [](std::vector<std::string> args) {
    args.insert(args.begin(), TINSEL_SERVER_BINARY);
    std::vector<char*> argv;
    for (auto& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    pid_t pid = 0;
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
    REQUIRE(posix_spawn(&pid, TINSEL_SERVER_BINARY, &fa, nullptr, argv.data(), environ) == 0);
    posix_spawn_file_actions_destroy(&fa);
    int status = 0;
    ::waitpid(pid, &status, 0);
    return WEXITSTATUS(status);
  };
  CHECK(run({"--version"}) == 0);
  CHECK(run({"--help"}) == 0);
  CHECK(run({"--frobnicate"}) == 2);
  CHECK(run({"--port", "notaport"}) == 2);
}
