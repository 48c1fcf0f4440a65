// The validator of tests/support/json_schema.* against the official JSON-Schema-Test-Suite
// (Debian's json-schema-test-suite), so that a contract test cannot pass because the validator is
// wrong: every case of every file for a keyword the validator implements must give the suite's
// answer, and every file for a keyword it does not implement must be refused at load.
//
// Debian 12 ships the suite's release 2.0.0, whose newest draft is draft 7; the validator speaks
// draft 2020-12. The keywords both drafts share mean the same, except for three, which are
// rewritten mechanically before a case is run (translate() below): `definitions` is `$defs`,
// an array-valued `items` is `prefixItems` and `additionalItems` beside it is `items`. A case
// whose draft 7 answer is not the 2020-12 answer, or that needs a feature outside the
// validator's documented subset, is listed in `skipped` with the reason, and reported; a case
// that cannot be loaded and is not listed fails. A listed case the suite no longer has fails too,
// so the list cannot go stale.
//
// Where the suite is not installed the binary prints why and exits 77, which CTest counts as
// skipped (SKIP_RETURN_CODE), never as passed. TINSEL_JSON_SCHEMA_TEST_SUITE names another copy
// (the folder holding draft7/).
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "json_schema.hpp"

using tinsel::test::schema_set;
using json = nlohmann::json;
namespace fs = std::filesystem;

namespace {

fs::path suite_root() {
  if (const char* env = std::getenv("TINSEL_JSON_SCHEMA_TEST_SUITE"); env && *env) return env;
  return "/usr/share/json-schema-test-suite/tests";
}

// The keywords tests/support/json_schema.hpp implements, each with the suite files that test it
// (draft 7 names). `$defs` is tested through definitions (translated) inside ref.json.
const std::vector<std::pair<std::string, std::vector<std::string>>> implemented = {
    {"type", {"type.json", "optional/bignum.json", "optional/zeroTerminatedFloats.json"}},
    {"const", {"const.json"}},
    {"enum", {"enum.json"}},
    {"properties", {"properties.json"}},
    {"required", {"required.json"}},
    {"additionalProperties", {"additionalProperties.json"}},
    {"items", {"items.json"}},
    {"prefixItems", {"items.json", "additionalItems.json"}},
    {"minItems", {"minItems.json"}},
    {"maxItems", {"maxItems.json"}},
    {"uniqueItems", {"uniqueItems.json"}},
    {"minimum", {"minimum.json", "optional/bignum.json"}},
    {"maximum", {"maximum.json", "optional/bignum.json"}},
    {"exclusiveMinimum", {"exclusiveMinimum.json", "optional/bignum.json"}},
    {"exclusiveMaximum", {"exclusiveMaximum.json", "optional/bignum.json"}},
    {"minLength", {"minLength.json"}},
    {"maxLength", {"maxLength.json"}},
    {"pattern", {"pattern.json"}},
    {"allOf", {"allOf.json"}},
    {"anyOf", {"anyOf.json"}},
    {"oneOf", {"oneOf.json"}},
    {"not", {"not.json"}},
    {"if/then/else", {"if-then-else.json"}},
    {"$ref and $defs", {"ref.json"}},
    {"boolean schemas", {"boolean_schema.json"}},
    {"default (annotation)", {"default.json"}},
};

// Files for keywords the validator does not implement: loading must refuse every one of their
// schemas (the validator's contract: a schema cannot rely on a keyword it would skip).
const std::vector<std::string> unimplemented = {
    "contains.json",          "dependencies.json",     "maxProperties.json", "minProperties.json",
    "multipleOf.json",        "patternProperties.json", "propertyNames.json", "refRemote.json",
    "definitions.json",       "optional/content.json",  "optional/ecmascript-regex.json",
};

// Groups (file, description) not run, with the reason.
const std::map<std::pair<std::string, std::string>, std::string> skipped = {
    {{"ref.json", "ref overrides any sibling keywords"},
     "draft 7 ignores keywords beside $ref; 2020-12 applies them (the validator follows 2020-12)"},
    {{"ref.json", "remote ref, containing refs itself"},
     "a remote $ref to the draft 7 meta-schema; the validator resolves only files of its own directory"},
    {{"ref.json", "Recursive references between schemas"},
     "nested $id and $ref by $id; the validator supports neither (documented)"},
    {{"additionalProperties.json", "additionalProperties being false does not allow other properties"},
     "uses patternProperties, which the validator does not implement (refused at load)"},
    {{"additionalProperties.json", "non-ASCII pattern with additionalProperties"},
     "uses patternProperties, which the validator does not implement (refused at load)"},
    {{"properties.json", "properties, patternProperties, additionalProperties interaction"},
     "uses patternProperties, which the validator does not implement (refused at load)"},
    {{"if-then-else.json", "if and else without then"},
     "uses multipleOf, which the validator does not implement (refused at load)"},
    {{"if-then-else.json", "validate against correct branch, then vs else"},
     "uses multipleOf, which the validator does not implement (refused at load)"},
    {{"if-then-else.json", "non-interference across combined schemas"},
     "uses multipleOf, which the validator does not implement (refused at load)"},
    {{"ref.json", "escaped pointer ref"},
     "its targets are unknown keywords at the root, which the validator refuses by contract; the same "
     "pointers inside $defs are the test case 'escaped JSON pointers in $ref'"},
};

// Rewrites a draft 7 schema into the draft 2020-12 equivalent, at schema positions only (never
// inside const, enum or default).
json translate(const json& s);

std::string translate_ref(std::string ref) {
  for (const auto& [from, to] : {std::pair<std::string, std::string>{"#/definitions/", "#/$defs/"},
                                 {"#/items/", "#/prefixItems/"}})
    if (ref.rfind(from, 0) == 0) ref = to + ref.substr(from.size());
  return ref;
}

json translate(const json& s) {
  if (!s.is_object()) return s;
  json out = json::object();
  const bool tuple = s.contains("items") && s["items"].is_array();
  for (const auto& [key, value] : s.items()) {
    if (key == "definitions" || key == "$defs" || key == "properties") {
      json m = json::object();
      for (const auto& [name, sub] : value.items()) m[name] = translate(sub);
      out[key == "properties" ? "properties" : "$defs"] = m;
    } else if (key == "items" && tuple) {
      json a = json::array();
      for (const auto& sub : value) a.push_back(translate(sub));
      out["prefixItems"] = a;
    } else if (key == "additionalItems") {
      if (tuple) out["items"] = translate(value);  // draft 7 ignores it beside a single `items`
    } else if (key == "allOf" || key == "anyOf" || key == "oneOf") {
      json a = json::array();
      for (const auto& sub : value) a.push_back(translate(sub));
      out[key] = a;
    } else if (key == "items" || key == "additionalProperties" || key == "not" || key == "if" || key == "then" ||
               key == "else") {
      out[key] = translate(value);
    } else if (key == "$ref" && value.is_string()) {
      out[key] = translate_ref(value.get<std::string>());
    } else {
      out[key] = value;
    }
  }
  return out;
}

// One schema as a one-file schema directory, as the validator loads protocol/schema.
struct one_schema {
  explicit one_schema(const json& schema) {
    static int counter = 0;
    dir = fs::temp_directory_path() /
          ("tinsel-schema-suite-" + std::to_string(reinterpret_cast<std::uintptr_t>(this)) + "-" +
           std::to_string(counter++));
    fs::remove_all(dir);
    fs::create_directories(dir);
    json file = schema.is_object() ? schema : json{{"$defs", {{"root", schema}}}};
    file["$schema"] = "https://json-schema.org/draft/2020-12/schema";
    file["$id"] = "https://suite.invalid/case.json";
    name = schema.is_object() ? "case.json" : "case.json#/$defs/root";
    std::ofstream(dir / "case.json") << file.dump(2);
  }
  ~one_schema() { fs::remove_all(dir); }
  one_schema(const one_schema&) = delete;
  one_schema& operator=(const one_schema&) = delete;
  fs::path dir;
  std::string name;
};

json read_json(const fs::path& p) {
  std::ifstream in(p);
  return json::parse(in);
}

fs::path draft7() { return suite_root() / "draft7"; }

// Draft 2020-12, run as it is (no translation), where the suite has it (not Debian 12's release):
// the files of the implemented keywords, and each group the validator refuses to load, listed
// with its reason.
fs::path draft2020() { return suite_root() / "draft2020-12"; }

const std::vector<std::string> implemented_2020 = {
    "type.json",          "const.json",          "enum.json",          "properties.json",
    "required.json",      "additionalProperties.json", "items.json",   "prefixItems.json",
    "minItems.json",      "maxItems.json",       "uniqueItems.json",   "minimum.json",
    "maximum.json",       "exclusiveMinimum.json", "exclusiveMaximum.json", "minLength.json",
    "maxLength.json",     "pattern.json",        "allOf.json",         "anyOf.json",
    "oneOf.json",         "not.json",            "if-then-else.json",  "ref.json",
    "boolean_schema.json", "default.json",       "optional/bignum.json", "optional/non-bmp-regex.json",
};

const std::map<std::pair<std::string, std::string>, std::string> skipped_2020 = {
#include "suite_2020_skips.inc"
};

bool draft2020_mode() {
  const char* d = std::getenv("TINSEL_JSON_SCHEMA_DRAFT");
  return d && std::string(d) == "2020-12";
}

// Runs one group of the suite: its schema, then each case's data, valid or not as the case says.
// Returns how many cases ran (none when the validator refuses the schema, which fails the test).
std::size_t run_group(const json& schema, const json& tests) {
  one_schema dir(schema);
  std::unique_ptr<schema_set> set;
  try {
    set = std::make_unique<schema_set>(dir.dir);
  } catch (const std::exception& e) {
    FAIL_CHECK("the validator refuses the schema: " << e.what());
    return 0;
  }
  std::size_t cases = 0;
  for (const auto& test : tests) {
    INFO("case '" << test.at("description").get<std::string>() << "', data " << test.at("data").dump());
    const auto result = set->validate(test.at("data"), dir.name);
    if (test.at("valid").get<bool>())
      CHECK_FALSE(result);
    else
      CHECK(result);
    ++cases;
  }
  return cases;
}

}  // namespace

TEST_CASE("the validator gives the official suite's answer for every implemented keyword", "[schema][suite]") {
  std::set<std::string> files;
  for (const auto& [keyword, list] : implemented) files.insert(list.begin(), list.end());
  std::size_t cases = 0, groups_skipped = 0;
  for (const auto& file : files) {
    const json groups = read_json(draft7() / file);
    for (const auto& group : groups) {
      const std::string description = group.at("description");
      INFO(file << ": " << description);
      if (auto it = skipped.find({file, description}); it != skipped.end()) {
        WARN("skipped " << file << " '" << description << "' (" << group.at("tests").size()
                        << " cases): " << it->second);
        ++groups_skipped;
        continue;
      }
      const json schema = translate(group.at("schema"));
      INFO("schema as run: " << schema.dump());
      cases += run_group(schema, group.at("tests"));
    }
  }
  WARN("ran " << cases << " cases of " << files.size() << " files; skipped " << groups_skipped << " groups");
  CHECK(cases > 200);
}

TEST_CASE("every schema of a keyword the validator does not implement is refused at load", "[schema][suite]") {
  for (const auto& file : unimplemented) {
    const json groups = read_json(draft7() / file);
    REQUIRE_FALSE(groups.empty());
    for (const auto& group : groups) {
      INFO(file << ": " << group.at("description").get<std::string>());
      one_schema dir(translate(group.at("schema")));
      CHECK_THROWS_AS(schema_set(dir.dir), std::runtime_error);
    }
  }
}

TEST_CASE("every draft 7 file of the suite is either run or refused, and every skipped group exists",
          "[schema][suite]") {
  std::set<std::string> known(unimplemented.begin(), unimplemented.end());
  for (const auto& [keyword, list] : implemented) known.insert(list.begin(), list.end());
  for (const auto& e : fs::recursive_directory_iterator(draft7())) {
    if (!e.is_regular_file() || e.path().extension() != ".json") continue;
    const std::string rel = fs::relative(e.path(), draft7()).generic_string();
    if (rel.rfind("optional/format/", 0) == 0) continue;  // `format`: refused, as ecmascript-regex shows
    INFO(rel);
    CHECK(known.count(rel) == 1);
  }
  for (const auto& [key, reason] : skipped) {
    INFO(key.first << ": " << key.second);
    const json groups = read_json(draft7() / key.first);
    CHECK(std::any_of(groups.begin(), groups.end(),
                      [&](const json& g) { return g.at("description") == key.second; }));
  }
}

// ref.json's "escaped pointer ref" with its targets in $defs: ~0, ~1 and a percent-encoded
// character in a $ref fragment (RFC 6901 section 6, RFC 3986).
TEST_CASE("escaped JSON pointers in $ref", "[schema][suite]") {
  const json schema = {
      {"$defs", {{"tilda~field", {{"type", "integer"}}}, {"slash/field", {{"type", "integer"}}},
                 {"percent%field", {{"type", "integer"}}}}},
      {"properties", {{"tilda", {{"$ref", "#/$defs/tilda~0field"}}}, {"slash", {{"$ref", "#/$defs/slash~1field"}}},
                      {"percent", {{"$ref", "#/$defs/percent%25field"}}}}}};
  one_schema dir(schema);
  const schema_set set(dir.dir);
  for (const char* name : {"tilda", "slash", "percent"}) {
    INFO(name);
    CHECK_FALSE(set.validate({{name, 123}}, dir.name));
    CHECK(set.validate({{name, "aoeu"}}, dir.name));
  }
}

TEST_CASE("draft 2020-12: the validator gives the official suite's answer for every implemented keyword",
          "[.][schema][suite2020]") {
  std::size_t cases = 0;
  std::set<std::pair<std::string, std::string>> seen;
  for (const auto& file : implemented_2020) {
    if (!fs::exists(draft2020() / file)) continue;  // optional files come and go between releases
    const json groups = read_json(draft2020() / file);
    for (const auto& group : groups) {
      const std::string description = group.at("description");
      INFO(file << ": " << description);
      seen.insert({file, description});
      if (auto it = skipped_2020.find({file, description}); it != skipped_2020.end()) {
        WARN("skipped " << file << " '" << description << "': " << it->second);
        continue;
      }
      cases += run_group(group.at("schema"), group.at("tests"));
    }
  }
  for (const auto& [key, reason] : skipped_2020) {
    INFO("listed as skipped but not in the suite: " << key.first << ": " << key.second);
    CHECK(seen.count(key) == 1);
  }
  WARN("ran " << cases << " draft 2020-12 cases");
  CHECK(cases > 200);
}

int main(int argc, char* argv[]) {
  const fs::path need = draft2020_mode() ? draft2020() : draft7();
  if (!fs::is_directory(need)) {
    std::cout << "SKIPPED: the JSON-Schema-Test-Suite is not installed here (no " << need.string()
              << "); apt-get install json-schema-test-suite (draft 7), or set TINSEL_JSON_SCHEMA_TEST_SUITE to a "
                 "copy's tests/ folder\n";
    return 77;
  }
  return Catch::Session().run(argc, argv);
}
