// Christmas Penguins board geometry and the searches the rules need: connected edges, exact-N
// simple paths (A9-A13), push chains (A14, A15), and the candidate floes of every placement.
#include <algorithm>
#include <bit>
#include <cstdlib>
#include <functional>

#include "christmas_penguins/cp_game.hpp"

namespace tinsel::engine::christmas_penguins::detail {

namespace {
// A2: neighbour directions in the rulebook's order; the order fixes iteration (and so defaults).
constexpr std::array<std::array<int, 2>, 6> directions = {
    {{{1, 0}}, {{1, -1}}, {{0, -1}}, {{-1, 0}}, {{-1, 1}}, {{0, 1}}}};

std::uint64_t bit(int f) { return std::uint64_t{1} << f; }

// The figure whose path is searched. Its own floe never blocks its path.
struct mover {
  bool santa = false;
  int seat = -1;
  int origin = -1;
  bool from_hut = false;
  std::uint64_t blocked = 0;  // floes it may not pass (see blocks())
  std::uint64_t barred = 0;   // floes it may not even enter: the tree floe for Santa (A12)
};

mover active_mover(const state& s) {
  mover m;
  m.seat = s.active;
  m.santa = active_is_santa(s);
  if (m.santa) {
    m.origin = s.santa;
  } else if (s.penguin[static_cast<std::size_t>(s.active)] == at_hut) {
    m.origin = s.hut;
    m.from_hut = true;
  } else {
    m.origin = s.penguin[static_cast<std::size_t>(s.active)];
  }
  // blocks(): the bear, Santa (for a penguin) and every other penguin on the board.
  if (s.bear >= 0) m.blocked |= bit(s.bear);
  if (!m.santa && s.santa >= 0) m.blocked |= bit(s.santa);
  for (std::size_t p = 0; p < s.penguin.size(); ++p)
    if (static_cast<int>(p) != m.seat && s.penguin[p] >= 0) m.blocked |= bit(s.penguin[p]);
  if (m.santa && s.tree >= 0) m.barred = bit(s.tree);
  return m;
}

// Whether push_chains(s, mover_seat, x) would find a chain: a refuge next to the pushed penguin
// ends one at once; otherwise a chain goes on through an occupied neighbour.
bool has_push_chain(const state& s, int mover_seat, int from, std::uint64_t used) {
  bool refuge = false;
  std::array<int, 6> occupied{};
  int k = 0;
  for (int y : neighbours(s, from)) {
    if ((used & bit(y)) || y == s.tree || y == s.santa || y == s.bear) continue;
    if (penguin_at(s, y, mover_seat) < 0)
      refuge = true;
    else
      occupied[static_cast<std::size_t>(k++)] = y;
  }
  if (refuge) return true;
  for (int i = 0; i < k; ++i) {
    const int y = occupied[static_cast<std::size_t>(i)];
    if (has_push_chain(s, mover_seat, y, used | bit(y))) return true;
  }
  return false;
}

// A13: may the mover end on X?
bool end_allowed(const state& s, const mover& m, int x) {
  if (x == s.bear) return false;
  if (m.santa) return x != s.tree;  // a penguin there is a meeting, otherwise free
  if (x == s.santa) return true;    // walking into Santa: a meeting (legal though self-harming)
  if (penguin_at(s, x, m.seat) >= 0) return has_push_chain(s, m.seat, x, bit(x));
  return true;
}

// Exact-N walk (A10-A12). Intermediate floes must be figure-free; `found` collects end floes (bit
// i = floe i). With a target the search is pruned by distance and stops at the first hit. Without
// one, a branch stops once every floe it could still end on has been found: only the set of end
// floes matters, not the paths.
void walk(const state& s, const mover& m, int v, int prev, std::uint64_t seen, int left, int target,
          std::uint64_t candidates, std::uint64_t& found, bool& hit) {
  // A simple path cannot end on a floe it has already passed. (The caller has built s.reach.)
  const std::uint64_t near =
      left <= 6 ? s.reach[static_cast<std::size_t>(v)][static_cast<std::size_t>(left)] : ~std::uint64_t{0};
  const std::uint64_t open = near & candidates & (s.cfg->simple_path ? ~seen : ~std::uint64_t{0});
  if (target < 0 ? (open & ~found) == 0 : (open & bit(target)) == 0) return;
  if (left == 1) {  // the last step, for all neighbours at once: the same tests as the loop below
    std::uint64_t ends = neighbours(s, v).bits & ~m.barred;
    if (s.cfg->simple_path) {
      ends &= ~seen;
    } else {
      if (prev >= 0) ends &= ~bit(prev);
      if (m.from_hut) ends &= ~bit(m.origin);
    }
    if (target >= 0) ends &= bit(target);  // hex_dist(n, target) > 0 for every other floe
    found |= ends;
    if (ends) hit = target >= 0;
    return;
  }
  for (int n : neighbours(s, v)) {
    if (hit) return;
    if (s.cfg->simple_path) {
      if (seen & bit(n)) continue;
    } else if (n == prev || (m.from_hut && n == m.origin)) {
      continue;
    }
    if (m.barred & bit(n)) continue;  // A12: Santa never passes or enters the tree floe
    if (target >= 0 && hex_dist(s, n, target) > left - 1) continue;
    if (m.blocked & bit(n)) continue;
    walk(s, m, n, v, seen | bit(n), left - 1, target, candidates, found, hit);
  }
}

// Every floe a walk of at most `steps` steps could end on: reached through floes the mover may pass
// (a superset of the walk's end floes, which lets walk() stop early).
std::uint64_t walk_candidates(const state& s, const mover& m, int steps) {
  std::uint64_t seen = bit(m.origin), frontier = seen, out = 0;
  for (int d = 0; d < steps && frontier; ++d) {
    std::uint64_t next = 0;
    for (std::uint64_t f = frontier; f; f &= f - 1) {
      const std::uint64_t around = neighbours(s, std::countr_zero(f)).bits & ~m.barred;
      out |= around;
      next |= around & ~seen & ~m.blocked;
    }
    seen |= next;
    frontier = next;
  }
  return out;
}
}  // namespace

int cell_index(int q, int r) {
  if (std::abs(q) > grid_offset || std::abs(r) > grid_offset) return -1;
  return (q + grid_offset) * grid_side + (r + grid_offset);
}

int floe_at(const state& s, int q, int r) {
  const int i = cell_index(q, r);
  return i < 0 ? -1 : s.grid[static_cast<std::size_t>(i)];
}

void rebuild_grid(state& s) {
  s.adj_ok = false;
  ++s.layout;
  s.grid.fill(-1);
  for (std::size_t f = 0; f < s.floes.size(); ++f)
    s.grid[static_cast<std::size_t>(cell_index(s.floes[f].q, s.floes[f].r))] = static_cast<int>(f);
}

int hex_dist(const state& s, int a, int b) {
  const auto& x = s.floes[static_cast<std::size_t>(a)];
  const auto& y = s.floes[static_cast<std::size_t>(b)];
  const int dq = x.q - y.q, dr = x.r - y.r;
  return (std::abs(dq) + std::abs(dr) + std::abs(dq + dr)) / 2;
}

bool lattice_adjacent(const state& s, int a, int b) { return a != b && hex_dist(s, a, b) == 1; }

bool has_channel(const state& s, int a, int b) {
  const int lo = std::min(a, b), hi = std::max(a, b);
  return std::any_of(s.channels.begin(), s.channels.end(),
                     [&](const channel& c) { return c.a == lo && c.b == hi; });
}

bool connected_edge(const state& s, int a, int b) { return lattice_adjacent(s, a, b) && !has_channel(s, a, b); }

namespace {
// The lattice neighbours of every floe, then each channel's edge taken out again (one pass over the
// channels instead of a search of them per edge).
void build_adjacency(const state& s) {
  const auto n = s.floes.size();
  for (std::size_t i = 0; i < n; ++i) {
    neighbour_list& out = s.adj[i];
    out = neighbour_list{};
    for (const auto& d : directions) {
      const int m = floe_at(s, s.floes[i].q + d[0], s.floes[i].r + d[1]);
      if (m < 0) continue;
      out.v[static_cast<std::size_t>(out.n++)] = m;
      out.bits |= bit(m);
    }
  }
  const auto cut = [&](int f, int m) {
    neighbour_list& l = s.adj[static_cast<std::size_t>(f)];
    if (!(l.bits & bit(m))) return;
    l.bits &= ~bit(m);
    const auto end = std::remove(l.v.begin(), l.v.begin() + l.n, m);  // keeps the direction order
    l.n = static_cast<int>(end - l.v.begin());
  };
  for (const auto& c : s.channels) {
    cut(c.a, c.b);
    cut(c.b, c.a);
  }
  s.adj_ok = true;
  s.reach_ok = false;
}

// Distances from every floe, cut at 6 (the largest roll), a step at a time for all floes at once:
// the floes within d steps of f are f and those within d - 1 steps of one of its neighbours.
void build_reach(const state& s) {
  if (!s.adj_ok) build_adjacency(s);
  const auto n = s.floes.size();
  for (std::size_t f = 0; f < n; ++f) s.reach[f][0] = bit(static_cast<int>(f));
  for (std::size_t d = 1; d < s.reach[0].size(); ++d)
    for (std::size_t f = 0; f < n; ++f) {
      std::uint64_t r = s.reach[f][d - 1];
      for (int m : s.adj[f]) r |= s.reach[static_cast<std::size_t>(m)][d - 1];
      s.reach[f][d] = r;
    }
  s.reach_ok = true;
}
}  // namespace

const neighbour_list& neighbours(const state& s, int f) {
  if (!s.adj_ok) build_adjacency(s);
  return s.adj[static_cast<std::size_t>(f)];
}

std::uint64_t within(const state& s, int f, int d) {
  if (!s.adj_ok || !s.reach_ok) build_reach(s);
  return d <= 6 ? s.reach[static_cast<std::size_t>(f)][static_cast<std::size_t>(d)] : ~std::uint64_t{0};
}

bool board_connected(const state& s) {
  std::uint64_t seen = bit(0);
  for (std::uint64_t todo = seen; todo;) {
    const int f = std::countr_zero(todo);
    todo &= todo - 1;
    const std::uint64_t fresh = neighbours(s, f).bits & ~seen;
    seen |= fresh;
    todo |= fresh;
  }
  return seen == (std::uint64_t{1} << s.floes.size()) - 1;  // fewer than 64 floes
}

// Tarjan's bridge search over the connected neighbours: an edge whose cut would split the board.
// Depth is at most max_floes, so plain recursion is fine.
std::array<std::uint64_t, max_floes> bridges(const state& s) {
  std::array<std::uint64_t, max_floes> out{};
  std::array<int, max_floes> order{}, low{};
  order.fill(-1);
  int counter = 0;
  const auto dfs = [&](const auto& self, int f, int parent) -> void {
    const auto i = static_cast<std::size_t>(f);
    order[i] = low[i] = counter++;
    for (int m : neighbours(s, f)) {
      const auto j = static_cast<std::size_t>(m);
      if (m == parent) continue;  // floes share at most one edge, so skipping the parent is exact
      if (order[j] >= 0) {
        low[i] = std::min(low[i], order[j]);
        continue;
      }
      self(self, m, f);
      low[i] = std::min(low[i], low[j]);
      if (low[j] > order[i]) {
        out[i] |= bit(m);
        out[j] |= bit(f);
      }
    }
  };
  for (std::size_t f = 0; f < s.floes.size(); ++f)
    if (order[f] < 0) dfs(dfs, static_cast<int>(f), -1);
  return out;
}

bool board_connected_after(const state& s, int moved, int q, int r, int cut_a, int cut_b) {
  const auto n = s.floes.size();
  std::array<bool, max_floes> seen{};
  std::array<int, max_floes> todo{};
  std::size_t top = 0, count = 1;
  todo[top++] = 0;
  seen[0] = true;
  const auto visit = [&](int m) {
    if (seen[static_cast<std::size_t>(m)]) return;
    seen[static_cast<std::size_t>(m)] = true;
    ++count;
    todo[top++] = m;
  };
  const floe* old = moved >= 0 ? &s.floes[static_cast<std::size_t>(moved)] : nullptr;
  while (top > 0) {
    const int f = todo[--top];
    if (!old) {
      for (int m : neighbours(s, f))
        if (!((f == cut_a && m == cut_b) || (f == cut_b && m == cut_a))) visit(m);
      continue;
    }
    // The board with `moved` on (q, r): its old cell is vacant and its channels are gone.
    const auto& c = s.floes[static_cast<std::size_t>(f)];
    const int fq = f == moved ? q : c.q, fr = f == moved ? r : c.r;
    for (const auto& d : directions) {
      const int cq = fq + d[0], cr = fr + d[1];
      const int m = cq == q && cr == r ? moved : cq == old->q && cr == old->r ? -1 : floe_at(s, cq, cr);
      if (m < 0) continue;
      if (f != moved && m != moved && has_channel(s, f, m)) continue;
      visit(m);
    }
  }
  return count == n;
}

int penguin_at(const state& s, int f, int except_seat) {
  for (std::size_t p = 0; p < s.penguin.size(); ++p)
    if (s.penguin[p] == f && static_cast<int>(p) != except_seat) return static_cast<int>(p);
  return -1;
}

bool has_figure(const state& s, int f, int except_seat) {
  return f == s.santa || f == s.bear || penguin_at(s, f, except_seat) >= 0;
}

bool is_refuge(const state& s, int f, int except_seat) { return !has_figure(s, f, except_seat) && f != s.tree; }

bool is_empty_floe(const state& s, int f) {
  const auto& fl = s.floes[static_cast<std::size_t>(f)];
  return is_refuge(s, f) && f != s.hut && fl.stone == no_stone && total(fl.loose) == 0;
}

bool active_is_santa(const state& s) { return s.active == s.santa_player; }

std::vector<int> move_destinations(const state& s) {
  const mover m = active_mover(s);
  std::uint64_t found = 0;
  bool hit = false;
  if (s.roll > 0) {
    (void)within(s, m.origin, s.roll);  // builds s.reach for walk()
    walk(s, m, m.origin, -1, bit(m.origin), s.roll, -1, walk_candidates(s, m, s.roll), found, hit);
  }
  std::vector<int> out;
  out.reserve(static_cast<std::size_t>(std::popcount(found)));
  for (; found; found &= found - 1)
    if (const int f = std::countr_zero(found); end_allowed(s, m, f)) out.push_back(f);
  return out;
}

bool move_legal(const state& s, int to) {
  if (to < 0 || to >= static_cast<int>(s.floes.size()) || s.roll <= 0) return false;
  const mover m = active_mover(s);
  if (!end_allowed(s, m, to)) return false;
  std::uint64_t found = 0;
  bool hit = false;
  (void)within(s, m.origin, s.roll);  // builds s.reach for walk()
  walk(s, m, m.origin, -1, bit(m.origin), s.roll, to, walk_candidates(s, m, s.roll), found, hit);
  return hit;
}

// A14/A15: every chain [Y1..Yk] for the penguin standing on X; the mover (standing on X too, or
// about to) is ignored. No floe twice, X included; Yk is a REFUGE floe.
std::vector<std::vector<int>> push_chains(const state& s, int mover_seat, int x) {
  std::vector<std::vector<int>> out;
  std::vector<int> chain;
  std::function<void(int, std::uint64_t)> extend = [&](int from, std::uint64_t used) {
    std::vector<int> options;
    bool refuge_exists = false;
    for (int y : neighbours(s, from)) {
      if ((used & bit(y)) || y == s.tree || y == s.santa || y == s.bear) continue;
      options.push_back(y);
      if (penguin_at(s, y, mover_seat) < 0) refuge_exists = true;
    }
    for (int y : options) {
      const bool occupied = penguin_at(s, y, mover_seat) >= 0;
      if (occupied && s.cfg->free_first && refuge_exists) continue;  // freeFirst: chain only if forced
      chain.push_back(y);
      if (occupied)
        extend(y, used | bit(y));
      else
        out.push_back(chain);
      chain.pop_back();
    }
  };
  extend(x, bit(x));
  return out;
}

bool chain_valid(const state& s, int mover_seat, int x, const std::vector<int>& chain) {
  const auto all = push_chains(s, mover_seat, x);
  return std::find(all.begin(), all.end(), chain) != all.end();
}

// A19 (and A7 at setup): EMPTY floes at distance >= treeMinDistance from Santa; fallbacks: the
// farthest EMPTY floes, else the farthest FREE non-hut floes.
std::vector<int> tree_candidates(const state& s) {
  const int n = static_cast<int>(s.floes.size());
  std::vector<int> out;
  for (int f = 0; f < n; ++f)
    if (f != s.tree && is_empty_floe(s, f) && hex_dist(s, f, s.santa) >= s.cfg->tree_min_distance)
      out.push_back(f);
  if (!out.empty()) return out;
  for (const bool strict : {true, false}) {
    int best = -1;
    for (int f = 0; f < n; ++f) {
      const bool ok = f != s.tree && (strict ? is_empty_floe(s, f) : is_refuge(s, f) && f != s.hut);
      if (!ok) continue;
      const int d = hex_dist(s, f, s.santa);
      if (d > best) out.clear(), best = d;
      if (d == best) out.push_back(f);
    }
    if (!out.empty()) return out;
  }
  return out;
}

// A32: a connected neighbour that is neither the tree floe nor Santa's.
std::vector<int> bear_steps(const state& s) {
  std::vector<int> out;
  for (int f : neighbours(s, s.bear))
    if (f != s.tree && f != s.santa) out.push_back(f);
  std::sort(out.begin(), out.end());
  return out;
}

// A34: flight from the bear's floe; adjacent REFUGE floes, else the nearest by connected distance,
// else by hex distance. fleeRange=anyRefuge: every REFUGE floe.
std::vector<int> flee_targets(const state& s, int victim) {
  const int n = static_cast<int>(s.floes.size());
  std::vector<int> out;
  if (s.cfg->flee_any) {
    for (int f = 0; f < n; ++f)
      if (is_refuge(s, f, victim)) out.push_back(f);
    return out;
  }
  std::vector<int> dist(static_cast<std::size_t>(n), -1);
  std::vector<int> frontier = {s.bear};
  dist[static_cast<std::size_t>(s.bear)] = 0;
  for (int d = 1; !frontier.empty() && out.empty(); ++d) {
    std::vector<int> next;
    for (int f : frontier)
      for (int m : neighbours(s, f))
        if (dist[static_cast<std::size_t>(m)] < 0) {
          dist[static_cast<std::size_t>(m)] = d;
          next.push_back(m);
          if (is_refuge(s, m, victim)) out.push_back(m);
        }
    frontier = std::move(next);
  }
  if (out.empty()) {
    int best = 1 << 20;
    for (int f = 0; f < n; ++f) {
      if (!is_refuge(s, f, victim)) continue;
      const int d = hex_dist(s, f, s.bear);
      if (d < best) out.clear(), best = d;
      if (d == best) out.push_back(f);
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

// A24: where Santa may re-place a handed-in stone.
std::vector<int> stone_floes(const state& s) {
  std::vector<int> out;
  for (int f = 0; f < static_cast<int>(s.floes.size()); ++f)
    if (is_refuge(s, f) && f != s.hut && s.floes[static_cast<std::size_t>(f)].stone == no_stone)
      out.push_back(f);
  return out;
}

}  // namespace tinsel::engine::christmas_penguins::detail
