// Unterm Baum: what leaves the engine (prompt, views, result) and the scoring behind the result.
//
// The view is the secrecy boundary (rulebook 2.4). Before the end it is built from occupancy,
// counts, families and turn bookkeeping only, plus the viewer's own wish list during ASSIGN and
// MEMORIZE. Card faces and every wish list leave only in the result, once the game is over (the
// state's `result`: the view does not repeat them, so the last state carries each card once).
#include <algorithm>

#include "tinsel/json_text/sinks.hpp"
#include "unterm_baum/ub_game.hpp"

namespace tinsel::engine::unterm_baum::detail {

namespace {

// The k-th occupied slot of its row, for positionMode=ordinal (A5); -1 for an empty slot.
std::vector<int> ordinals(const std::vector<int>& grid, const config& cfg) {
  std::vector<int> out(grid.size(), -1);
  for (int r = 0; r < cfg.m; ++r) {
    int k = 0;
    for (int s = 0; s < cfg.c; ++s) {
      const auto i = static_cast<std::size_t>(r * cfg.c + s);
      if (grid[i] != empty) out[i] = k++;
    }
  }
  return out;
}

// A motif's name, or null for an empty slot.
template <class Sink>
void emit_name_or_null(Sink& s, int motif) {
  if (motif == empty) s.null();
  else s.value(motif_name(motif));
}

// A family sheet's id, or null for none.
template <class Sink>
void emit_family(Sink& s, int fam) {
  if (fam == empty) s.null();
  else s.value(family(fam).id);
}

// An array of n elements, each written by each(i).
template <class Sink, class Each>
void emit_list(Sink& s, std::size_t n, Each&& each) {
  s.begin_array(n);
  for (std::size_t i = 0; i < n; ++i) each(i);
  s.end_array();
}

// Whether each of the n slots from `slots` on holds a card: the occupancy rows of the fields and
// the tree.
template <class Sink>
void emit_occupancy(Sink& s, const int* slots, std::size_t n) {
  emit_list(s, n, [&](std::size_t i) { s.value(slots[i] != empty); });
}

}  // namespace

template <class Sink>
void ub_game::emit_wishes(Sink& s, int seat) const {
  const auto us = static_cast<std::size_t>(seat);
  if (!s_.assigned[us]) return s.null();
  emit_wish_grid(s, s_.wishes[us], s_.cfg);
}

// ---- scoring (R14, A20, A21) ----------------------------------------------------------------

std::vector<card_score> ub_game::score_cards(int seat) const {
  const auto& cfg = s_.cfg;
  const auto us = static_cast<std::size_t>(seat);
  const auto& field = s_.fields[us];
  const auto& wishes = s_.wishes[us];  // A24: only the owner's list counts
  const auto field_rank = ordinals(field, cfg), wish_rank = ordinals(wishes, cfg);
  std::vector<card_score> out;
  for (int i = 0; i < cfg.grid(); ++i) {
    const int m = field[static_cast<std::size_t>(i)];
    if (m == empty) continue;
    card_score cs{i, m, 1, "not_wished"};
    const auto w = std::find(wishes.begin(), wishes.end(), m);
    if (w != wishes.end()) {
      const int j = static_cast<int>(w - wishes.begin());
      if (j / cfg.c != i / cfg.c) {
        cs.match = "wrong_row";  // A4: row = family member
      } else {
        const bool same =
            cfg.ordinal ? wish_rank[static_cast<std::size_t>(j)] == field_rank[static_cast<std::size_t>(i)]
                        : j == i;
        cs.points = same ? 4 : 3;
        cs.match = same ? "exact" : "member";
      }
    }
    out.push_back(cs);
  }
  return out;
}

std::vector<int> ub_game::winners() const {
  const int n = s_.cfg.players;
  std::vector<int> scores, fours, threes;
  for (int p = 0; p < n; ++p) {
    const auto cards = score_cards(p);
    int total = 0;
    for (const auto& c : cards) total += c.points;
    scores.push_back(total);
    fours.push_back(static_cast<int>(
        std::count_if(cards.begin(), cards.end(), [](const card_score& c) { return c.points == 4; })));
    threes.push_back(static_cast<int>(
        std::count_if(cards.begin(), cards.end(), [](const card_score& c) { return c.points == 3; })));
  }
  const int best = *std::max_element(scores.begin(), scores.end());
  std::vector<int> top;
  for (int p = 0; p < n; ++p)
    if (scores[static_cast<std::size_t>(p)] == best) top.push_back(p);
  if (s_.cfg.exact_then_row)  // A21: more 4-point cards, then more 3-point cards
    for (const auto* key : {&fours, &threes}) {
      int most = -1;
      for (int p : top) most = std::max(most, (*key)[static_cast<std::size_t>(p)]);
      std::erase_if(top, [&](int p) { return (*key)[static_cast<std::size_t>(p)] != most; });
    }
  return top;
}

json ub_game::result() const {
  return json_text::as_json([&](auto& sink) { emit_result(sink); });
}

template <class Sink>
void ub_game::emit_result(Sink& s) const {
  if (s_.ph != phase::over) return s.null();
  const int n = s_.cfg.players;
  // Every score first: decided_by, which comes before the players, needs them all.
  std::vector<std::vector<card_score>> cards;
  std::vector<int> scores;
  for (int p = 0; p < n; ++p) {
    cards.push_back(score_cards(p));
    int total = 0;
    for (const auto& c : cards.back()) total += c.points;
    scores.push_back(total);
  }
  const int best = *std::max_element(scores.begin(), scores.end());
  const auto top_scorers = std::count(scores.begin(), scores.end(), best);
  const auto win = winners();
  s.begin_object();
  s.member("decided_by", top_scorers == 1 ? "score" : win.size() == 1 ? "tie_break" : "shared");
  s.key("ended_by");
  if (s_.ended_by < 0) s.null();
  else s.value(s_.ended_by);
  s.key("players");
  emit_list(s, cards.size(), [&](std::size_t p) { emit_result_player(s, static_cast<int>(p), cards[p]); });
  s.member("reason", s_.end_reason);
  s.key("scores");
  emit_list(s, scores.size(), [&](std::size_t i) { s.value(scores[i]); });
  s.member("tie_break", s_.cfg.exact_then_row ? "exactThenRow" : "shared");
  s.key("tree");
  emit_list(s, s_.tree.size(), [&](std::size_t i) { emit_name_or_null(s, s_.tree[i]); });
  s.key("undrawn");
  emit_list(s, s_.bag.size(), [&](std::size_t i) { s.value(motif_name(s_.bag[i])); });
  s.key("winners");
  emit_list(s, win.size(), [&](std::size_t i) { s.value(win[i]); });
  s.end_object();
}

template <class Sink>
void ub_game::emit_result_player(Sink& s, int seat, const std::vector<card_score>& cards) const {
  const int c = s_.cfg.c;
  int total = 0, exact = 0, member = 0, other = 0;
  s.begin_object();
  s.key("cards");
  s.begin_array(cards.size());
  for (const auto& card : cards) {
    total += card.points;
    (card.points == 4 ? exact : card.points == 3 ? member : other) += 1;
    s.begin_object();
    s.member("match", card.match);
    s.member("motif", motif_name(card.motif));
    s.member("points", card.points);
    s.member("row", card.slot / c);
    s.member("slot", card.slot % c);
    s.end_object();
  }
  s.end_array();
  s.member("exact", exact);
  s.key("family");
  emit_family(s, s_.families[static_cast<std::size_t>(seat)]);
  s.member("member", member);
  s.member("other", other);
  s.member("score", total);
  s.member("seat", seat);
  s.key("wishes");
  emit_wishes(s, seat);
  s.end_object();
}

// ---- prompt and view ------------------------------------------------------------------------

std::string ub_game::prompt_kind() const {
  switch (s_.ph) {
    case phase::assign:
      return "assign";
    case phase::memorize:
      return "memorize";
    case phase::play:
      return "turn";
    case phase::over:
      break;
  }
  return "";
}

std::optional<prompt> ub_game::current_prompt() const {
  switch (s_.ph) {
    case phase::assign: {
      std::vector<int> waiting;
      for (int p = 0; p < s_.cfg.players; ++p)
        if (!s_.assigned[static_cast<std::size_t>(p)]) waiting.push_back(p);
      return prompt{"assign", std::move(waiting), s_.cfg.assign_ms, s_.serial};
    }
    case phase::memorize:
      // A8: a pure timer for everyone; nobody answers it, on_timeout ends it.
      return prompt{"memorize", {}, s_.cfg.memorize_ms, s_.serial};
    case phase::play:
      return prompt{"turn", {s_.active}, s_.cfg.turn_ms, s_.serial};
    case phase::over:
      break;
  }
  return std::nullopt;
}

// Outside ASSIGN and MEMORIZE every viewer sees the same (A8: the wish lists are the only private part
// of a view, and only then).
std::shared_ptr<const json> ub_game::shared_view() const {
  if (s_.ph == phase::assign || s_.ph == phase::memorize) return nullptr;
  return std::make_shared<const json>(view(viewer::spectator()));
}

bool ub_game::write_shared_view(std::string& out) const {
  if (s_.ph == phase::assign || s_.ph == phase::memorize) return false;  // the views differ (A8)
  // About six bytes per slot of the tree and the fields, and room for the rest.
  out.reserve(out.size() + 6 * (s_.tree.size() + static_cast<std::size_t>(s_.cfg.players * s_.cfg.grid())) + 1024);
  json_text::as_text(out, [&](auto& sink) { emit_view(sink, viewer::spectator()); });
  return true;
}

json ub_game::view(viewer v) const {
  return json_text::as_json([&](auto& sink) { emit_view(sink, v); });
}

template <class Sink>
void ub_game::emit_view(Sink& s, viewer v) const {
  const auto& cfg = s_.cfg;
  const bool over = s_.ph == phase::over;
  const int n = cfg.players;
  s.begin_object();
  s.key("actions");
  if (s_.ph == phase::play) {
    s.begin_object();
    s.member("move", move_allowed());
    s.member("reveal", reveal_allowed());
    s.member("used", s_.reveals_used + s_.moves_used);
    s.end_object();
  } else {
    s.null();
  }
  s.member("actions_mode", cfg.any_two ? "anyTwo" : "oneEach");
  s.key("active");
  if (s_.ph == phase::play || over) s.value(s_.active);
  else s.null();
  s.member("cards_to_remember", cfg.k);
  s.member("family_size", cfg.m);
  s.key("free_families");  // listed during ASSIGN only
  if (s_.ph == phase::assign) {
    emit_free_families(s);
  } else {
    s.begin_array();
    s.end_array();
  }
  s.member("game", "unterm_baum");
  s.member("max_rounds", cfg.max_rounds);
  s.member("motif_count", cfg.motifs);
  s.member("phase", phase_name(s_.ph));
  s.key("players");
  emit_list(s, static_cast<std::size_t>(n), [&](std::size_t p) { emit_player(s, static_cast<int>(p)); });
  s.member("position_mode", cfg.ordinal ? "ordinal" : "slot");
  s.key("prompt");
  if (over) s.null();
  else s.value(prompt_kind());
  s.member("reveal_ms", cfg.reveal_ms);
  s.member("round", (s_.turn - 1) / n + 1);
  s.member("slots_per_row", cfg.c);
  s.member("start_seat", s_.start_seat);
  s.member("tie_break", cfg.exact_then_row ? "exactThenRow" : "shared");
  s.key("tree");
  emit_occupancy(s, s_.tree.data(), s_.tree.size());
  s.member("turn", s_.turn);
  s.key("wish_list");
  // A8: the owner's own list during ASSIGN and MEMORIZE only; never to spectators.
  if (!v.is_spectator() && v.seat < n && (s_.ph == phase::assign || s_.ph == phase::memorize)) {
    const auto& hand = s_.hands[static_cast<std::size_t>(v.seat)];
    s.begin_object();
    s.key("hand");
    emit_list(s, hand.size(), [&](std::size_t i) { s.value(motif_name(hand[i])); });
    s.key("wishes");
    emit_wishes(s, v.seat);
    s.end_object();
  } else {
    s.null();
  }
  s.end_object();
}

// From occupancy, counts and the family only, also after the end (the faces are in the result).
template <class Sink>
void ub_game::emit_player(Sink& s, int seat) const {
  const auto& cfg = s_.cfg;
  const auto up = static_cast<std::size_t>(seat);
  const auto& field = s_.fields[up];
  const int count = field_count(seat);
  const int fam = s_.families[up];
  const auto rows = static_cast<std::size_t>(cfg.m), slots = static_cast<std::size_t>(cfg.c);
  s.begin_object();
  s.member("assigned", static_cast<bool>(s_.assigned[up]));
  s.member("card_count", count);
  s.key("family");
  emit_family(s, fam);
  s.key("field");
  emit_list(s, rows, [&](std::size_t r) { emit_occupancy(s, field.data() + r * slots, slots); });
  s.key("members");
  emit_list(s, fam == empty ? 0 : rows, [&](std::size_t r) { s.value(family(fam).members[r]); });
  s.member("open_to_others", count < cfg.k - 1);
  s.member("seat", seat);
  s.end_object();
}

// The bot's view: cards in its own field score at least a point each, so more is better. Only card
// counts, which everyone sees, are used: the bot knows nothing about the motifs, like a player who
// has forgotten everything. It is a family's computer player: it takes its presents from the tree,
// not from the people at the table (a newcomer trial found a bot that took every present a person
// put down unkind and baffling). A card that leaves the tree is worth a hair more than one taken
// from a table; a move that only touches other tables is never worth more than the move to its own
// table that is always open to it (the tree is never empty while the game runs: D >= P·K).
double ub_game::heuristic(int seat) const {
  const auto on_tree = std::count_if(s_.tree.begin(), s_.tree.end(), [](int m) { return m != empty; });
  return 2.0 * field_count(seat) - 0.01 * static_cast<double>(on_tree);
}

}  // namespace tinsel::engine::unterm_baum::detail
