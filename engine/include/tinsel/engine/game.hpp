#pragma once
// The small type-erased interface through which a room holds any game, and the registry of games.
//
// Contract (every game):
// - `apply` validates the whole command; on rejection it returns a rule_error with a stable code
//   and leaves the state unchanged. It never throws or aborts on a player's input.
// - `legal(seat)` lists every command that seat may send now. Each entry is an object the client can
//   send back as is inside {"type":"action","action": entry}. Where a parameter has too many values
//   to list, the entry carries a `domain` description instead (documented per game in
//   docs/protocol.md). Whenever a seat must act (it is in `prompt().seats`), at least one sendable
//   entry is listed for it.
// - `view(viewer)` is the only way state leaves the engine; events are redacted per viewer through
//   `event::visible_to`, and for being told again (catch-up, game log) through `event::retold`.
// - Time does not exist here: `prompt()` says who is awaited and for how long; when the room's timer
//   fires it calls `on_timeout(serial)`, which applies the rulebook's deterministic default, or does
//   nothing if the prompt with that serial has already been left.
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "tinsel/engine/dice.hpp"
#include "tinsel/engine/outcome.hpp"

namespace tinsel::engine {

using json = nlohmann::json;

// A seat index (0-based), or a spectator.
struct viewer {
  int seat = -1;
  static viewer spectator() { return viewer{-1}; }
  static viewer player(int s) { return viewer{s}; }
  bool is_spectator() const { return seat < 0; }
  bool operator==(const viewer&) const = default;
};

// Something that happened, as a JSON object with a "kind". By default everyone sees it; a game can
// restrict an event to one seat, or give everyone but that seat a redacted twin.
struct event {
  enum class audience { everyone, only_seat, all_but_seat };
  json body;
  audience to = audience::everyone;
  int seat = -1;
  // The event as it is told again later, to the same audience: in the catch-up of a resuming
  // client and in the game log. Null: the same as `body`. A game sets it when something may be
  // shown once only (Unterm Baum's `revealed`: the motif goes out in the live state alone).
  json retold = nullptr;

  static event public_event(json body) { return event{std::move(body), audience::everyone, -1}; }
  const json& retold_body() const { return retold.is_null() ? body : retold; }
  bool visible_to(viewer v) const {
    switch (to) {
      case audience::everyone: return true;
      case audience::only_seat: return !v.is_spectator() && v.seat == seat;
      case audience::all_but_seat: return v.is_spectator() || v.seat != seat;
    }
    return false;
  }
};
using events = std::vector<event>;

// What the game is waiting for.
struct prompt {
  std::string kind;            // e.g. "roll", "sleigh_colour"; documented per game
  std::vector<int> seats;      // seats that may answer it
  std::optional<int> timeout_ms;  // nullopt: no timer (timers off, or the phase has none)
  std::uint64_t serial = 0;    // changes whenever a new prompt opens; guards stale timers
  // Answering is optional: the timer closing the prompt is how the game goes on (Christmas
  // Penguins' "Stop!" window after a roll), not a player being late, so it does not count towards
  // "away" (rulebook C5).
  bool optional = false;
};

struct setup {
  json options;                       // normalized by game_info::normalize_options
  int players = 0;                    // seated players, seats 0..players-1
  std::optional<int> first_seat;      // for startPlayer=host-picks; otherwise the dice choose
};

class game {
 public:
  virtual ~game() = default;
  virtual std::unique_ptr<game> clone() const = 0;

  virtual int players() const = 0;
  virtual json legal(int seat) const = 0;
  // The concrete commands a bot chooses from: legal(seat) without its domain entries, plus what a
  // game's domains stand for where it lists them one by one (Christmas Penguins: every green move,
  // channel and flight; Unterm Baum: every reveal and one example move per pair of areas). Every
  // entry is accepted by apply(). The default: legal(seat) without its domain entries.
  virtual json commands(int seat) const {
    json out = json::array();
    for (auto& e : legal(seat))
      if (e.is_object() && !e.contains("domain")) out.push_back(std::move(e));
    return out;
  }
  virtual outcome<events> apply(int seat, const json& command, dice& d) = 0;
  virtual json view(viewer v) const = 0;
  // When every viewer would get the same view(v) now (nothing in it is hidden from anyone): that
  // view, which the server serializes once per broadcast instead of once per seat. Null when the
  // views differ between viewers. May change with the state; the pointer stays valid while held.
  virtual std::shared_ptr<const json> shared_view() const { return nullptr; }
  // Optional fast paths for the server's frames, which carry `legal` and the shared view as JSON
  // text: a game may write that text straight into `out` without building a json document. When
  // it does, it appends exactly what protocol::dump gives for legal(seat) (resp. *shared_view()):
  // members in nlohmann's order (ascending keys), no spaces, the same number format and string
  // escaping; and returns true. The defaults return false and append nothing: the caller then
  // serializes legal(seat) / shared_view() itself. write_shared_view returns true only when
  // shared_view() would not be null.
  virtual bool write_legal(int seat, std::string& out) const {
    (void)seat;
    (void)out;
    return false;
  }
  virtual bool write_shared_view(std::string& out) const {
    (void)out;
    return false;
  }
  virtual std::optional<prompt> current_prompt() const = 0;
  // Applies the default for the open prompt if its serial matches; otherwise returns no events.
  virtual events on_timeout(std::uint64_t serial, dice& d) = 0;
  virtual bool is_over() const = 0;
  // Scores and winners once over: {"scores":[...], "winners":[seat...], ...}. Null before.
  virtual json result() const = 0;
  // How good the position looks for `seat` (higher is better), for the server-side bot. Only
  // differences between positions reached from the same state matter. Must not use information
  // hidden from `seat`. The default knows nothing and lets the bot choose at random.
  virtual double heuristic(int seat) const {
    (void)seat;
    return 0.0;
  }
  // The whole state, hidden parts included. For tests (replay equality) and the post-game log only;
  // never sent to a client during play.
  virtual json full_state() const = 0;
};

struct seat_range {
  int min = 1;
  int max = 1;
};

// One option of a game, declared once, as data (after OpenSpiel's parameter specification): the
// game's normalization, its seat range, `welcome.games[i].options` and
// protocol/schema/games/<id>/options.json (tests/schema/gen_options_schema.cpp) are all derived
// from the list of these in its game_info.
struct option_spec {
  enum class kind { integer, choice, boolean, text };
  // Whether this option sets the fewest players the game needs or the seats the room offers.
  enum class seat_bound { none, min_players, max_players };
  std::string key{};
  kind type = kind::integer;
  json fallback{};                // the default
  int min = 0;                    // integer: the range
  int max = 0;
  std::vector<json> choices{};    // choice: the allowed values (strings or integers)
  std::vector<std::string> also{};  // integer: strings accepted besides the range ("off", "auto")
  std::string unit{};             // integer: "seconds" (timers, rulebook C4), "milliseconds", or none
  seat_bound seats = seat_bound::none;
  std::string pattern{};          // text: an ECMAScript regular expression for the whole value
  // What a bad value is told ("option 'key' " + this) where the generic wording does not fit.
  std::string bad_value{};
  // What the option does, for the schema's description (the default and the range are added).
  std::string about{};
  // A game's cross-option rule, run right after this option is normalized, on the options
  // normalized so far (e.g. minPlayers at most maxPlayers). Null: none.
  std::function<std::optional<rule_error>(const json& so_far)> check{};
};
using option_specs = std::vector<option_spec>;

// Fills defaults and validates `options` (null counts as {}) against a game's declaration, in
// declaration order; the first bad option gives rule_error "invalid_option". The result is what
// a room stores and shows: every declared key, no other.
outcome<json> normalize_options(const option_specs& specs, const json& options);
// Player-count bounds for (normalized) options: the max_players option's value and the
// min_players option's (or, without one, the least value of max_players). A malformed or missing
// value never widens the range.
seat_range seats(const option_specs& specs, const json& options);
// The declaration as sent in welcome.games[i].options (docs/protocol.md, "welcome"): one object
// per option in declaration order with key, type, default and, where they apply, min, max,
// choices, also, unit, pattern and seats.
json describe_options(const option_specs& specs);

struct game_info {
  std::string id;      // wire name, e.g. "happy_holidays"
  std::string title;   // display name
  option_specs options;  // the game's options, in the order they are checked and shown
  // Starts a game. May still reject (e.g. an option that conflicts with the player count) with a
  // rule_error; seat_range has already been checked by the caller.
  std::function<outcome<std::unique_ptr<game>>(const setup&, dice&)> create;

  outcome<json> normalize_options(const json& o) const { return engine::normalize_options(options, o); }
  seat_range seats(const json& o) const { return engine::seats(options, o); }
};

class registry {
 public:
  void add(game_info info);
  const game_info* find(const std::string& id) const;
  std::vector<const game_info*> all() const;

 private:
  std::map<std::string, game_info> games_;
};

// The registry of every game Tinsel ships. Each game adds itself in engine/src/builtin_games.cpp.
const registry& builtin_games();

// A normalized timer option in milliseconds; nullopt for "off" (or 0, which also means off).
std::optional<int> timer_ms(const json& value);

// startPlayer, the option every game has: "random" (the dice choose the first seat) or
// "host-picks" (first_seat below). `about` says what the first seat is in that game.
option_spec start_player_option(std::string about);

// The first seat of a game (setup): the host's pick when `host_picks` (startPlayer=host-picks),
// which must then be given ("first_seat_required", telling the host to pick the first `what`,
// e.g. "seat" or "Santa") and name a seated player ("invalid_option"); otherwise one roll of the
// dice. Checks before rolling, so a rejected start leaves the dice untouched.
outcome<int> first_seat(const setup& su, bool host_picks, const std::string& what, dice& d);

using restore_fn = std::function<outcome<std::unique_ptr<game>>(const json& full_state)>;
// Runs a game's restore: shape errors of trusted-but-edited input (json exceptions) come back as an
// `invalid_state` rule_error rather than as an exception.
outcome<std::unique_ptr<game>> guarded_restore(const restore_fn& restore, const json& full_state);

}  // namespace tinsel::engine
