#include "postgres_cluster.hpp"

#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <stdexcept>

#include "storage/pg.hpp"

namespace tinsel::test {

namespace {

const std::string script = TINSEL_SOURCE_DIR "/tests/support/postgres_cluster.sh";

// Runs the script; PostgreSQL not installed ends the test process as skipped.
void run_script(const std::string& cmd, const std::string& dir, const std::string& extra = "") {
  const std::string line = "bash '" + script + "' " + cmd + " '" + dir + "' " + extra;
  const int status = std::system(line.c_str());
  const int code = WIFEXITED(status) ? WEXITSTATUS(status) : 1;
  if (code == 77) {
    std::error_code ec;
    std::filesystem::remove(dir, ec);  // the empty folder made for it
    std::fprintf(stderr, "PostgreSQL 15 is not installed: this test is skipped\n");
    std::fflush(stderr);
    std::_Exit(77);
  }
  if (code != 0) throw std::runtime_error("postgres_cluster.sh " + cmd + " " + dir + " failed (" + std::to_string(code) + ")");
}

std::string new_temp_dir() {
  char t[] = "/tmp/tinsel-pg-XXXXXX";
  if (!::mkdtemp(t)) throw std::runtime_error("cannot make a temporary folder");
  return t;
}

std::string conninfo(const std::string& dir, const std::string& db) {
  return "host=" + dir + " port=5432 user=postgres dbname=" + db;
}

std::atomic<int> databases{0};

}  // namespace

postgres_cluster& postgres_cluster::shared() {
  static std::unique_ptr<postgres_cluster> cluster = [] {
    const char* fixture = std::getenv("TINSEL_TEST_POSTGRES_DIR");
    if (fixture && std::filesystem::exists(std::string(fixture) + "/data/postmaster.pid"))
      return std::unique_ptr<postgres_cluster>(new postgres_cluster(adopt{}, fixture));
    return std::make_unique<postgres_cluster>();
  }();
  return *cluster;
}

postgres_cluster::postgres_cluster() : dir_(new_temp_dir()) {
  // Watched by this process: if it dies without the destructor (a crash, a timeout's SIGKILL), the
  // cluster stops by itself.
  run_script("start", dir_, std::to_string(::getpid()));
}

postgres_cluster::postgres_cluster(adopt, std::string dir) : dir_(std::move(dir)), owned_(false) {}

postgres_cluster::~postgres_cluster() {
  if (owned_) {
    try {
      run_script("stop", dir_);
    } catch (const std::exception& e) {
      std::fprintf(stderr, "%s\n", e.what());
    }
  }
}

std::string postgres_cluster::create_database() {
  const std::string name = "t" + std::to_string(::getpid()) + "_" + std::to_string(databases++);
  server::storage::pg::connection c(conninfo(dir_, "postgres"));
  c.exec("CREATE DATABASE " + name);
  return conninfo(dir_, name);
}

void postgres_cluster::crash() { run_script("crash", dir_); }
void postgres_cluster::restart() { run_script("restart", dir_); }

}  // namespace tinsel::test
