// A disk that fails under the journal, for real: an ext4 file system on a loop device, mounted
// errors=remount-ro, and an ext4 error injected mid-game (/sys/fs/ext4/<device>/trigger_fs_error)
// that turns it read-only as a failing disk does. With the default durability (process) commits
// reach only the operating system; what it had not yet written when the file system stopped is
// gone once the server is killed and the disk checked. The journal syncs within a second of every
// commit, so after that second every acknowledged command is on the disk; and from the first write
// that fails nothing more is acknowledged.
//
// Needs root, /dev/loop-control, mkfs.ext4 and e2fsck; elsewhere main() exits 77, which CTest
// reports as skipped. The file system is unmounted and its loop device released however the test
// ends (RAII), and a run that was killed is cleaned up by the next one.
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>

#include <signal.h>
#include <sqlite3.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <thread>

#include <spdlog/spdlog.h>

#include "server_process.hpp"
#include "ws_client.hpp"

using namespace tinsel::test;
namespace fs = std::filesystem;

namespace {

constexpr const char* prefix = "/tmp/tinsel-diskfail-";

// A shell command's exit status (-1 if it did not run), its output in `out` if asked for.
int sh(const std::string& cmd, std::string* out = nullptr) {
  FILE* p = ::popen((cmd + " 2>&1").c_str(), "r");
  if (!p) return -1;
  std::string text;
  char buf[512];
  while (std::fgets(buf, sizeof buf, p)) text += buf;
  const int status = ::pclose(p);
  if (out) *out = text;
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

void run(const std::string& cmd) {
  std::string out;
  if (sh(cmd, &out) != 0) throw std::runtime_error(cmd + " failed: " + out);
}

std::string trimmed(std::string s) {
  while (!s.empty() && (s.back() == '\n' || s.back() == ' ')) s.pop_back();
  return s;
}

// Unmounts `mnt` (lazily if it is busy) and detaches every loop device still backed by `img`.
void release(const std::string& mnt, const std::string& img) {
  if (sh("mountpoint -q " + mnt) == 0 && sh("umount " + mnt) != 0) sh("umount -l " + mnt);
  std::string devices;
  sh("losetup -j " + img + " -O NAME -n", &devices);
  std::istringstream in(devices);
  for (std::string dev; in >> dev;) sh("losetup -d " + dev);
}

// An ext4 file system of 64 MiB in an image file, mounted on a loop device under
// /tmp/tinsel-diskfail-<pid>/mnt.
class loop_fs {
 public:
  loop_fs() : dir_(prefix + std::to_string(::getpid())), img_(dir_ + "/img"), mnt_(dir_ + "/mnt") {
    clean_up_killed_runs();
    fs::create_directories(mnt_);
    try {
      run("truncate -s 64M " + img_ + " && mkfs.ext4 -q -F " + img_);
      mount();
      if (!fs::exists(trigger())) throw std::runtime_error("this kernel has no " + trigger());
    } catch (...) {
      release(mnt_, img_);
      fs::remove_all(dir_);
      throw;
    }
  }
  ~loop_fs() {
    release(mnt_, img_);
    std::error_code ec;
    fs::remove_all(dir_, ec);
  }
  loop_fs(const loop_fs&) = delete;
  loop_fs& operator=(const loop_fs&) = delete;

  const std::string& mnt() const { return mnt_; }
  void mount() {
    run("mount -o loop,errors=remount-ro " + img_ + " " + mnt_);
    std::string source;
    sh("findmnt -n -o SOURCE " + mnt_, &source);
    device_ = fs::path(trimmed(source)).filename().string();  // loop0
  }
  void unmount() { run("umount " + mnt_); }
  // An ext4 error, as a failing disk raises one: the file system goes read-only at once.
  void inject_error() {
    std::ofstream(trigger()) << "x\n";
  }
  bool writable() const {
    const auto probe = mnt_ + "/probe";
    const bool ok = static_cast<bool>(std::ofstream(probe) << "x");
    std::error_code ec;
    fs::remove(probe, ec);
    return ok;
  }
  // e2fsck after the error, as an operator would before mounting it again: 0 or 1 (errors fixed).
  void repair() {
    std::string out;
    const int rc = sh("e2fsck -fy " + img_, &out);
    if (rc != 0 && rc != 1) throw std::runtime_error("e2fsck: " + out);
  }

 private:
  std::string trigger() const { return "/sys/fs/ext4/" + device_ + "/trigger_fs_error"; }
  // A run that was killed (a CTest timeout) could not clean up: the next one does.
  static void clean_up_killed_runs() {
    for (const auto& e : fs::directory_iterator("/tmp")) {
      const auto name = e.path().string();
      if (!name.starts_with(prefix)) continue;
      const int pid = std::atoi(name.c_str() + std::string_view(prefix).size());
      if (pid <= 0 || ::kill(pid, 0) == 0) continue;
      release(name + "/mnt", name + "/img");
      std::error_code ec;
      fs::remove_all(name, ec);
    }
  }

  std::string dir_, img_, mnt_, device_;
};

std::string cannot_run() {
  if (::geteuid() != 0) return "not root";
  if (!fs::exists("/dev/loop-control")) return "no /dev/loop-control";
  for (const char* tool : {"mkfs.ext4", "e2fsck", "losetup", "findmnt", "mountpoint"})
    if (sh(std::string("command -v ") + tool) != 0) return std::string("no ") + tool;
  try {
    loop_fs trial;
  } catch (const std::exception& e) {
    return std::string("cannot mount a loop device: ") + e.what();
  }
  return "";
}

// The largest N of the log's "<marker>N" (0 if none).
std::uint64_t last_number(const std::string& log, const std::string& marker) {
  std::uint64_t n = 0;
  for (auto at = log.find(marker); at != std::string::npos; at = log.find(marker, at + 1))
    n = std::max<std::uint64_t>(n, std::stoull(log.substr(at + marker.size())));
  return n;
}

struct seat_player {
  std::unique_ptr<ws_client> c;
  std::string token;
  json last;  // the newest state
};

void drain(seat_player& p) {
  while (auto m = p.c->recv(std::chrono::milliseconds(0)))
    if ((*m)["type"] == "state") p.last = *m;
}

// The player the open prompt waits for, and its first concrete legal command.
std::pair<seat_player*, json> prompted(std::vector<seat_player>& ps) {
  const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  for (;;) {
    for (auto& p : ps) {
      drain(p);
      if (p.last.is_null() || p.last["prompt"].is_null()) continue;
      const auto& seats = p.last["prompt"]["seats"];
      if (std::find(seats.begin(), seats.end(), p.last["seat"]) == seats.end()) continue;
      for (const auto& e : p.last["legal"])
        if (!e.contains("domain")) return {&p, e};
    }
    REQUIRE(std::chrono::steady_clock::now() < until);
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
}

std::string journal_health(std::uint16_t port) { return json::parse(http_get(port, "/healthz").body)["journal"]; }

}  // namespace

TEST_CASE("a disk gone read-only mid-game: nothing more is acknowledged, and every acknowledged command is there after kill -9",
          "[storage][disk]") {
  loop_fs disk;
  const std::string data = disk.mnt() + "/data";
  // trace: the journal's commits and syncs are numbered in the log.
  const std::vector<std::string> flags = {"--data-dir", data, "--rate-per-sec", "100000", "--rate-burst", "100000",
                                          "--log-level", "trace"};
  std::vector<seat_player> ps(2);
  std::string code;
  int acked = 0;
  std::uint64_t acked_seq = 0;
  {
    server_process a(flags);
    REQUIRE(a.log_lines_containing("durability=process") == 1);  // the default
    for (std::size_t i = 0; i < ps.size(); ++i) {
      ps[i].c = std::make_unique<ws_client>(a.port);
      ps[i].token = say_hello(*ps[i].c, "Player " + std::to_string(i))["token"];
    }
    const auto created = ps[0].c->request({{"type", "create_room"}, {"game", "happy_holidays"},
                                           {"options", {{"maxPlayers", 2}, {"giftsPerColour", 5}}}});
    REQUIRE(created["type"] == "ok");
    code = created["room"];
    REQUIRE(ps[1].c->request({{"type", "join_room"}, {"room", code}})["type"] == "ok");
    REQUIRE(ps[0].c->request({{"type", "start_game"}})["type"] == "ok");

    // An evening's first moves, each acknowledged.
    while (acked < 12) {
      auto [p, cmd] = prompted(ps);
      const auto reply = p->c->request({{"type", "action"}, {"action", cmd}}, std::chrono::seconds(30));
      REQUIRE(reply["type"] == "ok");
      p->last = p->c->expect_type("state", std::chrono::seconds(30));
      acked_seq = p->last["seq"];
      ++acked;
    }
    // Within a second the journal syncs what it committed: wait for the sync that covers the
    // commit of the last acknowledged move (each commit is numbered in the log before its `ok`).
    // TINSEL_DISKFAIL_SETTLE_MS=N waits N ms instead, to run this against a server from before
    // the syncs (it loses the moves: the finding of issue 30).
    if (const char* settle = std::getenv("TINSEL_DISKFAIL_SETTLE_MS")) {
      std::this_thread::sleep_for(std::chrono::milliseconds(std::atoi(settle)));
    } else {
      const auto last_commit = last_number(a.log(), "journal commit n=");
      REQUIRE(last_commit > 0);
      const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(60);
      while (last_number(a.log(), "journal synced commits=") < last_commit) {
        REQUIRE(std::chrono::steady_clock::now() < until);
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
      }
    }

    // The disk fails; the game goes on, and nothing more is acknowledged.
    disk.inject_error();
    REQUIRE_FALSE(disk.writable());
    for (int i = 0; i < 5; ++i) {
      auto [p, cmd] = prompted(ps);
      const auto reply = p->c->request({{"type", "action"}, {"action", cmd}}, std::chrono::seconds(30));
      CHECK(reply["type"] == "error");
      CHECK(reply["code"] == "storage_failed");
    }
    CHECK(journal_health(a.port) == "failing");
    const auto metrics = http_get(a.metrics_port, "/metrics").body;
    CHECK(metrics.find("\ntinsel_journal_writable 0\n") != std::string::npos);
    CHECK(a.log_lines_containing("journal write failed path=") == 1);  // once, by the journal
    a.kill_hard();
  }

  // The operator checks the disk and mounts it again: every acknowledged move is in the journal.
  disk.unmount();
  disk.repair();
  disk.mount();
  {
    sqlite3* db = nullptr;
    REQUIRE(sqlite3_open_v2((data + "/tinsel.db").c_str(), &db, SQLITE_OPEN_READWRITE, nullptr) == SQLITE_OK);
    sqlite3_stmt* q = nullptr;
    REQUIRE(sqlite3_prepare_v2(db, "SELECT count(*) FROM entries WHERE room = ? AND kind = 'command'", -1, &q, nullptr) == SQLITE_OK);
    sqlite3_bind_text(q, 1, code.c_str(), -1, SQLITE_TRANSIENT);
    REQUIRE(sqlite3_step(q) == SQLITE_ROW);
    CHECK(sqlite3_column_int(q, 0) == acked);
    sqlite3_finalize(q);
    sqlite3_close(db);
  }
  // And the room comes back where its last acknowledged move left it.
  server_process b(flags);
  CHECK(b.log_lines_containing("rooms recovered rooms=1 set_aside=0") == 1);
  ws_client c(b.port);
  c.send({{"type", "hello"}, {"protocol", 1}, {"name", "again"}, {"token", ps[0].token}});
  CHECK(c.expect_type("welcome", std::chrono::seconds(30))["resumed"] == true);
  REQUIRE(c.request({{"type", "join_room"}, {"room", code}}, std::chrono::seconds(30))["type"] == "ok");
  CHECK(c.expect_type("state", std::chrono::seconds(30))["seq"] == acked_seq);
}

int main(int argc, char* argv[]) {
  spdlog::set_level(spdlog::level::warn);
  if (const auto why = cannot_run(); !why.empty()) {
    std::printf("skipped: %s\n", why.c_str());
    return 77;
  }
  return Catch::Session().run(argc, argv);
}
