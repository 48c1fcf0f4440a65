#include "chooser.hpp"

#include <algorithm>
#include <map>
#include <string>

namespace tinsel_bot {

namespace {

std::string kind_of(const json& entry) { return entry.is_object() ? entry.value("kind", "") : ""; }

bool is_concrete(const json& entry) { return entry.is_object() && !entry.contains("domain"); }

bool seat_in(const json& seats, int seat) {
  if (!seats.is_array()) return false;
  return std::any_of(seats.begin(), seats.end(), [seat](const json& s) { return s.is_number_integer() && s.get<int>() == seat; });
}

// players[seat] of a view, or null.
const json& player_view(const json& view, int seat) {
  static const json none;
  const auto it = view.find("players");
  if (it == view.end() || !it->is_array() || seat < 0 || static_cast<std::size_t>(seat) >= it->size()) return none;
  return (*it)[static_cast<std::size_t>(seat)];
}

int count_of(const json& per_colour, const std::string& colour) {
  if (!per_colour.is_object()) return 0;
  const auto it = per_colour.find(colour);
  return it != per_colour.end() && it->is_number_integer() ? it->get<int>() : 0;
}

int total(const json& per_colour) {
  int n = 0;
  if (per_colour.is_object())
    for (const auto& [k, v] : per_colour.items())
      if (v.is_number_integer()) n += v.get<int>();
  return n;
}

double happy_holidays_weight(const json& view, int seat, const json& entry) {
  const std::string k = kind_of(entry);
  const json& me = player_view(view, seat);
  if (k == "take_reindeer") return 20;  // rolling without one is "forgot the reindeer"
  if (k == "roll") return 1;
  if (k == "sleigh_colour" || k == "wish_colour") {
    // The score counts the two largest stacks: grow the stacks that are already large.
    const json stacks = me.is_object() ? me.value("stacks", json::object()) : json::object();
    return 1.0 + 2.0 * count_of(stacks, entry.value("colour", ""));
  }
  if (k == "choose_sleigh") {
    const json& owner = player_view(view, entry.value("owner", -1));
    const json gifts = owner.is_object() && owner.contains("sleigh") ? owner["sleigh"].value("gifts", json::object()) : json::object();
    return 1.0 + 3.0 * total(gifts);
  }
  return 1;
}

double christmas_penguins_weight(const json& view, const json& entry) {
  const std::string k = kind_of(entry);
  const std::string prompt = view.contains("prompt") && view["prompt"].is_string() ? view["prompt"].get<std::string>() : "";
  // legal lists every channel and every green-stone move: these weights are for the whole group,
  // which choose() shares out among its entries.
  if (k == "use_stone") return 4;  // having stopped the game, mostly use the stone
  if (k == "cancel_stop") return 1;
  if (k == "pickup_stone") return entry.value("take", false) ? 6 : 1;  // stones make "Stop!" possible
  if (k == "place_channel") return prompt == "post_move" ? 0.3 : 0.1;
  if (k == "move" && entry.contains("to")) {
    // A penguin heads for the tree (a present) or a stone; Santa for a penguin (view.santa is
    // Santa's floe, so any other occupied destination is a meeting).
    const json& to = entry["to"];
    if (view.contains("tree") && to == view["tree"]) return 6;
    for (const auto& stone : view.value("stones_on_board", json::array()))
      if (stone.is_array() && !stone.empty() && stone[0] == to) return 4;
    for (const auto& p : view.value("players", json::array()))
      if (p.is_object() && p.contains("penguin") && p["penguin"] == to) return 3;
  }
  return 1;
}

// The slot indices of SLOTS: numbers, and runs [first, last].
std::vector<int> indices(const json& slots) {
  std::vector<int> out;
  if (!slots.is_array()) return out;
  for (const auto& x : slots) {
    if (x.is_number_integer()) out.push_back(x.get<int>());
    else if (x.is_array() && x.size() == 2)
      for (int i = x[0].get<int>(); i <= x[1].get<int>(); ++i) out.push_back(i);
  }
  return out;
}

// A location set {"tree":SLOTS,"fields":[[seat,SLOTS]…],"slots":C} as location objects, in board
// order; a field slot's index is row * C + slot.
std::vector<json> locations(const json& set) {
  std::vector<json> out;
  if (!set.is_object()) return out;
  const int c = std::max(1, set.value("slots", 1));
  for (int i : indices(set.value("tree", json::array()))) out.push_back({{"tree", i}});
  for (const auto& f : set.value("fields", json::array()))
    if (f.is_array() && f.size() == 2)
      for (int i : indices(f[1])) out.push_back({{"row", i / c}, {"seat", f[0]}, {"slot", i % c}});
  return out;
}

// The commands one domain entry stands for; empty for a domain the bot does not expand.
std::vector<json> expand_domain(const json& entry) {
  const std::string k = kind_of(entry);
  const json& d = entry["domain"];
  std::vector<json> out;
  if (!d.is_object()) return out;
  if (k == "use_stone" && entry.value("stone", "") == "green") {
    // Each floe of `floes` to each cell but one whose third number is that floe, and the `pairs`;
    // in order of floe (cells in listed order within a floe).
    std::map<int, std::vector<json>> by_floe;
    for (const auto& f : d.value("floes", json::array()))
      for (const auto& c : d.value("cells", json::array()))
        if (c.is_array() && c.size() >= 2 && !(c.size() == 3 && c[2] == f))
          by_floe[f.get<int>()].push_back({{"floe", f}, {"kind", "use_stone"}, {"stone", "green"}, {"to", {c[0], c[1]}}});
    for (const auto& p : d.value("pairs", json::array()))
      if (p.is_array() && p.size() == 3)
        by_floe[p[0].get<int>()].push_back({{"floe", p[0]}, {"kind", "use_stone"}, {"stone", "green"}, {"to", {p[1], p[2]}}});
    for (auto& [f, list] : by_floe)
      for (auto& c : list) out.push_back(std::move(c));
  } else if (k == "place_channel") {
    for (const auto& e : d.value("edges", json::array()))
      if (e.is_array() && e.size() == 2) out.push_back({{"a", e[0]}, {"b", e[1]}, {"kind", "place_channel"}});
  } else if (k == "flee") {
    for (const auto& to : d.value("to", json::array()))
      for (const auto& c : d.value("colours", json::array())) out.push_back({{"colour", c}, {"kind", "flee"}, {"to", to}});
  } else if (k == "reveal") {
    for (auto& l : locations(d.value("locations", json::object()))) out.push_back({{"kind", "reveal"}, {"location", std::move(l)}});
  } else if (k == "move") {  // from × to in different areas (the tree, or one seat's field)
    const auto area = [](const json& l) { return l.contains("tree") ? -1 : l.value("seat", -2); };
    const auto to = locations(d.value("to", json::object()));
    for (const auto& from : locations(d.value("from", json::object())))
      for (const auto& t : to)
        if (area(from) != area(t)) out.push_back({{"from", from}, {"kind", "move"}, {"to", t}});
  }
  return out;
}

}  // namespace

json expand_legal(const json& legal) {
  json out = json::array();
  if (!legal.is_array()) return out;
  std::vector<std::vector<json>> lists(legal.size());
  std::vector<json> covered;
  for (std::size_t i = 0; i < legal.size(); ++i)
    if (legal[i].is_object() && legal[i].contains("domain")) {
      lists[i] = expand_domain(legal[i]);
      covered.insert(covered.end(), lists[i].begin(), lists[i].end());
    }
  for (std::size_t i = 0; i < legal.size(); ++i) {
    const json& e = legal[i];
    if (!is_concrete(e)) {
      for (auto& c : lists[i]) out.push_back(std::move(c));
    } else if (std::find(covered.begin(), covered.end(), e) == covered.end()) {
      out.push_back(e);
    }
  }
  return out;
}

chooser::chooser(std::uint64_t seed, double stop_chance) : rng_(seed), stop_chance_(stop_chance) {}

bool chooser::chance(double p) { return p > 0 && std::uniform_real_distribution<double>(0, 1)(rng_) < p; }

double chooser::unterm_baum_weight(const json& view, const json& entry) const {
  const std::string k = kind_of(entry);
  if (k == "assign") return 1;  // only the default wish list is concrete
  const json actions = view.value("actions", json::object());
  const bool action_left = actions.is_object() && (actions.value("reveal", false) || actions.value("move", false));
  if (k == "end_turn") return ub_actions_ >= 4 ? 1000 : action_left ? 0.2 : 1;
  if (k == "reveal") return 3;
  if (k == "move") return 4;
  if (k == "rearrange") return ub_rearranges_ == 0 && ub_actions_ < 4 ? 0.5 : 0;
  return 1;
}

double chooser::weight(const json& view, int seat, const json& entry) {
  const std::string game = view.value("game", "");
  if (game == "happy_holidays") return happy_holidays_weight(view, seat, entry);
  if (game == "unterm_baum") return unterm_baum_weight(view, entry);
  if (game == "christmas_penguins") return christmas_penguins_weight(view, entry);
  return 1;  // a game this bot does not know: plain random choice still plays legally
}

std::optional<json> chooser::choose(const json& state, int seat, const std::vector<json>& refused) {
  const json& listed = state.contains("legal") ? state["legal"] : json();
  if (!listed.is_array() || listed.empty() || state.value("over", false)) return std::nullopt;
  const json legal = expand_legal(listed);
  const json& view = state.contains("view") && state["view"].is_object() ? state["view"] : json::object();

  std::vector<json> moves;  // concrete entries other than stop claims
  std::optional<json> stop;
  for (const auto& e : legal) {
    if (!is_concrete(e) || std::find(refused.begin(), refused.end(), e) != refused.end()) continue;
    const std::string k = kind_of(e);
    if (k == "stop") {
      stop = e;
    } else if (k != "withdraw_stop") {  // a queued claim is simply left to be granted or dropped
      moves.push_back(e);
    }
  }

  // "Stop!" may be shouted out of turn; claim it now and then so that part of the game is used.
  if (stop && chance(stop_chance_)) return stop;
  const json& prompt = state.contains("prompt") ? state["prompt"] : json();
  if (!prompt.is_object() || !seat_in(prompt.value("seats", json::array()), seat) || moves.empty()) return std::nullopt;

  if (view.value("game", "") == "unterm_baum") {
    const long long turn = view.value("turn", -1LL);
    if (turn != ub_turn_) {
      ub_turn_ = turn;
      ub_actions_ = 0;
      ub_rearranges_ = 0;
    }
  }

  std::vector<double> weights;
  weights.reserve(moves.size());
  for (const auto& e : moves) weights.push_back(std::max(0.0, weight(view, seat, e)));
  // A kind with many entries of one weight (every channel, every green-stone move) is one choice
  // shared by its entries, so the length of the list does not make it likelier.
  std::map<std::string, int> per_kind;
  const auto group = [](const json& e) { return kind_of(e) + (e.value("stone", "") == "green" ? ":green" : ""); };
  for (const auto& e : moves) ++per_kind[group(e)];
  const bool ub = view.value("game", "") == "unterm_baum";
  for (std::size_t i = 0; i < moves.size(); ++i) {
    const auto g = group(moves[i]);
    if (g == "place_channel" || g == "use_stone:green" || (ub && g == "move")) weights[i] /= per_kind[g];
  }
  if (std::all_of(weights.begin(), weights.end(), [](double w) { return w <= 0; }))
    std::fill(weights.begin(), weights.end(), 1.0);
  std::discrete_distribution<std::size_t> pick(weights.begin(), weights.end());
  json chosen = moves[pick(rng_)];

  if (view.value("game", "") == "unterm_baum" && kind_of(chosen) != "assign") {
    ++ub_actions_;
    if (kind_of(chosen) == "rearrange") ++ub_rearranges_;
  }
  return chosen;
}

}  // namespace tinsel_bot
