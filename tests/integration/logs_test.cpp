// --log-format json, end to end: a real tinsel-server writes one JSON object per line, with the
// key=value fields of the text format as typed fields, and no secret.
#include <catch2/catch.hpp>

#include <sstream>

#include "server_process.hpp"
#include "ws_client.hpp"

using namespace tinsel::test;

TEST_CASE("with --log-format json every log line is a JSON object with time, level, message and fields, and no token",
          "[logs][binary]") {
  server_process srv({"--log-format", "json"});
  std::string token;
  {
    ws_client c(srv.port);
    const auto welcome = say_hello(c, "Oma");
    token = welcome["token"];
    REQUIRE(c.request({{"type", "create_room"}, {"game", "happy_holidays"}})["type"] == "ok");
    REQUIRE(c.request({{"type", "chat"}, {"text", "secret plans for the tree"}})["type"] == "ok");
  }
  const auto status = srv.terminate();
  REQUIRE(status.has_value());

  const std::string log = srv.log();
  std::istringstream lines(log);
  int n = 0;
  bool listening = false, created = false;
  for (std::string line; std::getline(lines, line);) {
    if (line.empty()) continue;
    ++n;
    INFO(line);
    const auto j = json::parse(line, nullptr, false);
    REQUIRE(j.is_object());
    CHECK(j["time"].is_string());
    CHECK(j["time"].get<std::string>().size() == 24);  // 2026-11-30T23:24:51.269Z
    CHECK(j["level"].is_string());
    CHECK(j["message"].is_string());
    if (j["message"] == "tinsel-server 0.2.0 listening" || j.contains("url")) {
      listening = true;
      CHECK(j["url"] == "http://127.0.0.1:" + std::to_string(srv.port) + "/");
    }
    if (j["message"] == "room created") {
      created = true;
      CHECK(j["game"] == "happy_holidays");
      CHECK(j["rooms"] == 1);
      CHECK(j["room"].is_string());
    }
  }
  CHECK(n >= 5);
  CHECK(listening);
  CHECK(created);
  CHECK(log.find(token) == std::string::npos);
  CHECK(log.find("secret plans") == std::string::npos);
}
