// The JSON Schema validator that checks every frame of the integration tests: it must refuse what
// the schema refuses, accept what it allows, and refuse to load a schema it cannot evaluate.
#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <map>

#include "json_schema.hpp"
#include "tinsel/protocol/errors.hpp"

using tinsel::test::schema_set;
using json = nlohmann::json;

namespace {

// A throwaway schema directory with the given files ($id is filled in from the path).
struct temp_schemas {
  explicit temp_schemas(const std::map<std::string, json>& files) {
    dir = std::filesystem::temp_directory_path() /
          ("tinsel-schema-test-" + std::to_string(reinterpret_cast<std::uintptr_t>(this)));
    std::filesystem::remove_all(dir);
    for (auto [path, schema] : files) {
      schema["$schema"] = "https://json-schema.org/draft/2020-12/schema";
      schema["$id"] = "https://example.invalid/s/" + path;
      std::filesystem::create_directories((dir / path).parent_path());
      std::ofstream(dir / path) << schema.dump(2);
    }
  }
  ~temp_schemas() { std::filesystem::remove_all(dir); }
  std::filesystem::path dir;
};

const json person = {
    {"type", "object"},
    {"properties",
     {{"kind", {{"const", "person"}}},
      {"name", {{"type", "string"}, {"minLength", 1}, {"maxLength", 3}, {"pattern", "^[A-Z]"}}},
      {"age", {{"type", "integer"}, {"minimum", 0}, {"maximum", 150}}},
      {"colour", {{"enum", {"red", "green"}}}},
      {"tags", {{"type", "array"}, {"items", {{"type", "string"}}}, {"minItems", 1}, {"maxItems", 2},
                {"uniqueItems", true}}},
      {"at", {{"type", "array"}, {"prefixItems", {{{"type", "integer"}}, {{"type", "string"}}}}, {"items", false}}},
      {"home", {{"$ref", "common/defs.json#/$defs/place"}}}}},
    {"required", {"kind", "name"}},
    {"additionalProperties", false}};

const json defs = {{"$defs", {{"place", {{"type", "object"}, {"properties", {{"city", {{"type", "string"}}}}},
                                         {"required", {"city"}}, {"additionalProperties", false}}}}}};

const json animal = {{"type", "object"},
                     {"properties", {{"kind", {{"const", "animal"}}}, {"legs", {{"type", "integer"}}}}},
                     {"required", {"kind", "legs"}},
                     {"additionalProperties", false}};

const json any_thing = {{"oneOf", {{{"$ref", "person.json"}}, {{"$ref", "animal.json"}}}}};

const json conditional = {
    {"type", "object"},
    {"properties", {{"game", {{"type", "string"}}}, {"count", {{"type", "integer"}}}}},
    {"if", {{"properties", {{"game", {{"const", "small"}}}}}, {"required", {"game"}}}},
    {"then", {{"properties", {{"count", {{"maximum", 3}}}}}}},
    {"else", {{"properties", {{"count", {{"minimum", 10}}}}}}}};

temp_schemas sample() {
  return temp_schemas({{"person.json", person},
                       {"animal.json", animal},
                       {"any.json", any_thing},
                       {"conditional.json", conditional},
                       {"common/defs.json", defs}});
}

}  // namespace

TEST_CASE("a valid instance passes", "[schema]") {
  auto t = sample();
  schema_set s(t.dir);
  CHECK_FALSE(s.validate({{"kind", "person"}, {"name", "Oma"}}, "person.json"));
  CHECK_FALSE(s.validate({{"kind", "person"}, {"name", "Ben"}, {"age", 70}, {"colour", "red"}, {"tags", {"a"}},
                          {"at", {1, "x"}}, {"home", {{"city", "Ulm"}}}},
                         "person.json"));
  CHECK_FALSE(s.validate({{"kind", "person"}, {"name", "Ben"}, {"age", 7.0}}, "person.json"));  // 7.0 is an integer
}

TEST_CASE("the validator refuses what the schema refuses", "[schema]") {
  auto t = sample();
  schema_set s(t.dir);
  const json ok = {{"kind", "person"}, {"name", "Oma"}};
  const auto refused = [&](json patch, const std::string& needle) {
    json x = ok;
    x.merge_patch(patch);
    const auto why = s.validate(x, "person.json");
    INFO(x.dump() << " -> " << why.value_or("(accepted)"));
    REQUIRE(why);
    CHECK(why->find(needle) != std::string::npos);
  };
  refused({{"name", 5}}, "expected type \"string\"");
  refused({{"age", 1.5}}, "expected type \"integer\"");
  refused({{"age", -1}}, "minimum");
  refused({{"age", 151}}, "maximum");
  refused({{"name", ""}}, "minLength");
  refused({{"name", "Oma Inge"}}, "maxLength");
  refused({{"name", "oma"}}, "does not match");
  refused({{"colour", "pink"}}, "is not one of");
  refused({{"kind", "robot"}}, "expected \"person\"");
  refused({{"extra", 1}}, "property 'extra' is not allowed");
  refused({{"tags", json::array()}}, "fewer than 1");
  refused({{"tags", {"a", "b", "c"}}}, "more than 2");
  refused({{"tags", {"a", "a"}}}, "are equal");
  refused({{"tags", {"a", 2}}}, "/tags/1");
  refused({{"at", {"x", "y"}}}, "/at/0");
  refused({{"at", {1, "x", 3}}}, "false schema");
  refused({{"home", {{"town", "Ulm"}}}}, "missing required property 'city'");
  CHECK(s.validate({{"kind", "person"}}, "person.json")->find("missing required property 'name'") != std::string::npos);
  CHECK(s.validate(json::array(), "person.json")->find("expected type \"object\"") != std::string::npos);
}

TEST_CASE("maxLength counts Unicode characters, not bytes", "[schema]") {
  auto t = sample();
  schema_set s(t.dir);
  CHECK_FALSE(s.validate({{"kind", "person"}, {"name", "Aäö"}}, "person.json"));  // 3 characters, 5 bytes
}

TEST_CASE("oneOf reports the alternative that applies", "[schema]") {
  auto t = sample();
  schema_set s(t.dir);
  CHECK_FALSE(s.validate({{"kind", "animal"}, {"legs", 4}}, "any.json"));
  // The animal alternative applies (its discriminator matches); its error is the one reported.
  const auto why = s.validate({{"kind", "animal"}, {"legs", "four"}}, "any.json");
  REQUIRE(why);
  CHECK(why->find("/legs") != std::string::npos);
  CHECK(why->find("animal.json") != std::string::npos);
  const auto none = s.validate({{"kind", "plant"}}, "any.json");
  REQUIRE(none);
  CHECK(none->find("none of the 2 alternatives") != std::string::npos);
  CHECK(none->find("\"person\"") != std::string::npos);
}

TEST_CASE("if/then/else applies the branch the condition picks", "[schema]") {
  auto t = sample();
  schema_set s(t.dir);
  CHECK_FALSE(s.validate({{"game", "small"}, {"count", 2}}, "conditional.json"));
  CHECK(s.validate({{"game", "small"}, {"count", 4}}, "conditional.json"));
  CHECK_FALSE(s.validate({{"game", "big"}, {"count", 12}}, "conditional.json"));
  CHECK(s.validate({{"game", "big"}, {"count", 4}}, "conditional.json"));
}

TEST_CASE("schemas with keywords the validator does not implement are refused at load", "[schema]") {
  for (const auto& bad : {json{{"type", "object"}, {"patternProperties", {{"^a", true}}}},
                          json{{"type", "string"}, {"format", "email"}},
                          json{{"type", "object"}, {"unevaluatedProperties", false}},
                          json{{"$ref", "missing.json"}},
                          json{{"$ref", "#/$defs/nowhere"}},
                          json{{"type", "strnig"}},
                          json{{"pattern", "(unclosed"}}}) {
    INFO(bad.dump());
    temp_schemas t({{"bad.json", bad}});
    CHECK_THROWS_AS(schema_set(t.dir), std::runtime_error);
  }
}

TEST_CASE("the protocol's schemas load and check real messages", "[schema][protocol]") {
  const auto& s = schema_set::protocol();
  CHECK_FALSE(s.validate({{"type", "hello"}, {"protocol", 1}, {"name", "Oma Inge"}, {"id", 1}}, "client-message.json"));
  CHECK_FALSE(s.validate({{"type", "chat"}, {"text", "Frohe Weihnachten! 🎄\nBis bald"}}, "client-message.json"));
  CHECK_FALSE(s.validate({{"type", "join_room"}, {"room", "k7m-2qx"}}, "client-message.json"));
  CHECK_FALSE(s.validate({{"type", "action"}, {"action", {{"kind", "sleigh_colour"}, {"colour", "red"}}}},
                         "client-message.json"));
  CHECK(s.validate({{"type", "action"}, {"action", {{"kind", "sleigh_colour"}, {"color", "red"}}}},
                   "client-message.json"));
  CHECK(s.validate({{"type", "hello"}, {"protocol", 1}, {"name", "a\tb"}}, "client-message.json"));
  CHECK(s.validate({{"type", "hello"}, {"protocol", 1}, {"name", "   "}}, "client-message.json"));
  CHECK(s.validate({{"type", "join_room"}, {"room", "0000"}}, "client-message.json"));
  CHECK(s.validate({{"type", "dance"}}, "client-message.json"));
  CHECK_FALSE(s.validate({{"type", "error"}, {"id", 3}, {"code", "room_full"}, {"message", "every seat is taken"}},
                         "server-message.json"));
  CHECK(s.validate({{"type", "error"}, {"code", "no_such_code"}, {"message", "x"}}, "server-message.json"));
  CHECK_FALSE(s.validate({{"type", "ok"}}, "server-message.json"));  // a request without an id
  CHECK(s.validate({{"type", "ok"}, {"id", 1}, {"room", "K7M2QX"}}, "server-message.json"));  // half a join ok
}

TEST_CASE("every generic error code of the server is in the schema's error_code enum", "[schema][protocol]") {
  const auto& s = schema_set::protocol();
  for (auto code : tinsel::protocol::errc::all) {
    INFO(code);
    CHECK_FALSE(s.validate(std::string(code), "defs.json#/$defs/error_code"));
  }
}

TEST_CASE("a pattern matches code points, not UTF-8 bytes", "[schema]") {
  // As protocol/schema/defs.json refuses C1 controls and U+2028 in names: a byte-wise match would
  // refuse every character with a continuation byte in 0x80-0x9f (the euro sign is E2 82 AC).
  temp_schemas t({{"name.json", {{"type", "string"}, {"pattern", "^[^\\u0000-\\u001f\\u007f-\\u009f\\u2028\\u2029]*$"}}},
                  {"count.json", {{"type", "string"}, {"pattern", "^.{2}$"}}}});
  schema_set s(t.dir);
  CHECK_FALSE(s.validate("Oma \u20ac (K\u00f6ln)", "name.json"));
  CHECK(s.validate("Oma\u0085", "name.json"));
  CHECK(s.validate("Oma\u2028Inge", "name.json"));
  CHECK(s.validate("Oma\u2029", "name.json"));
  CHECK_FALSE(s.validate("\u20ac\U0001F384", "count.json"));  // two characters, seven bytes
}
