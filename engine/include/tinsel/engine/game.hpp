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

struct game_info {
  std::string id;      // wire name, e.g. "happy_holidays"
  std::string title;   // display name
  // Fills defaults and validates; the result is what the room stores and shows.
  std::function<outcome<json>(const json& options)> normalize_options;
  // Player-count bounds for (normalized) options; the room offers `max` seats.
  std::function<seat_range(const json& options)> seats;
  // Starts a game. May still reject (e.g. an option that conflicts with the player count) with a
  // rule_error; seat_range has already been checked by the caller.
  std::function<outcome<std::unique_ptr<game>>(const setup&, dice&)> create;
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

// Shared option helpers for normalize_options implementations. Each checks `options[key]` if
// present (else uses the default) and writes the normalized value into `out`. On a bad value it
// returns a rule_error with code "invalid_option".
std::optional<rule_error> int_option(const json& options, json& out, const std::string& key,
                                     int fallback, int min, int max);
std::optional<rule_error> enum_option(const json& options, json& out, const std::string& key,
                                      const std::vector<std::string>& allowed);  // first is default
std::optional<rule_error> bool_option(const json& options, json& out, const std::string& key,
                                      bool fallback);
// Timers (rulebook C4): a number of seconds within [min, max], or the string "off" (stored as is).
std::optional<rule_error> timer_option(const json& options, json& out, const std::string& key,
                                       int fallback, int min, int max);
// A normalized timer option in milliseconds; nullopt for "off" (or 0, which also means off).
std::optional<int> timer_ms(const json& value);
// Reads an already-normalized integer option for seat_range: `fallback` if absent or malformed,
// clamped to [min, max] so a malformed value can never widen the range.
int clamped_int_option(const json& options, const std::string& key, int fallback, int min, int max);
// Rejects keys not in `known` (a typo must not be silently ignored).
std::optional<rule_error> no_unknown_options(const json& options, const std::vector<std::string>& known);

using restore_fn = std::function<outcome<std::unique_ptr<game>>(const json& full_state)>;
// Runs a game's restore: shape errors of trusted-but-edited input (json exceptions) come back as an
// `invalid_state` rule_error rather than as an exception.
outcome<std::unique_ptr<game>> guarded_restore(const restore_fn& restore, const json& full_state);

}  // namespace tinsel::engine
