// Issue 30, "Hardening, round two": the nesting limit of every frame (and of a record file), and
// the frames that the parser used to accept although the protocol says otherwise (a byte order
// mark, a NUL byte after the JSON, a key twice, line separators and C1 controls in names).
#include <catch2/catch.hpp>

#include <string>

#include "tinsel/protocol/bounded_json.hpp"
#include "tinsel/protocol/game_record.hpp"
#include "tinsel/protocol/messages.hpp"

using namespace tinsel::protocol;

namespace {

// The largest frame limit the server's flags allow (--max-frame-bytes 1048576).
limits raised() {
  limits lim;
  lim.max_frame_bytes = 1 << 20;
  return lim;
}

std::string code_of(const std::string& frame, const limits& lim = limits{}) {
  auto r = parse_client_message(frame, lim);
  return r.error ? r.error->code : "";
}

// `levels` arrays, one in the other.
std::string nested(std::size_t levels) { return std::string(levels, '[') + std::string(levels, ']'); }

// A create_room whose option value is `levels` arrays deep: the frame itself nests levels + 2.
std::string deep_create_room(std::size_t levels) {
  return R"({"type":"create_room","game":"happy_holidays","options":{"maxPlayers":)" + nested(levels) + "}}";
}

}  // namespace

TEST_CASE("a frame nested deeper than 32 levels is refused with frame_too_deep, at any frame limit", "[protocol][limits]") {
  const limits lim = raised();
  // The review's frames: 100,000 levels, which the server used to deep-copy until its stack ran out.
  CHECK(code_of(deep_create_room(100'000), lim) == "frame_too_deep");
  CHECK(code_of(R"({"type":"set_options","options":{"a":)" + nested(100'000) + "}}", lim) == "frame_too_deep");
  CHECK(code_of(R"({"type":"action","action":{"kind":"roll","x":)" + nested(100'000) + "}}", lim) == "frame_too_deep");
  CHECK(code_of(nested(500'000), lim) == "frame_too_deep");
  CHECK(code_of(std::string(1 << 20, '['), lim) == "frame_too_deep");  // never closed: refused at level 33, unread beyond
  std::string objects;
  for (int i = 0; i < 50'000; ++i) objects += R"({"a":)";
  CHECK(code_of(R"({"type":"chat","text":"x","more":)" + objects + "1" + std::string(50'000, '}') + "}", lim) == "frame_too_deep");

  // Exactly at the limit: 32 levels (the message, its options, 30 arrays) parse; 33 do not.
  REQUIRE(limits{}.max_depth == 32);
  auto at_limit = parse_client_message(deep_create_room(30), lim);
  REQUIRE(at_limit.ok);
  CHECK(std::get<create_room_msg>(at_limit.ok->message).options["maxPlayers"].is_array());
  CHECK(code_of(deep_create_room(31), lim) == "frame_too_deep");
  CHECK(code_of(deep_create_room(31)) == "frame_too_deep");  // the default frame limit too
  // Brackets inside strings are text, not nesting.
  CHECK(parse_client_message(R"({"type":"chat","text":")" + std::string(400, '[') + R"("})", lim).ok);
  CHECK(parse_client_message(R"({"type":"chat","text":"\")" + std::string(400, '{') + R"("})", lim).ok);
}

TEST_CASE("the deepest messages of version 1 are far inside the nesting limit", "[protocol][limits]") {
  // An Unterm Baum rearrange (5 levels: message, action, moves, one move, its cell) is the deepest
  // request the schemas describe (protocol/schema/games/unterm_baum/command.json); the limit leaves
  // six times that.
  const std::string rearrange =
      R"({"type":"action","id":1,"action":{"kind":"rearrange","moves":[{"from":{"row":0,"slot":0},"to":{"row":0,"slot":1}}]}})";
  CHECK(parse_bounded_json(rearrange, 5).refusal == json_refusal::none);
  CHECK(parse_bounded_json(rearrange, 4).refusal == json_refusal::too_deep);
  CHECK(parse_client_message(rearrange, limits{}).ok);
}

TEST_CASE("the bounded reader counts nesting, stops at the limit and never builds a deep document", "[protocol][limits]") {
  CHECK(parse_bounded_json("1", 0).refusal == json_refusal::none);
  CHECK(parse_bounded_json("[]", 0).refusal == json_refusal::too_deep);
  CHECK(parse_bounded_json("[]", 1).refusal == json_refusal::none);
  CHECK(parse_bounded_json(R"({"a":[1,{"b":2}]})", 3).refusal == json_refusal::none);
  CHECK(parse_bounded_json(R"({"a":[1,{"b":2}]})", 2).refusal == json_refusal::too_deep);
  CHECK(parse_bounded_json(R"([[1],[2],[3],{"a":[]}])", 3).refusal == json_refusal::none);  // siblings do not add up
  const auto doc = parse_bounded_json(R"({"b":[1,2.5,"x",null,true],"a":{"c":-3,"d":18446744073709551615}})", 3);
  REQUIRE(doc.refusal == json_refusal::none);
  CHECK(doc.value == nlohmann::json::parse(R"({"b":[1,2.5,"x",null,true],"a":{"c":-3,"d":18446744073709551615}})"));
  CHECK(parse_bounded_json(nested(1'000'000), 64).refusal == json_refusal::too_deep);
  CHECK(parse_bounded_json("", 8).refusal == json_refusal::not_json);
  CHECK(parse_bounded_json("[1] x", 8).refusal == json_refusal::not_json);
}

TEST_CASE("tinsel-replay's reader refuses a record file nested 100,000 deep instead of crashing", "[protocol][records]") {
  std::string why;
  const std::string deep_options = R"({"format":"tinsel-game-record","version":1,"game":"happy_holidays","options":{"a":)" +
                                   nested(100'000) + R"(},"players":["a","b"],"first_seat":null,"seed":"1","commitment":"","commands":[],"result":{}})";
  CHECK_FALSE(read_record(deep_options, why));
  CHECK(why.find("deeper") != std::string::npos);
  CHECK_FALSE(read_record(R"({"format":"tinsel-game-record","format":"x"})", why));
  CHECK(why.find("twice") != std::string::npos);
  CHECK_FALSE(read_record(std::string(R"({"format":"tinsel-game-record"})") + '\0' + "{", why));
  CHECK_FALSE(read_record("not json", why));
  CHECK(why == "the file is not JSON");
  // A record of the server's own depth reads (a command nested as deep as a frame allows, inside
  // the record's own three levels).
  CHECK(read_record(R"({"commands":[{"command":)" + nested(31) + "}]}", why));
}

TEST_CASE("a byte order mark or a NUL byte around the JSON is bad_json", "[protocol]") {
  const std::string hello = R"({"type":"hello","protocol":1,"name":"x"})";
  REQUIRE(parse_client_message(hello, limits{}).ok);
  CHECK(code_of("\xEF\xBB\xBF" + hello) == "bad_json");
  CHECK(code_of(hello + std::string(1, '\0')) == "bad_json");
  CHECK(code_of(hello + std::string(1, '\0') + R"({"type":"chat"})") == "bad_json");
  CHECK(code_of(std::string(1, '\0') + hello) == "bad_json");
  CHECK(code_of(R"({"type":"hello","protocol":1,"name":"x)" + std::string(1, '\0') + R"("})") == "bad_json");
  // JSON white space around the object is still fine, and an escaped NUL is a character (refused in names).
  CHECK(parse_client_message(" \r\n\t" + hello + "\n ", limits{}).ok);
  CHECK(code_of(R"({"type":"hello","protocol":1,"name":"x\u0000"})") == "invalid_field");
}

TEST_CASE("an object with the same key twice is invalid_message, at any depth", "[protocol]") {
  CHECK(code_of(R"({"type":"chat","text":"hi","type":"close_room"})") == "invalid_message");
  CHECK(code_of(R"({"type":"hello","protocol":1,"name":"x","id":1,"id":2})") == "invalid_message");
  CHECK(code_of(R"({"type":"create_room","game":"happy_holidays","options":{"maxPlayers":2,"maxPlayers":4}})") ==
        "invalid_message");
  CHECK(code_of(R"({"type":"action","action":{"kind":"roll","x":[{"a":1,"a":1}]}})") == "invalid_message");
  auto r = parse_client_message(R"({"type":"chat","text":"hi","type":"close_room"})", limits{});
  REQUIRE(r.error);
  CHECK(r.error->message.find("'type'") != std::string::npos);
  // The same key in different objects is fine; so are keys that differ only in case.
  CHECK(parse_client_message(R"({"type":"action","action":{"kind":"roll","x":[{"a":1},{"a":1}],"Kind":1}})", limits{}).ok);
}

TEST_CASE("an empty token is invalid_field, as the documentation says", "[protocol][limits]") {
  CHECK(code_of(R"({"type":"hello","protocol":1,"name":"x","token":""})") == "invalid_field");
}

TEST_CASE("names and chat refuse C1 controls and the line and paragraph separators", "[protocol][limits]") {
  auto name_of = [](const std::string& name) { return R"({"type":"hello","protocol":1,"name":")" + name + "\"}"; };
  auto chat_of = [](const std::string& text) { return R"({"type":"chat","text":")" + text + "\"}"; };
  for (const char* refused : {R"(Oma\u0085Inge)", "Oma\xC2\x85Inge", R"(Oma\u2028Inge)", "Oma\xE2\x80\xA8Inge",
                              R"(Oma\u2029Inge)", R"(\u0080Oma)", R"(Oma\u009f)", R"(Oma \u0085)"}) {
    INFO(refused);
    CHECK(code_of(name_of(refused)) == "invalid_field");
    CHECK(code_of(chat_of(refused)) == "invalid_field");
  }
  // Still fine: a newline in chat, and the characters next to the refused ranges.
  CHECK(parse_client_message(chat_of(R"(Frohe\nWeihnachten)"), limits{}).ok);
  CHECK(parse_client_message(name_of(R"(Oma\u00a0Inge\u00e9)"), limits{}).ok);
  CHECK(parse_client_message(name_of(R"(Oma\u2027Inge\u202f)"), limits{}).ok);
}
