#pragma once
#include <functional>
#include <memory>
#include <optional>
// What the server answers to one HTTP request, decided without sockets so that it can be tested
// and fuzzed alone: routing, static files, game records, /healthz, status codes, the Host and
// Origin checks and who the client is. http_session only reads and writes.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include <boost/beast/core/error.hpp>
#include <boost/beast/http/message.hpp>
#include <boost/beast/http/string_body.hpp>
#include <nlohmann/json.hpp>

#include "tinsel/server/config.hpp"

namespace tinsel::server {
class address_limits;
class rate_buckets;
class record_cache;
class static_files;
}

namespace tinsel::server {

using http_request = boost::beast::http::request<boost::beast::http::string_body>;

// Parser limits. Beast counts the request line in the header limit, so a long URL gets 431 too.
inline constexpr std::uint32_t http_header_limit = 8 * 1024;
inline constexpr std::uint64_t http_body_limit = 16 * 1024;  // we serve no uploads
inline constexpr std::size_t http_max_fields = 100;

// What a room code names, for the invite page and GET /rooms/<code> (docs/protocol.md, "Invite
// links").
struct room_peek {
  enum class found { open, unknown, unavailable } what = found::unknown;  // unavailable: set aside
  nlohmann::json summary;  // open: room::public_summary()
};

struct http_context {
  const config& cfg;
  std::string_view peer;  // the TCP peer's address
  bool stopping = false;
  std::size_t rooms = 0;        // for /healthz
  std::size_t connections = 0;  // for /healthz
  std::string_view journal = "off";  // for /healthz: sqlite, failing, off or unavailable
  // A finished game's record by id (GET /records/<id>), as compact JSON text; null when there is none.
  std::function<std::optional<std::string>(const std::string& id)> find_record = nullptr;
  // The static files in memory (gzip, ETag); null: files are streamed from disk as they are.
  static_files* files = nullptr;
  // The room a code names (thread-safe); null: every code is unknown.
  std::function<room_peek(const std::string& code)> find_room = nullptr;
  // Looking up a code that names no room counts against the address like a join_room miss
  // (join_wait, join_missed); null: not limited.
  address_limits* limits = nullptr;
  // Records ready to send (compressed once); null: loaded and compressed for each request.
  record_cache* records = nullptr;
  // Record downloads per client address; null: not limited.
  rate_buckets* record_downloads = nullptr;
  // Whether a record is still served (its days not over), asked before a kept copy is sent.
  std::function<bool(const std::string& id)> record_served = nullptr;
  std::string_view instance = {};  // for /healthz: cluster mode's instance id (empty outside)
  bool lease_valid = true;         // cluster mode: whether this instance may serve rooms now
};

struct http_answer {
  enum class action { respond, upgrade };
  action what = action::respond;
  unsigned status = 200;
  std::string content_type = "text/plain";
  std::string body;
  std::shared_ptr<const std::string> shared_body;  // when set: the body, shared (a cached record)
  std::string file;  // when not empty: a regular file whose content is the body
  std::uint64_t file_size = 0;
  std::string cache_control = "no-store";
  std::string etag;              // when not empty: the ETag header (static files, records)
  std::string content_encoding;  // "gzip" when body is compressed
  bool vary_encoding = false;    // Vary: Accept-Encoding (a static file that has a gzip copy)
  bool keep_alive = true;
  bool head = false;  // HEAD: headers only
  std::optional<long long> retry_after;  // seconds, for the Retry-After header (429)
  std::string client;  // the client's address key (address_limits.hpp)
  std::string log;     // when not empty: a line for the info log (a refused Origin or Host), at most one
                       // per address and interval (log_throttle)
};

// The answer to a parsed request: a response, or the go-ahead for a WebSocket upgrade.
http_answer route_http(const http_request& req, const http_context& ctx);
// The answer to a request the parser refused with `ec` (400, 413, 431, closing the connection),
// or `status == 0` when the connection just ends without one (end of stream, timeouts, resets).
http_answer parse_failure(boost::beast::error_code ec);
// Both from raw bytes, parsed with the same limits as a connection does: for the fuzzer.
http_answer answer_bytes(std::string_view bytes, const http_context& ctx);

// Whether Accept-Encoding allows gzip: listed (or "*") and not with q=0.
bool accepts_gzip(std::string_view accept_encoding);

// The WebSocket endpoints: /ws and (cluster mode routing, docs/protocol.md) /i/<instance>/ws, any
// instance id of 1 to 16 of a-z and 0-9; both with an optional query.
bool websocket_path(std::string_view target);
// The room a WebSocket URL names (`?room=CODE`, normalized like join_room's), or empty.
std::string room_param(std::string_view target);

// Whether the server answers to `host` (the Host header): the loopback names, IP address
// literals, and --server-name; any port. Other names are what a DNS rebinding attack sends.
bool host_allowed(std::string_view host, const config& cfg);

// The Origin rule (docs/protocol.md, "Origin"): `origin` as sent, `host` the Host header.
bool origin_allowed(std::string_view origin, std::string_view host, const config& cfg);

}  // namespace tinsel::server
