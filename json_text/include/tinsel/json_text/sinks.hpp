#pragma once
// The two targets of a JSON writer: a game writes each of its documents (view, legal list, result)
// once, as a template on the sink, and gets both the nlohmann::json document (json_sink) and the
// text the server splices into its frames (text_sink) from the same code, so the two cannot drift
// apart.
//
// A sink takes begin_object/end_object, begin_array/end_array, key and value calls in document
// order. The writer gives every object's keys in ascending byte order, the order in which
// nlohmann::json keeps (and dump() writes) an object's members: the text sink writes them as they
// come, and the json sink appends each member at the end of its map. Debug builds assert the order;
// the games' text tests compare the two sinks' output over random play.
//
//   template <class Sink> void emit_point(Sink& s, int x, int y) {
//     s.begin_object();
//     s.member("x", x);
//     s.member("y", y);
//     s.end_object();
//   }
//   json j = json_text::as_json([&](auto& s) { emit_point(s, 1, 2); });  // {"x":1,"y":2}
//   json_text::as_text(buffer, [&](auto& s) { emit_point(s, 1, 2); });   // appends the same text
#include <algorithm>
#include <array>
#include <cassert>
#include <charconv>
#include <cstddef>
#include <cstring>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>

#include <nlohmann/json.hpp>

#include "tinsel/json_text/json_text.hpp"

namespace tinsel::json_text {

template <class T>
concept json_integer = std::is_integral_v<T> && !std::is_same_v<T, bool>;

// Appends the document as text, exactly as protocol::dump writes the equivalent nlohmann::json. Keys
// are literals of plain ASCII (they are not escaped); string values are escaped as dump() does.
//
// It writes through a cursor into the buffer's own storage, grown ahead and cut back to the text
// when the sink goes: a view is hundreds of small pieces, each a bounds check and a copy instead of
// a call to std::string::append.
class text_sink {
 public:
  explicit text_sink(std::string& out) : out_(out), end_(out.size()) {}
  ~text_sink() { out_.resize(end_); }
  text_sink(const text_sink&) = delete;
  text_sink& operator=(const text_sink&) = delete;

  void begin_object() {
    open('{');
#ifndef NDEBUG
    last_key_[depth_ - 1] = {};
#endif
  }
  void end_object() { close('}'); }
  // `size`: how many elements follow, if known (the json sink reserves them; text needs nothing).
  void begin_array(std::size_t size = 0) {
    (void)size;
    open('[');
  }
  void end_array() { close(']'); }

  void key(std::string_view k) {
#ifndef NDEBUG
    assert(depth_ > 0 && (last_key_[depth_ - 1].empty() || last_key_[depth_ - 1] < k));
    last_key_[depth_ - 1] = k;
#endif
    char* p = room(k.size() + 4);
    *p = ',';
    p += comma_;
    *p++ = '"';
    std::memcpy(p, k.data(), k.size());
    p += k.size();
    *p++ = '"';
    *p++ = ':';
    advance(p);
    comma_ = false;
  }

  void null() { scalar("null"); }
  void value(std::nullptr_t) { null(); }
  void value(bool v) { scalar(v ? std::string_view("true") : std::string_view("false")); }
  template <json_integer Int>
  void value(Int v) {
    char* p = room(24);
    *p = ',';
    p += comma_;
    advance(std::to_chars(p, p + 23, v).ptr);
    comma_ = true;
  }
  void value(std::string_view s) {
    if (plain(s)) {  // the common case: a name, copied as it is
      char* p = room(s.size() + 3);
      *p = ',';
      p += comma_;
      *p++ = '"';
      std::memcpy(p, s.data(), s.size());
      p += s.size();
      *p++ = '"';
      advance(p);
    } else {
      out_.resize(end_);
      if (comma_) out_ += ',';
      json_text::string(out_, s);
      end_ = out_.size();
    }
    comma_ = true;
  }
  void value(const char* s) { value(std::string_view(s)); }
  void value(const std::string& s) { value(std::string_view(s)); }
  void value(double) = delete;  // no game writes one; without this it would silently become a bool

  template <class V>
  void member(std::string_view k, const V& v) {
    key(k);
    value(v);
  }

 private:
  // Where the next n bytes go (at least n bytes of storage from there on).
  char* room(std::size_t n) {
    if (out_.size() - end_ < n) grow(n);
    return out_.data() + end_;
  }
  // resize() fills what it adds with zeros, so the room grows by a few hundred bytes at a time (not
  // up to the capacity, which a frame's reused buffer may hold many times over).
  void grow(std::size_t n) { out_.resize(end_ + std::max(n, std::min<std::size_t>(512, 64 + end_))); }
  void advance(const char* p) { end_ = static_cast<std::size_t>(p - out_.data()); }
  void scalar(std::string_view v) {
    char* p = room(v.size() + 1);
    *p = ',';
    p += comma_;
    std::memcpy(p, v.data(), v.size());
    advance(p + v.size());
    comma_ = true;
  }
  void open(char c) {
    char* p = room(2);
    *p = ',';
    p += comma_;
    *p++ = c;
    advance(p);
    comma_ = false;
#ifndef NDEBUG
    assert(depth_ < last_key_.size());
    ++depth_;
#endif
  }
  void close(char c) {
    *room(1) = c;
    ++end_;
    comma_ = true;
#ifndef NDEBUG
    assert(depth_ > 0);
    --depth_;
#endif
  }

  std::string& out_;
  std::size_t end_;     // the end of the text; out_ beyond it is room to write into
  bool comma_ = false;  // a value was written at this level: the next one needs a comma
#ifndef NDEBUG
  std::array<std::string_view, 16> last_key_{};  // per open container: the last key written in it
  std::size_t depth_ = 0;
#endif
};

// Builds the document as an nlohmann::json. Members go straight to the end of their object's map (no
// search, no temporary pairs), which is why the keys must come in ascending order.
class json_sink {
 public:
  using json = nlohmann::json;

  json take() { return std::move(root_); }

  void begin_object() { open(json::value_t::object); }
  void end_object() { close(); }
  void begin_array(std::size_t size = 0) {
    json& a = open(json::value_t::array);
    if (size) a.get_ptr<json::array_t*>()->reserve(size);
  }
  void end_array() { close(); }
  void key(std::string_view k) { key_ = k; }

  void null() { put(nullptr); }
  void value(std::nullptr_t) { null(); }
  void value(bool v) { put(v); }
  template <json_integer Int>
  void value(Int v) {
    put(v);
  }
  void value(std::string_view s) { put(std::string(s)); }
  void value(const char* s) { put(s); }
  void value(const std::string& s) { put(s); }
  void value(double) = delete;

  template <class V>
  void member(std::string_view k, const V& v) {
    key(k);
    value(v);
  }

 private:
  // Places a value made from v where the document stands: the root, the member named by the last
  // key, or the next element of the open array (built in place, no temporary). Only the innermost
  // open container grows, so the pointers to the open ones stay valid.
  template <class V>
  json& put(V&& v) {
    if (depth_ == 0) {
      root_ = json(std::forward<V>(v));
      return root_;
    }
    json& top = *open_[depth_ - 1];
    if (top.is_object()) {
      auto& m = *top.get_ptr<json::object_t*>();
      assert(m.empty() || std::string_view(m.rbegin()->first) < key_);
      return m.emplace_hint(m.end(), std::piecewise_construct, std::forward_as_tuple(key_),
                            std::forward_as_tuple(std::forward<V>(v)))
          ->second;
    }
    return top.get_ptr<json::array_t*>()->emplace_back(std::forward<V>(v));
  }
  json& open(json::value_t t) {
    json& j = put(t);
    assert(depth_ < open_.size());
    open_[depth_++] = &j;
    return j;
  }
  void close() {
    assert(depth_ > 0);
    --depth_;
  }

  json root_;
  std::array<json*, 16> open_{};  // the open containers, outermost first
  std::size_t depth_ = 0;
  std::string_view key_;
};

// The document that `write(sink)` writes, as json.
template <class Write>
nlohmann::json as_json(Write&& write) {
  json_sink s;
  std::forward<Write>(write)(s);
  return s.take();
}

// The document that `write(sink)` writes, appended to `out` as text.
template <class Write>
void as_text(std::string& out, Write&& write) {
  text_sink s(out);
  std::forward<Write>(write)(s);
}

}  // namespace tinsel::json_text
