// tinsel-engine-bench: how fast each game engine plays, on one core, through the type-erased
// interface the server uses (engine/include/tinsel/engine/game.hpp). See bench/README.md.
//
// Rates are per second of this thread's CPU time (one core), so a busy machine changes them little.
// Per game, 4 players, default options with every timer that can be switched off switched off:
//   (a) random play: a seat of prompt.seats, a random entry of commands(seat) (legal(seat) with the
//       domains a game lists one by one written out, never a `domain` entry), apply; a prompt that awaits nobody (Unterm Baum's memorising) times out; a new
//       game when one is over. Counts applied commands.
//   (b) (a) plus legal(seat) and view(seat) for every seat and view(spectator) after each command.
//   (c) (a) plus, after each command, the state frame of every seat and the spectator built as the
//       server builds it (protocol::complete_state_parts, protocol::make_state): the parts every viewer shares
//       (events, prompt, result, the shared view) serialized once per command, then per viewer its
//       legal list (and its view where the game has no shared one) spliced in; legal and the shared
//       view as the game's own text where it writes one (game::write_legal, write_shared_view),
//       otherwise its json through protocol::dump (always so with --json-frames); reports the
//       average frame size too.
//   (d) legal(seat) + view(seat) for the four seats on a fixed mid-game position: rounds of four
//       seats per second (calls per second = 8 × rounds).
//   (d-text) the same position and rounds, but each seat's legal list and view as the text the
//       server splices into its frames, into one reused buffer: write_legal(seat), and the view
//       from write_shared_view (else the shared view, else view(seat), dumped); four of each per
//       round. --json-frames dumps the json documents instead, as in (c).
//
//
// --frame-sizes instead plays each game with default options (plus --options) for every player
// count it allows, for S seconds or N games (--games) each, builds every seat's and the spectator's
// state frame after each command as in (c), and prints the average, the 99th percentile and the
// largest frame, which seat it went to and what its legal list held: the figures docs/protocol.md
// quotes under Limits.
//
//   tinsel-engine-bench [--seconds S] [--repeat N] [--game ID] [--json] [--seed N] [--only a|b|c|d|d-text]
//                       [--json-frames]
//
// --bot-games N instead plays N games per game and player count with the server's bot on every
// seat (choose_bot_command), default options and no round cap beyond the game's own, and prints
// the median rounds and commands and how many games reached the round cap: the figures the rules
// pages quote for "an evening's game" and the picker's estimates.
//
//   tinsel-engine-bench --frame-sizes [--seconds S | --games N] [--game ID] [--options JSON] [--seed N]
//   tinsel-engine-bench --bot-games N [--game ID] [--options JSON] [--seed N]
#include <algorithm>
#include <map>
#include <chrono>
#include <ctime>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "tinsel/engine/bot.hpp"
#include "tinsel/engine/game.hpp"
#include "tinsel/protocol/messages.hpp"

namespace {

using namespace tinsel::engine;
using json = nlohmann::json;

// CPU time of this thread: the figures are per core and do not drop when other processes share the
// machine's cores (wall time would).
struct clock_type {
  using duration = std::chrono::nanoseconds;
  using time_point = std::chrono::time_point<clock_type, duration>;
  static time_point now() {
    timespec ts{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return time_point(duration(static_cast<long long>(ts.tv_sec) * 1000000000LL + ts.tv_nsec));
  }
};

constexpr int players = 4;

// Default options, timers off where the game has such an option.
json bench_options(const std::string& id) {
  if (id == "happy_holidays") return {{"mainTimeoutSec", "off"}, {"subPromptTimeoutSec", "off"}};
  if (id == "christmas_penguins")
    return {{"mainTimeoutSec", "off"}, {"subPromptTimeoutSec", "off"}, {"stopSeconds", "off"}};
  if (id == "unterm_baum") return {{"assignSeconds", "off"}, {"mainTimeoutSec", "off"}};
  return json::object();
}

// The work done after each command, on top of random play.
enum class extra { none, legal_view, frames };

struct result_row {
  std::string id;
  double play = 0, legal_view = 0, frames = 0, frame_bytes = 0, position = 0, position_text = 0;
  long games = 0;
};

volatile std::size_t sink = 0;  // keeps the optimiser from dropping what is measured

class player {
 public:
  player(const game_info& info, std::uint64_t seed, int seats = players, const json& options = json())
      : info_(info), dice_(seed), pick_(seed ^ 0x5bd1e995ULL), seats_(seats) {
    options_ = info.normalize_options(options.is_null() ? bench_options(info.id) : options).value();
    new_game();
  }

  // One step: a command of a prompted seat, or the timeout of a prompt that awaits nobody.
  // Returns true if a command was applied.
  bool step(events& evs) {
    if (game_->is_over()) new_game();
    const auto pr = game_->current_prompt();
    if (pr->seats.empty()) {
      evs = game_->on_timeout(pr->serial, dice_);
      return false;
    }
    const int seat = pr->seats[pick_.roll(static_cast<std::uint32_t>(pr->seats.size()))];
    // commands(): the concrete entries with the domains written out where a game lists them (the
    // lists legal held before issue 32), so that a seed plays the same games before and after.
    const json legal = game_->commands(seat);
    concrete_.clear();
    for (const auto& e : legal)
      if (!e.contains("domain")) concrete_.push_back(&e);
    if (concrete_.empty()) {
      std::fprintf(stderr, "%s: prompted seat %d has no concrete legal entry\n", info_.id.c_str(), seat);
      std::exit(1);
    }
    const json& e = *concrete_[pick_.roll(static_cast<std::uint32_t>(concrete_.size()))];
    auto r = game_->apply(seat, e, dice_);
    if (!r.ok()) {
      std::fprintf(stderr, "%s: legal %s rejected: %s\n", info_.id.c_str(), e.dump().c_str(), r.error().code.c_str());
      std::exit(1);
    }
    evs = std::move(r.value());
    return true;
  }

  game& current() { return *game_; }
  long games() const { return games_; }

 private:
  void new_game() {
    setup su;
    su.options = options_;
    su.players = seats_;
    su.first_seat = 0;
    auto created = info_.create(su, dice_);
    if (!created.ok()) {
      std::fprintf(stderr, "%s: create failed: %s\n", info_.id.c_str(), created.error().message.c_str());
      std::exit(1);
    }
    game_ = std::move(created.value());
    ++games_;
  }

  const game_info& info_;
  seeded_dice dice_;
  seeded_dice pick_;
  int seats_;
  json options_;
  std::unique_ptr<game> game_;
  std::vector<const json*> concrete_;  // the current legal list's entries without a domain
  long games_ = 0;
};

// --json-frames: leave out game::write_legal and write_shared_view, as for a game without them.
bool json_frames = false;

// The parts of a state frame that every viewer of one broadcast shares, built by the protocol's
// own state builder as the room builds them (protocol/include/tinsel/protocol/outgoing.hpp; no
// timers here, so no deadline, and a made-up room code and seed).
tinsel::protocol::state_parts make_parts(const game& g, const events& evs, std::uint64_t seq) {
  json result = nullptr;
  if (g.is_over()) {
    result = g.result();
    result["seed"] = "12345678901234567890";
  }
  auto parts = tinsel::protocol::serialize_events(evs);
  tinsel::protocol::complete_state_parts(parts, g, {"BENCH7", seq, std::nullopt, result}, !json_frames);
  return parts;
}

// One viewer's frame from the parts, as the room puts it together.
std::string state_frame(const game& g, viewer v, const tinsel::protocol::state_parts& s) {
  static std::size_t size_hint = 0;
  return tinsel::protocol::make_state(g, v, s, size_hint, {}, !json_frames);
}

struct run_stats {
  double per_second = 0;
  double frame_bytes = 0;
  long games = 0;
};

run_stats random_play(const game_info& info, double seconds, std::uint64_t seed, extra what) {
  player p(info, seed);
  long commands = 0, frames = 0;
  std::uint64_t bytes = 0, seq = 0;
  events evs;
  const auto start = clock_type::now();
  const auto until = start + std::chrono::duration_cast<clock_type::duration>(std::chrono::duration<double>(seconds));
  auto now = start;
  for (long i = 0;; ++i) {
    if ((i & 63) == 0) {
      now = clock_type::now();
      if (now >= until) break;
    }
    evs.clear();
    if (p.step(evs)) ++commands;
    const game& g = p.current();
    switch (what) {
      case extra::none: break;
      case extra::legal_view: {
        std::size_t n = 0;
        for (int s = 0; s < players; ++s) n += g.legal(s).size() + g.view(viewer::player(s)).size();
        n += g.view(viewer::spectator()).size();
        sink = sink + n;
        break;
      }
      case extra::frames: {
        const auto parts = make_parts(g, evs, ++seq);
        for (int s = -1; s < players; ++s) {
          const auto f = state_frame(g, s < 0 ? viewer::spectator() : viewer::player(s), parts);
          bytes += f.size();
          ++frames;
        }
        break;
      }
    }
  }
  const double elapsed = std::chrono::duration<double>(now - start).count();
  run_stats r;
  r.per_second = static_cast<double>(commands) / elapsed;
  r.frame_bytes = frames ? static_cast<double>(bytes) / static_cast<double>(frames) : 0;
  r.games = p.games();
  return r;
}

// How (d) asks for each seat's legal list and view: as json documents, or as the text the server
// writes into its frames.
enum class position_form { json_documents, frame_text };

// legal + view of the four seats on the position halfway through the game of `seed`.
double fixed_position(const game_info& info, double seconds, std::uint64_t seed, position_form form) {
  long total = 0;
  {
    player p(info, seed);
    events evs;
    while (p.games() == 1) {
      p.step(evs);
      ++total;
    }
  }
  player p(info, seed);
  events evs;
  for (long i = 0; i < total / 2; ++i) p.step(evs);
  const game& g = p.current();
  long rounds = 0;
  std::string text;  // (d-text): one buffer for every round, as the server reuses its frame's capacity
  const auto start = clock_type::now();
  const auto until = start + std::chrono::duration_cast<clock_type::duration>(std::chrono::duration<double>(seconds));
  auto now = start;
  for (long i = 0;; ++i) {
    if ((i & 15) == 0) {
      now = clock_type::now();
      if (now >= until) break;
    }
    std::size_t n = 0;
    if (form == position_form::json_documents) {
      for (int s = 0; s < players; ++s) n += g.legal(s).size() + g.view(viewer::player(s)).size();
    } else {
      // What state_frame splices in per seat: the legal list and the view, as text where the game
      // writes it, else dumped from json (the shared view if there is one, else the seat's own).
      text.clear();
      for (int s = 0; s < players; ++s) {
        if (json_frames || !g.write_legal(s, text)) tinsel::protocol::dump_to(text, g.legal(s));
        if (json_frames || !g.write_shared_view(text)) {
          if (const auto shared = g.shared_view()) tinsel::protocol::dump_to(text, *shared);
          else tinsel::protocol::dump_to(text, g.view(viewer::player(s)));
        }
      }
      n = text.size();
    }
    sink = sink + n;
    ++rounds;
  }
  return static_cast<double>(rounds) / std::chrono::duration<double>(now - start).count();
}

std::string grouped(double v);

// The state frames of a game for every player count it allows (--frame-sizes): the average, the
// 99th percentile and the largest, which seat it went to and what its legal list held. S seconds
// per row, or N whole games per row with --games N (the same games before and after a change).
int frame_sizes(const std::vector<const game_info*>& games, double seconds, int game_count, const json& extra,
                std::uint64_t seed) {
  std::printf("%-20s %7s %6s %9s %9s %9s %9s %6s  %s\n", "game", "players", "games", "frames", "average", "p99",
              "largest", "legal", "largest legal list");
  for (const auto* info : games) {
    for (int n = 2; n <= 6; ++n) {
      json options = extra;
      options["maxPlayers"] = n;
      if (!info->normalize_options(options).ok()) continue;  // more players than the game seats
      player p(*info, seed + static_cast<std::uint64_t>(n), n, options);
      std::size_t largest = 0, largest_legal = 0;
      std::uint64_t bytes = 0, seq = 0;
      std::vector<std::uint32_t> all;
      std::string what;
      events evs;
      const auto until = clock_type::now() + std::chrono::duration_cast<clock_type::duration>(std::chrono::duration<double>(seconds));
      while (game_count > 0 ? p.games() <= game_count : clock_type::now() < until) {
        if (game_count > 0 && p.games() == game_count && p.current().is_over()) break;
        evs.clear();
        p.step(evs);
        const game& g = p.current();
        const auto parts = make_parts(g, evs, ++seq);
        for (int s = -1; s < n; ++s) {
          const auto f = state_frame(g, s < 0 ? viewer::spectator() : viewer::player(s), parts);
          bytes += f.size();
          all.push_back(static_cast<std::uint32_t>(f.size()));
          if (f.size() <= largest) continue;
          largest = f.size();
          const json legal = s < 0 ? json::array() : g.legal(s);
          largest_legal = legal.size();
          std::map<std::string, int> kinds;
          for (const auto& e : legal) ++kinds[e.value("kind", "?") + (e.contains("domain") ? " (domain)" : "")];
          what.clear();
          for (const auto& [k, c] : kinds) what += (what.empty() ? "" : ", ") + std::to_string(c) + " " + k;
          if (g.is_over()) what += (what.empty() ? "" : ", ") + std::string("the last state");
        }
      }
      std::uint32_t p99 = 0;
      if (!all.empty()) {
        const auto k = all.begin() + static_cast<std::ptrdiff_t>((all.size() - 1) * 99 / 100);
        std::nth_element(all.begin(), k, all.end());
        p99 = *k;
      }
      std::printf("%-20s %7d %6ld %9zu %9s %9s %9s %6zu  %s\n", info->id.c_str(), n, p.games(), all.size(),
                  grouped(all.empty() ? 0 : static_cast<double>(bytes) / static_cast<double>(all.size())).c_str(),
                  grouped(p99).c_str(), grouped(static_cast<double>(largest)).c_str(), largest_legal, what.c_str());
    }
  }
  std::printf("bytes of one state frame (JSON text) per viewer (every seat and a spectator) after each command, random play, "
              "options %s but maxPlayers, %s per row\n",
              extra.dump().c_str(), game_count > 0 ? (std::to_string(game_count) + " games").c_str() : (std::to_string(seconds) + " s").c_str());
  return 0;
}

// Bot games per player count (--bot-games): how long a game of default options runs.
int bot_games(const std::vector<const game_info*>& games, int count, const json& extra, std::uint64_t seed) {
  std::printf("%-20s %7s %14s %16s %10s\n", "game", "players", "rounds (med)", "commands (med)", "round cap");
  for (const auto* info : games) {
    for (int n = 2; n <= 6; ++n) {
      json options = extra;
      options["maxPlayers"] = n;
      const auto normalized = info->normalize_options(options);
      if (!normalized.ok()) continue;  // more players than the game seats
      std::vector<long> rounds, commands;
      int capped = 0;
      for (int g = 0; g < count; ++g) {
        seeded_dice dice(seed + static_cast<std::uint64_t>(1000 * n + g));
        setup su;
        su.options = normalized.value();
        su.players = n;
        su.first_seat = 0;
        auto created = info->create(su, dice);
        if (!created.ok()) continue;
        auto game = std::move(created.value());
        long steps = 0;
        while (!game->is_over()) {
          const auto pr = game->current_prompt();
          const json cmd = pr->seats.empty() ? json() : choose_bot_command(*game, pr->seats.front(), seed + static_cast<std::uint64_t>(steps));
          if (cmd.is_null() || !game->apply(pr->seats.front(), cmd, dice)) game->on_timeout(pr->serial, dice);
          else ++steps;
        }
        rounds.push_back(game->view(viewer::spectator()).value("round", 0L));
        commands.push_back(steps);
        if (game->result().value("reason", "") == "round_cap") ++capped;
      }
      if (rounds.empty()) continue;
      std::sort(rounds.begin(), rounds.end());
      std::sort(commands.begin(), commands.end());
      std::printf("%-20s %7d %14ld %16ld %7d/%zu\n", info->id.c_str(), n, rounds[rounds.size() / 2],
                  commands[commands.size() / 2], capped, rounds.size());
    }
  }
  std::printf("the server's bot on every seat, default options%s\n", extra.empty() ? "" : (" and " + extra.dump()).c_str());
  return 0;
}

void usage() {
  std::puts(
      "usage: tinsel-engine-bench [--seconds S] [--repeat N] [--game ID] [--json] [--seed N] [--only a|b|c|d|d-text]\n"
      "                           [--json-frames]\n"
      "  --seconds S  length of each of the four measurements per game (default 2)\n"
      "  --repeat N   run each measurement N times and keep the best (default 1): on a shared machine\n"
      "               the best run is the one least slowed down by other processes\n"
      "  --game ID    only this game (happy_holidays, christmas_penguins, unterm_baum)\n"
      "  --json       print the figures as JSON instead of a table\n"
      "  --seed N     seed of the dice and of the command choices (default 1)\n"
      "  --only X     run only measurement a, b, c, d or d-text (for a profiler); the others print 0\n"
      "  --json-frames  (c) and (d-text) serialize legal and the shared view from json even where the game\n"
      "               writes them as text itself (game::write_legal, write_shared_view)\n"
      "  --frame-sizes  instead: average, p99 and largest state frame per game and player count (S seconds each)\n"
      "  --games N      with --frame-sizes: N whole games per row instead of S seconds\n"
      "  --bot-games N  instead: N bot games per game and player count: median rounds and commands\n"
      "  --options JSON with --bot-games or --frame-sizes: options on top of the defaults, e.g. '{\"maxRounds\":500}'");
}

std::string grouped(double v) {
  const auto n = static_cast<long long>(v + 0.5);
  std::string s = std::to_string(n), out;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (i && (s.size() - i) % 3 == 0) out += ',';
    out += s[i];
  }
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  double seconds = 2;
  std::string only;
  bool as_json = false;
  std::uint64_t seed = 1;
  std::string only_mode;
  int repeat = 1;
  bool sizes = false;
  int bots = 0;
  int frame_games = 0;
  json extra = json::object();
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    const auto value = [&]() -> const char* {
      if (i + 1 >= argc) {
        usage();
        std::exit(2);
      }
      return argv[++i];
    };
    if (a == "--seconds") {
      seconds = std::atof(value());
    } else if (a == "--game") {
      only = value();
    } else if (a == "--repeat") {
      repeat = std::max(1, std::atoi(value()));
    } else if (a == "--bot-games") {
      bots = std::max(1, std::atoi(value()));
    } else if (a == "--options") {
      extra = json::parse(value(), nullptr, false);
      if (!extra.is_object()) {
        usage();
        return 2;
      }
    } else if (a == "--frame-sizes") {
      sizes = true;
    } else if (a == "--games") {
      frame_games = std::max(1, std::atoi(value()));
    } else if (a == "--json-frames") {
      json_frames = true;
    } else if (a == "--json") {
      as_json = true;
    } else if (a == "--seed") {
      seed = std::strtoull(value(), nullptr, 10);
    } else if (a == "--only") {
      only_mode = value();
      if (only_mode != "d-text" && (only_mode.size() != 1 || only_mode[0] < 'a' || only_mode[0] > 'd')) {
        usage();
        return 2;
      }
    } else if (a == "--help" || a == "-h") {
      usage();
      return 0;
    } else {
      usage();
      return 2;
    }
  }
  if (seconds <= 0) {
    usage();
    return 2;
  }
  std::vector<const game_info*> games;
  for (const auto* info : builtin_games().all())
    if (only.empty() || info->id == only) games.push_back(info);
  if (games.empty()) {
    std::fprintf(stderr, "no game '%s'\n", only.c_str());
    return 2;
  }

  if (sizes) return frame_sizes(games, seconds, frame_games, extra, seed);
  if (bots) return bot_games(games, bots, extra, seed);

  std::vector<result_row> rows;
  for (const auto* info : games) {
    result_row r;
    r.id = info->id;
    // 't' is (d-text), asked for as --only d-text.
    const auto wanted = [&](char m) { return only_mode.empty() || (only_mode == "d-text" ? m == 't' : only_mode[0] == m); };
    if (only_mode.empty()) random_play(*info, seconds / 10, seed, extra::frames);  // warm-up: caches, allocator
    for (int k = 0; k < repeat; ++k) {
      if (wanted('a')) {
        const auto a = random_play(*info, seconds, seed, extra::none);
        if (a.per_second > r.play) r.play = a.per_second, r.games = a.games;
      }
      if (wanted('b'))
        r.legal_view = std::max(r.legal_view, random_play(*info, seconds, seed, extra::legal_view).per_second);
      if (wanted('c')) {
        const auto c = random_play(*info, seconds, seed, extra::frames);
        if (c.per_second > r.frames) r.frames = c.per_second, r.frame_bytes = c.frame_bytes;
      }
      if (wanted('d')) r.position = std::max(r.position, fixed_position(*info, seconds, seed, position_form::json_documents));
      if (wanted('t'))
        r.position_text = std::max(r.position_text, fixed_position(*info, seconds, seed, position_form::frame_text));
    }
    rows.push_back(r);
  }

  if (as_json) {
    json out = json::array();
    for (const auto& r : rows)
      out.push_back({{"game", r.id},
                     {"players", players},
                     {"seconds", seconds},
                     {"repeat", repeat},
                     {"random_play_commands_per_s", r.play},
                     {"games_played", r.games},
                     {"with_legal_view_commands_per_s", r.legal_view},
                     {"with_frames_commands_per_s", r.frames},
                     {"frame_bytes_avg", r.frame_bytes},
                     {"position_legal_view_rounds_per_s", r.position},
                     {"position_legal_view_calls_per_s", 8 * r.position},
                     {"position_text_legal_view_rounds_per_s", r.position_text},
                     {"position_text_legal_view_calls_per_s", 8 * r.position_text}});
    std::puts(out.dump(2).c_str());
    return 0;
  }
  std::printf("%-20s %14s %14s %14s %12s %16s %14s %16s\n", "game (4 players)", "(a) play/s", "(b) +legal,view",
              "(c) +frames", "frame bytes", "(d) 4-seat l+v/s", "(d) calls/s", "(d-text) l+v/s");
  for (const auto& r : rows)
    std::printf("%-20s %14s %14s %14s %12s %16s %14s %16s\n", r.id.c_str(), grouped(r.play).c_str(),
                grouped(r.legal_view).c_str(), grouped(r.frames).c_str(), grouped(r.frame_bytes).c_str(),
                grouped(r.position).c_str(), grouped(8 * r.position).c_str(), grouped(r.position_text).c_str());
  std::printf(
      "(a)-(c): applied commands per CPU second; (d): rounds of legal+view for 4 seats per CPU second, as json, "
      "(d-text) as the frames' text; %g s each, best of %d\n",
      seconds, repeat);
  return 0;
}
