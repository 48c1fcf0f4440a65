#include "cli.hpp"

#include <charconv>
#include <stdexcept>

namespace tinsel_bot {

namespace {

template <class T>
bool parse_number(const std::string& s, T& out, T min, T max) {
  T v{};
  const auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || p != s.data() + s.size() || v < min || v > max) return false;
  out = v;
  return true;
}

parse_result fail(const std::string& why) {
  return {std::nullopt, "tinsel-bot: " + why + "\nTry 'tinsel-bot --help'.\n", 2};
}

}  // namespace

std::string usage() {
  return R"(tinsel-bot: the reference Tinsel client. It plays Happy Holidays, Unterm Baum and
Christmas Penguins on any Tinsel server, speaking only the documented protocol (docs/protocol.md).

Usage:
  tinsel-bot [--url URL] [--name NAME] --create GAME [host options] [common options]
  tinsel-bot [--url URL] [--name NAME] --join CODE [--spectate] [common options]

  --url URL            server WebSocket address (default ws://127.0.0.1:8080/ws); an http://
                       address of the server is accepted too and means its /ws
  --name NAME          display name, 1-32 characters (default "Tinsel Bot")

Creating a room (the bot is the host):
  --create GAME        happy_holidays, unterm_baum or christmas_penguins
  --options JSON       room options as a JSON object, e.g. '{"maxPlayers":2,"mainTimeoutSec":"off"}'
                       (options left out take the server's defaults)
  --wait-players N     start once N seats are taken, bots included (default: the game's minimum)
  --add-bots N         seat N server bots right after creating the room
  --first-seat N       with startPlayer "host-picks": who starts (default: a seeded random player)

Joining a room:
  --join CODE          the room code (case and dashes do not matter)
  --spectate           watch instead of taking a seat

Common options:
  --games N            games to play before leaving (default 1); the host starts each one
  --seed S             seed of the bot's choices (default: random; printed in the log)
  --think-ms MS        pause before each move, so people can follow (default 300; 0 for tests)
  --stop-chance P      Christmas Penguins: chance (0-1) to shout "Stop!" when it may (default 0.05)
  --reconnect N        reconnection attempts after a lost connection (default 5; 0 disables)
  --quiet              no game log on stderr (stdout lines are still printed)
  --verbose            also log every message received and sent on stderr
  --help               show this text

Output on stdout, one line each, for scripts:
  room CODE            the room was created (host) or joined
  invite URL           (host) the browser address that joins the room
  result JSON          a game ended: the state's `result` (scores, winners, seed, ...)
The game log goes to stderr. Exit status: 0 when the requested games were played (or watched),
1 on an error the bot cannot recover from (the reason is printed), 2 on a bad command line.
)";
}

parse_result parse_args(const std::vector<std::string>& args) {
  settings s;
  for (std::size_t i = 1; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a == "--help" || a == "-h") return {std::nullopt, usage(), 0};
    if (a == "--spectate") {
      s.spectate = true;
      continue;
    }
    if (a == "--quiet" || a == "-q") {
      s.quiet = true;
      continue;
    }
    if (a == "--verbose" || a == "-v") {
      s.verbose = true;
      continue;
    }
    if (i + 1 >= args.size()) return fail(a.starts_with("--") ? a + " needs a value" : "unexpected argument '" + a + "'");
    const std::string& v = args[++i];
    if (a == "--url") {
      s.url = v;
    } else if (a == "--name") {
      s.name = v;
    } else if (a == "--create") {
      s.create_game = v;
    } else if (a == "--join") {
      s.join_code = v;
    } else if (a == "--options") {
      try {
        s.options = nlohmann::json::parse(v);
      } catch (const nlohmann::json::exception&) {
        return fail("--options is not valid JSON: " + v);
      }
      if (!s.options.is_object()) return fail("--options must be a JSON object");
    } else if (a == "--wait-players") {
      if (!parse_number(v, s.wait_players, 1, 64)) return fail("--wait-players needs a number from 1 to 64");
    } else if (a == "--add-bots") {
      if (!parse_number(v, s.add_bots, 0, 64)) return fail("--add-bots needs a number from 0 to 64");
    } else if (a == "--first-seat") {
      if (!parse_number(v, s.first_seat, 0, 64)) return fail("--first-seat needs a seat number");
    } else if (a == "--games") {
      if (!parse_number(v, s.games, 1, 1000000)) return fail("--games needs a positive number");
    } else if (a == "--seed") {
      if (!parse_number(v, s.seed, std::uint64_t{0}, ~std::uint64_t{0})) return fail("--seed needs a non-negative integer");
      s.seed_given = true;
    } else if (a == "--think-ms") {
      long long ms = 0;
      if (!parse_number(v, ms, 0LL, 600000LL)) return fail("--think-ms needs milliseconds from 0 to 600000");
      s.think = std::chrono::milliseconds(ms);
    } else if (a == "--stop-chance") {
      try {
        std::size_t used = 0;
        s.stop_chance = std::stod(v, &used);
        if (used != v.size() || !(s.stop_chance >= 0 && s.stop_chance <= 1)) throw std::invalid_argument(v);
      } catch (const std::exception&) {
        return fail("--stop-chance needs a number from 0 to 1");
      }
    } else if (a == "--reconnect") {
      if (!parse_number(v, s.reconnect_attempts, 0, 1000)) return fail("--reconnect needs a number from 0 to 1000");
    } else {
      return fail("unknown option '" + a + "'");
    }
  }
  if (s.create_game.has_value() == s.join_code.has_value()) return fail("give exactly one of --create GAME and --join CODE");
  if (s.spectate && s.create_game) return fail("--spectate goes with --join");
  if (s.join_code && (s.add_bots > 0 || s.wait_players > 0 || !s.options.empty() || s.first_seat >= 0))
    return fail("--options, --wait-players, --add-bots and --first-seat go with --create");
  return {std::move(s), {}, 0};
}

}  // namespace tinsel_bot
