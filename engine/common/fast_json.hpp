#pragma once
// Building nlohmann::json values cheaply, for the engines' hot paths: events, commands and full
// states. (Views, legal lists and results are written once for two sinks: tinsel/json_text/sinks.hpp.)
//
// An initializer list such as {{"kind", "rolled"}, {"seat", 2}} first builds every key/value pair
// as a two-element JSON array (a vector and a string per pair), then takes them apart again; and
// j["key"] = v searches the map for every key. object("kind", "rolled", "seat", 2) instead puts
// each pair straight into the map, at its end, so the keys must be given in ascending order (the
// order in which nlohmann::json stores and serializes them). A key out of order still ends up in
// the right place, it only costs a search, so the result is the same JSON either way; debug builds
// assert the order to keep the fast path fast.
#include <cassert>
#include <cstring>
#include <string_view>
#include <utility>

#include <nlohmann/json.hpp>

namespace tinsel::engine::fast_json {

using json = nlohmann::json;

inline void put(json::object_t&) {}

template <class V, class... Rest>
void put(json::object_t& m, const char* key, V&& value, Rest&&... rest) {
  assert(m.empty() || std::string_view(m.rbegin()->first) < std::string_view(key));
  m.emplace_hint(m.end(), std::piecewise_construct, std::forward_as_tuple(key),
                 std::forward_as_tuple(std::forward<V>(value)));
  put(m, std::forward<Rest>(rest)...);
}

// An object from key, value, key, value, ... with the keys in ascending order.
template <class... Args>
json object(Args&&... args) {
  static_assert(sizeof...(Args) % 2 == 0, "object(key, value, ...) takes pairs");
  json j(json::value_t::object);
  put(*j.get_ptr<json::object_t*>(), std::forward<Args>(args)...);
  return j;
}

// An object with a fixed set of keys, for the hottest spots: the keys are laid out once, and each
// call copies that skeleton (a tree copy: no key strings built from char pointers, no comparisons,
// no rebalancing) and fills in the values, given in key order.
//   static const fast_json::shape turn_started{"kind", "round", "seat"};
//   turn_started("turn_started", round, seat)
class shape {
 public:
  shape(std::initializer_list<const char*> keys) : proto_(json::value_t::object) {
    for (const char* k : keys) put(*proto_.get_ptr<json::object_t*>(), k, nullptr);
  }
  template <class... V>
  json operator()(V&&... values) const {
    assert(sizeof...(V) == proto_.size());
    json j = proto_;
    auto it = j.get_ptr<json::object_t*>()->begin();
    ((it->second = json(std::forward<V>(values)), ++it), ...);
    return j;
  }

 private:
  json proto_;
};

// An array of the given values.
template <class... Args>
json array(Args&&... args) {
  json j(json::value_t::array);
  auto& a = *j.get_ptr<json::array_t*>();
  a.reserve(sizeof...(Args));
  (a.emplace_back(std::forward<Args>(args)), ...);
  return j;
}

// An empty array with room for n elements, and its vector to fill.
inline json array_with_capacity(std::size_t n) {
  json j(json::value_t::array);
  j.get_ptr<json::array_t*>()->reserve(n);
  return j;
}
inline json::array_t& elements(json& j) { return *j.get_ptr<json::array_t*>(); }

// An array of the values of a container of numbers (or anything a json element is made from).
template <class Container>
json array_of(const Container& c) {
  json j = array_with_capacity(std::size(c));
  auto& a = elements(j);
  for (const auto& v : c) a.emplace_back(v);
  return j;
}

// The object's member `key` or nullptr, without building a key string.
inline const json* member(const json& obj, std::string_view key) {
  const auto& m = *obj.get_ptr<const json::object_t*>();
  const auto it = m.find(key);
  return it == m.end() ? nullptr : &it->second;
}

}  // namespace tinsel::engine::fast_json
