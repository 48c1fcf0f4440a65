// The rooms a run drives. Each room owns its connections and runs entirely on its own lane.
//
// tinsel_room plays one of Tinsel's games closed-loop (docs/protocol.md is all it knows of the
// server): exactly one command in flight per room, chosen from the newest state once every member
// has received it. echo_room drives tinsel-echo in the same shape. Both report "ready" once they
// are set up (and, when they play, once the first game has started), so the run can start its
// clock when every room is going.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "run_state.hpp"
#include "ws.hpp"

namespace tinsel_loadgen {

struct room_settings {
  ws_target target;
  connection_options conn;
  int players = 4;
  std::string game;         // tinsel: the game id
  nlohmann::json options;   // tinsel: create_room.options
  bool view_changes = false;  // tinsel: hello asks for views as changes (views: "changes")
  // tinsel: how far a room goes. join: hello, create and join only; start: also start a game and
  // then sit still (both for the idle mode); play: play games closed-loop.
  enum class plan { join, start, play };
  plan goal = plan::play;
  // echo: the sizes of the frames every member receives, in order (--sizes); none: the action's.
  std::shared_ptr<const std::vector<std::size_t>> echo_sizes;
  // tinsel: record the size of every state (the mean over the room's members) for --record-sizes.
  bool record_sizes = false;
};

class room {
 public:
  virtual ~room() = default;
  // Opens the connections and sets the room up; `ready` is called once (on the room's lane) when
  // the room is going, or has given up (its error is counted then).
  virtual void start(std::function<void()> ready) = 0;
  // Closes every connection (on the room's lane); run.stopping must be set before.
  virtual void stop() = 0;
  // The own-move latencies measured in the window. Call only after the event loop has stopped.
  virtual std::vector<std::uint64_t>& samples() = 0;
  // The sizes recorded in the window (settings.record_sizes). Only after the event loop has stopped.
  virtual const std::vector<std::size_t>& state_sizes() const { return no_sizes_; }

 private:
  std::vector<std::size_t> no_sizes_;
};

std::shared_ptr<room> make_tinsel_room(int index, std::shared_ptr<lane> on, const room_settings& settings,
                                       run_state& run, std::uint64_t seed);
std::shared_ptr<room> make_echo_room(int index, std::shared_ptr<lane> on, const room_settings& settings,
                                     run_state& run);

}  // namespace tinsel_loadgen
