#pragma once
// The journal: what happened in every room, written ahead of telling anyone, so that a restart or a
// crash loses no acknowledged command. Rooms see only this interface; server/src/storage/
// sqlite_journal.cpp and postgres_journal.cpp implement it.
//
// Records are JSON objects with a `kind` (docs/operations.md, "The journal", lists them). A room
// appends the records of one operation as one batch; `done` runs once the batch is durable (true)
// or could not be written (false), on the journal's writer thread: the caller posts from there to
// where it lives. Batches are written in the order they were appended.
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace tinsel::server::storage {

using json = nlohmann::json;

struct record {
  std::string room;  // room code
  json body;         // {"kind": ..., ...}
};

// A room as the journal holds it: its records in order.
struct stored_room {
  std::string code;
  std::vector<json> records;
};

// A finished game, as anyone may download and check it (docs/protocol.md, "Game records").
struct game_record {
  std::string id;
  std::string room;
  std::string game;
  json body;
};

enum class durability { process, power };

// What claim_code did: took the code; found it in use (draw another); refused it because the creator
// has its limit of open rooms; or could not reach the database.
enum class code_claim { taken, in_use, over_limit, failed };

class journal {
 public:
  virtual ~journal() = default;
  virtual void append(std::vector<record> batch, std::function<void(bool ok)> done) = 0;
  // Rooms neither closed nor expired nor set aside, for recovery at start.
  virtual std::vector<stored_room> open_rooms() = 0;
  // One room's records (to rebuild a room after a failed write); nullopt when unreadable.
  virtual std::optional<stored_room> load_room(const std::string& code) = 0;
  // Every room code ever handed out, so that codes stay unique across restarts.
  virtual std::vector<std::string> used_codes() = 0;
  // A room that cannot be recovered: kept out of recovery, its code answers room_unavailable.
  virtual void set_aside(const std::string& code, const std::string& reason) = 0;
  virtual std::vector<std::string> set_aside_codes() = 0;
  // A record younger than --keep-records-days (older ones are pruned at start and whenever a game
  // ends, and never served in between).
  virtual std::optional<game_record> find_record(const std::string& id) = 0;
  // Whether find_record(id) would find it, without reading it (a copy kept elsewhere, such as the
  // HTTP layer's compressed one, must not outlive the record's days).
  virtual bool has_record(const std::string& id) { return find_record(id).has_value(); }
  // Whether writes reach the disk now: false from a write or a sync (checkpoint) that failed until
  // the journal, trying again by itself every second, has written and synced once more. While
  // false every batch fails at once. Safe from any thread; an atomic load.
  virtual bool writable() const = 0;
  // Writes what is queued, then stops the writer. Idempotent.
  virtual void close() = 0;

  // Cluster mode (PostgreSQL only; CLUSTER.md). Every write of a room is fenced: it goes through
  // only while the room's epoch and head are what this instance last wrote, so an instance that
  // lost a room writes nothing for it, ever; its batch fails and lost(code) says why.
  // `owner`: this instance's id and incarnation (a new one after it was tombstoned).
  virtual void set_owner(const std::string& /*instance*/, long long /*incarnation*/) {}
  // A new room's code, taken in the database for this instance (epoch 1) before anyone hears of
  // it, for `creator` (an address key) unless that address already has `live_limit` open rooms
  // across the cluster (counted one create at a time).
  virtual code_claim claim_code(const std::string& /*code*/, const std::string& /*creator*/, int /*live_limit*/) {
    return code_claim::taken;
  }
  // Takes over an open room whose owner is gone (tombstoned, released, or this instance's own
  // earlier incarnation): its epoch grows by one and its records are returned for restore().
  // nullopt: another live instance owns it, it is not open, or the database cannot be reached.
  virtual std::optional<stored_room> claim(const std::string& /*code*/) { return std::nullopt; }
  // Whether rooms send their public summary (room::public_summary) with their records, as a
  // `summary` member of a batch's last record, for summary() on every instance.
  virtual bool keeps_summaries() const { return false; }
  // The public summary of an open room as its owner last wrote it; nullopt if none.
  virtual std::optional<json> summary(const std::string& /*code*/) { return std::nullopt; }
  // Whether a write of this room was refused because another instance owns it now.
  virtual bool lost(const std::string& /*code*/) const { return false; }
  // The room left this instance: nothing more is written for it.
  virtual void forget(const std::string& /*code*/) {}
  // Drain: after every write queued so far, the rooms are released (no owner, epoch + 1) so that
  // the next instance claims them at once. Blocks until done; false when the database refused.
  virtual bool release_all() { return true; }
};

// Opens (creating folder and database as needed) `<data_dir>/tinsel.db`. Throws std::runtime_error
// with a clear message when the folder or the database cannot be used.
std::unique_ptr<journal> open_sqlite_journal(const std::string& data_dir, durability d, int keep_records_days);

// Connects to the PostgreSQL database `conninfo` (a libpq connection string) and creates or migrates
// its schema. Throws std::runtime_error with one clear line (never the password) when it cannot.
std::unique_ptr<journal> open_postgres_journal(const std::string& conninfo, durability d, int keep_records_days);
// Where `conninfo` points ("host=... port=... dbname=... user=..."), without its password: for logs.
std::string postgres_target(const std::string& conninfo);
// Cluster mode, before the journal opens: every PostgreSQL session this process makes is named
// "tinsel/<instance>/<a random tag of this process>" (application_name), so that an instance
// taking over this one's rooms can end its sessions, and with them the row locks of a
// transaction it left open (a stopped process keeps them). Returns the name.
std::string name_postgres_sessions(const std::string& instance);

}  // namespace tinsel::server::storage
