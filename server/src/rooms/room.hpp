#pragma once
// A private room: seats, spectators, host, chat, and the game. All of its state lives on its own
// strand; every public method only posts onto that strand, so it may be called from any thread.
// No mutex guards room or game state.
#include <atomic>
#include <chrono>
#include <deque>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>
#include <nlohmann/json.hpp>

#include "tinsel/server/config.hpp"
#include "rooms/participant.hpp"
#include "tinsel/engine/game.hpp"

namespace tinsel::server {

using json = nlohmann::json;

struct identity {
  std::string player_id;  // public, stable for the connection's lifetime
  std::string name;
};

class room : public std::enable_shared_from_this<room> {
 public:
  using on_expired_fn = std::function<void(const std::string& code)>;

  room(boost::asio::any_io_executor ex, std::string code, const engine::game_info& game, json options,
       const config& cfg, on_expired_fn on_expired);

  const std::string& code() const { return code_; }
  const engine::game_info& game_info() const { return game_; }
  // "lobby", "playing" or "finished"; safe to call from any thread (for /metrics).
  std::string_view status_name() const {
    const status s = status_;
    return s == status::lobby ? "lobby" : s == status::playing ? "playing" : "finished";
  }

  // Joins as a player or spectator. A player who already holds a seat here (same player id, e.g.
  // after resuming with its token) gets that seat back; with `last_seq` it then receives every
  // event it missed, or a full state if they are no longer in the history.
  void join(std::shared_ptr<participant> p, identity who, bool spectator, std::optional<std::uint64_t> last_seq,
            json request_id);
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
  // Server shutdown: cancel timers, forget members.
  void close();

 private:
  enum class status { lobby, playing, finished };
  struct seat {
    std::string player_id;        // empty: free seat
    std::string name;
    std::uint64_t connection = 0; // 0: nobody connected to this seat
    bool gone = false;            // left for good during a game: played by the bot
    bool bot = false;             // a server-side bot sits here
    bool away = false;            // rulebook C5: timed out repeatedly; prompts resolve quickly
    int timeouts = 0;             // consecutive timeouts
    std::chrono::steady_clock::time_point disconnected_at{};
    bool played_by_server() const { return bot || gone; }
  };
  struct history_entry {
    std::uint64_t seq;
    engine::events evs;
  };
  struct member {
    std::weak_ptr<participant> p;
    identity who;
    int seat = -1;  // -1: spectator
  };

  template <class F>
  void dispatch(F&& f);

  void do_join(const std::shared_ptr<participant>& p, identity who, bool spectator,
               std::optional<std::uint64_t> last_seq, const json& id);
  void send_catch_up(participant& p, engine::viewer v, std::optional<std::uint64_t> last_seq);
  void do_kick(participant& p, const std::string& player, const json& id);
  void do_close_room(participant& p, const json& id);
  void remove_member(std::uint64_t connection);
  void do_leave(std::uint64_t connection, participant* p, const json& id);
  void do_set_options(participant& p, json options, const json& id);
  void do_start(participant& p, std::optional<int> first_seat, const json& id);
  void do_action(participant& p, const json& command, const json& id);

  static void reply_error(participant& p, const json& id, std::string_view code, std::string_view message);
  void send_to_all(const std::shared_ptr<const std::string>& frame);
  // Outside a game: frees the seats whose players stayed disconnected past the lobby grace.
  void arm_seat_timer();
  void free_expired_seats();
  void broadcast_room();
  json room_json() const;
  // After the game changed: bump seq, send each member its state, arm the prompt timer.
  void broadcast_state(const engine::events& evs);
  std::string state_frame(engine::viewer v, const engine::events& evs, const json& extra = nullptr) const;
  // Applies a seat's command (from a player or the bot) and tells everyone.
  engine::outcome<engine::events> play(int seat_index, const json& command);
  void arm_prompt_timer();
  std::optional<std::chrono::steady_clock::time_point> seat_due(const seat& st, const engine::prompt& pr) const;
  void on_prompt_timer(std::uint64_t serial);
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
  bool check_host(participant& p, const json& id, std::string_view what);

  boost::asio::strand<boost::asio::any_io_executor> strand_;
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
  std::uint64_t seq_ = 0;
  std::optional<std::chrono::system_clock::time_point> deadline_;
  std::uint64_t prompt_serial_ = 0;  // the prompt the timer was armed for, and when it opened
  std::chrono::steady_clock::time_point prompt_opened_{};
  json last_result_;
  std::deque<history_entry> history_;
  // Spectators of the current game (player ids): only they and seated players are caught up with
  // missed events; a new spectator gets the current state alone.
  std::set<std::string> watchers_;
  // Player ids the host removed, for the room's lifetime: they may watch but never sit again
  // (a player kicked mid-game would otherwise take the seat back from the bot).
  std::set<std::string> kicked_;
  int bots_added_ = 0;

  boost::asio::steady_timer prompt_timer_;
  boost::asio::steady_timer bot_timer_;
  boost::asio::steady_timer seat_timer_;  // frees seats disconnected past the lobby grace
  boost::asio::steady_timer empty_timer_;
};

}  // namespace tinsel::server
