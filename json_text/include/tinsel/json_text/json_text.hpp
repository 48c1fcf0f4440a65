#pragma once
// Writing JSON scalars straight into a buffer, byte for byte as nlohmann::json's dump() writes them
// with the settings of protocol::dump (no spaces, integers in decimal, strings escaped as nlohmann
// escapes them with ensure_ascii off and invalid UTF-8 replaced). The server writes the fixed parts
// of its frames with these; sinks.hpp builds whole documents on them.
#include <charconv>
#include <cstddef>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace tinsel::json_text {

template <class Int>
void integer(std::string& out, Int v) {
  char buf[24];
  const auto r = std::to_chars(buf, buf + sizeof buf, v);
  out.append(buf, static_cast<std::size_t>(r.ptr - buf));
}

inline void boolean(std::string& out, bool v) { out += v ? "true" : "false"; }

// Whether `s` needs no escaping: printable ASCII without '"' or '\\' (every name a game writes).
inline bool plain(std::string_view s) {
  for (const char ch : s) {
    const auto c = static_cast<unsigned char>(ch);
    if (c < 0x20 || c >= 0x7f || c == '"' || c == '\\') return false;
  }
  return true;
}

// A JSON string. Plain text is copied as is; anything else goes through nlohmann's own serializer,
// so the escaping is its own.
inline void string(std::string& out, std::string_view s) {
  if (plain(s)) {
    out += '"';
    out += s;
    out += '"';
    return;
  }
  nlohmann::detail::serializer<nlohmann::json> ser(nlohmann::detail::output_adapter<char>(out), ' ',
                                                   nlohmann::json::error_handler_t::replace);
  ser.dump(nlohmann::json(std::string(s)), false, false, 0);
}

// `"key":`, for keys that are literals of plain ASCII (no escaping needed).
inline void key(std::string& out, std::string_view k) {
  out += '"';
  out += k;
  out += "\":";
}

}  // namespace tinsel::json_text
