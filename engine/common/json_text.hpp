#pragma once
// Writing JSON text straight into a buffer, for game::write_legal and game::write_shared_view: the
// server splices that text into its frames, so it must be byte for byte what protocol::dump writes
// for the equivalent nlohmann::json (no spaces, integers in decimal, strings escaped as nlohmann
// escapes them with ensure_ascii off and invalid UTF-8 replaced). Object keys are the caller's
// job: write them in ascending byte order, the order in which nlohmann::json keeps an object's
// members. The game's equality test (dump(legal(seat)) == write_legal) holds the two together.
#include <charconv>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace tinsel::engine::json_text {

template <class Int>
void integer(std::string& out, Int v) {
  char buf[24];
  const auto r = std::to_chars(buf, buf + sizeof buf, v);
  out.append(buf, static_cast<std::size_t>(r.ptr - buf));
}

inline void boolean(std::string& out, bool v) { out += v ? "true" : "false"; }

// A JSON string. Text of plain printable ASCII without '"' or '\\' (every name a game writes) is
// copied as is; anything else goes through nlohmann's own serializer, so the escaping is its own.
inline void string(std::string& out, std::string_view s) {
  bool plain = true;
  for (const char ch : s) {
    const auto c = static_cast<unsigned char>(ch);
    if (c < 0x20 || c >= 0x7f || c == '"' || c == '\\') {
      plain = false;
      break;
    }
  }
  if (plain) {
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

}  // namespace tinsel::engine::json_text
