#pragma once
// The server's log lines are "text key=value key=value" (spdlog, docs/operations.md "Logs").
// --log-format json writes each line as one JSON object for log collectors instead:
//   {"time":"2026-11-30T23:24:51.269Z","level":"info","message":"room created","room":"K7TQ","game":"happy_holidays","rooms":1}
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace tinsel::server {

// The fields of one message: "message" is the text before the first key=value; each key=value
// after it is a field (a value runs up to the next key=value, so it may contain spaces); integer,
// true/false and JSON array/object values keep their type, a value in double quotes loses them,
// anything else is a string. A key that would overwrite "time", "level" or "message" gets a
// trailing underscore.
nlohmann::json log_fields(std::string_view message);

// Sets the format of spdlog's default logger: "text" (the default) or "json".
void set_log_format(const std::string& format);

}  // namespace tinsel::server
