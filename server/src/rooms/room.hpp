#pragma once
// A private room: seats, spectators, host, chat, and the game. Two collaborators it owns carry
// their own roles: the game at the table (table.hpp) and the journal-first commit of every
// operation (commit_queue.hpp); the room keeps the seats, members, host controls, chat and its
// public summary (room.cpp, room_host.cpp, room_game.cpp, room_journal.cpp, room_summary.cpp).
// All of its state lives on its own
// strand: its io_context, which one thread alone runs (io_pool), so its handlers never run at once
// (an implicit strand, without an asio::strand's lock and type-erased copies). Every public method
// only posts onto it, so it may be called from any thread. No mutex guards room or game state.
#include <atomic>
#include <chrono>
#include <deque>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>
#include <nlohmann/json.hpp>

#include "tinsel/server/config.hpp"
#include "limits/address_limits.hpp"
#include "rooms/commit_queue.hpp"
#include "rooms/participant.hpp"
#include "rooms/table.hpp"
#include "storage/journal.hpp"
#include "tinsel/engine/bot.hpp"
#include "tinsel/engine/game.hpp"

namespace tinsel::server {

using json = nlohmann::json;

struct identity {
  std::string player_id;  // public, stable for the connection's lifetime
  std::string name;
  std::string token_hash;  // SHA-256 of the secret token (hex): what the journal keeps
  bool view_changes = false;  // this connection's hello asked for views as changes (`views`)
};

class room : public std::enable_shared_from_this<room> {
 public:
  // The room is over: closed, expired, or (set_aside) it could not be rebuilt from its journal.
  using on_expired_fn = std::function<void(const std::string& code, bool set_aside)>;

  // `journal`: where the room writes what happens before it tells anyone (null: not durable). A
  // new room journals its creation; a recovered one is rebuilt with restore() instead.
  room(boost::asio::any_io_executor ex, std::string code, const engine::game_info& game, json options,
       const config& cfg, on_expired_fn on_expired, storage::journal* journal = nullptr, bool recovered = false);

  // Rebuilds the room from its journal records (before anyone can reach it). False, with the
  // reason, when they do not replay: a command the engine refuses, or a state hash that differs.
  bool restore(const std::vector<json>& records, std::string& why);
  // After restore(): every seat is disconnected; the grace periods and timers start now.
  void resume_after_restart();
  // The players seated here, and those sent away (for their identities after a restart).
  struct seated_identity {
    std::string player_id, name, token_hash;
  };
  std::vector<seated_identity> seated_identities() const;

  const std::string& code() const { return code_; }
  // The game the room plays now (set_game changes it between games); safe from any thread.
  const engine::game_info& game_info() const { return *game_.load(); }
  // Where each game's seed comes from (tests script the dice); before anyone can reach the room.
  void set_seeds(std::function<std::uint64_t()> seeds) { table_.set_seeds(std::move(seeds)); }
  // "lobby", "playing" or "finished"; safe to call from any thread (for /metrics).
  std::string_view status_name() const {
    const status s = status_;
    return s == status::lobby ? "lobby" : s == status::playing ? "playing" : "finished";
  }

  // Joins as a player or spectator. A player who already holds a seat here (same player id, e.g.
  // after resuming with its token) gets that seat back; with `last_seq` it then receives every
  // event it missed, or a full state if they are no longer in the history. Whoever joins a room
  // with a game first receives that game's log from its start (game_log), as it may see it.
  // `budget`: what the join may send the joiner's address; a join it cannot pay for in full comes
  // without chat_history and game_log (and with a resync instead of missed events), and says so
  // in its ok (history_withheld). Everything sent is charged.
  void join(std::shared_ptr<participant> p, identity who, bool spectator, std::optional<std::uint64_t> last_seq,
            json request_id, join_budget budget = {});
  void leave(std::shared_ptr<participant> p, json request_id);
  void disconnected(std::uint64_t connection);
  void chat(std::shared_ptr<participant> p, std::string text, json request_id);
  void set_options(std::shared_ptr<participant> p, json options, json request_id);
  // The host picks the next game, any the server hosts, with its options, between games (lobby
  // or finished): seats, names, bots, spectators, the sent-away list and chat stay (room_next_game.cpp).
  void set_game(std::shared_ptr<participant> p, std::string game, json options, json request_id);
  void start_game(std::shared_ptr<participant> p, std::optional<int> first_seat, json request_id);
  void action(std::shared_ptr<participant> p, json command, json request_id);
  // Host controls.
  void kick(std::shared_ptr<participant> p, std::string player, json request_id);
  void transfer_host(std::shared_ptr<participant> p, std::string player, json request_id);
  void add_bot(std::shared_ptr<participant> p, json request_id, engine::bot_level level = engine::bot_level::fair);
  void remove_bot(std::shared_ptr<participant> p, int seat, json request_id);
  void close_room(std::shared_ptr<participant> p, json request_id);
  // A member taking views as changes asks for its whole view again: one state with the current
  // seq, no events and the full view (docs/protocol.md, full_view).
  void full_view(std::shared_ptr<participant> p, json request_id);
  // The host resolves a seat's part of the open prompt with its rulebook default, exactly as the
  // seat's timer would (also with timers off).
  void skip(std::shared_ptr<participant> p, int seat, json request_id);
  // The host lets a player it sent away (kick) sit in this room again.
  void readmit(std::shared_ptr<participant> p, std::string player, json request_id);
  // Whether the host sent this player away (and has not let them back); safe from any thread (for
  // welcome.room).
  bool sent_away(const std::string& player) const;
  // Server shutdown: cancel timers, forget members.
  void close();
  // Cluster mode: the room is no longer this instance's (a write was fenced, the lease lapsed, or
  // the instance drains). Not an operation, nothing is written: every member is told room_moved
  // (`instance`: the new owner if known) and its connection closed with 4002, timers stop, and
  // the lobby forgets the room. Safe from any thread.
  void moved(std::string instance = {});
  // What anyone holding the room's code may see before joining (docs/protocol.md, "Invite
  // links"): the game, the host's name, the seated names and the counts; nothing else. Safe from
  // any thread: a copy kept under a mutex, renewed on the strand with every room push.
  json public_summary() const;

 private:
  enum class status { lobby, playing, finished };
  struct seat {
    std::string player_id;        // empty: free seat
    std::string name;
    std::uint64_t connection = 0; // 0: nobody connected to this seat
    bool gone = false;            // left for good during a game: played by the bot
    bool bot = false;             // a server-side bot sits here
    engine::bot_level level = engine::bot_level::fair;  // the bot's (journaled; a gone player's: fair)
    std::string token_hash;       // journaled, so the player can resume after a restart
    bool away = false;            // rulebook C5: timed out repeatedly; prompts resolve quickly
    int timeouts = 0;             // consecutive timeouts
    std::chrono::steady_clock::time_point disconnected_at{};
    // The status the last room push showed and since when (server time, for the push's `since`):
    // noted by room_frame() when the status it works out differs, so every way a seat can drop,
    // time out or come back is covered.
    mutable std::string_view shown_status;
    mutable std::int64_t shown_since_ms = 0;
    bool played_by_server() const { return bot || gone; }
  };
  struct member {
    std::weak_ptr<participant> p;
    identity who;
    int seat = -1;  // -1: spectator
    // Taking views as changes: the seq of the last state it was sent and whose eyes that view had
    // (a seat, -1 a spectator's). A patch goes only to a member whose last state is seq-1 with the
    // same eyes; anyone else gets the whole view.
    std::optional<std::uint64_t> view_seq;
    int view_seat = -1;
    std::uint64_t joined = 0;  // the room's join count when it joined: the push lists watchers in join order
  };

  using pptr = std::shared_ptr<participant>;
  using frame_ptr = std::shared_ptr<const std::string>;

  using op_kind = commit_queue::op_kind;
  // Every operation runs through here, on the strand, by the commit queue: it changes the room,
  // appends its journal records and queues what it tells (tell/tell_left), which goes out once
  // the records are written. `sender`/`id`: who asked, to be refused if the journal fails.
  template <class F>
  void dispatch(F&& f, pptr sender = nullptr, json id = nullptr, op_kind kind = op_kind::request);
  // On the strand already (a timer): the operation goes to the queue.
  void run_op(std::function<void(room&)> f, op_kind kind = op_kind::server_move);
  // Queues for the end of the operation.
  void tell(const pptr& p, frame_ptr frame) { queue_.tell(p, std::move(frame)); }
  void tell_left(const pptr& p) { queue_.tell_left(p); }
  void append_record(json body) { queue_.append(std::move(body)); }
  void journal_lobby_if_changed();
  // A record of the running game (command, timeout, default), journaled with the seq its state
  // will carry (table::journal_entry).
  void journal_game(json body);
  // Keeps a chat message for chat_history (the last chat_history_lines of them).
  void remember_chat(json msg);
  // After a failed write: the room as its journal has it, everyone resynced.
  void reload_from_journal();
  // No journal to go back to, or it does not replay: the room ends, set aside.
  void set_aside(const std::string& why);
  // Members keep the seats their players have in the rebuilt room; everyone gets a full state.
  void reseat_members_after_reload();
  void leave_instance(const std::string& instance);  // moved(), on the strand
  std::string journaled_summary_;  // cluster mode: the public summary as last written

  // Replaying the journal (restore): one function per record kind.
  void restore_reset();
  bool restore_record(const json& r, std::string& why);
  void restore_lobby(const json& r);
  bool restore_started(const json& r, std::string& why);
  bool restore_ended(const json& r, std::string& why);
  // Stored options normalized again (see restore_record).
  json stored_options(const json& o) const;

  void do_join(const pptr& p, identity who, bool spectator, std::optional<std::uint64_t> last_seq, const json& id,
               const join_budget& budget);
  std::optional<engine::rule_error> take_seat(const identity& who, std::uint64_t connection, bool spectator,
                                              int& seat_index, bool& resumed);
  // `caught_up`: the last seq the joiner saw, if it was in this game.
  void send_join(const pptr& p, const identity& who, int seat_index, bool spectator, bool resumed,
                 std::optional<std::uint64_t> caught_up, const json& id, const join_budget& budget);
  void do_kick(const pptr& p, const std::string& player, const json& id);
  void do_close_room(const pptr& p, const json& id);
  void do_leave(std::uint64_t connection, const pptr& p, const json& id);
  void do_set_options(const pptr& p, json options, const json& id);
  void do_set_game(const pptr& p, const std::string& game, json options, const json& id);
  // The room plays `game` with `options` from now on (no game running); also on replay.
  void switch_game(const engine::game_info& game, json options);
  void do_start(const pptr& p, std::optional<int> first_seat, const json& id);
  void do_action(const pptr& p, const json& command, const json& id);
  void do_expire();

  void reply_error(const pptr& p, const json& id, std::string_view code, std::string_view message);
  // The `ok` of an accepted request; none for a request without an id (docs/protocol.md, "The envelope").
  void reply_ok(const pptr& p, const json& id, json extra = json::object());
  void send_to_all(const frame_ptr& frame);
  // Outside a game: frees the seats whose players stayed disconnected past the lobby grace.
  void arm_seat_timer();
  void free_expired_seats();
  // `prepared`: the room push, already serialized (room_frame() as it is now).
  void broadcast_room(frame_ptr prepared = nullptr);
  // The room push; `status_override`: "closed" for the room's last one.
  std::string room_frame(std::string_view status_override = {}) const;
  long spectator_count() const;
  // Renews public_summary()'s copy (on the strand, or before anyone can reach the room).
  void refresh_public_summary();
  // After the game changed: bump seq, send each member its state, arm the prompt timer.
  void broadcast_state(const engine::events& evs);
  // Applies a seat's command (from a player or the bot) and tells everyone.
  engine::outcome<engine::events> play(int seat_index, const json& command);
  void arm_prompt_timer();
  std::optional<std::chrono::steady_clock::time_point> seat_due(const seat& st, const engine::prompt& pr, bool with_grace = true) const;
  void on_prompt_timer(std::uint64_t serial);
  void do_skip(const pptr& p, int seat_index, const json& id);
  // A member taking changes was sent `v`'s whole current view: the base of its next patch.
  void sent_whole_view(member& m, engine::viewer v);
  // The rulebook default for `due`, seats of the open prompt `pr`: the whole prompt's default when
  // it is `whole` or they are all its seats, else the one seat's default entry. `by_host`: a skip.
  void apply_default(const engine::prompt& pr, const std::vector<int>& due, bool whole, bool by_host);
  void arm_bot_timer();
  void on_bot_timer(std::uint64_t serial);
  void finish_game_if_over();
  void pass_host_if_needed();
  void update_empty_timer();
  int seated_count() const;
  // Seated players move to the front in seat order; then `count` seats are offered.
  void compact_seats(std::size_t count);
  member* find_member(std::uint64_t connection);
  bool is_host(std::uint64_t connection) const;
  bool check_host(const pptr& p, const json& id, std::string_view what);

  boost::asio::any_io_executor strand_;  // the room's context: one thread, so an implicit strand
  std::string code_;
  // Atomic only so that game_info() may read it from any thread; written on the strand.
  std::atomic<const engine::game_info*> game_;
  const engine::game_info& game() const { return *game_.load(); }
  json options_;
  const config& cfg_;
  on_expired_fn on_expired_;

  std::atomic<status> status_{status::lobby};  // atomic only so that status_name() may read it
  bool closed_ = false;
  std::string host_;  // player id
  std::vector<seat> seats_;
  std::map<std::uint64_t, member> members_;

  // Spectators of the current game (player ids): only they and seated players are caught up with
  // missed events; a new spectator gets the current state alone.
  std::set<std::string> watchers_;
  // Players the host removed (by id), for the room's lifetime unless the host readmits them:
  // they may watch but never sit again (a player kicked mid-game would otherwise take the seat
  // back from the bot). Written on the strand; the mutex lets sent_away() read it from any thread.
  struct sent_away_player {
    std::string name;
    std::string token_hash;  // journaled, so that they resume as themselves after a restart (and stay away)
  };
  std::map<std::string, sent_away_player> kicked_;
  mutable std::mutex kicked_mutex_;
  int bots_added_ = 0;
  std::uint64_t joins_ = 0;  // joins so far (member::joined)
  json public_summary_;
  mutable std::mutex public_summary_mutex_;

  std::string journaled_lobby_;  // the last seat snapshot written
  std::deque<json> chat_;        // the last chat_history_lines chat messages, for late joiners

  // The journal and the operations waiting on it; the game at the table.
  commit_queue queue_;
  table table_;
  boost::asio::steady_timer seat_timer_;  // frees seats disconnected past the lobby grace
  boost::asio::steady_timer empty_timer_;
};

template <class F>
void room::dispatch(F&& f, pptr sender, json id, op_kind kind) {
  boost::asio::post(strand_, [self = shared_from_this(), f = std::forward<F>(f), sender = std::move(sender), id = std::move(id),
                              kind]() mutable {
    auto& r = *self;
    r.queue_.run(self, [&r, f = std::move(f)]() mutable { f(r); }, std::move(sender), std::move(id), kind);
  });
}

}  // namespace tinsel::server
