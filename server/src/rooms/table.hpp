#pragma once
// The game at a room's table: the engine's state and dice, the state sequence, the prompt's clock
// and its two timers (the prompt's default, the server-played seats' moves), the history that
// catches up a resuming member, the game log, and the journal records that make the game's record.
// It knows nothing of seats' connections or members: the room decides who is due and who is told,
// and asks the table for the frames. One per room; used on the room's strand only.
#include <chrono>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/steady_timer.hpp>
#include <nlohmann/json.hpp>

#include "rooms/random.hpp"
#include "tinsel/engine/game.hpp"
#include "tinsel/protocol/outgoing.hpp"
#include "tinsel/server/config.hpp"

namespace tinsel::server {

class table {
 public:
  using json = nlohmann::json;
  using clock = std::chrono::steady_clock;

  // `code`: the room's code, which every frame names (the room outlives its table).
  table(boost::asio::any_io_executor ex, const engine::game_info& game, const config& cfg, const std::string& code)
      : game_(&game), cfg_(cfg), code_(code), seeds_(secure_u64), prompt_timer_(ex), bot_timer_(ex) {}

  // The room plays another game next (set_game, between games): the finished game leaves the
  // table (its state, log, history and result: the room push shows the new game, and a result
  // belongs with its game), and the state sequence goes on from where it was.
  void change_game(const engine::game_info& game);
  const engine::game_info& game_info() const { return *game_; }

  // Where each game's seed comes from: the kernel's CSPRNG; a test scripts the dice with its own.
  void set_seeds(std::function<std::uint64_t()> seeds) { seeds_ = std::move(seeds); }

  // A game, running or finished, is at the table.
  bool has_game() const { return state_ != nullptr; }
  // A game is running and not over.
  bool running() const { return state_ && !state_->is_over(); }
  engine::game& game() { return *state_; }
  const engine::game& game() const { return *state_; }
  std::uint64_t seq() const { return seq_; }
  const json& last_result() const { return last_result_; }
  const json& names() const { return names_; }
  // What the computer player in `seat` forgets in this game is rolled from this (engine/bot.hpp):
  // one value per seat and game, drawn from the game's secret seed, so that it is the same after a
  // restart and nobody at the table can work it out before the seed is published at the end.
  std::uint64_t bot_memory_seed(int seat) const;

  // A new game with `players` seats; its `started` journal record, or the engine's refusal.
  engine::outcome<json> start(const json& options, int players, std::optional<int> first_seat, json names,
                              std::vector<std::string> ids);
  // The room's event at the start of a game: the players' names and the seed's commitment.
  engine::event started_event() const;
  engine::outcome<engine::events> apply(int seat, const json& command) { return state_->apply(seat, command, *dice_); }
  engine::events on_timeout(std::uint64_t serial) { return state_->on_timeout(serial, *dice_); }
  // A record of the running game (command, timeout, default) with the seq its state will carry;
  // every state_hash_every of them also carries the state's hash. Kept for the game's record.
  json journal_entry(json body);
  // The game is over: its result, with the seed and the players' names.
  void finish();
  // Then, for a durable room: the result names its record, and the `ended` journal record.
  json ended_record(const std::string& record_id, const json& options, const std::vector<std::string>& seat_names);
  // Starts the next state: its seq.
  std::uint64_t next_seq() { return ++seq_; }
  // The next state's frames' shared parts, from its events; kept for catch-ups and the log.
  protocol::state_parts publish(const engine::events& evs);
  // `view_patch`: the frame carries it (view_patch()) instead of the view.
  std::string frame(engine::viewer v, const protocol::state_parts& parts, const std::string* view_patch = nullptr) const;
  // Views as changes (docs/protocol.md, hello `views`): the JSON Patch (RFC 6902) that turns `v`'s
  // view of state seq-1 into its view of the current state, worked out once per state and viewer
  // class (a seat, or every spectator) from the two views `v` may see, so it holds nothing the
  // full view would not. Null when the table kept no view of seq-1 for `v` (nobody with those eyes
  // took changes then, or a new game began). Either way `v`'s current view is kept as the next base.
  const std::string* view_patch(engine::viewer v);
  // A member who takes changes got `v`'s current view whole: keep it as the base of the next patch.
  void keep_view(engine::viewer v) { view_patch(v); }
  // The state that answers a join: with `last_seq`, the missed events if `replay` and the history
  // still holds them, else resync.
  std::string catch_up_frame(engine::viewer v, std::optional<std::uint64_t> last_seq, bool replay = true) const;
  std::string resync_frame(engine::viewer v) const { return catch_up_frame(v, 0, false); }
  // The game_log push: every kept event of the current game that `v` may see, oldest first.
  std::string game_log_frame(engine::viewer v) const;
  // Whose eyes a member sees the game with: during a game its seat; after it, the seat its player
  // had in that game (seats move when a game ends), else a spectator's.
  engine::viewer viewer_of(int seat, const std::string& player_id) const;
  // A seat's answer to a simultaneous prompt played by default: the first of its concrete legal
  // entries that answers the open prompt (the seat leaves the prompt, which stays open for the
  // others), else the first concrete entry; null if none.
  json seat_default_entry(int seat) const;
  // The finished game as anyone may check it (docs/protocol.md, "Game records").
  json game_record(const json& options, const std::vector<std::string>& seat_names, const std::string& record_id) const;

  // The prompt's clock: when the open prompt opened (a new serial restarts it).
  clock::time_point prompt_opened(std::uint64_t serial, clock::time_point now);
  clock::time_point prompt_opened() const { return prompt_opened_; }
  // The prompt's timer starts again from now (after a restart or a rebuild).
  void restart_prompt_clock() { prompt_serial_ = ~std::uint64_t{0}; }
  // Timers: `fire` runs (as an operation of the room) when due; arming again cancels the last.
  // `shown`: the deadline the frames show (prompt.deadline; none: null), which leaves out a lost
  // connection's grace; `now`: when the room worked out both (the shown deadline counts from it).
  void arm_prompt_timer(clock::time_point due, std::optional<clock::time_point> shown, clock::time_point now,
                        std::function<void()> fire);
  void arm_bot_timer(std::function<void()> fire);
  void cancel_prompt_timer();
  void cancel_bot_timer() { bot_timer_.cancel(); }
  void cancel_timers() {
    cancel_prompt_timer();
    cancel_bot_timer();
  }

  // Replaying the journal: nothing at the table, then the records of each game.
  void reset();
  bool restore_started(const json& r, const json& options, std::vector<std::string> ids, std::string& why);
  bool replay(const json& r, std::string& why);
  void restore_ended(const json& r);

 private:
  // A new game begins: its players (ids and names, by game seat) and an empty history and log.
  void begin_memory(std::vector<std::string> ids, json names);
  // Keeps the events of state `seq` for resuming clients (history_) and for the game log.
  void keep_events(std::uint64_t seq, const protocol::state_parts& parts);
  protocol::state_context context() const;
  void forget_views() {
    views_.clear();
    shared_seq_ = 0;
    shared_now_.reset();
    shared_patch_.reset();
  }

  // The last view kept per viewer class (seat; -1: spectators), for view_patch(): what the
  // members taking changes with those eyes hold now. At most players + 1 per room.
  // Where the game shows everyone the same view (game::shared_view), every class holds the same
  // document and, when the state before was shared too, the same patch: worked out once.
  struct kept_view {
    std::uint64_t seq = 0;
    std::shared_ptr<const json> view;
    std::shared_ptr<const std::string> patch;  // from the view of seq-1, when one was kept
    bool shared = false;                       // `view` is the shared view of `seq`
  };
  std::map<int, kept_view> views_;
  std::uint64_t shared_seq_ = 0;  // the state shared_now_ and shared_patch_ belong to
  std::shared_ptr<const json> shared_now_;
  std::shared_ptr<const std::string> shared_patch_;

  struct history_entry {
    std::uint64_t seq;
    std::vector<protocol::logged_event> evs;
  };

  const engine::game_info* game_;  // the room's game (set_game changes it between games)
  const config& cfg_;
  const std::string& code_;
  std::function<std::uint64_t()> seeds_;
  std::unique_ptr<engine::game> state_;
  std::unique_ptr<engine::seeded_dice> dice_;
  std::uint64_t seed_ = 0;
  std::optional<int> first_seat_;
  std::uint64_t seq_ = 0;
  std::optional<std::chrono::system_clock::time_point> deadline_;
  std::uint64_t prompt_serial_ = 0;  // the prompt the clock runs for, and when it opened
  clock::time_point prompt_opened_{};
  json last_result_;
  std::deque<history_entry> history_;
  // The current (or last finished) game: its events for the game_log push (the last
  // cfg_.game_log_events), whether older ones were dropped, and its players by game seat.
  std::deque<protocol::logged_event> event_log_;
  bool event_log_truncated_ = false;
  std::vector<std::string> players_;  // player ids
  json names_ = json::array();        // names, as they were when the game started
  json records_ = json::array();      // the running game's journal records, for its game record
  int commands_since_hash_ = 0;
  mutable std::size_t frame_size_hint_ = 0;  // the last state frame's size: the next one's buffer

  boost::asio::steady_timer prompt_timer_;
  boost::asio::steady_timer bot_timer_;
};

}  // namespace tinsel::server
