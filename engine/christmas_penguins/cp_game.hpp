#pragma once
// Internal to the Christmas Penguins engine: config, state and the game class. The room sees only
// tinsel::engine::game; tests reach rulebook positions through cp_game::edit().
//
// Files: christmas_penguins.cpp (options, create, view, full_state, scoring), cp_board.cpp (hex
// geometry, connectivity, exact-N paths, push chains, placement candidates), cp_rules.cpp (the turn
// machine: apply and the arrival resolution), cp_prompts.cpp (prompts, legal, timeout defaults),
// cp_stones.cpp ("Stop!", stones, channels).
#include <algorithm>
#include <array>
#include <cstdint>
#include <deque>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/fast_json.hpp"
#include "tinsel/engine/game.hpp"

namespace tinsel::engine::christmas_penguins::detail {

inline constexpr int colour_count = 6;  // red, blue, green, yellow, purple, orange (A4 order)
inline constexpr int stone_kinds = 3;   // red, blue, green (A3)
inline constexpr int no_stone = -1;
inline constexpr int edge = -1;    // a penguin beside the board (its player is Santa, R6)
inline constexpr int at_hut = -2;  // a penguin that re-enters from the hut (A30)
inline constexpr int grid_offset = 6;  // cells with |q|,|r| <= 5 (radius 4 + 1 for the green stone)
inline constexpr int grid_side = 2 * grid_offset + 1;
inline constexpr int max_floes = 61;  // radius 4

using counts = std::array<int, colour_count>;
using stone_counts = std::array<int, stone_kinds>;

const char* colour_name(int colour);
std::optional<int> colour_from_name(std::string_view name);
const char* stone_name(int stone);
std::optional<int> stone_from_name(std::string_view name);
json counts_json(const counts& c);
int total(const counts& c);

enum class confiscate_to { pool, santa_player, removed };

// The normalized options, decoded once and shared by every copy of a state.
struct config {
  json options;
  int players = 0;
  int radius = 3;
  int presents_per_colour = 4;
  bool pool_seated_only = false;
  stone_counts stones{2, 2, 2};
  int channels_per_player = 3;
  bool one_channel_per_turn = false;
  bool simple_path = true;
  bool free_first = false;
  int tree_min_distance = 3;
  bool bear_instead = false;
  bool flee_any = false;
  bool drop_to_pool = false;
  confiscate_to confiscated = confiscate_to::pool;
  bool recycle = true;
  int reaction_ms = 4000;
  bool connectivity_guard = true;
  int max_rounds = 60;
  bool two_awards = false;
  bool tie_presents = false;
  bool host_picks = false;
  std::optional<int> main_ms, sub_ms, stop_ms;
};

enum class phase {
  place_penguin, place_tree, place_bear,             // setup (R7, R8)
  santa_place_stone,                                 // turn start, Santa re-places stones (A24)
  await_roll, reaction, await_move,                  // stable points (A23)
  push_chain, confiscate, steal, relocate_tree, pickup_stone,  // arrival sub-prompts (A40)
  await_bear, flee,                                  // the polar bear (A31-A34)
  await_post,                                        // channels after the move, then end turn
  stopped,                                           // "Stop!" granted (A23)
  over
};
const char* phase_name(phase p);
bool is_stable(phase p);

struct floe {
  int q = 0, r = 0;
  int stone = no_stone;
  counts loose{};  // loose presents dropped by the bear's victims (A34)
};

struct channel {
  int a = 0, b = 0;  // floe ids, a < b
  int owner = 0;
};

// Connected neighbours in direction order; a fixed-size list because path search calls it a lot.
struct neighbour_list {
  std::array<int, 6> v{};
  int n = 0;
  std::uint64_t bits = 0;  // the same floes as a set (bit i = floe i)
  const int* begin() const { return v.data(); }
  const int* end() const { return v.data() + n; }
};

struct state {
  std::shared_ptr<const config> cfg;
  std::vector<floe> floes;
  std::array<int, grid_side * grid_side> grid{};  // cell -> floe id or -1
  std::vector<channel> channels;
  int hut = 0, tree = -1, santa = 0, bear = -1;
  int santa_player = 0;
  std::vector<int> penguin;  // seat -> floe id, edge or at_hut
  std::vector<counts> presents;
  std::vector<int> channels_left;
  std::vector<stone_counts> stones;
  std::vector<int> supply;  // used stones waiting for Santa (A24), in hand-in order
  counts pool{};
  phase ph = phase::place_penguin;
  int active = 0;
  int start_seat = 0;
  int turns = 0;  // completed turns; round = turns / players + 1
  int roll = 0;
  int channels_this_turn = 0;
  std::vector<int> place_order;  // setup: seats still to place a penguin
  // The arrival being resolved: the floe X and the figure it concerns (pushed penguin, caught
  // penguin, bear victim).
  int pending_floe = -1;
  int pending_seat = -1;
  bool santa_moved = false;  // the pending meeting came from Santa's move (for the event)
  std::vector<int> reaction_seats;  // eligible holders who have not passed yet
  int claimant = -1;
  phase resume = phase::await_roll;
  std::deque<int> stop_queue;
  // Seats whose stop was cancelled, withdrawn or lapsed may not claim again until play moves on;
  // otherwise claim/cancel could pause the game forever (a griefer, or a one-step-lookahead bot).
  std::vector<bool> reclaim_blocked;
  std::uint64_t serial = 1;
  std::string end_reason;
  // Derived, not state: the connected neighbours of every floe (see neighbours()), built when first
  // needed after the floes or the channels changed; whoever changes them clears adj_ok
  // (rebuild_grid, the channel code, cp_game::edit).
  // reach[f][d] is the set (bit i = floe i) of floes at most d connected steps from f.
  mutable std::array<neighbour_list, max_floes> adj{};
  mutable std::array<std::array<std::uint64_t, 7>, max_floes> reach{};
  mutable bool adj_ok = false;
  mutable bool reach_ok = false;  // reach is built separately, only the path search needs it
  // Counts changes of the board's layout (floe positions, channels), like adj_ok; part of the key
  // under which cp_game caches the move destinations.
  std::uint32_t layout = 0;
};

// Small helpers shared by the rule files.
inline bool contains(const std::vector<int>& v, int x) { return std::find(v.begin(), v.end(), x) != v.end(); }
inline int most(const counts& c) {  // D10/D11/D15: the largest count, tie lowest colour index
  int best = 0;
  for (int i = 1; i < colour_count; ++i)
    if (c[static_cast<std::size_t>(i)] > c[static_cast<std::size_t>(best)]) best = i;
  return best;
}
// {"kind": kind}, the most frequent object of all.
inline json kind_only(const char* kind) {
  static const fast_json::shape s{"kind"};
  return s(kind);
}
inline json floe_cmd(const char* kind, const char* key, int f) {  // key is "floe" or "to"
  static const fast_json::shape floe_kind{"floe", "kind"}, kind_to{"kind", "to"};
  return std::string_view(key) == "floe" ? floe_kind(f, kind) : kind_to(kind, f);
}

// The entries of a legal list, in their order, handed to a writer (cp_prompts.cpp writes each to a
// sink of tinsel/json_text/sinks.hpp): cp_game::legal() gets them as json, cp_game::write_legal()
// as JSON text, both from the one walk through the rules (cp_game::list_legal).
class legal_writer {
 public:
  virtual ~legal_writer() = default;
  virtual void kind(const char* kind) = 0;                          // {"kind":K}
  virtual void floe(const char* kind, const char* key, int f) = 0;  // floe_cmd(kind, key, f)
  virtual void push(const std::vector<int>& chain) = 0;             // {"chain":[...],"kind":"push"}
  virtual void colour(const char* kind, int colour) = 0;            // {"colour":C,"kind":K}
  virtual void pickup(bool take) = 0;                               // {"kind":"pickup_stone","take":T}
  virtual void flee(int colour, int to) = 0;                        // {"colour":C,"kind":"flee","to":F}
  virtual void swap_stone(int stone, int target) = 0;  // {"kind":"use_stone","stone":S,"target":F}
  virtual void green_stone(int f, int q, int r) = 0;   // {"floe":F,"kind":"use_stone","stone":"green","to":[Q,R]}
  virtual void channel(int a, int b) = 0;               // {"a":A,"b":B,"kind":"place_channel"}
  // The long lists as domains (docs/protocol.md, Christmas Penguins, "Legal entries"):
  // {"domain":{"colours":[C...],"rule":"to_x_colours","to":[F...]},"kind":"flee"}
  virtual void flee_domain(const std::vector<int>& to, const std::vector<int>& colours) = 0;
  // {"domain":{"edges":[[A,B]...]},"kind":"place_channel"}
  virtual void channel_domain(const std::vector<std::pair<int, int>>& edges) = 0;
  // {"domain":{"cells":[[Q,R] or [Q,R,F]...],"floes":[F...],"pairs":[[F,Q,R]...],"rule":"floes_x_cells"},
  //  "kind":"use_stone","stone":"green"}
  struct green_moves {
    std::vector<int> floes;                  // floes that may go to every cell of `cells` but one they alone touch
    std::vector<std::array<int, 3>> cells;   // q, r, the one floe the cell touches or -1
    std::vector<std::array<int, 3>> pairs;   // the other floes' moves: floe, q, r
  };
  virtual void green_domain(const green_moves& g) = 0;
  // True: every command concretely, one by one (game::commands, the bots); false: the long lists
  // (green moves, channels, flights with presents) as one example and a domain (game::legal).
  bool expand = false;
};

// ---- board (cp_board.cpp) ------------------------------------------------------------------
int cell_index(int q, int r);  // -1 outside the grid
int floe_at(const state& s, int q, int r);
int hex_dist(const state& s, int a, int b);
bool lattice_adjacent(const state& s, int a, int b);
bool has_channel(const state& s, int a, int b);
bool connected_edge(const state& s, int a, int b);
const neighbour_list& neighbours(const state& s, int f);
// For every floe, a mask of the floes whose connecting edge is a bridge: cutting it (a channel)
// would split the board.
std::array<std::uint64_t, max_floes> bridges(const state& s);
// The floes at most d connected steps from f, as a bit set (bit i = floe i); every floe for d > 6.
std::uint64_t within(const state& s, int f, int d);
bool board_connected(const state& s);
// Whether the board would stay connected if floe `moved` (>= 0) went to the vacant cell (q, r) and
// lost its channels, or if a channel were put on the edge cut_a–cut_b; without copying the state.
bool board_connected_after(const state& s, int moved, int q, int r, int cut_a, int cut_b);
void rebuild_grid(state& s);
int penguin_at(const state& s, int f, int except_seat = -1);  // seat or -1
bool has_figure(const state& s, int f, int except_seat = -1);
bool is_refuge(const state& s, int f, int except_seat = -1);
bool is_empty_floe(const state& s, int f);
// The figure the active seat moves this turn and its path origin.
bool active_is_santa(const state& s);
std::vector<int> move_destinations(const state& s);
bool move_legal(const state& s, int to);
std::vector<std::vector<int>> push_chains(const state& s, int mover, int x);
bool chain_valid(const state& s, int mover, int x, const std::vector<int>& chain);
std::vector<int> tree_candidates(const state& s);
std::vector<int> bear_steps(const state& s);
std::vector<int> flee_targets(const state& s, int victim);
std::vector<int> stone_floes(const state& s);

class cp_game final : public game {
 public:
  explicit cp_game(state s) : s_(std::move(s)) {}

  cp_game(const cp_game& other) : game(), s_(other.s_) {}  // the destinations cache is not copied
  cp_game& operator=(const cp_game&) = delete;
  std::unique_ptr<game> clone() const override { return std::make_unique<cp_game>(*this); }
  int players() const override { return s_.cfg->players; }
  json legal(int seat) const override;
  json commands(int seat) const override;
  bool write_legal(int seat, std::string& out) const override;
  outcome<events> apply(int seat, const json& command, dice& d) override;
  json view(viewer v) const override;
  std::shared_ptr<const json> shared_view() const override;  // nothing is hidden in this game
  bool write_shared_view(std::string& out) const override;
  std::optional<prompt> current_prompt() const override;
  events on_timeout(std::uint64_t serial, dice& d) override;
  bool is_over() const override { return s_.ph == phase::over; }
  json result() const override;
  double heuristic(int seat) const override;
  json full_state() const override;

  const state& raw() const { return s_; }
  // Tests only: set up a rulebook position (the caller keeps it consistent).
  state& edit() {
    dests_.reset();
    s_.adj_ok = false;
    ++s_.layout;
    return s_;
  }

  // Scoring (christmas_penguins.cpp), public for tests.
  std::vector<int> points() const;
  std::vector<int> winners() const;

 private:
  using result_t = std::optional<rule_error>;
  // cp_rules.cpp: the turn machine. Commands are validated before anything changes (apply() undoes
  // the one early change, the reclaim_blocked reset; see there).
  result_t dispatch(int seat, const json& cmd, dice& d, events& out);
  result_t withdraw_stop(int seat, events& out);
  // The command that answers an open prompt: the one kind the prompt's phase expects, and its
  // handler (called once the seat is known to be awaited). Null for stopped and over.
  using command_handler = result_t (cp_game::*)(int seat, const json& cmd, dice& d, events& out);
  struct prompted_command {
    phase ph;
    std::string_view kind;
    command_handler handle;
  };
  static const prompted_command* prompted_command_for(phase p);
  result_t on_place_penguin(int seat, const json& cmd, dice& d, events& out);
  result_t on_place_tree(int seat, const json& cmd, dice& d, events& out);
  result_t on_place_bear(int seat, const json& cmd, dice& d, events& out);
  result_t on_place_stone(int seat, const json& cmd, dice& d, events& out);
  result_t on_roll(int seat, const json& cmd, dice& d, events& out);
  result_t on_pass(int seat, const json& cmd, dice& d, events& out);
  result_t on_move(int seat, const json& cmd, dice& d, events& out);
  result_t on_push(int seat, const json& cmd, dice& d, events& out);
  result_t on_confiscate(int seat, const json& cmd, dice& d, events& out);
  result_t on_steal(int seat, const json& cmd, dice& d, events& out);
  result_t on_relocate_tree(int seat, const json& cmd, dice& d, events& out);
  result_t on_pickup_stone(int seat, const json& cmd, dice& d, events& out);
  result_t on_bear_move(int seat, const json& cmd, dice& d, events& out);
  result_t on_flee(int seat, const json& cmd, dice& d, events& out);
  result_t on_end_turn(int seat, const json& cmd, dice& d, events& out);
  void timeout_default(dice& d, events& out);
  void open(phase p);
  void reach(phase p, events& out);
  void start_turn(events& out);
  void after_reaction(events& out);
  void auto_stay(events& out);
  void do_move(int to, events& out);
  void arrive(events& out);
  void after_push(events& out);
  void after_steal(events& out);
  void after_pickup(events& out);
  void after_move(events& out);
  void meet(events& out);
  void swap_roles(events& out);
  void confiscate(std::optional<int> colour, events& out);
  void steal(int colour, events& out);
  void relocate(int f, events& out);
  void bear_move(int to, events& out);
  void flee(std::optional<int> colour, int to, events& out);
  void end_turn(events& out);
  void finish(const char* reason, events& out);
  void next_setup(events& out);
  int default_move() const;
  std::string prompt_kind() const;
  std::vector<int> prompt_seats() const;

  // cp_stones.cpp: "Stop!", stones and channels.
  bool usable(int seat) const;
  bool usable_stone(int seat, int stone) const;
  // The seat may shout "Stop!" now: `stop` is in its legal list (and view.players[].can_stop).
  bool may_shout(int seat) const;
  result_t claim_stop(int seat, events& out);
  result_t use_stone(int seat, const json& cmd, events& out);
  result_t place_channel(int seat, const json& cmd, events& out);
  result_t channel_error(int seat, int a, int b) const;
  result_t green_error(int seat, int f, int q, int r) const;
  void end_stop(const char* why, events& out);
  void list_legal(int seat, legal_writer& out) const;  // cp_prompts.cpp
  template <class Sink>
  void emit_legal(Sink& s, int seat, bool expand = false) const;  // the list as an array, for legal() and write_legal()
  void legal_stones(int seat, legal_writer& out) const;
  void legal_channels(int seat, legal_writer& out) const;
  bool channel_phase() const;

  // The view and the result, each written once for both sinks of tinsel/json_text/sinks.hpp: as
  // json (view, shared_view, result) and as text (write_shared_view). christmas_penguins.cpp.
  template <class Sink>
  void emit_view(Sink& s) const;
  template <class Sink>
  void emit_result(Sink& s) const;  // null before the end
  // move_destinations(s_), cached under everything it depends on (see destinations_key).
  const std::vector<int>& destinations() const;
  bool destination_legal(int to) const;

  state s_;
  // The legal moves are searched when the move prompt opens, again for legal(), and again to check
  // the move: the first search is kept, under a key of every input of the search.
  struct destinations_cache {
    std::array<int, 16> key{};
    std::vector<int> floes;
  };
  mutable std::optional<destinations_cache> dests_;
};

}  // namespace tinsel::engine::christmas_penguins::detail
