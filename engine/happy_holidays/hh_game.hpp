#pragma once
// Internal to the Happy Holidays engine: its state and the game class. The room sees only
// tinsel::engine::game; tests reach positions through happy_holidays::restore.
//
// Files: happy_holidays.cpp (options, create, restore, serialization, view, result),
// hh_rules.cpp (legal, apply, timeouts: the turn state machine).
#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "tinsel/engine/game.hpp"

namespace tinsel::engine::happy_holidays::detail {

inline constexpr int colour_count = 4;  // red, green, blue, yellow (A3, fixed order)
inline constexpr int face_count = 6;    // dice.roll(6): 0..3 colour pairs F1..F4
inline constexpr int reward_face = 4;   // F5 Reindeer reward
inline constexpr int wish_face = 5;     // F6 Christmas wish
inline constexpr int reroll_cap = 100;  // A13: consecutive rerolls before the turn ends
inline constexpr int max_rounds = 200;  // C8 termination guard; normal games take 5–40 rounds

using counts = std::array<int, colour_count>;

const char* colour_name(int colour);
std::optional<int> colour_from_name(std::string_view name);
const char* face_name(int face);
bool is_pair_face(int face);
// The two colours of a pair face, in the order the rulebook names them (D3 tie-break).
std::array<int, 2> face_colours(int face);
json counts_json(const counts& c);

// The normalized options, decoded once.
struct config {
  std::shared_ptr<const json> options;  // normalized, kept for full_state/restore; shared by clones
  int players = 0;
  int gifts_per_colour = 8;
  int reindeer = 1;
  bool host_picks = false;
  bool assisted = false;
  bool reroll_empty_reward = false;
  bool end_immediate = false;
  bool tie_total_gifts = false;
  std::optional<int> main_timeout_ms;
  std::optional<int> sub_timeout_ms;
};

enum class phase { start_of_turn, sleigh_colour, choose_sleigh, wish_colour, over };
const char* phase_name(phase p);
std::optional<phase> phase_from_name(std::string_view name);

struct state {
  config cfg;
  phase ph = phase::start_of_turn;
  int start_seat = 0;
  int active = 0;
  int turn = 1;     // turns started so far (1-based); round = (turn-1)/players+1
  int rerolls = 0;  // consecutive rerolls within the current turn
  counts tree{};
  std::vector<int> sleigh_of;    // seat -> id of the sleigh in front of it (ids move by R8)
  std::vector<counts> sleighs;   // sleigh id -> gifts on it
  std::vector<counts> stacks;    // seat -> banked gifts per colour
  std::vector<bool> reindeer;    // seat -> holds a reindeer
  std::optional<int> last_face;  // most recent roll (the pending face while a choice is open)
  int last_roll_seat = -1;
  std::uint64_t serial = 1;  // prompt serial; bumped whenever a prompt opens
  std::string end_reason;    // "tree" or "round_cap" once over
};

class hh_game final : public game {
 public:
  explicit hh_game(state s) : s_(std::move(s)) {}

  std::unique_ptr<game> clone() const override { return std::make_unique<hh_game>(*this); }
  int players() const override { return s_.cfg.players; }
  json legal(int seat) const override;
  outcome<events> apply(int seat, const json& command, dice& d) override;
  json view(viewer v) const override;
  std::shared_ptr<const json> shared_view() const override;  // nothing is hidden in this game
  // The same documents as text: emit_legal and emit_view below, written to a text sink.
  bool write_legal(int seat, std::string& out) const override;
  bool write_shared_view(std::string& out) const override;
  std::optional<prompt> current_prompt() const override;
  events on_timeout(std::uint64_t serial, dice& d) override;
  bool is_over() const override { return s_.ph == phase::over; }
  json result() const override;
  double heuristic(int seat) const override;
  json full_state() const override;

  const state& raw() const { return s_; }

 private:
  // The turn machine (hh_rules.cpp). Each runs only after the command has been fully validated.
  void take_reindeer(int from, events& out);
  void roll(dice& d, events& out);
  void bank_colour(int colour, events& out);
  void reward(int owner, events& out);
  void wish(int colour, events& out);
  bool may_reroll(const char* reason, events& out);
  void end_turn(events& out);
  void finish(const char* reason, events& out);
  void open_prompt() { ++s_.serial; }
  std::string prompt_kind() const { return prompt_kind_name(); }
  const char* prompt_kind_name() const;

  // Scoring (happy_holidays.cpp).
  int score(int seat) const;
  int total(int seat) const;
  std::vector<int> winners() const;

  // The documents that leave the engine, each written once for both sinks of
  // tinsel/json_text/sinks.hpp: as json (legal, view, result) and as text (write_legal,
  // write_shared_view). Every object's keys in ascending order.
  template <class Sink>
  void emit_legal(Sink& s, int seat) const;  // hh_rules.cpp
  template <class Sink>
  void emit_view(Sink& s) const;  // happy_holidays.cpp
  template <class Sink>
  void emit_result(Sink& s) const;  // happy_holidays.cpp; null before the end

  state s_;
};

}  // namespace tinsel::engine::happy_holidays::detail
