#include "tinsel/server/config.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <functional>
#include <sstream>
#include <stdexcept>

#include "limits/address_limits.hpp"

#ifndef TINSEL_VERSION
#define TINSEL_VERSION "0.0.0"
#endif
#ifndef TINSEL_DEFAULT_WEB_ROOT
#define TINSEL_DEFAULT_WEB_ROOT "clients/web"
#endif
#ifndef TINSEL_DEFAULT_LIB_ROOT
#define TINSEL_DEFAULT_LIB_ROOT "clients/js"
#endif

namespace tinsel::server {

std::string version_string() { return TINSEL_VERSION; }
std::string default_web_root() { return TINSEL_DEFAULT_WEB_ROOT; }
std::string default_lib_root() { return TINSEL_DEFAULT_LIB_ROOT; }

namespace {

template <class T>
bool parse_number(const std::string& s, T& out, T min, T max) {
  T v{};
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || p != s.data() + s.size() || v < min || v > max) return false;
  out = v;
  return true;
}

bool parse_ms_from_sec(const std::string& s, std::chrono::milliseconds& out) {
  long long sec = 0;
  if (!parse_number<long long>(s, sec, 0, 7 * 24 * 3600)) return false;
  out = std::chrono::seconds(sec);
  return true;
}

bool parse_ms(const std::string& s, std::chrono::milliseconds& out) {
  long long ms = 0;
  if (!parse_number<long long>(s, ms, 0, 24LL * 3600 * 1000)) return false;
  out = std::chrono::milliseconds(ms);
  return true;
}

bool parse_double(const std::string& s, double& out, double min, double max) {
  try {
    std::size_t used = 0;
    const double v = std::stod(s, &used);
    if (used != s.size() || !(v >= min && v <= max)) return false;
    out = v;
    return true;
  } catch (const std::exception&) {
    return false;
  }
}

// "a, b,c" -> {"a", "b", "c"}; empty items are dropped.
std::vector<std::string> split_list(const std::string& s) {
  std::vector<std::string> out;
  std::string item;
  std::istringstream in(s);
  while (std::getline(in, item, ',')) {
    item.erase(0, item.find_first_not_of(" \t"));
    item.erase(item.find_last_not_of(" \t") + 1);
    if (!item.empty()) out.push_back(item);
  }
  return out;
}

bool parse_addresses(const std::string& s, std::vector<std::string>& out) {
  out.clear();
  for (const auto& item : split_list(s)) {
    auto a = canonical_address(item);
    if (!a) return false;
    out.push_back(*a);
  }
  return true;
}

// Exact origins: a scheme, a host and an optional port, nothing else ("https://example.org").
bool parse_origins(const std::string& s, std::vector<std::string>& out) {
  out.clear();
  for (auto item : split_list(s)) {
    std::transform(item.begin(), item.end(), item.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    if (item.ends_with('/')) item.pop_back();
    const auto scheme_end = item.find("://");
    if (!(item.starts_with("http://") || item.starts_with("https://")) || item.size() == scheme_end + 3 ||
        item.find_first_of("/?#@ ", scheme_end + 3) != std::string::npos)
      return false;
    out.push_back(item);
  }
  return true;
}

// Host names for --server-name: "games.example.org", also given as "games.example.org:443" or
// "https://games.example.org" (as TINSEL_DOMAIN is written for Caddy): kept as the lower-case
// name alone. "*": any Host.
bool parse_server_names(const std::string& s, std::vector<std::string>& out) {
  out.clear();
  for (auto item : split_list(s)) {
    std::transform(item.begin(), item.end(), item.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    if (const auto scheme = item.find("://"); scheme != std::string::npos) {
      if (!item.starts_with("http://") && !item.starts_with("https://")) return false;
      item = item.substr(scheme + 3);
    }
    if (item.ends_with('/')) item.pop_back();
    if (item.starts_with('[')) {
      const auto close = item.find(']');
      if (close == std::string::npos) return false;
      item = item.substr(0, close + 1);
    } else if (const auto colon = item.find(':'); colon != std::string::npos) {
      item = item.substr(0, colon);
    }
    if (item.empty() || item.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789.-*[]:") != std::string::npos ||
        (item.find('*') != std::string::npos && item != "*"))
      return false;
    out.push_back(item);
  }
  return true;
}

// "ADDR:PORT" ("127.0.0.1:9464", "[::1]:9464", "0.0.0.0:0"), or "off".
bool parse_metrics_bind(const std::string& s, config& c) {
  c.metrics_required = true;
  if (s == "off") {
    c.metrics_address.clear();
    return true;
  }
  const auto colon = s.rfind(':');
  if (colon == std::string::npos || colon == 0) return false;
  std::string host = s.substr(0, colon);
  if (host.starts_with('[') && host.ends_with(']')) host = host.substr(1, host.size() - 2);
  else if (host.find(':') != std::string::npos) return false;  // IPv6 needs brackets
  if (!canonical_address(host)) return false;
  if (!parse_number<std::uint16_t>(s.substr(colon + 1), c.metrics_port, 0, 65535)) return false;
  c.metrics_address = host;
  return true;
}

struct flag {
  const char* name;  // without leading dashes
  const char* env;
  const char* help;
  std::function<bool(config&, const std::string&)> set;
};

// Process, logs and files served.
std::vector<flag> process_flags() {
  return {
      {"bind", "TINSEL_BIND", "address to listen on (default 127.0.0.1; 0.0.0.0 for all interfaces)",
       [](config& c, const std::string& v) { c.bind = v; return !v.empty(); }},
      {"port", "TINSEL_PORT", "TCP port for HTTP and WebSocket (default 8080; 0 picks a free one)",
       [](config& c, const std::string& v) { return parse_number<std::uint16_t>(v, c.port, 0, 65535); }},
      {"threads", "TINSEL_THREADS", "I/O threads (default: hardware threads)",
       [](config& c, const std::string& v) { return parse_number<unsigned>(v, c.threads, 1, 256); }},
      {"log-level", "TINSEL_LOG_LEVEL", "trace, debug, info, warn, error, critical or off (default info)",
       [](config& c, const std::string& v) {
         static const std::vector<std::string> ok{"trace", "debug", "info", "warn", "error", "critical", "off"};
         c.log_level = v;
         return std::find(ok.begin(), ok.end(), v) != ok.end();
       }},
      {"log-format", "TINSEL_LOG_FORMAT", "text (the default) or json: one JSON object per line, with time, level, message and each key=value as a field",
       [](config& c, const std::string& v) {
         c.log_format = v;
         return v == "text" || v == "json";
       }},
      {"metrics-bind", "TINSEL_METRICS_BIND", "ADDR:PORT of the Prometheus /metrics listener, apart from the public port, or off (default 127.0.0.1:9464)",
       [](config& c, const std::string& v) { return parse_metrics_bind(v, c); }},
      {"web-root", "TINSEL_WEB_ROOT", "folder of the browser client served at / (default: the source tree's clients/web)",
       [](config& c, const std::string& v) { c.web_root = v; return !v.empty(); }},
      {"lib-root", "TINSEL_LIB_ROOT", "folder of the JavaScript client library served at /lib/, which the browser client imports (default: the source tree's clients/js)",
       [](config& c, const std::string& v) { c.lib_root = v; return !v.empty(); }},
  };
}

// Where rooms and records are kept, and whether frames are compressed.
std::vector<flag> storage_flags() {
  return {
      {"journal", "TINSEL_JOURNAL", "sqlite (the default: rooms survive a restart or a crash, kept in DATA-DIR/tinsel.db), postgres (kept in the PostgreSQL database --postgres names; one instance per database) or off (rooms live in memory only)",
       [](config& c, const std::string& v) {
         c.journal = v;
         return v == "sqlite" || v == "postgres" || v == "off";
       }},
      {"postgres", "TINSEL_POSTGRES", "libpq connection string of the journal's database with --journal postgres, like 'host=/run/postgresql dbname=tinsel' or postgresql://tinsel@db/tinsel (a password is better in ~/.pgpass or PGPASSWORD); the server creates or migrates its tables at start",
       [](config& c, const std::string& v) { c.postgres = v; return !v.empty(); }},
      {"instance", "TINSEL_INSTANCE", "cluster mode: this instance's id (1 to 16 of a-z and 0-9, unique among the instances sharing the --postgres database; needs --journal postgres). Rooms then move between instances (docs/operations.md, \"Cluster mode\")",
       [](config& c, const std::string& v) {
         c.instance = v;
         return !v.empty() && v.size() <= 16 && v.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789") == std::string::npos;
       }},
      {"lease-ms", "TINSEL_LEASE_MS", "cluster mode: how long one renewal keeps this instance's rooms its own, in ms (default 5000); past it another instance takes them over",
       [](config& c, const std::string& v) { return parse_ms(v, c.lease) && c.lease.count() >= 200; }},
      {"renew-ms", "TINSEL_RENEW_MS", "cluster mode: how often the lease is renewed, in ms (default 1000; well under --lease-ms)",
       [](config& c, const std::string& v) { return parse_ms(v, c.renew) && c.renew.count() >= 50; }},
      {"data-dir", "TINSEL_DATA_DIR", "folder of the journal database, created if missing (default: data, in the working directory)",
       [](config& c, const std::string& v) { c.data_dir = v; return !v.empty(); }},
      {"deflate", "TINSEL_DEFLATE", "on or off (the default): compress WebSocket frames for clients that offer permessage-deflate",
       [](config& c, const std::string& v) {
         c.deflate = v == "on";
         return v == "on" || v == "off";
       }},
      {"durability", "TINSEL_DURABILITY", "process (the default: what was acknowledged survives a crash or kill -9 of the server) or power (also a power loss, or a crash of PostgreSQL; an fsync per commit, synchronous_commit=on)",
       [](config& c, const std::string& v) {
         c.durability = v;
         return v == "process" || v == "power";
       }},
      {"keep-records-days", "TINSEL_KEEP_RECORDS_DAYS", "days finished games' records are kept for download (default 90; 0: for ever)",
       [](config& c, const std::string& v) { return parse_number<int>(v, c.keep_records_days, 0, 100000); }},
  };
}

// What one WebSocket connection may send and be sent.
std::vector<flag> connection_flags() {
  return {
      {"max-frame-bytes", "TINSEL_MAX_FRAME_BYTES", "largest accepted client frame; larger ones get frame_too_large (default 8192)",
       [](config& c, const std::string& v) { return parse_number<std::size_t>(v, c.limits.max_frame_bytes, 256, 1 << 20); }},
      {"write-queue-messages", "TINSEL_WRITE_QUEUE_MESSAGES", "outgoing messages queued per connection before it is closed as too slow (default 256)",
       [](config& c, const std::string& v) { return parse_number<std::size_t>(v, c.write_queue_messages, 8, 1 << 20); }},
      {"hard-frame-bytes", "TINSEL_HARD_FRAME_BYTES", "frames beyond this are not read: the connection is closed with 1009 (default 65536)",
       [](config& c, const std::string& v) { return parse_number<std::size_t>(v, c.hard_frame_bytes, 1024, 16 << 20); }},
      {"write-queue-bytes", "TINSEL_WRITE_QUEUE_BYTES", "outgoing bytes queued per connection before it is closed as too slow (default 4194304)",
       [](config& c, const std::string& v) { return parse_number<std::size_t>(v, c.write_queue_bytes, 64 << 10, 1ull << 32); }},
      {"rate-per-sec", "TINSEL_RATE_PER_SEC", "requests per second per connection before rate_limited (default 20)",
       [](config& c, const std::string& v) { return parse_double(v, c.rate_per_sec, 0.1, 1e6); }},
      {"rate-burst", "TINSEL_RATE_BURST", "requests a connection may send at once (default 40)",
       [](config& c, const std::string& v) { return parse_double(v, c.rate_burst, 1, 1e6); }},
      {"rate-close-after", "TINSEL_RATE_CLOSE_AFTER", "refused requests in a row that close the connection with 4029 (default 200)",
       [](config& c, const std::string& v) { return parse_number<int>(v, c.rate_close_after, 1, 1 << 20); }},
      {"idle-timeout-sec", "TINSEL_IDLE_TIMEOUT_SEC", "a connection silent this long (no frame, no pong) is closed; pings go out at half of it (default 60)",
       [](config& c, const std::string& v) { return parse_ms_from_sec(v, c.idle_timeout) && c.idle_timeout.count() > 0; }},
  };
}

// Rooms: history, bots, away players, grace periods.
std::vector<flag> room_flags() {
  return {
      {"history-states", "TINSEL_HISTORY_STATES", "states kept per room for resuming clients (default 256)",
       [](config& c, const std::string& v) { return parse_number<std::size_t>(v, c.history_states, 1, 1 << 16); }},
      {"game-log-events", "TINSEL_GAME_LOG_EVENTS", "events of the current game kept per room for a joiner's log; older ones are dropped (default 2000)",
       [](config& c, const std::string& v) { return parse_number<std::size_t>(v, c.game_log_events, 1, 1 << 20); }},
      {"auto-play-delay-ms", "TINSEL_AUTO_PLAY_DELAY_MS", "pause before a bot, or the bot standing in for a player who left, moves (default 1000)",
       [](config& c, const std::string& v) { return parse_ms(v, c.auto_play_delay); }},
      {"away-after-timeouts", "TINSEL_AWAY_AFTER_TIMEOUTS", "consecutive timeouts that mark a player away (default 2)",
       [](config& c, const std::string& v) { return parse_number<int>(v, c.away_after_timeouts, 1, 100); }},
      {"away-delay-ms", "TINSEL_AWAY_DELAY_MS", "an away player's prompts resolve by default after this (default 3000)",
       [](config& c, const std::string& v) { return parse_ms(v, c.away_delay); }},
      {"max-bots-per-room", "TINSEL_MAX_BOTS_PER_ROOM", "bots the host may seat in one room (default 5)",
       [](config& c, const std::string& v) { return parse_number<int>(v, c.max_bots_per_room, 0, 64); }},
      {"empty-room-grace-sec", "TINSEL_EMPTY_ROOM_GRACE_SEC", "seconds an empty room is kept before it is removed (default 300)",
       [](config& c, const std::string& v) { return parse_ms_from_sec(v, c.empty_room_grace); }},
      {"reconnect-grace-sec", "TINSEL_RECONNECT_GRACE_SEC", "seconds a disconnected player keeps a seat in a running game before its prompts resolve by default (default 600)",
       [](config& c, const std::string& v) { return parse_ms_from_sec(v, c.reconnect_grace); }},
      {"lobby-seat-grace-sec", "TINSEL_LOBBY_SEAT_GRACE_SEC", "seconds a disconnected player keeps a seat outside a game, and a disconnected host the host role (default 60)",
       [](config& c, const std::string& v) { return parse_ms_from_sec(v, c.lobby_seat_grace); }},
  };
}

// Limits per client address (docs/operations.md, "Limits per address").
std::vector<flag> address_flags() {
  return {
      // Each at least 1 (set one high to lift it, e.g. for benchmarks).
      {"max-connections", "TINSEL_MAX_CONNECTIONS", "WebSocket connections in total; beyond, the upgrade gets HTTP 503 (default 20000; at least 1)",
       [](config& c, const std::string& v) { return parse_number<std::size_t>(v, c.max_connections, 1, 10'000'000); }},
      {"max-connections-per-address", "TINSEL_MAX_CONNECTIONS_PER_ADDRESS", "WebSocket connections per client address; beyond, the upgrade gets HTTP 503 (default 64; at least 1)",
       [](config& c, const std::string& v) { return parse_number<std::size_t>(v, c.max_connections_per_address, 1, 10'000'000); }},
      {"rooms-per-address-per-minute", "TINSEL_ROOMS_PER_ADDRESS_PER_MINUTE", "rooms one address may create per minute; beyond, too_many_rooms (default 10; at least 1)",
       [](config& c, const std::string& v) { return parse_number<int>(v, c.rooms_per_address_per_minute, 1, 10'000'000); }},
      {"live-rooms-per-address", "TINSEL_LIVE_ROOMS_PER_ADDRESS", "rooms created by one address that may be open at once; beyond, too_many_rooms (default 20; at least 1)",
       [](config& c, const std::string& v) { return parse_number<int>(v, c.live_rooms_per_address, 1, 10'000'000); }},
      {"identities-per-address", "TINSEL_IDENTITIES_PER_ADDRESS", "players (hello without a valid token) one address may hold; beyond, too_many_identities (default 64; at least 1)",
       [](config& c, const std::string& v) { return parse_number<int>(v, c.identities_per_address, 1, 10'000'000); }},
      {"free-failed-joins", "TINSEL_FREE_FAILED_JOINS", "join_room misses (unknown codes) per address before each attempt waits 1 s, 2 s, 4 s, ... up to 1 h (too_many_attempts) (default 3; at least 1)",
       [](config& c, const std::string& v) { return parse_number<int>(v, c.free_failed_joins, 1, 10'000'000); }},
      {"free-failed-joins-per-48", "TINSEL_FREE_FAILED_JOINS_PER_48", "join_room misses per IPv6 /48 (all its /64s together) before each attempt from it waits 1 s, 2 s, 4 s, ... up to --max-join-wait-per-48-sec (default 32; at least 1)",
       [](config& c, const std::string& v) { return parse_number<int>(v, c.free_failed_joins_per_48, 1, 10'000'000); }},
      {"max-join-wait-per-48-sec", "TINSEL_MAX_JOIN_WAIT_PER_48_SEC", "the longest wait of an IPv6 /48 after failed joins (default 600; at least 1)",
       [](config& c, const std::string& v) {
         long long s = 0;
         if (!parse_number<long long>(v, s, 1, 24 * 3600)) return false;
         c.max_join_wait_per_48 = std::chrono::seconds(s);
         return true;
       }},
      {"join-bytes-per-sec", "TINSEL_JOIN_BYTES_PER_SEC", "bytes per second that join_room answers may send one address, in the long run (default 16384; at least 1)",
       [](config& c, const std::string& v) { return parse_number<std::size_t>(v, c.join_bytes_per_sec, 1, 1ull << 40); }},
      {"join-bytes-burst", "TINSEL_JOIN_BYTES_BURST", "bytes that join_room answers may send one address at once; beyond, joins come without chat_history and game_log, then get rate_limited (default 8388608; at least 1)",
       [](config& c, const std::string& v) { return parse_number<std::size_t>(v, c.join_bytes_burst, 1, 1ull << 40); }},
      {"max-spectators-per-room", "TINSEL_MAX_SPECTATORS_PER_ROOM", "spectators one room may have; beyond, too_many_spectators (default 20; at least 1)",
       [](config& c, const std::string& v) { return parse_number<int>(v, c.max_spectators_per_room, 1, 10'000'000); }},
      {"max-tcp-connections-per-address", "TINSEL_MAX_TCP_CONNECTIONS_PER_ADDRESS", "TCP connections (plain HTTP and WebSocket) open at once per client address, counted at accept; beyond, closed at once; trusted proxies are not counted (default 128; at least 1)",
       [](config& c, const std::string& v) { return parse_number<std::size_t>(v, c.max_tcp_connections_per_address, 1, 10'000'000); }},
      {"connections-per-address-per-sec", "TINSEL_CONNECTIONS_PER_ADDRESS_PER_SEC", "new TCP connections per second per client address; beyond, closed at once; trusted proxies exempt (default 20)",
       [](config& c, const std::string& v) { return parse_double(v, c.connections_per_address_per_sec, 0.1, 1e7); }},
      {"connection-burst-per-address", "TINSEL_CONNECTION_BURST_PER_ADDRESS", "new TCP connections one client address may open at once before --connections-per-address-per-sec applies (default 200; at least 1)",
       [](config& c, const std::string& v) { return parse_double(v, c.connection_burst_per_address, 1, 1e7); }},
      {"http-idle-timeout-sec", "TINSEL_HTTP_IDLE_TIMEOUT_SEC", "a plain HTTP connection with no request under way (before the first, between keep-alive requests) is closed after this long (default 15; at least 1)",
       [](config& c, const std::string& v) { return parse_ms_from_sec(v, c.http_idle_timeout) && c.http_idle_timeout.count() > 0; }},
      {"record-downloads-per-address-per-minute", "TINSEL_RECORD_DOWNLOADS_PER_ADDRESS_PER_MINUTE", "GET /records/<id> per client address per minute (bursts of as many); beyond, 429 with Retry-After (default 30)",
       [](config& c, const std::string& v) { return parse_double(v, c.record_downloads_per_address_per_minute, 1, 1e7); }},
      {"record-cache-bytes", "TINSEL_RECORD_CACHE_BYTES", "bytes of gzip-compressed game records kept in memory, most recently used first (default 33554432; 0: none)",
       [](config& c, const std::string& v) { return parse_number<std::size_t>(v, c.record_cache_bytes, 0, 1ull << 34); }},
  };
}

// Who may reach the server: host names, proxies, web origins.
std::vector<flag> origin_flags() {
  return {
      {"server-name", "TINSEL_SERVER_NAME", "comma-separated host names the server answers to (like games.example.org), besides localhost and IP addresses; * for any; requests with another Host get 421 (default: none)",
       [](config& c, const std::string& v) { return parse_server_names(v, c.server_names); }},
      {"trusted-proxy", "TINSEL_TRUSTED_PROXY", "comma-separated addresses of reverse proxies whose X-Forwarded-For names the client (default: none, the header is ignored)",
       [](config& c, const std::string& v) { return parse_addresses(v, c.trusted_proxies); }},
      {"allowed-origin", "TINSEL_ALLOWED_ORIGIN", "comma-separated web origins (like https://example.org) allowed to open a WebSocket besides the server's own (default: none)",
       [](config& c, const std::string& v) { return parse_origins(v, c.allowed_origins); }},
  };
}

// Every flag, in the order --help lists them.
std::vector<flag> flags() {
  std::vector<flag> all;
  for (auto group : {process_flags, storage_flags, connection_flags, room_flags, address_flags, origin_flags})
    for (auto& f : group()) all.push_back(std::move(f));
  return all;
}

std::string usage() {
  std::ostringstream o;
  o << "tinsel-server " << version_string() << ": Christmas board games for families far apart\n\n"
    << "Usage: tinsel-server [options]\n\nOptions (each also settable through the environment variable shown):\n";
  for (const auto& f : flags()) o << "  --" << f.name << " VALUE   [" << f.env << "]\n      " << f.help << "\n";
  o << "  --healthcheck URL\n      GET the URL (plain http://HOST[:PORT]/PATH) and exit 0 on 200, 1 otherwise, within 5 s; for\n"
       "      container health checks (HEALTHCHECK CMD tinsel-server --healthcheck http://127.0.0.1:8080/healthz)\n";
  o << "  --help       show this text\n  --version    print the version\n";
  return o.str();
}

// The settings of the environment variables: nullopt, or what to print for the first invalid one.
std::optional<std::string> read_environment(const std::vector<flag>& all, config& cfg,
                                            const char* (*getenv_fn)(const char*)) {
  for (const auto& f : all) {
    const char* v = getenv_fn ? getenv_fn(f.env) : nullptr;
    if (v && *v && !f.set(cfg, v)) return std::string("invalid value '") + v + "' in " + f.env + "\n";
  }
  return std::nullopt;
}

// "--healthcheck URL" or "--healthcheck=URL" at args[i] (i moves past a separate URL): nullopt,
// or what to print. A mode, not a setting: no environment variable. The URL is checked when it is
// used, so that a container health check reports a bad one as unhealthy (1), not as status 2
// (which Docker reserves).
std::optional<std::string> read_healthcheck(const std::vector<std::string>& args, std::size_t& i, config& cfg) {
  const std::string& a = args[i];
  if (a.size() > 13)
    cfg.healthcheck_url = a.substr(14);
  else if (i + 1 < args.size())
    cfg.healthcheck_url = args[++i];
  else
    return "option --healthcheck needs a URL\n";
  return std::nullopt;
}

// "--name VALUE" or "--name=VALUE" at args[i] (i moves past a separate VALUE): nullopt, or what to
// print.
std::optional<std::string> read_flag(const std::vector<flag>& all, const std::vector<std::string>& args, std::size_t& i,
                                     config& cfg) {
  std::string a = args[i];
  std::string value;
  bool has_value = false;
  if (auto eq = a.find('='); eq != std::string::npos) {
    value = a.substr(eq + 1);
    a = a.substr(0, eq);
    has_value = true;
  }
  const flag* match = nullptr;
  for (const auto& f : all)
    if (a == std::string("--") + f.name) match = &f;
  if (!match) return "unknown option '" + a + "'\n\n" + usage();
  if (!has_value) {
    if (i + 1 >= args.size()) return "option " + a + " needs a value\n";
    value = args[++i];
  }
  if (!match->set(cfg, value)) return "invalid value '" + value + "' for " + a + "\n";
  return std::nullopt;
}

}  // namespace

parsed_args parse_args(const std::vector<std::string>& args, const char* (*getenv_fn)(const char*)) {
  parsed_args out;
  const auto fail = [&out](std::string why) {
    out.exit_code = 2;
    out.output = std::move(why);
    return out;
  };
  config cfg;
  const auto all = flags();
  if (auto why = read_environment(all, cfg, getenv_fn)) return fail(*why);
  for (std::size_t i = 1; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a == "--help" || a == "-h") {
      out.output = usage();
      return out;
    }
    if (a == "--version") {
      out.output = "tinsel-server " + version_string() + "\n";
      return out;
    }
    const bool healthcheck = a == "--healthcheck" || a.starts_with("--healthcheck=");
    if (auto why = healthcheck ? read_healthcheck(args, i, cfg) : read_flag(all, args, i, cfg)) return fail(*why);
  }
  if (auto why = conflicting_settings(cfg)) return fail(*why + "\n");
  out.cfg = cfg;
  return out;
}

std::optional<std::string> conflicting_settings(const config& c) {
  if (c.journal == "postgres" && c.postgres.empty())
    return "--journal postgres needs --postgres CONNINFO (or TINSEL_POSTGRES): the libpq connection string of its database";
  if (!c.instance.empty() && c.journal != "postgres")
    return "--instance (cluster mode) needs --journal postgres and --postgres CONNINFO: the instances share that database";
  if (!c.instance.empty() && c.renew * 3 > c.lease)
    return "--renew-ms must be at most a third of --lease-ms, so that a lease survives a late renewal";
  const auto sec = [](std::chrono::milliseconds ms) { return std::to_string(ms.count() / 1000) + " s"; };
  // A player's token is known for the reconnection grace after its last connection closed (the
  // server forgets the identity then). A seat or host role kept for a disconnected player longer
  // than that would wait for someone who can no longer come back as that player.
  if (c.lobby_seat_grace > c.reconnect_grace)
    return "--lobby-seat-grace-sec (" + sec(c.lobby_seat_grace) + ") is longer than --reconnect-grace-sec (" +
           sec(c.reconnect_grace) +
           "): a player's token is forgotten at the end of the reconnection grace, so a lobby seat (or the host role) "
           "would be held for someone who can no longer claim it; make --lobby-seat-grace-sec at most --reconnect-grace-sec";
  // A room nobody is connected to is removed after the empty-room grace; a disconnected player's
  // lobby seat is promised for the lobby seat grace. A lone player reloading the page would find the
  // room gone before the seat's promise ran out.
  if (c.empty_room_grace < c.lobby_seat_grace)
    return "--empty-room-grace-sec (" + sec(c.empty_room_grace) + ") is shorter than --lobby-seat-grace-sec (" +
           sec(c.lobby_seat_grace) +
           "): a room whose players all dropped would be removed while their seats are still promised to them; make "
           "--empty-room-grace-sec at least --lobby-seat-grace-sec";
  return std::nullopt;
}

}  // namespace tinsel::server
