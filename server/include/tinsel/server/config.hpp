#pragma once
// Every server setting and limit, with its default, in one place. Each has a flag and an
// environment variable (TINSEL_<NAME>); flags win over the environment. docs/operations.md lists them.
#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "tinsel/protocol/limits.hpp"

namespace tinsel::server {

// The source tree's clients/web, fixed at build time.
std::string default_web_root();
// The source tree's clients/js (the client library, served at /lib/), fixed at build time.
std::string default_lib_root();

struct config {
  std::string bind = "127.0.0.1";
  std::uint16_t port = 8080;
  unsigned threads = 0;  // 0: hardware threads
  std::string log_level = "info";
  std::string log_format = "text";  // or "json": one object per line (server/src/ops/log_format.hpp)
  std::string web_root = default_web_root();
  std::string lib_root = default_lib_root();  // served under /lib/ (the browser client imports it)
  // Durable rooms (docs/operations.md, "The journal"): "sqlite" keeps every room in
  // <data_dir>/tinsel.db and brings it back after a restart; "postgres" keeps them in the
  // PostgreSQL database `postgres` names (one instance per database); "off" keeps rooms in memory only.
  std::string journal = "sqlite";
  std::string data_dir = "data";  // relative to the working directory
  std::string postgres;           // a libpq connection string (--journal postgres)
  // Cluster mode (docs/operations.md, "Cluster mode"; ../design CLUSTER.md): this instance's id
  // among those sharing the PostgreSQL journal; empty: one instance, no leases. `lease`: how long
  // a renewal keeps the instance's rooms its own; `renew`: how often it renews (on its own thread).
  std::string instance;
  std::chrono::milliseconds lease{5000};
  std::chrono::milliseconds renew{1000};
  // "process": a commit survives the server's crash or kill -9 (SQLite synchronous=NORMAL;
  // PostgreSQL synchronous_commit=off); "power": also a power loss (synchronous=FULL, an fsync per
  // commit; synchronous_commit=on).
  std::string durability = "process";
  // WebSocket permessage-deflate (RFC 7692) for clients that offer it (browsers do): fewer bytes on
  // a phone's line for some CPU and memory per connection (docs/operations.md, "Compression").
  bool deflate = false;
  int keep_records_days = 90;  // finished games' records; 0 keeps them for ever

  protocol::limits limits;
  // Frames beyond this are not even buffered: the connection is closed with 1009.
  std::size_t hard_frame_bytes = 64 * 1024;
  // A client whose outgoing queue exceeds either bound is closed with 4008 (too slow).
  std::size_t write_queue_messages = 256;
  std::size_t write_queue_bytes = 4 * 1024 * 1024;
  std::chrono::milliseconds empty_room_grace{5 * 60 * 1000};
  // WebSocket heartbeat: a peer silent this long is dropped; Beast pings at half of it.
  std::chrono::milliseconds idle_timeout{60 * 1000};
  // A seat the server plays (a bot, or a player who left for good) moves after this pause.
  std::chrono::milliseconds auto_play_delay{1000};
  // Rulebook C5: after this many consecutive timeouts a player is away, and their prompts resolve
  // by default after away_delay.
  int away_after_timeouts = 2;
  std::chrono::milliseconds away_delay{3000};
  // States kept per room for resuming clients; older gaps get a full resync.
  std::size_t history_states = 256;
  // Events of the current game kept per room for the game_log push (a joiner's log from the game's
  // start); beyond, the oldest are dropped and the push says `truncated`. Whole games of server
  // bots at default options had up to ~140 events (Happy Holidays), ~890 (Unterm Baum, 6 players)
  // and ~1,700 (Christmas Penguins, 6 players), about 90 KB of JSON.
  std::size_t game_log_events = 2000;
  // Per-connection token bucket: `rate_per_sec` requests per second, bursts up to `rate_burst`.
  // Excess requests get rate_limited; `rate_close_after` refused in a row close with 4029.
  double rate_per_sec = 20;
  double rate_burst = 40;
  int rate_close_after = 200;
  // Bots one room may seat.
  int max_bots_per_room = 5;
  // A disconnected seat keeps its place this long; its prompts then resolve by default.
  std::chrono::milliseconds reconnect_grace{10 * 60 * 1000};
  // Outside a game (lobby, results) a disconnected player keeps the seat this long, and a
  // disconnected host (in a game too) the host role, so a reload or a locked phone does not cost
  // the place at the table.
  std::chrono::milliseconds lobby_seat_grace{60 * 1000};

  // Limits per client address (the TCP peer, or X-Forwarded-For behind a trusted proxy; IPv6
  // addresses count per /64 network, the share of one home). Each is at least 1.
  // WebSocket sessions, in total and per address; beyond either the upgrade gets HTTP 503.
  std::size_t max_connections = 20000;
  std::size_t max_connections_per_address = 64;
  // create_room beyond either gets too_many_rooms; a room counts as live until it closes or expires.
  int rooms_per_address_per_minute = 10;
  int live_rooms_per_address = 20;
  // Identities (hello without a valid token) an address holds; beyond: too_many_identities.
  int identities_per_address = 64;
  // join_room with unknown codes: this many misses are free, then each attempt waits 2^(misses -
  // free) seconds, up to an hour (too_many_attempts). docs/operations.md has the arithmetic.
  int free_failed_joins = 3;
  // The same per IPv6 /48 (all its /64s together), with more free misses and a shorter longest
  // wait: one noisy /64 alone never makes the rest of its /48 wait, and a /48 that is guessed from
  // waits at most this long per attempt.
  int free_failed_joins_per_48 = 32;
  std::chrono::seconds max_join_wait_per_48{600};
  // Bytes a join_room sends (room, chat_history, game_log, the answering state), per address: a
  // token bucket of join_bytes_per_sec, bursts up to join_bytes_burst. A join the budget cannot pay
  // for in full is served without its histories; one from an address in debt gets rate_limited.
  std::size_t join_bytes_per_sec = 16 * 1024;
  std::size_t join_bytes_burst = 8 * 1024 * 1024;
  // Spectators one room may have; beyond: too_many_spectators.
  int max_spectators_per_room = 20;
  // TCP connections of any kind (plain HTTP and WebSocket) per peer address, counted at accept
  // before a byte is read; beyond, the connection is closed at once. A trusted proxy's own
  // connections are not counted here (they carry many clients; the limits above still count each
  // client by X-Forwarded-For once its request is read).
  std::size_t max_tcp_connections_per_address = 128;
  // New TCP connections per peer address: a token bucket of `connections_per_address_per_sec`,
  // bursts up to `connection_burst_per_address`; beyond, closed at once (trusted proxies exempt).
  double connections_per_address_per_sec = 20;
  double connection_burst_per_address = 200;
  // A plain HTTP connection with no request under way (before its first, between keep-alive
  // requests) is closed after this long.
  std::chrono::milliseconds http_idle_timeout{15 * 1000};
  // GET /records/<id> per client address: a token bucket of this many per minute (bursts of as
  // many); beyond, 429 with Retry-After.
  double record_downloads_per_address_per_minute = 30;
  // Finished games' records kept gzip-compressed in memory, most recently used first (bytes).
  std::size_t record_cache_bytes = 32 * 1024 * 1024;
  // Host names (lower case, no port) this server answers to besides the loopback names
  // (localhost, 127.0.0.1, [::1]) and IP address literals; "*": any Host. A request with another
  // Host gets 421 (DNS rebinding: docs/operations.md, "Host names").
  std::vector<std::string> server_names;
  // TCP peers whose X-Forwarded-For names the client (canonical address text); empty: none.
  std::vector<std::string> trusted_proxies;
  // Web origins (lower case, like https://example.org) that may open a WebSocket besides the
  // server's own origin and loopback development origins.
  std::vector<std::string> allowed_origins;
  // The metrics listener (GET /metrics, Prometheus text format), on an address of its own so that
  // the public port never shows it. Empty address: off (--metrics-bind off). The default address is
  // taken if it is free (a warning otherwise, so that a second server on one machine still starts);
  // an address given with --metrics-bind that cannot be bound is a start-up error.
  std::string metrics_address = "127.0.0.1";
  std::uint16_t metrics_port = 9464;
  bool metrics_required = false;
  // --healthcheck URL: instead of serving, GET the URL and exit 0 on 200, 1 otherwise (ops/healthcheck.hpp).
  std::optional<std::string> healthcheck_url;
  std::chrono::milliseconds shutdown_grace{3000};
  bool handle_signals = true;
};

struct parsed_args {
  std::optional<config> cfg;  // empty when the program should exit (help, version, error)
  int exit_code = 0;
  std::string output;         // text for stdout (help/version) or stderr (error)
};

// argv and an environment lookup; pure so it can be tested. Settings that contradict each other
// (conflicting_settings) are refused like a bad value: exit code 2 and a message.
parsed_args parse_args(const std::vector<std::string>& args, const char* (*getenv_fn)(const char*));

// Why these settings contradict each other (naming the flags), or nothing: grace periods that would
// hold a seat for a player who can no longer reclaim it (docs/operations.md, "Grace periods").
std::optional<std::string> conflicting_settings(const config& c);

std::string version_string();

}  // namespace tinsel::server
