#include "tinsel/engine/bot.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

namespace tinsel::engine {

namespace {

constexpr double no_value = -std::numeric_limits<double>::infinity();
constexpr double epsilon = 1e-9;
// A step that leads nowhere (a "Stop!" claim that could only be cancelled) is worth a hair less
// than not taking it, so that simply going on wins the tie.
constexpr double detour_discount = 1e-6;
// Look-ahead tries at most this many follow-ups (a claim and its stones, a reindeer and the roll):
// it stays cheap. Where there are more (every card of a board, every green-stone move, every
// channel), an evenly spread sample of them, the first included.
constexpr std::size_t max_follow_ups = 12;

bool prompts(const game& g, int seat) {
  const auto pr = g.current_prompt();
  return pr && std::find(pr->seats.begin(), pr->seats.end(), seat) != pr->seats.end();
}

// The heuristic value of `cmd` for `seat`, simulated on throwaway dice. Only the heuristic judges:
// result() of a trial could reveal hidden cards. A command that changes nothing by itself but leaves
// the same seat to act again (a "Stop!", taking a reindeer, looking at a card) is a detour: it is
// worth its best follow-up (one step deep), a hair less, so that the same outcome reached directly
// wins the tie. A follow-up that only undoes the detour (back to the same kind of prompt with
// nothing gained: cancelling the "Stop!" just shouted) does not count, so the bot shouts only
// when a stone gains it something; it used to shout and cancel at once whenever every other choice
// looked no better, filling a family's log with empty "Stop!"s.
double value_of(const game& g, int seat, const json& cmd, std::uint64_t seed, bool look_ahead) {
  auto trial = g.clone();
  seeded_dice sim(seed);
  if (!trial->apply(seat, cmd, sim)) return no_value;
  const double before = g.heuristic(seat);
  const double value = trial->heuristic(seat);
  if (!look_ahead || trial->is_over() || std::abs(value - before) > epsilon || !prompts(*trial, seat))
    return value;
  std::vector<json> follow_ups;
  for (const auto& next : trial->commands(seat)) follow_ups.push_back(next);
  if (follow_ups.empty()) return value;
  const auto here = g.current_prompt();
  const std::size_t stride = (follow_ups.size() + max_follow_ups - 1) / max_follow_ups;
  double best = no_value;
  for (std::size_t i = 0; i < follow_ups.size(); i += stride) {
    auto next = trial->clone();
    seeded_dice next_sim(seed ^ ((i + 1) * 0xbf58476d1ce4e5b9ULL));
    if (!next->apply(seat, follow_ups[i], next_sim)) continue;
    const double v = next->heuristic(seat);
    const auto there = next->current_prompt();
    const bool undone = here && there && there->kind == here->kind && std::abs(v - before) <= epsilon;
    if (!undone) best = std::max(best, v);
  }
  // Nothing but the way back: worth less than any plain detour.
  if (best == no_value) return value - 2 * detour_discount;
  return best - detour_discount;
}

}  // namespace

json choose_bot_command(const game& g, int seat, std::uint64_t seed) {
  const json legal = g.commands(seat);  // legal(seat) with the domains a bot can choose from expanded
  seeded_dice tie_break(seed);
  json best = nullptr;
  double best_value = no_value;
  int ties = 0;
  std::uint64_t i = 0;
  for (const auto& cmd : legal) {
    ++i;
    if (!cmd.is_object() || cmd.contains("domain")) continue;  // commands() holds concrete ones only
    const double value = value_of(g, seat, cmd, seed ^ (i * 0x9e3779b97f4a7c15ULL), true);
    if (value == no_value) continue;
    if (value > best_value + epsilon) {
      best_value = value;
      best = cmd;
      ties = 1;
    } else if (value > best_value - epsilon && tie_break.roll(static_cast<std::uint32_t>(++ties)) == 0) {
      best = cmd;  // reservoir sampling: each tied command is equally likely
    }
  }
  return best;
}

}  // namespace tinsel::engine
