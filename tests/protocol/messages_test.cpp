// Parsing and validation of client messages (protocol v1 envelope).
#include <catch2/catch.hpp>

#include "tinsel/protocol/messages.hpp"

using namespace tinsel::protocol;

namespace {
parse_result parse(const std::string& s) { return parse_client_message(s, limits{}); }
std::string code_of(const std::string& s) {
  auto r = parse(s);
  return r.error ? r.error->code : "";
}
}  // namespace

TEST_CASE("a valid hello parses with its id and a trimmed name", "[protocol]") {
  auto r = parse(R"({"type":"hello","protocol":1,"name":"  Oma Inge ","id":"a"})");
  REQUIRE(r.ok);
  CHECK(r.ok->id == "a");
  auto& h = std::get<hello_msg>(r.ok->message);
  CHECK(h.protocol == 1);
  CHECK(h.name == "Oma Inge");
}

TEST_CASE("malformed frames get envelope codes", "[protocol]") {
  CHECK(code_of("") == "bad_json");
  CHECK(code_of("{") == "bad_json");
  CHECK(code_of("null") == "invalid_message");
  CHECK(code_of("[]") == "invalid_message");
  CHECK(code_of(R"({"type":5})") == "invalid_message");
  CHECK(code_of(R"({"type":"teleport"})") == "unknown_type");
  CHECK(code_of(R"({"type":"hello","protocol":"1","name":"x"})") == "invalid_field");
  CHECK(code_of(R"({"type":"hello","protocol":1,"name":"x","id":1.5})") == "invalid_field");
  CHECK(code_of(R"({"type":"hello","protocol":1,"name":"x","id":")" + std::string(65, 'i') + "\"}") == "invalid_field");
}

TEST_CASE("the request id is kept even when the message is rejected", "[protocol]") {
  auto r = parse(R"({"type":"join_room","room":"??","id":42})");
  REQUIRE(r.error);
  CHECK(r.error->code == "invalid_field");
  CHECK(r.id == 42);
}

TEST_CASE("frames over the limit are refused before parsing", "[protocol]") {
  limits lim;
  lim.max_frame_bytes = 100;
  auto r = parse_client_message(std::string(101, ' '), lim);
  REQUIRE(r.error);
  CHECK(r.error->code == "frame_too_large");
}

TEST_CASE("names and chat are bounded in characters, not bytes", "[protocol]") {
  const std::string snowmen = [] {
    std::string s;
    for (int i = 0; i < 32; ++i) s += "\u2603";
    return s;
  }();
  CHECK(parse(R"({"type":"hello","protocol":1,"name":")" + snowmen + "\"}").ok);
  CHECK(code_of(R"({"type":"hello","protocol":1,"name":")" + snowmen + "x\"}") == "invalid_field");
  CHECK(parse(R"({"type":"chat","text":"line one\nline two"})").ok);
  CHECK(code_of(R"({"type":"chat","text":"bell\u0007"})") == "invalid_field");
  CHECK(code_of(R"({"type":"chat","text":""})") == "invalid_field");
}

TEST_CASE("room codes are normalized: case, spaces and dashes do not matter, look-alikes are invalid", "[protocol]") {
  CHECK(normalize_room_code("abc-def") == std::optional<std::string>("ABCDEF"));
  CHECK(normalize_room_code(" K7M 2QX ") == std::optional<std::string>("K7M2QX"));
  CHECK_FALSE(normalize_room_code("ABCDE"));
  CHECK_FALSE(normalize_room_code("ABCDEFG"));
  CHECK_FALSE(normalize_room_code("ABCDE0"));
  CHECK_FALSE(normalize_room_code("ABCDEO"));
  CHECK_FALSE(normalize_room_code("ABCDE1"));
  CHECK_FALSE(normalize_room_code("ABCDEI"));
  CHECK_FALSE(normalize_room_code("ABCDEL"));
}

TEST_CASE("join_room, action and start_game validate their fields", "[protocol]") {
  auto j = parse(R"({"type":"join_room","room":"abcdef","as":"spectator"})");
  REQUIRE(j.ok);
  CHECK(std::get<join_room_msg>(j.ok->message).spectator);
  CHECK(std::get<join_room_msg>(j.ok->message).room == "ABCDEF");
  CHECK(code_of(R"({"type":"join_room"})") == "invalid_field");
  CHECK(code_of(R"({"type":"action"})") == "invalid_field");
  CHECK(code_of(R"({"type":"action","action":{"from":1}})") == "invalid_field");
  CHECK(parse(R"({"type":"action","action":{"kind":"roll"}})").ok);
  CHECK(code_of(R"({"type":"start_game","first_seat":-1})") == "invalid_field");
  auto s = parse(R"({"type":"start_game","first_seat":2})");
  REQUIRE(s.ok);
  CHECK(std::get<start_game_msg>(s.ok->message).first_seat == 2);
  CHECK(code_of(R"({"type":"set_options"})") == "invalid_field");
  CHECK(code_of(R"({"type":"create_room","game":"happy_holidays","options":[]})") == "invalid_field");
}

TEST_CASE("replies: ok and error echo the id, no id means no id field", "[protocol]") {
  auto ok = nlohmann::json::parse(make_ok(7, {{"room", "ABCDEF"}}));
  CHECK(ok["type"] == "ok");
  CHECK(ok["id"] == 7);
  CHECK(ok["room"] == "ABCDEF");
  auto err = nlohmann::json::parse(make_error(nullptr, "room_full", "full"));
  CHECK(err["type"] == "error");
  CHECK(err["code"] == "room_full");
  CHECK_FALSE(err.contains("id"));
}

#include <fstream>
#include <sstream>

#include "tinsel/protocol/errors.hpp"

TEST_CASE("every error code of the protocol is documented in docs/protocol.md", "[protocol][docs]") {
  std::ifstream in(TINSEL_DOCS_DIR "/protocol.md");
  REQUIRE(in);
  std::stringstream ss;
  ss << in.rdbuf();
  const std::string doc = ss.str();
  for (auto code : errc::all) {
    INFO(code);
    CHECK(doc.find("| `" + std::string(code) + "` |") != std::string::npos);
  }
}
