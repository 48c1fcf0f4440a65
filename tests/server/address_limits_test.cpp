// The per-address bookkeeping (server/src/limits/address_limits) with a clock the test moves, and the
// HTTP decisions (server/src/net/http_routes) without sockets.
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <string>
#include <unistd.h>

#include "limits/address_limits.hpp"
#include "net/http_routes.hpp"
#include "net/static_files.hpp"

using namespace tinsel::server;
using namespace std::chrono_literals;
using clock_type = address_limits::clock;

TEST_CASE("addresses: canonical text, IPv4-mapped IPv6 as IPv4, IPv6 counted per /64", "[limits]") {
  CHECK(canonical_address("10.0.0.1") == "10.0.0.1");
  CHECK(canonical_address(" 10.0.0.1:5678 ") == "10.0.0.1");
  CHECK(canonical_address("::ffff:10.0.0.1") == "10.0.0.1");
  CHECK(canonical_address("[2001:DB8:0::1]:443") == "2001:db8::1");
  CHECK_FALSE(canonical_address("example.org"));
  CHECK_FALSE(canonical_address(""));
  CHECK_FALSE(canonical_address("unknown"));
  CHECK(limit_key("10.0.0.1") == "10.0.0.1");
  CHECK(limit_key("2001:db8:1:2:3:4:5:6") == "2001:db8:1:2::/64");
  CHECK(limit_key("2001:db8:1:2::9") == limit_key("2001:db8:1:2:ffff::1"));
  CHECK(limit_key("2001:db8:1:3::9") != limit_key("2001:db8:1:2::9"));
}

TEST_CASE("X-Forwarded-For counts only from a trusted proxy, right to left", "[limits]") {
  const std::vector<std::string> trusted{"10.0.0.2", "10.0.0.3"};
  // Not a trusted peer: the header is ignored.
  CHECK(client_key("192.0.2.9", {"198.51.100.1"}, trusted) == "192.0.2.9");
  CHECK(client_key("192.0.2.9", {"198.51.100.1"}, {}) == "192.0.2.9");
  // A trusted peer: the right-most hop that is not a trusted proxy; the client's own (forgeable)
  // entries on the left do not matter.
  CHECK(client_key("10.0.0.2", {"198.51.100.1"}, trusted) == "198.51.100.1");
  CHECK(client_key("10.0.0.2", {"6.6.6.6, 198.51.100.1"}, trusted) == "198.51.100.1");
  CHECK(client_key("10.0.0.2", {"6.6.6.6, 198.51.100.1, 10.0.0.3"}, trusted) == "198.51.100.1");
  CHECK(client_key("10.0.0.2", {"6.6.6.6", "198.51.100.1"}, trusted) == "198.51.100.1");
  CHECK(client_key("10.0.0.2", {"2001:db8::7"}, trusted) == "2001:db8::/64");
  // No header, or garbage from the proxy: the proxy itself.
  CHECK(client_key("10.0.0.2", {}, trusted) == "10.0.0.2");
  CHECK(client_key("10.0.0.2", {"not an address"}, trusted) == "10.0.0.2");
  CHECK(client_key("::ffff:10.0.0.2", {"198.51.100.1"}, trusted) == "198.51.100.1");
}

TEST_CASE("failed joins: 3 free, then 1 s, 2 s, 4 s ... up to an hour, forgiven by halves after the wait", "[limits]") {
  config cfg;
  address_limits l(cfg);
  const std::string a = "192.0.2.1";
  auto t = clock_type::now();
  for (int i = 0; i < 3; ++i) {
    CHECK_FALSE(l.join_wait(a, t));
    l.join_missed(a, t);
  }
  // Three misses: the next attempt waits exactly 1 s, not one millisecond less.
  REQUIRE(l.join_wait(a, t));
  CHECK(*l.join_wait(a, t) == 1000ms);
  CHECK(l.join_wait(a, t + 999ms));
  CHECK_FALSE(l.join_wait(a, t + 1000ms));
  // Another address is not affected.
  CHECK_FALSE(l.join_wait("192.0.2.2", t));
  t += 1000ms;
  l.join_missed(a, t);  // 4 misses: 2 s
  CHECK(*l.join_wait(a, t) == 2000ms);
  t += 2000ms;
  l.join_missed(a, t);  // 5 misses: 4 s
  CHECK(*l.join_wait(a, t) == 4000ms);
  // A guesser who retries as soon as allowed: the wait doubles up to the cap and stays there.
  for (int i = 0; i < 20; ++i) {
    t += *l.join_wait(a, t);
    l.join_missed(a, t);
  }
  CHECK(*l.join_wait(a, t) == std::chrono::milliseconds(address_limits::max_join_wait));
  // Quiet after the wait: halved per 10 minutes, down to nothing.
  t += address_limits::max_join_wait;
  CHECK_FALSE(l.join_wait(a, t));
  t += 6h;
  CHECK_FALSE(l.join_wait(a, t));
  l.join_missed(a, t);  // forgiven: this is a first miss again
  CHECK_FALSE(l.join_wait(a, t));
}

TEST_CASE("failed joins: forgiveness halves the count, so a family that mistyped is back to free", "[limits]") {
  config cfg;
  address_limits l(cfg);
  const std::string a = "192.0.2.1";
  auto t = clock_type::now();
  for (int i = 0; i < 4; ++i) {
    t += l.join_wait(a, t).value_or(0ms);
    l.join_missed(a, t);
  }
  CHECK(*l.join_wait(a, t) == 2000ms);  // 4 misses
  t += 2s + 10min;                      // halved: 2 misses
  CHECK_FALSE(l.join_wait(a, t));
  l.join_missed(a, t);  // 3 misses: 1 s, not 4 s
  CHECK(*l.join_wait(a, t) == 1000ms);
  CHECK(l.tracked_addresses() == 1);
  t += 1s + 20min;  // 3 -> 1 -> 0
  CHECK_FALSE(l.join_wait(a, t));
}

TEST_CASE("rooms: a bucket of N per minute and N live per address", "[limits]") {
  config cfg;
  cfg.rooms_per_address_per_minute = 3;
  cfg.live_rooms_per_address = 4;
  address_limits l(cfg);
  const std::string a = "192.0.2.1";
  auto t = clock_type::now();
  for (int i = 0; i < 3; ++i) CHECK_FALSE(l.create_room(a, t));
  auto no = l.create_room(a, t);
  REQUIRE(no);
  REQUIRE(no->retry_after);
  CHECK(no->retry_after->count() > 19'000);  // one room per 20 s
  CHECK(no->retry_after->count() <= 20'001);
  CHECK(l.create_room(a, t + 19s));
  CHECK_FALSE(l.create_room(a, t + 21s));  // the 4th live room
  no = l.create_room(a, t + 10min);        // rate is fine again, but 4 are live
  REQUIRE(no);
  CHECK_FALSE(no->retry_after);
  l.room_closed(a);
  CHECK_FALSE(l.create_room(a, t + 10min));
  CHECK_FALSE(l.create_room("192.0.2.2", t));  // another address
}

TEST_CASE("connections and identities per address, idle addresses are forgotten", "[limits]") {
  config cfg;
  cfg.max_connections = 3;
  cfg.max_connections_per_address = 2;
  cfg.identities_per_address = 1;
  address_limits l(cfg);
  using adm = address_limits::admission;
  CHECK(l.open_connection("a") == adm::ok);
  CHECK(l.open_connection("a") == adm::ok);
  CHECK(l.open_connection("a") == adm::address_full);
  CHECK(l.open_connection("b") == adm::ok);
  CHECK(l.open_connection("c") == adm::server_full);
  CHECK(l.connections() == 3);
  CHECK(l.add_identity("a"));
  CHECK_FALSE(l.add_identity("a"));
  l.close_connection("a");
  l.close_connection("a");
  l.close_connection("b");
  CHECK(l.connections() == 0);
  CHECK(l.tracked_addresses() == 1);  // "a" still holds an identity
  l.identity_released("a");
  CHECK(l.tracked_addresses() == 0);
  // A penalty keeps an address until it is forgiven; then the next sweep forgets it.
  config many;
  address_limits m(many);
  const auto t = clock_type::now();
  for (int i = 0; i < 2000; ++i) m.join_missed("10.1." + std::to_string(i / 250) + "." + std::to_string(i % 250), t);
  CHECK(m.tracked_addresses() == 2000);
  for (int i = 0; i < 3000; ++i) (void)m.create_room("10.2." + std::to_string(i / 250) + "." + std::to_string(i % 250), t + 2h);
  CHECK(m.tracked_addresses() == 3000);  // the 2,000 forgiven misses were swept out
}

TEST_CASE("Origin: own origin, loopback development, --allowed-origin, nothing else", "[limits]") {
  config cfg;
  cfg.allowed_origins = {"https://friends.example"};
  CHECK(origin_allowed("http://127.0.0.1:8080", "127.0.0.1:8080", cfg));
  CHECK(origin_allowed("https://games.example", "games.example", cfg));  // behind a TLS proxy
  CHECK(origin_allowed("HTTPS://Games.Example", "games.example:443", cfg));
  CHECK(origin_allowed("http://games.example:8080", "games.example:8080", cfg));
  CHECK_FALSE(origin_allowed("http://games.example:8081", "games.example:8080", cfg));
  CHECK(origin_allowed("http://localhost:5173", "127.0.0.1:8080", cfg));
  CHECK(origin_allowed("http://[::1]:5173", "localhost:8080", cfg));
  CHECK_FALSE(origin_allowed("http://localhost:5173", "games.example", cfg));
  CHECK(origin_allowed("https://friends.example", "games.example", cfg));
  CHECK_FALSE(origin_allowed("https://friends.example.evil", "games.example", cfg));
  CHECK_FALSE(origin_allowed("https://evil.example", "127.0.0.1:8080", cfg));
  CHECK_FALSE(origin_allowed("null", "127.0.0.1:8080", cfg));
  CHECK_FALSE(origin_allowed("", "127.0.0.1:8080", cfg));
  CHECK_FALSE(origin_allowed("http://127.0.0.1:8080/path", "127.0.0.1:8080", cfg));
  CHECK_FALSE(origin_allowed("file://", "127.0.0.1:8080", cfg));
}

TEST_CASE("HTTP answers from raw bytes: 400, 404, 413, 431, 403 and the upgrade", "[limits]") {
  config cfg;
  const http_context ctx{cfg, "127.0.0.1"};
  auto status = [&](const std::string& bytes) { return answer_bytes(bytes, ctx).status; };
  CHECK(status("GET /index.html HTTP/1.1\r\nHost: localhost\r\n\r\n") == 200);
  CHECK(answer_bytes("GET /index.html HTTP/1.1\r\nHost: localhost\r\n\r\n", ctx).file.ends_with("/index.html"));
  CHECK(status("GET /js HTTP/1.1\r\nHost: localhost\r\n\r\n") == 404);
  CHECK(status("GET /js/ HTTP/1.1\r\nHost: localhost\r\n\r\n") == 404);
  CHECK(status("GET /. HTTP/1.1\r\nHost: localhost\r\n\r\n") == 404);
  CHECK(status("GET /../etc/passwd HTTP/1.1\r\nHost: localhost\r\n\r\n") == 404);
  CHECK(status("GET /index.html HTTP/1.1\r\n\r\n") == 400);
  CHECK(status("GET /index.html HTTP/1.1\r\nHost: localhost\r\nHost: y\r\n\r\n") == 400);
  CHECK(status("GET /index.html HTTP/1.0\r\n\r\n") == 200);
  CHECK(status("POST /index.html HTTP/1.1\r\nHost: localhost\r\nContent-Length: 2\r\n\r\nhi") == 405);
  CHECK(status("GET /" + std::string(100 * 1024, 'a') + " HTTP/1.1\r\nHost: localhost\r\n\r\n") == 431);
  std::string many = "GET / HTTP/1.1\r\nHost: localhost\r\n";
  for (int i = 0; i < 200; ++i) many += "X-" + std::to_string(i) + ": 1\r\n";
  CHECK(status(many + "\r\n") == 431);
  CHECK(status("POST / HTTP/1.1\r\nHost: localhost\r\nContent-Length: 1048576\r\n\r\n") == 413);
  CHECK(status("GARBAGE\r\n\r\n") == 400);
  CHECK(status("GET / HTTP/1.1\r\nHost: localhost\r\n") == 0);  // incomplete: no answer
  const std::string ws = "GET /ws HTTP/1.1\r\nHost: 127.0.0.1:8080\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n"
                         "Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n";
  CHECK(answer_bytes(ws + "\r\n", ctx).what == http_answer::action::upgrade);
  CHECK(answer_bytes(ws + "\r\n", ctx).client == "127.0.0.1");
  CHECK(answer_bytes(ws + "Origin: http://127.0.0.1:8080\r\n\r\n", ctx).what == http_answer::action::upgrade);
  CHECK(status(ws + "Origin: https://evil.example\r\n\r\n") == 403);
  CHECK(status(ws + "Origin: null\r\n\r\n") == 403);
  CHECK(status(ws + "Origin: http://127.0.0.1:8080\r\nOrigin: https://evil.example\r\n\r\n") == 403);
  const http_context stopping{cfg, "127.0.0.1", true};
  CHECK(answer_bytes(ws + "\r\n", stopping).status == 503);
}

TEST_CASE("static files from memory: gzip when accepted, ETag and 304, a changed file served anew", "[http][static]") {
  // A web root of our own, so the test can change a file under the server's feet.
  const auto root = std::filesystem::temp_directory_path() / ("tinsel-static-" + std::to_string(::getpid()));
  std::filesystem::create_directories(root);
  const std::string script(4000, 'x');
  std::ofstream(root / "app.js") << script;
  std::ofstream(root / "pic.png") << std::string(3000, 'p');
  config cfg;
  cfg.web_root = root.string();
  static_files files;
  http_context ctx{cfg, "127.0.0.1"};
  ctx.files = &files;
  const auto get = [&](const std::string& headers) {
    return answer_bytes("GET /app.js HTTP/1.1\r\nHost: localhost\r\n" + headers + "\r\n", ctx);
  };

  const auto plain = get("");
  CHECK(plain.status == 200);
  CHECK(plain.body == script);
  CHECK(plain.content_encoding.empty());
  CHECK(plain.vary_encoding);
  CHECK(plain.cache_control == "no-cache");
  REQUIRE(plain.etag.size() == 18);  // "<16 hex digits>"

  const auto gz = get("Accept-Encoding: br, gzip;q=0.8\r\n");
  CHECK(gz.content_encoding == "gzip");
  CHECK(gz.body.size() < script.size() / 10);
  CHECK(gz.body == gzip_compress(script));
  CHECK(gz.etag == plain.etag);
  CHECK(get("Accept-Encoding: gzip;q=0\r\n").content_encoding.empty());
  CHECK(get("Accept-Encoding: deflate\r\n").content_encoding.empty());
  CHECK(get("Accept-Encoding: *\r\n").content_encoding == "gzip");

  const auto not_modified = get("If-None-Match: \"0000000000000000\", " + plain.etag + "\r\nAccept-Encoding: gzip\r\n");
  CHECK(not_modified.status == 304);
  CHECK(not_modified.body.empty());
  CHECK(not_modified.etag == plain.etag);
  CHECK(get("If-None-Match: W/" + plain.etag + "\r\n").status == 304);
  CHECK(get("If-None-Match: \"0000000000000000\"\r\n").status == 200);

  const auto head = answer_bytes("HEAD /app.js HTTP/1.1\r\nHost: localhost\r\nAccept-Encoding: gzip\r\n\r\n", ctx);
  CHECK(head.head);
  CHECK(head.content_encoding == "gzip");

  // An image is not compressed again.
  const auto png = answer_bytes("GET /pic.png HTTP/1.1\r\nHost: localhost\r\nAccept-Encoding: gzip\r\n\r\n", ctx);
  CHECK(png.status == 200);
  CHECK(png.content_encoding.empty());
  CHECK_FALSE(png.vary_encoding);

  // A new release of the file (another size): read again, with another ETag.
  std::ofstream(root / "app.js") << script << "y";
  const auto changed = get("If-None-Match: " + plain.etag + "\r\n");
  CHECK(changed.status == 200);
  CHECK(changed.body == script + "y");
  CHECK(changed.etag != plain.etag);
  std::filesystem::remove_all(root);
}
