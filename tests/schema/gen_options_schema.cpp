// Writes protocol/schema/games/<id>/options.json and the options table of docs/rules/<id>.md (between
// its two "options table" comments) of every built-in game from the game's option declaration
// (game_info::options), so that each option is written once, in the engine:
//
//   build/tests/schema/gen_options_schema <repository root>           write the files
//   build/tests/schema/gen_options_schema <repository root> --check   exit 1 if one is not current
//
// A CTest entry runs --check. The schema's description of each option is the declaration's
// `about` followed by the accepted values and the default; the table shows the same.
#include <algorithm>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>

#include "tinsel/engine/game.hpp"

namespace {

using tinsel::engine::option_spec;
using ordered = nlohmann::ordered_json;
using kind = option_spec::kind;

// `a, b or c`
std::string listing(const std::vector<std::string>& items) {
  std::string out;
  for (std::size_t i = 0; i < items.size(); ++i)
    out += (i == 0 ? "" : i + 1 == items.size() ? " or " : ", ") + items[i];
  return out;
}

std::string values_text(const option_spec& s) {
  std::vector<std::string> items;
  switch (s.type) {
    case kind::integer: {
      auto range = std::to_string(s.min);
      if (s.max != s.min) range += "–" + std::to_string(s.max);
      items.push_back(range + (s.unit.empty() ? "" : " " + s.unit));
      for (const auto& a : s.also) items.push_back(nlohmann::json(a).dump());
      break;
    }
    case kind::choice:
      for (const auto& c : s.choices) items.push_back(c.dump());
      break;
    case kind::boolean: return "true or false";
    case kind::text: return "a string matching " + s.pattern;
  }
  return listing(items);
}

ordered property(const option_spec& s) {
  ordered p;
  p["description"] = s.about + ". Accepts " + values_text(s) + "; default " + s.fallback.dump() + ".";
  ordered range = {{"type", "integer"}, {"minimum", s.min}, {"maximum", s.max}};
  switch (s.type) {
    case kind::integer:
      if (s.also.empty()) {
        p.update(range);
      } else if (s.also == std::vector<std::string>{"off"} && s.unit == "seconds" && s.min == 1 && s.max == 3600) {
        p["$ref"] = "../../defs.json#/$defs/timer_seconds";
      } else {
        p["oneOf"] = ordered::array({range});
        for (const auto& a : s.also) p["oneOf"].push_back({{"const", a}});
      }
      break;
    case kind::choice:
      p["enum"] = ordered::array();
      for (const auto& c : s.choices) p["enum"].push_back(ordered::parse(c.dump()));
      break;
    case kind::boolean: p["type"] = "boolean"; break;
    case kind::text:
      p["type"] = "string";
      p["pattern"] = s.pattern;
      break;
  }
  return p;
}

std::string schema_text(const tinsel::engine::game_info& g) {
  ordered properties = ordered::object();
  ordered required = ordered::array();
  for (const auto& s : g.options) {
    properties[s.key] = property(s);
    required.push_back(s.key);
  }
  ordered doc;
  doc["$schema"] = "https://json-schema.org/draft/2020-12/schema";
  doc["$id"] = "https://tinsel.invalid/schema/v1/games/" + g.id + "/options.json";
  doc["title"] = g.title + " options";
  doc["description"] = "The options of " + g.title +
                       ". Every option may be left out (it takes its default); in a room push and in welcome.games "
                       "every option is present (see $defs/complete). Generated from the game's declaration in the "
                       "engine by tests/schema/gen_options_schema.cpp: do not edit.";
  doc["type"] = "object";
  doc["properties"] = properties;
  doc["additionalProperties"] = false;
  doc["$defs"]["complete"] = {
      {"type", "object"}, {"properties", properties}, {"required", required}, {"additionalProperties", false}};
  return doc.dump(2) + "\n";
}

const std::string table_start = "<!-- options table: generated from the engine's declaration by "
                                "tests/schema/gen_options_schema.cpp; do not edit -->\n";
const std::string table_end = "<!-- end of options table -->\n";

std::string table_text(const tinsel::engine::game_info& g) {
  std::string out = table_start + "\n| option | default | values | what it does |\n|---|---|---|---|\n";
  for (const auto& s : g.options)
    out += "| `" + s.key + "` | `" + s.fallback.dump() + "` | " + values_text(s) + " | " + s.about + " |\n";
  return out + "\n" + table_end;
}

// `doc` with the text between the table's comments replaced; empty if the comments are missing.
std::string with_table(const std::string& doc, const std::string& table) {
  const auto start = doc.find(table_start);
  const auto end = doc.find(table_end);
  if (start == std::string::npos || end == std::string::npos || end < start) return {};
  return doc.substr(0, start) + table + doc.substr(end + table_end.size());
}

std::string read(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::cerr << "usage: gen_options_schema <repository root> [--check]\n";
    return 2;
  }
  const std::string root = argv[1];
  const bool check = argc > 2 && std::string(argv[2]) == "--check";
  int stale = 0;
  const auto update = [&](const std::string& path, const std::string& text, const std::string& id) {
    if (read(path) == text) return;
    if (check) {
      std::cerr << path << " is not what the declaration of " << id
                << " gives: run gen_options_schema <repository root> and commit the result\n";
      ++stale;
    } else {
      std::ofstream(path, std::ios::binary) << text;
      std::cout << "wrote " << path << "\n";
    }
  };
  for (const auto* g : tinsel::engine::builtin_games().all()) {
    update(root + "/protocol/schema/games/" + g->id + "/options.json", schema_text(*g), g->id);
    auto doc_name = g->id;
    std::replace(doc_name.begin(), doc_name.end(), '_', '-');
    const auto doc_path = root + "/docs/rules/" + doc_name + ".md";
    const auto doc = with_table(read(doc_path), table_text(*g));
    if (doc.empty()) {
      std::cerr << doc_path << " lacks the options table's comments\n";
      ++stale;
    } else {
      update(doc_path, doc, g->id);
    }
  }
  return stale == 0 ? 0 : 1;
}
