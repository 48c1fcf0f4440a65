// The journal in one SQLite database (WAL mode), written by one thread with group commit: every
// batch that arrived while the previous transaction committed goes into the next transaction.
// Readers (recovery at start, rebuilding a room after a failed write, downloading a record) use a
// second connection under a mutex; WAL lets them read while the writer writes.
//
// A disk that fails is noticed by a write or by a sync: with `process` durability commits reach
// only the operating system, so a checkpoint (which fsyncs the WAL) follows within sync_interval
// of every commit; a failed one means the disk no longer takes what we give it, exactly as a
// failed write does. From then on the journal is not writable(): every batch fails at once, and
// the writer tries a write and a sync of its own every second until both succeed again.
#include <sqlite3.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <filesystem>
#include <mutex>
#include <stdexcept>
#include <thread>

#include <spdlog/spdlog.h>

#include "ops/metrics.hpp"
#include "storage/journal.hpp"

namespace tinsel::server::storage {

namespace {

namespace fs = std::filesystem;

long long now_ms() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch()).count();
}

// Acknowledged commands a failing disk can take with it under `process` durability (what the
// operating system held but never wrote) are at most those of this long before the failure.
constexpr auto sync_interval = std::chrono::seconds(1);
// While the journal is not writable, how often the writer tries whether it is again.
constexpr auto retry_interval = std::chrono::seconds(1);

// A checkpoint that could not run now (another one runs, a reader holds the WAL) did not fail.
bool checkpoint_failed(int rc) { return rc != SQLITE_OK && rc != SQLITE_BUSY && rc != SQLITE_LOCKED; }

// Version 1: rooms (every code ever handed out and whether it is open), entries (the open rooms'
// records in order), games (finished games' records), meta.
constexpr const char* schema = R"sql(
CREATE TABLE IF NOT EXISTS meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS rooms(code TEXT PRIMARY KEY, state TEXT NOT NULL, reason TEXT,
                                 created_ms INTEGER NOT NULL, ended_ms INTEGER);
CREATE TABLE IF NOT EXISTS entries(id INTEGER PRIMARY KEY, room TEXT NOT NULL, kind TEXT NOT NULL, body TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS entries_room ON entries(room, id);
CREATE TABLE IF NOT EXISTS games(id TEXT PRIMARY KEY, room TEXT NOT NULL, game TEXT NOT NULL,
                                 finished_ms INTEGER NOT NULL, body TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS games_finished ON games(finished_ms);
INSERT OR IGNORE INTO meta(key, value) VALUES ('schema', '1');
)sql";

class db {
 public:
  db(const std::string& path, int flags) {
    if (sqlite3_open_v2(path.c_str(), &h_, flags, nullptr) != SQLITE_OK) {
      std::string msg = h_ ? sqlite3_errmsg(h_) : "out of memory";
      sqlite3_close(h_);
      throw std::runtime_error("cannot open " + path + ": " + msg);
    }
    sqlite3_busy_timeout(h_, 5000);
  }
  ~db() { sqlite3_close_v2(h_); }
  db(const db&) = delete;
  db& operator=(const db&) = delete;
  sqlite3* get() const { return h_; }
  void exec(const std::string& sql) {
    char* err = nullptr;
    if (sqlite3_exec(h_, sql.c_str(), nullptr, nullptr, &err) != SQLITE_OK) {
      std::string msg = err ? err : sqlite3_errmsg(h_);
      sqlite3_free(err);
      throw std::runtime_error(msg);
    }
  }
  std::string error() const { return sqlite3_errmsg(h_); }

 private:
  sqlite3* h_ = nullptr;
};

class stmt {
 public:
  stmt(db& d, const char* sql) : db_(d) {
    if (sqlite3_prepare_v3(d.get(), sql, -1, SQLITE_PREPARE_PERSISTENT, &s_, nullptr) != SQLITE_OK)
      throw std::runtime_error(d.error());
  }
  ~stmt() { sqlite3_finalize(s_); }
  stmt(const stmt&) = delete;
  stmt& operator=(const stmt&) = delete;
  stmt& bind(int i, const std::string& v) {
    sqlite3_bind_text(s_, i, v.data(), static_cast<int>(v.size()), SQLITE_TRANSIENT);
    return *this;
  }
  stmt& bind(int i, long long v) {
    sqlite3_bind_int64(s_, i, v);
    return *this;
  }
  // Runs a statement that returns no rows.
  void run() {
    const int rc = sqlite3_step(s_);
    sqlite3_reset(s_);
    sqlite3_clear_bindings(s_);
    if (rc != SQLITE_DONE) throw std::runtime_error(db_.error());
  }
  bool step() {
    const int rc = sqlite3_step(s_);
    if (rc == SQLITE_ROW) return true;
    sqlite3_reset(s_);
    sqlite3_clear_bindings(s_);
    if (rc != SQLITE_DONE) throw std::runtime_error(db_.error());
    return false;
  }
  std::string text(int col) const {
    auto p = reinterpret_cast<const char*>(sqlite3_column_text(s_, col));
    return p ? std::string(p, static_cast<std::size_t>(sqlite3_column_bytes(s_, col))) : std::string();
  }
  void reset() {
    sqlite3_reset(s_);
    sqlite3_clear_bindings(s_);
  }

 private:
  db& db_;
  sqlite3_stmt* s_ = nullptr;
};

class sqlite_journal final : public journal {
 public:
  sqlite_journal(const std::string& path, durability d, int keep_records_days)
      : path_(path),
        durability_(d),
        keep_records_days_(keep_records_days),
        writer_db_(path, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX) {
    writer_db_.exec("PRAGMA journal_mode=WAL");
    writer_db_.exec(d == durability::power ? "PRAGMA synchronous=FULL" : "PRAGMA synchronous=NORMAL");
    writer_db_.exec(schema);
    // A corrupt file often opens fine and fails on the first real read: check it now.
    std::string check;
    {
      stmt q(writer_db_, "PRAGMA quick_check");
      if (q.step()) check = q.text(0);
      q.reset();
    }
    if (check != "ok") throw std::runtime_error("database check failed: " + check);
    prune_ = std::make_unique<stmt>(writer_db_, "DELETE FROM games WHERE finished_ms < ?");
    prune_records();
    reader_db_ = std::make_unique<db>(path, SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX);
    ins_entry_ = std::make_unique<stmt>(writer_db_, "INSERT INTO entries(room, kind, body) VALUES (?, ?, ?)");
    ins_room_ = std::make_unique<stmt>(writer_db_, "INSERT OR REPLACE INTO rooms(code, state, created_ms) VALUES (?, 'open', ?)");
    end_room_ = std::make_unique<stmt>(writer_db_, "UPDATE rooms SET state = ?, reason = ?, ended_ms = ? WHERE code = ?");
    del_entries_ = std::make_unique<stmt>(writer_db_, "DELETE FROM entries WHERE room = ?");
    del_game_ = std::make_unique<stmt>(
        writer_db_, "DELETE FROM entries WHERE room = ? AND kind IN ('game', 'started', 'command', 'timeout', 'default', 'ended')");
    // A lobby snapshot replaces the one before it (restore reads the last one only), so a host who
    // changes options or adds and removes bots forever does not grow the room's journal.
    del_lobby_ = std::make_unique<stmt>(writer_db_, "DELETE FROM entries WHERE room = ? AND kind = 'lobby'");
    trim_chat_ = std::make_unique<stmt>(writer_db_,
                                        "DELETE FROM entries WHERE room = ?1 AND kind = 'chat' AND id <= "
                                        "(SELECT id FROM entries WHERE room = ?1 AND kind = 'chat' ORDER BY id DESC LIMIT 1 OFFSET 100)");
    ins_game_ = std::make_unique<stmt>(writer_db_, "INSERT OR REPLACE INTO games(id, room, game, finished_ms, body) VALUES (?, ?, ?, ?, ?)");
    probe_ = std::make_unique<stmt>(writer_db_, "INSERT OR REPLACE INTO meta(key, value) VALUES ('checked_ms', ?)");
    // Checkpoints (copying the WAL into the database, with an fsync) would otherwise run inside a
    // commit every 1000 pages and stall every room waiting for it: a thread of their own does
    // them, PASSIVE, beside the writer.
    writer_db_.exec("PRAGMA wal_autocheckpoint=0");
    writer_db_.exec("PRAGMA journal_size_limit=67108864");  // a WAL that restarts is cut back to 64 MiB
    checkpoint_db_ = std::make_unique<db>(path, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX);
    // A connection that has read nothing does not know the database is in WAL mode, and its
    // checkpoints are silent no-ops (SQLITE_OK, nothing copied, nothing synced): read once.
    checkpoint_db_->exec("SELECT count(*) FROM meta");
    sqlite3_wal_hook(writer_db_.get(), &sqlite_journal::wal_grew, this);
    checkpointer_ = std::thread([this] { run_checkpoints(); });
    writer_ = std::thread([this] { run(); });
  }

  ~sqlite_journal() override { close(); }

  void append(std::vector<record> batch, std::function<void(bool)> done) override {
    {
      std::lock_guard lock(mutex_);
      if (!stopping_) {
        queue_.push_back({std::move(batch), std::move(done)});
        wake_.notify_one();
        return;
      }
    }
    done(false);
  }

  std::vector<stored_room> open_rooms() override {
    std::lock_guard lock(read_mutex_);
    std::vector<stored_room> out;
    stmt q(*reader_db_,
           "SELECT r.code, e.body FROM rooms r JOIN entries e ON e.room = r.code WHERE r.state = 'open' ORDER BY r.code, e.id");
    while (q.step()) {
      auto code = q.text(0);
      if (out.empty() || out.back().code != code) out.push_back({code, {}});
      out.back().records.push_back(json::parse(q.text(1), nullptr, false));
    }
    return out;
  }

  std::optional<stored_room> load_room(const std::string& code) override {
    try {
      std::lock_guard lock(read_mutex_);
      stored_room r{code, {}};
      stmt q(*reader_db_, "SELECT body FROM entries WHERE room = ? ORDER BY id");
      q.bind(1, code);
      while (q.step()) r.records.push_back(json::parse(q.text(0), nullptr, false));
      return r;
    } catch (const std::exception& e) {
      spdlog::error("journal read failed room={} error=\"{}\"", code, e.what());
      return std::nullopt;
    }
  }

  std::vector<std::string> used_codes() override {
    std::lock_guard lock(read_mutex_);
    std::vector<std::string> out;
    stmt q(*reader_db_, "SELECT code FROM rooms");
    while (q.step()) out.push_back(q.text(0));
    return out;
  }

  void set_aside(const std::string& code, const std::string& reason) override {
    append({record{code, {{"kind", "set_aside"}, {"reason", reason}}}}, [](bool) {});
  }

  std::vector<std::string> set_aside_codes() override {
    std::lock_guard lock(read_mutex_);
    std::vector<std::string> out;
    stmt q(*reader_db_, "SELECT code FROM rooms WHERE state = 'set_aside'");
    while (q.step()) out.push_back(q.text(0));
    return out;
  }

  std::optional<game_record> find_record(const std::string& id) override {
    try {
      std::lock_guard lock(read_mutex_);
      stmt q(*reader_db_, "SELECT id, room, game, body FROM games WHERE id = ? AND finished_ms >= ?");
      q.bind(1, id).bind(2, records_cutoff_ms());
      if (!q.step()) return std::nullopt;
      game_record r{q.text(0), q.text(1), q.text(2), json::parse(q.text(3), nullptr, false)};
      q.reset();
      return r;
    } catch (const std::exception& e) {
      spdlog::error("journal read failed record={} error=\"{}\"", id, e.what());
      return std::nullopt;
    }
  }

  bool has_record(const std::string& id) override {
    try {
      std::lock_guard lock(read_mutex_);
      stmt q(*reader_db_, "SELECT 1 FROM games WHERE id = ? AND finished_ms >= ?");
      q.bind(1, id).bind(2, records_cutoff_ms());
      const bool found = q.step();
      q.reset();
      return found;
    } catch (const std::exception& e) {
      spdlog::error("journal read failed record={} error=\"{}\"", id, e.what());
      return false;
    }
  }

  bool writable() const override { return writable_.load(std::memory_order_acquire); }

  void close() override {
    {
      std::lock_guard lock(mutex_);
      if (stopping_) return;
      stopping_ = true;
      wake_.notify_one();
    }
    if (writer_.joinable()) writer_.join();
    {
      std::lock_guard lock(checkpoint_mutex_);
      checkpoint_stop_ = true;
      checkpoint_wake_.notify_one();
    }
    if (checkpointer_.joinable()) checkpointer_.join();
    // Everything in the database file, the WAL emptied: a tidy folder to back up.
    sqlite3_wal_checkpoint_v2(writer_db_.get(), nullptr, SQLITE_CHECKPOINT_TRUNCATE, nullptr, nullptr);
  }

 private:
  struct pending {
    std::vector<record> batch;
    std::function<void(bool)> done;
  };

  static int wal_grew(void* self, sqlite3*, const char*, int pages) {
    auto* j = static_cast<sqlite_journal*>(self);
    j->wal_pages_ = pages;  // on the writer thread, once its commit is done
    j->commits_.fetch_add(1, std::memory_order_release);
    // The first commit since the last sync starts the sync's clock (the checkpointer is woken
    // once per sync, not per commit); `power` has synced every commit already.
    const bool start_sync = j->durability_ == durability::process && !j->sync_pending_.exchange(true);
    if (pages >= checkpoint_pages || start_sync) {
      std::lock_guard lock(j->checkpoint_mutex_);
      if (pages >= checkpoint_pages) j->checkpoint_due_ = true;
      j->checkpoint_wake_.notify_one();
    }
    return SQLITE_OK;
  }

  // Checkpoints when the WAL has grown (checkpoint_pages), and with `process` durability a sync
  // within sync_interval of a commit. Nothing written: nothing to do, and the thread sleeps.
  void run_checkpoints() {
    std::unique_lock lock(checkpoint_mutex_);
    for (;;) {
      checkpoint_wake_.wait(lock, [&] { return checkpoint_stop_ || checkpoint_due_ || sync_pending_.load(); });
      if (checkpoint_stop_) return;
      // A commit to sync: its interval first (a WAL grown past its bound, or the stop, cut it short).
      if (!checkpoint_due_)
        checkpoint_wake_.wait_for(lock, sync_interval, [&] { return checkpoint_stop_ || checkpoint_due_; });
      if (checkpoint_stop_) return;
      checkpoint_due_ = false;
      sync_pending_ = false;
      const auto upto = commits_.load(std::memory_order_acquire);
      lock.unlock();
      // PASSIVE fsyncs the WAL before it copies it into the database, and the database after.
      const int rc = sqlite3_wal_checkpoint_v2(checkpoint_db_->get(), nullptr, SQLITE_CHECKPOINT_PASSIVE, nullptr, nullptr);
      if (checkpoint_failed(rc)) fail("sync", checkpoint_db_->error());
      else spdlog::debug("journal synced commits={}", upto);  // every commit up to this one is on the disk
      lock.lock();
    }
  }

  // The disk stopped taking what we write (`during`: "write" or "sync"): said once, until it
  // takes it again.
  void fail(const char* during, const std::string& error) {
    std::lock_guard lock(state_mutex_);
    if (!writable_.exchange(false, std::memory_order_acq_rel)) return;
    metrics().journal_failed();
    spdlog::error("journal write failed path={} during={} error=\"{}\"; rooms refuse what they would have to save", path_,
                  during, error);
  }

  void run() {
    std::unique_lock lock(mutex_);
    auto next_try = std::chrono::steady_clock::now();
    for (;;) {
      const auto ready = [&] { return stopping_ || !queue_.empty(); };
      if (writable()) wake_.wait(lock, ready);
      else wake_.wait_until(lock, next_try, ready);
      if (!writable() && !stopping_ && std::chrono::steady_clock::now() >= next_try) {
        lock.unlock();
        try_again();
        lock.lock();
        next_try = std::chrono::steady_clock::now() + retry_interval;
      }
      if (queue_.empty()) {
        if (stopping_) return;  // everything is written
        continue;
      }
      std::deque<pending> work;
      work.swap(queue_);
      lock.unlock();
      // Not writable: refused at once, not after a busy timeout each, and nothing half-written.
      const bool ok = writable() && write(work);
      if (!ok) next_try = std::chrono::steady_clock::now() + retry_interval;
      for (auto& p : work)
        if (p.done) p.done(ok);
      lock.lock();
    }
  }

  // While not writable: a write of our own and a sync; both through, the journal writes again.
  void try_again() {
    try {
      writer_db_.exec("BEGIN IMMEDIATE");
      try {
        probe_->bind(1, std::to_string(now_ms())).run();
        writer_db_.exec("COMMIT");
      } catch (...) {
        sqlite3_exec(writer_db_.get(), "ROLLBACK", nullptr, nullptr, nullptr);
        throw;
      }
    } catch (const std::exception& e) {
      spdlog::debug("journal still not writable path={} error=\"{}\"", path_, e.what());
      return;
    }
    if (checkpoint_failed(sqlite3_wal_checkpoint_v2(writer_db_.get(), nullptr, SQLITE_CHECKPOINT_PASSIVE, nullptr, nullptr))) {
      spdlog::debug("journal still not writable path={} during=sync error=\"{}\"", path_, writer_db_.error());
      return;
    }
    std::lock_guard lock(state_mutex_);
    if (!writable_.exchange(true, std::memory_order_acq_rel)) spdlog::info("journal writes again path={}", path_);
  }

  // One transaction for everything queued.
  bool write(std::deque<pending>& work) {
    const auto started = std::chrono::steady_clock::now();
    std::size_t records = 0;
    try {
      writer_db_.exec("BEGIN IMMEDIATE");
      try {
        for (auto& p : work)
          for (auto& r : p.batch) {
            write_one(r);
            ++records;
          }
        writer_db_.exec("COMMIT");
        // Under a steady stream of commits the background checkpoint never quite catches up, and
        // the WAL could only grow. Past a bound the writer finishes the checkpoint itself between
        // two transactions (most frames are already copied), and the next commit starts the WAL
        // from the beginning.
        if (wal_pages_ >= 8 * checkpoint_pages &&
            checkpoint_failed(sqlite3_wal_checkpoint_v2(writer_db_.get(), nullptr, SQLITE_CHECKPOINT_PASSIVE, nullptr, nullptr)))
          fail("sync", writer_db_.error());  // this batch is committed; what follows waits for the disk
      } catch (...) {
        sqlite3_exec(writer_db_.get(), "ROLLBACK", nullptr, nullptr, nullptr);
        throw;
      }
    } catch (const std::exception& e) {
      fail("write", e.what());
      return false;
    }
    spdlog::trace("journal commit n={} batches={} records={} us={}", commits_.load(std::memory_order_relaxed), work.size(), records,
                  std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::steady_clock::now() - started).count());
    return true;
  }

  // Records older than --keep-records-days go (0: kept for ever).
  long long records_cutoff_ms() const {
    return keep_records_days_ > 0 ? now_ms() - static_cast<long long>(keep_records_days_) * 86'400'000LL : 0;
  }
  void prune_records() {
    if (keep_records_days_ > 0) prune_->bind(1, records_cutoff_ms()).run();
  }

  void write_one(record& r) {
    const std::string kind = r.body.value("kind", "");
    if (kind == "created") {
      ins_room_->bind(1, r.room).bind(2, now_ms()).run();
    } else if (kind == "closed" || kind == "set_aside") {
      end_room_->bind(1, kind).bind(2, r.body.value("reason", "")).bind(3, now_ms()).bind(4, r.room).run();
      del_entries_->bind(1, r.room).run();
      return;
    } else if (kind == "started" || kind == "game") {
      // A new game, or the host's choice of the next one (set_game): the last game's records and
      // an earlier choice are done with (its record stays in `games`).
      del_game_->bind(1, r.room).run();
    } else if (kind == "lobby") {
      del_lobby_->bind(1, r.room).run();
    } else if (kind == "ended" && r.body.contains("record")) {
      const json& rec = r.body["record"];
      ins_game_->bind(1, rec.value("id", "")).bind(2, r.room).bind(3, rec.value("game", "")).bind(4, now_ms()).bind(5, rec.dump()).run();
      r.body.erase("record");
      prune_records();  // an index range that is almost always empty: nothing for an idle server
    }
    ins_entry_->bind(1, r.room).bind(2, kind).bind(3, r.body.dump()).run();
    if (kind == "chat") trim_chat_->bind(1, r.room).run();
  }

  std::string path_;
  durability durability_;
  int keep_records_days_;
  db writer_db_;
  std::unique_ptr<db> reader_db_;
  std::mutex read_mutex_;
  std::unique_ptr<stmt> ins_entry_, ins_room_, end_room_, del_entries_, del_game_, del_lobby_, trim_chat_, ins_game_, prune_, probe_;

  static constexpr int checkpoint_pages = 1000;
  int wal_pages_ = 0;  // writer thread only: frames in the WAL after the last commit
  std::unique_ptr<db> checkpoint_db_;
  std::mutex checkpoint_mutex_;
  std::condition_variable checkpoint_wake_;
  bool checkpoint_due_ = false;
  bool checkpoint_stop_ = false;
  std::atomic<bool> sync_pending_{false};  // committed since the last sync (process durability)
  std::atomic<std::uint64_t> commits_{0};  // commits so far (the WAL hook counts them)
  std::thread checkpointer_;

  std::mutex mutex_;
  std::condition_variable wake_;
  std::deque<pending> queue_;
  bool stopping_ = false;
  std::atomic<bool> writable_{true};
  std::mutex state_mutex_;  // a failure and a recovery are logged in the order they happened
  std::thread writer_;
};

}  // namespace

std::unique_ptr<journal> open_sqlite_journal(const std::string& data_dir, durability d, int keep_records_days) {
  std::error_code ec;
  fs::create_directories(data_dir, ec);
  if (ec) throw std::runtime_error("cannot create data folder " + data_dir + ": " + ec.message());
  const std::string path = (fs::path(data_dir) / "tinsel.db").string();
  try {
    return std::make_unique<sqlite_journal>(path, d, keep_records_days);
  } catch (const std::exception& e) {
    // A database that is not one (or is damaged) is moved aside, kept for inspection, and a new one
    // started; a folder we cannot write to is reported as such by the caller.
    const std::string msg = e.what();
    const bool corrupt = msg.find("not a database") != std::string::npos || msg.find("malformed") != std::string::npos ||
                         msg.find("check failed") != std::string::npos || msg.find("corrupt") != std::string::npos;
    if (!corrupt) throw;
    const std::string kept = path + ".corrupt-" + std::to_string(now_ms() / 1000);
    spdlog::error("journal database is damaged path={} error=\"{}\" kept_as={}; starting a new one", path, msg, kept);
    for (const char* suffix : {"", "-wal", "-shm"}) {
      std::error_code rename_ec;
      if (fs::exists(path + suffix)) fs::rename(path + suffix, kept + suffix, rename_ec);
      if (rename_ec) throw std::runtime_error("cannot move the damaged database aside: " + rename_ec.message());
    }
    return std::make_unique<sqlite_journal>(path, d, keep_records_days);
  }
}

}  // namespace tinsel::server::storage
