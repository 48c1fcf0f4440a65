#pragma once
// A real tinsel-server child process for tests that need the binary itself: its CPU time, its log,
// its exit status, a descriptor limit. It listens on a port the kernel picks (--port 0) and the
// fixture reads that port from the "listening" log line, so parallel tests never race for a port.
// The log goes to a file so a test can count lines.
#include <sys/types.h>

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace tinsel::test {

class server_process {
 public:
  // `flags` are added to "--port 0 --metrics-bind 127.0.0.1:0 --threads 2 --log-level info" (and
  // "--journal off" unless they name a --data-dir; a later flag wins, e.g. "--metrics-bind off");
  // `fd_limit` > 0 starts the server
  // under `ulimit -n fd_limit`. Waits (generously: up to a minute on a busy machine) until it listens.
  explicit server_process(std::vector<std::string> flags = {}, int fd_limit = 0);
  ~server_process();  // SIGKILL if it still runs; removes the log
  server_process(const server_process&) = delete;
  server_process& operator=(const server_process&) = delete;

  // User plus system CPU time of the process so far, from /proc/PID/stat.
  std::chrono::milliseconds cpu_time() const;
  // CPU time used during the next `window` of wall time.
  std::chrono::milliseconds cpu_over(std::chrono::milliseconds window) const;
  std::size_t log_lines_containing(const std::string& what) const;
  std::string log() const;
  // Sends SIGTERM and waits up to `timeout` for the process to end; its wait status, or nothing
  // if it is still running then.
  // SIGKILL, as a crash or `kill -9` would end it, and waits for it to be gone.
  void kill_hard();
  std::optional<int> terminate(std::chrono::milliseconds timeout = std::chrono::seconds(60));

  pid_t pid = 0;
  std::uint16_t port = 0;
  std::uint16_t metrics_port = 0;  // the metrics listener's, from its log line; 0 if it has none
  std::string log_path;

 private:
  bool exited_ = false;
};

}  // namespace tinsel::test
