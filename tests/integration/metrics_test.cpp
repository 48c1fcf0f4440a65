// /metrics end to end: a real tinsel-server process plays a game of Happy Holidays, and its
// metrics listener (never the public port) shows it in the Prometheus text format, which
// `promtool check metrics` (Debian's prometheus, docker/test-packages.txt) accepts.
#include <catch2/catch.hpp>

#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <optional>
#include <sstream>
#include <thread>

#include "play_helpers.hpp"
#include "server_process.hpp"
#include "ws_client.hpp"

using namespace tinsel::test;

namespace {

// The value of the sample named exactly `series` (name and labels as rendered), if present.
std::optional<double> sample(const std::string& text, const std::string& series) {
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);)
    if (line.starts_with(series + " ")) return std::stod(line.substr(series.size() + 1));
  return std::nullopt;
}

double value(const std::string& text, const std::string& series) {
  INFO(text);
  const auto v = sample(text, series);
  if (!v) FAIL("no sample " << series);
  return *v;
}

std::string scrape(std::uint16_t metrics_port) {
  const auto r = http_get(metrics_port, "/metrics");
  REQUIRE(r.status == 200);
  REQUIRE(r.content_type == "text/plain; version=0.0.4; charset=utf-8");
  return r.body;
}

// Scrapes until `done` holds: a hook that runs after the room has sent its frames (the histogram,
// games finished) may still be on its way when the client has its answer. Generous on a slow machine.
std::string scrape_until(std::uint16_t metrics_port, const std::function<bool(const std::string&)>& done) {
  const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  for (;;) {
    auto text = scrape(metrics_port);
    if (done(text) || std::chrono::steady_clock::now() > until) return text;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
}

struct command_result {
  int status = -1;  // the shell's exit status; 127: promtool not found
  std::string output;
};

command_result promtool_check(const std::string& text) {
  const std::string path = "/tmp/tinsel-metrics-test-" + std::to_string(::getpid()) + ".txt";
  std::ofstream(path) << text;
  command_result r;
  FILE* p = ::popen(("promtool check metrics < " + path + " 2>&1").c_str(), "r");
  REQUIRE(p != nullptr);
  char buf[4096];
  for (std::size_t n; (n = std::fread(buf, 1, sizeof buf, p)) > 0;) r.output.append(buf, n);
  const int st = ::pclose(p);
  r.status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
  std::remove(path.c_str());
  return r;
}

}  // namespace

TEST_CASE("/metrics on the metrics listener shows a played game, passes promtool, and the public port has none",
          "[metrics][binary]") {
  server_process srv({"--rate-per-sec", "1000000", "--rate-burst", "1000000"});
  REQUIRE(srv.metrics_port != 0);
  REQUIRE(srv.metrics_port != srv.port);

  const std::string hh = "{game=\"happy_holidays\"}";
  const auto before = scrape(srv.metrics_port);
  CHECK(value(before, "tinsel_connections") == 0);
  CHECK(value(before, "tinsel_games_started_total" + hh) == 0);
  CHECK(value(before, "tinsel_rooms{game=\"happy_holidays\",status=\"lobby\"}") == 0);

  auto t = seat_players(srv.port, 2, {{"maxPlayers", 2}});
  const auto lobby = scrape(srv.metrics_port);
  CHECK(value(lobby, "tinsel_connections") == 2);
  CHECK(value(lobby, "tinsel_rooms{game=\"happy_holidays\",status=\"lobby\"}") == 1);

  REQUIRE(t.clients[0]->request({{"type", "start_game"}})["type"] == "ok");
  std::mt19937 rng(2026);
  std::uint64_t seq = 0;
  check_final_state(play_to_end(t, rng, seq));
  // One command refused on purpose: the game is over.
  const auto refused = t.clients[0]->request({{"type", "action"}, {"action", {{"kind", "roll"}}}});
  REQUIRE(refused["type"] == "error");
  REQUIRE(refused["code"] == "game_not_started");

  const std::string accepted_series = "tinsel_commands_total{game=\"happy_holidays\",result=\"accepted\"}";
  const std::string refused_series = "tinsel_commands_total{game=\"happy_holidays\",result=\"refused\",code=\"game_not_started\"}";
  const std::string count_series = "tinsel_command_duration_seconds_count" + hh;
  const auto text = scrape_until(srv.metrics_port, [&](const std::string& m) {
    const auto finished = sample(m, "tinsel_games_finished_total" + hh);
    const auto accepted = sample(m, accepted_series), refused_n = sample(m, refused_series), timed = sample(m, count_series);
    return finished == 1.0 && accepted && refused_n && timed && *timed == *accepted + *refused_n;
  });
  INFO(text);
  CHECK(value(text, "tinsel_games_started_total" + hh) == 1);
  CHECK(value(text, "tinsel_games_finished_total" + hh) == 1);
  CHECK(value(text, "tinsel_games_started_total{game=\"unterm_baum\"}") == 0);
  const double accepted = value(text, accepted_series);
  CHECK(accepted > 0);
  CHECK(value(text, refused_series) == 1);
  // Every command handled is in the histogram, and the +Inf bucket is its count.
  CHECK(value(text, count_series) == accepted + 1);
  CHECK(value(text, "tinsel_command_duration_seconds_bucket{game=\"happy_holidays\",le=\"+Inf\"}") == accepted + 1);
  CHECK(value(text, "tinsel_command_duration_seconds_sum" + hh) > 0);
  CHECK(value(text, "tinsel_rooms{game=\"happy_holidays\",status=\"finished\"}") == 1);
  CHECK(value(text, "tinsel_rooms{game=\"happy_holidays\",status=\"playing\"}") == 0);
  CHECK(value(text, "tinsel_connections") == 2);
  // At least a welcome, an ok and a state per command went out.
  const double frames = value(text, "tinsel_sent_frames_total");
  CHECK(frames > accepted);
  CHECK(value(text, "tinsel_sent_bytes_total") > frames * 10);
  CHECK(value(text, "tinsel_forced_closes_total{reason=\"too_slow\"}") == 0);
  CHECK(value(text, "tinsel_forced_closes_total{reason=\"rate_limited\"}") == 0);
  CHECK(value(text, "process_resident_memory_bytes") > 1e6);
  CHECK(value(text, "process_open_fds") >= 5);  // stdio, the log, two listeners, two clients
  CHECK(value(text, "process_max_fds") >= value(text, "process_open_fds"));
  CHECK(value(text, "process_cpu_seconds_total") >= 0);
  CHECK(value(text, "process_start_time_seconds") > 1.7e9);  // after 2023
  CHECK(value(text, "tinsel_build_info{version=\"0.2.0\"}") == 1);

  // The public port never shows metrics; the metrics port shows nothing else.
  CHECK(http_get(srv.port, "/metrics").status == 404);
  CHECK(http_get(srv.metrics_port, "/").status == 404);
  CHECK(http_get(srv.metrics_port, "/healthz").status == 404);

  // promtool parses and lints the exposition (naming conventions included). CI installs it with
  // the test packages, so a missing promtool is a failure, not a skip.
  const auto checked = promtool_check(text);
  INFO(checked.output);
  if (checked.status == 127)
    FAIL("promtool not found: install Debian's prometheus package (docker/install-deps.sh docker/test-packages.txt)");
  CHECK(checked.status == 0);
}

TEST_CASE("metrics-bind off starts no metrics listener, a chosen address that is taken stops the start", "[metrics][binary]") {
  {
    server_process off({"--metrics-bind", "off"});
    CHECK(off.metrics_port == 0);
    CHECK(off.log_lines_containing("metrics listening") == 0);
  }
  server_process first;
  REQUIRE(first.metrics_port != 0);
  try {
    server_process second({"--metrics-bind", "127.0.0.1:" + std::to_string(first.metrics_port)});
    FAIL("a second server started on a taken metrics address");
  } catch (const std::runtime_error& e) {
    CHECK_THAT(e.what(), Catch::Contains("exited before listening") && Catch::Contains("for metrics"));
  }
}
