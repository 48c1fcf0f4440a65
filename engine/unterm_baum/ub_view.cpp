// Unterm Baum: what leaves the engine (prompt, views, result) and the scoring behind the result.
//
// The view is the secrecy boundary (rulebook 2.4). Before the end it is built from occupancy,
// counts, families and turn bookkeeping only, plus the viewer's own wish list during ASSIGN and
// MEMORIZE. Card faces and every wish list are added only once the game is over.
#include <algorithm>

#include "common/fast_json.hpp"
#include "common/json_text.hpp"
#include "unterm_baum/ub_game.hpp"

namespace tinsel::engine::unterm_baum::detail {

using namespace std::string_view_literals;  // out += "…"sv: the text writers append many short literals

namespace {

using fast_json::object;

json name_or_null(int motif) { return motif == empty ? json(nullptr) : json(motif_name(motif)); }

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

}  // namespace

json ub_game::location_json(const location& l) const {
  static const fast_json::shape tree{"tree"}, field{"row", "seat", "slot"};
  if (l.on_tree()) return tree(l.index);
  return field(l.index / s_.cfg.c, l.seat, l.index % s_.cfg.c);
}

json ub_game::wishes_json(int seat) const {
  const auto us = static_cast<std::size_t>(seat);
  if (!s_.assigned[us]) return nullptr;
  json wishes = fast_json::array_with_capacity(static_cast<std::size_t>(s_.cfg.k));
  const auto& grid = s_.wishes[us];
  for (int i = 0; i < s_.cfg.grid(); ++i) {
    const int m = grid[static_cast<std::size_t>(i)];
    if (m == empty) continue;
    fast_json::elements(wishes).push_back(object("motif", motif_name(m), "row", i / s_.cfg.c, "slot", i % s_.cfg.c));
  }
  return wishes;
}

json ub_game::wish_list_json(int seat) const {
  const auto& hand = s_.hands[static_cast<std::size_t>(seat)];
  json names = fast_json::array_with_capacity(hand.size());
  for (int m : hand) fast_json::elements(names).emplace_back(motif_name(m));
  return object("hand", std::move(names), "wishes", wishes_json(seat));
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
  if (s_.ph != phase::over) return nullptr;
  const auto& cfg = s_.cfg;
  const int n = cfg.players;
  const auto un = static_cast<std::size_t>(n);
  json scores = fast_json::array_with_capacity(un), players = fast_json::array_with_capacity(un);
  int best = -1, top_scorers = 0;
  for (int p = 0; p < n; ++p) {
    const auto cards = score_cards(p);
    json card_list = fast_json::array_with_capacity(cards.size());
    int total = 0, exact = 0, member = 0, other = 0;
    for (const auto& c : cards) {
      total += c.points;
      (c.points == 4 ? exact : c.points == 3 ? member : other) += 1;
      fast_json::elements(card_list).push_back(object("match", c.match, "motif", motif_name(c.motif), "points",
                                                      c.points, "row", c.slot / cfg.c, "slot", c.slot % cfg.c));
    }
    fast_json::elements(scores).emplace_back(total);
    if (total > best) best = total, top_scorers = 0;
    if (total == best) ++top_scorers;
    const int fam = s_.families[static_cast<std::size_t>(p)];
    fast_json::elements(players).push_back(
        object("cards", std::move(card_list), "exact", exact, "family",
               fam == empty ? json(nullptr) : json(family(fam).id), "member", member, "other", other, "score", total,
               "seat", p, "wishes", wishes_json(p)));
  }
  const auto win = winners();
  const char* decided_by = top_scorers == 1 ? "score" : win.size() == 1 ? "tie_break" : "shared";
  json tree = fast_json::array_with_capacity(s_.tree.size()), undrawn = fast_json::array_with_capacity(s_.bag.size());
  for (int m : s_.tree) fast_json::elements(tree).push_back(name_or_null(m));
  for (int m : s_.bag) fast_json::elements(undrawn).emplace_back(motif_name(m));
  return object("decided_by", decided_by, "ended_by", s_.ended_by < 0 ? json(nullptr) : json(s_.ended_by), "players",
                std::move(players), "reason", s_.end_reason, "scores", std::move(scores), "tie_break",
                cfg.exact_then_row ? "exactThenRow" : "shared", "tree", std::move(tree), "undrawn", std::move(undrawn),
                "winners", fast_json::array_of(win));
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
  return view_cache_.get([this] { return build_view(); });
}

json ub_game::view(viewer v) const {
  json out = view_cache_.value([this] { return build_view(); });
  // A8: the owner's own list during ASSIGN and MEMORIZE only; never to spectators.
  if (!v.is_spectator() && v.seat < s_.cfg.players && (s_.ph == phase::assign || s_.ph == phase::memorize))
    out["wish_list"] = wish_list_json(v.seat);
  return out;
}

json ub_game::build_view() const {
  const auto& cfg = s_.cfg;
  const bool over = s_.ph == phase::over;
  const int n = cfg.players;
  json players = fast_json::array_with_capacity(static_cast<std::size_t>(n));
  for (int p = 0; p < n; ++p) {
    const auto up = static_cast<std::size_t>(p);
    const auto& field = s_.fields[up];
    json rows = fast_json::array_with_capacity(static_cast<std::size_t>(cfg.m));
    json faces = over ? fast_json::array_with_capacity(static_cast<std::size_t>(cfg.m)) : json(nullptr);
    for (int r = 0; r < cfg.m; ++r) {
      json row = fast_json::array_with_capacity(static_cast<std::size_t>(cfg.c));
      json face_row = over ? fast_json::array_with_capacity(static_cast<std::size_t>(cfg.c)) : json(nullptr);
      for (int s = 0; s < cfg.c; ++s) {
        const int m = field[static_cast<std::size_t>(r * cfg.c + s)];
        fast_json::elements(row).emplace_back(m != empty);
        if (over) fast_json::elements(face_row).push_back(name_or_null(m));
      }
      fast_json::elements(rows).push_back(std::move(row));
      if (over) fast_json::elements(faces).push_back(std::move(face_row));
    }
    const int fam = s_.families[up];
    json members = fast_json::array_with_capacity(fam != empty ? static_cast<std::size_t>(cfg.m) : 0);
    if (fam != empty)
      for (int r = 0; r < cfg.m; ++r)
        fast_json::elements(members).emplace_back(family(fam).members[static_cast<std::size_t>(r)]);
    const int count = field_count(p);
    static const fast_json::shape player{"assigned", "card_count", "family", "field", "members", "open_to_others",
                                         "seat"};
    json pj = player(static_cast<bool>(s_.assigned[up]), count, fam == empty ? json(nullptr) : json(family(fam).id),
                     std::move(rows), std::move(members), count < cfg.k - 1, p);
    if (over) {  // once per game: the search for the place of these keys does not matter
      pj["field_faces"] = std::move(faces);
      pj["wishes"] = wishes_json(p);
    }
    fast_json::elements(players).push_back(std::move(pj));
  }
  json tree = fast_json::array_with_capacity(s_.tree.size());
  json tree_faces = over ? fast_json::array_with_capacity(s_.tree.size()) : json(nullptr);
  for (int m : s_.tree) {
    fast_json::elements(tree).emplace_back(m != empty);
    if (over) fast_json::elements(tree_faces).push_back(name_or_null(m));
  }
  json free = fast_json::array_with_capacity(s_.ph == phase::assign ? family_count : 0);
  if (s_.ph == phase::assign)
    for (int f = 0; f < family_count; ++f)
      if (std::find(s_.families.begin(), s_.families.end(), f) == s_.families.end())
        fast_json::elements(free).emplace_back(family(f).id);

  json actions = s_.ph == phase::play ? object("move", move_allowed(), "reveal", reveal_allowed(), "used",
                                               s_.reveals_used + s_.moves_used)
                                      : json(nullptr);
  json active = s_.ph == phase::play || over ? json(s_.active) : json(nullptr);
  // The keys in ascending order (as nlohmann::json keeps them); below, one line of values per line of keys.
  static const fast_json::shape view{"actions",       "actions_mode",  "active",    "cards_to_remember",
                                     "family_size",   "free_families", "game",      "max_rounds",
                                     "motif_count",   "phase",         "players",   "position_mode",
                                     "prompt",        "result",        "reveal_ms", "round",
                                     "slots_per_row", "start_seat",    "tie_break", "tree",
                                     "turn",          "wish_list"};
  json out = view(std::move(actions), cfg.any_two ? "anyTwo" : "oneEach", std::move(active), cfg.k,
                  cfg.m, std::move(free), "unterm_baum", cfg.max_rounds,
                  cfg.motifs, phase_name(s_.ph), std::move(players), cfg.ordinal ? "ordinal" : "slot",
                  over ? json(nullptr) : json(prompt_kind()), result(), cfg.reveal_ms, (s_.turn - 1) / n + 1,
                  cfg.c, s_.start_seat, cfg.exact_then_row ? "exactThenRow" : "shared", std::move(tree),
                  s_.turn, nullptr);
  if (over) out["tree_faces"] = std::move(tree_faces);  // once per game: the search does not matter
  return out;
}

// ---- the view as text (game::write_shared_view) --------------------------------------------
// build_view() and result() member by member, written as protocol::dump writes them: the keys of
// every object in ascending order, as in the json versions above.

namespace {

// A motif's name, or null for an empty slot.
void write_name_or_null(std::string& out, int motif) {
  if (motif == empty) out += "null"sv;
  else json_text::string(out, motif_name(motif));
}

void write_family(std::string& out, int fam) {
  if (fam == empty) out += "null"sv;
  else json_text::string(out, family(fam).id);
}

// Whether each of the n slots from `slots` on holds a card, as an array of booleans: the occupancy
// rows of the fields and the tree.
void write_occupancy(std::string& out, const int* slots, std::size_t n) {
  out += '[';
  for (std::size_t i = 0; i < n; ++i) {
    if (i) out += ',';
    out += slots[i] != empty ? "true"sv : "false"sv;
  }
  out += ']';
}

template <class Each>
void write_array(std::string& out, std::size_t n, Each&& each) {
  out += '[';
  for (std::size_t i = 0; i < n; ++i) {
    if (i) out += ',';
    each(i);
  }
  out += ']';
}

}  // namespace

void ub_game::write_location(std::string& out, const location& l) const {
  if (l.on_tree()) {
    out += "{\"tree\":"sv;
    json_text::integer(out, l.index);
    out += '}';
    return;
  }
  out += "{\"row\":"sv;
  json_text::integer(out, l.index / s_.cfg.c);
  out += ",\"seat\":"sv;
  json_text::integer(out, l.seat);
  out += ",\"slot\":"sv;
  json_text::integer(out, l.index % s_.cfg.c);
  out += '}';
}

void ub_game::write_wishes(std::string& out, int seat) const {
  const auto us = static_cast<std::size_t>(seat);
  if (!s_.assigned[us]) {
    out += "null"sv;
    return;
  }
  write_wish_grid(out, s_.wishes[us], s_.cfg);
}

void ub_game::write_wish_grid(std::string& out, const std::vector<int>& grid, const config& cfg) {
  out += '[';
  bool first = true;
  for (int i = 0; i < cfg.grid(); ++i) {
    const int m = grid[static_cast<std::size_t>(i)];
    if (m == empty) continue;
    out += first ? "{\"motif\":"sv : ",{\"motif\":"sv;
    first = false;
    json_text::string(out, motif_name(m));
    out += ",\"row\":"sv;
    json_text::integer(out, i / cfg.c);
    out += ",\"slot\":"sv;
    json_text::integer(out, i % cfg.c);
    out += '}';
  }
  out += ']';
}

void ub_game::write_result(std::string& out) const {
  const auto& cfg = s_.cfg;
  const int n = cfg.players;
  std::vector<int> scores;
  scores.reserve(static_cast<std::size_t>(n));
  int best = -1, top_scorers = 0;
  // The players are written first, into a buffer of their own: decided_by, which comes before them,
  // needs every score.
  std::string players = "[";
  for (int p = 0; p < n; ++p) {
    const auto cards = score_cards(p);
    int total = 0, exact = 0, member = 0, other = 0;
    if (p) players += ',';
    players += "{\"cards\":["sv;
    for (std::size_t i = 0; i < cards.size(); ++i) {
      const auto& c = cards[i];
      total += c.points;
      (c.points == 4 ? exact : c.points == 3 ? member : other) += 1;
      players += i ? ",{\"match\":\""sv : "{\"match\":\""sv;
      players += c.match;
      players += "\",\"motif\":"sv;
      json_text::string(players, motif_name(c.motif));
      players += ",\"points\":"sv;
      json_text::integer(players, c.points);
      players += ",\"row\":"sv;
      json_text::integer(players, c.slot / cfg.c);
      players += ",\"slot\":"sv;
      json_text::integer(players, c.slot % cfg.c);
      players += '}';
    }
    players += "],\"exact\":"sv;
    json_text::integer(players, exact);
    players += ",\"family\":"sv;
    write_family(players, s_.families[static_cast<std::size_t>(p)]);
    players += ",\"member\":"sv;
    json_text::integer(players, member);
    players += ",\"other\":"sv;
    json_text::integer(players, other);
    players += ",\"score\":"sv;
    json_text::integer(players, total);
    players += ",\"seat\":"sv;
    json_text::integer(players, p);
    players += ",\"wishes\":"sv;
    write_wishes(players, p);
    players += '}';
    scores.push_back(total);
    if (total > best) best = total, top_scorers = 0;
    if (total == best) ++top_scorers;
  }
  players += ']';
  const auto win = winners();
  out += "{\"decided_by\":\""sv;
  out += top_scorers == 1 ? "score"sv : win.size() == 1 ? "tie_break"sv : "shared"sv;
  out += "\",\"ended_by\":"sv;
  if (s_.ended_by < 0) out += "null"sv;
  else json_text::integer(out, s_.ended_by);
  out += ",\"players\":"sv;
  out += players;
  out += ",\"reason\":"sv;
  json_text::string(out, s_.end_reason);
  out += ",\"scores\":"sv;
  write_array(out, scores.size(), [&](std::size_t i) { json_text::integer(out, scores[i]); });
  out += cfg.exact_then_row ? ",\"tie_break\":\"exactThenRow\",\"tree\":"sv : ",\"tie_break\":\"shared\",\"tree\":"sv;
  write_array(out, s_.tree.size(), [&](std::size_t i) { write_name_or_null(out, s_.tree[i]); });
  out += ",\"undrawn\":"sv;
  write_array(out, s_.bag.size(), [&](std::size_t i) { json_text::string(out, motif_name(s_.bag[i])); });
  out += ",\"winners\":"sv;
  write_array(out, win.size(), [&](std::size_t i) { json_text::integer(out, win[i]); });
  out += '}';
}

bool ub_game::write_shared_view(std::string& out) const {
  if (s_.ph == phase::assign || s_.ph == phase::memorize) return false;  // the views differ (A8)
  const auto& cfg = s_.cfg;
  const bool over = s_.ph == phase::over;
  const int n = cfg.players;
  // About six bytes per slot of the tree and the fields, and room for the rest (more at the end).
  out.reserve(out.size() + 6 * (s_.tree.size() + static_cast<std::size_t>(n * cfg.grid())) + (over ? 8192 : 1024));
  out += "{\"actions\":"sv;
  if (s_.ph == phase::play) {
    out += "{\"move\":"sv;
    json_text::boolean(out, move_allowed());
    out += ",\"reveal\":"sv;
    json_text::boolean(out, reveal_allowed());
    out += ",\"used\":"sv;
    json_text::integer(out, s_.reveals_used + s_.moves_used);
    out += '}';
  } else {
    out += "null"sv;
  }
  out += cfg.any_two ? ",\"actions_mode\":\"anyTwo\",\"active\":"sv : ",\"actions_mode\":\"oneEach\",\"active\":"sv;
  json_text::integer(out, s_.active);  // play or over: the other phases returned above
  out += ",\"cards_to_remember\":"sv;
  json_text::integer(out, cfg.k);
  out += ",\"family_size\":"sv;
  json_text::integer(out, cfg.m);
  // The free families are listed during ASSIGN only.
  out += ",\"free_families\":[],\"game\":\"unterm_baum\",\"max_rounds\":"sv;
  json_text::integer(out, cfg.max_rounds);
  out += ",\"motif_count\":"sv;
  json_text::integer(out, cfg.motifs);
  out += ",\"phase\":\""sv;
  out += phase_name(s_.ph);
  out += "\",\"players\":"sv;
  write_array(out, static_cast<std::size_t>(n), [&](std::size_t up) {
    const int p = static_cast<int>(up);
    const auto& field = s_.fields[up];
    const int count = field_count(p);
    out += "{\"assigned\":"sv;
    json_text::boolean(out, s_.assigned[up]);
    out += ",\"card_count\":"sv;
    json_text::integer(out, count);
    out += ",\"family\":"sv;
    const int fam = s_.families[up];
    write_family(out, fam);
    out += ",\"field\":"sv;
    const auto rows = static_cast<std::size_t>(cfg.m), slots = static_cast<std::size_t>(cfg.c);
    write_array(out, rows, [&](std::size_t r) { write_occupancy(out, field.data() + r * slots, slots); });
    if (over) {
      out += ",\"field_faces\":"sv;
      write_array(out, rows, [&](std::size_t r) {
        write_array(out, slots, [&](std::size_t sl) { write_name_or_null(out, field[r * slots + sl]); });
      });
    }
    out += ",\"members\":"sv;
    write_array(out, fam == empty ? 0 : rows,
                [&](std::size_t r) { json_text::string(out, family(fam).members[r]); });
    out += ",\"open_to_others\":"sv;
    json_text::boolean(out, count < cfg.k - 1);
    out += ",\"seat\":"sv;
    json_text::integer(out, p);
    if (over) {
      out += ",\"wishes\":"sv;
      write_wishes(out, p);
    }
    out += '}';
  });
  out += cfg.ordinal ? ",\"position_mode\":\"ordinal\",\"prompt\":"sv : ",\"position_mode\":\"slot\",\"prompt\":"sv;
  if (over) {
    out += "null,\"result\":"sv;
    write_result(out);
  } else {
    out += '"';
    out += prompt_kind();
    out += "\",\"result\":null"sv;
  }
  out += ",\"reveal_ms\":"sv;
  json_text::integer(out, cfg.reveal_ms);
  out += ",\"round\":"sv;
  json_text::integer(out, (s_.turn - 1) / n + 1);
  out += ",\"slots_per_row\":"sv;
  json_text::integer(out, cfg.c);
  out += ",\"start_seat\":"sv;
  json_text::integer(out, s_.start_seat);
  out += cfg.exact_then_row ? ",\"tie_break\":\"exactThenRow\",\"tree\":"sv : ",\"tie_break\":\"shared\",\"tree\":"sv;
  write_occupancy(out, s_.tree.data(), s_.tree.size());
  if (over) {
    out += ",\"tree_faces\":"sv;
    write_array(out, s_.tree.size(), [&](std::size_t i) { write_name_or_null(out, s_.tree[i]); });
  }
  out += ",\"turn\":"sv;
  json_text::integer(out, s_.turn);
  out += ",\"wish_list\":null}"sv;
  return true;
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
