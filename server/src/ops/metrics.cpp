#include "ops/metrics.hpp"

#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <charconv>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "tinsel/engine/game.hpp"
#include "tinsel/server/config.hpp"

namespace tinsel::server {

namespace {

// A label value with \, " and newline escaped, as the exposition format asks.
void append_escaped(std::string& out, std::string_view v) {
  for (const char c : v) {
    if (c == '\\') out += "\\\\";
    else if (c == '"') out += "\\\"";
    else if (c == '\n') out += "\\n";
    else out += c;
  }
}

struct label {
  std::string_view name;
  std::string_view value;
};

class writer {
 public:
  void header(std::string_view name, std::string_view type, std::string_view help) {
    out_ += "# HELP ";
    out_ += name;
    out_ += ' ';
    out_ += help;
    out_ += "\n# TYPE ";
    out_ += name;
    out_ += ' ';
    out_ += type;
    out_ += '\n';
  }
  template <class Number>
  void sample(std::string_view name, std::initializer_list<label> labels, Number value) {
    out_ += name;
    bool first = true;
    for (const auto& l : labels) {
      if (l.value.empty()) continue;  // an empty value is the same as no label
      out_ += first ? '{' : ',';
      first = false;
      out_ += l.name;
      out_ += "=\"";
      append_escaped(out_, l.value);
      out_ += '"';
    }
    if (!first) out_ += '}';
    out_ += ' ';
    char buf[64];
    auto [end, ec] = std::to_chars(buf, buf + sizeof buf, value);
    out_.append(buf, ec == std::errc() ? end : buf);
    out_ += '\n';
  }
  std::string take() { return std::move(out_); }
  std::string& raw() { return out_; }

 private:
  std::string out_;
};

double seconds(std::chrono::nanoseconds d) { return std::chrono::duration<double>(d).count(); }

}  // namespace

void histogram::observe(std::chrono::nanoseconds d) {
  std::size_t i = 0;
  while (i < buckets.size() && d > buckets[i].upper) ++i;
  counts_[i].fetch_add(1, std::memory_order_relaxed);
  sum_ns_.fetch_add(static_cast<std::uint64_t>(std::max<std::int64_t>(0, d.count())), std::memory_order_relaxed);
}

std::array<std::uint64_t, histogram::buckets.size() + 1> histogram::counts() const {
  std::array<std::uint64_t, buckets.size() + 1> out{};
  for (std::size_t i = 0; i < out.size(); ++i) out[i] = counts_[i].load(std::memory_order_relaxed);
  return out;
}

metrics_registry::metrics_registry() {
  // Every game's series exist from the start, at zero, so that rate() and dashboards see them
  // before the first game of the day.
  for (const auto* g : engine::builtin_games().all()) {
    games_started_.at({g->id});
    games_finished_.at({g->id});
    commands_.at({g->id, "accepted", ""});
    command_seconds_.at({g->id});
  }
}

metrics_registry& metrics() {
  static metrics_registry registry;
  return registry;
}

std::string metrics_registry::render(const metrics_gauges& g) const {
  writer w;
  w.header("tinsel_build_info", "gauge", "Always 1; the version label names the running tinsel-server.");
  w.sample("tinsel_build_info", {{"version", version_string()}}, 1);

  w.header("tinsel_connections", "gauge", "WebSocket connections open now.");
  w.sample("tinsel_connections", {}, g.connections);

  w.header("tinsel_rooms", "gauge", "Rooms open now, by game and status (lobby, playing, finished).");
  for (const auto& r : g.rooms_by_game_and_status)
    w.sample("tinsel_rooms", {{"game", r.game}, {"status", r.status}}, r.count);

  w.header("tinsel_games_started_total", "counter", "Games started, by game.");
  games_started_.for_each([&](const auto& l, const counter& c) { w.sample("tinsel_games_started_total", {{"game", l[0]}}, c.value()); });
  w.header("tinsel_games_finished_total", "counter", "Games played to their end, by game.");
  games_finished_.for_each([&](const auto& l, const counter& c) { w.sample("tinsel_games_finished_total", {{"game", l[0]}}, c.value()); });

  w.header("tinsel_commands_total", "counter",
           "Game commands (action requests) from players, by game and result: accepted, or refused with the error code.");
  commands_.for_each([&](const auto& l, const counter& c) {
    w.sample("tinsel_commands_total", {{"game", l[0]}, {"result", l[1]}, {"code", l[2]}}, c.value());
  });

  w.header("tinsel_command_duration_seconds", "histogram",
           "Time to handle one game command in its room: rule check, state update, one serialization per view, queueing for every member.");
  command_seconds_.for_each([&](const auto& l, const histogram& h) {
    const auto counts = h.counts();
    std::uint64_t cumulative = 0;
    for (std::size_t i = 0; i < histogram::buckets.size(); ++i) {
      cumulative += counts[i];
      w.sample("tinsel_command_duration_seconds_bucket", {{"game", l[0]}, {"le", histogram::buckets[i].le}}, cumulative);
    }
    cumulative += counts.back();
    w.sample("tinsel_command_duration_seconds_bucket", {{"game", l[0]}, {"le", "+Inf"}}, cumulative);
    w.sample("tinsel_command_duration_seconds_sum", {{"game", l[0]}}, seconds(h.sum()));
    w.sample("tinsel_command_duration_seconds_count", {{"game", l[0]}}, cumulative);
  });

  w.header("tinsel_sent_frames_total", "counter", "WebSocket frames written to clients.");
  w.sample("tinsel_sent_frames_total", {}, frames_sent_.value());
  w.header("tinsel_sent_bytes_total", "counter", "Payload bytes of the WebSocket frames written to clients.");
  w.sample("tinsel_sent_bytes_total", {}, bytes_sent_.value());

  w.header("tinsel_forced_closes_total", "counter",
           "Connections the server closed, by reason: too_slow (outgoing queue full, 4008), rate_limited (flooding, 4029).");
  w.sample("tinsel_forced_closes_total", {{"reason", "too_slow"}}, slow_client_closes_.value());
  w.sample("tinsel_forced_closes_total", {{"reason", "rate_limited"}}, rate_limit_closes_.value());

  if (g.journal_writable >= 0) {
    w.header("tinsel_journal_writable", "gauge", "1 while the journal's writes reach the disk, 0 while they fail and rooms refuse what they would have to save.");
    w.sample("tinsel_journal_writable", {}, g.journal_writable);
  }
  w.header("tinsel_journal_failures_total", "counter", "Times the journal's writes (or syncs) started failing.");
  w.sample("tinsel_journal_failures_total", {}, journal_failures_.value());
  w.header("tinsel_storage_refused_total", "counter", "Requests refused with storage_failed.");
  w.sample("tinsel_storage_refused_total", {}, storage_refusals_.value());
  w.header("tinsel_room_rebuilds_total", "counter", "Rooms rebuilt from their journal after a write that failed.");
  w.sample("tinsel_room_rebuilds_total", {}, room_rebuilds_.value());
  {
    w.header("tinsel_journal_commit_seconds", "histogram", "Time of one journal transaction (PostgreSQL journal): every batch queued meanwhile, committed.");
    const auto counts = commit_seconds_.counts();
    std::uint64_t cumulative = 0;
    for (std::size_t i = 0; i < histogram::buckets.size(); ++i) {
      cumulative += counts[i];
      w.sample("tinsel_journal_commit_seconds_bucket", {{"le", histogram::buckets[i].le}}, cumulative);
    }
    cumulative += counts.back();
    w.sample("tinsel_journal_commit_seconds_bucket", {{"le", "+Inf"}}, cumulative);
    w.sample("tinsel_journal_commit_seconds_sum", {}, seconds(commit_seconds_.sum()));
    w.sample("tinsel_journal_commit_seconds_count", {}, cumulative);
  }
  w.header("tinsel_lease_lapses_total", "counter", "Cluster mode: times this instance's lease lapsed or was tombstoned, and its rooms left it.");
  w.sample("tinsel_lease_lapses_total", {}, lease_lapses_.value());
  w.header("tinsel_room_takeovers_total", "counter", "Cluster mode: rooms this instance claimed from an owner that died, drained or lapsed.");
  w.sample("tinsel_room_takeovers_total", {}, takeovers_.value());
  w.header("tinsel_journal_fenced_total", "counter", "Cluster mode: journal batches refused because another instance owns the room now.");
  w.sample("tinsel_journal_fenced_total", {}, fenced_batches_.value());

  w.raw() += render_process_metrics();
  return w.take();
}

std::string render_process_metrics() {
  // /proc/self/stat: the fields after "(comm) ", which may itself hold spaces and parentheses.
  std::ifstream in("/proc/self/stat");
  std::string stat((std::istreambuf_iterator<char>(in)), {});
  const auto close = stat.rfind(')');
  if (close == std::string::npos) return {};
  std::istringstream fields(stat.substr(close + 2));
  std::vector<std::string> f{"", "", ""};  // pid and comm: fields 1 and 2, so field n is f[n]
  for (std::string s; fields >> s;) f.push_back(std::move(s));
  if (f.size() <= 24) return {};
  const double ticks = static_cast<double>(::sysconf(_SC_CLK_TCK));
  const long page = ::sysconf(_SC_PAGESIZE);
  const double cpu = (std::stod(f[14]) + std::stod(f[15])) / ticks;
  const double start_after_boot = std::stod(f[22]) / ticks;
  const unsigned long long vsize = std::stoull(f[23]);
  const unsigned long long rss = std::stoull(f[24]) * static_cast<unsigned long long>(page);

  double boot_time = 0;  // btime in /proc/stat: the boot time in seconds since the epoch
  std::ifstream sys("/proc/stat");
  for (std::string line; std::getline(sys, line);)
    if (line.starts_with("btime ")) boot_time = std::stod(line.substr(6));

  std::error_code ec;
  std::size_t fds = 0;
  for (std::filesystem::directory_iterator it("/proc/self/fd", ec), end; !ec && it != end; it.increment(ec)) ++fds;
  if (fds > 0) --fds;  // the iterator's own descriptor

  rlimit lim{};
  ::getrlimit(RLIMIT_NOFILE, &lim);

  writer w;
  w.header("process_cpu_seconds_total", "counter", "Total user and system CPU time spent in seconds.");
  w.sample("process_cpu_seconds_total", {}, cpu);
  w.header("process_resident_memory_bytes", "gauge", "Resident memory size in bytes.");
  w.sample("process_resident_memory_bytes", {}, rss);
  w.header("process_virtual_memory_bytes", "gauge", "Virtual memory size in bytes.");
  w.sample("process_virtual_memory_bytes", {}, vsize);
  w.header("process_open_fds", "gauge", "Number of open file descriptors.");
  w.sample("process_open_fds", {}, fds);
  w.header("process_max_fds", "gauge", "Maximum number of open file descriptors.");
  w.sample("process_max_fds", {}, static_cast<double>(lim.rlim_cur));
  w.header("process_start_time_seconds", "gauge", "Start time of the process since unix epoch in seconds.");
  w.sample("process_start_time_seconds", {}, boot_time + start_after_boot);
  return w.take();
}

}  // namespace tinsel::server
