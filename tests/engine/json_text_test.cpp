// tinsel_json_text (json_text/): the scalars and the two sinks that the games write their views and
// legal lists to. The text must be exactly what protocol::dump writes for the same json, and the
// json sink must build that json: one document written to both sinks proves both.
#include <catch2/catch.hpp>
#include <cstdint>
#include <limits>
#include <string>

#include "text_test_common.hpp"
#include "tinsel/json_text/json_text.hpp"
#include "tinsel/json_text/sinks.hpp"

namespace {

using text_test::dump;
using json = nlohmann::json;
namespace json_text = tinsel::json_text;

const std::string awkward[] = {"",         "tree",     "a\"b\\c",       "line\nbreak\t", "\x01\x1f\x7f",
                               "sch\xc3\xb6n", "bad \xff utf-8", "/slash", std::string(80, 'x')};

// Every kind of value, nested: empty containers, arrays in arrays, an object in an array, strings
// that need escaping, and integers at the ends of their types.
template <class Sink>
void emit_sample(Sink& s) {
  s.begin_object();
  s.key("a");
  s.begin_array();
  s.end_array();
  s.key("b");
  s.begin_object();
  s.end_object();
  s.member("c", true);
  s.member("d", false);
  s.key("e");
  s.null();
  s.key("f");
  s.begin_array(3);
  s.value(std::numeric_limits<int>::min());
  s.value(std::numeric_limits<std::uint64_t>::max());
  s.value(std::size_t{7});
  s.end_array();
  s.key("g");
  s.begin_array();
  for (const auto& str : awkward) s.value(str);
  s.begin_array();
  s.begin_object();
  s.member("k", "v");
  s.member(std::string(70, 'z'), -1);  // a key longer than the text sink's short-key buffer
  s.end_object();
  s.end_array();
  s.end_array();
  s.member("h", std::string_view("view"));
  s.end_object();
}

}  // namespace

TEST_CASE("json_text writes strings as nlohmann::json escapes them", "[text]") {
  for (const std::string& s : awkward) {
    std::string text = "x";
    json_text::string(text, s);
    CHECK(text == "x" + dump(json(s)));
  }
  std::string n;
  json_text::integer(n, -12);
  n += ',';
  json_text::integer(n, std::uint64_t{18446744073709551615u});
  CHECK(n == "-12,18446744073709551615");
}

TEST_CASE("A document written to the text sink is the dump of the one written to the json sink", "[text]") {
  const json j = json_text::as_json([](auto& s) { emit_sample(s); });
  CHECK(j["f"][0] == std::numeric_limits<int>::min());
  CHECK(j["g"].size() == std::size(awkward) + 1);
  CHECK(j["g"].back()[0]["k"] == "v");
  std::string text = "{\"view\":";  // appended after what the buffer holds, as in a frame
  json_text::as_text(text, [](auto& s) { emit_sample(s); });
  CHECK(text == "{\"view\":" + dump(j));
}

TEST_CASE("The text sink separates the values of a top-level array", "[text]") {
  std::string text;
  json_text::as_text(text, [](auto& s) {
    s.begin_array();
    s.value(1);
    s.value("two");
    s.null();
    s.begin_array();
    s.end_array();
    s.value(false);
    s.end_array();
  });
  CHECK(text == R"([1,"two",null,[],false])");
}
