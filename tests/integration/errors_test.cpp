// Every error a client can provoke is answered with its stable code, changes nothing, and the
// server keeps serving.
#include <catch2/catch.hpp>

#include "test_server.hpp"
#include "ws_client.hpp"

using namespace tinsel::test;

namespace {
// Sends a raw frame and returns the error it provokes.
json error_for(ws_client& c, const std::string& frame) {
  c.send_unchecked(frame);
  return c.expect_type("error");
}
}  // namespace

TEST_CASE("requests before hello are refused with hello_required", "[errors]") {
  test_server s;
  ws_client c(s.port);
  auto e = c.request({{"type", "create_room"}, {"game", "happy_holidays"}});
  CHECK(e["type"] == "error");
  CHECK(e["code"] == "hello_required");
  CHECK(!e["message"].get<std::string>().empty());
}

TEST_CASE("envelope errors carry stable codes and echo the request id", "[errors]") {
  test_server s;
  ws_client c(s.port);
  CHECK(error_for(c, "{not json")["code"] == "bad_json");
  CHECK(error_for(c, "\"just a string\"")["code"] == "invalid_message");
  CHECK(error_for(c, "[1,2,3]")["code"] == "invalid_message");
  CHECK(error_for(c, R"({"id":5})")["code"] == "invalid_message");
  auto unknown = error_for(c, R"({"type":"dance","id":"x1"})");
  CHECK(unknown["code"] == "unknown_type");
  CHECK(unknown["id"] == "x1");
  CHECK(error_for(c, R"({"type":"hello","protocol":1,"id":{"a":1}})")["code"] == "invalid_field");
  // An id the server cannot accept is not an id (docs/protocol.md, "The envelope"): the error
  // that refuses the request says so and carries no id, whatever the rest of the request.
  for (const char* bad : {R"({"type":"hello","protocol":1,"name":"Oma","id":1.5})", R"({"type":"leave_room","id":null})",
                          R"({"type":"chat","text":"hi","id":[7]})"}) {
    INFO(bad);
    const auto e = error_for(c, bad);
    CHECK(e["code"] == "invalid_field");
    CHECK_FALSE(e.contains("id"));
    CHECK(e["message"].get<std::string>().find("'id'") != std::string::npos);
  }
  CHECK(say_hello(c, "Oma")["type"] == "welcome");  // nothing was applied: the hello above was refused
  c.send_binary("\x01\x02");
  CHECK(c.expect_type("error")["code"] == "invalid_message");
}

TEST_CASE("a text frame that is not UTF-8 closes the connection with 1007, as RFC 6455 requires", "[errors]") {
  test_server s;
  ws_client c(s.port);
  c.send_unchecked("{\"type\":\"hello\",\"protocol\":1,\"name\":\"\xff\xfe\"}");
  CHECK(c.wait_closed() == 1007);
  ws_client other(s.port);
  CHECK(say_hello(other, "Ben")["type"] == "welcome");
}

TEST_CASE("hello validates protocol and name", "[errors]") {
  test_server s;
  ws_client c(s.port);
  CHECK(c.request({{"type", "hello"}, {"protocol", 2}, {"name", "Oma"}})["code"] == "unsupported_protocol");
  CHECK(c.request_unchecked({{"type", "hello"}, {"name", "Oma"}})["code"] == "invalid_field");
  CHECK(c.request_unchecked({{"type", "hello"}, {"protocol", 1}})["code"] == "invalid_field");
  CHECK(c.request_unchecked({{"type", "hello"}, {"protocol", 1}, {"name", "   "}})["code"] == "invalid_field");
  CHECK(c.request_unchecked({{"type", "hello"}, {"protocol", 1}, {"name", std::string(33, 'x')}})["code"] == "invalid_field");
  CHECK(c.request_unchecked({{"type", "hello"}, {"protocol", 1}, {"name", "a\tb"}})["code"] == "invalid_field");
  // Still not greeted: the failed hellos changed nothing.
  CHECK(c.request({{"type", "chat"}, {"text", "hi"}})["code"] == "hello_required");
  CHECK(c.request({{"type", "hello"}, {"protocol", 1}, {"name", "Oma"}})["type"] == "ok");
  CHECK(c.request({{"type", "hello"}, {"protocol", 1}, {"name", "Oma"}})["code"] == "already_hello");
}

TEST_CASE("a frame over the limit is refused with frame_too_large and the connection stays usable", "[errors]") {
  test_server s;
  ws_client c(s.port);
  say_hello(c, "Oma");
  const std::string big = R"({"type":"chat","text":")" + std::string(9000, 'a') + "\"}";
  CHECK(error_for(c, big)["code"] == "frame_too_large");
  CHECK(c.request({{"type", "create_room"}, {"game", "happy_holidays"}})["type"] == "ok");
}

TEST_CASE("a frame over the hard limit closes the connection with 1009", "[errors]") {
  test_server s;
  ws_client c(s.port);
  c.send_unchecked(std::string(s.cfg.hard_frame_bytes + 10, ' '));
  CHECK(c.wait_closed() == 1009);
  ws_client other(s.port);
  CHECK(say_hello(other, "Ben")["type"] == "welcome");
}

TEST_CASE("room errors: unknown game, bad options, unknown room, full room, not in a room", "[errors]") {
  test_server s;
  ws_client host(s.port);
  say_hello(host, "Oma");
  CHECK(host.request({{"type", "create_room"}, {"game", "chess"}})["code"] == "unknown_game");
  CHECK(host.request_unchecked({{"type", "create_room"}})["code"] == "invalid_field");
  CHECK(host.request_unchecked({{"type", "create_room"}, {"game", "happy_holidays"}, {"options", 3}})["code"] == "invalid_field");
  CHECK(host.request_unchecked({{"type", "create_room"}, {"game", "happy_holidays"}, {"options", {{"maxPlayers", 9}}}})["code"] ==
        "invalid_option");
  CHECK(host.request_unchecked({{"type", "create_room"}, {"game", "happy_holidays"}, {"options", {{"colour", "pink"}}}})["code"] ==
        "invalid_option");
  CHECK(host.request({{"type", "join_room"}, {"room", "ZZZZZZ"}})["code"] == "unknown_room");
  // A string that cannot be a code names no room (docs/protocol.md, "Invite links"): unknown_room
  // like a code without a room, with the request's id; a `room` that is no string is malformed.
  CHECK(host.request_unchecked({{"type", "join_room"}, {"room", "0000"}})["code"] == "unknown_room");
  CHECK(host.request_unchecked({{"type", "join_room"}, {"room", "K7M-2Q"}, {"as", "spectator"}})["code"] == "unknown_room");
  CHECK(host.request_unchecked({{"type", "join_room"}, {"room", 7}})["code"] == "invalid_field");
  CHECK(host.request_unchecked({{"type", "join_room"}, {"room", "ZZZZZZ"}, {"as", "king"}})["code"] == "invalid_field");
  CHECK(host.request({{"type", "leave_room"}})["code"] == "not_in_room");
  CHECK(host.request({{"type", "chat"}, {"text", "hi"}})["code"] == "not_in_room");
  CHECK(host.request({{"type", "start_game"}})["code"] == "not_in_room");
  CHECK(host.request({{"type", "action"}, {"action", {{"kind", "roll"}}}})["code"] == "not_in_room");

  auto created = host.request({{"type", "create_room"}, {"game", "happy_holidays"}, {"options", {{"maxPlayers", 2}}}});
  REQUIRE(created["type"] == "ok");
  const std::string code = created["room"];
  CHECK(host.request({{"type", "create_room"}, {"game", "happy_holidays"}})["code"] == "already_in_room");
  CHECK(host.request_unchecked({{"type", "chat"}, {"text", std::string(501, 'x')}})["code"] == "invalid_field");

  ws_client b(s.port), c(s.port);
  say_hello(b, "Ben");
  say_hello(c, "Clara");
  REQUIRE(b.request({{"type", "join_room"}, {"room", code}})["type"] == "ok");
  CHECK(b.request({{"type", "start_game"}})["code"] == "not_host");
  CHECK(b.request({{"type", "action"}, {"action", {{"kind", "roll"}}}})["code"] == "game_not_started");
  CHECK(c.request({{"type", "join_room"}, {"room", code}})["code"] == "room_full");
  // The refused join left Clara free to go elsewhere, and the room unchanged.
  CHECK(c.request({{"type", "chat"}, {"text", "hi"}})["code"] == "not_in_room");
  auto r = host.expect([](const json& j) { return j.value("type", "") == "room" && j["room"]["seats"][1]["name"] == "Ben"; },
                       "the room with Ben");
  CHECK(r["room"]["seats"].size() == 2);
  CHECK(c.request({{"type", "join_room"}, {"room", code}, {"as", "spectator"}})["type"] == "ok");
  CHECK(c.request({{"type", "action"}, {"action", {{"kind", "roll"}}}})["code"] == "not_a_player");
}

TEST_CASE("a flood of garbage from one client does not disturb another", "[errors]") {
  test_server s;
  ws_client bad(s.port), good(s.port);
  say_hello(good, "Oma");
  for (int i = 0; i < 200; ++i) bad.send_unchecked(i % 2 ? "{]" : R"({"type":"x"})");
  CHECK(good.request({{"type", "create_room"}, {"game", "happy_holidays"}})["type"] == "ok");
  int errors = 0;
  while (auto j = bad.recv(2s)) errors += (*j)["type"] == "error";
  CHECK(errors == 200);
}
