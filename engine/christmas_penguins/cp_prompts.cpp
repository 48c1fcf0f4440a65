// Christmas Penguins prompts, legal() and the deterministic timeout defaults D1-D17.
#include <algorithm>
#include <cassert>
#include <climits>

#include "christmas_penguins/cp_game.hpp"
#include "tinsel/json_text/sinks.hpp"

namespace tinsel::engine::christmas_penguins::detail {

using fast_json::object;

// ---- prompts --------------------------------------------------------------------------------

void cp_game::open(phase p) {
  s_.ph = p;
  ++s_.serial;
}

std::string cp_game::prompt_kind() const { return phase_name(s_.ph); }

std::vector<int> cp_game::prompt_seats() const {
  switch (s_.ph) {
    case phase::over: return {};
    case phase::place_penguin: return {s_.place_order.front()};
    case phase::place_tree:
    case phase::place_bear:
    case phase::santa_place_stone:
    case phase::confiscate:
    case phase::relocate_tree: return {s_.santa_player};
    case phase::flee: return {s_.pending_seat};
    case phase::reaction: return s_.reaction_seats;
    case phase::stopped: return {s_.claimant};
    default: return {s_.active};
  }
}

std::optional<prompt> cp_game::current_prompt() const {
  if (s_.ph == phase::over) return std::nullopt;
  std::optional<int> timeout;
  switch (s_.ph) {
    case phase::reaction: timeout = s_.cfg->reaction_ms; break;
    case phase::stopped: timeout = s_.cfg->stop_ms; break;
    case phase::santa_place_stone:
    case phase::push_chain:
    case phase::confiscate:
    case phase::steal:
    case phase::relocate_tree:
    case phase::pickup_stone:
    case phase::flee: timeout = s_.cfg->sub_ms; break;
    default: timeout = s_.cfg->main_ms;
  }
  return prompt{prompt_kind(), prompt_seats(), timeout, s_.serial, s_.ph == phase::reaction};
}

// ---- move destinations ----------------------------------------------------------------------

namespace {
// Everything move_destinations() reads besides the configuration: who moves and from where, the
// figures, the tree, the roll and the board's layout.
std::array<int, 16> destinations_key(const state& s) {
  std::array<int, 16> k{};
  k.fill(-9);
  k[0] = s.active;
  k[1] = s.santa_player;
  k[2] = s.santa;
  k[3] = s.bear;
  k[4] = s.tree;
  k[5] = s.hut;
  k[6] = s.roll;
  k[7] = static_cast<int>(s.layout);
  k[8] = static_cast<int>(s.floes.size());
  for (std::size_t p = 0; p < s.penguin.size() && p < 6; ++p) k[9 + p] = s.penguin[p];
  k[15] = static_cast<int>(s.penguin.size());
  return k;
}
}  // namespace

const std::vector<int>& cp_game::destinations() const {
  const auto key = destinations_key(s_);
  if (!dests_ || dests_->key != key) dests_ = destinations_cache{key, move_destinations(s_)};
  assert(dests_->floes == move_destinations(s_));
  return dests_->floes;
}

// move_legal(s_, to), answered from the destinations: an end floe of some path that the mover may
// end on is exactly what both check.
bool cp_game::destination_legal(int to) const {
  if (to < 0 || to >= static_cast<int>(s_.floes.size()) || s_.roll <= 0) return false;
  const auto& d = destinations();
  assert(std::binary_search(d.begin(), d.end(), to) == move_legal(s_, to));
  return std::binary_search(d.begin(), d.end(), to);
}

// ---- legal ----------------------------------------------------------------------------------

void cp_game::list_legal(int seat, legal_writer& out) const {
  if (s_.ph == phase::over || seat < 0 || seat >= s_.cfg->players) return;
  const bool queued = std::find(s_.stop_queue.begin(), s_.stop_queue.end(), seat) != s_.stop_queue.end();
  if (queued) out.kind("withdraw_stop");
  if (s_.ph == phase::stopped) {
    if (seat == s_.claimant) {
      out.kind("cancel_stop");
      legal_stones(seat, out);
    }
    return;
  }
  if (may_shout(seat)) out.kind("stop");
  const auto seats = prompt_seats();
  if (!contains(seats, seat)) return;
  const int n = static_cast<int>(s_.floes.size());
  switch (s_.ph) {
    case phase::place_penguin:
      for (int f = 0; f < n; ++f)
        if (is_refuge(s_, f)) out.floe("place_penguin", "floe", f);
      break;
    case phase::place_tree:
      for (int f : tree_candidates(s_)) out.floe("place_tree", "floe", f);
      break;
    case phase::place_bear:
      for (int f = 0; f < n; ++f)
        if (!has_figure(s_, f) && f != s_.tree) out.floe("place_bear", "floe", f);
      break;
    case phase::santa_place_stone:
      for (int f : stone_floes(s_)) out.floe("place_stone", "floe", f);
      break;
    case phase::await_roll: out.kind("roll"); break;
    case phase::reaction: out.kind("pass"); break;
    case phase::await_move:
      for (int f : destinations()) out.floe("move", "to", f);
      break;
    case phase::push_chain:
      for (const auto& c : push_chains(s_, s_.active, s_.pending_floe)) out.push(c);
      break;
    case phase::confiscate:
    case phase::steal: {
      const bool conf = s_.ph == phase::confiscate;
      const counts& from = conf ? s_.presents[static_cast<std::size_t>(s_.pending_seat)] : s_.pool;
      for (int c = 0; c < colour_count; ++c)
        if (from[static_cast<std::size_t>(c)] > 0) out.colour(conf ? "confiscate" : "steal", c);
      break;
    }
    case phase::relocate_tree:
      for (int f : tree_candidates(s_)) out.floe("relocate_tree", "floe", f);
      break;
    case phase::pickup_stone:
      out.pickup(true);
      out.pickup(false);
      break;
    case phase::await_bear:
      for (int f : bear_steps(s_)) out.floe("bear_move", "to", f);
      break;
    case phase::flee: {
      const auto& held = s_.presents[static_cast<std::size_t>(s_.pending_seat)];
      const auto targets = flee_targets(s_, s_.pending_seat);
      if (total(held) == 0) {
        for (int f : targets) out.floe("flee", "to", f);
        break;
      }
      // Every floe with every colour held: at most 6 x floes commands (fleeRange=anyRefuge), on
      // the wire the first of them and the domain floes x colours.
      std::vector<int> colours;
      for (int c = 0; c < colour_count; ++c)
        if (held[static_cast<std::size_t>(c)] > 0) colours.push_back(c);
      if (targets.empty()) break;
      if (!out.expand) {
        out.flee(colours.front(), targets.front());
        out.flee_domain(targets, colours);
        break;
      }
      for (int f : targets)
        for (int c : colours) out.flee(c, f);
      break;
    }
    case phase::await_post: out.kind("end_turn"); break;
    default: break;
  }
  legal_channels(seat, out);
}

namespace {

// The entries as objects of a sink (tinsel/json_text/sinks.hpp), each object's keys in ascending
// order. Every name written is plain ASCII.
template <class Sink>
class sink_legal final : public legal_writer {
 public:
  explicit sink_legal(Sink& s) : s_(s) {}
  void kind(const char* kind) override {
    s_.begin_object();
    s_.member("kind", kind);
    s_.end_object();
  }
  void floe(const char* kind, const char* key, int f) override {
    s_.begin_object();
    if (key[0] == 'f') s_.member("floe", f);  // "floe" sorts before "kind", "to" after it
    s_.member("kind", kind);
    if (key[0] != 'f') s_.member("to", f);
    s_.end_object();
  }
  void push(const std::vector<int>& chain) override {
    s_.begin_object();
    s_.key("chain");
    s_.begin_array(chain.size());
    for (int f : chain) s_.value(f);
    s_.end_array();
    s_.member("kind", "push");
    s_.end_object();
  }
  void colour(const char* kind, int colour) override {
    s_.begin_object();
    s_.member("colour", colour_name(colour));
    s_.member("kind", kind);
    s_.end_object();
  }
  void pickup(bool take) override {
    s_.begin_object();
    s_.member("kind", "pickup_stone");
    s_.member("take", take);
    s_.end_object();
  }
  void flee(int colour, int to) override {
    s_.begin_object();
    s_.member("colour", colour_name(colour));
    s_.member("kind", "flee");
    s_.member("to", to);
    s_.end_object();
  }
  void swap_stone(int stone, int target) override {
    s_.begin_object();
    s_.member("kind", "use_stone");
    s_.member("stone", stone_name(stone));
    s_.member("target", target);
    s_.end_object();
  }
  void green_stone(int f, int q, int r) override {
    s_.begin_object();
    s_.member("floe", f);
    s_.member("kind", "use_stone");
    s_.member("stone", "green");
    s_.key("to");
    s_.begin_array(2);
    s_.value(q);
    s_.value(r);
    s_.end_array();
    s_.end_object();
  }
  void channel(int a, int b) override {
    s_.begin_object();
    s_.member("a", a);
    s_.member("b", b);
    s_.member("kind", "place_channel");
    s_.end_object();
  }
  void flee_domain(const std::vector<int>& to, const std::vector<int>& colours) override {
    s_.begin_object();
    s_.key("domain");
    s_.begin_object();
    s_.key("colours");
    s_.begin_array(colours.size());
    for (int c : colours) s_.value(colour_name(c));
    s_.end_array();
    s_.member("rule", "to_x_colours");
    s_.key("to");
    s_.begin_array(to.size());
    for (int f : to) s_.value(f);
    s_.end_array();
    s_.end_object();
    s_.member("kind", "flee");
    s_.end_object();
  }
  void channel_domain(const std::vector<std::pair<int, int>>& edges) override {
    s_.begin_object();
    s_.key("domain");
    s_.begin_object();
    s_.key("edges");
    s_.begin_array(edges.size());
    for (const auto& [a, b] : edges) {
      s_.begin_array(2);
      s_.value(a);
      s_.value(b);
      s_.end_array();
    }
    s_.end_array();
    s_.end_object();
    s_.member("kind", "place_channel");
    s_.end_object();
  }
  void green_domain(const green_moves& g) override {
    s_.begin_object();
    s_.key("domain");
    s_.begin_object();
    s_.key("cells");
    s_.begin_array(g.cells.size());
    for (const auto& c : g.cells) {
      s_.begin_array(c[2] < 0 ? 2 : 3);
      s_.value(c[0]);
      s_.value(c[1]);
      if (c[2] >= 0) s_.value(c[2]);
      s_.end_array();
    }
    s_.end_array();
    s_.key("floes");
    s_.begin_array(g.floes.size());
    for (int f : g.floes) s_.value(f);
    s_.end_array();
    s_.key("pairs");
    s_.begin_array(g.pairs.size());
    for (const auto& p : g.pairs) {
      s_.begin_array(3);
      for (int x : p) s_.value(x);
      s_.end_array();
    }
    s_.end_array();
    s_.member("rule", "floes_x_cells");
    s_.end_object();
    s_.member("kind", "use_stone");
    s_.member("stone", "green");
    s_.end_object();
  }

 private:
  Sink& s_;
};

}  // namespace

template <class Sink>
void cp_game::emit_legal(Sink& s, int seat, bool expand) const {
  s.begin_array();
  sink_legal<Sink> writer(s);
  writer.expand = expand;
  list_legal(seat, writer);
  s.end_array();
}

json cp_game::legal(int seat) const {
  return json_text::as_json([&](auto& sink) { emit_legal(sink, seat); });
}

json cp_game::commands(int seat) const {
  return json_text::as_json([&](auto& sink) { emit_legal(sink, seat, true); });
}

bool cp_game::write_legal(int seat, std::string& out) const {
  json_text::as_text(out, [&](auto& sink) { emit_legal(sink, seat); });
  return true;
}

// ---- timeouts (D1-D17) ----------------------------------------------------------------------

// D8.
int cp_game::default_move() const {
  const auto& dests = destinations();
  const auto min_dist_to_penguins = [&](int f) {
    int best = INT_MAX;
    for (int p : s_.penguin)
      if (p >= 0) best = std::min(best, hex_dist(s_, f, p));
    return best;
  };
  if (active_is_santa(s_)) {
    for (int f : dests)
      if (penguin_at(s_, f) >= 0) return f;
    return *std::min_element(dests.begin(), dests.end(), [&](int a, int b) {
      return std::pair(min_dist_to_penguins(a), a) < std::pair(min_dist_to_penguins(b), b);
    });
  }
  std::vector<int> cands;
  for (int f : dests)
    if (f != s_.santa) cands.push_back(f);
  if (cands.empty()) return dests.front();
  if (contains(cands, s_.tree)) return s_.tree;
  const auto key = [&](int f) {
    return std::tuple(hex_dist(s_, f, s_.tree), penguin_at(s_, f, s_.active) >= 0 ? 1 : 0, f);
  };
  return *std::min_element(cands.begin(), cands.end(), [&](int a, int b) { return key(a) < key(b); });
}

events cp_game::on_timeout(std::uint64_t serial, dice& d) {
  events out;
  if (s_.ph == phase::over || serial != s_.serial) return out;
  if (s_.ph != phase::stopped) std::fill(s_.reclaim_blocked.begin(), s_.reclaim_blocked.end(), false);
  timeout_default(d, out);
  return out;
}

void cp_game::timeout_default(dice& d, events& out) {
  const auto seats = prompt_seats();
  const int seat = seats.empty() ? s_.active : seats.front();
  const int n = static_cast<int>(s_.floes.size());
  const auto farthest_from_penguins = [&](const std::vector<int>& cands) {  // D2, D12
    int best = cands.front(), best_d = -1;
    for (int f : cands) {
      int m = INT_MAX;
      for (int p : s_.penguin)
        if (p >= 0) m = std::min(m, hex_dist(s_, f, p));
      if (m > best_d) best = f, best_d = m;
    }
    return best;
  };
  json cmd;
  switch (s_.ph) {
    case phase::place_penguin: {  // D1
      int best = -1, best_d = -1;
      for (int f = 0; f < n; ++f)
        if (is_refuge(s_, f) && hex_dist(s_, f, s_.santa) > best_d) best = f, best_d = hex_dist(s_, f, s_.santa);
      cmd = floe_cmd("place_penguin", "floe", best);
      break;
    }
    case phase::place_tree: cmd = floe_cmd("place_tree", "floe", farthest_from_penguins(tree_candidates(s_))); break;
    case phase::place_bear:  // D3
      for (int f = 0; f < n && cmd.is_null(); ++f)
        if (!has_figure(s_, f) && f != s_.tree) cmd = floe_cmd("place_bear", "floe", f);
      break;
    case phase::santa_place_stone: {  // D4: uniformly random
      const auto floes = stone_floes(s_);
      cmd = floe_cmd("place_stone", "floe", floes[d.roll(static_cast<std::uint32_t>(floes.size()))]);
      break;
    }
    case phase::await_roll: cmd = kind_only("roll"); break;  // D5 (no channel), D6
    case phase::reaction:                                      // D7: everyone passes
      out.push_back(event::public_event(object("kind", "reaction_closed", "unanswered", s_.reaction_seats)));
      after_reaction(out);
      return;
    case phase::await_move: cmd = floe_cmd("move", "to", default_move()); break;
    case phase::push_chain: {  // D9: shortest, then lexicographically smallest
      auto chains = push_chains(s_, s_.active, s_.pending_floe);
      std::sort(chains.begin(), chains.end(), [](const auto& a, const auto& b) {
        return a.size() != b.size() ? a.size() < b.size() : a < b;
      });
      cmd = object("chain", chains.front(), "kind", "push");
      break;
    }
    case phase::confiscate:  // D10
      cmd = object("colour", colour_name(most(s_.presents[static_cast<std::size_t>(s_.pending_seat)])), "kind",
                   "confiscate");
      break;
    case phase::steal: cmd = object("colour", colour_name(most(s_.pool)), "kind", "steal"); break;  // D11
    case phase::relocate_tree:
      cmd = floe_cmd("relocate_tree", "floe", farthest_from_penguins(tree_candidates(s_)));
      break;
    case phase::pickup_stone: cmd = object("kind", "pickup_stone", "take", true); break;  // D13
    case phase::await_bear: {  // D14
      const auto steps = bear_steps(s_);
      cmd = floe_cmd("bear_move", "to", steps.front());
      for (int f : steps)
        if (penguin_at(s_, f) < 0) {
          cmd = floe_cmd("bear_move", "to", f);
          break;
        }
      break;
    }
    case phase::flee: {  // D15
      const auto targets = flee_targets(s_, seat);
      int best = targets.front();
      for (int f : targets)
        if (hex_dist(s_, f, s_.santa) > hex_dist(s_, best, s_.santa)) best = f;
      cmd = floe_cmd("flee", "to", best);
      const auto& held = s_.presents[static_cast<std::size_t>(seat)];
      if (total(held) > 0) cmd["colour"] = colour_name(most(held));
      break;
    }
    case phase::await_post: cmd = kind_only("end_turn"); break;  // D17
    case phase::stopped: end_stop("lapsed", out); return;        // D16: the stone is kept
    default: return;
  }
  // Every default is an ordinary legal command, so it goes through the same validation.
  (void)dispatch(seat, cmd, d, out);
}


}  // namespace tinsel::engine::christmas_penguins::detail
