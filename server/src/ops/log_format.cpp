#include "ops/log_format.hpp"

#include <charconv>
#include <ctime>
#include <memory>
#include <vector>

#include <spdlog/formatter.h>
#include <spdlog/spdlog.h>

namespace tinsel::server {

using nlohmann::json;

namespace {

// "key=" with a key of lower-case letters, digits and underscores, starting with a letter.
bool starts_field(std::string_view token, std::string_view& key, std::string_view& value) {
  const auto eq = token.find('=');
  if (eq == std::string_view::npos || eq == 0 || token[0] < 'a' || token[0] > 'z') return false;
  for (char c : token.substr(0, eq))
    if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_')) return false;
  key = token.substr(0, eq);
  value = token.substr(eq + 1);
  return true;
}

json typed(const std::string& v) {
  if (v.size() >= 2 && v.front() == '"' && v.back() == '"') return v.substr(1, v.size() - 2);  // reason="..."
  if (v == "true") return true;
  if (v == "false") return false;
  if (!v.empty() && v.size() <= 18 && (v[0] == '-' || (v[0] >= '0' && v[0] <= '9'))) {
    long long n = 0;
    const auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), n);
    if (ec == std::errc() && end == v.data() + v.size() && !(v.size() > 1 && v[0] == '0')) return n;
  }
  if (!v.empty() && (v[0] == '[' || v[0] == '{')) {
    auto j = json::parse(v, nullptr, /*allow_exceptions=*/false);
    if (!j.is_discarded()) return j;
  }
  return v;
}

class json_formatter final : public spdlog::formatter {
 public:
  void format(const spdlog::details::log_msg& msg, spdlog::memory_buf_t& dest) override {
    json line = log_fields(std::string_view(msg.payload.data(), msg.payload.size()));
    const auto level = spdlog::level::to_string_view(msg.level);
    line["level"] = std::string(level.data(), level.size());
    line["time"] = utc_time(msg.time);
    // "time", "level" and "message" first, for people who read the file too. Text that is not
    // UTF-8 is written with replacement characters rather than dropping the line.
    auto dump = [](const json& j) { return j.dump(-1, ' ', false, json::error_handler_t::replace); };
    std::string out = R"({"time":)" + dump(line["time"]) + R"(,"level":)" + dump(line["level"]) + R"(,"message":)" +
                      dump(line["message"]);
    for (const auto& [key, value] : line.items())
      if (key != "time" && key != "level" && key != "message") out += "," + dump(key) + ":" + dump(value);
    out += "}\n";
    dest.append(out.data(), out.data() + out.size());
  }
  std::unique_ptr<spdlog::formatter> clone() const override { return std::make_unique<json_formatter>(); }

 private:
  static std::string utc_time(spdlog::log_clock::time_point t) {
    const auto since = t.time_since_epoch();
    const auto secs = std::chrono::duration_cast<std::chrono::seconds>(since);
    const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(since - secs).count();
    const std::time_t tt = static_cast<std::time_t>(secs.count());
    std::tm tm{};
    gmtime_r(&tt, &tm);
    char buf[64];
    std::snprintf(buf, sizeof buf, "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday,
                  tm.tm_hour, tm.tm_min, tm.tm_sec, static_cast<int>(ms));
    return buf;
  }
};

}  // namespace

json log_fields(std::string_view message) {
  std::vector<std::string_view> tokens;
  for (std::size_t at = 0; at <= message.size();) {
    auto sp = message.find(' ', at);
    if (sp == std::string_view::npos) sp = message.size();
    tokens.push_back(message.substr(at, sp - at));
    at = sp + 1;
  }
  json out = json::object();
  std::string text, key, value;
  bool in_fields = false;
  auto flush = [&] {
    if (key.empty()) return;
    if (key == "time" || key == "level" || key == "message") key += '_';
    out[key] = typed(value);
  };
  for (const auto token : tokens) {
    std::string_view k, v;
    if (starts_field(token, k, v)) {
      flush();
      in_fields = true;
      key = k;
      value = v;
    } else if (in_fields) {
      value += ' ';
      value += token;
    } else {
      if (!text.empty()) text += ' ';
      text += token;
    }
  }
  flush();
  out["message"] = text;
  return out;
}

void set_log_format(const std::string& format) {
  if (format == "json")
    spdlog::set_formatter(std::make_unique<json_formatter>());
  else
    spdlog::set_pattern("%Y-%m-%dT%H:%M:%S.%e%z %^%l%$ %v");
}

}  // namespace tinsel::server
