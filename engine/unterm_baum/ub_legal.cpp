// Unterm Baum: what a seat may do now (legal) and the commands the bots pick from (commands).
//
// On the wire, long lists are an example and an exact domain (docs/protocol.md, Unterm Baum,
// "Legal entries"): a reveal domain, a move domain over location sets, a rearrange domain; for the
// engine's bots, the bench and the tests, commands() writes them out. Secrecy: a legal list never
// names a motif, except a seat's own cards in its ASSIGN entries.
#include <algorithm>

#include "tinsel/json_text/sinks.hpp"
#include "unterm_baum/ub_game.hpp"

namespace tinsel::engine::unterm_baum::detail {

// ---- legal --------------------------------------------------------------------------------

json ub_game::legal(int seat) const {
  return json_text::as_json([&](auto& sink) { emit_legal(sink, seat); });
}

json ub_game::commands(int seat) const {
  json out = json::array();
  for (auto& e : json_text::as_json([&](auto& sink) { emit_legal(sink, seat, true); }))
    if (!e.contains("domain")) out.push_back(std::move(e));
  return out;
}

bool ub_game::write_legal(int seat, std::string& out) const {
  json_text::as_text(out, [&](auto& sink) { emit_legal(sink, seat); });
  return true;
}

template <class Sink>
void ub_game::emit_legal(Sink& s, int seat, bool expand) const {
  if (seat >= 0 && seat < s_.cfg.players) {
    if (s_.ph == phase::assign && !s_.assigned[static_cast<std::size_t>(seat)]) return emit_legal_assign(s, seat);
    if (s_.ph == phase::play && seat == s_.active) return emit_legal_turn(s, expand);
  }
  s.begin_array();
  s.end_array();
}

template <class Sink>
void ub_game::emit_legal_assign(Sink& s, int seat) const {
  const auto& cfg = s_.cfg;
  s.begin_array(2);
  s.begin_object();
  s.member("family", family(first_free_family()).id);
  s.member("kind", "assign");
  s.key("wishes");
  emit_wish_grid(s, default_wishes(seat), cfg);
  s.end_object();
  s.begin_object();
  s.key("domain");
  s.begin_object();
  s.key("families");
  emit_free_families(s);
  s.key("motifs");
  const auto& hand = s_.hands[static_cast<std::size_t>(seat)];
  s.begin_array(hand.size());
  for (int m : hand) s.value(motif_name(m));
  s.end_array();
  s.member("rows", cfg.m);
  s.member("slots", cfg.c);
  s.end_object();
  s.member("kind", "assign");
  s.end_object();
  s.end_array();
}

ub_game::turn_list ub_game::turn_entries() const {
  const auto& cfg = s_.cfg;
  const int me = s_.active;
  const int n = cfg.players;
  const int grid = cfg.grid();
  turn_list t;
  t.reveal = reveal_allowed();
  const bool moves = move_allowed();

  // Areas: -1 the tree, then every seat's field, at index area + 1. Everything below depends on
  // occupancy only. Every card lies somewhere, so there are D cards and P·grid holes.
  struct area_facts {
    std::optional<location> first_card, first_hole;
    bool open = true;  // A17: the tree always; a field unless it is another player's and would get its last card
  };
  std::array<area_facts, max_players + 1> areas{};
  t.cards.reserve(static_cast<std::size_t>(cfg.motifs));
  if (moves) t.open_holes.reserve(static_cast<std::size_t>(n * grid));
  for (int a = -1; a < n; ++a) {
    auto& facts = areas[static_cast<std::size_t>(a + 1)];
    if (a >= 0) facts.open = field_open_to(a, me);
    const auto& area = a < 0 ? s_.tree : s_.fields[static_cast<std::size_t>(a)];
    for (int i = 0; i < static_cast<int>(area.size()); ++i) {
      const location l{a, i};
      if (area[static_cast<std::size_t>(i)] != empty) {
        if (!facts.first_card) facts.first_card = l;
        t.cards.push_back(l);
      } else {
        if (!facts.first_hole) facts.first_hole = l;
        if (moves && facts.open) t.open_holes.push_back(l);
      }
    }
  }

  if (moves) {
    // One concrete move per (source area, destination area): the first card of the source to the
    // first hole of the destination.
    t.moves.reserve(static_cast<std::size_t>((n + 1) * n));
    for (const auto& from : areas) {
      if (!from.first_card) continue;
      for (const auto& to : areas) {
        // A13: tree → tree and field → same field are not moves.
        if (&to == &from || !to.open || !to.first_hole) continue;
        t.moves.emplace_back(*from.first_card, *to.first_hole);
      }
    }
    if (t.moves.empty()) t.open_holes.clear();  // no move domain without a move
  }

  // A14: rearranging is free and repeatable, up to the turn's limit (the entries: see legal_turn).
  if (!rearrange_allowed()) return t;
  const auto& field = s_.fields[static_cast<std::size_t>(me)];
  t.mine.reserve(static_cast<std::size_t>(grid));
  for (int i = 0; i < grid; ++i) {
    if (field[static_cast<std::size_t>(i)] != empty) t.mine.push_back(i);
    else if (t.first_free < 0) t.first_free = i;
  }
  return t;
}

namespace {

// {"row":r,"slot":s}: a slot of the mover's own field (rearrange).
template <class Sink>
void emit_cell(Sink& s, int grid_slot, const config& cfg) {
  s.begin_object();
  s.member("row", grid_slot / cfg.c);
  s.member("slot", grid_slot % cfg.c);
  s.end_object();
}

template <class Sink>
void emit_cell_move(Sink& s, int from, int to, const config& cfg) {
  s.begin_object();
  s.key("from");
  emit_cell(s, from, cfg);
  s.key("to");
  emit_cell(s, to, cfg);
  s.end_object();
}

template <class Sink, class Each>
void emit_list(Sink& s, std::size_t n, Each&& each) {
  s.begin_array(n);
  for (std::size_t i = 0; i < n; ++i) each(i);
  s.end_array();
}

}  // namespace

template <class Sink>
void ub_game::emit_location(Sink& s, const location& l) const {
  s.begin_object();
  if (l.on_tree()) {
    s.member("tree", l.index);
  } else {
    s.member("row", l.index / s_.cfg.c);
    s.member("seat", l.seat);
    s.member("slot", l.index % s_.cfg.c);
  }
  s.end_object();
}

json ub_game::location_json(const location& l) const {
  return json_text::as_json([&](auto& sink) { emit_location(sink, l); });
}

// A set of locations, compactly (docs/protocol.md, Unterm Baum, "Location sets"):
// {"fields":[[seat,SLOTS]...],"slots":C,"tree":SLOTS}. SLOTS lists slot indices in ascending order,
// a run of three or more as [first,last]; a field slot's index is row * C + slot. Seats without a
// location are left out of "fields". `ls` is in board order (the tree, then field by field).
template <class Sink>
void ub_game::emit_location_set(Sink& s, const std::vector<location>& ls) const {
  // Writes the indices of ls[b, e) (one area, ascending) as numbers and runs.
  const auto indices = [&](std::size_t b, std::size_t e) {
    s.begin_array();
    for (std::size_t i = b; i < e;) {
      std::size_t j = i;
      while (j + 1 < e && ls[j + 1].index == ls[j].index + 1) ++j;
      if (j - i >= 2) {
        s.begin_array(2);
        s.value(ls[i].index);
        s.value(ls[j].index);
        s.end_array();
      } else {
        for (std::size_t k = i; k <= j; ++k) s.value(ls[k].index);
      }
      i = j + 1;
    }
    s.end_array();
  };
  std::size_t tree_end = 0;
  while (tree_end < ls.size() && ls[tree_end].on_tree()) ++tree_end;
  s.begin_object();
  s.key("fields");
  s.begin_array();
  for (std::size_t i = tree_end; i < ls.size();) {
    std::size_t j = i;
    while (j < ls.size() && ls[j].seat == ls[i].seat) ++j;
    s.begin_array(2);
    s.value(ls[i].seat);
    indices(i, j);
    s.end_array();
    i = j;
  }
  s.end_array();
  s.member("slots", s_.cfg.c);
  s.key("tree");
  indices(0, tree_end);
  s.end_object();
}

// On the wire (expand false): end_turn; a reveal example and the reveal domain; a move example and
// the move domain; a rearrange example and its domain. For the bots (expand true): end_turn, every
// reveal, one example move per pair of areas, the rearrange example.
template <class Sink>
void ub_game::emit_legal_turn(Sink& s, bool expand) const {
  const auto& cfg = s_.cfg;
  const turn_list t = turn_entries();
  s.begin_array(1 + (t.reveal ? t.cards.size() : 0) + t.moves.size() + 3);
  s.begin_object();
  s.member("kind", "end_turn");
  s.end_object();
  if (t.reveal)
    for (const auto& l : t.cards) {
      s.begin_object();
      s.member("kind", "reveal");
      s.key("location");
      emit_location(s, l);
      s.end_object();
      if (!expand) break;  // the example: the first card
    }
  if (t.reveal && !expand && !t.cards.empty()) {
    s.begin_object();
    s.key("domain");
    s.begin_object();
    s.key("locations");
    emit_location_set(s, t.cards);
    s.end_object();
    s.member("kind", "reveal");
    s.end_object();
  }
  for (const auto& [from, to] : t.moves) {
    s.begin_object();
    s.key("from");
    emit_location(s, from);
    s.member("kind", "move");
    s.key("to");
    emit_location(s, to);
    s.end_object();
    if (!expand) break;  // the example: the first card of the first area to the first hole of the next
  }
  if (!t.moves.empty()) {
    s.begin_object();
    s.key("domain");
    s.begin_object();
    s.key("from");
    emit_location_set(s, t.cards);
    s.member("rule", "different_areas");
    s.key("to");
    emit_location_set(s, t.open_holes);
    s.end_object();
    s.member("kind", "move");
    s.end_object();
  }
  // The rearrange example swaps the first two cards, or moves a single card to the first free slot.
  if (!t.mine.empty()) {
    const int a = t.mine[0];
    const int b = t.mine.size() > 1 ? t.mine[1] : t.first_free;
    s.begin_object();
    s.member("kind", "rearrange");
    s.key("moves");
    s.begin_array(2);
    emit_cell_move(s, a, b, cfg);
    if (t.mine.size() > 1) emit_cell_move(s, b, a, cfg);
    s.end_array();
    s.end_object();
    s.begin_object();
    s.key("domain");
    s.begin_object();
    s.key("occupied");  // [[row,slot]...]
    emit_list(s, t.mine.size(), [&](std::size_t i) {
      s.begin_array(2);
      s.value(t.mine[i] / cfg.c);
      s.value(t.mine[i] % cfg.c);
      s.end_array();
    });
    s.member("rows", cfg.m);
    s.member("slots", cfg.c);
    s.end_object();
    s.member("kind", "rearrange");
    s.end_object();
  }
  s.end_array();
}

}  // namespace tinsel::engine::unterm_baum::detail
