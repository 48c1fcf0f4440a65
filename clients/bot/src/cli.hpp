// Command line of tinsel-bot.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace tinsel_bot {

struct settings {
  std::string url = "ws://127.0.0.1:8080/ws";
  std::string name = "Tinsel Bot";

  // Exactly one of create_game / join_code is set.
  std::optional<std::string> create_game;
  std::optional<std::string> join_code;

  nlohmann::json options = nlohmann::json::object();  // create_room.options
  int wait_players = 0;                               // 0: the game's minimum
  int add_bots = 0;                                   // server bots the host seats
  int first_seat = -1;                                // host-picks: -1 chooses at random
  bool spectate = false;

  int games = 1;
  std::uint64_t seed = 0;
  bool seed_given = false;
  std::chrono::milliseconds think{300};
  double stop_chance = 0.05;  // Christmas Penguins: chance to claim "Stop!" when offered
  int reconnect_attempts = 5;
  bool quiet = false;
  bool verbose = false;
};

struct parse_result {
  std::optional<settings> s;  // nullopt: print `output` and exit with `exit_code`
  std::string output;
  int exit_code = 0;
};

parse_result parse_args(const std::vector<std::string>& args);
std::string usage();

}  // namespace tinsel_bot
