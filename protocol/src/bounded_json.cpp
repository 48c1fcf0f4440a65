#include "tinsel/protocol/bounded_json.hpp"

#include <cstring>
#include <utility>
#include <vector>

namespace tinsel::protocol {

namespace {

using json = nlohmann::json;

// Builds the document from nlohmann's SAX events, as its own DOM parser does (json::parse uses
// the same lexer and parser), and returns false (which ends the parse at once) on a level too deep
// or a key already in its object.
class bounded_builder {
 public:
  bounded_builder(json& root, std::size_t max_depth) : root_(root), max_depth_(max_depth) {}

  bool null() { return put(nullptr) != nullptr; }
  bool boolean(bool v) { return put(v) != nullptr; }
  bool number_integer(json::number_integer_t v) { return put(v) != nullptr; }
  bool number_unsigned(json::number_unsigned_t v) { return put(v) != nullptr; }
  bool number_float(json::number_float_t v, const json::string_t&) { return put(v) != nullptr; }
  bool string(json::string_t& v) { return put(std::move(v)) != nullptr; }
  bool binary(json::binary_t& v) { return put(std::move(v)) != nullptr; }

  bool start_object(std::size_t) { return open(json::value_t::object); }
  bool start_array(std::size_t) { return open(json::value_t::array); }
  bool end_object() {
    open_.pop_back();
    return true;
  }
  bool end_array() {
    open_.pop_back();
    return true;
  }
  bool key(json::string_t& k) {
    auto& members = *open_.back()->get_ptr<json::object_t*>();
    auto [it, inserted] = members.try_emplace(std::move(k));
    if (!inserted) {
      refusal = json_refusal::duplicate_key;
      key_ = it->first;
      return false;
    }
    member_ = &it->second;
    return true;
  }
  bool parse_error(std::size_t, const std::string&, const json::exception&) {
    refusal = json_refusal::not_json;
    return false;
  }

  json_refusal refusal = json_refusal::none;
  std::string key_;

 private:
  bool open(json::value_t type) {
    if (open_.size() >= max_depth_) {
      refusal = json_refusal::too_deep;
      return false;
    }
    json* v = put(json(type));
    open_.push_back(v);
    return true;
  }

  // Places a value: the document itself, the next element of the open array, or the member whose
  // key came last. Pointers into an array stay valid: nothing is appended to an array while one of
  // its elements is open.
  template <class V>
  json* put(V&& v) {
    if (open_.empty()) {
      root_ = json(std::forward<V>(v));
      return &root_;
    }
    json& top = *open_.back();
    if (top.is_array()) {
      auto& elements = *top.get_ptr<json::array_t*>();
      elements.emplace_back(std::forward<V>(v));
      return &elements.back();
    }
    *member_ = json(std::forward<V>(v));
    return member_;
  }

  json& root_;
  std::size_t max_depth_;
  std::vector<json*> open_;  // the arrays and objects being read, outermost first
  json* member_ = nullptr;   // the member of the innermost object whose key was read last
};

}  // namespace

bounded_json parse_bounded_json(std::string_view text, std::size_t max_depth) {
  bounded_json out;
  if (!text.empty() && std::memchr(text.data(), '\0', text.size()) != nullptr) {
    out.refusal = json_refusal::not_json;
    return out;
  }
  bounded_builder builder(out.value, max_depth);
  const bool ok = json::sax_parse(text.begin(), text.end(), &builder, json::input_format_t::json, /*strict=*/true);
  if (!ok || builder.refusal != json_refusal::none) {
    out.refusal = builder.refusal == json_refusal::none ? json_refusal::not_json : builder.refusal;
    out.key = std::move(builder.key_);
    out.value = nullptr;  // iterative destruction (nlohmann >= 3.10): a partial deep document is freed safely
  }
  return out;
}

}  // namespace tinsel::protocol
