// Parsing and validation of client messages (protocol v1 envelope).
#include <catch2/catch.hpp>

#include "tinsel/engine/dice.hpp"
#include "tinsel/engine/game.hpp"
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
  auto r = parse(R"({"type":"join_room","room":"ABCDEF","as":"king","id":42})");
  REQUIRE(r.error);
  CHECK(r.error->code == "invalid_field");
  CHECK(r.id == 42);
}

// docs/protocol.md, "Invite links" and join_room: a string that cannot be a code names no room,
// like a code without a room (the invite page says `unknown_room` for both); only a `room` that
// is not a string is a malformed request.
TEST_CASE("a join_room code that cannot be a code is unknown_room, a room that is no string invalid_field", "[protocol]") {
  for (const char* room : {"??", "", "0000", "ABCDE", "ABCDEFG", "ABCDE0", "K7M 2Q\u00e9"}) {
    INFO(room);
    auto r = parse(std::string(R"({"type":"join_room","room":")") + room + R"(","id":7})");
    REQUIRE(r.error);
    CHECK(r.error->code == "unknown_room");
    CHECK(r.id == 7);
  }
  CHECK(code_of(R"({"type":"join_room","room":5})") == "invalid_field");
  CHECK(code_of(R"({"type":"join_room","room":null})") == "invalid_field");
}

// The envelope: an `id` the server cannot accept (not an integer, nor a string of at most 64
// characters) is not echoed; the error that refuses the request has no id.
TEST_CASE("an invalid request id is refused with invalid_field and not kept", "[protocol]") {
  const std::string long_id = "\"" + std::string(65, 'i') + "\"";
  for (const std::string& id : std::vector<std::string>{"1.5", "-0.5", "true", "null", "[1]", "{\"a\":1}", long_id}) {
    INFO(id);
    auto r = parse(R"({"type":"leave_room","id":)" + id + "}");
    REQUIRE(r.error);
    CHECK(r.error->code == "invalid_field");
    CHECK(r.id.is_null());
  }
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

TEST_CASE("integers out of their field's range are invalid_field, never truncated", "[protocol][limits]") {
  // 4294967297 = 2^32 + 1 would become 1 in a 32-bit int.
  CHECK(code_of(R"({"type":"hello","protocol":4294967297,"name":"x"})") == "invalid_field");
  CHECK(code_of(R"({"type":"hello","protocol":2147483648,"name":"x"})") == "invalid_field");
  CHECK(code_of(R"({"type":"hello","protocol":18446744073709551617,"name":"x"})") == "invalid_field");
  CHECK(code_of(R"({"type":"hello","protocol":0,"name":"x"})") == "invalid_field");
  CHECK(code_of(R"({"type":"hello","protocol":-1,"name":"x"})") == "invalid_field");
  CHECK(code_of(R"({"type":"hello","protocol":1.0,"name":"x"})") == "invalid_field");
  auto two = parse(R"({"type":"hello","protocol":2,"name":"x"})");  // a version, refused later as unsupported
  REQUIRE(two.ok);
  CHECK(std::get<hello_msg>(two.ok->message).protocol == 2);
  auto big = parse(R"({"type":"hello","protocol":2147483647,"name":"x"})");
  REQUIRE(big.ok);
  CHECK(std::get<hello_msg>(big.ok->message).protocol == 2147483647);

  for (const char* field : {"first_seat", "seat"}) {
    INFO(field);
    const std::string type = std::string(field) == "seat" ? "remove_bot" : "start_game";
    auto msg = [&](const std::string& v) { return R"({"type":")" + type + R"(",")" + field + "\":" + v + "}"; };
    CHECK(code_of(msg("4294967296")) == "invalid_field");
    CHECK(code_of(msg("4294967298")) == "invalid_field");
    CHECK(code_of(msg("18446744073709551615")) == "invalid_field");
    CHECK(code_of(msg("18446744073709551616")) == "invalid_field");
    CHECK(code_of(msg("-9223372036854775808")) == "invalid_field");
    CHECK(code_of(msg("-1")) == "invalid_field");
    CHECK(code_of(msg("65")) == "invalid_field");
    CHECK(code_of(msg("1.5")) == "invalid_field");
    CHECK(parse(msg("64")).ok);
    CHECK(parse(msg("0")).ok);
  }
  auto seat = parse(R"({"type":"remove_bot","seat":3})");
  REQUIRE(seat.ok);
  CHECK(std::get<remove_bot_msg>(seat.ok->message).seat == 3);

  auto join = [](const std::string& v) { return R"({"type":"join_room","room":"ABCDEF","last_seq":)" + v + "}"; };
  CHECK(code_of(join("-1")) == "invalid_field");
  CHECK(code_of(join("18446744073709551616")) == "invalid_field");
  CHECK(code_of(join("2.5")) == "invalid_field");
  auto max = parse(join("18446744073709551615"));
  REQUIRE(max.ok);
  CHECK(std::get<join_room_msg>(max.ok->message).last_seq == std::optional<std::uint64_t>(18446744073709551615ULL));
  CHECK(code_of(R"({"type":"hello","protocol":1,"name":"x","id":1e3})") == "invalid_field");
}

TEST_CASE("a string id is limited in characters like the schema's maxLength: 64 accepted, 65 refused", "[protocol][limits]") {
  auto with_id = [](const std::string& id) { return R"({"type":"leave_room","id":")" + id + "\"}"; };
  auto repeat = [](const std::string& s, int n) {
    std::string out;
    for (int i = 0; i < n; ++i) out += s;
    return out;
  };
  for (const std::string ch : {"i", "\u00e9", "\u2603", "\U0001F384"}) {  // 1 to 4 bytes each
    INFO(ch);
    auto ok = parse(with_id(repeat(ch, 64)));
    REQUIRE(ok.ok);
    CHECK(ok.ok->id == repeat(ch, 64));
    CHECK(code_of(with_id(repeat(ch, 65))) == "invalid_field");
  }
  CHECK(parse(R"({"type":"leave_room","id":""})").ok);
}

TEST_CASE("a token is exactly 32 lower-case hex digits", "[protocol][limits]") {
  auto hello = [](const std::string& token) { return R"({"type":"hello","protocol":1,"name":"x","token":")" + token + "\"}"; };
  const std::string good = "0123456789abcdef0123456789abcdef";
  auto r = parse(hello(good));
  REQUIRE(r.ok);
  CHECK(std::get<hello_msg>(r.ok->message).token == good);
  CHECK(code_of(hello(good + "0")) == "invalid_field");              // 33
  CHECK(code_of(hello(good.substr(1))) == "invalid_field");          // 31
  CHECK(code_of(hello("0123456789ABCDEF0123456789abcdef")) == "invalid_field");  // upper case
  CHECK(code_of(hello("0123456789abcdef0123456789abcdeF")) == "invalid_field");
  CHECK(code_of(hello("0123456789abcdef0123456789abcdeg")) == "invalid_field");
  CHECK(code_of(R"({"type":"hello","protocol":1,"name":"x","token":5})") == "invalid_field");
  CHECK(parse(R"({"type":"hello","protocol":1,"name":"x","token":null})").ok);
}

TEST_CASE("hello's views is \"full\" (the default) or \"changes\", anything else invalid_field", "[protocol]") {
  auto views = [](const std::string& v) { return R"({"type":"hello","protocol":1,"name":"x","views":)" + v + "}"; };
  auto changes = [&](const std::string& s) {
    auto r = parse(s);
    REQUIRE(r.ok);
    return std::get<hello_msg>(r.ok->message).view_changes;
  };
  CHECK_FALSE(changes(R"({"type":"hello","protocol":1,"name":"x"})"));
  CHECK_FALSE(changes(views("null")));
  CHECK_FALSE(changes(views(R"("full")")));
  CHECK(changes(views(R"("changes")")));
  for (const auto* bad : {R"("Changes")", R"("diff")", R"("")", "true", "1", "[]", R"({"views":"changes"})"}) {
    INFO(bad);
    const auto r = parse(views(bad));
    REQUIRE(r.error);
    CHECK(r.error->code == "invalid_field");
    CHECK(r.error->message.find("views") != std::string::npos);
  }
}

TEST_CASE("set_game names a game and takes options like create_room", "[protocol]") {
  auto r = parse(R"({"type":"set_game","game":"unterm_baum","options":{"maxPlayers":4},"id":12})");
  REQUIRE(r.ok);
  CHECK(r.ok->id == 12);
  const auto& m = std::get<set_game_msg>(r.ok->message);
  CHECK(m.game == "unterm_baum");
  CHECK(m.options == json{{"maxPlayers", 4}});
  auto bare = parse(R"({"type":"set_game","game":"christmas_penguins","options":null})");
  REQUIRE(bare.ok);
  CHECK(std::get<set_game_msg>(bare.ok->message).options == json::object());  // null: the defaults
  CHECK(code_of(R"({"type":"set_game"})") == "invalid_field");
  CHECK(code_of(R"({"type":"set_game","game":7})") == "invalid_field");
  CHECK(code_of(R"({"type":"set_game","game":"unterm_baum","options":[]})") == "invalid_field");
}

TEST_CASE("ping is a bare request", "[protocol]") {
  auto r = parse(R"({"type":"ping","id":9})");
  REQUIRE(r.ok);
  CHECK(r.ok->id == 9);
  CHECK(std::holds_alternative<ping_msg>(r.ok->message));
}

TEST_CASE("full_view is a bare request", "[protocol]") {
  auto r = parse(R"({"type":"full_view","id":4})");
  REQUIRE(r.ok);
  CHECK(r.ok->id == 4);
  CHECK(std::holds_alternative<full_view_msg>(r.ok->message));
}

TEST_CASE("a name needs a visible character, bidirectional controls are removed from names and chat", "[protocol][limits]") {
  auto name_of = [](const std::string& name) { return R"({"type":"hello","protocol":1,"name":")" + name + "\"}"; };
  for (const char* invisible : {R"(\u200b)", R"(\u200b\u200c\u200d\u200e\u200f)", R"(\u2060\u2061\u2062\u2063\u2064)",
                                R"(\ufeff)", R"( \u00a0\u2003\u3000 )", R"(\u0301\u0308\u036f)", R"(\u3164)",
                                R"(\u202e\u2066)", R"(\ufe0f)", R"(\u00ad)"}) {
    INFO(invisible);
    CHECK(code_of(name_of(invisible)) == "invalid_field");
    CHECK(code_of(R"({"type":"chat","text":")" + std::string(invisible) + "\"}") == "invalid_field");
  }
  // A visible character with invisible ones is a name; zero-width joiners stay (emoji sequences).
  auto family = parse(name_of(R"(\ud83d\udc68\u200d\ud83d\udc69)"));
  REQUIRE(family.ok);
  CHECK(std::get<hello_msg>(family.ok->message).name == "\U0001F468\u200D\U0001F469");
  auto accented = parse(name_of(R"(e\u0301)"));
  REQUIRE(accented.ok);
  CHECK(std::get<hello_msg>(accented.ok->message).name == "e\u0301");

  // Right-to-left overrides, embeddings, isolates and marks are dropped, not passed on.
  auto rlo = parse(name_of(R"( \u202eOma\u202c \u2067Inge\u2069\u200e\u200f\u061c )"));
  REQUIRE(rlo.ok);
  CHECK(std::get<hello_msg>(rlo.ok->message).name == "Oma Inge");
  auto chat = parse(R"({"type":"chat","text":"gift \u202dfor\u202a\u202b\u2068 you\u202e\n\u2066ok"})");
  REQUIRE(chat.ok);
  CHECK(std::get<chat_msg>(chat.ok->message).text == "gift for you\nok");
  // The length counts what is kept: 32 characters plus bidi controls are still a name.
  std::string long_name;
  for (int i = 0; i < 32; ++i) long_name += R"(a\u202e)";
  CHECK(parse(name_of(long_name)).ok);
  CHECK(code_of(name_of(long_name + "a")) == "invalid_field");
}

TEST_CASE("kick and transfer_host need a non-empty player", "[protocol][limits]") {
  for (const char* type : {"kick", "transfer_host"}) {
    INFO(type);
    CHECK(code_of(R"({"type":")" + std::string(type) + R"(","player":""})") == "invalid_field");
    CHECK(code_of(R"({"type":")" + std::string(type) + R"(","player":")" + std::string(65, 'p') + "\"}") == "invalid_field");
    CHECK(code_of(R"({"type":")" + std::string(type) + R"("})") == "invalid_field");
    CHECK(parse(R"({"type":")" + std::string(type) + R"(","player":"p_0123456789abcdef"})").ok);
  }
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

// insert_member: the catch-up and the game log give every event its state's seq in the text the
// server serialized once; it must be exactly what dump() writes for the event with "seq" set.
namespace {
std::string with_member_by_json(const std::string& object, const std::string& key, const json& value) {
  json j = json::parse(object);
  j[key] = value;
  return dump(j);
}
}  // namespace

TEST_CASE("insert_member writes what dump writes with the member set", "[protocol]") {
  const std::vector<std::string> objects = {
      R"({})",
      R"({"a":1})",
      R"({"z":1})",
      R"({"seq":3})",
      R"({"kind":"moved","seat":2})",
      R"({"kind":"moved","seat":2,"to":{"x":1,"y":[1,2,{"seq":9}]}})",
      R"({"a":"}\"]{,","seq":1,"zz":[]})",
      R"({"s":null,"se":true,"seqq":false,"sf":-1.5})",
      R"({"":0,"A":"é","b\"q":1,"t":"\\"})",  // a key with an escape: the slow path
      R"({"kind":"a","list":[{"k":[[],{}]},"]"],"z":"x\\\"y"})",
  };
  for (const auto& o : objects) {
    for (const std::string key : {"seq", "a", "zz", "", "kind", "s"}) {
      for (const json& value : {json(17), json("x\"y"), json::parse(R"({"b":[1,{"c":null}]})")}) {
        INFO(o << " + " << key << ": " << dump(value));
        CHECK(insert_member(o, key, dump(value)) == with_member_by_json(o, key, value));
      }
    }
  }
}

TEST_CASE("insert_member gives every event of random games its seq as dump would", "[protocol]") {
  using namespace tinsel::engine;
  std::size_t checked = 0;
  for (const auto* info : builtin_games().all()) {
    for (std::uint64_t seed = 1; seed <= 6; ++seed) {
      seeded_dice d(seed), pick(seed * 7919);
      auto options = info->normalize_options(json::object());
      REQUIRE(options);
      auto created = info->create(setup{options.value(), 3 + static_cast<int>(seed % 2), std::nullopt}, d);
      REQUIRE(created);
      auto& g = *created.value();
      for (int step = 0; step < 400 && !g.is_over(); ++step) {
        const auto prompt = g.current_prompt();
        if (!prompt || prompt->seats.empty()) break;
        const int seat = prompt->seats[pick.roll(static_cast<std::uint32_t>(prompt->seats.size()))];
        std::vector<json> concrete;
        for (const auto& e : g.legal(seat))
          if (!e.contains("domain")) concrete.push_back(e);
        if (concrete.empty()) break;
        auto applied = g.apply(seat, concrete[pick.roll(static_cast<std::uint32_t>(concrete.size()))], d);
        REQUIRE(applied);
        for (const auto& e : applied.value()) {
          const auto seq = static_cast<std::uint64_t>(step) + 1;
          CHECK(insert_member(dump(e.body), "seq", std::to_string(seq)) == with_member_by_json(dump(e.body), "seq", seq));
          ++checked;
        }
      }
    }
  }
  CHECK(checked > 1000);
}
