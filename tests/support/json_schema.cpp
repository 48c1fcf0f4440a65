#include "json_schema.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <fstream>
#include <stdexcept>
#include <string_view>
#include <vector>

namespace tinsel::test {

using json = nlohmann::json;

namespace {

constexpr std::string_view draft = "https://json-schema.org/draft/2020-12/schema";

constexpr std::string_view annotations[] = {"$schema",     "$id",      "$comment", "title",
                                            "description", "examples", "default",  "deprecated"};
constexpr std::string_view keywords[] = {
    "$ref",     "$defs",       "type",        "const",   "enum",    "properties",       "required",
    "additionalProperties",    "items",       "prefixItems",       "minItems", "maxItems",        "uniqueItems",
    "minimum",  "maximum",     "exclusiveMinimum",      "exclusiveMaximum",  "minLength", "maxLength",
    "pattern",  "allOf",       "anyOf",       "oneOf",   "not",     "if",               "then",
    "else"};

template <std::size_t N>
bool one_of(std::string_view key, const std::string_view (&list)[N]) {
  return std::find(std::begin(list), std::end(list), key) != std::end(list);
}

std::size_t utf8_length(const std::string& s) {
  return static_cast<std::size_t>(
      std::count_if(s.begin(), s.end(), [](char c) { return (static_cast<unsigned char>(c) & 0xC0) != 0x80; }));
}

// UTF-8 (valid: nlohmann has checked it) as code points, for std::wregex (wchar_t is 32 bits here).
std::wstring code_points(std::string_view s) {
  static_assert(sizeof(wchar_t) == 4);
  std::wstring out;
  out.reserve(s.size());
  for (std::size_t i = 0; i < s.size();) {
    const auto b = static_cast<unsigned char>(s[i++]);
    const int extra = b >= 0xF0 ? 3 : b >= 0xE0 ? 2 : b >= 0xC0 ? 1 : 0;
    char32_t cp = extra == 0 ? b : extra == 1 ? (b & 0x1F) : extra == 2 ? (b & 0x0F) : (b & 0x07);
    for (int k = 0; k < extra && i < s.size(); ++k) cp = (cp << 6) | (static_cast<unsigned char>(s[i++]) & 0x3F);
    out.push_back(static_cast<wchar_t>(cp));
  }
  return out;
}

bool is_integer(const json& x) {
  if (x.is_number_integer()) return true;
  if (!x.is_number_float()) return false;
  const double d = x.get<double>();
  return std::isfinite(d) && std::floor(d) == d;
}

bool has_type(const json& x, std::string_view t) {
  if (t == "object") return x.is_object();
  if (t == "array") return x.is_array();
  if (t == "string") return x.is_string();
  if (t == "boolean") return x.is_boolean();
  if (t == "null") return x.is_null();
  if (t == "number") return x.is_number();
  if (t == "integer") return is_integer(x);
  throw std::runtime_error("unknown JSON Schema type '" + std::string(t) + "'");
}

std::string type_of(const json& x) {
  if (x.is_number()) return is_integer(x) ? "integer" : "number";
  return x.type_name();
}

std::string shorten(const json& x) {
  auto s = x.dump(-1, ' ', false, json::error_handler_t::replace);
  return s.size() > 120 ? s.substr(0, 117) + "..." : s;
}

// A $ref fragment is a URI fragment: %XX escapes are decoded before it is read as a JSON pointer
// (RFC 6901 section 6), so "#/$defs/a%25b" names the key "a%b".
std::string percent_decode(const std::string& s) {
  std::string out;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '%' && i + 2 < s.size() && std::isxdigit(static_cast<unsigned char>(s[i + 1])) &&
        std::isxdigit(static_cast<unsigned char>(s[i + 2]))) {
      out += static_cast<char>(std::stoi(s.substr(i + 1, 2), nullptr, 16));
      i += 2;
    } else {
      out += s[i];
    }
  }
  return out;
}

// Indices of schema arrays (allOf/3) as stable strings for the schema path.
const std::vector<std::string>& index_names() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> v;
    for (int i = 0; i < 256; ++i) v.push_back(std::to_string(i));
    return v;
  }();
  return names;
}

}  // namespace

struct failure {
  std::string instance;  // JSON pointer into the instance
  std::string schema;    // absolute location of the failing keyword
  std::string reason;
  std::size_t depth = 0;
  // How much the failure says about the instance: a `const` on a property checked first (a
  // discriminator such as `type` or `kind`) means "this alternative does not apply" (0); a type
  // mismatch is weak (1); anything else is a real error (2).
  int rank = 2;
  std::string expected;  // for a const mismatch: the value the alternative wanted
};

// ---- loading ----------------------------------------------------------------------------------

schema_set::schema_set(const std::filesystem::path& dir) {
  namespace fs = std::filesystem;
  if (!fs::is_directory(dir)) throw std::runtime_error("schema directory not found: " + dir.string());
  std::vector<fs::path> files;
  for (const auto& e : fs::recursive_directory_iterator(dir))
    if (e.is_regular_file() && e.path().extension() == ".json") files.push_back(e.path());
  std::sort(files.begin(), files.end());
  for (const auto& f : files) {
    std::ifstream in(f);
    auto doc = std::make_unique<document>();
    try {
      doc->root = json::parse(in);
    } catch (const json::exception& e) {
      throw std::runtime_error("schema " + f.string() + " is not valid JSON: " + e.what());
    }
    const std::string rel = fs::relative(f, dir).generic_string();
    if (!doc->root.is_object() || !doc->root.contains("$id") || !doc->root["$id"].is_string())
      throw std::runtime_error("schema " + rel + " has no $id");
    doc->id = doc->root["$id"].get<std::string>();
    if (doc->id.size() <= rel.size() || doc->id.compare(doc->id.size() - rel.size(), rel.size(), rel) != 0)
      throw std::runtime_error("schema " + rel + ": $id " + doc->id + " does not end in its path");
    const std::string base = doc->id.substr(0, doc->id.size() - rel.size());
    if (base_.empty()) base_ = base;
    if (base != base_) throw std::runtime_error("schema " + rel + ": $id prefix differs from " + base_);
    if (doc->root.value("$schema", "") != draft)
      throw std::runtime_error("schema " + rel + ": $schema must be " + std::string(draft));
    documents_.emplace(doc->id, std::move(doc));
  }
  if (documents_.empty()) throw std::runtime_error("no schemas in " + dir.string());
  for (const auto& [id, doc] : documents_) check_schema(*doc, doc->root, "");
}

schema_set::target schema_set::resolve(const document& from, const std::string& ref) const {
  const auto hash = ref.find('#');
  const std::string uri = ref.substr(0, hash);
  const std::string fragment = hash == std::string::npos ? "" : percent_decode(ref.substr(hash + 1));
  std::string id = from.id;
  if (uri.find("://") != std::string::npos) {
    id = uri;
  } else if (!uri.empty()) {
    // Relative to the referring document's directory; normalize "." and "..".
    std::string rel = from.id.substr(base_.size());
    rel = rel.substr(0, rel.rfind('/') + 1) + uri;
    std::vector<std::string> parts;
    std::size_t start = 0;
    while (start <= rel.size()) {
      const auto slash = std::min(rel.find('/', start), rel.size());
      const std::string part = rel.substr(start, slash - start);
      if (part == "..") {
        if (parts.empty()) throw std::runtime_error("$ref " + ref + " in " + from.id + " leaves the schema tree");
        parts.pop_back();
      } else if (!part.empty() && part != ".") {
        parts.push_back(part);
      }
      start = slash + 1;
    }
    id = base_;
    for (std::size_t i = 0; i < parts.size(); ++i) id += (i ? "/" : "") + parts[i];
  }
  const auto it = documents_.find(id);
  if (it == documents_.end()) throw std::runtime_error("$ref " + ref + " in " + from.id + ": no schema " + id);
  if (!fragment.empty() && fragment[0] != '/')
    throw std::runtime_error("$ref " + ref + " in " + from.id + ": only JSON pointer fragments are supported");
  const json::json_pointer ptr(fragment);
  if (!it->second->root.contains(ptr))
    throw std::runtime_error("$ref " + ref + " in " + from.id + ": " + fragment + " not found in " + id);
  return target{it->second.get(), &it->second->root.at(ptr), id + "#" + fragment};
}

void schema_set::check_schema(const document& doc, const json& node, const std::string& pointer) {
  const auto where = [&] { return doc.id + "#" + pointer; };
  if (node.is_boolean()) return;
  if (!node.is_object()) throw std::runtime_error("a schema must be an object or a boolean at " + where());
  const auto sub = [&](const json& s, const std::string& p) { check_schema(doc, s, p); };
  const auto need = [&](bool ok, const std::string& key, const char* what) {
    if (!ok) throw std::runtime_error("'" + key + "' must be " + what + " at " + where());
  };
  for (const auto& [key, value] : node.items()) {
    const std::string p = pointer + "/" + key;
    if (one_of(key, annotations)) {
      if ((key == "$id" || key == "$schema") && !pointer.empty())
        throw std::runtime_error("nested " + key + " is not supported at " + where());
      continue;
    }
    if (!one_of(key, keywords))
      throw std::runtime_error("unsupported JSON Schema keyword '" + key + "' at " + where());
    if (key == "$ref") {
      need(value.is_string(), key, "a string");
      refs_.emplace(&node, resolve(doc, value.get<std::string>()));
    } else if (key == "$defs" || key == "properties") {
      need(value.is_object(), key, "an object");
      for (const auto& [name, s] : value.items()) sub(s, p + "/" + name);
    } else if (key == "allOf" || key == "anyOf" || key == "oneOf" || key == "prefixItems") {
      need(value.is_array() && !value.empty() && value.size() <= index_names().size(), key, "a non-empty array");
      for (std::size_t i = 0; i < value.size(); ++i) sub(value[i], p + "/" + std::to_string(i));
    } else if (key == "additionalProperties" || key == "items" || key == "not" || key == "if" || key == "then" ||
               key == "else") {
      sub(value, p);
    } else if (key == "type") {
      need(value.is_string() || value.is_array(), key, "a string or an array of strings");
      for (const auto& t : value.is_array() ? value : json::array({value})) {
        need(t.is_string(), key, "a string or an array of strings");
        (void)has_type(json(), t.get<std::string>());  // throws on an unknown type name
      }
    } else if (key == "enum") {
      need(value.is_array() && !value.empty(), key, "a non-empty array");
    } else if (key == "required") {
      need(value.is_array() && std::all_of(value.begin(), value.end(), [](const json& v) { return v.is_string(); }),
           key, "an array of strings");
    } else if (key == "minItems" || key == "maxItems" || key == "minLength" || key == "maxLength") {
      // 2020-12: an integer is any number without a fractional part, 2.0 included.
      need(is_integer(value) && value.get<double>() >= 0, key, "a non-negative integer");
    } else if (key == "minimum" || key == "maximum" || key == "exclusiveMinimum" || key == "exclusiveMaximum") {
      need(value.is_number(), key, "a number");
    } else if (key == "uniqueItems") {
      need(value.is_boolean(), key, "a boolean");
    } else if (key == "pattern") {
      need(value.is_string(), key, "a string");
      const auto& text = value.get_ref<const std::string&>();
      // std::regex matches bytes: after a non-ASCII character a quantifier would apply to its last
      // byte only, and a class would hold bytes, not characters.
      if (std::any_of(text.begin(), text.end(), [](char c) { return static_cast<unsigned char>(c) >= 0x80; }))
        throw std::runtime_error("pattern " + text + " has non-ASCII characters, which std::regex cannot match as "
                                 "characters, at " + where());
      if (!patterns_.count(text)) {
        try {
          patterns_.emplace(text, std::wregex(code_points(text), std::regex::ECMAScript));
        } catch (const std::regex_error& e) {
          throw std::runtime_error("pattern " + text + " does not compile (" + e.what() + ") at " + where());
        }
      }
    }
  }
}

// ---- validation -------------------------------------------------------------------------------

class schema_validation {
 public:
  using document = schema_set::document;
  explicit schema_validation(const schema_set& set) : set_(set) {}

  std::optional<failure> check(const json& x, const json& s, const document& doc);

  std::vector<std::string> inst_;        // instance path segments
  std::vector<std::string_view> where_;  // schema path segments; one containing "://" is absolute

 private:
  failure fail(std::string reason, int rank = 2) const {
    std::string instance;
    for (const auto& seg : inst_) instance += "/" + seg;
    std::size_t from = 0;
    for (std::size_t i = 0; i < where_.size(); ++i)
      if (where_[i].find("://") != std::string_view::npos) from = i;
    std::string schema;
    for (std::size_t i = from; i < where_.size(); ++i) {
      if (i > from) schema += "/";
      schema += where_[i];
    }
    return failure{instance.empty() ? "/" : instance, schema, std::move(reason), inst_.size(), rank, {}};
  }
  // Runs `f` with one more schema path segment.
  template <class F>
  auto at(std::string_view seg, F&& f) {
    where_.push_back(seg);
    auto r = f();
    where_.pop_back();
    return r;
  }
  std::optional<failure> child(const json& x, std::string seg, const json& s, std::string_view schema_seg,
                               const document& doc) {
    inst_.push_back(std::move(seg));
    where_.push_back(schema_seg);
    auto r = check(x, s, doc);
    where_.pop_back();
    inst_.pop_back();
    return r;
  }
  bool passes(const json& x, const json& s, const document& doc) {
    const auto inst = inst_.size(), where = where_.size();
    const bool ok = !check(x, s, doc);
    inst_.resize(inst);
    where_.resize(where);
    return ok;
  }
  std::optional<failure> alternatives(const json& x, const json& list, std::string_view key, const document& doc);
  std::optional<failure> check_object(const json& x, const json& s, const document& doc);
  std::optional<failure> check_array(const json& x, const json& s, const document& doc);
  std::optional<failure> check_scalar(const json& x, const json& s);

  const schema_set& set_;
};

std::optional<failure> schema_validation::check(const json& x, const json& s, const document& doc) {
  if (s.is_boolean()) {
    if (s.get<bool>()) return std::nullopt;
    return fail("no value is allowed here (false schema)");
  }
  if (auto t = s.find("type"); t != s.end()) {
    const bool ok = t->is_string() ? has_type(x, t->get_ref<const std::string&>())
                                   : std::any_of(t->begin(), t->end(), [&](const json& n) {
                                       return has_type(x, n.get_ref<const std::string&>());
                                     });
    if (!ok) return at("type", [&] { return fail("expected type " + t->dump() + ", got " + type_of(x), 1); });
  }
  if (auto c = s.find("const"); c != s.end() && x != *c)
    return at("const", [&] {
      auto f = fail("expected " + shorten(*c) + ", got " + shorten(x));
      f.expected = shorten(*c);
      return f;
    });
  if (auto e = s.find("enum"); e != s.end() && std::find(e->begin(), e->end(), x) == e->end())
    return at("enum", [&] { return fail(shorten(x) + " is not one of " + shorten(*e)); });
  if (x.is_object()) {
    if (auto f = check_object(x, s, doc)) return f;
  } else if (x.is_array()) {
    if (auto f = check_array(x, s, doc)) return f;
  } else if (auto f = check_scalar(x, s)) {
    return f;
  }
  if (auto r = s.find("$ref"); r != s.end()) {
    const auto& t = set_.refs_.at(&s);
    where_.push_back(t.location);
    auto f = check(x, *t.node, *t.doc);
    where_.pop_back();
    if (f) return f;
  }
  if (auto a = s.find("allOf"); a != s.end()) {
    for (std::size_t i = 0; i < a->size(); ++i) {
      where_.push_back("allOf");
      auto f = at(index_names()[i], [&] { return check(x, (*a)[i], doc); });
      where_.pop_back();
      if (f) return f;
    }
  }
  for (const char* key : {"anyOf", "oneOf"})
    if (auto a = s.find(key); a != s.end())
      if (auto f = alternatives(x, *a, key, doc)) return f;
  if (auto n = s.find("not"); n != s.end() && passes(x, *n, doc))
    return at("not", [&] { return fail("must not match the 'not' schema"); });
  if (auto i = s.find("if"); i != s.end()) {
    const bool cond = passes(x, *i, doc);
    const char* branch = cond ? "then" : "else";
    if (auto b = s.find(branch); b != s.end())
      if (auto f = at(branch, [&] { return check(x, *b, doc); })) return f;
  }
  return std::nullopt;
}

std::optional<failure> schema_validation::alternatives(const json& x, const json& list, std::string_view key,
                                                       const document& doc) {
  std::vector<failure> failures;
  std::size_t matched = 0;
  where_.push_back(key);
  for (std::size_t i = 0; i < list.size(); ++i) {
    auto f = at(index_names()[i], [&] { return check(x, list[i], doc); });
    if (!f) {
      ++matched;
      if (key == "anyOf") break;
    } else {
      failures.push_back(std::move(*f));
    }
  }
  std::optional<failure> out;
  if (key == "oneOf" && matched > 1) {
    out = fail("matches " + std::to_string(matched) + " alternatives of oneOf, exactly one must match");
  } else if (matched == 0) {
    // Report the alternative that got furthest: a real error over a type mismatch over a
    // discriminator mismatch, then the deepest.
    const auto best = std::max_element(failures.begin(), failures.end(), [](const failure& a, const failure& b) {
      return std::pair(a.rank, a.depth) < std::pair(b.rank, b.depth);
    });
    if (best->rank == 0) {
      std::string expected;
      for (const auto& f : failures)
        if (f.rank == 0 && f.instance == best->instance && !f.expected.empty() &&
            expected.find(f.expected) == std::string::npos)
          expected += (expected.empty() ? "" : ", ") + f.expected;
      out = fail("matches none of the " + std::to_string(list.size()) + " alternatives of " + std::string(key) +
                 ": at " + best->instance + " expected one of " + expected);
    } else {
      out = *best;
      out->rank = std::max(out->rank, 1);
    }
  }
  where_.pop_back();
  return out;
}

std::optional<failure> schema_validation::check_object(const json& x, const json& s, const document& doc) {
  const auto props = s.find("properties");
  // Discriminators first (a property whose schema is a plain `const`), so that an alternative of
  // another message type is recognized as not applying rather than as missing fields.
  if (props != s.end())
    for (auto it = props->begin(); it != props->end(); ++it)
      if (it->is_object() && it->contains("const"))
        if (auto v = x.find(it.key()); v != x.end()) {
          where_.push_back("properties");
          auto f = child(*v, it.key(), *it, it.key(), doc);
          where_.pop_back();
          if (f) {
            f->rank = 0;
            return f;
          }
        }
  if (auto r = s.find("required"); r != s.end())
    for (const auto& name : *r)
      if (!x.contains(name.get_ref<const std::string&>()))
        return at("required", [&] { return fail("missing required property '" + name.get<std::string>() + "'"); });
  const auto extra = s.find("additionalProperties");
  // Not a structured binding: clang 14 cannot capture one in a lambda (C++20 allows it, P1091).
  for (const auto& item : x.items()) {
    const std::string& name = item.key();
    const json& v = item.value();
    if (props != s.end()) {
      if (auto ps = props->find(name); ps != props->end()) {
        where_.push_back("properties");
        auto f = child(v, name, *ps, ps.key(), doc);
        where_.pop_back();
        if (f) return f;
        continue;
      }
    }
    if (extra == s.end()) continue;
    if (extra->is_boolean() && !extra->get<bool>())
      return at("additionalProperties", [&] { return fail("property '" + name + "' is not allowed"); });
    if (auto f = child(v, name, *extra, "additionalProperties", doc)) return f;
  }
  return std::nullopt;
}

std::optional<failure> schema_validation::check_array(const json& x, const json& s, const document& doc) {
  if (auto m = s.find("minItems"); m != s.end() && x.size() < m->get<std::size_t>())
    return at("minItems", [&] { return fail(std::to_string(x.size()) + " items, fewer than " + m->dump()); });
  if (auto m = s.find("maxItems"); m != s.end() && x.size() > m->get<std::size_t>())
    return at("maxItems", [&] { return fail(std::to_string(x.size()) + " items, more than " + m->dump()); });
  std::size_t first = 0;
  if (auto p = s.find("prefixItems"); p != s.end()) {
    first = std::min(p->size(), x.size());
    for (std::size_t i = 0; i < first; ++i) {
      where_.push_back("prefixItems");
      auto f = child(x[i], std::to_string(i), (*p)[i], index_names()[i], doc);
      where_.pop_back();
      if (f) return f;
    }
  }
  if (auto it = s.find("items"); it != s.end())
    for (std::size_t i = first; i < x.size(); ++i)
      if (auto f = child(x[i], std::to_string(i), *it, "items", doc)) return f;
  if (auto u = s.find("uniqueItems"); u != s.end() && u->get<bool>())
    for (std::size_t i = 0; i < x.size(); ++i)
      for (std::size_t j = i + 1; j < x.size(); ++j)
        if (x[i] == x[j])
          return at("uniqueItems", [&] {
            return fail("items " + std::to_string(i) + " and " + std::to_string(j) + " are equal");
          });
  return std::nullopt;
}

std::optional<failure> schema_validation::check_scalar(const json& x, const json& s) {
  if (x.is_string()) {
    const auto& str = x.get_ref<const std::string&>();
    const auto len = utf8_length(str);
    if (auto m = s.find("minLength"); m != s.end() && len < m->get<std::size_t>())
      return at("minLength", [&] { return fail(std::to_string(len) + " characters, fewer than " + m->dump()); });
    if (auto m = s.find("maxLength"); m != s.end() && len > m->get<std::size_t>())
      return at("maxLength", [&] { return fail(std::to_string(len) + " characters, more than " + m->dump()); });
    if (auto p = s.find("pattern"); p != s.end() &&
                                    !std::regex_search(code_points(str), set_.patterns_.at(p->get_ref<const std::string&>())))
      return at("pattern", [&] { return fail(shorten(x) + " does not match " + p->get<std::string>()); });
  } else if (x.is_number()) {
    const double v = x.get<double>();
    const auto bound = [&](const char* key, auto ok) -> std::optional<failure> {
      if (auto b = s.find(key); b != s.end() && !ok(v, b->get<double>()))
        return at(key, [&] { return fail(shorten(x) + " violates " + key + " " + b->dump()); });
      return std::nullopt;
    };
    if (auto f = bound("minimum", [](double a, double b) { return a >= b; })) return f;
    if (auto f = bound("maximum", [](double a, double b) { return a <= b; })) return f;
    if (auto f = bound("exclusiveMinimum", [](double a, double b) { return a > b; })) return f;
    if (auto f = bound("exclusiveMaximum", [](double a, double b) { return a < b; })) return f;
  }
  return std::nullopt;
}

std::optional<std::string> schema_set::validate(const json& instance, const std::string& schema) const {
  const std::string name = schema.find("://") == std::string::npos ? base_ + schema : schema;
  const auto hash = name.find('#');
  const auto it = documents_.find(name.substr(0, hash));
  if (it == documents_.end()) throw std::invalid_argument("no schema named " + schema);
  const std::string fragment = hash == std::string::npos ? "" : name.substr(hash + 1);
  const json::json_pointer ptr(fragment);
  if (!it->second->root.contains(ptr)) throw std::invalid_argument("no schema named " + schema);
  const std::string location = it->second->id + "#" + fragment;
  schema_validation v(*this);
  v.where_.push_back(location);
  auto f = v.check(instance, it->second->root.at(ptr), *it->second);
  if (!f) return std::nullopt;
  return "at " + f->instance + ": " + f->reason + " [schema " + f->schema + "]";
}

const schema_set& schema_set::protocol() {
#ifndef TINSEL_SCHEMA_DIR
#error "TINSEL_SCHEMA_DIR must name protocol/schema"
#endif
  static const schema_set set(TINSEL_SCHEMA_DIR);
  return set;
}

}  // namespace tinsel::test
