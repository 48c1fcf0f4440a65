// The journal in PostgreSQL (--journal postgres), for one instance: the SQLite journal's behaviour
// (sqlite_journal.cpp) on a database server. One writer thread with group commit: every batch that
// arrived while the previous transaction committed goes into the next transaction. Readers use a
// second connection under a mutex.
//
// The schema is CLUSTER.md's, so that fencing can come without a rewrite: each room has an `epoch`
// (its owner's term, 1 until cluster mode moves rooms) and a `head` (records ever appended to it);
// an entry is numbered by the head it made, and (room, n) is the primary key, so two writers can
// never fork a room's journal. In cluster mode every write is fenced by them (CLUSTER.md; the
// instances' leases are cluster/lease.cpp's). The schema, its migrations and the statements the
// writer prepares are postgres_schema.cpp's.
//
// A database that goes away fails the batch in flight and makes the journal not writable(): every
// batch fails at once, and the writer reconnects and tries a write of its own every second until
// it goes through. Rooms rebuild themselves from load_room() after a failed write, which must work
// while the database is down: the journal keeps, in memory, what it holds of every open room (the
// same records a read would return), and answers from there.
//
// With `process` durability (synchronous_commit off) a database that crashes loses its last
// commits, acknowledged ones among them. So after every new connection the writer compares each
// open room's head with what it wrote, and puts a room the database lost back as the journal
// holds it in memory: nothing acknowledged is lost while this server runs (a finished game's
// downloadable record lost with those commits is not put back).
//
// A COMMIT whose answer was lost with the connection may or may not have happened. Its batches are
// neither acknowledged nor refused until the writer, connected again, reads the marker that every
// transaction writes: then they are, as the database says.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <map>
#include <mutex>
#include <cstdio>
#include <random>
#include <stdexcept>
#include <future>
#include <thread>
#include <unordered_map>
#include <unordered_set>

#include <spdlog/spdlog.h>

#include "ops/metrics.hpp"
#include "storage/journal.hpp"
#include "storage/pg.hpp"
#include "storage/postgres_schema.hpp"

namespace tinsel::server::storage {

namespace {

// While the journal is not writable, how often the writer tries whether it is again.
constexpr auto retry_interval = std::chrono::seconds(1);
// A write that waits this long for a lock someone else holds fails (as SQLite's busy timeout).
constexpr const char* lock_timeout = "5s";
// How long a claim of a room waits for a lock another session holds: short, since the lease
// thread claims orphans between renewals (a claim that gives up is tried again next round). A new
// code's claim waits longer for another create by the same address.
constexpr const char* claim_lock_timeout = "SET LOCAL lock_timeout = '500ms'";
constexpr const char* create_lock_timeout = "SET LOCAL lock_timeout = '2s'";
// Chat records kept per room (the newest), as in the SQLite journal.
constexpr std::size_t chat_kept = 100;

bool is_game_kind(const std::string& k) {
  return k == "game" || k == "started" || k == "command" || k == "timeout" || k == "default" || k == "ended";
}

class postgres_journal final : public journal {
 public:
  postgres_journal(const std::string& conninfo, durability d, int keep_records_days)
      : target_(pg::describe(conninfo)),
        durability_(d),
        keep_records_days_(keep_records_days),
        writer_db_(conninfo),
        reader_db_(conninfo) {
    pg_schema::migrate(writer_db_);
    setup_writer();
    prune_records();
    std::random_device rd;
    incarnation_ = std::to_string(rd()) + std::to_string(rd());
    writer_ = std::thread([this] { run(); });
  }

  ~postgres_journal() override { close(); }

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
    std::vector<stored_room> out;
    std::unordered_map<std::string, std::pair<long long, long long>> heads;  // head, epoch
    read([&](pg::connection& c) {
      out.clear();
      heads.clear();
      auto r = c.exec(
          "SELECT r.code, r.head, r.epoch, e.body FROM rooms r JOIN entries e ON e.room = r.code WHERE r.state = 'open' "
          "ORDER BY r.code, e.n");
      for (int i = 0; i < r.rows(); ++i) {
        auto code = r.text(i, 0);
        if (out.empty() || out.back().code != code) {
          out.push_back({code, {}});
          heads[code] = {r.integer(i, 1), r.integer(i, 2)};
        }
        out.back().records.push_back(json::parse(r.text(i, 3), nullptr, false));
      }
    });
    // What rooms rebuild from while the database cannot be read.
    std::lock_guard lock(held_mutex_);
    for (const auto& room : out) held_[room.code] = {heads[room.code].first, heads[room.code].second, room.records};
    return out;
  }

  std::optional<stored_room> load_room(const std::string& code) override {
    {
      std::lock_guard lock(held_mutex_);
      if (auto it = held_.find(code); it != held_.end()) return stored_room{code, it->second.records};
    }
    try {
      stored_room room{code, {}};
      read([&](pg::connection& c) {
        room.records.clear();
        auto r = c.exec("SELECT body FROM entries WHERE room = $1 ORDER BY n", {code});
        for (int i = 0; i < r.rows(); ++i) room.records.push_back(json::parse(r.text(i, 0), nullptr, false));
      });
      return room;
    } catch (const std::exception& e) {
      spdlog::error("journal read failed room={} error=\"{}\"", code, e.what());
      return std::nullopt;
    }
  }

  std::vector<std::string> used_codes() override { return codes("SELECT code FROM rooms"); }

  void set_aside(const std::string& code, const std::string& reason) override {
    append({record{code, {{"kind", "set_aside"}, {"reason", reason}}}}, [](bool) {});
  }

  std::vector<std::string> set_aside_codes() override { return codes("SELECT code FROM rooms WHERE state = 'set_aside'"); }

  std::optional<game_record> find_record(const std::string& id) override {
    try {
      std::optional<game_record> out;
      read([&](pg::connection& c) {
        auto r = c.exec("SELECT id, room, game, body FROM games WHERE id = $1 AND " + fresh_records(), {id});
        if (r.rows() > 0) out = game_record{r.text(0, 0), r.text(0, 1), r.text(0, 2), json::parse(r.text(0, 3), nullptr, false)};
      });
      return out;
    } catch (const std::exception& e) {
      spdlog::error("journal read failed record={} error=\"{}\"", id, e.what());
      return std::nullopt;
    }
  }

  bool has_record(const std::string& id) override {
    try {
      bool found = false;
      read([&](pg::connection& c) { found = c.exec("SELECT 1 FROM games WHERE id = $1 AND " + fresh_records(), {id}).rows() > 0; });
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
  }

  // Cluster mode (journal.hpp; CLUSTER.md "The rule that makes it safe").
  void set_owner(const std::string& instance, long long incarnation) override {
    std::lock_guard lock(owner_mutex_);
    instance_ = instance;
    owner_incarnation_ = incarnation;
    clustered_.store(true, std::memory_order_release);
  }

  code_claim claim_code(const std::string& code, const std::string& creator, int live_limit) override {
    const auto [instance, incarnation] = owner();
    try {
      code_claim got = code_claim::failed;
      read([&](pg::connection& c) {
        pg::transaction t(c);
        c.exec(create_lock_timeout);
        // One creator's rooms are counted one create at a time, whichever instances create them.
        c.exec("SELECT pg_advisory_xact_lock(7357617, hashtext($1))", {creator});
        if (c.exec("SELECT count(*) FROM rooms WHERE creator = $1 AND state = 'open'", {creator}).integer(0, 0) >= live_limit) {
          got = code_claim::over_limit;
          return;
        }
        got = c.exec("INSERT INTO rooms(code, owner, owner_incarnation, creator) VALUES ($1, $2, $3, $4) ON CONFLICT (code) DO NOTHING",
                     {code, instance, std::to_string(incarnation), creator})
                          .affected() == 1
                  ? code_claim::taken
                  : code_claim::in_use;
        t.commit();
      });
      if (got != code_claim::taken) return got;
      std::lock_guard lock(held_mutex_);
      held_[code] = {0, 1, {}};
      lost_.erase(code);
      return got;
    } catch (const std::exception& e) {
      spdlog::error("room code not claimed: the database cannot be reached room={} error=\"{}\"", code, e.what());
      return code_claim::failed;
    }
  }

  std::optional<stored_room> claim(const std::string& code) override {
    const auto [instance, incarnation] = owner();
    try {
      std::optional<stored_room> out;
      long long head = 0, epoch = 0;
      read([&](pg::connection& c) {
        out.reset();
        pg::transaction t(c);
        // A row locked by a transaction its stopped owner left open is not waited on for long
        // (the instance that tombstoned the owner ends its sessions, which frees it).
        c.exec(claim_lock_timeout);
        // Ours if nobody owns it (released), or its owner's incarnation is no longer live
        // (tombstoned, or registered again), or it is this very incarnation's (a room that left
        // this instance when its lease lapsed, wanted here again).
        auto r = c.exec(
            "UPDATE rooms SET owner = $2, owner_incarnation = $3, epoch = epoch + 1 WHERE code = $1 AND state = 'open' AND "
            "(owner IS NULL OR (owner = $2 AND owner_incarnation = $3) OR NOT EXISTS "
            "(SELECT 1 FROM instances i WHERE i.id = rooms.owner AND i.incarnation = rooms.owner_incarnation)) "
            "RETURNING epoch, head",
            {code, instance, std::to_string(incarnation)});
        if (r.rows() == 1) {
          epoch = r.integer(0, 0);
          head = r.integer(0, 1);
          stored_room room{code, {}};
          auto e = c.exec("SELECT body FROM entries WHERE room = $1 ORDER BY n", {code});
          for (int i = 0; i < e.rows(); ++i) room.records.push_back(json::parse(e.text(i, 0), nullptr, false));
          out = std::move(room);
        }
        t.commit();
      });
      if (!out) return std::nullopt;
      std::lock_guard lock(held_mutex_);
      held_[code] = {head, epoch, out->records};
      lost_.erase(code);
      return out;
    } catch (const std::exception& e) {
      spdlog::error("room not claimed: the database cannot be reached room={} error=\"{}\"", code, e.what());
      return std::nullopt;
    }
  }

  bool keeps_summaries() const override { return clustered(); }

  std::optional<json> summary(const std::string& code) override {
    try {
      std::string text;
      read([&](pg::connection& c) {
        auto r = c.exec("SELECT summary FROM rooms WHERE code = $1 AND state = 'open' AND summary IS NOT NULL", {code});
        text = r.rows() == 1 ? r.text(0, 0) : std::string();
      });
      if (text.empty()) return std::nullopt;
      json out = json::parse(text, nullptr, false);
      if (out.is_discarded() || !out.is_object()) return std::nullopt;
      return out;
    } catch (const std::exception& e) {
      spdlog::warn("room summary not read room={} error=\"{}\"", code, e.what());
      return std::nullopt;
    }
  }

  bool lost(const std::string& code) const override {
    std::lock_guard lock(held_mutex_);
    return lost_.count(code) > 0;
  }

  void forget(const std::string& code) override {
    std::lock_guard lock(held_mutex_);
    held_.erase(code);
  }

  bool release_all() override {
    // Everything queued so far is written first (an empty batch behind it says when).
    std::promise<bool> flushed;
    append({}, [&](bool ok) { flushed.set_value(ok); });
    flushed.get_future().wait();
    const auto [instance, incarnation] = owner();
    try {
      long long released = 0;
      read([&](pg::connection& c) {
        released = c.exec("UPDATE rooms SET owner = NULL, owner_incarnation = NULL, epoch = epoch + 1 "
                          "WHERE owner = $1 AND owner_incarnation = $2 AND state = 'open'",
                          {instance, std::to_string(incarnation)})
                       .affected();
      });
      std::lock_guard lock(held_mutex_);
      held_.clear();
      spdlog::info("rooms released for the next instance rooms={}", released);
      return true;
    } catch (const std::exception& e) {
      spdlog::error("rooms not released: the database cannot be reached error=\"{}\"; other instances take them when the lease runs out",
                    e.what());
      return false;
    }
  }

 private:
  bool clustered() const { return clustered_.load(std::memory_order_acquire); }
  std::pair<std::string, long long> owner() {
    std::lock_guard lock(owner_mutex_);
    return {instance_, owner_incarnation_};
  }

  struct pending {
    std::vector<record> batch;
    std::function<void(bool)> done;
  };
  enum class outcome { written, failed, unknown };

  // The writer's session: durability, how long it waits for a lock, and its statements.
  void setup_writer() {
    writer_db_.exec(durability_ == durability::power ? "SET synchronous_commit = on" : "SET synchronous_commit = off");
    writer_db_.exec(std::string("SET lock_timeout = '") + lock_timeout + "'");
    for (const auto& [name, sql] : pg_schema::statements) writer_db_.prepare(name, sql);
  }

  // A new writer connection; with `process` durability the database may have crashed and lost
  // commits since the last one: rooms it lost are written again from memory.
  void connect_again() {
    writer_db_.reconnect();
    setup_writer();
    settle_unknown();  // first: a room it committed holds those records
    if (durability_ == durability::process) put_back_lost_rooms();
  }

  // The batches of a COMMIT whose answer was lost: acknowledged or refused as the database says.
  void settle_unknown() {
    if (unknown_.empty()) return;
    auto r = writer_db_.exec("SELECT value FROM meta WHERE key = 'last_batch'");
    const bool committed = r.rows() == 1 && r.text(0, 0) == unknown_id_;
    spdlog::info("journal commit settled target=\"{}\" committed={} batches={}", target_, committed, unknown_.size());
    if (committed) hold(unknown_);
    for (auto& p : unknown_)
      if (p.done) p.done(committed);
    unknown_.clear();
  }

  void put_back_lost_rooms() {
    std::vector<std::string> codes;
    std::string list = "{";
    {
      std::lock_guard lock(held_mutex_);
      for (const auto& [code, room] : held_) {
        list += (codes.empty() ? "\"" : ",\"") + code + "\"";
        codes.push_back(code);
      }
    }
    if (codes.empty()) return;
    auto r = writer_db_.exec("SELECT code, head, state FROM rooms WHERE code = ANY($1::text[])", {list + "}"});
    std::unordered_map<std::string, long long> db_heads;
    for (int i = 0; i < r.rows(); ++i)
      if (r.text(i, 2) == "open") db_heads[r.text(i, 0)] = r.integer(i, 1);
    std::lock_guard lock(held_mutex_);
    for (const auto& code : codes) {
      const auto& room = held_[code];
      const auto it = db_heads.find(code);
      if (it != db_heads.end() && it->second == room.head) continue;
      pg::transaction t(writer_db_);
      const auto head = std::to_string(room.head);
      writer_db_.exec(
          "INSERT INTO rooms(code, head) VALUES ($1, $2) ON CONFLICT (code) DO UPDATE SET state = 'open', reason = NULL, "
          "ended_at = NULL, head = EXCLUDED.head",
          {code, head});
      writer_db_.run("del_entries", {code});
      long long n = room.head - static_cast<long long>(room.records.size());
      for (const auto& body : room.records)
        writer_db_.exec("INSERT INTO entries(room, n, epoch, kind, body) SELECT $1, $2, epoch, $3, $4 FROM rooms WHERE code = $1",
                        {code, std::to_string(++n), body.value("kind", ""), body.dump()});
      t.commit();
      spdlog::warn("journal room written again: the database had lost its last commits (it crashed with synchronous_commit off) "
                   "room={} head_in_database={} head={}",
                   code, it == db_heads.end() ? -1 : it->second, room.head);
    }
  }

  // Runs `f` on the reader connection; a connection found broken is made again once.
  template <class F>
  void read(F&& f) {
    std::lock_guard lock(read_mutex_);
    if (!reader_db_.alive()) reader_db_.reconnect();
    try {
      f(reader_db_);
    } catch (const pg::error&) {
      if (reader_db_.alive()) throw;
      reader_db_.reconnect();
      f(reader_db_);
    }
  }

  std::vector<std::string> codes(const char* sql) {
    std::vector<std::string> out;
    read([&](pg::connection& c) {
      out.clear();
      auto r = c.exec(sql);
      for (int i = 0; i < r.rows(); ++i) out.push_back(r.text(i, 0));
    });
    return out;
  }

  // Records younger than --keep-records-days (0: kept for ever), by the database's clock.
  std::string fresh_records() const {
    return keep_records_days_ > 0 ? "finished_at >= now() - make_interval(days => " + std::to_string(keep_records_days_) + ")"
                                  : "true";
  }
  void prune_records() {
    if (keep_records_days_ > 0) writer_db_.run("prune", {std::to_string(keep_records_days_)});
  }

  // The database stopped taking what we write: said once, until it takes it again.
  void fail(const std::string& error) {
    std::lock_guard lock(state_mutex_);
    if (!writable_.exchange(false, std::memory_order_acq_rel)) return;
    metrics().journal_failed();
    spdlog::error("journal write failed target=\"{}\" error=\"{}\"; rooms refuse what they would have to save", target_, error);
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
        if (stopping_) break;  // everything is written
        continue;
      }
      std::deque<pending> work;
      work.swap(queue_);
      lock.unlock();
      // Not writable: refused at once, and nothing half-written.
      const auto result = writable() ? write(work) : outcome::failed;
      if (result != outcome::written) next_try = std::chrono::steady_clock::now() + retry_interval;
      if (result == outcome::unknown) {
        for (auto& p : work) unknown_.push_back(std::move(p));
      } else {
        for (auto& p : work)
          if (p.done) p.done(result == outcome::written);
      }
      lock.lock();
    }
    // Stopping with the database still away: what it may have committed is not acknowledged.
    for (auto& p : unknown_)
      if (p.done) p.done(false);
    unknown_.clear();
  }

  // While not writable: connect again if need be, settle a COMMIT whose answer was lost, then a
  // write of our own, taking the locks every write takes; through, the journal writes again.
  void try_again() {
    try {
      if (!writer_db_.alive()) connect_again();
      pg::transaction t(writer_db_);
      writer_db_.exec("LOCK TABLE rooms, entries, games IN ROW EXCLUSIVE MODE");
      writer_db_.run("mark", {"probe"});
      t.commit();
    } catch (const std::exception& e) {
      spdlog::debug("journal still not writable target=\"{}\" error=\"{}\"", target_, e.what());
      return;
    }
    std::lock_guard lock(state_mutex_);
    if (!writable_.exchange(true, std::memory_order_acq_rel)) spdlog::info("journal writes again target=\"{}\"", target_);
  }

  // One transaction for everything queued. A connection found broken before anything is written
  // (the database restarted while we were idle) is made again once, and the batch tried again. A
  // room whose write is fenced (another instance owns it now) is taken out: its batches fail, the
  // transaction is rolled back and tried again with the others.
  outcome write(std::deque<pending>& work) {
    const auto started = std::chrono::steady_clock::now();
    const std::string id = incarnation_ + "-" + std::to_string(++transactions_);
    std::size_t records = 0;
    for (int attempt = 0;; ++attempt) {
      bool committing = false;
      try {
        if (!writer_db_.alive()) connect_again();
        writer_db_.exec("BEGIN");
        try {
          records = 0;
          std::unordered_map<std::string, expected> expect;
          for (const auto& p : work)
            for (const auto& r : p.batch) {
              write_one(r, expect);
              ++records;
            }
          writer_db_.run("mark", {id});
          committing = true;
          writer_db_.exec("COMMIT");
        } catch (...) {
          if (!committing && writer_db_.alive()) writer_db_.exec("ROLLBACK");
          throw;
        }
        break;
      } catch (const fenced& f) {
        // Not a storage failure: the room is another instance's. Its batches fail (the room then
        // asks lost() and leaves); the others are written without it.
        metrics().journal_fenced();
        spdlog::warn("journal write fenced: another instance owns the room now room={}", f.room);
        {
          std::lock_guard lock(held_mutex_);
          lost_.insert(f.room);
          held_.erase(f.room);
        }
        for (auto it = work.begin(); it != work.end();) {
          if (std::any_of(it->batch.begin(), it->batch.end(), [&](const record& r) { return r.room == f.room; })) {
            if (it->done) it->done(false);
            it = work.erase(it);
          } else {
            ++it;
          }
        }
        --attempt;  // not a connection's failure
        if (work.empty()) return outcome::written;
        continue;
      } catch (const std::exception& e) {
        if (committing && !writer_db_.alive()) {
          unknown_id_ = id;
          fail(std::string("the answer to a COMMIT was lost: ") + e.what());
          return outcome::unknown;
        }
        if (attempt == 0 && !writer_db_.alive()) {
          spdlog::debug("journal connection lost, connecting again target=\"{}\" error=\"{}\"", target_, e.what());
          continue;
        }
        fail(e.what());
        return outcome::failed;
      }
    }
    hold(work);
    const auto us = std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::steady_clock::now() - started).count();
    metrics().journal_commit(us);
    spdlog::trace("journal commit n={} batches={} records={} us={}", transactions_, work.size(), records, us);
    return outcome::written;
  }

  // The body an entry keeps: an `ended` record's game record goes to `games` instead. A copy: a
  // batch tried again (or kept in memory) still has it.
  // A room's public summary rides on its batches in cluster mode; it goes to rooms.summary.
  static json entry_body(const record& r) {
    const bool record = r.body.value("kind", "") == "ended" && r.body.contains("record");
    if (!record && !r.body.contains("summary")) return r.body;
    json body = r.body;
    body.erase("record");
    body.erase("summary");
    return body;
  }

  // What a room's next write expects to find (its epoch and head), within one transaction.
  struct expected {
    long long epoch = 0;
    long long head = 0;
    bool checked = false;  // false: a room this journal does not hold (one instance: written unfenced)
  };
  struct fenced {
    std::string room;
  };

  expected& expectation(const std::string& room, std::unordered_map<std::string, expected>& expect) {
    auto it = expect.find(room);
    if (it != expect.end()) return it->second;
    expected e;
    {
      std::lock_guard lock(held_mutex_);
      if (auto h = held_.find(room); h != held_.end()) e = {h->second.epoch, h->second.head, true};
    }
    // Cluster mode: a room this instance does not hold is not its to write.
    if (!e.checked && clustered()) throw fenced{room};
    return expect.emplace(room, e).first->second;
  }

  void write_one(const record& r, std::unordered_map<std::string, expected>& expect) {
    const std::string kind = r.body.value("kind", "");
    if (r.body.contains("summary")) writer_db_.run("set_summary", {r.room, r.body["summary"].dump()});
    if (kind == "created" && !clustered()) {
      // One instance: the room's row is made (or opened again) here. In cluster mode claim_code
      // made it, owned by this instance, before the room was.
      auto row = writer_db_.run("ins_room", {r.room});
      expect[r.room] = {row.integer(0, 0), row.integer(0, 1), true};
    }
    expected& e = expectation(r.room, expect);
    const std::vector<std::string> fence = {std::to_string(e.epoch), std::to_string(e.head)};
    if (kind == "closed" || kind == "set_aside") {
      if (e.checked) {
        if (writer_db_.run("end_room_fenced", {r.room, kind, r.body.value("reason", ""), fence[0], fence[1]}).affected() != 1)
          throw fenced{r.room};
      } else {
        writer_db_.run("end_room", {r.room, kind, r.body.value("reason", "")});
      }
      writer_db_.run("del_entries", {r.room});
      return;
    } else if (kind == "started" || kind == "game") {
      writer_db_.run("del_game", {r.room});
    } else if (kind == "lobby") {
      writer_db_.run("del_lobby", {r.room});
    } else if (kind == "ended" && r.body.contains("record")) {
      const json& rec = r.body["record"];
      writer_db_.run("ins_game", {rec.value("id", ""), r.room, rec.value("game", ""), rec.dump()});
      prune_records();
    }
    const auto body = entry_body(r).dump();
    if (e.checked) {
      if (writer_db_.run("ins_entry_fenced", {r.room, kind, body, fence[0], fence[1]}).affected() != 1) throw fenced{r.room};
      ++e.head;
    } else if (writer_db_.run("ins_entry", {r.room, kind, body}).affected() != 1) {
      throw std::runtime_error("room " + r.room + " is not in the journal");
    }
    if (kind == "chat") writer_db_.run("trim_chat", {r.room});
  }

  // What the database now holds of each open room, kept in memory by the same rules as write_one.
  void hold(const std::deque<pending>& work) {
    std::lock_guard lock(held_mutex_);
    for (const auto& p : work)
      for (const auto& r : p.batch) {
        const std::string kind = r.body.value("kind", "");
        if (kind == "closed" || kind == "set_aside") {
          held_.erase(r.room);
          continue;
        }
        if (kind == "created") {
          const auto it = held_.find(r.room);
          held_[r.room] = {0, it == held_.end() ? 1 : it->second.epoch, {}};
        }
        auto it = held_.find(r.room);
        if (it == held_.end()) continue;  // not an open room of ours
        ++it->second.head;
        auto& recs = it->second.records;
        const auto drop = [&](auto pred) { recs.erase(std::remove_if(recs.begin(), recs.end(), pred), recs.end()); };
        if (kind == "started" || kind == "game") drop([](const json& b) { return is_game_kind(b.value("kind", "")); });
        else if (kind == "lobby") drop([](const json& b) { return b.value("kind", "") == "lobby"; });
        recs.push_back(entry_body(r));
        if (kind == "chat") {
          std::size_t chats = 0;
          for (const auto& b : recs) chats += b.value("kind", "") == "chat";
          for (auto at = recs.begin(); chats > chat_kept && at != recs.end();) {
            if (at->value("kind", "") == "chat") {
              at = recs.erase(at);
              --chats;
            } else {
              ++at;
            }
          }
        }
      }
  }

  std::string target_;  // where the database is, without a password
  durability durability_;
  int keep_records_days_;
  pg::connection writer_db_;  // the writer thread's (and the constructor's)
  pg::connection reader_db_;
  std::mutex read_mutex_;

  // Each open room as the database holds it: its head and its records.
  struct held_room {
    long long head = 0;
    long long epoch = 1;
    std::vector<json> records;
  };
  mutable std::mutex held_mutex_;
  std::unordered_map<std::string, held_room> held_;
  std::unordered_set<std::string> lost_;  // rooms whose write was fenced (cluster mode)

  std::mutex owner_mutex_;
  std::string instance_;              // cluster mode: this instance's id
  long long owner_incarnation_ = 0;   // and its incarnation
  std::atomic<bool> clustered_{false};

  std::string incarnation_;         // this process, in the marker of each transaction
  std::uint64_t transactions_ = 0;  // writer thread only
  std::string unknown_id_;          // the marker of the transaction whose COMMIT went unanswered
  std::deque<pending> unknown_;     // its batches, waiting to be settled (writer thread only)

  std::mutex mutex_;
  std::condition_variable wake_;
  std::deque<pending> queue_;
  bool stopping_ = false;
  std::atomic<bool> writable_{true};
  std::mutex state_mutex_;  // a failure and a recovery are logged in the order they happened
  std::thread writer_;
};

}  // namespace

std::string postgres_target(const std::string& conninfo) { return pg::describe(conninfo); }

std::string name_postgres_sessions(const std::string& instance) {
  std::random_device rd;
  char tag[9];
  std::snprintf(tag, sizeof tag, "%08x", static_cast<unsigned>(rd()));
  const std::string name = "tinsel/" + instance + "/" + tag;
  pg::set_session_name(name);
  return name;
}

std::unique_ptr<journal> open_postgres_journal(const std::string& conninfo, durability d, int keep_records_days) {
  if (std::string why; !pg::valid_conninfo(conninfo, why)) throw std::runtime_error("--postgres is not a libpq connection string: " + why);
  try {
    return std::make_unique<postgres_journal>(conninfo, d, keep_records_days);
  } catch (const std::exception& e) {
    throw std::runtime_error("cannot use the PostgreSQL database " + pg::describe(conninfo) + ": " + e.what());
  }
}

}  // namespace tinsel::server::storage
