// The network layer's defences without sockets: the Host check against DNS rebinding, token
// buckets and the log throttle with a clock the test moves, the count of TCP connections per
// address, and game records served compressed, cached and limited (server/src/net/ and limits/).
#include <catch2/catch.hpp>

#include <string>

#include "limits/address_limits.hpp"
#include "limits/connection_limits.hpp"
#include "limits/log_throttle.hpp"
#include "limits/rate_buckets.hpp"
#include "net/http_routes.hpp"
#include "net/record_cache.hpp"

using namespace tinsel::server;
using namespace std::chrono_literals;

namespace {

const std::string upgrade_head =
    "GET /ws HTTP/1.1\r\nConnection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Version: 13\r\n"
    "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n";

}  // namespace

TEST_CASE("Host: loopback names and address literals on any port, --server-name, nothing else", "[http][host]") {
  config cfg;
  for (const char* ok : {"localhost", "localhost:8080", "127.0.0.1", "127.0.0.1:49152", "[::1]", "[::1]:8080",
                         "LOCALHOST:8080", "192.168.1.20:8080", "203.0.113.7", "[2001:db8::1]:443"}) {
    INFO(ok);
    CHECK(host_allowed(ok, cfg));
  }
  for (const char* no : {"evil.example", "evil.example:8080", "games.example.org", "localhost.evil.example",
                         "127.0.0.1.evil.example", "[::1", "", ":8080", "127.1", "x"}) {
    INFO(no);
    CHECK_FALSE(host_allowed(no, cfg));
  }
  cfg.server_names = {"games.example.org"};
  CHECK(host_allowed("games.example.org", cfg));
  CHECK(host_allowed("Games.Example.Org:443", cfg));
  CHECK_FALSE(host_allowed("evil.games.example.org", cfg));
  CHECK_FALSE(host_allowed("evil.example", cfg));
  cfg.server_names = {"*"};
  CHECK(host_allowed("evil.example", cfg));
}

TEST_CASE("DNS rebinding: an upgrade or a request for another name gets 421, even with a matching Origin",
          "[http][host]") {
  config cfg;
  const http_context ctx{cfg, "127.0.0.1"};
  // The page on evil.example, its name now pointing at 127.0.0.1: Origin and Host agree.
  const auto rebound = answer_bytes(upgrade_head + "Host: evil.example:8080\r\nOrigin: http://evil.example:8080\r\n\r\n", ctx);
  CHECK(rebound.status == 421);
  CHECK(rebound.what == http_answer::action::respond);
  CHECK_FALSE(rebound.keep_alive);
  CHECK(rebound.log.starts_with("request refused: host not served host=\"evil.example:8080\""));
  for (const char* target : {"/healthz", "/", "/rooms/K7M2QX", "/r/K7M2QX", "/records/0123456789abcdef"}) {
    INFO(target);
    CHECK(answer_bytes(std::string("GET ") + target + " HTTP/1.1\r\nHost: evil.example:8080\r\n\r\n", ctx).status == 421);
  }
  // Every documented way in still works: loopback names, an address, HTTP/1.0 without Host.
  CHECK(answer_bytes(upgrade_head + "Host: 127.0.0.1:8080\r\nOrigin: http://127.0.0.1:8080\r\n\r\n", ctx).what ==
        http_answer::action::upgrade);
  CHECK(answer_bytes(upgrade_head + "Host: localhost:8080\r\nOrigin: http://localhost:8080\r\n\r\n", ctx).what ==
        http_answer::action::upgrade);
  CHECK(answer_bytes(upgrade_head + "Host: [::1]:8080\r\n\r\n", ctx).what == http_answer::action::upgrade);
  CHECK(answer_bytes(upgrade_head + "Host: 192.168.1.20:8080\r\nOrigin: http://192.168.1.20:8080\r\n\r\n", ctx).what ==
        http_answer::action::upgrade);
  CHECK(answer_bytes("GET /healthz HTTP/1.0\r\n\r\n", ctx).status == 200);
  // Behind a TLS proxy on the public name, named with --server-name.
  config named;
  named.server_names = {"games.example.org"};
  const http_context proxied{named, "127.0.0.1"};
  CHECK(answer_bytes(upgrade_head + "Host: games.example.org\r\nOrigin: https://games.example.org\r\n\r\n", proxied).what ==
        http_answer::action::upgrade);
  CHECK(answer_bytes(upgrade_head + "Host: evil.example\r\nOrigin: http://evil.example\r\n\r\n", proxied).status == 421);
}

TEST_CASE("the --server-name flag takes names as Caddy's site address writes them", "[config][host]") {
  auto parse = [](std::vector<std::string> args) {
    args.insert(args.begin(), "tinsel-server");
    return parse_args(args, nullptr);
  };
  CHECK(parse({}).cfg->server_names.empty());
  const auto p = parse({"--server-name", "Games.Example.org, https://tinsel.example/, http://192.168.1.20, web.example:8443"});
  REQUIRE(p.cfg);
  CHECK(p.cfg->server_names == std::vector<std::string>{"games.example.org", "tinsel.example", "192.168.1.20", "web.example"});
  CHECK(parse({"--server-name", "*"}).cfg->server_names == std::vector<std::string>{"*"});
  for (const char* bad : {"ftp://x.example", "*.example.org", "a b", "x/y"}) {
    INFO(bad);
    CHECK(parse({"--server-name", bad}).exit_code == 2);
  }
  const auto d = parse({});
  CHECK(d.cfg->max_tcp_connections_per_address == 128);
  CHECK(d.cfg->connections_per_address_per_sec == 20);
  CHECK(d.cfg->connection_burst_per_address == 200);
  CHECK(d.cfg->http_idle_timeout == 15s);
  CHECK(d.cfg->record_downloads_per_address_per_minute == 30);
  for (const char* f : {"--max-tcp-connections-per-address", "--connection-burst-per-address", "--http-idle-timeout-sec"}) {
    INFO(f);
    CHECK(parse({f, "0"}).exit_code == 2);
  }
}

TEST_CASE("token buckets per address: a burst, then the rate, each address its own", "[limits][buckets]") {
  rate_buckets b(2.0, 5.0);  // 2 a second, bursts of 5
  const auto t0 = rate_buckets::clock::now();
  for (int i = 0; i < 5; ++i) CHECK_FALSE(b.take("10.0.0.1", t0));
  const auto wait = b.take("10.0.0.1", t0);
  REQUIRE(wait);
  CHECK(*wait == 500ms);
  CHECK_FALSE(b.take("10.0.0.2", t0));       // another address
  CHECK_FALSE(b.take("10.0.0.1", t0 + 500ms));  // refilled one
  CHECK(b.take("10.0.0.1", t0 + 500ms));
  // Full buckets are forgotten once the map has grown: memory follows the busy addresses.
  for (int i = 0; i < 3000; ++i) b.take("10.1." + std::to_string(i / 256) + "." + std::to_string(i % 256), t0 + 1h);
  CHECK(b.tracked() == 3000);  // busy within the last seconds: kept (the first two, full again, are not)
  for (int i = 0; i < 3000; ++i) b.take("10.2." + std::to_string(i / 256) + "." + std::to_string(i % 256), t0 + 2h);
  CHECK(b.tracked() <= 3000);  // the first 3,000 were full again, and forgotten
}

TEST_CASE("log throttle: one line per key per interval, then it says how many were held, with a bound over all keys",
          "[logs][throttle]") {
  log_throttle t(10s, 3);
  const auto t0 = log_throttle::clock::now();
  CHECK(t.allow("accept|10.0.0.1", t0) == 0u);
  for (int i = 0; i < 1000; ++i) CHECK_FALSE(t.allow("accept|10.0.0.1", t0 + 1ms * i));
  CHECK(t.allow("origin|10.0.0.1", t0) == 0u);  // another kind
  CHECK(t.allow("accept|10.0.0.1", t0 + 10s) == 1000u);
  // Many addresses: at most 3 keys log per interval; the rest is counted.
  int lines = 0;
  for (int i = 0; i < 500; ++i) lines += t.allow("accept|10.2.0." + std::to_string(i), t0 + 20s).has_value();
  CHECK(lines == 3);
  const auto next = t.allow("accept|10.9.9.9", t0 + 30s);
  REQUIRE(next);
  CHECK(*next == 497u);
}

TEST_CASE("TCP connections per address: counted at accept until closed, IPv6 per /64, trusted proxies not counted",
          "[limits][connections]") {
  config cfg;
  cfg.max_tcp_connections_per_address = 2;
  cfg.trusted_proxies = {"10.9.9.9"};
  connection_limits limits(cfg);
  auto a = limits.admit("10.0.0.1");
  auto b = limits.admit("10.0.0.1");
  CHECK(a.what == connection_limits::verdict::ok);
  CHECK(b.what == connection_limits::verdict::ok);
  CHECK(limits.admit("10.0.0.1").what == connection_limits::verdict::too_many);
  CHECK(limits.admit("10.0.0.2").what == connection_limits::verdict::ok);  // another address (its slot is gone at once)
  CHECK(limits.open_from("10.0.0.1") == 2);
  {
    connection_slot moved = std::move(a.slot);  // to the WebSocket session, on an upgrade
    CHECK(limits.open_from("10.0.0.1") == 2);
  }
  CHECK(limits.open_from("10.0.0.1") == 1);
  CHECK(limits.admit("::ffff:10.0.0.1").what == connection_limits::verdict::ok);
  auto v6a = limits.admit("2001:db8:1:2::1");
  auto v6b = limits.admit("2001:db8:1:2::ffff");
  CHECK(limits.admit("2001:db8:1:2:abcd::1").what == connection_limits::verdict::too_many);
  std::vector<connection_limits::admission> proxy;
  for (int i = 0; i < 10; ++i) proxy.push_back(limits.admit("10.9.9.9"));
  for (const auto& p : proxy) CHECK(p.what == connection_limits::verdict::ok);
  b.slot.release();
  v6a.slot.release();
  v6b.slot.release();
  CHECK(limits.tracked_addresses() == 0);
}

TEST_CASE("TCP connections per address: new ones beyond the burst are refused until the bucket refills",
          "[limits][connections]") {
  config cfg;
  cfg.connections_per_address_per_sec = 1;
  cfg.connection_burst_per_address = 3;
  connection_limits limits(cfg);
  for (int i = 0; i < 3; ++i) CHECK(limits.admit("10.0.0.1").what == connection_limits::verdict::ok);
  CHECK(limits.admit("10.0.0.1").what == connection_limits::verdict::too_fast);
  CHECK(limits.admit("10.0.0.2").what == connection_limits::verdict::ok);
}

namespace {

struct record_fixture {
  config cfg;
  record_cache cache{1 << 20};
  rate_buckets downloads{1.0, 3.0};
  int loads = 0;
  std::string text = nlohmann::json{{"format", "tinsel-game-record"}, {"commands", std::vector<int>(2000, 7)}}.dump() + "\n";
  http_context ctx{cfg, "192.0.2.7"};
  record_fixture() {
    ctx.find_record = [this](const std::string& id) -> std::optional<std::string> {
      ++loads;
      if (id != "0123456789abcdef") return std::nullopt;
      return text;
    };
    ctx.records = &cache;
    ctx.record_downloads = &downloads;
  }
  http_answer get(const std::string& target, const std::string& headers = "") {
    return answer_bytes("GET " + target + " HTTP/1.1\r\nHost: localhost\r\n" + headers + "\r\n", ctx);
  }
};

}  // namespace

TEST_CASE("game records: gzip once, kept in memory, an immutable ETag, 304 without a lookup", "[http][records]") {
  record_fixture f;
  const auto a = f.get("/records/0123456789abcdef", "Accept-Encoding: gzip, br\r\n");
  CHECK(a.status == 200);
  CHECK(a.content_type == "application/json");
  CHECK(a.content_encoding == "gzip");
  CHECK(a.vary_encoding);
  CHECK(a.cache_control == "public, max-age=31536000, immutable");
  CHECK(a.etag == "\"record-0123456789abcdef-c1\"");
  REQUIRE(a.shared_body);
  CHECK(a.shared_body->size() < f.text.size() / 10);
  CHECK(gunzip(*a.shared_body) == f.text);
  // Again: from memory, the same bytes, no second load.
  const auto again = f.get("/records/0123456789abcdef.json", "Accept-Encoding: gzip\r\n");
  CHECK(again.shared_body == a.shared_body);
  CHECK(f.loads == 1);
  // Without gzip: the JSON itself.
  const auto plain = f.get("/records/0123456789abcdef");
  CHECK(plain.content_encoding.empty());
  CHECK(plain.body == f.text);
  CHECK(f.loads == 1);
  // Revalidation: 304, no lookup, no token.
  for (int i = 0; i < 10; ++i) CHECK(f.get("/records/0123456789abcdef", "If-None-Match: " + a.etag + "\r\n").status == 304);
  CHECK(f.loads == 1);
  CHECK(f.get("/records/ffffffffffffffff").status == 429);  // the 3 of the burst are spent
  CHECK(f.get("/records/not-an-id").status == 404);
}

TEST_CASE("game records: downloads per address beyond the bucket get 429 with Retry-After while other addresses do not wait",
          "[http][records][limits]") {
  record_fixture f;
  for (int i = 0; i < 3; ++i) CHECK(f.get("/records/0123456789abcdef").status == 200);
  const auto refused = f.get("/records/0123456789abcdef");
  CHECK(refused.status == 429);
  REQUIRE(refused.retry_after);
  CHECK(*refused.retry_after >= 1);
  CHECK(refused.log.starts_with("record download refused"));
  CHECK(f.loads == 1);
  const http_context other{f.cfg, "198.51.100.1", false, 0, 0, "off", f.ctx.find_record, nullptr, nullptr, nullptr, &f.cache, &f.downloads};
  CHECK(answer_bytes("GET /records/0123456789abcdef HTTP/1.1\r\nHost: localhost\r\n\r\n", other).status == 200);
  CHECK(f.get("/records/0000000000000000").status == 429);
}

TEST_CASE("record cache: bounded in bytes, least recently used out first", "[http][records]") {
  record_cache cache(3000);  // room for two of these
  int loads = 0;
  // Random-looking text compresses badly: about 1.3 KB of gzip each.
  auto load = [&](const std::string& id) -> std::optional<std::string> {
    ++loads;
    std::string s;
    auto x = static_cast<std::uint32_t>(std::hash<std::string>{}(id));
    for (int i = 0; i < 2000; ++i) s.push_back(static_cast<char>('a' + ((x = x * 1664525u + 1013904223u) >> 27)));
    return s;
  };
  for (const char* id : {"a", "b", "a", "c"}) CHECK(cache.get(id, load));
  CHECK(loads == 3);  // the second "a" from memory
  CHECK(cache.bytes() <= 3000);
  CHECK(cache.get("a", load));
  CHECK(loads == 3);  // "a" was used more lately than "b", which went for "c"
  CHECK(cache.get("b", load));
  CHECK(loads == 4);
  CHECK_FALSE(cache.get("none", [](const std::string&) { return std::optional<std::string>(); }));
  // A kept copy of a record past its days (--keep-records-days) is not served, and goes.
  const auto kept = cache.bytes();
  CHECK_FALSE(cache.get("b", load, [](const std::string&) { return false; }));
  CHECK(cache.bytes() < kept);
  CHECK(cache.get("b", load, [](const std::string&) { return true; }));
  CHECK(loads == 5);
}
