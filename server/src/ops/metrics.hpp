#pragma once
// The server's Prometheus metrics, written by hand: counters and histograms of lock-free atomics,
// touched by one-line hooks where things happen, and a text renderer in the Prometheus exposition
// format (version 0.0.4) for GET /metrics on the metrics listener (net/metrics_listener.hpp).
//
// Counters and histograms are process-wide (like a client library's default registry): there is
// one server per process outside the tests. Gauges (connections, rooms by game and status, the
// process_* family) are not stored at all: they are read when a scrape asks, so an idle server
// spends nothing on metrics. docs/operations.md ("Metrics") lists every series.
#include <array>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

namespace tinsel::server {

class counter {
 public:
  void inc(std::uint64_t n = 1) { v_.fetch_add(n, std::memory_order_relaxed); }
  std::uint64_t value() const { return v_.load(std::memory_order_relaxed); }

 private:
  std::atomic<std::uint64_t> v_{0};
};

// Fixed buckets, in seconds, from 100 µs to 1 s: a command is applied, serialized once per view
// and queued for every member in well under a millisecond, so the low buckets carry the detail.
class histogram {
 public:
  struct bucket {
    std::chrono::nanoseconds upper;
    std::string_view le;  // the bound as the `le` label writes it
  };
  static constexpr std::array<bucket, 12> buckets{{
      {std::chrono::microseconds(100), "0.0001"}, {std::chrono::microseconds(250), "0.00025"},
      {std::chrono::microseconds(500), "0.0005"}, {std::chrono::milliseconds(1), "0.001"},
      {std::chrono::microseconds(2500), "0.0025"}, {std::chrono::milliseconds(5), "0.005"},
      {std::chrono::milliseconds(10), "0.01"},     {std::chrono::milliseconds(25), "0.025"},
      {std::chrono::milliseconds(50), "0.05"},     {std::chrono::milliseconds(100), "0.1"},
      {std::chrono::milliseconds(250), "0.25"},    {std::chrono::seconds(1), "1"},
  }};

  void observe(std::chrono::nanoseconds d);
  // Per bucket, not cumulative; the last entry is above the largest bound (+Inf).
  std::array<std::uint64_t, buckets.size() + 1> counts() const;
  std::chrono::nanoseconds sum() const { return std::chrono::nanoseconds(sum_ns_.load(std::memory_order_relaxed)); }

 private:
  // The count is their sum, so that a scrape never sees it differ from the +Inf bucket.
  std::array<std::atomic<std::uint64_t>, buckets.size() + 1> counts_{};
  std::atomic<std::uint64_t> sum_ns_{0};
};

// The series of one metric, one per distinct set of label values. Finding a series reads without a
// lock (series are only ever added, each published by a release store of the size); adding one
// takes a mutex, once per label set for the life of the process. Label values come from the code
// (game ids, error codes), not from clients; past `capacity` series, further ones go to a sink
// that is not rendered rather than growing without bound.
template <class Series, std::size_t Labels>
class family {
 public:
  static constexpr std::size_t capacity = 512;
  using label_values = std::array<std::string_view, Labels>;
  struct entry {
    std::array<std::string, Labels> labels;
    Series series;
  };

  Series& at(const label_values& labels) {
    if (Series* s = find(labels, size_.load(std::memory_order_acquire))) return *s;
    std::lock_guard lock(add_);
    const auto n = size_.load(std::memory_order_relaxed);
    if (Series* s = find(labels, n)) return *s;
    if (n == capacity) return sink_;
    auto e = std::make_unique<entry>();
    for (std::size_t i = 0; i < Labels; ++i) e->labels[i] = std::string(labels[i]);
    entries_[n] = std::move(e);
    size_.store(n + 1, std::memory_order_release);
    return entries_[n]->series;
  }
  template <class F>
  void for_each(F&& f) const {
    const auto n = size_.load(std::memory_order_acquire);
    for (std::size_t i = 0; i < n; ++i) f(entries_[i]->labels, entries_[i]->series);
  }

 private:
  Series* find(const label_values& labels, std::size_t n) {
    for (std::size_t i = 0; i < n; ++i) {
      auto& e = *entries_[i];
      bool same = true;
      for (std::size_t l = 0; l < Labels && same; ++l) same = e.labels[l] == labels[l];
      if (same) return &e.series;
    }
    return nullptr;
  }

  std::array<std::unique_ptr<entry>, capacity> entries_;
  std::atomic<std::size_t> size_{0};
  std::mutex add_;
  Series sink_;
};

// What only the running server knows, read at scrape time.
struct metrics_gauges {
  struct rooms {
    std::string game;
    std::string status;  // lobby, playing, finished
    std::size_t count = 0;
  };
  std::size_t connections = 0;
  std::vector<rooms> rooms_by_game_and_status;  // every game and status, zeros included
  int journal_writable = -1;  // 1, 0, or -1: no journal (off, or unavailable)
};

class metrics_registry {
 public:
  metrics_registry();

  // Hooks, each one line where the thing happens.
  void game_started(std::string_view game) { games_started_.at({game}).inc(); }
  void game_finished(std::string_view game) { games_finished_.at({game}).inc(); }
  void command_accepted(std::string_view game) { commands_.at({game, "accepted", ""}).inc(); }
  void command_refused(std::string_view game, std::string_view code) { commands_.at({game, "refused", code}).inc(); }
  void command_handled(std::string_view game, std::chrono::nanoseconds d) { command_seconds_.at({game}).observe(d); }
  void frame_sent(std::size_t bytes) {
    frames_sent_.inc();
    bytes_sent_.inc(bytes);
  }
  void slow_client_closed() { slow_client_closes_.inc(); }
  void rate_limit_closed() { rate_limit_closes_.inc(); }
  void journal_failed() { journal_failures_.inc(); }
  void storage_refused() { storage_refusals_.inc(); }
  void room_rebuilt() { room_rebuilds_.inc(); }
  // Cluster mode.
  void lease_lapsed() { lease_lapses_.inc(); }
  void room_taken_over() { takeovers_.inc(); }
  void journal_fenced() { fenced_batches_.inc(); }
  void journal_commit(long long us) { commit_seconds_.observe(std::chrono::microseconds(us)); }

  // The whole exposition: our series, the gauges, then the standard process_* metrics.
  std::string render(const metrics_gauges& g) const;

 private:
  family<counter, 1> games_started_;
  family<counter, 1> games_finished_;
  family<counter, 3> commands_;  // game, result (accepted, refused), code (refusals only)
  family<histogram, 1> command_seconds_;
  counter frames_sent_;
  counter bytes_sent_;
  counter slow_client_closes_;
  counter rate_limit_closes_;
  counter journal_failures_;
  counter storage_refusals_;
  counter room_rebuilds_;
  counter lease_lapses_;
  counter takeovers_;
  counter fenced_batches_;
  histogram commit_seconds_;
};

// The process's registry.
metrics_registry& metrics();

// Measures one command's handling, from construction to the end of the scope.
class command_timer {
 public:
  explicit command_timer(std::string_view game) : game_(game), start_(std::chrono::steady_clock::now()) {}
  ~command_timer() { metrics().command_handled(game_, std::chrono::steady_clock::now() - start_); }
  command_timer(const command_timer&) = delete;
  command_timer& operator=(const command_timer&) = delete;

 private:
  std::string_view game_;
  std::chrono::steady_clock::time_point start_;
};

// The standard process_* metrics of Prometheus client libraries, read from /proc/self (Linux);
// empty elsewhere.
std::string render_process_metrics();

}  // namespace tinsel::server
