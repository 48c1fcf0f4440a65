// tinsel-loadgen: closed-loop load on a Tinsel server (or on tinsel-echo), and the memory an idle
// connection costs. A client written from docs/protocol.md alone: it links no code of the server.
// bench/README.md says what it measures and how.
#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <memory>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "rooms.hpp"
#include "run_state.hpp"
#include "stats.hpp"
#include "ws.hpp"

namespace tinsel_loadgen {
namespace {

using json = nlohmann::json;

const char* const usage = R"(tinsel-loadgen: closed-loop load on a Tinsel server, or on tinsel-echo

  tinsel-loadgen [--url ws://127.0.0.1:8080/ws | --host H --port P] [--game happy_holidays]
                 [--rooms 50] [--players 4] [--seconds 10] [--warmup 2] [--threads 1]
                 [--pid SERVER_PID] [--deflate] [--changes] [--json] [--seed 1] [--options JSON]
                 [--min-games N] [--ramp 50] [--record-sizes FILE]
  tinsel-loadgen --echo [--sizes FILE] [same options; --game and --options do not apply]
  tinsel-loadgen --idle N --pid SERVER_PID [--players 4] [--idle-start] [--settle 3]

Load: R rooms of P players play closed-loop, one command in flight per room (see bench/README.md).
Prints moves/s, own-move latency (action sent -> the sender's next state) p50/p90/p99/max,
bytes and frames received per move, games finished, errors and refusals, and with --pid the
server's CPU time per move and its RSS. Exit status 1 if there was any error or refusal.

  --url URL        the server's WebSocket URL (default ws://127.0.0.1:8080/ws)
  --host, --port   instead of --url (path /ws)
  --game ID        happy_holidays, christmas_penguins or unterm_baum (default happy_holidays)
  --options JSON   merged over the options the game gets (every timer off; see --help-options)
  --rooms R        rooms (default 50)
  --players P      players per room (default 4)
  --seconds S      length of the measurement window (default 10)
  --warmup S       play this long before the window opens (default 2)
  --min-games N    keep the window open past --seconds until N games have finished (at most
                   120 s more; fewer is an error)
  --threads N      threads running the connections (default 1)
  --ramp N         rooms being set up at the same time (default 50)
  --pid PID        the server's process: CPU and RSS from /proc at both ends of the window
  --deflate        offer permessage-deflate (the report says whether the server took it)
  --changes        say hello with views "changes": states carry view_patch after the first (the
                   loop reads only legal, prompt, seat and over, so it plays the same)
  --json           also print one JSON line with every figure
  --seed N         seed of the random choices (default 1)
  --echo           drive tinsel-echo (bench/echo) instead: frames of ~70 bytes, round robin
  --record-sizes F write the size of every state received in the window to F, one line each, in
                   order (each the mean over the room's members), room after room
  --sizes F        with --echo: every member receives frames of the sizes in F (written by
                   --record-sizes), each room replaying them in order from its own starting point
  --idle N         open N connections in rooms of P, wait until all are in, let the server settle,
                   and print the server's RSS growth per connection (needs --pid)
  --idle-start     in idle mode, also start a game in every room (timers off, nobody moves)
  --settle S       idle mode: seconds to wait after the last connection is in (default 3)
  --help-options   print the options each game gets by default
)";

// The options each game gets unless --options says otherwise: every timer off, so that nothing
// but our own commands moves a game (docs/rules/*.md name them).
json default_options(const std::string& game, int players) {
  if (game == "happy_holidays")
    return {{"maxPlayers", players}, {"mainTimeoutSec", "off"}, {"subPromptTimeoutSec", "off"}};
  if (game == "christmas_penguins")
    // The reaction window cannot be switched off without changing the game (0 removes it), so it
    // gets its longest timer; the loop answers it at once anyway. 20 rounds keep a game short
    // enough that a run sees many of them.
    return {{"maxPlayers", players},       {"mainTimeoutSec", "off"}, {"subPromptTimeoutSec", "off"},
            {"stopSeconds", "off"},        {"reactionWindowMs", 60000}, {"maxRounds", 20}};
  if (game == "unterm_baum")
    // MEMORIZE cannot be switched off (nobody answers it): one second, the least, per game.
    return {{"maxPlayers", players}, {"mainTimeoutSec", "off"}, {"assignSeconds", "off"}, {"memorizeSeconds", 1}};
  return {{"maxPlayers", players}};
}

struct options {
  std::string host = "127.0.0.1";
  std::string port = "8080";
  std::string path = "/ws";
  std::string game = "happy_holidays";
  std::optional<json> extra_options;
  int rooms = 50;
  int players = 4;
  double seconds = 10;
  double warmup = 2;
  int min_games = 0;
  int threads = 1;
  int ramp = 50;
  int pid = 0;
  bool deflate = false;
  bool changes = false;
  bool json_line = false;
  std::uint64_t seed = 1;
  bool echo = false;
  int idle = 0;
  bool idle_start = false;
  double settle = 3;
  std::string record_sizes;
  std::string sizes;
};

[[noreturn]] void bad_usage(const std::string& why) {
  std::cerr << "tinsel-loadgen: " << why << "\n(see tinsel-loadgen --help)\n";
  std::exit(2);
}

template <class T>
T number(const std::string& flag, const std::string& text) {
  T value{};
  const auto* end = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(text.data(), end, value);
  if (ec != std::errc() || ptr != end) bad_usage(flag + " needs a number, not '" + text + "'");
  return value;
}

void parse_url(options& o, const std::string& url) {
  std::string_view rest = url;
  if (!rest.starts_with("ws://")) bad_usage("--url must start with ws:// (no TLS): " + url);
  rest.remove_prefix(5);
  const auto slash = rest.find('/');
  const auto authority = rest.substr(0, slash);
  o.path = slash == std::string_view::npos ? "/ws" : std::string(rest.substr(slash));
  const auto colon = authority.rfind(':');
  const bool bracketed = authority.starts_with('[');
  if (colon == std::string_view::npos || (bracketed && authority.find(']') > colon)) {
    o.host = std::string(authority);
    o.port = "80";
  } else {
    o.host = std::string(authority.substr(0, colon));
    o.port = std::string(authority.substr(colon + 1));
  }
  if (o.host.size() > 2 && o.host.front() == '[' && o.host.back() == ']') o.host = o.host.substr(1, o.host.size() - 2);
  if (o.host.empty() || o.port.empty()) bad_usage("cannot read --url " + url);
}

options parse_options(int argc, char** argv) {
  options o;
  bool game_given = false;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc) bad_usage(a + " needs a value");
      return argv[++i];
    };
    if (a == "--help" || a == "-h") {
      std::cout << usage;
      std::exit(0);
    } else if (a == "--help-options") {
      for (const char* g : {"happy_holidays", "christmas_penguins", "unterm_baum"})
        std::cout << g << " " << default_options(g, o.players).dump() << "\n";
      std::exit(0);
    } else if (a == "--url") parse_url(o, value());
    else if (a == "--host") o.host = value();
    else if (a == "--port") o.port = value();
    else if (a == "--game") o.game = value(), game_given = true;
    else if (a == "--options") {
      const auto text = value();
      auto parsed = json::parse(text, nullptr, false);
      if (parsed.is_discarded() || !parsed.is_object()) bad_usage("--options must be a JSON object: " + text);
      o.extra_options = std::move(parsed);
    } else if (a == "--rooms") o.rooms = number<int>(a, value());
    else if (a == "--players") o.players = number<int>(a, value());
    else if (a == "--seconds") o.seconds = number<double>(a, value());
    else if (a == "--warmup") o.warmup = number<double>(a, value());
    else if (a == "--min-games") o.min_games = number<int>(a, value());
    else if (a == "--threads") o.threads = number<int>(a, value());
    else if (a == "--ramp") o.ramp = number<int>(a, value());
    else if (a == "--pid") o.pid = number<int>(a, value());
    else if (a == "--deflate") o.deflate = true;
    else if (a == "--changes") o.changes = true;
    else if (a == "--json") o.json_line = true;
    else if (a == "--seed") o.seed = number<std::uint64_t>(a, value());
    else if (a == "--echo") o.echo = true;
    else if (a == "--idle") o.idle = number<int>(a, value());
    else if (a == "--idle-start") o.idle_start = true;
    else if (a == "--settle") o.settle = number<double>(a, value());
    else if (a == "--record-sizes") o.record_sizes = value();
    else if (a == "--sizes") o.sizes = value();
    else bad_usage("unknown option " + a);
  }
  if (o.rooms < 1 || o.players < 1 || o.threads < 1 || o.ramp < 1) bad_usage("--rooms, --players, --threads and --ramp must be at least 1");
  if (o.seconds <= 0 || o.warmup < 0 || o.settle < 0) bad_usage("--seconds must be positive, --warmup and --settle not negative");
  if (o.idle < 0) bad_usage("--idle must be positive");
  if (o.idle > 0 && o.pid <= 0) bad_usage("--idle needs --pid: it measures the server's memory");
  if (o.idle > 0 && o.echo) bad_usage("--idle and --echo do not go together");
  if (o.echo && (game_given || o.extra_options)) bad_usage("--game and --options do not apply to --echo");
  if (!o.echo && o.players < 2 && o.idle == 0) bad_usage("a game needs --players 2 or more");
  if (!o.sizes.empty() && !o.echo) bad_usage("--sizes goes with --echo");
  if (!o.record_sizes.empty() && (o.echo || o.idle > 0)) bad_usage("--record-sizes goes with a game, not --echo or --idle");
  return o;
}

// ---- the run ----------------------------------------------------------------------------------

struct window_figures {
  double seconds = 0;
  std::uint64_t moves = 0, games = 0, frames = 0, payload_bytes = 0, wire_bytes = 0, timer_wait_ns = 0;
  std::optional<process_sample> server_start, server_end;
  double own_cpu = 0;
};

struct idle_figures {
  std::optional<process_sample> before, after;
  int connections = 0;
};

// Starts the rooms (at most --ramp setting up at once), runs the warm-up and the window, or the
// idle measurement, then closes every connection. Lives on its own lane.
class controller : public std::enable_shared_from_this<controller> {
 public:
  controller(event_loop& loop, const options& o, run_state& run, std::vector<std::shared_ptr<room>> rooms,
             std::vector<std::shared_ptr<lane>> lanes)
      : loop_(loop), opts_(o), run_(run), rooms_(std::move(rooms)), lanes_(std::move(lanes)), lane_(loop.make_lane()) {}

  window_figures window;
  idle_figures idle;
  bool setup_complete = false;

  void start() {
    lane_->post([self = shared_from_this()] {
      self->setup_started_ = clock_type::now();
      if (self->opts_.idle > 0) self->idle.before = sample_process(self->opts_.pid);
      std::cerr << "tinsel-loadgen: setting up " << self->rooms_.size() << " rooms of " << self->opts_.players
                << (self->opts_.echo ? " (echo)" : "") << "\n";
      self->start_more();
      // Generous: a busy machine sets up slowly, but a setup that never ends must end the run.
      const auto limit = std::chrono::seconds(60) + std::chrono::milliseconds(20) * self->rooms_.size();
      self->lane_->after(limit, [self] {
        if (self->setup_complete) return;
        self->run_.error("setup_timeout", std::to_string(self->ready_) + " of " + std::to_string(self->rooms_.size()) +
                                              " rooms were set up in time");
        self->finish();
      });
    });
  }

 private:
  void start_more() {
    while (started_ < rooms_.size() && started_ - ready_ < static_cast<std::size_t>(opts_.ramp)) {
      const auto i = started_++;
      std::weak_ptr<controller> weak = weak_from_this();
      lanes_[i]->post([weak, r = rooms_[i]] {
        r->start([weak] {
          if (auto self = weak.lock()) self->lane_->post([self] { self->on_ready(); });
        });
      });
    }
  }

  void on_ready() {
    ++ready_;
    if (ready_ < rooms_.size()) return start_more();
    if (finished_) return;
    setup_complete = true;
    const auto took = std::chrono::duration<double>(clock_type::now() - setup_started_).count();
    std::cerr << "tinsel-loadgen: " << rooms_.size() << " rooms ready after " << std::fixed << std::setprecision(1)
              << took << " s" << std::defaultfloat << "\n";
    auto self = shared_from_this();
    if (opts_.idle > 0) {
      lane_->after(std::chrono::duration_cast<clock_type::duration>(std::chrono::duration<double>(opts_.settle)), [self] {
        self->idle.after = sample_process(self->opts_.pid);
        self->idle.connections = self->run_.connections_open.load();
        self->finish();
      });
      return;
    }
    lane_->after(std::chrono::duration_cast<clock_type::duration>(std::chrono::duration<double>(opts_.warmup)),
                 [self] { self->open_window(); });
  }

  void open_window() {
    if (finished_) return;
    if (opts_.pid > 0) window.server_start = sample_process(opts_.pid);
    own_cpu_start_ = own_cpu_sec();
    window_start_ = clock_type::now();
    run_.measuring = true;
    std::cerr << "tinsel-loadgen: measuring for " << opts_.seconds << " s\n";
    auto self = shared_from_this();
    lane_->after(std::chrono::duration_cast<clock_type::duration>(std::chrono::duration<double>(opts_.seconds)),
                 [self] { self->close_window(); });
  }

  void close_window() {
    if (finished_) return;
    const auto open_for = clock_type::now() - window_start_;
    if (run_.games.load() < static_cast<std::uint64_t>(opts_.min_games)) {
      if (open_for < std::chrono::duration<double>(opts_.seconds + 120)) {
        auto self = shared_from_this();
        lane_->after(std::chrono::milliseconds(200), [self] { self->close_window(); });
        return;
      }
      run_.error("min_games", "only " + std::to_string(run_.games.load()) + " of --min-games " +
                                  std::to_string(opts_.min_games) + " games finished in " +
                                  std::to_string(std::chrono::duration<double>(open_for).count()) + " s");
    }
    run_.measuring = false;
    window.seconds = std::chrono::duration<double>(open_for).count();
    if (opts_.pid > 0) window.server_end = sample_process(opts_.pid);
    window.own_cpu = own_cpu_sec() - own_cpu_start_;
    window.moves = run_.moves.load();
    window.games = run_.games.load();
    window.frames = run_.frames.load();
    window.payload_bytes = run_.payload_bytes.load();
    window.wire_bytes = run_.wire_bytes.load();
    window.timer_wait_ns = run_.timer_wait_ns.load();
    finish();
  }

  // Closes every connection, then stops the loop (after 5 s at the latest).
  void finish() {
    if (finished_) return;
    finished_ = true;
    run_.measuring = false;
    run_.stopping = true;
    for (std::size_t i = 0; i < started_; ++i) lanes_[i]->post([r = rooms_[i]] { r->stop(); });
    wait_closed(clock_type::now() + std::chrono::seconds(5));
  }

  void wait_closed(clock_type::time_point until) {
    if (run_.connections_open.load() <= 0 || clock_type::now() > until) return loop_.stop();
    auto self = shared_from_this();
    lane_->after(std::chrono::milliseconds(20), [self, until] { self->wait_closed(until); });
  }

  event_loop& loop_;
  const options& opts_;
  run_state& run_;
  std::vector<std::shared_ptr<room>> rooms_;
  std::vector<std::shared_ptr<lane>> lanes_;
  std::shared_ptr<lane> lane_;
  std::size_t started_ = 0;
  std::size_t ready_ = 0;
  bool finished_ = false;
  clock_type::time_point setup_started_;
  clock_type::time_point window_start_;
  double own_cpu_start_ = 0;
};

// ---- the report -------------------------------------------------------------------------------

std::string grouped(double v, int decimals = 0) {
  std::ostringstream raw;
  raw << std::fixed << std::setprecision(decimals) << v;
  std::string s = raw.str();
  const auto dot = s.find('.');
  auto int_end = dot == std::string::npos ? s.size() : dot;
  const std::size_t first = s[0] == '-' ? 1 : 0;
  for (auto pos = int_end; pos > first + 3; pos -= 3) s.insert(pos - 3, ",");
  return s;
}

std::string fixed(double v, int decimals) {
  std::ostringstream out;
  out << std::fixed << std::setprecision(decimals) << v;
  return out.str();
}

json rounded(double v, int decimals) {
  const double f = std::pow(10.0, decimals);
  return std::round(v * f) / f;
}

int report_load(const options& o, const run_state& run, const window_figures& w, latency_summary lat) {
  const auto errors = run.errors();
  const auto refusals = run.refusals();
  const double moves = static_cast<double>(w.moves);
  const double per_move_client = moves > 0 ? 1.0 / moves / o.players : 0;
  const double payload_per = static_cast<double>(w.payload_bytes) * per_move_client;
  const double wire_per = static_cast<double>(w.wire_bytes) * per_move_client;
  const double frames_per = moves > 0 ? static_cast<double>(w.frames) / moves : 0;
  const int connections = o.rooms * o.players;
  const int deflated = run.deflate_connections.load();
  const std::string deflate = !o.deflate ? "off" : deflated > 0 ? "negotiated" : "offered, not negotiated";
  std::optional<double> server_cpu_us, server_cpu_pct;
  if (w.server_start && w.server_end && w.seconds > 0) {
    const double cpu = w.server_end->cpu_sec - w.server_start->cpu_sec;
    if (moves > 0) server_cpu_us = cpu * 1e6 / moves;
    server_cpu_pct = cpu / w.seconds * 100;
  }
  const double own_pct = w.seconds > 0 ? w.own_cpu / w.seconds * 100 : 0;
  // The share of the rooms' time spent waiting on a server timer rather than on our commands.
  // (A wait that began before the window counts whole, hence the cap.)
  const double timer_pct = w.seconds > 0 ? std::min(100.0, static_cast<double>(w.timer_wait_ns) / 1e9 /
                                                               (w.seconds * o.rooms) * 100)
                                         : 0;

  auto& out = std::cout;
  out << "tinsel-loadgen  " << (o.echo ? std::string("tinsel-echo") : o.game) << ", " << o.rooms << " rooms x "
      << o.players << " players, " << o.threads << (o.threads == 1 ? " thread" : " threads") << ", window "
      << fixed(w.seconds, 1) << " s after " << fixed(o.warmup, 1) << " s warm-up\n";
  out << "  moves               " << grouped(moves) << " (" << grouped(w.seconds > 0 ? moves / w.seconds : 0, 1) << "/s)";
  if (!o.echo) out << "; games finished " << w.games;
  out << "\n";
  out << "  own-move latency    p50 " << fixed(lat.p50_ms, 3) << " ms  p90 " << fixed(lat.p90_ms, 3) << " ms  p99 "
      << fixed(lat.p99_ms, 3) << " ms  max " << fixed(lat.max_ms, 3) << " ms  (mean " << fixed(lat.mean_ms, 3)
      << " ms, " << grouped(static_cast<double>(lat.samples)) << " samples)\n";
  out << "  received per move   " << grouped(payload_per) << " B payload and " << grouped(wire_per)
      << " B on the wire per client; " << fixed(frames_per, 2) << " frames (all " << o.players
      << " clients of the room)\n";
  if (timer_pct >= 0.05)
    out << "  timer waits         " << fixed(timer_pct, 1)
        << " % of the rooms' time went to waiting for a server timer (no seat could act)\n";
  out << "  permessage-deflate  " << deflate;
  if (o.deflate) out << " (" << deflated << " of " << connections << " connections)";
  out << "\n";
  out << "  views               " << (o.changes ? "changes (view_patch)" : "full") << "\n";
  if (o.pid > 0) {
    out << "  server pid " << o.pid << "     ";
    if (server_cpu_pct) {
      out << (server_cpu_us ? grouped(*server_cpu_us) + " us CPU per move, " : std::string()) << fixed(*server_cpu_pct, 1)
          << " % of a core; RSS " << grouped(static_cast<double>(w.server_start->rss_kb)) << " -> "
          << grouped(static_cast<double>(w.server_end->rss_kb)) << " KB\n";
    } else {
      out << "could not be read from /proc\n";
    }
  }
  out << "  tinsel-loadgen      " << fixed(own_pct, 1) << " % of a core\n";
  out << "  errors              " << errors << "\n";
  out << "  refusals            " << refusals << "\n";
  if (errors + refusals > 0) out << run.breakdown();

  if (o.json_line) {
    json j{{"mode", o.echo ? "echo" : "tinsel"},
           {"game", o.echo ? json(nullptr) : json(o.game)},
           {"rooms", o.rooms},
           {"players", o.players},
           {"threads", o.threads},
           {"seconds", rounded(w.seconds, 3)},
           {"moves", w.moves},
           {"moves_per_sec", rounded(w.seconds > 0 ? moves / w.seconds : 0, 1)},
           {"samples", lat.samples},
           {"p50_ms", rounded(lat.p50_ms, 3)},
           {"p90_ms", rounded(lat.p90_ms, 3)},
           {"p99_ms", rounded(lat.p99_ms, 3)},
           {"max_ms", rounded(lat.max_ms, 3)},
           {"mean_ms", rounded(lat.mean_ms, 3)},
           {"games", w.games},
           {"timer_wait_percent", rounded(timer_pct, 1)},
           {"frames_per_move", rounded(frames_per, 3)},
           {"payload_bytes_per_move_per_client", rounded(payload_per, 1)},
           {"wire_bytes_per_move_per_client", rounded(wire_per, 1)},
           {"deflate", deflate},
           {"views", o.changes ? "changes" : "full"},
           {"server_cpu_us_per_move", server_cpu_us ? json(rounded(*server_cpu_us, 1)) : json(nullptr)},
           {"server_cpu_percent", server_cpu_pct ? json(rounded(*server_cpu_pct, 1)) : json(nullptr)},
           {"server_rss_kb_start", w.server_start ? json(w.server_start->rss_kb) : json(nullptr)},
           {"server_rss_kb_end", w.server_end ? json(w.server_end->rss_kb) : json(nullptr)},
           {"loadgen_cpu_percent", rounded(own_pct, 1)},
           {"errors", errors},
           {"refusals", refusals}};
    out << j.dump() << "\n";
  }
  return errors + refusals > 0 ? 1 : 0;
}

int report_idle(const options& o, const run_state& run, const idle_figures& f, int rooms) {
  const auto errors = run.errors();
  const auto refusals = run.refusals();
  std::optional<double> per_conn;
  if (f.before && f.after && f.connections > 0)
    per_conn = static_cast<double>(f.after->rss_kb - f.before->rss_kb) / f.connections;
  auto& out = std::cout;
  out << "tinsel-loadgen  idle connections: " << o.idle << " in " << rooms << " rooms of up to " << o.players
      << (o.idle_start ? ", a game started in each (timers off)" : ", in the lobby (no game)") << "\n";
  out << "  connections open    " << f.connections << " of " << o.idle << "\n";
  if (f.before && f.after) {
    out << "  server RSS          " << grouped(static_cast<double>(f.before->rss_kb)) << " KB before the first, "
        << grouped(static_cast<double>(f.after->rss_kb)) << " KB " << fixed(o.settle, 1) << " s after the last\n";
    if (per_conn) out << "  RSS per connection  " << fixed(*per_conn, 1) << " KB\n";
  } else {
    out << "  server RSS          could not be read from /proc/" << o.pid << "\n";
  }
  out << "  errors              " << errors << "\n";
  out << "  refusals            " << refusals << "\n";
  if (errors + refusals > 0) out << run.breakdown();
  if (o.json_line) {
    json j{{"mode", "idle"},
           {"connections", f.connections},
           {"requested", o.idle},
           {"rooms", rooms},
           {"players", o.players},
           {"games_started", o.idle_start},
           {"server_rss_kb_before", f.before ? json(f.before->rss_kb) : json(nullptr)},
           {"server_rss_kb_after", f.after ? json(f.after->rss_kb) : json(nullptr)},
           {"rss_kb_per_connection", per_conn ? json(rounded(*per_conn, 2)) : json(nullptr)},
           {"errors", errors},
           {"refusals", refusals}};
    out << j.dump() << "\n";
  }
  const bool all_open = f.connections == o.idle;
  if (!all_open && errors + refusals == 0)
    std::cerr << "tinsel-loadgen: only " << f.connections << " of " << o.idle << " connections were open at the end\n";
  return errors + refusals > 0 || !all_open || !per_conn ? 1 : 0;
}

// One size a line (--record-sizes wrote them); at least one.
std::vector<std::size_t> read_sizes(const std::string& file) {
  std::ifstream in(file);
  if (!in) throw std::runtime_error("cannot read --sizes " + file);
  std::vector<std::size_t> sizes;
  for (std::size_t v; in >> v;) sizes.push_back(v);
  if (sizes.empty()) throw std::runtime_error("--sizes " + file + " holds no sizes");
  return sizes;
}

void write_sizes(const std::string& file, const std::vector<std::shared_ptr<room>>& rooms) {
  std::ofstream out(file);
  std::size_t n = 0;
  for (const auto& r : rooms)
    for (const auto s : r->state_sizes()) out << s << "\n", ++n;
  if (!out) throw std::runtime_error("cannot write --record-sizes " + file);
  std::cerr << "tinsel-loadgen: " << n << " state sizes written to " << file << "\n";
}

int run(const options& o) {
  const long fds = raise_fd_limit();
  const int connections = o.idle > 0 ? o.idle : o.rooms * o.players;
  if (fds > 0 && connections + 64 > fds)
    std::cerr << "tinsel-loadgen: warning: " << connections << " connections but only " << fds
              << " file descriptors (ulimit -n)\n";

  room_settings settings;
  settings.target = resolve_target(o.host, o.port, o.path);
  settings.conn.offer_deflate = o.deflate;
  settings.view_changes = o.changes;
  settings.players = o.players;
  settings.game = o.game;
  if (!o.echo) {
    settings.options = default_options(o.game, o.players);
    if (o.extra_options) settings.options.merge_patch(*o.extra_options);
  }
  settings.record_sizes = !o.record_sizes.empty();
  if (!o.sizes.empty()) settings.echo_sizes = std::make_shared<const std::vector<std::size_t>>(read_sizes(o.sizes));
  settings.goal = o.idle == 0 ? room_settings::plan::play
                  : o.idle_start ? room_settings::plan::start
                                 : room_settings::plan::join;

  // Idle mode: N connections in rooms of P; the last room takes what is left.
  const int rooms = o.idle > 0 ? (o.idle + o.players - 1) / o.players : o.rooms;
  room_settings last = settings;
  if (o.idle > 0) last.players = o.idle - (rooms - 1) * o.players;

  run_state run;
  event_loop loop(o.threads);
  std::vector<std::shared_ptr<room>> all;
  std::vector<std::shared_ptr<lane>> lanes;
  for (int i = 0; i < rooms; ++i) {
    lanes.push_back(loop.make_lane());
    const auto& s = i == rooms - 1 ? last : settings;
    if (o.echo) all.push_back(make_echo_room(i, lanes.back(), s, run));
    else all.push_back(make_tinsel_room(i, lanes.back(), s, run, o.seed * 0x9E3779B97F4A7C15ULL + static_cast<std::uint64_t>(i)));
  }
  auto ctl = std::make_shared<controller>(loop, o, run, all, lanes);
  ctl->start();
  loop.run();

  if (o.idle > 0) return report_idle(o, run, ctl->idle, rooms);
  if (!o.record_sizes.empty()) write_sizes(o.record_sizes, all);
  std::vector<std::uint64_t> samples;
  for (auto& r : all) samples.insert(samples.end(), r->samples().begin(), r->samples().end());
  return report_load(o, run, ctl->window, summarize(samples));
}

}  // namespace
}  // namespace tinsel_loadgen

int main(int argc, char** argv) {
  try {
    return tinsel_loadgen::run(tinsel_loadgen::parse_options(argc, argv));
  } catch (const std::exception& e) {
    std::cerr << "tinsel-loadgen: " << e.what() << "\n";
    return 2;
  }
}
