// A scanner over the top level of a JSON object: it hands out each member's key and the raw text
// of its value without building anything. The load generator reads four small fields of every
// `state` frame (type, seq, seat, over) and two small values (prompt, legal); skipping the rest
// (`view`, `events`: most of the bytes) this way costs a few microseconds per frame, where a full
// parse would cost the client about as much CPU as the server spends on the move.
//
// It trusts the text to be JSON (the server's frames are): it finds where values end, it does not
// validate them. Whatever is parsed from a value afterwards is parsed properly (nlohmann/json).
#pragma once

#include <cstddef>
#include <string_view>

namespace tinsel_loadgen::json_scan {

inline std::size_t skip_space(std::string_view s, std::size_t i) {
  while (i < s.size() && (s[i] == ' ' || s[i] == '\n' || s[i] == '\r' || s[i] == '\t')) ++i;
  return i;
}

// s[i] is '"'; returns the index after the closing quote, or npos.
inline std::size_t skip_string(std::string_view s, std::size_t i) {
  for (++i; i < s.size(); ++i) {
    if (s[i] == '\\') ++i;
    else if (s[i] == '"') return i + 1;
  }
  return std::string_view::npos;
}

// Returns the index after the value that starts at s[i], or npos.
inline std::size_t skip_value(std::string_view s, std::size_t i) {
  if (i >= s.size()) return std::string_view::npos;
  if (s[i] == '"') return skip_string(s, i);
  if (s[i] == '{' || s[i] == '[') {
    int depth = 0;
    while (i < s.size()) {
      const char c = s[i];
      if (c == '"') {
        i = skip_string(s, i);
        if (i == std::string_view::npos) return i;
        continue;
      }
      if (c == '{' || c == '[') ++depth;
      else if ((c == '}' || c == ']') && --depth == 0) return i + 1;
      ++i;
    }
    return std::string_view::npos;
  }
  while (i < s.size() && s[i] != ',' && s[i] != '}' && s[i] != ']' && s[i] != ' ' && s[i] != '\n' && s[i] != '\r' &&
         s[i] != '\t')
    ++i;
  return i;
}

// Calls fn(key, raw_value) for every member of the object in `s`, keys without their quotes (and
// with any escapes left as they are). False if `s` is not an object or ends early.
template <class Fn>
bool for_each_member(std::string_view s, Fn&& fn) {
  auto i = skip_space(s, 0);
  if (i >= s.size() || s[i] != '{') return false;
  i = skip_space(s, i + 1);
  if (i < s.size() && s[i] == '}') return true;
  while (i < s.size()) {
    if (s[i] != '"') return false;
    const auto key_end = skip_string(s, i);
    if (key_end == std::string_view::npos) return false;
    const auto key = s.substr(i + 1, key_end - i - 2);
    i = skip_space(s, key_end);
    if (i >= s.size() || s[i] != ':') return false;
    const auto value_start = skip_space(s, i + 1);
    const auto value_end = skip_value(s, value_start);
    if (value_end == std::string_view::npos) return false;
    fn(key, s.substr(value_start, value_end - value_start));
    i = skip_space(s, value_end);
    if (i < s.size() && s[i] == '}') return true;
    if (i >= s.size() || s[i] != ',') return false;
    i = skip_space(s, i + 1);
  }
  return false;
}

}  // namespace tinsel_loadgen::json_scan
