#include "journal_store.hpp"

#include <stdlib.h>
#include <sqlite3.h>

#include <catch2/catch.hpp>
#include <filesystem>

#include "postgres_cluster.hpp"
#include "storage/pg.hpp"

namespace tinsel::test {

namespace {

journal_kind under_test = journal_kind::sqlite;

// One SQLite statement with text parameters; calls `row` for each row; returns the rows changed.
template <class F>
int sqlite_exec(const std::string& path, const std::string& sql, const std::vector<std::string>& params, F&& row) {
  sqlite3* db = nullptr;
  REQUIRE(sqlite3_open(path.c_str(), &db) == SQLITE_OK);
  sqlite3_busy_timeout(db, 30000);
  sqlite3_stmt* s = nullptr;
  INFO(sql);
  REQUIRE(sqlite3_prepare_v2(db, sql.c_str(), -1, &s, nullptr) == SQLITE_OK);
  for (std::size_t i = 0; i < params.size(); ++i)
    sqlite3_bind_text(s, static_cast<int>(i + 1), params[i].c_str(), -1, SQLITE_TRANSIENT);
  int rc = 0;
  while ((rc = sqlite3_step(s)) == SQLITE_ROW) row(s);
  sqlite3_finalize(s);
  const int changed = sqlite3_changes(db);
  sqlite3_close(db);
  REQUIRE(rc == SQLITE_DONE);
  return changed;
}

std::string column(sqlite3_stmt* s, int i) {
  const auto* p = reinterpret_cast<const char*>(sqlite3_column_text(s, i));
  return p ? std::string(p, static_cast<std::size_t>(sqlite3_column_bytes(s, i))) : std::string();
}

}  // namespace

journal_kind journal_under_test() { return under_test; }
void set_journal_under_test(journal_kind k) { under_test = k; }

namespace {

struct sqlite_lock : journal_store::lock {
  explicit sqlite_lock(const std::string& path) {
    REQUIRE(sqlite3_open(path.c_str(), &db) == SQLITE_OK);
    REQUIRE(sqlite3_exec(db, "BEGIN EXCLUSIVE", nullptr, nullptr, nullptr) == SQLITE_OK);
  }
  ~sqlite_lock() override {
    sqlite3_exec(db, "ROLLBACK", nullptr, nullptr, nullptr);
    sqlite3_close(db);
  }
  sqlite3* db = nullptr;
};

struct postgres_lock : journal_store::lock {
  explicit postgres_lock(const std::string& conninfo) : c(conninfo) {
    c.exec("BEGIN");
    c.exec("LOCK TABLE rooms, entries, games IN EXCLUSIVE MODE");
  }
  ~postgres_lock() override {
    try {
      c.exec("ROLLBACK");
    } catch (...) {
    }
  }
  server::storage::pg::connection c;
};

}  // namespace

journal_store::journal_store(postgres_cluster* cluster) : kind_(under_test) {
  if (kind_ == journal_kind::sqlite) {
    char t[] = "/tmp/tinsel-durable-XXXXXX";
    REQUIRE(::mkdtemp(t) != nullptr);
    dir_ = t;
  } else {
    conninfo_ = (cluster ? *cluster : postgres_cluster::shared()).create_database();
  }
}

journal_store::~journal_store() {
  if (!dir_.empty()) {
    std::error_code ec;
    std::filesystem::remove_all(dir_, ec);
  }
}

std::vector<std::string> journal_store::flags() const {
  if (kind_ == journal_kind::sqlite) return {"--data-dir", dir_};
  return {"--journal", "postgres", "--postgres", conninfo_};
}

std::string journal_store::health() const { return kind_ == journal_kind::sqlite ? "sqlite" : "postgres"; }

std::vector<journal_store::entry> journal_store::entries(const std::string& room) {
  std::vector<entry> out;
  if (kind_ == journal_kind::sqlite) {
    sqlite_exec(dir_ + "/tinsel.db", "SELECT id, kind, body FROM entries WHERE room = ?1 ORDER BY id", {room}, [&](sqlite3_stmt* s) {
      out.push_back({sqlite3_column_int64(s, 0), column(s, 1), column(s, 2)});
    });
  } else {
    server::storage::pg::connection c(conninfo_);
    auto r = c.exec("SELECT n, kind, body FROM entries WHERE room = $1 ORDER BY n", {room});
    for (int i = 0; i < r.rows(); ++i) out.push_back({r.integer(i, 0), r.text(i, 1), r.text(i, 2)});
  }
  return out;
}

journal_store::entry journal_store::nth(const std::string& room, const std::string& kind, int n) {
  int seen = 0;
  for (auto& e : entries(room))
    if (e.kind == kind && seen++ == n) return e;
  FAIL("room " << room << " has no " << kind << " record #" << n);
  return {};
}

int journal_store::set_body(const std::string& room, long long id, const std::string& body) {
  if (kind_ == journal_kind::sqlite)
    return sqlite_exec(dir_ + "/tinsel.db", "UPDATE entries SET body = ?3 WHERE room = ?1 AND id = ?2", {room, std::to_string(id), body},
                       [](sqlite3_stmt*) {});
  server::storage::pg::connection c(conninfo_);
  return static_cast<int>(
      c.exec("UPDATE entries SET body = $3 WHERE room = $1 AND n = $2", {room, std::to_string(id), body}).affected());
}

int journal_store::remove(const std::string& room, long long id) {
  if (kind_ == journal_kind::sqlite)
    return sqlite_exec(dir_ + "/tinsel.db", "DELETE FROM entries WHERE room = ?1 AND id = ?2", {room, std::to_string(id)},
                       [](sqlite3_stmt*) {});
  server::storage::pg::connection c(conninfo_);
  return static_cast<int>(c.exec("DELETE FROM entries WHERE room = $1 AND n = $2", {room, std::to_string(id)}).affected());
}

int journal_store::add(const std::string& room, const std::string& kind, const std::string& body) {
  if (kind_ == journal_kind::sqlite)
    return sqlite_exec(dir_ + "/tinsel.db", "INSERT INTO entries(room, kind, body) VALUES (?1, ?2, ?3)", {room, kind, body},
                       [](sqlite3_stmt*) {});
  server::storage::pg::connection c(conninfo_);
  return static_cast<int>(c.exec("WITH r AS (UPDATE rooms SET head = head + 1 WHERE code = $1 RETURNING head, epoch) "
                                 "INSERT INTO entries(room, n, epoch, kind, body) SELECT $1, head, epoch, $2, $3 FROM r",
                                 {room, kind, body})
                              .affected());
}

int journal_store::count(const std::string& room, const std::string& kind) {
  int n = 0;
  for (const auto& e : entries(room)) n += e.kind == kind;
  return n;
}

std::unique_ptr<journal_store::lock> journal_store::hold_writes() {
  if (kind_ == journal_kind::sqlite) return std::make_unique<sqlite_lock>(dir_ + "/tinsel.db");
  return std::make_unique<postgres_lock>(conninfo_);
}

int journal_store::records(const std::string& id) {
  if (kind_ == journal_kind::sqlite) {
    int n = 0;
    sqlite_exec(dir_ + "/tinsel.db", "SELECT count(*) FROM games WHERE id = ?1", {id}, [&](sqlite3_stmt* s) { n = sqlite3_column_int(s, 0); });
    return n;
  }
  server::storage::pg::connection c(conninfo_);
  return static_cast<int>(c.exec("SELECT count(*) FROM games WHERE id = $1", {id}).integer(0, 0));
}

void journal_store::age_record(const std::string& id, int days) {
  if (kind_ == journal_kind::sqlite) {
    REQUIRE(sqlite_exec(dir_ + "/tinsel.db", "UPDATE games SET finished_ms = finished_ms - ?2 * 86400000 WHERE id = ?1",
                        {id, std::to_string(days)}, [](sqlite3_stmt*) {}) == 1);
    return;
  }
  server::storage::pg::connection c(conninfo_);
  REQUIRE(c.exec("UPDATE games SET finished_at = finished_at - make_interval(days => $2::int) WHERE id = $1", {id, std::to_string(days)})
              .affected() == 1);
}

}  // namespace tinsel::test
