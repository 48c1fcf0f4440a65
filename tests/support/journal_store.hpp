#pragma once
// Where a durable-rooms test keeps its rooms, on the journal under test: a data folder of its own
// (SQLite, integration_tests) or a database of its own in the run's PostgreSQL
// (postgres_journal_tests). The same test bodies run on both: they start servers with flags(), and
// damage, inspect or hold the journal through the members below, which say the same thing in each
// store's own terms.
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace tinsel::test {

enum class journal_kind { sqlite, postgres };
// Which journal this test binary runs on (its main sets it).
journal_kind journal_under_test();
void set_journal_under_test(journal_kind k);

class postgres_cluster;

class journal_store {
 public:
  // A fresh, empty store; on PostgreSQL a new database in `cluster` (the run's shared one unless
  // given).
  explicit journal_store(postgres_cluster* cluster = nullptr);
  ~journal_store();  // removes the data folder (a test database goes with its cluster)
  journal_store(const journal_store&) = delete;
  journal_store& operator=(const journal_store&) = delete;

  journal_kind kind() const { return kind_; }
  // The server flags that use this store ("--data-dir DIR", or "--journal postgres --postgres ...").
  std::vector<std::string> flags() const;
  // What /healthz says of a writable journal of this kind ("sqlite" or "postgres").
  std::string health() const;
  const std::string& dir() const { return dir_; }            // SQLite: the data folder
  const std::string& conninfo() const { return conninfo_; }  // PostgreSQL: the database

  // One record of a room's journal, in order: `id` orders them (SQLite's entry id, PostgreSQL's n).
  struct entry {
    long long id;
    std::string kind;  // the kind column (a body may say otherwise, after a test edited it)
    std::string body;  // as stored: JSON text, unless a test spoiled it
  };
  std::vector<entry> entries(const std::string& room);
  // The n-th (0-based) record of `kind` in the room's journal (a failed REQUIRE if there is none).
  entry nth(const std::string& room, const std::string& kind, int n);
  // Edits while no server runs; each returns the records it changed.
  int set_body(const std::string& room, long long id, const std::string& body);
  int remove(const std::string& room, long long id);
  int add(const std::string& room, const std::string& kind, const std::string& body);  // at the end
  int count(const std::string& room, const std::string& kind);

  // Someone else holds the journal's write lock until the returned object goes (a stuck backup
  // tool): SQLite BEGIN EXCLUSIVE; PostgreSQL LOCK TABLE ... IN EXCLUSIVE MODE, which lets reads by.
  struct lock {
    virtual ~lock() = default;
  };
  std::unique_ptr<lock> hold_writes();

  // Finished games' records: how many have `id`, and moving one's finish back by `days`.
  int records(const std::string& id);
  void age_record(const std::string& id, int days);

 private:
  journal_kind kind_;
  std::string dir_;
  std::string conninfo_;
};

}  // namespace tinsel::test
