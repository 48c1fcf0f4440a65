// What every room of a run shares: the counters of the measurement window, the error and refusal
// tallies, and the flags that say which phase the run is in. Rooms run on their own lanes (maybe on
// several threads), so everything here is atomic or behind a mutex.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <map>
#include <mutex>
#include <string>

namespace tinsel_loadgen {

using clock_type = std::chrono::steady_clock;

// Unanswered requests and rooms without progress are errors after this long.
inline constexpr std::chrono::seconds answer_deadline{10};

struct run_state {
  // Set for the measurement window: moves, latencies, bytes, frames and games count only then.
  std::atomic<bool> measuring{false};
  // Set once the run is over: closes are expected from then on, nothing counts any more.
  std::atomic<bool> stopping{false};

  std::atomic<std::uint64_t> moves{0};
  std::atomic<std::uint64_t> games{0};
  std::atomic<std::uint64_t> frames{0};
  std::atomic<std::uint64_t> payload_bytes{0};  // WebSocket message payloads, after decompression
  std::atomic<std::uint64_t> wire_bytes{0};     // bytes read from the TCP sockets
  std::atomic<std::uint64_t> moves_total{0};    // the whole run, warm-up included
  // Time rooms spent waiting for a state that only a server timer sends (Unterm Baum's MEMORIZE).
  std::atomic<std::uint64_t> timer_wait_ns{0};
  std::atomic<int> connections_open{0};
  std::atomic<int> deflate_connections{0};

  // An error is something the server got wrong or a client could not work with (an `error` frame,
  // an unexpected close, a seq gap, a request unanswered for 10 s); a refusal is a limit of the
  // server (rate_limited, too_many_*, HTTP 503). Both fail the run.
  void error(const std::string& kind, const std::string& detail) { tally(errors_, kind, detail, "error"); }
  void refusal(const std::string& kind, const std::string& detail) { tally(refusals_, kind, detail, "refusal"); }

  std::uint64_t errors() const;
  std::uint64_t refusals() const;
  // "kind: count" of each kind, worst first, one per line, indented.
  std::string breakdown() const;

 private:
  void tally(std::map<std::string, std::uint64_t>& into, const std::string& kind, const std::string& detail,
             const char* what);
  mutable std::mutex mutex_;
  std::map<std::string, std::uint64_t> errors_;
  std::map<std::string, std::uint64_t> refusals_;
  int printed_ = 0;
};

// The error codes of docs/protocol.md that are limits rather than mistakes.
bool is_refusal_code(const std::string& code);

}  // namespace tinsel_loadgen
