#pragma once
// A validator for the subset of JSON Schema draft 2020-12 that protocol/schema uses, so the tests
// can check every frame against the published contract without a third-party library.
//
// Supported keywords: $ref (same-document and relative file references, JSON pointer fragments,
// percent-decoded),
// $defs, type, const, enum, properties, required, additionalProperties, items, prefixItems,
// minItems, maxItems, uniqueItems, minimum, maximum, exclusiveMinimum, exclusiveMaximum, minLength,
// maxLength (in Unicode code points), pattern (std::regex ECMAScript, ASCII only, unanchored as the standard
// says), allOf, anyOf, oneOf, not, if/then/else; the annotations $schema, $id, $comment, title,
// description, examples, default and deprecated are accepted and ignored.
//
// Contract: loading refuses (throws std::runtime_error) any other keyword, a $ref that does not
// resolve, a pattern std::regex cannot compile or match as characters (non-ASCII) and a file whose $id does
// not match its path, so a
// schema cannot silently rely on something this validator would skip. After loading, a schema_set
// is immutable and may be used from several threads at once.
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <regex>
#include <string>
#include <unordered_map>

#include <nlohmann/json.hpp>

namespace tinsel::test {

class schema_set {
 public:
  using json = nlohmann::json;

  // Loads every *.json file below `dir`. Each must have an `$id` ending in its path relative to
  // `dir`, all with the same prefix.
  explicit schema_set(const std::filesystem::path& dir);

  // Validates `instance` against the schema named by `schema`: a path relative to the directory
  // (e.g. "server-message.json") or an `$id`, optionally with a #/json/pointer fragment. Returns
  // nullopt when valid, else one line naming the failing instance location, the schema location
  // and the reason. Throws std::invalid_argument for an unknown schema name.
  std::optional<std::string> validate(const json& instance, const std::string& schema) const;

  // protocol/schema of this source tree (TINSEL_SCHEMA_DIR), loaded once per process.
  static const schema_set& protocol();

 private:
  struct document {
    std::string id;  // absolute $id, without fragment
    json root;
  };
  struct target {
    const document* doc;
    const json* node;
    std::string location;  // id#pointer, for messages
  };
  friend class schema_validation;

  target resolve(const document& from, const std::string& ref) const;
  void check_schema(const document& doc, const json& node, const std::string& pointer);

  std::string base_;                                  // the common $id prefix
  std::map<std::string, std::unique_ptr<document>> documents_;  // by $id
  std::unordered_map<const json*, target> refs_;      // every $ref node, resolved at load
  // Every pattern, compiled at load. Wide: a pattern matches code points, as JSON Schema says (and
  // Ajv does), so "[^\u0080-\u009f]" refuses U+0085 without refusing UTF-8 continuation bytes.
  std::unordered_map<std::string, std::wregex> patterns_;
};

}  // namespace tinsel::test
