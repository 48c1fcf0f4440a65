#include "stats.hpp"

#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <iterator>
#include <numeric>
#include <sstream>
#include <string>

namespace tinsel_loadgen {

std::optional<process_sample> sample_process(int pid) {
  const std::string dir = "/proc/" + std::to_string(pid);
  std::ifstream stat_file(dir + "/stat");
  std::ifstream status_file(dir + "/status");
  if (!stat_file || !status_file) return std::nullopt;
  const std::string stat((std::istreambuf_iterator<char>(stat_file)), {});
  // The command name (field 2) may hold spaces; fields after it start at 3. utime is 14, stime 15.
  const auto paren = stat.rfind(')');
  if (paren == std::string::npos) return std::nullopt;
  std::istringstream rest(stat.substr(paren + 2));
  std::string field;
  long long utime = -1, stime = -1;
  for (int i = 3; i <= 15 && rest >> field; ++i) {
    if (i == 14) utime = std::stoll(field);
    if (i == 15) stime = std::stoll(field);
  }
  if (utime < 0 || stime < 0) return std::nullopt;
  process_sample s;
  s.cpu_sec = static_cast<double>(utime + stime) / static_cast<double>(::sysconf(_SC_CLK_TCK));
  for (std::string line; std::getline(status_file, line);) {
    if (line.starts_with("VmRSS:")) {
      s.rss_kb = std::stol(line.substr(6));
      return s;
    }
  }
  return std::nullopt;  // a zombie has no VmRSS
}

double own_cpu_sec() {
  rusage u{};
  ::getrusage(RUSAGE_SELF, &u);
  auto sec = [](const timeval& t) { return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_usec) / 1e6; };
  return sec(u.ru_utime) + sec(u.ru_stime);
}

latency_summary summarize(std::vector<std::uint64_t>& samples_ns) {
  latency_summary s;
  s.samples = samples_ns.size();
  if (samples_ns.empty()) return s;
  std::sort(samples_ns.begin(), samples_ns.end());
  auto at = [&](double q) {
    // Nearest rank: the smallest sample with at least q of all samples at or below it.
    auto rank = static_cast<std::size_t>(std::ceil(q * static_cast<double>(samples_ns.size())));
    rank = std::clamp<std::size_t>(rank, 1, samples_ns.size());
    return static_cast<double>(samples_ns[rank - 1]) / 1e6;
  };
  s.p50_ms = at(0.50);
  s.p90_ms = at(0.90);
  s.p99_ms = at(0.99);
  s.max_ms = static_cast<double>(samples_ns.back()) / 1e6;
  const long double sum = std::accumulate(samples_ns.begin(), samples_ns.end(), 0.0L);
  s.mean_ms = static_cast<double>(sum / static_cast<long double>(samples_ns.size()) / 1e6L);
  return s;
}

long raise_fd_limit() {
  rlimit r{};
  if (::getrlimit(RLIMIT_NOFILE, &r) != 0) return -1;
  if (r.rlim_cur < r.rlim_max) {
    r.rlim_cur = r.rlim_max;
    ::setrlimit(RLIMIT_NOFILE, &r);
    ::getrlimit(RLIMIT_NOFILE, &r);
  }
  return static_cast<long>(r.rlim_cur);
}

}  // namespace tinsel_loadgen
