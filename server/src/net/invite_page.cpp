#include "net/invite_page.hpp"

#include <algorithm>
#include <cctype>
#include <fstream>
#include <sstream>

#include <boost/beast/http/field.hpp>

#include "limits/address_limits.hpp"
#include "net/static_files.hpp"
#include "tinsel/protocol/messages.hpp"

namespace tinsel::server {

namespace http = boost::beast::http;

namespace {

// "A", "A and B", "A, B and C" (German: "und").
std::string name_list(const nlohmann::json& players, std::string_view lang) {
  std::vector<std::string> names;
  for (const auto& p : players) names.push_back(p.value("name", ""));
  std::string out;
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (i > 0) out += i + 1 == names.size() ? (lang == "de" ? " und " : " and ") : ", ";
    out += names[i];
  }
  return out;
}

struct preview {
  std::string title, description, image, alt, url;
};

preview describe(const nlohmann::json& info, std::string_view lang, std::string_view base, bool watch) {
  const bool de = lang == "de";
  preview p;
  p.title = de ? "Tinsel: Weihnachtsspiele mit der Familie, auch aus der Ferne"
               : "Tinsel: Christmas games with family far away";
  p.description = de ? "Weihnachtliche Brettspiele für Familien, die weit auseinander wohnen."
                     : "Christmas board games for families who live far apart.";
  p.image = std::string(base) + "/og/tinsel.png";
  p.alt = "Tinsel";
  p.url = std::string(base) + "/";
  if (info.contains("error")) {
    const auto error = info["error"].get<std::string>();
    if (error == "unknown_room")
      p.description = de ? "Diesen Spielraum gibt es nicht (mehr). Starte einfach einen neuen."
                         : "This game room does not exist (any more). Just start a new one.";
    else if (error == "room_unavailable")
      p.description = de ? "Dieser Spielraum ließ sich nicht wiederherstellen. Starte einfach einen neuen."
                         : "This game room could not be brought back. Just start a new one.";
    return p;
  }
  const std::string title = info.value("title", "");
  const std::string host = info["host"].is_string() ? info["host"].get<std::string>() : "";
  if (watch)
    p.title = host.empty() ? (de ? "Schau eine Partie " + title + " an" : "Watch a game of " + title)
                           : (de ? "Schau " + host + " bei " + title + " zu" : "Watch " + host + " play " + title);
  else
    p.title = host.empty() ? (de ? "Du bist zu " + title + " eingeladen" : "You are invited to play " + title)
                           : (de ? host + " lädt dich zu " + title + " ein" : host + " invites you to play " + title);
  const auto& players = info["players"];
  const int free_seats = info.value("free_seats", 0);
  const std::string names = name_list(players, lang);
  std::string d;
  if (info.value("status", "") == "playing") {
    d = de ? "Das Spiel läuft mit " + names + ". Du kannst zuschauen." : "The game is running with " + names + ". You can watch.";
  } else {
    if (players.empty()) d = de ? "Noch sitzt niemand am Tisch. " : "Nobody is at the table yet. ";
    else d = (de ? "Am Tisch: " : "At the table: ") + names + ". ";
    const std::string n = std::to_string(free_seats);
    if (free_seats == 0) d += de ? "Alle Plätze sind besetzt; du kannst zuschauen." : "Every seat is taken; you can watch.";
    else if (free_seats == 1) d += de ? "1 Platz ist frei." : "1 seat is free.";
    else d += de ? n + " Plätze sind frei." : n + " seats are free.";
  }
  p.description = d;
  p.image = std::string(base) + "/og/" + info.value("game", "tinsel") + ".png";
  p.alt = title;
  p.url = std::string(base) + (watch ? "/watch/" : "/r/") + info.value("code", "");
  return p;
}

// JSON inside <script>: no "</script>", "<!--" or "&" can appear in it. <, > and & occur only
// inside JSON strings, where \u escapes mean the same.
std::string script_json(const nlohmann::json& j) {
  std::string out;
  for (char c : j.dump()) {
    if (c == '<') out += "\\u003c";
    else if (c == '>') out += "\\u003e";
    else if (c == '&') out += "\\u0026";
    else out += c;
  }
  return out;
}

// "scheme://host" of the link as the requester used it, for og:url and og:image, which must be
// absolute; "" when the Host header is not a plain host name (then the URLs are relative). Host
// and X-Forwarded-Proto are the requester's own: the page is not cached (no-store), so what they
// claim shows to nobody else.
std::string base_url(const http_request& req) {
  const std::string_view host = req[http::field::host];
  if (host.empty() || host.size() > 260) return {};
  const bool plain = std::all_of(host.begin(), host.end(), [](unsigned char c) {
    return std::isalnum(c) || c == '.' || c == '-' || c == ':' || c == '[' || c == ']';
  });
  if (!plain) return {};
  const bool https = req["X-Forwarded-Proto"] == "https";
  return std::string(https ? "https://" : "http://") + std::string(host);
}

// index.html, from memory when the server keeps its files there.
std::string index_html(const http_context& ctx) {
  const std::filesystem::path path = ctx.cfg.web_root + "/index.html";
  if (ctx.files)
    if (auto f = ctx.files->get(path, true)) return f->bytes;
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

struct lookup {
  unsigned status = 200;
  nlohmann::json body;  // a summary, or {"error","code","message"}
  std::optional<std::chrono::milliseconds> wait;
};

nlohmann::json error_body(std::string_view error, const std::string& code, std::string message) {
  return {{"error", error}, {"code", code.empty() ? nlohmann::json(nullptr) : nlohmann::json(code)}, {"message", std::move(message)}};
}

// The same rule as join_room: an address past its free misses waits (whatever the code), and a
// code that names no room is a miss. A malformed code cannot name a room, so it tells a guesser
// nothing and is not counted; nor is a room set aside after a restart (join_room does not count it).
lookup look_up(std::string_view segment, const http_request& req, const http_context& ctx) {
  const std::string code = invite_code(segment);
  if (code.empty()) return {404, error_body("unknown_room", code, "there is no room with this code"), {}};
  std::string key;
  if (ctx.limits) {
    std::vector<std::string_view> forwarded;
    for (auto [it, end] = req.equal_range("X-Forwarded-For"); it != end; ++it) forwarded.push_back(it->value());
    key = client_key(ctx.peer, forwarded, ctx.cfg.trusted_proxies);
    if (auto wait = ctx.limits->join_wait(key)) {
      auto body = error_body("too_many_attempts", "", "too many tries with unknown room codes; try again later");
      body["retry_after_ms"] = wait->count();
      return {429, std::move(body), wait};
    }
  }
  const room_peek peek = ctx.find_room ? ctx.find_room(code) : room_peek{};
  if (peek.what == room_peek::found::open) return {200, peek.summary, {}};
  if (peek.what == room_peek::found::unavailable)
    return {404, error_body("room_unavailable", code, "the room " + code + " could not be restored after the server restarted"), {}};
  if (ctx.limits) ctx.limits->join_missed(key);
  return {404, error_body("unknown_room", code, "there is no room with the code " + code), {}};
}

}  // namespace

std::string invite_code(std::string_view segment) {
  // A space may come URL-encoded ("%20"); the code itself is read as join_room reads it.
  std::string text;
  text.reserve(segment.size());
  for (std::size_t i = 0; i < segment.size(); ++i) {
    if (segment.substr(i, 3) == "%20") {
      text += ' ';
      i += 2;
    } else {
      text += segment[i];
    }
  }
  return protocol::normalize_room_code(text).value_or(std::string{});
}

std::string_view invite_language(std::string_view header) {
  // The highest q of each; on a tie the one listed first ("de, en" is German).
  double de = 0, en = 0;
  int de_at = -1, en_at = -1, at = 0;
  for (std::size_t start = 0; start < header.size(); ++at) {
    auto end = header.find(',', start);
    if (end == std::string_view::npos) end = header.size();
    std::string_view item = header.substr(start, end - start);
    start = end + 1;
    while (!item.empty() && item.front() == ' ') item.remove_prefix(1);
    const auto semi = item.find(';');
    std::string tag(item.substr(0, std::min(semi, item.find('-'))));
    while (!tag.empty() && tag.back() == ' ') tag.pop_back();
    std::transform(tag.begin(), tag.end(), tag.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    double q = 1;
    if (const auto qat = item.find("q=", semi == std::string_view::npos ? item.size() : semi); qat != std::string_view::npos) {
      q = 0;
      std::istringstream(std::string(item.substr(qat + 2))) >> q;
    }
    if (tag == "de" && q > de) de = q, de_at = at;
    if (tag == "en" && q > en) en = q, en_at = at;
  }
  return de > en || (de > 0 && de == en && de_at < en_at) ? "de" : "en";
}

std::string html_escape(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&#39;"; break;
      default: out += c;
    }
  }
  return out;
}

std::string invite_html(std::string_view index_html, const nlohmann::json& info, std::string_view lang,
                        std::string_view base, bool watch) {
  const preview p = describe(info, lang, base, watch);
  const auto meta = [](std::string_view attr, std::string_view name, const std::string& value) {
    return "<meta " + std::string(attr) + "=\"" + std::string(name) + "\" content=\"" + html_escape(value) + "\">\n";
  };
  std::string head;
  head += meta("name", "description", p.description);
  head += meta("property", "og:type", "website");
  head += meta("property", "og:site_name", "Tinsel");
  head += meta("property", "og:locale", lang == "de" ? "de_DE" : "en_GB");
  head += meta("property", "og:title", p.title);
  head += meta("property", "og:description", p.description);
  head += meta("property", "og:url", p.url);
  head += meta("property", "og:image", p.image);
  head += meta("property", "og:image:type", "image/png");
  head += meta("property", "og:image:width", "1200");
  head += meta("property", "og:image:height", "630");
  head += meta("property", "og:image:alt", p.alt);
  head += meta("name", "twitter:card", "summary_large_image");
  head += meta("name", "twitter:title", p.title);
  head += meta("name", "twitter:description", p.description);
  head += meta("name", "twitter:image", p.image);
  head += "<script type=\"application/json\" id=\"tinsel-room\">" + script_json(info) + "</script>\n";

  std::string html(index_html);
  // The tab's title says it too.
  const auto t0 = html.find("<title>");
  const auto t1 = t0 == std::string::npos ? std::string::npos : html.find("</title>", t0);
  if (t1 != std::string::npos) html.replace(t0 + 7, t1 - t0 - 7, html_escape(p.title));
  const auto close = html.find("</head>");
  html.insert(close == std::string::npos ? 0 : close, head);
  return html;
}

std::optional<http_answer> route_invite(const http_request& req, const http_context& ctx) {
  std::string_view path = req.target();
  if (auto q = path.find('?'); q != std::string_view::npos) path = path.substr(0, q);
  enum class kind { invite, watch, summary } k;
  std::string_view rest;
  if (path.starts_with("/r/")) k = kind::invite, rest = path.substr(3);
  else if (path.starts_with("/watch/")) k = kind::watch, rest = path.substr(7);
  else if (path.starts_with("/rooms/")) k = kind::summary, rest = path.substr(7);
  else return std::nullopt;
  // "/r/K7M2QX/" too, as the web client reads it; anything deeper names no room.
  if (rest.ends_with('/')) rest.remove_suffix(1);

  const auto found = look_up(rest, req, ctx);
  http_answer a;
  a.keep_alive = req.keep_alive();
  a.head = req.method() == http::verb::head;
  a.cache_control = "no-store";  // it says who sits where now, and counts against the limit
  if (k == kind::summary) {
    a.status = found.status;
    a.content_type = "application/json";
    a.body = found.body.dump() + "\n";
    if (found.wait) a.retry_after = (found.wait->count() + 999) / 1000;
    return a;
  }
  // The page itself is always there: it says what became of the room and offers a new one.
  a.content_type = "text/html; charset=utf-8";
  const std::string html = invite_html(index_html(ctx), found.body, invite_language(req[http::field::accept_language]),
                                       base_url(req), k == kind::watch);
  a.vary_encoding = true;
  if (accepts_gzip(req[http::field::accept_encoding])) {
    a.body = gzip_compress(html);
    a.content_encoding = "gzip";
  }
  if (a.body.empty()) {
    a.body = html;
    a.content_encoding.clear();
  }
  return a;
}

}  // namespace tinsel::server
