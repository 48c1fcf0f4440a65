#include "server_process.hpp"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string_view>
#include <thread>

extern char** environ;

namespace tinsel::test {

namespace {

std::atomic<int> counter{0};

// The port in the server's "listening url=http://HOST:PORT/" line (or its JSON form, "url":"http://HOST:PORT/"
// with --log-format json), or 0 while there is none.
std::uint16_t listening_port(const std::string& log,
                             std::initializer_list<const char*> markers = {" listening url=http://", "\"url\":\"http://"}) {
  for (const char* marker : markers) {
    const auto at = log.find(marker);
    if (at == std::string::npos) continue;
    const auto host = at + std::string_view(marker).size();
    const auto slash = log.find('/', host);
    const auto colon = log.rfind(':', slash);
    if (slash == std::string::npos || colon == std::string::npos || colon < host) return 0;
    return static_cast<std::uint16_t>(std::stoi(log.substr(colon + 1, slash - colon - 1)));
  }
  return 0;
}

}  // namespace

server_process::server_process(std::vector<std::string> flags, int fd_limit) {
  log_path = "/tmp/tinsel-server-test-" + std::to_string(::getpid()) + "-" + std::to_string(counter++) + ".log";
  std::vector<std::string> args;
  if (fd_limit > 0)
    args = {"/bin/sh", "-c", "ulimit -n " + std::to_string(fd_limit) + " && exec \"$0\" \"$@\"", TINSEL_SERVER_BINARY};
  else
    args = {TINSEL_SERVER_BINARY};
  for (const char* f : {"--port", "0", "--metrics-bind", "127.0.0.1:0", "--threads", "2", "--log-level", "info"}) args.emplace_back(f);
  // Rooms in memory only, unless the test gives the journal a folder of its own.
  if (std::find(flags.begin(), flags.end(), "--data-dir") == flags.end())
    for (const char* f : {"--journal", "off"}) args.emplace_back(f);
  args.insert(args.end(), flags.begin(), flags.end());
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  // Under a descriptor limit, UBSan's vptr check cannot work (tests/sanitizers/ubsan-descriptors-full.supp).
  std::vector<std::string> env_strings;
  for (char** e = environ; *e; ++e) env_strings.emplace_back(*e);
  if (fd_limit > 0) {
    const std::string supp = "suppressions=" TINSEL_SOURCE_DIR "/tests/sanitizers/ubsan-descriptors-full.supp";
    auto it = std::find_if(env_strings.begin(), env_strings.end(), [](const std::string& e) { return e.starts_with("UBSAN_OPTIONS="); });
    if (it == env_strings.end())
      env_strings.push_back("UBSAN_OPTIONS=" + supp);
    else
      *it += ":" + supp;
  }
  std::vector<char*> envp;
  for (auto& e : env_strings) envp.push_back(e.data());
  envp.push_back(nullptr);
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, 1, log_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_adddup2(&fa, 1, 2);
  const int rc = posix_spawn(&pid, argv[0], &fa, nullptr, argv.data(), envp.data());
  posix_spawn_file_actions_destroy(&fa);
  if (rc != 0) throw std::runtime_error("cannot start " + std::string(TINSEL_SERVER_BINARY));
  const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (port == 0) {
    port = listening_port(log());
    if (port != 0) break;
    int status = 0;
    if (::waitpid(pid, &status, WNOHANG) == pid) {
      exited_ = true;
      throw std::runtime_error("tinsel-server exited before listening; its log:\n" + log());
    }
    if (std::chrono::steady_clock::now() > until)
      throw std::runtime_error("tinsel-server did not listen within a minute; its log:\n" + log());
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  // The metrics listener logs before the public one (or not at all with --metrics-bind off).
  metrics_port = listening_port(log(), {" metrics=http://", "\"metrics\":\"http://"});
}

void server_process::kill_hard() {
  if (exited_) return;
  ::kill(pid, SIGKILL);
  int status = 0;
  ::waitpid(pid, &status, 0);
  exited_ = true;
}

server_process::~server_process() {
  if (!exited_) {
    ::kill(pid, SIGKILL);
    int status = 0;
    ::waitpid(pid, &status, 0);
  }
  std::remove(log_path.c_str());
}

std::chrono::milliseconds server_process::cpu_time() const {
  std::ifstream in("/proc/" + std::to_string(pid) + "/stat");
  std::string stat((std::istreambuf_iterator<char>(in)), {});
  std::istringstream rest(stat.substr(stat.rfind(')') + 2));  // after "pid (comm) "
  std::string field;
  long long utime = 0, stime = 0;
  for (int i = 3; i <= 15 && rest >> field; ++i) {
    if (i == 14) utime = std::stoll(field);
    if (i == 15) stime = std::stoll(field);
  }
  return std::chrono::milliseconds((utime + stime) * 1000 / ::sysconf(_SC_CLK_TCK));
}

std::chrono::milliseconds server_process::cpu_over(std::chrono::milliseconds window) const {
  const auto before = cpu_time();
  std::this_thread::sleep_for(window);
  return cpu_time() - before;
}

std::string server_process::log() const {
  std::ifstream in(log_path);
  return std::string((std::istreambuf_iterator<char>(in)), {});
}

std::size_t server_process::log_lines_containing(const std::string& what) const {
  std::ifstream in(log_path);
  std::size_t n = 0;
  for (std::string line; std::getline(in, line);) n += line.find(what) != std::string::npos;
  return n;
}

std::optional<int> server_process::terminate(std::chrono::milliseconds timeout) {
  if (exited_) return std::nullopt;
  ::kill(pid, SIGTERM);
  const auto until = std::chrono::steady_clock::now() + timeout;
  for (;;) {
    int status = 0;
    if (::waitpid(pid, &status, WNOHANG) == pid) {
      exited_ = true;
      return status;
    }
    if (std::chrono::steady_clock::now() > until) return std::nullopt;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
}

}  // namespace tinsel::test
