#include "tinsel/protocol/game_record.hpp"

#include <string>

#include "tinsel/protocol/bounded_json.hpp"
#include "tinsel/protocol/sha256.hpp"

namespace tinsel::protocol {

engine::outcome<engine::events> apply_game_entry(engine::game& g, engine::dice& d, const json& entry) {
  const auto kind = entry.at("kind").get<std::string>();
  if (kind == "command") return g.apply(entry.at("seat").get<int>(), entry.at("command"), d);
  const auto serial = entry.at("serial").get<std::uint64_t>();
  if (kind == "default") return g.on_timeout(serial, d);
  if (kind != "timeout") return engine::rule_error{"invalid_record", "unknown entry kind '" + kind + "'"};
  engine::events evs{engine::event::public_event({{"kind", "timed_out"}, {"seats", entry.at("seats")}, {"prompt", entry.at("prompt")}})};
  engine::events more;
  if (entry.contains("seat")) {
    // One seat of a simultaneous prompt played its default entry; without one, everyone's default.
    auto res = g.apply(entry.at("seat").get<int>(), entry.at("command"), d);
    more = res ? std::move(res.value()) : g.on_timeout(serial, d);
  } else {
    more = g.on_timeout(serial, d);
  }
  evs.insert(evs.end(), std::make_move_iterator(more.begin()), std::make_move_iterator(more.end()));
  return evs;
}

std::string state_hash(const engine::game& g) { return sha256_hex(g.full_state().dump()); }

record_check check_record(const json& record) {
  record_check out;
  auto fail = [&](std::string why) {
    out.ok = false;
    out.why = std::move(why);
    return out;
  };
  try {
    if (!record.is_object() || record.value("format", "") != "tinsel-game-record") return fail("not a Tinsel game record");
    if (record.value("version", 0) != 1) return fail("a record version this tool does not know");
    const auto* game = engine::builtin_games().find(record.at("game").get<std::string>());
    if (!game) return fail("an unknown game '" + record.at("game").get<std::string>() + "'");
    const auto seed_text = record.at("seed").get<std::string>();
    if (sha256_hex(seed_text) != record.at("commitment").get<std::string>())
      return fail("the seed does not match the commitment shown when the game started");
    std::size_t used = 0;
    const auto seed = std::stoull(seed_text, &used);
    if (used != seed_text.size()) return fail("the seed is not a number");
    engine::seeded_dice dice(seed);
    const auto& first = record.at("first_seat");
    auto created = game->create(engine::setup{record.at("options"), static_cast<int>(record.at("players").size()),
                                              first.is_null() ? std::nullopt : std::optional<int>(first.get<int>())},
                                dice);
    if (!created) return fail("the game does not start with these options: " + created.error().message);
    auto& g = *created.value();
    std::size_t n = 0;
    for (const auto& entry : record.at("commands")) {
      ++n;
      if (g.is_over()) return fail("entry " + std::to_string(n) + " comes after the end of the game");
      auto res = apply_game_entry(g, dice, entry);
      if (!res) return fail("entry " + std::to_string(n) + " is refused by the rules: " + res.error().code + ", " + res.error().message);
      if (entry.contains("hash") && entry["hash"] != state_hash(g))
        return fail("the state after entry " + std::to_string(n) + " differs from the recorded one");
    }
    if (!g.is_over()) return fail("the game is not over after the last entry");
    out.result = g.result();
    out.result["seed"] = seed_text;
    const auto& recorded = record.at("result");
    for (const auto& [k, v] : out.result.items())
      if (!recorded.contains(k) || recorded[k] != v) return fail("the result differs from the replay in '" + k + "'");
    out.ok = true;
    return out;
  } catch (const std::exception& e) {
    return fail(std::string("a malformed record: ") + e.what());
  }
}

std::optional<json> read_record(std::string_view text, std::string& why) {
  auto parsed = parse_bounded_json(text, max_record_depth);
  switch (parsed.refusal) {
    case json_refusal::none:
      return std::move(parsed.value);
    case json_refusal::not_json:
      why = "the file is not JSON";
      break;
    case json_refusal::too_deep:
      why = "the file nests arrays and objects deeper than " + std::to_string(max_record_depth) + " levels; no record does";
      break;
    case json_refusal::duplicate_key:
      why = "an object in the file has the key '" + parsed.key.substr(0, 40) + "' twice";
      break;
  }
  return std::nullopt;
}

}  // namespace tinsel::protocol
