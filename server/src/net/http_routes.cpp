#include "net/http_routes.hpp"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <iterator>

#include <boost/asio/buffer.hpp>
#include <boost/beast/http/error.hpp>
#include <boost/beast/http/parser.hpp>
#include <boost/beast/websocket/rfc6455.hpp>
#include <nlohmann/json.hpp>

#include <arpa/inet.h>

#include "limits/address_limits.hpp"
#include "limits/rate_buckets.hpp"
#include "net/invite_page.hpp"
#include "net/record_cache.hpp"
#include "net/static_files.hpp"
#include "tinsel/protocol/messages.hpp"

namespace tinsel::server {

namespace http = boost::beast::http;

namespace {

std::string_view mime_type(std::string_view path) {
  const auto dot = path.rfind('.');
  const auto ext = dot == std::string_view::npos ? std::string_view{} : path.substr(dot);
  if (ext == ".html") return "text/html; charset=utf-8";
  if (ext == ".js" || ext == ".mjs") return "text/javascript; charset=utf-8";
  if (ext == ".css") return "text/css; charset=utf-8";
  if (ext == ".json" || ext == ".webmanifest") return "application/json";
  if (ext == ".svg") return "image/svg+xml";
  if (ext == ".png") return "image/png";
  if (ext == ".ico") return "image/x-icon";
  if (ext == ".woff2") return "font/woff2";
  if (ext == ".txt" || ext == ".md") return "text/plain; charset=utf-8";
  return "application/octet-stream";
}

// Maps a request target to a file under the web root, or "" if it must not be served.
std::string static_path(std::string_view target) {
  if (auto q = target.find('?'); q != std::string_view::npos) target = target.substr(0, q);
  if (target.empty() || target[0] != '/') return {};
  // The invite and watch links (/r/, /watch/) are answered by route_invite.
  if (target == "/") return "/index.html";
  if (target.find("..") != std::string_view::npos || target.find('\\') != std::string_view::npos ||
      target.find('\0') != std::string_view::npos || target.find("//") != std::string_view::npos)
    return {};
  return std::string(target);
}

std::string lower(std::string_view s) {
  std::string out(s);
  std::transform(out.begin(), out.end(), out.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return out;
}

struct host_port {
  std::string host;  // "example.org", "127.0.0.1", "[::1]"
  std::string port;  // "" when not given
};

host_port split_host(std::string_view hp) {
  if (hp.starts_with('[')) {
    const auto close = hp.find(']');
    if (close == std::string_view::npos) return {std::string(hp), ""};
    const auto rest = hp.substr(close + 1);
    return {std::string(hp.substr(0, close + 1)), std::string(rest.starts_with(':') ? rest.substr(1) : rest)};
  }
  const auto colon = hp.rfind(':');
  if (colon == std::string_view::npos) return {std::string(hp), ""};
  return {std::string(hp.substr(0, colon)), std::string(hp.substr(colon + 1))};
}

// Types worth compressing: text. Images and fonts are compressed already.
bool compressible(std::string_view type) {
  return type.starts_with("text/") || type.starts_with("application/json") || type == "image/svg+xml";
}

}  // namespace

bool accepts_gzip(std::string_view header) {
  const std::string h = lower(header);
  for (std::size_t start = 0; start <= h.size();) {
    auto end = h.find(',', start);
    if (end == std::string::npos) end = h.size();
    std::string_view item = std::string_view(h).substr(start, end - start);
    start = end + 1;
    while (!item.empty() && item.front() == ' ') item.remove_prefix(1);
    const auto semi = item.find(';');
    std::string_view coding = item.substr(0, semi);
    while (!coding.empty() && coding.back() == ' ') coding.remove_suffix(1);
    if (coding != "gzip" && coding != "*") continue;
    if (semi == std::string_view::npos) return true;
    std::string params(item.substr(semi + 1));
    params.erase(std::remove(params.begin(), params.end(), ' '), params.end());
    return !(params.starts_with("q=0") && params.find_first_not_of("q=0.", 0) == std::string::npos);
  }
  return false;
}

namespace {

// Whether If-None-Match names `etag` (a list of tags, weak ones compared weakly, or "*").
bool etag_matches(std::string_view header, const std::string& etag) {
  for (std::size_t start = 0; start < header.size();) {
    auto end = header.find(',', start);
    if (end == std::string_view::npos) end = header.size();
    std::string_view tag = header.substr(start, end - start);
    start = end + 1;
    while (!tag.empty() && tag.front() == ' ') tag.remove_prefix(1);
    while (!tag.empty() && tag.back() == ' ') tag.remove_suffix(1);
    if (tag.starts_with("W/")) tag.remove_prefix(2);
    if (tag == "*" || tag == etag) return true;
  }
  return false;
}

bool loopback_host(std::string_view h) { return h == "localhost" || h == "127.0.0.1" || h == "[::1]"; }

http_answer text(unsigned status, std::string body, bool keep_alive) {
  http_answer a;
  a.status = status;
  a.body = std::move(body);
  a.keep_alive = keep_alive;
  return a;
}

}  // namespace

bool host_allowed(std::string_view host, const config& cfg) {
  const auto name = split_host(lower(host)).host;
  if (name.empty()) return false;
  if (loopback_host(name)) return true;
  // An address literal names no DNS entry, so no rebinding: a page whose origin is an address was
  // served from that address, that is by this server.
  in_addr v4{};
  in6_addr v6{};
  if (::inet_pton(AF_INET, name.c_str(), &v4) == 1) return true;
  if (name.size() > 2 && name.front() == '[' && name.back() == ']' &&
      ::inet_pton(AF_INET6, name.substr(1, name.size() - 2).c_str(), &v6) == 1)
    return true;
  return std::any_of(cfg.server_names.begin(), cfg.server_names.end(),
                     [&](const std::string& n) { return n == "*" || n == name; });
}

bool origin_allowed(std::string_view origin, std::string_view host, const config& cfg) {
  const auto o = lower(origin);
  if (std::find(cfg.allowed_origins.begin(), cfg.allowed_origins.end(), o) != cfg.allowed_origins.end()) return true;
  const bool http_scheme = o.starts_with("http://");
  if (!http_scheme && !o.starts_with("https://")) return false;  // also "null"
  const std::string_view rest = std::string_view(o).substr(http_scheme ? 7 : 8);
  if (rest.empty() || rest.find_first_of("/?#@ \t") != std::string_view::npos) return false;
  const auto from = split_host(rest);
  const auto to = split_host(lower(host));
  if (to.host.empty()) return false;
  // Host carries no scheme: a port left out is the default of the Origin's scheme (behind a TLS
  // proxy, Origin https://example.org arrives with Host example.org).
  const std::string default_port = http_scheme ? "80" : "443";
  auto port = [&](const host_port& x) { return x.port.empty() ? default_port : x.port; };
  if (from.host == to.host && port(from) == port(to)) return true;
  // Development: a page from another loopback port (a dev server) reaching this server on loopback.
  return http_scheme && loopback_host(from.host) && loopback_host(to.host);
}

namespace {

// The client's address key, from the peer or, behind a trusted proxy, from X-Forwarded-For.
std::string request_client(const http_request& req, const http_context& ctx) {
  std::vector<std::string_view> forwarded;
  for (auto [it, end] = req.equal_range("X-Forwarded-For"); it != end; ++it) forwarded.push_back(it->value());
  return client_key(ctx.peer, forwarded, ctx.cfg.trusted_proxies);
}

// GET /records/<id>: `rest` is what follows /records/, 16 hex digits and an optional ".json".
http_answer route_record(const http_request& req, const http_context& ctx, std::string_view rest, bool keep_alive,
                         bool head) {
  std::string id(rest);
  if (id.ends_with(".json")) id.resize(id.size() - 5);
  const bool well_formed = id.size() == 16 && std::all_of(id.begin(), id.end(), [](char c) {
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
  });
  if (!well_formed || !ctx.find_record) return text(404, "no game record with this id\n", keep_alive);
  // A finished game's record never changes: cached for good, revalidated without a lookup.
  http_answer a;
  a.content_type = "application/json";
  a.cache_control = "public, max-age=31536000, immutable";
  a.etag = record_etag(id);
  a.vary_encoding = true;
  a.keep_alive = keep_alive;
  a.head = head;
  if (req.count(http::field::if_none_match) && etag_matches(req[http::field::if_none_match], a.etag)) {
    a.status = 304;
    return a;
  }
  if (ctx.record_downloads) {
    const auto client = request_client(req, ctx);
    if (const auto wait = ctx.record_downloads->take("record:" + client)) {
      auto refused = text(429, "too many requests: too many game records downloaded from your address; try again later\n", keep_alive);
      refused.retry_after = (wait->count() + 999) / 1000;
      refused.log = "record download refused: too many from this address client=" + client;
      return refused;
    }
  }
  record_cache uncached(0);
  const auto e = (ctx.records ? *ctx.records : uncached).get(id, ctx.find_record, ctx.record_served);
  if (!e) return text(404, "no game record with this id\n", keep_alive);
  if (accepts_gzip(req[http::field::accept_encoding])) {
    a.shared_body = std::shared_ptr<const std::string>(e, &e->gzip);
    a.content_encoding = "gzip";
  } else if (auto plain = gunzip(e->gzip)) {
    a.body = std::move(*plain);
  } else {
    return text(500, "internal server error\n", false);
  }
  return a;
}

// A file of the web root, or of the client library at /lib/; nullopt: none (404).
std::optional<http_answer> route_static(const http_request& req, const http_context& ctx, const std::string& rel,
                                        bool keep_alive, bool head) {
  // Directories and anything else that is not a plain file (/js, /js/, /.) are not found.
  // /lib/… is the client library (clients/js), from its own folder: one copy of its source.
  std::error_code ec;
  const bool lib = rel.starts_with("/lib/");
  const std::filesystem::path path = lib ? ctx.cfg.lib_root + rel.substr(4) : ctx.cfg.web_root + rel;
  if (std::filesystem::is_regular_file(path, ec) && ctx.files) {
    const auto type = mime_type(rel);
    if (auto f = ctx.files->get(path, compressible(type))) {
      // Revalidated on every use (no-cache): a second visit costs a 304 per file and no body.
      http_answer a;
      a.content_type = type;
      a.cache_control = "no-cache";
      a.etag = f->etag;
      a.vary_encoding = !f->gzip.empty();
      a.keep_alive = keep_alive;
      a.head = head;
      if (req.count(http::field::if_none_match) && etag_matches(req[http::field::if_none_match], f->etag)) {
        a.status = 304;
        return a;
      }
      const bool gzip = !f->gzip.empty() && accepts_gzip(req[http::field::accept_encoding]);
      a.body = gzip ? f->gzip : f->bytes;
      if (gzip) a.content_encoding = "gzip";
      return a;
    }
  }
  if (std::filesystem::is_regular_file(path, ec)) {
    const auto size = std::filesystem::file_size(path, ec);
    if (!ec) {
      http_answer a;
      a.file = path.string();
      a.file_size = size;
      a.content_type = mime_type(rel);
      a.cache_control = "no-cache";
      a.keep_alive = keep_alive;
      a.head = head;
      return a;
    }
  }
  return std::nullopt;
}

// What no request gets past, whatever its route: Host missing or twice (RFC 9112 3.2), too many
// header fields, a host name this server does not answer to.
std::optional<http_answer> refuse_request(const http_request& req, const http_context& ctx) {
  if (req.version() >= 11 && req.count(http::field::host) != 1)
    return text(400, "bad request: exactly one Host header is required\n", false);
  if (static_cast<std::size_t>(std::distance(req.begin(), req.end())) > http_max_fields)
    return text(431, "request header fields too large: too many header fields\n", false);
  // DNS rebinding: a page on a name that its owner pointed at this server (or at 127.0.0.1) sends
  // that name as Host, and its own origin with it; refused before anything is answered.
  if (req.count(http::field::host) == 1 && !host_allowed(req[http::field::host], ctx.cfg)) {
    auto a = text(421, "misdirected request: this server does not answer to this host name (see --server-name)\n", false);
    a.log = "request refused: host not served host=\"" + std::string(req[http::field::host].substr(0, 200)) + "\"";
    return a;
  }
  return std::nullopt;
}

// A WebSocket upgrade: only of /ws, only from an allowed Origin, never while the server stops.
http_answer route_upgrade(const http_request& req, const http_context& ctx, std::string_view target, bool keep_alive) {
  if (!websocket_path(target)) return text(404, "WebSocket endpoint is /ws\n", keep_alive);
  if (req.count(http::field::origin) > 0) {
    const std::string_view origin = req[http::field::origin];
    if (req.count(http::field::origin) > 1 || !origin_allowed(origin, req[http::field::host], ctx.cfg)) {
      auto a = text(403, "forbidden: this origin may not open a WebSocket here (see --allowed-origin)\n", false);
      a.log = "websocket refused: origin not allowed origin=\"" + std::string(origin.substr(0, 200)) + "\"";
      return a;
    }
  }
  if (ctx.stopping) return text(503, "server shutting down\n", false);
  http_answer a;
  a.what = http_answer::action::upgrade;
  a.client = request_client(req, ctx);
  return a;
}

// GET /healthz (docs/operations.md, "Health").
http_answer route_health(const http_context& ctx, bool keep_alive, bool head) {
  // Cluster mode: an instance past its lease serves no room; HAProxy takes it out of rotation.
  const bool lapsed = !ctx.instance.empty() && !ctx.lease_valid;
  nlohmann::json j = {{"status", ctx.stopping ? "stopping" : lapsed ? "lease_lapsed" : "ok"},
                      {"rooms", ctx.rooms},
                      {"connections", ctx.connections},
                      {"journal", ctx.journal},
                      {"version", version_string()},
                      {"instance", ctx.instance.empty() ? nlohmann::json(nullptr) : nlohmann::json(ctx.instance)}};
  auto a = text(ctx.stopping || lapsed ? 503 : 200, j.dump() + "\n", keep_alive);
  a.content_type = "application/json";
  a.head = head;
  return a;
}

}  // namespace

bool websocket_path(std::string_view target) {
  const auto path = target.substr(0, target.find('?'));
  if (path == "/ws") return true;
  if (!path.starts_with("/i/") || !path.ends_with("/ws")) return false;
  const auto id = path.substr(3, path.size() - 6);
  return !id.empty() && id.size() <= 16 && id.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789") == std::string_view::npos;
}

std::string room_param(std::string_view target) {
  const auto q = target.find('?');
  if (q == std::string_view::npos) return {};
  auto query = target.substr(q + 1);
  while (!query.empty()) {
    const auto amp = query.find('&');
    const auto part = query.substr(0, amp);
    if (part.starts_with("room=")) {
      auto code = protocol::normalize_room_code(part.substr(5));
      return code ? *code : std::string();
    }
    if (amp == std::string_view::npos) break;
    query = query.substr(amp + 1);
  }
  return {};
}

http_answer route_http(const http_request& req, const http_context& ctx) {
  if (auto refused = refuse_request(req, ctx)) return std::move(*refused);
  const bool keep_alive = req.keep_alive();
  const std::string_view target = req.target();
  if (boost::beast::websocket::is_upgrade(req)) return route_upgrade(req, ctx, target, keep_alive);

  const bool head = req.method() == http::verb::head;
  if (req.method() != http::verb::get && !head) return text(405, "method not allowed\n", keep_alive);
  if (target == "/healthz") return route_health(ctx, keep_alive, head);
  // The invite and watch links, and the room summary (docs/protocol.md, "Invite links").
  if (auto a = route_invite(req, ctx)) return std::move(*a);
  // A finished game's record (docs/protocol.md, "Game records").
  if (target.starts_with("/records/")) return route_record(req, ctx, target.substr(9), keep_alive, head);
  if (const auto rel = static_path(target); !rel.empty())
    if (auto a = route_static(req, ctx, rel, keep_alive, head)) return std::move(*a);
  auto a = text(404, "not found\n", keep_alive);
  a.head = head;
  return a;
}

http_answer parse_failure(boost::beast::error_code ec) {
  http_answer none;
  none.status = 0;
  if (ec.category() != http::make_error_code(http::error::end_of_stream).category() ||
      ec == http::error::end_of_stream || ec == http::error::partial_message)
    return none;
  if (ec == http::error::header_limit) return text(431, "request header fields too large\n", false);
  if (ec == http::error::body_limit) return text(413, "content too large: this server accepts no uploads\n", false);
  return text(400, "bad request\n", false);
}

http_answer answer_bytes(std::string_view bytes, const http_context& ctx) {
  http::request_parser<http::string_body> parser;
  parser.header_limit(http_header_limit);
  parser.body_limit(http_body_limit);
  parser.eager(true);
  boost::beast::error_code ec;
  parser.put(boost::asio::const_buffer(bytes.data(), bytes.size()), ec);
  if (ec == http::error::need_more) parser.put_eof(ec);
  if (ec) return parse_failure(ec);
  if (!parser.is_done()) return parse_failure(http::error::partial_message);
  return route_http(parser.get(), ctx);
}

}  // namespace tinsel::server
