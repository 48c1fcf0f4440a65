// Flags and environment variables of tinsel-server.
#include <catch2/catch.hpp>

#include <map>

#include "tinsel/server/config.hpp"

using namespace tinsel::server;

namespace {
std::map<std::string, std::string> env_vars;
const char* fake_getenv(const char* name) {
  auto it = env_vars.find(name);
  return it == env_vars.end() ? nullptr : it->second.c_str();
}
parsed_args parse(std::vector<std::string> args) {
  args.insert(args.begin(), "tinsel-server");
  return parse_args(args, fake_getenv);
}
}  // namespace

TEST_CASE("defaults: 127.0.0.1:8080 with an 8 KiB frame limit", "[config]") {
  env_vars.clear();
  auto p = parse({});
  REQUIRE(p.cfg);
  CHECK(p.cfg->bind == "127.0.0.1");
  CHECK(p.cfg->port == 8080);
  CHECK(p.cfg->limits.max_frame_bytes == 8192);
  CHECK(p.cfg->log_level == "info");
}

TEST_CASE("flags override the environment, which overrides defaults", "[config]") {
  env_vars = {{"TINSEL_PORT", "9000"}, {"TINSEL_BIND", "0.0.0.0"}, {"TINSEL_THREADS", "3"}};
  auto p = parse({"--port", "9100", "--log-level=debug", "--max-frame-bytes", "4096"});
  REQUIRE(p.cfg);
  CHECK(p.cfg->port == 9100);
  CHECK(p.cfg->bind == "0.0.0.0");
  CHECK(p.cfg->threads == 3);
  CHECK(p.cfg->log_level == "debug");
  CHECK(p.cfg->limits.max_frame_bytes == 4096);
  env_vars.clear();
}

TEST_CASE("bad flags and values exit 2 with a message, help and version exit 0", "[config]") {
  env_vars.clear();
  CHECK(parse({"--port", "70000"}).exit_code == 2);
  CHECK(parse({"--port"}).exit_code == 2);
  CHECK(parse({"--log-level", "loud"}).exit_code == 2);
  CHECK(parse({"--nope"}).exit_code == 2);
  env_vars = {{"TINSEL_PORT", "x"}};
  CHECK(parse({}).exit_code == 2);
  env_vars.clear();
  auto help = parse({"--help"});
  CHECK_FALSE(help.cfg);
  CHECK(help.exit_code == 0);
  CHECK(help.output.find("--port") != std::string::npos);
  CHECK(help.output.find("TINSEL_PORT") != std::string::npos);
  auto version = parse({"--version"});
  CHECK(version.exit_code == 0);
  CHECK(version.output.find(version_string()) != std::string::npos);
}

TEST_CASE("limits per address: defaults, at least 1 each, address and origin lists checked", "[config]") {
  env_vars.clear();
  auto p = parse({});
  REQUIRE(p.cfg);
  CHECK(p.cfg->max_connections == 20000);
  CHECK(p.cfg->max_connections_per_address == 64);
  CHECK(p.cfg->rooms_per_address_per_minute == 10);
  CHECK(p.cfg->live_rooms_per_address == 20);
  CHECK(p.cfg->identities_per_address == 64);
  CHECK(p.cfg->free_failed_joins == 3);
  CHECK(p.cfg->max_spectators_per_room == 20);
  CHECK(p.cfg->trusted_proxies.empty());
  CHECK(p.cfg->allowed_origins.empty());
  for (const char* f : {"--max-connections", "--max-connections-per-address", "--rooms-per-address-per-minute",
                        "--live-rooms-per-address", "--identities-per-address", "--free-failed-joins",
                        "--max-spectators-per-room"}) {
    INFO(f);
    CHECK(parse({f, "0"}).exit_code == 2);
    auto one = parse({f, "1"});
    CHECK(one.exit_code == 0);
    CHECK(one.cfg);
  }
  auto lists = parse({"--trusted-proxy", "10.0.0.2, ::ffff:10.0.0.3,[2001:db8::1]", "--allowed-origin",
                      "https://Friends.Example/, http://localhost:5173"});
  REQUIRE(lists.cfg);
  CHECK(lists.cfg->trusted_proxies == std::vector<std::string>{"10.0.0.2", "10.0.0.3", "2001:db8::1"});
  CHECK(lists.cfg->allowed_origins == std::vector<std::string>{"https://friends.example", "http://localhost:5173"});
  CHECK(parse({"--trusted-proxy", "proxy.local"}).exit_code == 2);
  CHECK(parse({"--allowed-origin", "friends.example"}).exit_code == 2);
  CHECK(parse({"--allowed-origin", "https://friends.example/path"}).exit_code == 2);
  CHECK(parse({"--allowed-origin", "null"}).exit_code == 2);
}

TEST_CASE("metrics-bind: 127.0.0.1:9464 by default (best effort), ADDR:PORT or off, chosen ones required", "[config]") {
  env_vars.clear();
  auto p = parse({});
  REQUIRE(p.cfg);
  CHECK(p.cfg->metrics_address == "127.0.0.1");
  CHECK(p.cfg->metrics_port == 9464);
  CHECK_FALSE(p.cfg->metrics_required);
  auto any = parse({"--metrics-bind", "0.0.0.0:9100"});
  REQUIRE(any.cfg);
  CHECK(any.cfg->metrics_address == "0.0.0.0");
  CHECK(any.cfg->metrics_port == 9100);
  CHECK(any.cfg->metrics_required);
  auto v6 = parse({"--metrics-bind=[::1]:0"});
  REQUIRE(v6.cfg);
  CHECK(v6.cfg->metrics_address == "::1");
  CHECK(v6.cfg->metrics_port == 0);
  auto off = parse({"--metrics-bind", "off"});
  REQUIRE(off.cfg);
  CHECK(off.cfg->metrics_address.empty());
  env_vars = {{"TINSEL_METRICS_BIND", "off"}};
  auto env_off = parse({});
  REQUIRE(env_off.cfg);
  CHECK(env_off.cfg->metrics_address.empty());
  env_vars.clear();
  for (const char* bad : {"9464", ":9464", "localhost:9464", "::1:9464", "127.0.0.1:", "127.0.0.1:65536", "on"}) {
    INFO(bad);
    CHECK(parse({"--metrics-bind", bad}).exit_code == 2);
  }
}

TEST_CASE("healthcheck URL is a mode without an environment variable, the URL is checked when used", "[config]") {
  env_vars.clear();
  CHECK_FALSE(parse({}).cfg->healthcheck_url.has_value());
  auto p = parse({"--healthcheck", "http://127.0.0.1:8080/healthz"});
  REQUIRE(p.cfg);
  CHECK(p.cfg->healthcheck_url == "http://127.0.0.1:8080/healthz");
  auto eq = parse({"--healthcheck=not a url"});
  REQUIRE(eq.cfg);
  CHECK(eq.cfg->healthcheck_url == "not a url");
  CHECK(parse({"--healthcheck"}).exit_code == 2);
  CHECK(parse({"--help"}).output.find("--healthcheck URL") != std::string::npos);
}

TEST_CASE("grace periods that would hold a seat nobody can reclaim are refused with status 2, naming the flags", "[config][grace]") {
  env_vars.clear();
  // The defaults fit: lobby seat 60 s <= reconnection 600 s, the identity's life; empty room 300 s >= 60 s.
  REQUIRE(parse({}).cfg);
  CHECK_FALSE(conflicting_settings(config{}).has_value());

  // A lobby seat (and the host role) kept longer than the token lives.
  auto longer = parse({"--lobby-seat-grace-sec", "601"});
  CHECK(longer.exit_code == 2);
  CHECK_FALSE(longer.cfg);
  CHECK(longer.output.find("--lobby-seat-grace-sec (601 s)") != std::string::npos);
  CHECK(longer.output.find("--reconnect-grace-sec (600 s)") != std::string::npos);
  CHECK(parse({"--reconnect-grace-sec", "59"}).exit_code == 2);
  // Equal is fine: the seat is freed as the token expires.
  CHECK(parse({"--lobby-seat-grace-sec", "600", "--empty-room-grace-sec", "600"}).cfg);
  CHECK(parse({"--reconnect-grace-sec", "60"}).cfg);
  CHECK(parse({"--reconnect-grace-sec", "0", "--lobby-seat-grace-sec", "0"}).cfg);

  // An empty room removed while its players' seats are still promised to them.
  auto early = parse({"--empty-room-grace-sec", "59"});
  CHECK(early.exit_code == 2);
  CHECK(early.output.find("--empty-room-grace-sec (59 s)") != std::string::npos);
  CHECK(early.output.find("--lobby-seat-grace-sec (60 s)") != std::string::npos);
  CHECK(parse({"--empty-room-grace-sec", "0", "--lobby-seat-grace-sec", "0"}).cfg);
  CHECK(parse({"--empty-room-grace-sec", "60"}).cfg);

  // The environment counts as much as the flags, and a flag can settle what the environment set.
  env_vars = {{"TINSEL_LOBBY_SEAT_GRACE_SEC", "900"}};
  CHECK(parse({}).exit_code == 2);
  CHECK(parse({"--reconnect-grace-sec", "900", "--empty-room-grace-sec", "900"}).cfg);
  env_vars.clear();

  // Settings that hold no seat may be anything.
  CHECK(parse({"--idle-timeout-sec", "3600", "--away-delay-ms", "86400000", "--reconnect-grace-sec", "60"}).cfg);
}

TEST_CASE("journal postgres needs a connection string from --postgres or TINSEL_POSTGRES", "[config][postgres]") {
  env_vars.clear();
  auto missing = parse({"--journal", "postgres"});
  CHECK(missing.exit_code == 2);
  CHECK_FALSE(missing.cfg);
  CHECK(missing.output.find("--journal postgres needs --postgres CONNINFO") != std::string::npos);
  auto flag = parse({"--journal", "postgres", "--postgres", "host=/run/postgresql dbname=tinsel"});
  REQUIRE(flag.cfg);
  CHECK(flag.cfg->journal == "postgres");
  CHECK(flag.cfg->postgres == "host=/run/postgresql dbname=tinsel");
  env_vars = {{"TINSEL_JOURNAL", "postgres"}, {"TINSEL_POSTGRES", "postgresql://tinsel@db/tinsel"}};
  auto env = parse({});
  REQUIRE(env.cfg);
  CHECK(env.cfg->postgres == "postgresql://tinsel@db/tinsel");
  env_vars.clear();
  CHECK(parse({"--journal", "mysql"}).exit_code == 2);
  CHECK(parse({"--postgres", ""}).exit_code == 2);
  // SQLite stays the default, and needs no connection string.
  CHECK(parse({}).cfg->journal == "sqlite");
  const auto help = parse({"--help"}).output;
  CHECK(help.find("--postgres VALUE") != std::string::npos);
  CHECK(help.find("TINSEL_POSTGRES") != std::string::npos);
}
