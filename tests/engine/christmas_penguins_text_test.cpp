// Christmas Penguins writes `legal` and its shared view as JSON text (game::write_legal,
// game::write_shared_view) for the server's frames, which must not change by a byte: at every
// state of many random games, for every seat, with options from 2 to 6 players, the text must be
// exactly what protocol::dump writes for legal(seat) and for the shared view. The games are played
// so that the long lists come up: channels, the green stone's floe moves (a "Stop!" now and then),
// push chains and the polar bear's victims fleeing anywhere; a flight without a present, rare in
// random play, has a scenario of its own.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdint>
#include <iterator>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "legal_domains.hpp"
#include "christmas_penguins_common.hpp"
#include "text_test_common.hpp"

namespace {

using namespace tinsel::engine;
using text_test::dump;
using text_test::pick_entry;
using text_test::variant;

const std::vector<variant>& variants() {
  static const std::vector<variant> v = {
      {{{"maxRounds", 4}}, 4},
      {{{"maxRounds", 4}, {"stones", "3/3/3"}, {"stopSeconds", 1}, {"reactionWindowMs", 1000}}, 2},
      {{{"maxRounds", 3},
        {"backtrackRule", "noImmediateReverse"},
        {"pushMode", "freeFirst"},
        {"bearMode", "instead"},
        {"fleeRange", "anyRefuge"},
        {"stones", "1/1/4"}},
       5},
      {{{"maxRounds", 4},
        {"presentsPerColour", 3},
        {"poolColours", "seatedOnly"},
        {"treeMinDistance", 1},
        {"confiscatedTo", "santaPlayer"},
        {"bearDropTo", "pool"},
        {"stoneRecycle", "discard"},
        {"bonusMode", "twoAwards"},
        {"tieBreak", "presentsThenDistinct"}},
       3},
      {{{"maxRounds", 3},
        {"startPlayer", "host-picks"},
        {"boardRadius", 4},
        {"stones", "4/4/4"},
        {"channelsPerPlayer", 6},
        {"channelsPerTurn", 1},
        {"connectivityGuard", false},
        {"confiscatedTo", "removed"},
        {"reactionWindowMs", 0},
        {"fleeRange", "anyRefuge"}},
       6},
      {{{"maxRounds", 3}, {"boardRadius", 4}, {"stones", "0/2/4"}, {"channelsPerPlayer", 6}, {"fleeRange", "anyRefuge"}},
       4},
      {{{"maxRounds", 2}, {"presentsPerColour", 8}, {"stones", "4/4/4"}, {"mainTimeoutSec", "off"}}, 6},
  };
  return v;
}

// Compares the text with the json at the current state; `where` names the state in a failure.
// Counts the kinds of the entries listed, to show which lists the games reached.
void check_state(const game& g, const std::string& where, std::map<std::string, long>& kinds) {
  INFO(where);
  const auto shared = text_test::check_text(g, [&](const json& e) {
    std::string k = e["kind"].get<std::string>();
    if (k == "use_stone") k += " " + e["stone"].get<std::string>();
    if (k == "flee" && e.contains("colour")) k += " with a present";
    if (e.contains("domain")) k += " (domain)";
    ++kinds[k];
  });
  REQUIRE(shared);
  const json& v = *shared;
  if (!v["loose_presents"].empty()) ++kinds["view: loose presents"];
  if (!v["channels"].empty()) ++kinds["view: channels"];
  if (!v["santa_supply"].empty()) ++kinds["view: santa_supply"];
  if (!v["stop"]["claimant"].is_null()) ++kinds["view: stop claimant"];
  if (!v["stop"]["queue"].empty()) ++kinds["view: stop queue"];
  if (!v["pending"].is_null() && v["pending"]["seat"].is_null()) ++kinds["view: pending, no seat"];
  if (!v["result"].is_null()) ++kinds["view: result"];
  for (const auto& p : v["players"])
    if (p["penguin"] == "at_hut") ++kinds["view: penguin at_hut"];
}

}  // namespace

TEST_CASE("Christmas Penguins writes legal and the shared view as exactly the text of their json",
          "[christmas_penguins][text]") {
  const game_info* info = builtin_games().find("christmas_penguins");
  REQUIRE(info);
  constexpr int games_per_variant = 40;
  std::map<std::string, long> kinds;
  const auto n = text_test::play_games(
      *info, variants(), games_per_variant, 5000, 12, [](std::uint64_t seed, std::size_t vi) { return seed * 31 + vi; },
      [&](const game& g, const std::string& where) { check_state(g, where, kinds); },
      [](const game& g, const prompt& pr, seeded_dice& pick) {
        // Mostly a prompted seat; sometimes any seat with something to send (a "Stop!" from a seat
        // that is not prompted, a queued stop withdrawn).
        int seat = pr.seats.at(pick.roll(static_cast<std::uint32_t>(pr.seats.size())));
        if (pick.roll(5) == 0) {
          const int other = static_cast<int>(pick.roll(static_cast<std::uint32_t>(g.players())));
          if (!g.legal(other).empty()) seat = other;
        }
        const json legal = g.commands(seat);  // the domains written out
        REQUIRE(!legal.empty());
        return std::pair{seat, pick_entry(legal, pick)};
      });
  CHECK(n.over == static_cast<long>(variants().size()) * games_per_variant);
  CHECK(n.states > 10000);
  // The long lists and the rare entries were all met.
  for (const char* k : {"place_penguin", "place_tree", "place_bear", "place_stone", "roll", "pass", "move", "push",
                        "confiscate", "steal", "relocate_tree", "pickup_stone", "bear_move", "flee with a present",
                        "end_turn", "stop", "withdraw_stop", "cancel_stop", "use_stone red", "use_stone blue",
                        "use_stone green", "place_channel", "use_stone green (domain)", "place_channel (domain)",
                        "flee (domain)", "view: loose presents",
                        "view: channels", "view: santa_supply", "view: stop claimant", "view: stop queue",
                        "view: pending, no seat", "view: result", "view: penguin at_hut"}) {
    INFO(k);
    CHECK(kinds[k] > 0);
  }
  // Each long list is one example and one domain entry: never more than one of each in a list.
  CHECK(kinds["use_stone green"] == kinds["use_stone green (domain)"]);
  CHECK(kinds["place_channel"] == kinds["place_channel (domain)"]);
}

TEST_CASE("Christmas Penguins writes a flight without a present (the victim holds none) as the text of its json",
          "[christmas_penguins][text]") {
  // Rare in random play: a bear's victim who has lost every present flees with no colour (A34).
  for (const bool any_refuge : {false, true}) {
    cp_test::table t(any_refuge ? json{{"fleeRange", "anyRefuge"}} : json::object());
    t.st().santa = t.at(-3, 3);
    t.st().bear = t.at(0, 0);
    t.put(cp_test::B, -3, 0);
    t.put(cp_test::C, 1, 0);
    t.st().presents[cp_test::C] = {};
    t.turn(cp_test::B);
    t.roll(cp_test::B, 1);
    t.ok(cp_test::B, t.move(t.at(-2, 0)));
    t.ok(cp_test::B, {{"kind", "bear_move"}, {"to", t.at(1, 0)}});
    REQUIRE(t.prompt() == "flee");
    const json legal = t.g->legal(cp_test::C);
    REQUIRE(!legal.empty());
    for (const auto& e : legal) CHECK(e == json{{"kind", "flee"}, {"to", e["to"]}});
    std::string text;
    REQUIRE(t.g->write_legal(cp_test::C, text));
    CHECK(text == dump(legal));
    std::string view;
    REQUIRE(t.g->write_shared_view(view));
    CHECK(view == dump(*t.g->shared_view()));
  }
}

// The green stone's list is worked out a floe at a time (cp_stones.cpp, legal_stones), not by asking
// green_error cell by cell, and sent as a domain (floes x cells, pairs): written out as the protocol
// says, it must still be exactly the moves that apply() accepts. Every floe to
// every cell of the largest board's hexagon and beyond, tried on a copy, in random positions with a
// green stone to play (channels and Santa's supply included, the guard on and off).
TEST_CASE("Christmas Penguins lists exactly the green-stone moves that are accepted", "[christmas_penguins][stones]") {
  const game_info* info = builtin_games().find("christmas_penguins");
  REQUIRE(info);
  int checked = 0;
  for (std::size_t vi = 0; vi < variants().size(); ++vi) {
    int here = 0;  // positions checked in this variant: a few in each
    for (std::uint64_t seed = 1; seed <= 40 && here < 6; ++seed) {
      seeded_dice d(seed * 104729 + vi);
      seeded_dice pick(seed * 17 + vi);
      auto g = text_test::create(*info, variants()[vi], seed, d);
      for (int step = 0; step < 3000 && !g->is_over(); ++step) {
        const auto pr = g->current_prompt();
        REQUIRE(pr);
        if (pr->seats.empty()) {
          g->on_timeout(pr->serial, d);
          continue;
        }
        const int seat = pr->seats.at(pick.roll(static_cast<std::uint32_t>(pr->seats.size())));
        const json legal = g->legal(seat);
        std::set<std::string> listed;  // the green domain written out as docs/protocol.md says
        for (const auto& e : legal_domains::expand(legal))
          if (e["kind"] == "use_stone" && e["stone"] == "green") listed.insert(e.dump());
        if (!listed.empty() && here < 6) {
          ++checked;
          ++here;
          std::set<std::string> accepted;
          const int floes = static_cast<int>(g->full_state()["cells"].size() / 2);
          for (int f = 0; f < floes; ++f)
            for (int r = -6; r <= 6; ++r)
              for (int q = -6; q <= 6; ++q) {
                const json cmd = {{"floe", f}, {"kind", "use_stone"}, {"stone", "green"}, {"to", {q, r}}};
                auto trial = g->clone();
                seeded_dice scratch(1);
                const auto applied = trial->apply(seat, cmd, scratch);
                if (applied) accepted.insert(cmd.dump());
                else if (listed.count(cmd.dump())) FAIL_CHECK(cmd.dump() << " listed, refused: " << applied.error().code << " " << applied.error().message);
              }
          std::vector<std::string> only_listed, only_accepted;
          std::set_difference(listed.begin(), listed.end(), accepted.begin(), accepted.end(), std::back_inserter(only_listed));
          std::set_difference(accepted.begin(), accepted.end(), listed.begin(), listed.end(), std::back_inserter(only_accepted));
          INFO("variant " << vi << " seed " << seed << " step " << step << ": " << listed.size() << " listed, "
                          << accepted.size() << " accepted; listed only: " << (only_listed.empty() ? "-" : only_listed[0])
                          << "; accepted only: " << (only_accepted.empty() ? "-" : only_accepted[0]));
          CHECK(only_listed.empty());
          CHECK(only_accepted.empty());
        }
        const auto r = g->apply(seat, pick_entry(g->commands(seat), pick), d);
        REQUIRE(r);
      }
    }
  }
  CHECK(checked >= 20);
}
