// Limits per client address, the Origin check and HTTP status codes, against a real server.
// Plain sockets (raw_conn) send exact bytes and read status lines; a connection bound to
// 127.0.0.2 counts as another client address.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include <catch2/catch.hpp>

#include <memory>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "raw_conn.hpp"
#include "test_server.hpp"
#include "ws_client.hpp"

using namespace tinsel::test;

namespace {

std::string upgrade_request(std::uint16_t port, const std::string& extra_headers = "") {
  return "GET /ws HTTP/1.1\r\nHost: 127.0.0.1:" + std::to_string(port) +
         "\r\nConnection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Version: 13\r\n"
         "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n" +
         extra_headers + "\r\n";
}

// A WebSocket upgrade from `from`; the connection stays open (holding its slot) while `out` lives.
int upgrade(std::uint16_t port, std::vector<std::unique_ptr<raw_conn>>& out, const std::string& extra_headers = "",
            const char* from = "127.0.0.1") {
  auto c = std::make_unique<raw_conn>(port, from);
  c->send_all(upgrade_request(port, extra_headers));
  const int status = c->status();
  out.push_back(std::move(c));
  return status;
}

int http_status(std::uint16_t port, const std::string& request) {
  raw_conn c(port);
  c.send_all(request);
  return c.status();
}

json hello_request(const std::string& name) { return {{"type", "hello"}, {"protocol", 1}, {"name", name}}; }
json create_request() { return {{"type", "create_room"}, {"game", "happy_holidays"}}; }
json join_request(const std::string& code, bool spectator = false) {
  return {{"type", "join_room"}, {"room", code}, {"as", spectator ? "spectator" : "player"}};
}

}  // namespace

TEST_CASE("HTTP: directories are 404, no Host is 400, long URLs and many headers 431, big bodies 413", "[limits][http]") {
  test_server srv;
  const auto port = srv.port;
  CHECK(http_status(port, "GET /index.html HTTP/1.1\r\nHost: localhost\r\n\r\n") == 200);
  // The client library (clients/js) under /lib/, from its own folder.
  CHECK(http_status(port, "GET /lib/index.js HTTP/1.1\r\nHost: localhost\r\n\r\n") == 200);
  CHECK(http_status(port, "GET /lib/client.js?v=1 HTTP/1.1\r\nHost: localhost\r\n\r\n") == 200);
  for (const char* path : {"/js", "/js/", "/.", "/js/.", "/lib", "/lib/", "/lib/missing.js", "/lib/../web/index.html"}) {
    INFO(path);
    CHECK(http_status(port, std::string("GET ") + path + " HTTP/1.1\r\nHost: localhost\r\n\r\n") == 404);
  }
  CHECK(http_status(port, "GET /index.html HTTP/1.1\r\n\r\n") == 400);
  CHECK(http_status(port, "GET /" + std::string(100 * 1024, 'a') + " HTTP/1.1\r\nHost: localhost\r\n\r\n") == 431);
  std::string many = "GET / HTTP/1.1\r\nHost: localhost\r\n";
  for (int i = 0; i < 150; ++i) many += "X" + std::to_string(i) + ":1\r\n";  // 150 short fields, 1 KB
  CHECK(http_status(port, many + "\r\n") == 431);
  for (int i = 0; i < 1000; ++i) many += "X-Longer-Header-" + std::to_string(i) + ": 1\r\n";  // past 8 KiB
  CHECK(http_status(port, many + "\r\n") == 431);
  {
    // The whole megabyte goes out: the server reads and drops it after answering, so the answer
    // is not lost to a reset.
    raw_conn c(port);
    CHECK(c.send_all("POST / HTTP/1.1\r\nHost: localhost\r\nContent-Length: 1048576\r\n\r\n"));
    c.send_all(std::string(1024 * 1024, 'x'));
    CHECK(c.status() == 413);
    CHECK(c.last_head().find("Connection: close") != std::string::npos);
    CHECK(c.read_rest().find("no uploads") != std::string::npos);
  }
}

TEST_CASE("Origin: another site and null get 403, own, none, loopback development and --allowed-origin upgrade",
          "[limits][origin]") {
  test_server srv([](auto& c) {
    c.allowed_origins = {"https://friends.example"};
    c.server_names = {"games.example"};  // behind a TLS proxy: the public name (--server-name)
  });
  const auto port = srv.port;
  std::vector<std::unique_ptr<raw_conn>> conns;
  CHECK(upgrade(port, conns, "Origin: https://evil.example\r\n") == 403);
  CHECK(upgrade(port, conns, "Origin: null\r\n") == 403);
  CHECK(upgrade(port, conns, "Origin: http://127.0.0.1:" + std::to_string(port + 1) + "\r\n") == 101);  // loopback dev
  CHECK(upgrade(port, conns, "Origin: http://127.0.0.1:" + std::to_string(port) + "\r\n") == 101);      // own
  CHECK(upgrade(port, conns) == 101);                                                                    // none
  CHECK(upgrade(port, conns, "Origin: https://friends.example\r\n") == 101);
  CHECK(upgrade(port, conns, "Origin: https://friends.example.evil\r\n") == 403);
  // The public host of a TLS proxy: Host is what the browser asked for.
  raw_conn proxied(port);
  proxied.send_all("GET /ws HTTP/1.1\r\nHost: games.example\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n"
                   "Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
                   "Origin: https://games.example\r\n\r\n");
  CHECK(proxied.status() == 101);
  // The C++ test client (like the reference bot and Node's ws) sends no Origin.
  ws_client c(port);
  CHECK(say_hello(c, "Oma")["type"] == "welcome");
}

TEST_CASE("connections per address and in total: the upgrade beyond either gets 503", "[limits][connections]") {
  test_server srv([](auto& c) {
    c.max_connections_per_address = 3;
    c.max_connections = 5;
  });
  const auto port = srv.port;
  std::vector<std::unique_ptr<raw_conn>> mine;
  for (int i = 0; i < 3; ++i) CHECK(upgrade(port, mine) == 101);
  CHECK(upgrade(port, mine) == 503);
  CHECK(mine.back()->read_rest().find("too many connections from your address") != std::string::npos);
  mine.pop_back();
  std::vector<std::unique_ptr<raw_conn>> others;
  CHECK(upgrade(port, others, "", "127.0.0.2") == 101);
  CHECK(upgrade(port, others, "", "127.0.0.3") == 101);
  CHECK(upgrade(port, others, "", "127.0.0.4") == 503);  // 5 in total
  CHECK(others.back()->read_rest().find("as many connections as it allows") != std::string::npos);
  others.pop_back();
  CHECK(http_get(port, "/healthz").status == 200);  // plain HTTP is not counted
  // A closed connection frees its slot once the server has seen it go.
  mine.pop_back();
  others.pop_back();
  int status = 0;
  for (int i = 0; i < 100 && status != 101; ++i) {
    std::vector<std::unique_ptr<raw_conn>> again;
    status = upgrade(port, again);
    if (status == 101) mine.push_back(std::move(again.back()));
    else std::this_thread::sleep_for(50ms);
  }
  CHECK(status == 101);
}

TEST_CASE("X-Forwarded-For names the client only behind a --trusted-proxy", "[limits][connections]") {
  SECTION("from a trusted proxy: the right-most untrusted hop") {
    test_server srv([](auto& c) {
      c.max_connections_per_address = 1;
      c.trusted_proxies = {"127.0.0.1"};
    });
    std::vector<std::unique_ptr<raw_conn>> conns;
    CHECK(upgrade(srv.port, conns, "X-Forwarded-For: 198.51.100.7\r\n") == 101);
    CHECK(upgrade(srv.port, conns, "X-Forwarded-For: 198.51.100.7\r\n") == 503);
    CHECK(upgrade(srv.port, conns, "X-Forwarded-For: 198.51.100.7, 198.51.100.8\r\n") == 101);
    CHECK(upgrade(srv.port, conns, "X-Forwarded-For: 198.51.100.9, 198.51.100.8\r\n") == 503);  // forged left part
    CHECK(upgrade(srv.port, conns) == 101);  // no header: the proxy itself
  }
  SECTION("from anyone else: ignored") {
    test_server srv([](auto& c) { c.max_connections_per_address = 1; });
    std::vector<std::unique_ptr<raw_conn>> conns;
    CHECK(upgrade(srv.port, conns, "X-Forwarded-For: 198.51.100.7\r\n") == 101);
    CHECK(upgrade(srv.port, conns, "X-Forwarded-For: 198.51.100.8\r\n") == 503);
  }
}

TEST_CASE("rooms: creating and leaving in a loop runs into too_many_rooms with a retry time", "[limits][rooms]") {
  test_server srv;  // defaults: 10 per minute, 20 live
  ws_client c(srv.port);
  say_hello(c, "Oma");
  for (int i = 0; i < 10; ++i) {
    INFO(i);
    REQUIRE(c.request(create_request())["type"] == "ok");
    REQUIRE(c.request({{"type", "leave_room"}})["type"] == "ok");
  }
  auto no = c.request(create_request());
  CHECK(no["code"] == "too_many_rooms");
  REQUIRE(no.contains("retry_after_ms"));
  CHECK(no["retry_after_ms"].get<long long>() > 0);
  CHECK(no["retry_after_ms"].get<long long>() <= 6001);  // 10 per minute: one every 6 s
  CHECK(no["message"].get<std::string>().find("try again in") != std::string::npos);
}

TEST_CASE("rooms: a live room counts against its creator until it is closed or expires", "[limits][rooms]") {
  test_server srv([](auto& c) {
    c.live_rooms_per_address = 1;
    c.rooms_per_address_per_minute = 1000;
    c.empty_room_grace = std::chrono::milliseconds(300);
    c.rate_per_sec = c.rate_burst = 1000;
  });
  ws_client c(srv.port);
  say_hello(c, "Oma");
  // A room left empty expires after its grace; until then the creator's next room may be refused.
  auto create_eventually = [&] {
    auto r = c.request(create_request());
    for (int i = 0; i < 100 && r["code"] == "too_many_rooms"; ++i) {
      CHECK_FALSE(r.contains("retry_after_ms"));  // unknown: it depends on the rooms
      std::this_thread::sleep_for(50ms);
      r = c.request(create_request());
    }
    return r;
  };
  // A closed room no longer counts, and its host is out of it, by the time the ok arrives: a new
  // room at once, again and again (this once raced: already_in_room, or too_many_rooms).
  for (int i = 0; i < 20; ++i) {
    INFO(i);
    REQUIRE(c.request(create_request())["type"] == "ok");
    REQUIRE(c.request({{"type", "close_room"}})["type"] == "ok");
  }
  REQUIRE(c.request(create_request())["type"] == "ok");
  ws_client cousin(srv.port);  // the same address
  say_hello(cousin, "Cousin");
  const auto no = cousin.request(create_request());
  CHECK(no["code"] == "too_many_rooms");
  CHECK_FALSE(no.contains("retry_after_ms"));
  REQUIRE(c.request({{"type", "leave_room"}})["type"] == "ok");
  // Left empty, the room lives on for its grace (300 ms here) and counts until it expires.
  CHECK(create_eventually()["type"] == "ok");
}

TEST_CASE("failed joins: two misses cost nothing, from the fourth try each waits 1 s, 2 s, ...", "[limits][joins]") {
  test_server srv;  // defaults: 3 free misses
  ws_client host(srv.port);
  say_hello(host, "Host");
  const std::string code = host.request(create_request())["room"];
  const std::string wrong = code == "222222" ? "333333" : "222222";
  ws_client g(srv.port);
  say_hello(g, "Guest");
  CHECK(g.request(join_request(wrong))["code"] == "unknown_room");
  CHECK(g.request(join_request(wrong))["code"] == "unknown_room");
  // A family that mistyped twice gets in at once; a good join does not reset the count.
  REQUIRE(g.request(join_request(code))["type"] == "ok");
  REQUIRE(g.request({{"type", "leave_room"}})["type"] == "ok");
  // A miss, then at once another join, which must wait `wait` from the miss. The server sees the
  // two at most `elapsed` apart; on a machine too busy to send them within `wait`, nothing is
  // checked but the miss.
  auto miss_then_join = [&](const std::string& next_code, std::chrono::milliseconds wait) {
    const auto t0 = std::chrono::steady_clock::now();
    CHECK(g.request(join_request(wrong))["code"] == "unknown_room");
    auto r = g.request(join_request(next_code));
    ws_client other(srv.port);  // the same address on another connection waits too
    say_hello(other, "Cousin");
    auto r2 = other.request(join_request(code));
    const auto elapsed = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - t0);
    if (elapsed >= wait) {
      if (r["type"] == "ok") g.request({{"type", "leave_room"}});
      return std::chrono::milliseconds(0);
    }
    CHECK(r2["code"] == "too_many_attempts");
    CHECK(r["code"] == "too_many_attempts");
    REQUIRE(r.contains("retry_after_ms"));
    const auto retry = std::chrono::milliseconds(r["retry_after_ms"].get<long long>());
    CHECK(retry <= wait);
    CHECK(retry >= wait - elapsed);
    CHECK(r["message"].get<std::string>().find("try again in") != std::string::npos);
    return retry;
  };
  auto retry = miss_then_join(code, 1000ms);  // the third miss: even the right code must wait 1 s
  std::this_thread::sleep_for(retry + 100ms);
  miss_then_join(wrong, 2000ms);  // the fourth: 2 s
}

TEST_CASE("identities per address: a new hello beyond the limit is refused, a resume is not", "[limits][identities]") {
  test_server srv([](auto& c) { c.identities_per_address = 2; });
  auto a = std::make_unique<ws_client>(srv.port);
  const std::string token = say_hello(*a, "A")["token"];
  ws_client b(srv.port);
  say_hello(b, "B");
  ws_client c(srv.port);
  const auto no = c.request(hello_request("C"));
  CHECK(no["code"] == "too_many_identities");
  // A closed connection's identity is kept for its reconnection grace, and still counts.
  a.reset();
  ws_client d(srv.port);
  CHECK(d.request(hello_request("D"))["code"] == "too_many_identities");
  auto resume = hello_request("A");
  resume["token"] = token;
  CHECK(d.request(resume)["type"] == "ok");
  bool resumed = false;
  for (const auto& f : d.transcript())
    if (f["type"] == "welcome") resumed = f["resumed"];
  CHECK(resumed);
}

TEST_CASE("spectators per room: beyond the limit too_many_spectators, players still join", "[limits][rooms]") {
  test_server srv([](auto& c) { c.max_spectators_per_room = 2; });
  ws_client host(srv.port);
  say_hello(host, "Host");
  const std::string code = host.request(create_request())["room"];
  std::vector<std::unique_ptr<ws_client>> watchers;
  for (int i = 0; i < 3; ++i) {
    watchers.push_back(std::make_unique<ws_client>(srv.port));
    say_hello(*watchers.back(), "W" + std::to_string(i));
  }
  CHECK(watchers[0]->request(join_request(code, true))["type"] == "ok");
  CHECK(watchers[1]->request(join_request(code, true))["type"] == "ok");
  CHECK(watchers[2]->request(join_request(code, true))["code"] == "too_many_spectators");
  CHECK(watchers[2]->request(join_request(code, false))["type"] == "ok");
  // A spectator who leaves frees a place.
  REQUIRE(watchers[0]->request({{"type", "leave_room"}})["type"] == "ok");
  ws_client late(srv.port);
  say_hello(late, "Late");
  CHECK(late.request(join_request(code, true))["type"] == "ok");
}

TEST_CASE("binary frames cost a token like text frames, and a flood of them closes with 4029", "[limits][rate]") {
  test_server srv([](auto& c) {
    c.rate_burst = 3;
    c.rate_per_sec = 0.1;
    c.rate_close_after = 4;
  });
  ws_client c(srv.port);
  for (int i = 0; i < 3; ++i) c.send_binary("\x01\x02");
  for (int i = 0; i < 3; ++i) CHECK(c.expect_type("error")["code"] == "invalid_message");
  c.send_binary("\x01\x02");
  CHECK(c.expect_type("error")["code"] == "rate_limited");
  for (int i = 0; i < 3; ++i) c.send_binary("\x01\x02");
  CHECK(c.wait_closed() == 4029);
}
