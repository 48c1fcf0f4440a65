// One bot player: a protocol session on one event loop.
//
// It says hello, creates or joins a room, (as host) starts games once enough seats are taken, and
// answers every `state` push whose prompt names its seat with a command from `legal`. Its picture
// of the room is the latest `room` and `state` push: pushes are the truth, an `ok` only says a
// request was accepted. A lost connection is resumed with the welcome token and `last_seq`.
// Cluster mode (docs/protocol.md): once the room is known every connection carries it
// (`/ws?room=CODE`), and a `room_moved` is followed to its `ws` path, at most 5 hops in a row.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "chooser.hpp"
#include "cli.hpp"
#include "ws.hpp"

namespace tinsel_bot {

class player {
 public:
  player(event_loop& loop, settings s, ws_url url);
  ~player();
  player(const player&) = delete;
  player& operator=(const player&) = delete;

  // Connects; the loop then runs until the bot is done.
  void start();
  int exit_code() const { return exit_code_; }

 private:
  void connect();
  // Where the next connection goes: the path a room_moved named (once), else the base path with
  // ?room=CODE once a room is known, else the base path.
  std::string next_path();
  void on_open();
  void on_message(const std::string& text);
  void on_closed(const close_info& info);

  int request(json msg, const std::string& purpose);
  void enter_room();

  void on_welcome(const json& m);
  void on_ok(const json& m, const std::string& purpose);
  void on_error(const json& m, const std::string& purpose);
  void on_room(const json& m);
  void on_state(const json& m);

  void maybe_start_game();
  void consider_move();
  void act();

  // Ends the session: leaves the room, closes, stops the loop. code != 0 prints why as an error.
  void finish(int code, const std::string& why);
  void stop_loop();

  void log(const std::string& line) const;
  std::string seat_name(int seat) const;
  std::string describe(const json& event) const;

  event_loop& loop_;
  settings s_;
  ws_url url_;
  chooser chooser_;
  std::mt19937_64 rng_;  // the host's other choices (who starts)
  std::unique_ptr<ws_connection> conn_;
  bool connected_ = false;
  int reconnects_left_;
  int reconnect_delay_ms_ = 500;
  std::string moved_path_;  // the `ws` of a room_moved on this connection (then close 4002)
  bool moved_ = false;
  int moved_wait_ms_ = -1;  // its retry_after_ms, when it had one
  std::string hop_path_;    // the path the next connection uses once, after a room_moved
  int hops_ = 0;            // room_moved hops since a join was last answered ok

  // Session and room, as the server last told us.
  std::string token_;
  std::string player_id_;
  std::string room_code_;
  std::optional<int> seat_;
  bool code_printed_ = false;
  json room_;   // the `room` object of the latest room push
  json state_;  // the latest state push
  std::optional<std::uint64_t> last_seq_;
  bool catch_up_pending_ = false;  // a rejoin was sent: its state may repeat last_seq_

  int next_id_ = 1;
  std::map<int, std::string> pending_;  // request id → what it was for

  int games_done_ = 0;
  bool start_in_flight_ = false;
  bool game_running_ = false;  // a state with over=false was seen since the last over

  std::uint64_t think_generation_ = 0;  // a scheduled move runs only if no state came since
  bool action_in_flight_ = false;
  json acted_;                         // the last command sent, and the seq of the state it answered
  std::uint64_t acted_seq_ = 0;
  std::vector<json> refused_;          // entries of the current state the server refused

  bool done_ = false;
  bool loop_stopped_ = false;
  int exit_code_ = 0;
};

}  // namespace tinsel_bot
