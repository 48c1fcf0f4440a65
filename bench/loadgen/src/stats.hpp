// Numbers about processes and latencies: /proc samples of the server, the load generator's own
// CPU time, and percentiles over the full list of latency samples.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

namespace tinsel_loadgen {

struct process_sample {
  double cpu_sec = 0;  // utime + stime of /proc/PID/stat
  long rss_kb = 0;     // VmRSS of /proc/PID/status
};

// nullopt when the process is gone or /proc cannot be read.
std::optional<process_sample> sample_process(int pid);

// CPU seconds (user + system) this process has used so far, all threads.
double own_cpu_sec();

struct latency_summary {
  std::size_t samples = 0;
  double p50_ms = 0, p90_ms = 0, p99_ms = 0, max_ms = 0, mean_ms = 0;
};

// Nearest-rank percentiles of the samples (nanoseconds); sorts them.
latency_summary summarize(std::vector<std::uint64_t>& samples_ns);

// Raises the soft limit of open files to the hard limit; returns the new soft limit.
long raise_fd_limit();

}  // namespace tinsel_loadgen
