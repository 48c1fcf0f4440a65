#pragma once
// Internal to the Unterm Baum engine: its state and the game class. The room sees only
// tinsel::engine::game; tests reach positions through unterm_baum::restore.
//
// Files: unterm_baum.cpp (catalogue, options, create, full_state, restore), ub_rules.cpp (commands,
// legal, apply, timeouts: the phase machine), ub_view.cpp (views, prompt, scoring, result).
//
// Cards are motif numbers 0..D−1 and live only in this state. Nothing derived from a motif number
// may reach a view, legal list or event before the end, except the motif name of a `revealed` event
// and a player's own wish list during ASSIGN and MEMORIZE.
#include <algorithm>
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "tinsel/engine/game.hpp"
#include "unterm_baum/unterm_baum.hpp"

namespace tinsel::engine::unterm_baum::detail {

inline constexpr int empty = -1;  // an empty tree slot, field slot or wish slot
inline constexpr int max_players = 6;
// A14: the default of rearrangesPerTurn. full_state() leaves the option out while it has this value
// (see there), so changing it changes the state hash of every default game.
inline constexpr int default_rearranges_per_turn = 20;

// Family sheets (A3: cosmetic, each taken once). Row r of a sheet is members[r].
inline constexpr int family_count = 8;
struct family_sheet {
  const char* id;
  std::array<const char*, 5> members;
};
const family_sheet& family(int index);
std::optional<int> family_from_id(std::string_view id);

// The normalized options, decoded once.
struct config {
  json options;  // normalized, kept for full_state/restore
  int players = 0;
  int k = 8;       // cards to remember
  int m = 4;       // family size = rows
  int c = 5;       // slots per row = K − M + 1
  int motifs = 0;  // D = P·K + decoys = tree size
  bool host_picks = false;
  bool any_two = false;
  bool ordinal = false;
  bool exact_then_row = false;
  int max_rounds = 40;
  std::optional<int> assign_ms;
  int memorize_ms = 30000;
  int reveal_ms = 4000;
  std::optional<int> turn_ms;
  int rearranges_per_turn = default_rearranges_per_turn;  // A14

  int grid() const { return m * c; }  // slots of one field (and of one wish list)
};

enum class phase { assign, memorize, play, over };
const char* phase_name(phase p);
std::optional<phase> phase_from_name(std::string_view name);

// A card position: a tree slot, or a slot (row·C + slot) of a seat's field.
struct location {
  int seat = -1;  // -1: the tree
  int index = 0;
  bool on_tree() const { return seat < 0; }
  bool operator==(const location&) const = default;
};

struct state {
  config cfg;
  phase ph = phase::assign;
  int start_seat = 0;
  int active = 0;
  int turn = 1;  // turns started so far (1-based); round = (turn−1)/P + 1
  int reveals_used = 0;
  int moves_used = 0;
  // Rearrangements in this turn. Not in full_state (so the state hashes of journals written before
  // the limit existed still match); restore() starts a turn's count afresh.
  int rearranges_used = 0;
  std::vector<int> tree;                 // slot -> motif or empty (D slots)
  std::vector<std::vector<int>> fields;  // seat -> grid slot -> motif or empty
  std::vector<std::vector<int>> hands;   // seat -> the K green motifs in dealt order
  std::vector<std::vector<int>> wishes;  // seat -> grid slot -> motif or empty (after ASSIGN)
  std::vector<bool> assigned;            // seat -> wish list submitted
  std::vector<int> families;             // seat -> family sheet or empty
  std::vector<int> bag;                  // undrawn green motifs
  std::uint64_t serial = 1;              // prompt serial; bumped whenever a prompt opens
  std::string end_reason;                // "field_complete" or "round_cap" once over
  int ended_by = -1;                     // the seat whose move completed his field
  // motif -> the turn it was last revealed (to everyone), -1 never: what the table has seen, which
  // the bots remember (ub_bot.cpp). Public knowledge (the reveal was shown to all, and cards are
  // followed through the public moves). Not in full_state: it is rebuilt by replaying the commands
  // (as the server restores a room), and state hashes of older journals stay the same.
  std::vector<int> revealed_turn;
};

// One card's score against its field owner's wish list (A20).
struct card_score {
  int slot = 0;  // grid slot in the field
  int motif = 0;
  int points = 1;
  const char* match = "not_wished";  // not_wished, wrong_row, member, exact
};

class ub_game final : public game {
 public:
  explicit ub_game(state s) : s_(std::move(s)) {}

  std::unique_ptr<game> clone() const override { return std::make_unique<ub_game>(*this); }
  int players() const override { return s_.cfg.players; }
  json legal(int seat) const override;
  json commands(int seat) const override;
  bool write_legal(int seat, std::string& out) const override;
  outcome<events> apply(int seat, const json& command, dice& d) override;
  json view(viewer v) const override;
  std::shared_ptr<const json> shared_view() const override;
  bool write_shared_view(std::string& out) const override;
  std::optional<prompt> current_prompt() const override;
  events on_timeout(std::uint64_t serial, dice& d) override;
  bool is_over() const override { return s_.ph == phase::over; }
  json result() const override;
  double heuristic(int seat) const override;
  json full_state() const override;

  const state& raw() const { return s_; }

 private:
  // Phase machine (ub_rules.cpp). Each runs only after its command has been fully validated.
  void assign(int seat, int family_index, std::vector<int> wish_grid, bool by_default, events& out);
  void start_memorize(events& out);
  void start_play(events& out);
  // apply's handlers, one per command kind: each checks its command and, if allowed, plays it into
  // `out`; else it returns why not and changes nothing.
  std::optional<rule_error> apply_assign(int seat, const json& c, events& out);
  std::optional<rule_error> apply_reveal(const json& c, events& out);
  std::optional<rule_error> apply_move(int seat, const json& c, events& out);
  std::optional<rule_error> apply_rearrange(int seat, const json& c, events& out);
  // The refusal of an action already used this turn (rulebook: one of each, or any two).
  rule_error action_used(const char* used_code) const;
  void reveal(const location& at, events& out);
  void move(const location& from, const location& to, events& out);
  void rearrange(const std::vector<std::pair<int, int>>& mapping, events& out);
  void end_turn(bool by_timeout, events& out);
  void finish(const char* reason, events& out);
  void open_prompt() { ++s_.serial; }

  // Derived facts shared by legal and apply (ub_rules.cpp).
  int& card_at(const location& l);
  int card_at(const location& l) const;
  int field_count(int seat) const;
  bool reveal_allowed() const;
  bool move_allowed() const;
  bool rearrange_allowed() const { return s_.rearranges_used < s_.cfg.rearranges_per_turn; }
  bool field_open_to(int owner, int mover) const;  // A17: not the last card into another field
  int first_free_family() const;
  std::vector<int> default_wishes(int seat) const;  // D3
  // Validation of the compound parameters; nothing changes.
  outcome<std::vector<int>> check_wishes(int seat, const json& wishes) const;
  outcome<std::vector<std::pair<int, int>>> check_mapping(int seat, const json& moves) const;
  // What the active seat's legal list holds during its turn, from occupancy alone (see
  // emit_legal_turn).
  struct turn_list {
    bool reveal = false;                               // a reveal entry for every card
    std::vector<location> cards;                       // every card: the tree, then field by field
    std::vector<std::pair<location, location>> moves;  // one example per (source, destination) area
    std::vector<location> open_holes;                  // the move domain's "to", when moves is not empty
    std::vector<int> mine;                             // the mover's field: its occupied grid slots
    int first_free = -1;                               // and its first free one
  };
  turn_list turn_entries() const;

  // Scoring (ub_view.cpp).
  std::vector<card_score> score_cards(int seat) const;
  std::vector<int> winners() const;
  std::string prompt_kind() const;

  // The documents that leave the engine, each written once for both sinks of
  // tinsel/json_text/sinks.hpp: as json (legal, view, result, the locations in events) and as text
  // (write_legal, write_shared_view). Every object's keys in ascending order.
  template <class Sink>
  void emit_legal(Sink& s, int seat, bool expand = false) const;  // ub_legal.cpp, as the five below
  template <class Sink>
  void emit_legal_assign(Sink& s, int seat) const;  // sent to this seat only: its own motifs (A8)
  template <class Sink>
  void emit_legal_turn(Sink& s, bool expand) const;
  template <class Sink>
  void emit_location_set(Sink& s, const std::vector<location>& ls) const;
  template <class Sink>
  void emit_location(Sink& s, const location& l) const;
  json location_json(const location& l) const;
  template <class Sink>
  void emit_view(Sink& s, viewer v) const;  // ub_view.cpp, as the rest
  template <class Sink>
  void emit_player(Sink& s, int seat) const;  // view.players[seat]
  template <class Sink>
  void emit_result(Sink& s) const;  // null before the end
  template <class Sink>
  void emit_result_player(Sink& s, int seat, const std::vector<card_score>& cards) const;
  template <class Sink>
  void emit_wishes(Sink& s, int seat) const;  // the placed wishes, or null before the seat has assigned
  template <class Sink>
  void emit_free_families(Sink& s) const;  // the family sheets nobody has taken, in catalogue order

  state s_;
};

// A wish list's entries, as [{"motif":…,"row":…,"slot":…},…] (a grid of motifs, empty places left
// out): the suggestion in `legal`, a seat's own wish list and the wish lists of the result.
template <class Sink>
void emit_wish_grid(Sink& s, const std::vector<int>& grid, const config& cfg) {
  s.begin_array(static_cast<std::size_t>(cfg.k));
  for (int i = 0; i < cfg.grid(); ++i) {
    const int m = grid[static_cast<std::size_t>(i)];
    if (m == empty) continue;
    s.begin_object();
    s.member("motif", motif_name(m));
    s.member("row", i / cfg.c);
    s.member("slot", i % cfg.c);
    s.end_object();
  }
  s.end_array();
}

template <class Sink>
void ub_game::emit_free_families(Sink& s) const {
  s.begin_array(family_count);
  for (int f = 0; f < family_count; ++f)
    if (std::find(s_.families.begin(), s_.families.end(), f) == s_.families.end()) s.value(family(f).id);
  s.end_array();
}

}  // namespace tinsel::engine::unterm_baum::detail
