#pragma once
// Shared by the three "as text" tests (happy_holidays_text_test.cpp, christmas_penguins_text_test.cpp,
// unterm_baum_text_test.cpp): the games write `legal` and their shared view as JSON text
// (game::write_legal, game::write_shared_view) for the server's frames, and the text must be
// exactly what protocol::dump writes for the json.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "tinsel/engine/game.hpp"

namespace text_test {

using namespace tinsel::engine;

// As protocol::dump (protocol/src/messages.cpp), which the engine tests do not link.
inline std::string dump(const json& j) { return j.dump(-1, ' ', false, json::error_handler_t::replace); }

// Options for one kind of game, and how many sit at the table.
struct variant {
  json options;
  int players;
};

// A new game of a variant, dealt by `d`; with startPlayer host-picks the seed picks who begins.
inline std::unique_ptr<game> create(const game_info& info, const variant& var, std::uint64_t seed, dice& d) {
  const auto options = info.normalize_options(var.options);
  REQUIRE(options);
  setup su{options.value(), var.players, std::nullopt};
  if (options.value()["startPlayer"] == "host-picks") su.first_seat = static_cast<int>(seed % static_cast<std::uint64_t>(var.players));
  auto created = info.create(su, d);
  REQUIRE(created);
  return std::move(created.value());
}

// Compares the text with the json at the current state: `legal` for every seat and the spectator
// (each entry handed to `on_entry`, to count what the games reached), then the shared view, which
// must also be the spectator's. Returns the shared view, or nothing where the game has none (then
// write_shared_view must decline and write nothing). The text is appended after what the buffer
// holds already, as in the server's frame.
inline std::shared_ptr<const json> check_text(const game& g, const std::function<void(const json&)>& on_entry = nullptr) {
  const std::string prefix = "{\"legal\":";
  for (int seat = -1; seat <= g.players(); ++seat) {
    std::string text = prefix;
    REQUIRE(g.write_legal(seat, text));
    const json legal = g.legal(seat);
    CHECK(text == prefix + dump(legal));
    if (on_entry)
      for (const auto& e : legal) on_entry(e);
  }
  std::string text = prefix;
  const auto shared = g.shared_view();
  CHECK(g.write_shared_view(text) == static_cast<bool>(shared));
  if (!shared) {
    CHECK(text == prefix);
    return nullptr;
  }
  CHECK(text == prefix + dump(*shared));
  CHECK(text == prefix + dump(g.view(viewer::spectator())));
  return shared;
}

// A concrete legal entry (never one with a "domain"): a kind first, then one entry of that kind, so
// that a kind listed once ("stop", "end_turn") is picked as often as one listed a hundred times.
inline json pick_entry(const json& legal, seeded_dice& pick) {
  std::vector<std::string> kinds;
  for (const auto& e : legal) {
    const auto k = e["kind"].get<std::string>();
    if (!e.contains("domain") && std::find(kinds.begin(), kinds.end(), k) == kinds.end()) kinds.push_back(k);
  }
  const auto& kind = kinds.at(pick.roll(static_cast<std::uint32_t>(kinds.size())));
  std::vector<const json*> of_kind;
  for (const auto& e : legal)
    if (e["kind"] == kind && !e.contains("domain")) of_kind.push_back(&e);
  return *of_kind.at(pick.roll(static_cast<std::uint32_t>(of_kind.size())));
}

// How a random game picks its next step: the seat and the command to send.
using chooser = std::function<std::pair<int, json>(const game& g, const prompt& pr, seeded_dice& pick)>;

struct play_counts {
  long states = 0;  // states checked
  long over = 0;    // games played to their end
};

// Plays `games` games of every variant (seeds 1..games; the dice from seed * 7919 + variant, the
// choices from `pick_seed`), calling `check(g, where)` at every state until the game is over
// (at most `max_steps` commands). At each step the prompt's timer default instead of a command
// when the prompt awaits nobody or one time in `timeout_one_in`; otherwise `choose` picks the
// seat and the command, which must be accepted.
inline play_counts play_games(const game_info& info, const std::vector<variant>& variants, int games, int max_steps,
                              std::uint32_t timeout_one_in,
                              const std::function<std::uint64_t(std::uint64_t seed, std::size_t variant)>& pick_seed,
                              const std::function<void(const game&, const std::string&)>& check,
                              const chooser& choose) {
  play_counts n;
  for (std::size_t vi = 0; vi < variants.size(); ++vi) {
    for (std::uint64_t seed = 1; seed <= static_cast<std::uint64_t>(games); ++seed) {
      seeded_dice d(seed * 7919 + vi);
      seeded_dice pick(pick_seed(seed, vi));
      auto g = create(info, variants[vi], seed, d);
      const std::string name = "variant " + std::to_string(vi) + " seed " + std::to_string(seed);
      for (int step = 0; step < max_steps; ++step) {
        const std::string where = name + " step " + std::to_string(step);
        INFO(where);
        check(*g, where);
        ++n.states;
        if (g->is_over()) {
          ++n.over;
          break;
        }
        const auto pr = g->current_prompt();
        REQUIRE(pr);
        if (pr->seats.empty() || pick.roll(timeout_one_in) == 0) {
          g->on_timeout(pr->serial, d);
          continue;
        }
        const auto [seat, command] = choose(*g, *pr, pick);
        const auto r = g->apply(seat, command, d);
        REQUIRE(r);
      }
    }
  }
  return n;
}

}  // namespace text_test
