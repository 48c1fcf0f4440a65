// Every game's options come from its declaration (game_info::options): normalization fills each
// declared default and nothing else, every declared value is accepted and its neighbours outside
// the range refused, the seat range follows the seat options, welcome's description has the
// agreed shape, and bad values are told in the wording the games used before the declaration.
#include <catch2/catch.hpp>

#include "tinsel/engine/game.hpp"

using namespace tinsel::engine;

namespace {

const game_info& info_of(const std::string& id) { return *builtin_games().find(id); }

std::string message_for(const std::string& id, const json& options) {
  const auto r = info_of(id).normalize_options(options);
  REQUIRE_FALSE(r.ok());
  CHECK(r.error().code == "invalid_option");
  return r.error().message;
}

}  // namespace

TEST_CASE("options: the normalized defaults are exactly the declared keys with their defaults", "[options]") {
  for (const auto* g : builtin_games().all()) {
    INFO(g->id);
    const auto defaults = g->normalize_options(json::object());
    REQUIRE(defaults.ok());
    CHECK(defaults.value().size() == g->options.size());
    for (const auto& spec : g->options) CHECK(defaults.value().at(spec.key) == spec.fallback);
    CHECK(g->normalize_options(nullptr).value() == defaults.value());
    CHECK(g->normalize_options(defaults.value()).value() == defaults.value());
  }
}

TEST_CASE("options: every declared value is accepted, the integers just outside a range are not", "[options]") {
  for (const auto* g : builtin_games().all())
    for (const auto& spec : g->options) {
      INFO(g->id << " " << spec.key);
      std::vector<json> good, bad;
      switch (spec.type) {
        case option_spec::kind::integer:
          good = {spec.min, spec.max};
          bad = {spec.min - 1, spec.max + 1, "nonsense", 2.5};
          for (const auto& a : spec.also) good.push_back(a);
          break;
        case option_spec::kind::choice:
          good = spec.choices;
          bad = {"nonsense", true};
          break;
        case option_spec::kind::boolean:
          good = {true, false};
          bad = {0, "true"};
          break;
        case option_spec::kind::text:
          good = {spec.fallback};
          bad = {"", 3};
          break;
      }
      // Cross-option rules (minPlayers at most maxPlayers, reindeerCount below maxPlayers) take
      // the other option at its widest.
      const auto with = [&](const json& v) {
        json o = {{spec.key, v}};
        if (spec.key == "minPlayers") o["maxPlayers"] = 6;
        if (spec.key == "reindeerCount") o["maxPlayers"] = 6;
        return o;
      };
      for (const auto& v : good) {
        INFO(v.dump());
        const auto r = g->normalize_options(with(v));
        REQUIRE(r.ok());
        CHECK(r.value().at(spec.key) == v);
      }
      for (const auto& v : bad) {
        INFO(v.dump());
        const auto r = g->normalize_options(with(v));
        REQUIRE_FALSE(r.ok());
        CHECK(r.error().code == "invalid_option");
        CHECK(r.error().message.find("'" + spec.key + "'") != std::string::npos);
      }
    }
}

TEST_CASE("options: the seat range is the seat options' values, clamped to their declared ranges", "[options]") {
  CHECK(info_of("happy_holidays").seats(json::object()).min == 2);
  CHECK(info_of("happy_holidays").seats(json::object()).max == 4);
  CHECK(info_of("happy_holidays").seats({{"maxPlayers", 6}}).max == 6);
  CHECK(info_of("happy_holidays").seats({{"maxPlayers", 60}}).max == 6);
  CHECK(info_of("unterm_baum").seats({{"maxPlayers", 3}}).max == 3);
  CHECK(info_of("unterm_baum").seats({{"maxPlayers", 3}}).min == 2);
  const auto& cp = info_of("christmas_penguins");
  CHECK(cp.seats({{"minPlayers", 3}, {"maxPlayers", 5}}).min == 3);
  CHECK(cp.seats({{"minPlayers", 3}, {"maxPlayers", 5}}).max == 5);
  CHECK(cp.seats({{"minPlayers", 6}, {"maxPlayers", 4}}).min == 4);  // never above max
  CHECK(cp.seats({{"minPlayers", "x"}}).min == 2);
}

TEST_CASE("options: welcome's description lists each option with its type, default and range", "[options]") {
  const auto hh = describe_options(info_of("happy_holidays").options);
  REQUIRE(hh.size() == info_of("happy_holidays").options.size());
  CHECK(hh[0] == json::parse(R"({"key":"maxPlayers","type":"integer","default":4,"min":2,"max":6,"seats":"max"})"));
  CHECK(hh[1] == json::parse(R"({"key":"startPlayer","type":"choice","default":"random","choices":["random","host-picks"]})"));
  CHECK(hh[3] == json::parse(R"({"key":"reindeerCount","type":"integer","default":"auto","min":1,"max":5,"also":["auto"]})"));
  CHECK(hh[5] == json::parse(R"({"key":"rerollEmptyReward","type":"boolean","default":false})"));
  CHECK(hh[8] == json::parse(
                     R"({"key":"mainTimeoutSec","type":"integer","default":60,"min":1,"max":3600,"also":["off"],"unit":"seconds"})"));
  const auto cp = describe_options(info_of("christmas_penguins").options);
  CHECK(cp[0] == json::parse(R"({"key":"minPlayers","type":"integer","default":2,"min":2,"max":6,"seats":"min"})"));
  CHECK(cp[6] == json::parse(R"({"key":"stones","type":"text","default":"2/2/2","pattern":"^[0-4]/[0-4]/[0-4]$"})"));
  const auto ub = describe_options(info_of("unterm_baum").options);
  CHECK(ub[2] == json::parse(R"({"key":"cardsToRemember","type":"choice","default":8,"choices":[8,12,16,20]})"));
}

TEST_CASE("options: bad values are told as before the declaration", "[options]") {
  CHECK(message_for("happy_holidays", {{"colour", 1}}) == "unknown option 'colour'");
  CHECK(message_for("happy_holidays", 3) == "options must be an object");
  CHECK(message_for("happy_holidays", {{"maxPlayers", 9}}) == "option 'maxPlayers' must be from 2 to 6");
  CHECK(message_for("happy_holidays", {{"maxPlayers", "4"}}) == "option 'maxPlayers' must be an integer from 2 to 6");
  CHECK(message_for("happy_holidays", {{"startPlayer", "me"}}) ==
        "option 'startPlayer' must be one of: random, host-picks");
  CHECK(message_for("happy_holidays", {{"rerollEmptyReward", 1}}) == "option 'rerollEmptyReward' must be true or false");
  CHECK(message_for("happy_holidays", {{"reindeerCount", 6}}) ==
        "option 'reindeerCount' must be \"auto\" or an integer from 1 to 5");
  CHECK(message_for("happy_holidays", {{"reindeerCount", 4}}) ==
        "option 'reindeerCount' 4 needs at least 5 players, but maxPlayers is 4");
  CHECK(message_for("happy_holidays", {{"mainTimeoutSec", "never"}}) ==
        "option 'mainTimeoutSec' must be a number of seconds from 1 to 3600, or \"off\"");
  CHECK(message_for("happy_holidays", {{"mainTimeoutSec", 0}}) == "option 'mainTimeoutSec' must be from 1 to 3600");
  CHECK(message_for("unterm_baum", {{"decoys", 41}}) == "option 'decoys' must be \"auto\" or an integer from 0 to 40");
  CHECK(message_for("unterm_baum", {{"cardsToRemember", 10}}) == "option 'cardsToRemember' must be 8, 12, 16 or 20");
  CHECK(message_for("unterm_baum", {{"memorizeSeconds", "off"}}) ==
        "option 'memorizeSeconds' must be an integer from 1 to 600");
  CHECK(message_for("christmas_penguins", {{"minPlayers", 5}, {"maxPlayers", 4}}) ==
        "option 'minPlayers' must not exceed 'maxPlayers'");
  CHECK(message_for("christmas_penguins", {{"boardRadius", 5}}) == "option 'boardRadius' must be \"auto\", 3 or 4");
  CHECK(message_for("christmas_penguins", {{"channelsPerTurn", 2}}) == "option 'channelsPerTurn' must be \"unlimited\" or 1");
  CHECK(message_for("christmas_penguins", {{"stones", "5/0/0"}}) ==
        "option 'stones' must be \"red/blue/green\" counts 0..4, e.g. \"2/2/2\"");
  // The first bad option in declaration order is the one told.
  CHECK(message_for("christmas_penguins", {{"minPlayers", 5}, {"maxPlayers", 4}, {"startPlayer", "me"}}) ==
        "option 'minPlayers' must not exceed 'maxPlayers'");
}

TEST_CASE("options: host-picks needs a first seat among the seated players and the dice are not rolled before",
          "[options]") {
  scripted_dice d;
  for (const auto* g : builtin_games().all()) {
    INFO(g->id);
    const json picks = {{"startPlayer", "host-picks"}};
    auto missing = g->create(setup{picks, 3, std::nullopt}, d);
    REQUIRE_FALSE(missing.ok());
    CHECK(missing.error().code == "first_seat_required");
    CHECK(missing.error().message ==
          "startPlayer is host-picks: the host must pick the first " +
              std::string(g->id == "christmas_penguins" ? "Santa" : "seat"));
    auto outside = g->create(setup{picks, 3, 3}, d);
    REQUIRE_FALSE(outside.ok());
    CHECK(outside.error().code == "invalid_option");
    CHECK(d.draws() == 0);
  }
}
