// Unterm Baum: the phase machine (commands, apply, timeout defaults; legal is in ub_legal.cpp).
//
// apply parses and validates the whole command before touching anything, so a rejection never
// changes the state or draws from the dice (this game draws only at create). Every state change goes
// through the transitions at the bottom, which the timeout defaults (D2, D3, D8) reuse, so a default
// is exactly a command a player could have sent.
//
// Secrecy rules for this file: error messages, legal lists and events never name a motif, except a
// seat's own cards in its ASSIGN legal entries and assign errors, and the `revealed` event.
#include <algorithm>
#include <climits>

#include "common/fast_json.hpp"
#include "unterm_baum/ub_game.hpp"

namespace tinsel::engine::unterm_baum::detail {

namespace {

using fast_json::object;

rule_error invalid_command(const std::string& message) { return make_error("invalid_command", message); }

// An integer field, or nullopt if absent or not an integer. Values beyond int are clamped so that
// the range checks that follow reject them.
std::optional<long long> int_field(const json& o, const char* key) {
  const auto it = o.find(key);
  if (it == o.end() || !it->is_number_integer()) return std::nullopt;
  if (it->is_number_unsigned() && it->get<unsigned long long>() > LLONG_MAX) return LLONG_MAX;
  return it->get<long long>();
}

// The object's member `key`, or null when it has none (a reference: no copy of the member).
const json& member_or_null(const json& o, std::string_view key) {
  static const json null;
  const json* m = fast_json::member(o, key);
  return m ? *m : null;
}

bool has_only(const json& o, std::initializer_list<const char*> keys) {
  // Not a structured binding: clang 14 cannot capture one in a lambda (C++20 allows it, P1091).
  for (const auto& item : o.items()) {
    const std::string& key = item.key();
    if (std::none_of(keys.begin(), keys.end(), [&](const char* k) { return key == k; })) return false;
  }
  return true;
}

// The "row" and "slot" of an object already known to have no other fields than these and `also`.
outcome<int> parse_row_slot(const json& j, const config& cfg, const std::string& what) {
  const auto row = int_field(j, "row"), slot = int_field(j, "slot");
  if (!row || !slot) return invalid_command(what + " needs integer 'row' and 'slot'");
  if (*row < 0 || *row >= cfg.m || *slot < 0 || *slot >= cfg.c)
    return make_error("invalid_location", what + ": row must be 0.." + std::to_string(cfg.m - 1) +
                                              " and slot 0.." + std::to_string(cfg.c - 1));
  return static_cast<int>(*row * cfg.c + *slot);
}

// {"row": r, "slot": s} inside a field of M rows and C slots; returns the grid slot.
outcome<int> parse_cell(const json& j, const config& cfg, const std::string& what) {
  if (!j.is_object() || !has_only(j, {"row", "slot"}))
    return invalid_command(what + " must be {\"row\": r, \"slot\": s}");
  return parse_row_slot(j, cfg, what);
}

// {"tree": i} or {"seat": p, "row": r, "slot": s}.
outcome<location> parse_location(const json& j, const config& cfg, const std::string& what) {
  if (!j.is_object()) return invalid_command(what + " must be a location object");
  if (j.contains("tree")) {
    if (!has_only(j, {"tree"})) return invalid_command(what + ": a tree location has only 'tree'");
    const auto i = int_field(j, "tree");
    if (!i) return invalid_command(what + ": 'tree' must be an integer");
    if (*i < 0 || *i >= cfg.motifs)
      return make_error("invalid_location", what + ": tree slots are 0.." + std::to_string(cfg.motifs - 1));
    return location{-1, static_cast<int>(*i)};
  }
  if (!has_only(j, {"seat", "row", "slot"}) || !j.contains("seat"))
    return invalid_command(what + " must be {\"tree\": i} or {\"seat\": p, \"row\": r, \"slot\": s}");
  const auto seat = int_field(j, "seat");
  if (!seat) return invalid_command(what + ": 'seat' must be an integer");
  if (*seat < 0 || *seat >= cfg.players) return make_error("invalid_location", what + ": no such seat");
  // Only "seat", "row" and "slot" are there (checked above): the cell is the rest.
  auto c = parse_row_slot(j, cfg, what);
  if (!c) return c.error();
  return location{static_cast<int>(*seat), c.value()};
}

enum class kind { assign, reveal, move, rearrange, end_turn };

struct command {
  kind k = kind::end_turn;
  std::string_view name;  // the command's own "kind"
};

// The kind and the allowed top-level fields; the fields themselves are parsed per kind.
outcome<command> parse_kind(const json& c) {
  if (!c.is_object()) return invalid_command("a command is a JSON object with a \"kind\"");
  const auto k = c.find("kind");
  if (k == c.end() || !k->is_string()) return invalid_command("a command needs a string \"kind\"");
  const std::string& name = k->get_ref<const std::string&>();
  struct spec {
    const char* name;
    kind k;
    std::initializer_list<const char*> fields;
  };
  static const std::array<spec, 5> specs = {{
      {"assign", kind::assign, {"kind", "wishes", "family"}},
      {"reveal", kind::reveal, {"kind", "location"}},
      {"move", kind::move, {"kind", "from", "to"}},
      {"rearrange", kind::rearrange, {"kind", "moves"}},
      {"end_turn", kind::end_turn, {"kind"}},
  }};
  for (const auto& s : specs) {
    if (name != s.name) continue;
    for (const auto& item : c.items()) {  // no structured binding: see has_only
      const std::string& key = item.key();
      if (std::none_of(s.fields.begin(), s.fields.end(), [&](const char* f) { return key == f; }))
        return invalid_command(name + " has no field '" + key + "'");
    }
    return command{s.k, name};
  }
  return invalid_command("unknown command kind '" + name + "'");
}

}  // namespace

// ---- derived facts ------------------------------------------------------------------------

int& ub_game::card_at(const location& l) {
  auto& area = l.on_tree() ? s_.tree : s_.fields[static_cast<std::size_t>(l.seat)];
  return area[static_cast<std::size_t>(l.index)];
}

int ub_game::card_at(const location& l) const {
  const auto& area = l.on_tree() ? s_.tree : s_.fields[static_cast<std::size_t>(l.seat)];
  return area[static_cast<std::size_t>(l.index)];
}

int ub_game::field_count(int seat) const {
  const auto& f = s_.fields[static_cast<std::size_t>(seat)];
  return static_cast<int>(std::count_if(f.begin(), f.end(), [](int m) { return m != empty; }));
}

bool ub_game::reveal_allowed() const {  // A10
  return s_.cfg.any_two ? s_.reveals_used + s_.moves_used < 2 : s_.reveals_used == 0;
}

bool ub_game::move_allowed() const {
  return s_.cfg.any_two ? s_.reveals_used + s_.moves_used < 2 : s_.moves_used == 0;
}

bool ub_game::field_open_to(int owner, int mover) const {
  // A17: never give anyone his K-th card; the owner himself may (that ends the game, A16).
  return owner == mover || field_count(owner) < s_.cfg.k - 1;
}

int ub_game::first_free_family() const {  // D2: catalogue order
  for (int f = 0; f < family_count; ++f)
    if (std::find(s_.families.begin(), s_.families.end(), f) == s_.families.end()) return f;
  return empty;  // unreachable: 8 sheets for at most 6 players
}

std::vector<int> ub_game::default_wishes(int seat) const {
  // D3: dealt order, round-robin over rows 0..M−1, each into the lowest free slot of its row.
  const auto& cfg = s_.cfg;
  std::vector<int> grid(static_cast<std::size_t>(cfg.grid()), empty);
  const auto& hand = s_.hands[static_cast<std::size_t>(seat)];
  for (int i = 0; i < cfg.k; ++i)
    grid[static_cast<std::size_t>((i % cfg.m) * cfg.c + i / cfg.m)] = hand[static_cast<std::size_t>(i)];
  return grid;
}

namespace {

// {"row":r,"slot":s}: a slot of the mover's own field (the rearranged event).
json cell_json(int grid_slot, const config& cfg) { return object("row", grid_slot / cfg.c, "slot", grid_slot % cfg.c); }

}  // namespace

// ---- apply --------------------------------------------------------------------------------

outcome<events> ub_game::apply(int seat, const json& command_json, dice&) {
  if (s_.ph == phase::over) return make_error("game_over", "the game is over");
  if (seat < 0 || seat >= s_.cfg.players) return make_error("not_your_turn", "not a seat of this game");
  auto parsed = parse_kind(command_json);
  if (!parsed) return parsed.error();
  const command& cmd = parsed.value();
  const json& c = command_json;
  const phase needs = cmd.k == kind::assign ? phase::assign : phase::play;
  if (s_.ph != needs) {
    const char* now = s_.ph == phase::assign     ? "the wish lists are being written"
                      : s_.ph == phase::memorize ? "everybody is memorising the wish lists"
                                                 : "the game is being played";
    return make_error("wrong_phase", std::string(cmd.name) + " is not possible now: " + now);
  }
  events out;
  out.reserve(4);
  if (cmd.k != kind::assign && seat != s_.active)
    return make_error("not_your_turn", "it is seat " + std::to_string(s_.active) + "'s turn");
  std::optional<rule_error> refused;
  switch (cmd.k) {
    case kind::assign: refused = apply_assign(seat, c, out); break;
    case kind::reveal: refused = apply_reveal(c, out); break;
    case kind::move: refused = apply_move(seat, c, out); break;
    case kind::rearrange: refused = apply_rearrange(seat, c, out); break;
    case kind::end_turn: end_turn(false, out); break;
  }
  if (refused) return *refused;
  return out;
}

rule_error ub_game::action_used(const char* used_code) const {
  return s_.cfg.any_two ? make_error("no_actions_left", "you have used both actions of this turn")
                        : make_error(used_code, "you have already used this action in this turn");
}

std::optional<rule_error> ub_game::apply_assign(int seat, const json& c, events& out) {
  if (s_.assigned[static_cast<std::size_t>(seat)]) return make_error("already_assigned", "your wish list is already submitted");
  int fam = first_free_family();
  if (c.contains("family")) {
    if (!c["family"].is_string()) return invalid_command("'family' must be a family sheet id");
    const auto f = family_from_id(c["family"].get<std::string>());
    if (!f) return make_error("unknown_family", "no family sheet '" + c["family"].get<std::string>() + "'");
    if (std::find(s_.families.begin(), s_.families.end(), *f) != s_.families.end())
      return make_error("family_taken", "that family sheet is already taken");
    fam = *f;
  }
  auto grid = check_wishes(seat, member_or_null(c, "wishes"));
  if (!grid) return grid.error();
  assign(seat, fam, std::move(grid.value()), false, out);
  return std::nullopt;
}

std::optional<rule_error> ub_game::apply_reveal(const json& c, events& out) {
  const json* where = fast_json::member(c, "location");
  if (!where) return invalid_command("reveal needs 'location'");
  auto at = parse_location(*where, s_.cfg, "location");
  if (!at) return at.error();
  if (!reveal_allowed()) return action_used("reveal_already_used");
  if (card_at(at.value()) == empty) return make_error("location_empty", "there is no card at that location");
  reveal(at.value(), out);
  return std::nullopt;
}

std::optional<rule_error> ub_game::apply_move(int seat, const json& c, events& out) {
  const json *from_json = fast_json::member(c, "from"), *to_json = fast_json::member(c, "to");
  if (!from_json || !to_json) return invalid_command("move needs 'from' and 'to'");
  auto from = parse_location(*from_json, s_.cfg, "from");
  if (!from) return from.error();
  auto to = parse_location(*to_json, s_.cfg, "to");
  if (!to) return to.error();
  if (!move_allowed()) return action_used("move_already_used");
  const location f = from.value(), t = to.value();
  if (card_at(f) == empty) return make_error("location_empty", "there is no card at 'from'");
  if (card_at(t) != empty) return make_error("location_occupied", "'to' already holds a card");
  if (f.on_tree() && t.on_tree()) return make_error("move_within_tree", "a move cannot go from tree to tree");
  if (f.seat == t.seat) return make_error("move_within_field", "moving inside one field is rearranging, not a move");
  if (!t.on_tree() && !field_open_to(t.seat, seat))
    return make_error("last_card_prohibited", "you may not place another player's last card");
  move(f, t, out);
  return std::nullopt;
}

std::optional<rule_error> ub_game::apply_rearrange(int seat, const json& c, events& out) {
  auto mapping = check_mapping(seat, member_or_null(c, "moves"));
  if (!mapping) return mapping.error();
  const auto& pairs = mapping.value();
  if (std::all_of(pairs.begin(), pairs.end(), [](const auto& p) { return p.first == p.second; }))
    return make_error("rearrange_changes_nothing", "every card would stay where it is");
  if (!rearrange_allowed()) {
    const int n = s_.cfg.rearranges_per_turn;
    return make_error("no_rearranges_left", "you have used this turn's " +
                                                (n == 1 ? std::string("rearrangement") : std::to_string(n) + " rearrangements") +
                                                " (rearrangesPerTurn)");
  }
  rearrange(pairs, out);
  return std::nullopt;
}

// ---- validation of the compound parameters ----------------------------------------------------

// A7/R7: exactly the seat's K motifs, each once, on distinct cells, every row used. Returns the wish
// grid. Messages may name motifs: they go to this seat only, and only repeat what it sent.
outcome<std::vector<int>> ub_game::check_wishes(int seat, const json& wishes) const {
  const auto& cfg = s_.cfg;
  if (!wishes.is_array())
    return invalid_command("assign needs 'wishes': [{\"motif\", \"row\", \"slot\"}, ...]");
  const auto bad = [](const std::string& m) { return make_error("invalid_assignment", m); };
  std::vector<int> grid(static_cast<std::size_t>(cfg.grid()), empty);
  const auto& hand = s_.hands[static_cast<std::size_t>(seat)];
  for (const auto& w : wishes) {
    if (!w.is_object() || !has_only(w, {"motif", "row", "slot"}) || !w.contains("motif") ||
        !w["motif"].is_string())
      return invalid_command("each wish is {\"motif\": name, \"row\": r, \"slot\": s}");
    json cell = w;
    cell.erase("motif");
    auto at = parse_cell(cell, cfg, "wish");
    if (!at) return at.error().code == "invalid_command" ? at.error() : bad(at.error().message);
    const auto name = w["motif"].get<std::string>();
    const auto it = std::find_if(hand.begin(), hand.end(), [&](int m) { return motif_name(m) == name; });
    if (it == hand.end()) return bad("'" + name + "' is not one of your wish cards");
    if (std::find(grid.begin(), grid.end(), *it) != grid.end()) return bad("'" + name + "' is placed twice");
    auto& slot = grid[static_cast<std::size_t>(at.value())];
    if (slot != empty) return bad("two wishes in one slot");
    slot = *it;
  }
  if (wishes.size() != static_cast<std::size_t>(cfg.k))
    return bad("place exactly " + std::to_string(cfg.k) + " wish cards");
  for (int r = 0; r < cfg.m; ++r) {
    const auto row = grid.begin() + r * cfg.c;
    if (std::all_of(row, row + cfg.c, [](int m) { return m == empty; }))
      return bad("every family member (row) needs at least one wish; row " + std::to_string(r) + " has none");
  }
  return grid;
}

// A14: a mapping of the seat's own cards onto cells of its field, applied all at once (so swaps and
// cycles are one command). Returns (from, to) grid-slot pairs.
outcome<std::vector<std::pair<int, int>>> ub_game::check_mapping(int seat, const json& moves) const {
  const auto& cfg = s_.cfg;
  if (!moves.is_array() || moves.empty()) return invalid_command("rearrange needs a non-empty 'moves' array");
  const auto& field = s_.fields[static_cast<std::size_t>(seat)];
  std::vector<std::pair<int, int>> mapping;
  for (const auto& mv : moves) {
    if (!mv.is_object() || !has_only(mv, {"from", "to"}) || !mv.contains("from") || !mv.contains("to"))
      return invalid_command("each rearrange move is {\"from\": {row, slot}, \"to\": {row, slot}}");
    auto f = parse_cell(mv["from"], cfg, "from");
    if (!f) return f.error();
    auto t = parse_cell(mv["to"], cfg, "to");
    if (!t) return t.error();
    mapping.emplace_back(f.value(), t.value());
  }
  std::vector<bool> moved(field.size(), false), target(field.size(), false);
  for (const auto& [f, t] : mapping) {
    if (field[static_cast<std::size_t>(f)] == empty)
      return make_error("location_empty", "there is no card in your field at a 'from' slot");
    if (moved[static_cast<std::size_t>(f)] || target[static_cast<std::size_t>(t)])
      return make_error("invalid_mapping", "each slot may appear once as 'from' and once as 'to'");
    moved[static_cast<std::size_t>(f)] = target[static_cast<std::size_t>(t)] = true;
  }
  for (const auto& [f, t] : mapping)
    if (field[static_cast<std::size_t>(t)] != empty && !moved[static_cast<std::size_t>(t)])
      return make_error("location_occupied", "a 'to' slot holds a card that does not move");
  return mapping;
}

events ub_game::on_timeout(std::uint64_t serial, dice&) {
  events out;
  if (s_.ph == phase::over || serial != s_.serial) return out;
  switch (s_.ph) {
    case phase::assign:  // D2 + D3 for everyone still writing, in seat order
      for (int p = 0; p < s_.cfg.players; ++p)
        if (!s_.assigned[static_cast<std::size_t>(p)])
          assign(p, first_free_family(), default_wishes(p), true, out);
      break;
    case phase::memorize:  // A8: the memorising time is over
      start_play(out);
      break;
    case phase::play:  // D8: a timed-out turn is a pass
      end_turn(true, out);
      break;
    case phase::over:
      break;
  }
  return out;
}

// ---- transitions --------------------------------------------------------------------------

void ub_game::assign(int seat, int family_index, std::vector<int> wish_grid, bool by_default, events& out) {
  const auto us = static_cast<std::size_t>(seat);
  s_.families[us] = family_index;
  s_.wishes[us] = std::move(wish_grid);
  s_.assigned[us] = true;
  // Public: who is done and with which sheet, never what is on it.
  out.push_back(event::public_event(
      object("by_default", by_default, "family", family(family_index).id, "kind", "assigned", "seat", seat)));
  // The ASSIGN prompt stays the same prompt (same serial and timer) until the last seat is done.
  if (std::all_of(s_.assigned.begin(), s_.assigned.end(), [](bool a) { return a; })) start_memorize(out);
}

void ub_game::start_memorize(events& out) {
  s_.ph = phase::memorize;
  open_prompt();
  out.push_back(event::public_event(object("kind", "memorize_started", "ms", s_.cfg.memorize_ms)));
}

void ub_game::start_play(events& out) {
  s_.ph = phase::play;
  s_.active = s_.start_seat;
  s_.turn = 1;
  s_.reveals_used = s_.moves_used = s_.rearranges_used = 0;
  open_prompt();
  out.push_back(event::public_event(object("kind", "memorize_ended")));
  out.push_back(event::public_event(object("kind", "turn_started", "round", 1, "seat", s_.active, "turn", 1)));
}

void ub_game::reveal(const location& at, events& out) {
  ++s_.reveals_used;
  s_.revealed_turn.resize(static_cast<std::size_t>(s_.cfg.motifs), -1);
  s_.revealed_turn[static_cast<std::size_t>(card_at(at))] = s_.turn;
  // A12: the one place where a face leaves the engine during play, to everyone at once. Told again
  // (a catch-up, the game log) it says only who looked at which place.
  event e = event::public_event(object("display_ms", s_.cfg.reveal_ms, "kind", "revealed", "location",
                                       location_json(at), "motif", motif_name(card_at(at)), "seat", s_.active));
  e.retold = object("kind", "revealed", "location", location_json(at), "seat", s_.active);
  out.push_back(std::move(e));
}

void ub_game::move(const location& from, const location& to, events& out) {
  ++s_.moves_used;
  card_at(to) = card_at(from);
  card_at(from) = empty;
  out.push_back(event::public_event(
      object("from", location_json(from), "kind", "moved", "seat", s_.active, "to", location_json(to))));
  if (to.seat == s_.active && field_count(s_.active) == s_.cfg.k) {  // A16: at once, for everyone
    s_.ended_by = s_.active;
    finish("field_complete", out);
  }
}

void ub_game::rearrange(const std::vector<std::pair<int, int>>& mapping, events& out) {
  ++s_.rearranges_used;
  auto& field = s_.fields[static_cast<std::size_t>(s_.active)];
  std::vector<int> picked;
  for (const auto& [f, t] : mapping) picked.push_back(field[static_cast<std::size_t>(f)]);
  for (const auto& [f, t] : mapping) field[static_cast<std::size_t>(f)] = empty;
  json moves = fast_json::array_with_capacity(mapping.size());
  for (std::size_t i = 0; i < mapping.size(); ++i) {
    field[static_cast<std::size_t>(mapping[i].second)] = picked[i];
    fast_json::elements(moves).push_back(
        object("from", cell_json(mapping[i].first, s_.cfg), "to", cell_json(mapping[i].second, s_.cfg)));
  }
  // R11: in a way the others notice — the whole mapping, never a face.
  out.push_back(event::public_event(object("kind", "rearranged", "moves", std::move(moves), "seat", s_.active)));
}

void ub_game::end_turn(bool by_timeout, events& out) {
  out.push_back(event::public_event(object("by_timeout", by_timeout, "kind", "turn_ended", "seat", s_.active)));
  if (s_.turn >= s_.cfg.max_rounds * s_.cfg.players) return finish("round_cap", out);  // A19
  s_.active = (s_.active + 1) % s_.cfg.players;
  ++s_.turn;
  s_.reveals_used = s_.moves_used = s_.rearranges_used = 0;
  open_prompt();
  out.push_back(event::public_event(object("kind", "turn_started", "round", (s_.turn - 1) / s_.cfg.players + 1,
                                           "seat", s_.active, "turn", s_.turn)));
}

void ub_game::finish(const char* reason, events& out) {
  s_.ph = phase::over;
  s_.end_reason = reason;
  out.push_back(event::public_event(object("ended_by", s_.ended_by < 0 ? json(nullptr) : json(s_.ended_by), "kind", "game_over", "reason", reason,
                                           "winners", winners())));
}

}  // namespace tinsel::engine::unterm_baum::detail
