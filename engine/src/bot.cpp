#include "tinsel/engine/bot.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "unterm_baum/unterm_baum.hpp"

namespace tinsel::engine {

namespace {

constexpr double no_value = -std::numeric_limits<double>::infinity();
constexpr double epsilon = 1e-9;
// A step that leads nowhere (a "Stop!" claim that could only be cancelled) is worth a hair less
// than not taking it, so that simply going on wins the tie.
constexpr double detour_discount = 1e-6;
// Commands whose values differ by less than this are "as good" for the gentle bot's ranking (the
// detour discounts above are far below it).
constexpr double same_rank = 1e-3;
// Look-ahead tries at most this many follow-ups (a claim and its stones, a reindeer and the roll):
// it stays cheap. Where there are more (every card of a board, every green-stone move, every
// channel), an evenly spread sample of them, the first included.
constexpr std::size_t max_follow_ups = 12;

bool prompts(const game& g, int seat) {
  const auto pr = g.current_prompt();
  return pr && std::find(pr->seats.begin(), pr->seats.end(), seat) != pr->seats.end();
}

struct rated {
  double value = no_value;
  // A detour whose only way on is back (a "Stop!" that could only be cancelled): never a gentle
  // choice either, it would only fill the family's log.
  bool dead_end = false;
};

// The heuristic value of `cmd` for `seat`, simulated on throwaway dice. Only the heuristic judges:
// result() of a trial could reveal hidden cards. A command that changes nothing by itself but leaves
// the same seat to act again (a "Stop!", taking a reindeer, looking at a card) is a detour: it is
// worth its best follow-up (one step deep), a hair less, so that the same outcome reached directly
// wins the tie. A follow-up that only undoes the detour (back to the same kind of prompt with
// nothing gained: cancelling the "Stop!" just shouted) does not count, so the bot shouts only
// when a stone gains it something; it used to shout and cancel at once whenever every other choice
// looked no better, filling a family's log with empty "Stop!"s.
rated value_of(const game& g, int seat, const json& cmd, std::uint64_t seed, bool look_ahead) {
  auto trial = g.clone();
  seeded_dice sim(seed);
  if (!trial->apply(seat, cmd, sim)) return {};
  const double before = g.heuristic(seat);
  const double value = trial->heuristic(seat);
  if (!look_ahead || trial->is_over() || std::abs(value - before) > epsilon || !prompts(*trial, seat))
    return {value, false};
  std::vector<json> follow_ups;
  for (const auto& next : trial->commands(seat)) follow_ups.push_back(next);
  if (follow_ups.empty()) return {value, false};
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
  if (best == no_value) return {value - 2 * detour_discount, true};
  return {best - detour_discount, false};
}

struct candidate {
  json cmd;
  rated r;
  double harm = 0;  // how much the command costs the seat it hurts most (gentle only)
};

std::vector<candidate> rate_all(const game& g, int seat, std::uint64_t seed) {
  std::vector<candidate> out;
  std::uint64_t i = 0;
  for (const auto& cmd : g.commands(seat)) {  // legal(seat) with the domains expanded
    ++i;
    if (!cmd.is_object() || cmd.contains("domain")) continue;  // commands() holds concrete ones only
    const auto r = value_of(g, seat, cmd, seed ^ (i * 0x9e3779b97f4a7c15ULL), true);
    if (r.value == no_value) continue;
    out.push_back({cmd, r, 0});
  }
  return out;
}

json choose_fair(const game& g, int seat, std::uint64_t seed) {
  seeded_dice tie_break(seed);
  json best = nullptr;
  double best_value = no_value;
  int ties = 0;
  for (const auto& c : rate_all(g, seat, seed)) {
    if (c.r.value > best_value + epsilon) {
      best_value = c.r.value;
      best = c.cmd;
      ties = 1;
    } else if (c.r.value > best_value - epsilon && tie_break.roll(static_cast<std::uint32_t>(++ties)) == 0) {
      best = c.cmd;  // reservoir sampling: each tied command is equally likely
    }
  }
  return best;
}

// Gentle: the commands ranked by value (near-equal values share a rank); it takes the best rank
// often, else the second, sometimes any sensible command at random; never a dead end; and never the
// cruellest take (a command that costs another seat at least what it gains this one, the costliest
// of them) where the same kind of command has a kinder variant; the takes are judged only when the
// game is fully public (its shared view says so: then every seat's heuristic uses nothing hidden
// from this one).
json choose_gentle(const game& g, int seat, std::uint64_t seed) {
  auto all = rate_all(g, seat, seed);
  std::erase_if(all, [](const candidate& c) { return c.r.dead_end; });
  if (all.empty()) return choose_fair(g, seat, seed);
  seeded_dice d(seed ^ 0x6a09e667f3bcc909ULL);
  if (g.shared_view() && all.size() > 1) {
    // A take: what the command costs the seat it hurts most is at least what it gains this one (in
    // heuristic terms; scoring for oneself also lowers the others' standing, but by less).
    const double now = g.heuristic(seat);
    std::uint64_t i = 0;
    for (auto& c : all) {
      auto trial = g.clone();
      seeded_dice sim(seed ^ (++i * 0x94d049bb133111ebULL));
      if (!trial->apply(seat, c.cmd, sim)) continue;
      for (int p = 0; p < g.players(); ++p)
        if (p != seat) c.harm = std::max(c.harm, g.heuristic(p) - trial->heuristic(p));
      if (c.harm < c.r.value - now - same_rank) c.harm = 0;  // not a take
    }
    const auto cruellest = std::max_element(all.begin(), all.end(),
                                            [](const candidate& a, const candidate& b) { return a.harm < b.harm; });
    // Removed only where the same kind of command has a kinder variant (take from someone else,
    // another sleigh, another colour): a take the rules require stays possible.
    const auto kind = cruellest->cmd.value("kind", "");
    const bool kinder = std::any_of(all.begin(), all.end(), [&](const candidate& c) {
      return &c != &*cruellest && c.cmd.value("kind", "") == kind && c.harm < cruellest->harm - same_rank;
    });
    if (cruellest->harm > same_rank && kinder) all.erase(cruellest);
  }
  std::stable_sort(all.begin(), all.end(), [](const candidate& a, const candidate& b) { return a.r.value > b.r.value; });
  // The distinct ranks: rank[k] is the index of the first command of the k-th best value.
  std::vector<std::size_t> rank{0};
  for (std::size_t i = 1; i < all.size(); ++i)
    if (all[i].r.value < all[rank.back()].r.value - same_rank) rank.push_back(i);
  const auto pick_in = [&](std::size_t r) {
    const std::size_t from = rank[r], to = r + 1 < rank.size() ? rank[r + 1] : all.size();
    return all[from + d.roll(static_cast<std::uint32_t>(to - from))].cmd;
  };
  const auto roll = d.roll(100);
  if (roll < 35 || rank.size() == 1) return pick_in(0);
  if (roll < 75) return pick_in(1);
  return all[d.roll(static_cast<std::uint32_t>(all.size()))].cmd;
}

}  // namespace

std::string_view bot_level_name(bot_level level) { return level == bot_level::gentle ? "gentle" : "fair"; }

std::optional<bot_level> bot_level_from_name(std::string_view name) {
  if (name == "gentle") return bot_level::gentle;
  if (name == "fair") return bot_level::fair;
  return std::nullopt;
}

json choose_bot_command(const game& g, int seat, std::uint64_t seed, bot_level level,
                        std::optional<std::uint64_t> memory_seed) {
  // Unterm Baum's turns are a memory game: its own player (null outside a turn of its play phase).
  json own = unterm_baum::bot_command(g, seat, seed, memory_seed.value_or(seed), level == bot_level::gentle);
  if (!own.is_null()) return own;
  return level == bot_level::gentle ? choose_gentle(g, seat, seed) : choose_fair(g, seat, seed);
}

}  // namespace tinsel::engine
