#include "tinsel/engine/game.hpp"

#include <algorithm>
#include <exception>

namespace tinsel::engine {

void registry::add(game_info info) {
  auto id = info.id;
  games_.insert_or_assign(std::move(id), std::move(info));
}

const game_info* registry::find(const std::string& id) const {
  auto it = games_.find(id);
  return it == games_.end() ? nullptr : &it->second;
}

std::vector<const game_info*> registry::all() const {
  std::vector<const game_info*> out;
  for (const auto& [id, info] : games_) out.push_back(&info);
  return out;
}

namespace {
rule_error invalid(const std::string& key, const std::string& what) {
  return make_error("invalid_option", "option '" + key + "' " + what);
}
}  // namespace

std::optional<rule_error> int_option(const json& options, json& out, const std::string& key,
                                     int fallback, int min, int max) {
  if (!options.contains(key)) {
    out[key] = fallback;
    return std::nullopt;
  }
  const auto& v = options.at(key);
  if (!v.is_number_integer())
    return invalid(key, "must be an integer from " + std::to_string(min) + " to " + std::to_string(max));
  const auto n = v.get<long long>();
  if (n < min || n > max)
    return invalid(key, "must be from " + std::to_string(min) + " to " + std::to_string(max));
  out[key] = static_cast<int>(n);
  return std::nullopt;
}

std::optional<rule_error> enum_option(const json& options, json& out, const std::string& key,
                                      const std::vector<std::string>& allowed) {
  if (!options.contains(key)) {
    out[key] = allowed.front();
    return std::nullopt;
  }
  const auto& v = options.at(key);
  if (v.is_string() && std::find(allowed.begin(), allowed.end(), v.get<std::string>()) != allowed.end()) {
    out[key] = v;
    return std::nullopt;
  }
  std::string list;
  for (const auto& a : allowed) list += (list.empty() ? "" : ", ") + a;
  return invalid(key, "must be one of: " + list);
}

std::optional<rule_error> bool_option(const json& options, json& out, const std::string& key,
                                      bool fallback) {
  if (!options.contains(key)) {
    out[key] = fallback;
    return std::nullopt;
  }
  if (!options.at(key).is_boolean()) return invalid(key, "must be true or false");
  out[key] = options.at(key);
  return std::nullopt;
}

std::optional<rule_error> timer_option(const json& options, json& out, const std::string& key,
                                       int fallback, int min, int max) {
  if (options.contains(key) && options.at(key) == "off") {
    out[key] = "off";
    return std::nullopt;
  }
  if (options.contains(key) && !options.at(key).is_number_integer())
    return invalid(key, "must be a number of seconds from " + std::to_string(min) + " to " +
                            std::to_string(max) + ", or \"off\"");
  return int_option(options, out, key, fallback, min, max);
}

std::optional<int> timer_ms(const json& value) {
  if (!value.is_number_integer() || value.get<int>() <= 0) return std::nullopt;
  return value.get<int>() * 1000;
}

int clamped_int_option(const json& options, const std::string& key, int fallback, int min, int max) {
  if (!options.is_object() || !options.contains(key) || !options.at(key).is_number_integer()) return fallback;
  return std::clamp(options.at(key).get<int>(), min, max);
}

outcome<std::unique_ptr<game>> guarded_restore(const restore_fn& restore, const json& full_state) {
  try {
    return restore(full_state);
  } catch (const std::exception& e) {
    return make_error("invalid_state", e.what());
  }
}

std::optional<rule_error> no_unknown_options(const json& options, const std::vector<std::string>& known) {
  if (!options.is_object()) return make_error("invalid_option", "options must be an object");
  for (const auto& [key, value] : options.items())
    if (std::find(known.begin(), known.end(), key) == known.end())
      return make_error("invalid_option", "unknown option '" + key + "'");
  return std::nullopt;
}

}  // namespace tinsel::engine
