// The network layer against a real tinsel-server process: TCP connections counted per address at
// accept under a descriptor limit, idle keep-alive connections closed, connection churn that
// cannot fill the log, and game records served compressed, cached and limited. A connection bound
// to 127.0.0.2 counts as another client address (Linux loopback).
#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sqlite3.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>
#include <zlib.h>

#include <catch2/catch.hpp>

#include <filesystem>
#include <memory>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "raw_conn.hpp"
#include "server_process.hpp"
#include "ws_client.hpp"

using namespace tinsel::test;

namespace {

std::string upgrade_request(std::uint16_t port) {
  return "GET /ws HTTP/1.1\r\nHost: 127.0.0.1:" + std::to_string(port) +
         "\r\nConnection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Version: 13\r\n"
         "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nOrigin: http://127.0.0.1:" + std::to_string(port) + "\r\n\r\n";
}

// /healthz and a WebSocket upgrade from `from`, each on a connection of its own: both answered.
bool another_address_gets_in(std::uint16_t port, const char* from) {
  int health = 0;
  {
    raw_conn c(port, from);
    c.send_all("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
    health = c.status();
  }
  raw_conn ws(port, from);
  ws.send_all(upgrade_request(port));
  const int upgrade = ws.status();
  INFO("from " << from << ": /healthz " << health << ", upgrade " << upgrade);
  CHECK(health == 200);
  CHECK(upgrade == 101);
  return health == 200 && upgrade == 101;
}

std::string gunzip(const std::string& in) {
  z_stream z{};
  REQUIRE(inflateInit2(&z, 15 + 16) == Z_OK);
  std::string out;
  char buf[65536];
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in.data()));
  z.avail_in = static_cast<uInt>(in.size());
  int rc = Z_OK;
  while (rc == Z_OK) {
    z.next_out = reinterpret_cast<Bytef*>(buf);
    z.avail_out = sizeof buf;
    rc = inflate(&z, Z_NO_FLUSH);
    out.append(buf, sizeof buf - z.avail_out);
  }
  inflateEnd(&z);
  CHECK(rc == Z_STREAM_END);
  return out;
}

}  // namespace

TEST_CASE("one address with 1100 idle keep-alive connections under ulimit -n 1024 leaves room for another address, and idle connections are closed",
          "[limits][connections][binary]") {
  // This process holds as many sockets as it opens.
  rlimit fds{};
  ::getrlimit(RLIMIT_NOFILE, &fds);
  fds.rlim_cur = std::max<rlim_t>(fds.rlim_cur, std::min<rlim_t>(fds.rlim_max, 4096));
  ::setrlimit(RLIMIT_NOFILE, &fds);
  REQUIRE(fds.rlim_cur >= 1200);
  server_process srv({"--http-idle-timeout-sec", "5"}, 1024);
  // Each sends one keep-alive request and then nothing: before the count at accept, these took
  // every descriptor of the server, which then accepted nobody else.
  std::vector<std::unique_ptr<raw_conn>> idle;
  for (int i = 0; i < 1100; ++i) {
    auto c = std::make_unique<raw_conn>(srv.port, "127.0.0.1", 2);
    c->send_all("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
    idle.push_back(std::move(c));
  }
  REQUIRE(another_address_gets_in(srv.port, "127.0.0.2"));
  // The server answered at most its limit per address of them (128 by default) and closed the
  // rest at accept; the answered ones are closed once idle for 5 s.
  int answered = 0;
  for (auto& c : idle) answered += c->status() == 200;
  INFO("answered " << answered << " of " << idle.size());
  CHECK(answered >= 1);
  CHECK(answered <= 128);
  std::size_t still_open = 0;
  const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(90);
  for (auto& c : idle) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(until - std::chrono::steady_clock::now());
    still_open += !c->closed_by_server(std::max(left, std::chrono::milliseconds(0)));
  }
  CHECK(still_open == 0);
  // And the server is well: the first address is welcome again.
  another_address_gets_in(srv.port, "127.0.0.1");
}

TEST_CASE("connection churn from one address writes a bounded number of log lines at the default level, and another "
          "address still connects",
          "[logs][limits][connections][binary]") {
  server_process srv;  // --log-level info, as by default
  const auto lines_before = srv.log_lines_containing("");
  int attempts = 0, connected = 0, upgraded = 0;
  const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(3);
  for (int round = 0; std::chrono::steady_clock::now() < until; ++round) {
    // Bare upgrades, closed at once: the cheapest churn there is.
    for (int i = 0; i < 20; ++i, ++attempts) {
      try {
        raw_conn c(srv.port, "127.0.0.1", 2);
        c.send_all(upgrade_request(srv.port));
        upgraded += c.status() == 101;
      } catch (const std::exception&) {
      }
    }
    // A refused Host, a line of its own each time before.
    try {
      ++attempts;
      raw_conn bad(srv.port, "127.0.0.1", 2);
      bad.send_all("GET /ws HTTP/1.1\r\nHost: evil.example\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n"
                   "Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n");
      bad.status();
    } catch (const std::exception&) {
    }
    if (round % 5 == 0) {  // and now and then a player who says hello and leaves
      try {
        ++attempts;
        ws_client c(srv.port);
        say_hello(c, "Churn");
        ++connected;
      } catch (const std::exception&) {
        // refused at accept: closed before the handshake
      }
    }
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(500));  // the last lines written
  const auto lines = srv.log_lines_containing("") - lines_before;
  INFO(attempts << " attempts, " << upgraded << " upgraded, " << connected << " said hello; " << lines << " log lines, the first:\n"
                << srv.log().substr(0, 4000));
  REQUIRE(upgraded + connected >= 50);
  // A handful of lines ("connection refused ... suppressed=N", "request refused: host not served"),
  // each at most once per address and 10 s: thousands before.
  CHECK(lines <= 20);
  another_address_gets_in(srv.port, "127.0.0.2");
}

TEST_CASE("a game record is served compact and gzip-compressed with an immutable ETag, revalidated with 304, and limited per address with 429",
          "[records][limits][binary]") {
  const auto dir = std::filesystem::temp_directory_path() / ("tinsel-records-" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  // A large finished game's record, straight into the journal's table of records.
  json record = {{"format", "tinsel-game-record"}, {"version", 1}, {"id", "00c0ffee00c0ffee"}, {"commands", json::array()}};
  for (int i = 0; i < 20000; ++i) record["commands"].push_back({{"kind", "command"}, {"seq", i}, {"seat", i % 4}, {"command", {{"type", "roll"}}}});
  {
    sqlite3* db = nullptr;
    REQUIRE(sqlite3_open((dir / "tinsel.db").c_str(), &db) == SQLITE_OK);
    const std::string sql =
        "CREATE TABLE games(id TEXT PRIMARY KEY, room TEXT NOT NULL, game TEXT NOT NULL, finished_ms INTEGER NOT NULL, "
        "body TEXT NOT NULL); INSERT INTO games VALUES ('00c0ffee00c0ffee', 'K7M2QX', 'happy_holidays', " +
        std::to_string(std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch()).count()) +
        ", '" + record.dump() + "');";
    REQUIRE(sqlite3_exec(db, sql.c_str(), nullptr, nullptr, nullptr) == SQLITE_OK);
    sqlite3_close(db);
  }
  server_process srv({"--data-dir", dir.string(), "--record-downloads-per-address-per-minute", "3"});
  const std::string get = "GET /records/00c0ffee00c0ffee HTTP/1.1\r\nHost: 127.0.0.1\r\n";
  raw_conn c(srv.port);
  c.send_all(get + "Accept-Encoding: gzip, deflate, br\r\n\r\n");
  REQUIRE(c.status() == 200);
  CHECK(c.header("Content-Encoding") == "gzip");
  CHECK(c.header("Content-Type") == "application/json");
  CHECK(c.header("Cache-Control") == "public, max-age=31536000, immutable");
  CHECK(c.header("Vary") == "Accept-Encoding");
  const auto etag = c.header("ETag");
  CHECK(!etag.empty());
  const auto zipped = c.read_body();
  const auto text = gunzip(zipped);
  CHECK(json::parse(text) == record);
  CHECK(text == record.dump() + "\n");  // compact, not indented
  INFO("record " << text.size() << " bytes, " << zipped.size() << " gzip");
  CHECK(zipped.size() * 10 < text.size());
  // Revalidation on the same kept-alive connection: 304, not counted against the address.
  for (int i = 0; i < 5; ++i) {
    c.send_all(get + "If-None-Match: " + etag + "\r\n\r\n");
    CHECK(c.status() == 304);
  }
  // Without gzip: the same JSON (the second download; the third).
  c.send_all(get + "\r\n");
  REQUIRE(c.status() == 200);
  CHECK(c.read_body() == text);
  c.send_all(get + "Accept-Encoding: gzip\r\n\r\n");
  REQUIRE(c.status() == 200);
  CHECK(c.read_body() == zipped);
  // The fourth within the minute: 429, with when to come back.
  c.send_all(get + "Accept-Encoding: gzip\r\n\r\n");
  CHECK(c.status() == 429);
  CHECK(std::stoi(c.header("Retry-After")) >= 1);
  // Another address is not affected.
  raw_conn other(srv.port, "127.0.0.2");
  other.send_all(get + "Accept-Encoding: gzip\r\n\r\n");
  CHECK(other.status() == 200);
  srv.kill_hard();
  std::filesystem::remove_all(dir);
}
