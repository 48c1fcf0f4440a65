// The registry of games and the shared code behind every game's option declaration: normalization,
// seat ranges, the description sent in welcome, and the first seat of a new game.
#include "tinsel/engine/game.hpp"

#include <algorithm>
#include <exception>
#include <regex>

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

rule_error invalid(const option_spec& spec, const std::string& what) {
  return make_error("invalid_option", "option '" + spec.key + "' " + (spec.bad_value.empty() ? what : spec.bad_value));
}

std::string range_text(const option_spec& spec) {
  return std::to_string(spec.min) + " to " + std::to_string(spec.max);
}

// `"a" or "b"`: the strings an integer option accepts besides its range.
std::string also_text(const option_spec& spec) {
  std::string out;
  for (const auto& a : spec.also) out += (out.empty() ? "" : " or ") + json(a).dump();
  return out;
}

// The normalized value of one present option, or what is wrong with it.
outcome<json> integer_value(const option_spec& spec, const json& v) {
  if (v.is_string() && std::find(spec.also.begin(), spec.also.end(), v.get<std::string>()) != spec.also.end())
    return v;
  const bool integer = v.is_number_integer();
  if (integer && v.get<long long>() >= spec.min && v.get<long long>() <= spec.max) return json(v.get<int>());
  if (spec.also.empty())
    return invalid(spec, integer ? "must be from " + range_text(spec) : "must be an integer from " + range_text(spec));
  if (spec.unit.empty()) return invalid(spec, "must be " + also_text(spec) + " or an integer from " + range_text(spec));
  if (integer) return invalid(spec, "must be from " + range_text(spec));
  return invalid(spec, "must be a number of " + spec.unit + " from " + range_text(spec) + ", or " + also_text(spec));
}

outcome<json> choice_value(const option_spec& spec, const json& v) {
  for (const auto& c : spec.choices)
    if ((v.is_string() || v.is_number_integer()) && v == c) return c;
  std::string list;
  for (const auto& c : spec.choices)
    list += (list.empty() ? "" : ", ") + (c.is_string() ? c.get<std::string>() : c.dump());
  return invalid(spec, "must be one of: " + list);
}

outcome<json> option_value(const option_spec& spec, const json& v) {
  switch (spec.type) {
    case option_spec::kind::integer: return integer_value(spec, v);
    case option_spec::kind::choice: return choice_value(spec, v);
    case option_spec::kind::boolean:
      if (v.is_boolean()) return v;
      return invalid(spec, "must be true or false");
    case option_spec::kind::text:
      if (v.is_string() && std::regex_match(v.get<std::string>(), std::regex(spec.pattern))) return v;
      return invalid(spec, "must match " + spec.pattern);
  }
  return invalid(spec, "has an unknown kind");
}

const option_spec* seat_option(const option_specs& specs, option_spec::seat_bound bound) {
  for (const auto& s : specs)
    if (s.seats == bound) return &s;
  return nullptr;
}

// An already-normalized integer option: its default if absent or malformed, clamped to
// [min, max] so a malformed value can never widen the range.
int clamped_int_option(const json& options, const option_spec& spec, int max) {
  const auto& key = spec.key;
  if (!options.is_object() || !options.contains(key) || !options.at(key).is_number_integer())
    return spec.fallback.get<int>();
  return std::clamp(options.at(key).get<int>(), spec.min, max);
}

const char* kind_name(option_spec::kind k) {
  switch (k) {
    case option_spec::kind::integer: return "integer";
    case option_spec::kind::choice: return "choice";
    case option_spec::kind::boolean: return "boolean";
    case option_spec::kind::text: return "text";
  }
  return "";
}

}  // namespace

outcome<json> normalize_options(const option_specs& specs, const json& in) {
  const json options = in.is_null() ? json::object() : in;
  if (!options.is_object()) return make_error("invalid_option", "options must be an object");
  // A typo must not be silently ignored.
  for (const auto& [key, value] : options.items())
    if (std::none_of(specs.begin(), specs.end(), [&](const option_spec& s) { return s.key == key; }))
      return make_error("invalid_option", "unknown option '" + key + "'");
  json out = json::object();
  for (const auto& spec : specs) {
    if (!options.contains(spec.key)) {
      out[spec.key] = spec.fallback;
    } else {
      auto v = option_value(spec, options.at(spec.key));
      if (!v) return v.error();
      out[spec.key] = std::move(v.value());
    }
    if (spec.check)
      if (auto e = spec.check(out)) return *e;
  }
  return out;
}

seat_range seats(const option_specs& specs, const json& options) {
  const auto* most = seat_option(specs, option_spec::seat_bound::max_players);
  if (!most) return seat_range{};
  const int max = clamped_int_option(options, *most, most->max);
  const auto* least = seat_option(specs, option_spec::seat_bound::min_players);
  return seat_range{least ? clamped_int_option(options, *least, max) : most->min, max};
}

json describe_options(const option_specs& specs) {
  json out = json::array();
  for (const auto& s : specs) {
    json o = {{"key", s.key}, {"type", kind_name(s.type)}, {"default", s.fallback}};
    if (s.type == option_spec::kind::integer) {
      o["min"] = s.min;
      o["max"] = s.max;
      if (!s.also.empty()) o["also"] = s.also;
      if (!s.unit.empty()) o["unit"] = s.unit;
    }
    if (s.type == option_spec::kind::choice) o["choices"] = s.choices;
    if (s.type == option_spec::kind::text) o["pattern"] = s.pattern;
    if (s.seats != option_spec::seat_bound::none)
      o["seats"] = s.seats == option_spec::seat_bound::min_players ? "min" : "max";
    out.push_back(std::move(o));
  }
  return out;
}

std::optional<int> timer_ms(const json& value) {
  if (!value.is_number_integer() || value.get<int>() <= 0) return std::nullopt;
  return value.get<int>() * 1000;
}

option_spec start_player_option(std::string about) {
  return option_spec{.key = "startPlayer",
                     .type = option_spec::kind::choice,
                     .fallback = "random",
                     .choices = {"random", "host-picks"},
                     .about = std::move(about)};
}

outcome<int> first_seat(const setup& su, bool host_picks, const std::string& what, dice& d) {
  const int n = su.players;
  if (!host_picks) return static_cast<int>(d.roll(static_cast<std::uint32_t>(n)));
  if (!su.first_seat)
    return make_error("first_seat_required", "startPlayer is host-picks: the host must pick the first " + what);
  if (*su.first_seat < 0 || *su.first_seat >= n)
    return make_error("invalid_option", "first seat " + std::to_string(*su.first_seat) + " is not a seat (0 to " +
                                            std::to_string(n - 1) + ")");
  return *su.first_seat;
}

outcome<std::unique_ptr<game>> guarded_restore(const restore_fn& restore, const json& full_state) {
  try {
    return restore(full_state);
  } catch (const std::exception& e) {
    return make_error("invalid_state", e.what());
  }
}

}  // namespace tinsel::engine
