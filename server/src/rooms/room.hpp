#pragma once
// A private room: seats, spectators, host, chat, and the game. All of its state lives on its own
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
#include <boost/asio/steady_timer.hpp>
#include <nlohmann/json.hpp>

#include "tinsel/server/config.hpp"
#include "limits/address_limits.hpp"
#include "rooms/participant.hpp"
#include "storage/journal.hpp"
#include "tinsel/engine/game.hpp"

namespace tinsel::server {

using json = nlohmann::json;

struct identity {
  std::string player_id;  // public, stable for the connection's lifetime
  std::string name;
  std::string token_hash;  // SHA-256 of the secret token (hex): what the journal keeps
};

// Something a room tells a participant, queued until the operation's records are written.
struct outgoing {
  enum class what { send, left_room, expired } kind;
  std::shared_ptr<participant> to;
  std::shared_ptr<const std::string> frame;
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
  const engine::game_info& game_info() const { return game_; }
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
  void start_game(std::shared_ptr<participant> p, std::optional<int> first_seat, json request_id);
  void action(std::shared_ptr<participant> p, json command, json request_id);
  // Host controls.
  void kick(std::shared_ptr<participant> p, std::string player, json request_id);
  void transfer_host(std::shared_ptr<participant> p, std::string player, json request_id);
  void add_bot(std::shared_ptr<participant> p, json request_id);
  void remove_bot(std::shared_ptr<participant> p, int seat, json request_id);
  void close_room(std::shared_ptr<participant> p, json request_id);
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
    std::string token_hash;       // journaled, so the player can resume after a restart
    bool away = false;            // rulebook C5: timed out repeatedly; prompts resolve quickly
    int timeouts = 0;             // consecutive timeouts
    std::chrono::steady_clock::time_point disconnected_at{};
    bool played_by_server() const { return bot || gone; }
  };
  // One event of the current game: who may see it, and its body serialized once, with the `seq`
  // of its state; the game_log push and the catch-up of a resuming member share the text.
  struct logged_event {
    std::uint64_t seq;
    engine::event::audience to;
    int seat;
    std::shared_ptr<const std::string> body;
    bool visible_to(engine::viewer v) const { return engine::event{json(), to, seat}.visible_to(v); }
  };
  struct history_entry {
    std::uint64_t seq;
    std::vector<logged_event> evs;
  };
  struct member {
    std::weak_ptr<participant> p;
    identity who;
    int seat = -1;  // -1: spectator
  };

  using pptr = std::shared_ptr<participant>;
  using frame_ptr = std::shared_ptr<const std::string>;

  // What an operation is, for while the journal is not writable: a request is refused with
  // storage_failed before it runs (so nothing changes and nothing needs undoing); a server move
  // (a timer, a bot) waits, tried again every second; joins, leaves and dropped connections run
  // as ever (a resumed seat must see its game), and only if they change the seats does their
  // write fail and the room go back to its journal.
  enum class op_kind { request, membership, server_move };
  // Every operation runs through here, on the strand: it changes the room, appends its journal
  // records and queues what it tells (tell/tell_left). Then, with records, the room waits for the
  // journal before anything queued goes out, and later operations wait behind it; without, what
  // it queued goes out at once. `sender`/`id`: who asked, to be refused if the journal fails.
  template <class F>
  void dispatch(F&& f, pptr sender = nullptr, json id = nullptr, op_kind kind = op_kind::request);
  void run_op(std::function<void(room&)> f, pptr sender, json id, op_kind kind = op_kind::server_move);
  // Runs one operation now, or (journal not writable) refuses or postpones it.
  void start_op(std::function<void(room&)> f, pptr sender, json id, op_kind kind);
  void end_op(const pptr& sender, const json& id);
  void committed(bool ok, std::vector<outgoing> out, const pptr& sender, const json& id);
  // Queues for the end of the operation.
  void tell(const pptr& p, frame_ptr frame);
  void tell_left(const pptr& p);
  void append_record(json body);
  void journal_lobby_if_changed();
  // A record of the running game (command, timeout, default) with the seq its state will carry;
  // every state_hash_every of them also carries the state's hash.
  void journal_game(json body);
  // The room's event at the start of a game: the players' names and the seed's commitment.
  engine::event game_started_event(const json& names) const;
  // Keeps a chat message for chat_history (the last chat_history_lines of them).
  void remember_chat(json msg);
  // The finished game as anyone may check it (docs/protocol.md, "Game records").
  json game_record() const;
  // After a failed write: the room as its journal has it, everyone resynced.
  void reload_from_journal();

  void do_join(const pptr& p, identity who, bool spectator, std::optional<std::uint64_t> last_seq, const json& id,
               const join_budget& budget);
  // The state that answers a join: with `last_seq`, the missed events if `replay` and the history
  // still holds them, else resync.
  std::string catch_up_frame(engine::viewer v, std::optional<std::uint64_t> last_seq, bool replay = true) const;
  // Keeps the events of state `seq` (serialized: make_state_parts or serialize_events) for
  // resuming clients (history_) and for the game log.
  struct state_parts;
  void keep_events(std::uint64_t seq, const state_parts& parts);
  void keep_events(std::uint64_t seq, const engine::events& evs);  // replaying the journal
  // A new game begins: its players (ids and names, by game seat) and an empty history and log.
  void begin_game_memory(std::vector<std::string> player_ids, json names);
  // Whose eyes a member sees the current or last game with: during a game its seat; after it, the
  // seat its player had in that game (seats move when a game ends), else a spectator's.
  engine::viewer game_viewer(int seat_index, const std::string& player_id) const;
  // The game_log push: every kept event of the current game that `v` may see, oldest first.
  std::string game_log_frame(engine::viewer v) const;
  void do_kick(const pptr& p, const std::string& player, const json& id);
  void do_close_room(const pptr& p, const json& id);
  void do_leave(std::uint64_t connection, const pptr& p, const json& id);
  void do_set_options(const pptr& p, json options, const json& id);
  void do_start(const pptr& p, std::optional<int> first_seat, const json& id);
  void do_action(const pptr& p, const json& command, const json& id);
  void do_expire();

  void reply_error(const pptr& p, const json& id, std::string_view code, std::string_view message);
  // The `ok` of an accepted request; none for a request without an id (docs/protocol.md, "The envelope").
  void reply_ok(const pptr& p, const json& id, json extra = json::object());
  void send_to_all(const frame_ptr& frame);
  // Replays one journal record of the current game; false if the engine refuses it.
  bool replay_game_record(const json& r, std::string& why);
  // Outside a game: frees the seats whose players stayed disconnected past the lobby grace.
  void arm_seat_timer();
  void free_expired_seats();
  // `prepared`: the room push, already serialized (room_json() as it is now).
  void broadcast_room(frame_ptr prepared = nullptr);
  json room_json() const;
  // Renews public_summary()'s copy (on the strand, or before anyone can reach the room).
  void refresh_public_summary();
  // After the game changed: bump seq, send each member its state, arm the prompt timer.
  void broadcast_state(const engine::events& evs);
  // A state frame is put together from serialized parts: what every viewer of one broadcast shares
  // (events, prompt, result, and the view where the game hides nothing) is serialized once, and
  // per viewer only its seat, its legal commands, and what differs.
  state_parts make_state_parts(const engine::events& evs) const;
  // Only the events' part of it (each body serialized, and who may see it).
  static state_parts serialize_events(const engine::events& evs);
  // The rest of it, from the events in `s`: the events array, prompt, result, view.
  void complete_state_parts(state_parts& s) const;
  std::string state_frame(engine::viewer v, const state_parts& parts, std::string_view extra = {}) const;
  // One viewer's frame on its own (catch-up, resync); `extra`: more members, e.g. "resync":true.
  std::string state_frame(engine::viewer v, const engine::events& evs, const json& extra = nullptr) const;
  // Applies a seat's command (from a player or the bot) and tells everyone.
  engine::outcome<engine::events> play(int seat_index, const json& command);
  void arm_prompt_timer();
  std::optional<std::chrono::steady_clock::time_point> seat_due(const seat& st, const engine::prompt& pr) const;
  void on_prompt_timer(std::uint64_t serial);
  void do_skip(const pptr& p, int seat_index, const json& id);
  // The rulebook default for `due`, seats of the open prompt `pr`: the whole prompt's default when
  // it is `whole` or they are all its seats, else the one seat's default entry. `by_host`: a skip.
  void apply_default(const engine::prompt& pr, const std::vector<int>& due, bool whole, bool by_host);
  // A seat's answer to a simultaneous prompt played by default: the first of its concrete legal
  // entries that answers the open prompt (the seat leaves the prompt, which stays open for the
  // others), else the first concrete entry; null if none.
  json seat_default_entry(int seat_index) const;
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
  const engine::game_info& game_;
  json options_;
  const config& cfg_;
  on_expired_fn on_expired_;

  std::atomic<status> status_{status::lobby};  // atomic only so that status_name() may read it
  bool closed_ = false;
  std::string host_;  // player id
  std::vector<seat> seats_;
  std::map<std::uint64_t, member> members_;

  std::unique_ptr<engine::game> game_state_;
  std::unique_ptr<engine::seeded_dice> dice_;
  std::uint64_t seed_ = 0;
  std::optional<int> first_seat_;
  std::uint64_t seq_ = 0;
  std::optional<std::chrono::system_clock::time_point> deadline_;
  std::uint64_t prompt_serial_ = 0;  // the prompt the timer was armed for, and when it opened
  std::chrono::steady_clock::time_point prompt_opened_{};
  json last_result_;
  std::deque<history_entry> history_;
  // The current (or last finished) game: its events for the game_log push (the last
  // cfg_.game_log_events), whether older ones were dropped, and its players by game seat.
  std::deque<logged_event> event_log_;
  bool event_log_truncated_ = false;
  std::vector<std::string> game_players_;  // player ids
  json game_names_ = json::array();        // names, as they were when the game started
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
  json public_summary_;
  mutable std::mutex public_summary_mutex_;

  // The journal, and the operation in flight: records to write, what to tell once written.
  storage::journal* journal_ = nullptr;
  std::vector<storage::record> records_;
  std::vector<outgoing> outbox_;
  bool writing_ = false;  // a batch is being written: operations wait in deferred_
  struct deferred_op {
    std::function<void(room&)> f;
    pptr sender;
    json id;
    op_kind kind;
  };
  std::deque<deferred_op> deferred_;
  std::string journaled_lobby_;  // the last seat snapshot written
  int commands_since_hash_ = 0;
  json game_log_ = json::array();  // the running game's journal records, for its game record
  std::string record_id_;          // the finished game's record (empty: none)
  std::deque<json> chat_;          // the last chat_history_lines chat messages, for late joiners
  mutable std::size_t frame_size_hint_ = 0;  // the last state frame's size: the next one's buffer

  boost::asio::steady_timer prompt_timer_;
  boost::asio::steady_timer bot_timer_;
  boost::asio::steady_timer seat_timer_;  // frees seats disconnected past the lobby grace
  boost::asio::steady_timer empty_timer_;
};

}  // namespace tinsel::server
