// Invite links against a real server (docs/protocol.md, "Invite links"): the summary and the
// preview follow the room as it changes, names are escaped, an unknown code gets the generic
// preview, and lookups of unknown codes share join_room's allowance per address.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include <catch2/catch.hpp>

#include <stdexcept>
#include <string>

#include "json_schema.hpp"
#include "test_server.hpp"
#include "ws_client.hpp"

using namespace tinsel::test;

namespace {

struct reply {
  int status = 0;
  std::string headers, body;
  bool has(const std::string& s) const { return body.find(s) != std::string::npos; }
};

// One GET with extra header lines, Connection: close, read to the end.
reply get(std::uint16_t port, const std::string& target, const std::string& headers = "") {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  timeval tv{10, 0};
  ::setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
  sockaddr_in dst{};
  dst.sin_family = AF_INET;
  dst.sin_port = htons(port);
  ::inet_pton(AF_INET, "127.0.0.1", &dst.sin_addr);
  if (::connect(fd, reinterpret_cast<sockaddr*>(&dst), sizeof dst) != 0) {
    ::close(fd);
    throw std::runtime_error("connect failed");
  }
  const std::string req = "GET " + target + " HTTP/1.1\r\nHost: tinsel.example\r\nConnection: close\r\n" + headers + "\r\n";
  if (::send(fd, req.data(), req.size(), 0) != static_cast<ssize_t>(req.size())) throw std::runtime_error("send failed");
  std::string all;
  char buf[8192];
  for (ssize_t n; (n = ::recv(fd, buf, sizeof buf, 0)) > 0;) all.append(buf, static_cast<std::size_t>(n));
  ::close(fd);
  reply r;
  const auto end = all.find("\r\n\r\n");
  if (all.size() < 12 || end == std::string::npos) throw std::runtime_error("no HTTP answer");
  r.status = std::stoi(all.substr(9, 3));
  r.headers = all.substr(0, end);
  r.body = all.substr(end + 4);
  return r;
}

// The pages are asked for as a browser on the server's public name would (--server-name).
void served_name(tinsel::server::config& c) { c.server_names = {"tinsel.example"}; }

void check_summary_schema(const json& j) {
  const auto problem = schema_set::protocol().validate(j, "http/room_summary.json");
  INFO(j.dump());
  CHECK_FALSE(problem);
}

}  // namespace

TEST_CASE("invite links: the summary and the preview follow the room, names escaped", "[invite][http]") {
  test_server srv(served_name);
  ws_client oma(srv.port);
  say_hello(oma, "Oma <Inge> & \"Opa\"");
  const auto created = oma.request({{"type", "create_room"}, {"game", "christmas_penguins"}, {"options", {{"maxPlayers", 3}}}});
  REQUIRE(created["type"] == "ok");
  const std::string code = created["room"];
  oma.expect_type("room");

  auto summary = json::parse(get(srv.port, "/rooms/" + code).body);
  check_summary_schema(summary);
  CHECK(summary["host"] == "Oma <Inge> & \"Opa\"");
  CHECK(summary["free_seats"] == 2);
  CHECK(summary["status"] == "lobby");

  ws_client ben(srv.port);
  say_hello(ben, "Ben");
  REQUIRE(ben.request({{"type", "join_room"}, {"room", code}})["type"] == "ok");
  oma.expect([](const json& m) { return m["type"] == "room" && m["room"]["seats"][1]["name"] == "Ben"; }, "Ben seated");
  summary = json::parse(get(srv.port, "/rooms/" + code).body);
  check_summary_schema(summary);
  CHECK(summary["players"] == json::array({{{"name", "Oma <Inge> & \"Opa\""}, {"bot", false}, {"host", true}},
                                           {{"name", "Ben"}, {"bot", false}, {"host", false}}}));
  CHECK(summary["free_seats"] == 1);

  const auto page = get(srv.port, "/r/" + code, "Accept-Language: de\r\n");
  CHECK(page.status == 200);
  CHECK(page.headers.find("Cache-Control: no-store") != std::string::npos);
  CHECK(page.headers.find("ETag") == std::string::npos);
  CHECK(page.has(R"(<meta property="og:title" content="Oma &lt;Inge&gt; &amp; &quot;Opa&quot; lädt dich zu Christmas Penguins ein">)"));
  CHECK(page.has(R"(<meta property="og:description" content="Am Tisch: Oma &lt;Inge&gt; &amp; &quot;Opa&quot; und Ben. 1 Platz ist frei.">)"));
  CHECK(page.has(R"(<meta property="og:image" content="http://tinsel.example/og/christmas_penguins.png">)"));
  CHECK_FALSE(page.has("<Inge>"));
  CHECK(get(srv.port, "/og/christmas_penguins.png").status == 200);

  // The home page is still the static file with its ETag.
  const auto home = get(srv.port, "/");
  CHECK(home.status == 200);
  CHECK(home.headers.find("ETag: \"") != std::string::npos);
  CHECK(home.headers.find("Cache-Control: no-cache") != std::string::npos);

  // A computer player is named as on every screen, in the summary and the preview alike.
  REQUIRE(oma.request({{"type", "add_bot"}})["type"] == "ok");
  summary = json::parse(get(srv.port, "/rooms/" + code).body);
  CHECK(summary["players"][2] == json({{"name", "Holly"}, {"bot", true}, {"host", false}}));
  CHECK(get(srv.port, "/r/" + code).has(R"(content="At the table: Oma &lt;Inge&gt; &amp; &quot;Opa&quot;, Ben and Holly.)"));

  // The game starts: no seat is free, the preview says one may watch.
  REQUIRE(oma.request({{"type", "start_game"}})["type"] == "ok");
  oma.expect_type("state");
  summary = json::parse(get(srv.port, "/rooms/" + code).body);
  CHECK(summary["status"] == "playing");
  CHECK(summary["free_seats"] == 0);
  CHECK(get(srv.port, "/watch/" + code).has("You can watch."));

  // Closed by the host: the code names no room any more.
  REQUIRE(oma.request({{"type", "close_room"}})["type"] == "ok");
  const auto gone = get(srv.port, "/rooms/" + code);
  CHECK(gone.status == 404);
  check_summary_schema(json::parse(gone.body));
  CHECK(get(srv.port, "/r/" + code).has(R"(<meta property="og:title" content="Tinsel: Christmas games with family far away">)"));
}

TEST_CASE("computer players are named as no one at the table is", "[invite][bots]") {
  test_server srv(served_name);
  ws_client host(srv.port);
  say_hello(host, "holly");
  const auto created = host.request({{"type", "create_room"}, {"game", "happy_holidays"}, {"options", {{"maxPlayers", 4}}}});
  REQUIRE(created["type"] == "ok");
  const std::string code = created["room"];
  REQUIRE(host.request({{"type", "add_bot"}})["type"] == "ok");
  REQUIRE(host.request({{"type", "add_bot"}})["type"] == "ok");
  const auto summary = json::parse(get(srv.port, "/rooms/" + code).body);
  REQUIRE(summary["players"].size() == 3);
  CHECK(summary["players"][1]["name"] == "Rudi");  // the first bot would be Holly: the host is
  CHECK(summary["players"][2]["name"] == "Noel");
  CHECK(summary["players"][1]["bot"] == true);
}

TEST_CASE("invite links: unknown codes share join_room's allowance per address", "[invite][http][limits]") {
  test_server srv(served_name);  // 3 free misses
  for (const char* code : {"ZZZZZ2", "ZZZZZ3", "ZZZZZ4"}) CHECK(get(srv.port, std::string("/rooms/") + code).status == 404);
  const auto refused = get(srv.port, "/rooms/ZZZZZ5");
  CHECK(refused.status == 429);
  CHECK(refused.headers.find("Retry-After: 1") != std::string::npos);
  check_summary_schema(json::parse(refused.body));
  // join_room from the same address waits too.
  ws_client c(srv.port);
  say_hello(c, "Guesser");
  const auto join = c.request({{"type", "join_room"}, {"room", "ZZZZZ6"}});
  CHECK(join["code"] == "too_many_attempts");
}
