// Unterm Baum: the computer player of the play phase, a memory player like a person at the table.
//
// What it knows: its own wish list (it memorised it like everyone), the occupancy of the tree and of
// every field, and the faces revealed to everyone, followed through the public moves (the state
// keeps, per motif, the turn it was last shown: revealed_turn). An older reveal is forgotten with a
// human chance that grows with the rounds gone by, rolled from the seed. It never reads a face
// nobody was shown, nor another seat's wish list (tests/engine/bot_levels_test.cpp shuffles both).
//
// fair: keeps its table for its own wishes. It moves a remembered wish of its own to its place (from
//   the tree, or from another table where someone put it), puts its wishes into their slots by
//   rearranging, looks at a card it does not know yet (the tree first), sends a remembered card it
//   does not want back to the tree, and only late in the game fills its table to end it. It never
//   takes an unknown card from another table, so what a person puts down stays there.
// gentle: forgets much more, looks at any card, collects its wishes slowly and carelessly, never
//   touches another table, and does not end the game before its last rounds: the family wins.
#include <cmath>

#include "unterm_baum/ub_game.hpp"

namespace tinsel::engine::unterm_baum {

namespace {

using namespace detail;

std::uint64_t mix(std::uint64_t x) {  // splitmix64's finaliser
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

// A uniform number in [0, 1) from the seed and two keys.
double unit(std::uint64_t seed, std::uint64_t a, std::uint64_t b) {
  return static_cast<double>(mix(mix(seed ^ mix(a)) ^ mix(b + 0x51ed27ULL)) >> 11) * 0x1.0p-53;
}

class player {
 public:
  player(const state& s, int seat, std::uint64_t seed, std::uint64_t memory_seed, bool gentle)
      : s_(s), cfg_(s.cfg), seat_(seat), memory_seed_(memory_seed), gentle_(gentle),
        dice_(seed ^ 0x3c6ef372fe94f82bULL) {}

  json choose() {
    if (!gentle_) {
      if (auto r = fix_order(); !r.is_null()) return r;
    }
    if (move_allowed()) {
      if (auto m = wish_move(); !m.is_null()) return m;
    }
    if (reveal_allowed()) {
      if (auto r = look(); !r.is_null()) return r;
    }
    if (move_allowed() && !gentle_) {
      if (auto m = clear_unwanted(); !m.is_null()) return m;
      if (late()) {
        if (auto m = fill(); !m.is_null()) return m;
      }
    }
    return {{"kind", "end_turn"}};
  }

 private:
  const std::vector<int>& field() const { return s_.fields[static_cast<std::size_t>(seat_)]; }
  const std::vector<int>& wishes() const { return s_.wishes[static_cast<std::size_t>(seat_)]; }
  int card(const location& l) const {
    return l.on_tree() ? s_.tree[static_cast<std::size_t>(l.index)]
                       : s_.fields[static_cast<std::size_t>(l.seat)][static_cast<std::size_t>(l.index)];
  }
  int count() const { return static_cast<int>(std::count_if(field().begin(), field().end(), [](int m) { return m != empty; })); }
  bool reveal_allowed() const { return cfg_.any_two ? s_.reveals_used + s_.moves_used < 2 : s_.reveals_used == 0; }
  bool move_allowed() const { return cfg_.any_two ? s_.reveals_used + s_.moves_used < 2 : s_.moves_used == 0; }
  int round() const { return (s_.turn - 1) / cfg_.players + 1; }
  // The last rounds, when ending the game is fair (fair) or no longer unkind (gentle).
  bool late() const { return round() > cfg_.max_rounds * (gentle_ ? 8 : 5) / 10; }

  // Whether it still knows the face of `motif` (public: a revealed card, followed through moves).
  bool remembers(int motif, bool in_own_field) const {
    const auto m = static_cast<std::size_t>(motif);
    if (motif < 0 || m >= s_.revealed_turn.size() || s_.revealed_turn[m] < 0) return false;
    const int age = s_.turn - s_.revealed_turn[m];
    if (age == 0) return true;  // shown this very turn
    const double rounds = static_cast<double>(age) / cfg_.players;
    double p = gentle_ ? 0.6 * std::pow(0.8, rounds) : 0.9 * std::pow(0.88, rounds);
    if (in_own_field && !gentle_) p = 0.98;  // what you put on your own table you keep in mind
    // One roll per card and showing, against a chance that only falls with its age: once forgotten,
    // forgotten until it is shown again (with the same memory seed through the game).
    return unit(memory_seed_, m, static_cast<std::uint64_t>(s_.revealed_turn[m])) < p;
  }
  bool known(const location& l) const {
    const int m = card(l);
    return m != empty && remembers(m, !l.on_tree() && l.seat == seat_);
  }
  int wish_slot(int motif) const {
    const auto it = std::find(wishes().begin(), wishes().end(), motif);
    return it == wishes().end() ? -1 : static_cast<int>(it - wishes().begin());
  }

  json where(const location& l) const {
    if (l.on_tree()) return {{"tree", l.index}};
    return {{"row", l.index / cfg_.c}, {"seat", l.seat}, {"slot", l.index % cfg_.c}};
  }
  json cell(int i) const { return {{"row", i / cfg_.c}, {"slot", i % cfg_.c}}; }
  json move(const location& from, const location& to) const {
    return {{"from", where(from)}, {"kind", "move"}, {"to", where(to)}};
  }
  template <class T>
  const T& pick(const std::vector<T>& v) {
    return v[dice_.roll(static_cast<std::uint32_t>(v.size()))];
  }

  // Every occupied location outside its own field: the tree, then the other fields.
  std::vector<location> elsewhere() const {
    std::vector<location> out;
    for (int i = 0; i < cfg_.motifs; ++i)
      if (s_.tree[static_cast<std::size_t>(i)] != empty) out.push_back({-1, i});
    for (int p = 0; p < cfg_.players; ++p)
      if (p != seat_)
        for (int i = 0; i < cfg_.grid(); ++i)
          if (s_.fields[static_cast<std::size_t>(p)][static_cast<std::size_t>(i)] != empty) out.push_back({p, i});
    return out;
  }

  // Where a wished card goes: its own slot if free, else a free slot of its row, else any free slot.
  int target_for(int slot) {
    const auto& f = field();
    if (gentle_ && dice_.roll(2) == 0) slot = -1;  // careless: anywhere
    if (slot >= 0 && f[static_cast<std::size_t>(slot)] == empty) return slot;
    std::vector<int> row, any;
    for (int i = 0; i < cfg_.grid(); ++i)
      if (f[static_cast<std::size_t>(i)] == empty) {
        any.push_back(i);
        if (slot >= 0 && i / cfg_.c == slot / cfg_.c) row.push_back(i);
      }
    if (!row.empty()) return row.front();
    return any.empty() ? -1 : pick(any);
  }

  // Rearranging (free): a remembered wish of its own into its exact slot, unless a right card is there.
  json fix_order() {
    if (cfg_.ordinal || s_.rearranges_used >= cfg_.rearranges_per_turn) return nullptr;
    const auto& f = field();
    for (int i = 0; i < cfg_.grid(); ++i) {
      const int m = f[static_cast<std::size_t>(i)];
      if (m == empty || !known({seat_, i})) continue;
      const int j = wish_slot(m);
      if (j < 0 || j == i) continue;
      const int there = f[static_cast<std::size_t>(j)];
      if (there == empty) return {{"kind", "rearrange"}, {"moves", json::array({{{"from", cell(i)}, {"to", cell(j)}}})}};
      if (known({seat_, j}) && wish_slot(there) == j) continue;
      return {{"kind", "rearrange"},
              {"moves", json::array({{{"from", cell(i)}, {"to", cell(j)}}, {{"from", cell(j)}, {"to", cell(i)}}})}};
    }
    return nullptr;
  }

  // A remembered wish of its own from the tree (or, fair, from another table) to its place.
  json wish_move() {
    if (count() >= cfg_.k) return nullptr;
    if (count() == cfg_.k - 1 && gentle_ && !late()) return nullptr;  // leaves the end to the family
    if (gentle_ && dice_.roll(10) < 4) return nullptr;                  // not this time
    std::vector<location> from_tree, from_others;
    for (const auto& l : elsewhere())
      if (known(l) && wish_slot(card(l)) >= 0) (l.on_tree() ? from_tree : from_others).push_back(l);
    if (gentle_) from_others.clear();
    const auto& from = !from_tree.empty() ? from_tree : from_others;
    if (from.empty()) return nullptr;
    // The one that lands in its exact slot first.
    location best = from.front();
    for (const auto& l : from)
      if (field()[static_cast<std::size_t>(wish_slot(card(l)))] == empty) {
        best = l;
        break;
      }
    const int to = target_for(wish_slot(card(best)));
    if (to < 0) return nullptr;
    return move(best, {seat_, to});
  }

  // Reveal: fair looks at a card it does not know, on the tree first; gentle at any card.
  json look() {
    std::vector<location> tree, mine, others, all;
    for (const auto& l : elsewhere()) {
      all.push_back(l);
      if (!known(l)) (l.on_tree() ? tree : others).push_back(l);
    }
    for (int i = 0; i < cfg_.grid(); ++i)
      if (field()[static_cast<std::size_t>(i)] != empty) {
        all.push_back({seat_, i});
        if (!known({seat_, i})) mine.push_back({seat_, i});
      }
    if (all.empty()) return nullptr;
    const location* at = nullptr;
    if (gentle_ && dice_.roll(2) == 0) at = &pick(all);
    else if (!tree.empty()) at = &pick(tree);
    else if (!mine.empty()) at = &pick(mine);
    else if (!others.empty()) at = &pick(others);
    if (!at) return nullptr;  // it knows every card: nothing to look at
    return {{"kind", "reveal"}, {"location", where(*at)}};
  }

  json free_tree_slot_move(const location& from) {
    for (int i = 0; i < cfg_.motifs; ++i)
      if (s_.tree[static_cast<std::size_t>(i)] == empty) return move(from, {-1, i});
    return nullptr;
  }

  // A remembered card on its own table that it does not wish for goes back to the tree.
  json clear_unwanted() {
    for (int i = 0; i < cfg_.grid(); ++i)
      if (field()[static_cast<std::size_t>(i)] != empty && known({seat_, i}) && wish_slot(field()[static_cast<std::size_t>(i)]) < 0)
        return free_tree_slot_move({seat_, i});
    return nullptr;
  }

  // Late in the game: a card from the tree it does not know to be unwanted, to bring the end nearer.
  json fill() {
    if (count() >= cfg_.k) return nullptr;
    std::vector<location> tree;
    for (int i = 0; i < cfg_.motifs; ++i)
      if (s_.tree[static_cast<std::size_t>(i)] != empty && !known({-1, i})) tree.push_back({-1, i});
    if (tree.empty()) return nullptr;
    const int to = target_for(-1);
    if (to < 0) return nullptr;
    return move(pick(tree), {seat_, to});
  }

  const state& s_;
  const config& cfg_;
  int seat_;
  std::uint64_t memory_seed_;
  bool gentle_;
  seeded_dice dice_;
};

}  // namespace

json bot_command(const game& g, int seat, std::uint64_t seed, std::uint64_t memory_seed, bool gentle) {
  const auto* ub = dynamic_cast<const ub_game*>(&g);
  if (!ub) return nullptr;
  const auto& s = ub->raw();
  if (s.ph != phase::play || s.active != seat) return nullptr;
  return player(s, seat, seed, memory_seed, gentle).choose();
}

}  // namespace tinsel::engine::unterm_baum
