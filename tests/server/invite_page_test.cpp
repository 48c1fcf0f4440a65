// The invite links and GET /rooms/<code> (server/src/net/invite_page) without sockets: a fake room
// lookup stands in for the lobby, a real address_limits counts the misses.
#include <catch2/catch.hpp>

#include <string>

#include "limits/address_limits.hpp"
#include "net/http_routes.hpp"
#include "net/invite_page.hpp"
#include "net/static_files.hpp"

using namespace tinsel::server;

namespace {

nlohmann::json summary(const std::string& host, const std::string& status = "lobby", int free_seats = 2) {
  return {{"code", "K7M2QX"},
          {"game", "christmas_penguins"},
          {"title", "Christmas Penguins"},
          {"status", status},
          {"host", host},
          {"players", {{{"name", host}, {"bot", false}, {"host", true}}, {{"name", "Ben"}, {"bot", false}, {"host", false}}}},
          {"free_seats", free_seats},
          {"min_players", 2},
          {"max_players", 4},
          {"spectators", 0}};
}

struct fixture {
  config cfg;
  address_limits limits{cfg};
  static_files files;
  int lookups = 0;
  nlohmann::json room = summary("Oma Inge");
  http_context ctx{cfg, "192.0.2.7"};
  fixture() {
    cfg.server_names = {"*"};  // any Host: these tests are about the page (net_hardening_test checks Host)
    ctx.files = &files;
    ctx.limits = &limits;
    ctx.find_room = [this](const std::string& code) {
      ++lookups;
      room_peek p;
      if (code == "K7M2QX") {
        p.what = room_peek::found::open;
        p.summary = room;
      } else if (code == "SETA5D") {
        p.what = room_peek::found::unavailable;
      }
      return p;
    };
  }
  http_answer get(const std::string& target, const std::string& headers = "") {
    return answer_bytes("GET " + target + " HTTP/1.1\r\nHost: tinsel.example\r\n" + headers + "\r\n", ctx);
  }
};

bool has(const std::string& body, const std::string& part) { return body.find(part) != std::string::npos; }

}  // namespace

TEST_CASE("invite links: room codes are read as join_room reads them", "[http][invite]") {
  CHECK(invite_code("K7M2QX") == "K7M2QX");
  CHECK(invite_code("k7m-2qx") == "K7M2QX");
  CHECK(invite_code("k7m%202qx") == "K7M2QX");
  CHECK(invite_code("K7M2Q") == "");
  CHECK(invite_code("K7M2QXX") == "");
  CHECK(invite_code("K7M2Q0") == "");  // no 0, O, 1, I or L in codes
  CHECK(invite_code("<b>") == "");
}

TEST_CASE("invite links: German when Accept-Language prefers it to English", "[http][invite]") {
  CHECK(invite_language("de-DE,de;q=0.9,en;q=0.8") == "de");
  CHECK(invite_language("en-GB,en;q=0.9,de;q=0.8") == "en");
  CHECK(invite_language("fr-FR, de;q=0.5") == "de");
  CHECK(invite_language("de;q=0.4, en;q=0.6") == "en");
  CHECK(invite_language("de, en") == "de");
  CHECK(invite_language("fr") == "en");
  CHECK(invite_language("") == "en");
}

TEST_CASE("invite page: the preview says who invites to which game, who sits there and what is free", "[http][invite]") {
  fixture f;
  const auto a = f.get("/r/K7M2QX");
  CHECK(a.status == 200);
  CHECK(a.content_type == "text/html; charset=utf-8");
  CHECK(a.cache_control == "no-store");
  CHECK(a.etag.empty());
  CHECK(has(a.body, R"(<meta property="og:title" content="Oma Inge invites you to play Christmas Penguins">)"));
  CHECK(has(a.body, R"(<meta property="og:description" content="At the table: Oma Inge and Ben. 2 seats are free.">)"));
  CHECK(has(a.body, R"(<meta property="og:image" content="http://tinsel.example/og/christmas_penguins.png">)"));
  CHECK(has(a.body, R"(<meta property="og:url" content="http://tinsel.example/r/K7M2QX">)"));
  CHECK(has(a.body, R"(<meta name="twitter:card" content="summary_large_image">)"));
  CHECK(has(a.body, "<title>Oma Inge invites you to play Christmas Penguins</title>"));
  CHECK(has(a.body, R"(<script type="application/json" id="tinsel-room">{"code":"K7M2QX")"));
  CHECK(has(a.body, R"(<script type="module" src="/js/app.js">)"));  // still the client

  const auto de = f.get("/r/k7m2qx", "Accept-Language: de-DE,de;q=0.9\r\nX-Forwarded-Proto: https\r\n");
  CHECK(has(de.body, R"(content="Oma Inge lädt dich zu Christmas Penguins ein")"));
  CHECK(has(de.body, R"(content="Am Tisch: Oma Inge und Ben. 2 Plätze sind frei.")"));
  CHECK(has(de.body, R"(content="https://tinsel.example/og/christmas_penguins.png")"));

  f.room = summary("Oma Inge", "playing", 0);
  CHECK(has(f.get("/r/K7M2QX").body, R"(content="The game is running with Oma Inge and Ben. You can watch.")"));
  f.room = summary("Oma Inge", "lobby", 0);
  CHECK(has(f.get("/r/K7M2QX").body, R"(content="At the table: Oma Inge and Ben. Every seat is taken; you can watch.")"));
  const auto watch = f.get("/watch/K7M2QX");
  CHECK(has(watch.body, R"(content="Watch Oma Inge play Christmas Penguins")"));
  CHECK(has(watch.body, R"(content="http://tinsel.example/watch/K7M2QX")"));
  CHECK(f.limits.tracked_addresses() == 0);  // open rooms cost nothing
}

TEST_CASE("invite page: names are escaped in every tag and cannot end the script", "[http][invite]") {
  fixture f;
  f.room = summary(R"(<script>"Oma" & 'Opa'</script>)");
  const auto a = f.get("/r/K7M2QX");
  CHECK_FALSE(has(a.body, "<script>\"Oma"));
  CHECK(has(a.body, R"(content="&lt;script&gt;&quot;Oma&quot; &amp; &#39;Opa&#39;&lt;/script&gt; invites you to play Christmas Penguins")"));
  CHECK(has(a.body, R"("host":"\u003cscript\u003e\"Oma\" \u0026 'Opa'\u003c/script\u003e")"));
  // One </script> of ours, and the page's own.
  std::size_t n = 0;
  for (auto at = a.body.find("</script>"); at != std::string::npos; at = a.body.find("</script>", at + 1)) ++n;
  CHECK(n == 2);
  // A Host header that is not a host name gives relative URLs, not markup.
  const auto bad_host = answer_bytes("GET /r/K7M2QX HTTP/1.1\r\nHost: x\"><script>\r\n\r\n", f.ctx);
  CHECK(has(bad_host.body, R"(<meta property="og:image" content="/og/christmas_penguins.png">)"));
  CHECK_FALSE(has(bad_host.body, "x\"><script>"));
}

TEST_CASE("invite page: an unknown code gets a generic preview and a page that says so", "[http][invite]") {
  fixture f;
  const auto a = f.get("/r/ZZZZZZ");
  CHECK(a.status == 200);
  CHECK(a.cache_control == "no-store");
  CHECK(has(a.body, R"(<meta property="og:title" content="Tinsel: Christmas games with family far away">)"));
  CHECK(has(a.body, R"(content="This game room does not exist (any more). Just start a new one.")"));
  CHECK(has(a.body, R"(<meta property="og:image" content="http://tinsel.example/og/tinsel.png">)"));
  CHECK(has(a.body, R"({"code":"ZZZZZZ","error":"unknown_room")"));
  CHECK(has(f.get("/r/SETA5D").body, R"("error":"room_unavailable")"));
}

TEST_CASE("GET /rooms/<code>: the summary, 404 for no room, and gzip only for the page", "[http][invite]") {
  fixture f;
  const auto a = f.get("/rooms/K7M2QX");
  CHECK(a.status == 200);
  CHECK(a.content_type == "application/json");
  CHECK(a.cache_control == "no-store");
  CHECK(nlohmann::json::parse(a.body) == f.room);
  const auto none = f.get("/rooms/ZZZZZZ");
  CHECK(none.status == 404);
  CHECK(nlohmann::json::parse(none.body)["error"] == "unknown_room");
  CHECK(f.get("/rooms/SETA5D").status == 404);
  CHECK(f.get("/rooms/bad").status == 404);
  const auto head = answer_bytes("HEAD /rooms/K7M2QX HTTP/1.1\r\nHost: x\r\n\r\n", f.ctx);
  CHECK(head.head);

  const auto gz = f.get("/r/K7M2QX", "Accept-Encoding: gzip\r\n");
  CHECK(gz.content_encoding == "gzip");
  CHECK(gz.vary_encoding);
  // The home page stays a static file with its ETag.
  const auto home = f.get("/");
  CHECK(home.status == 200);
  CHECK(home.cache_control == "no-cache");
  CHECK_FALSE(home.etag.empty());
  CHECK(f.get("/", "If-None-Match: " + home.etag + "\r\n").status == 304);
}

TEST_CASE("invite lookups of unknown codes count against the address like failed joins", "[http][invite][limits]") {
  fixture f;  // 3 free misses
  // Malformed codes cannot name a room, and join_room does not count a room set aside either.
  for (int i = 0; i < 5; ++i) {
    CHECK(f.get("/rooms/nope").status == 404);
    CHECK(f.get("/rooms/SETA5D").status == 404);
    CHECK(f.get("/r/K7M2QX").status == 200);
  }
  CHECK_FALSE(f.limits.join_wait("192.0.2.7"));
  for (int i = 0; i < 3; ++i) CHECK(f.get(i % 2 ? "/rooms/ZZZZZ" + std::to_string(i + 2) : "/r/ZZZZZ" + std::to_string(i + 2)).status != 429);
  REQUIRE(f.limits.join_wait("192.0.2.7"));  // join_room from this address now waits too
  const int before = f.lookups;
  const auto refused = f.get("/rooms/K7M2QX");  // even a right code: nothing is looked up
  CHECK(refused.status == 429);
  CHECK(refused.retry_after == 1);
  CHECK(nlohmann::json::parse(refused.body)["error"] == "too_many_attempts");
  CHECK(nlohmann::json::parse(refused.body)["retry_after_ms"].get<long long>() > 0);
  CHECK(f.lookups == before);
  // The page then shows the generic preview and no summary; the client offers the plain form.
  const auto page = f.get("/r/K7M2QX");
  CHECK(page.status == 200);
  CHECK(has(page.body, R"("error":"too_many_attempts")"));
  CHECK_FALSE(has(page.body, "Oma Inge"));
  // Another address is not affected.
  const auto other = answer_bytes("GET /rooms/K7M2QX HTTP/1.1\r\nHost: x\r\n\r\n",
                                  http_context{f.cfg, "198.51.100.1", false, 0, 0, "off", nullptr, &f.files, f.ctx.find_room, &f.limits});
  CHECK(other.status == 200);
}
