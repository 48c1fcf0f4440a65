// The PostgreSQL journal's schema (postgres_schema.hpp).
#include "storage/postgres_schema.hpp"

#include <stdexcept>

#include <spdlog/spdlog.h>

namespace tinsel::server::storage::pg_schema {

namespace {

// migrations[i] takes the schema from version i to i + 1; schema_version holds the versions
// applied. Tables: rooms (every code ever handed out, its state, epoch and head), entries (the open
// rooms' records), games (finished games' records), meta (the writer's marker and probe).
const std::vector<const char*> migrations = {
    R"sql(
CREATE TABLE rooms(
  code text PRIMARY KEY,
  state text NOT NULL DEFAULT 'open' CHECK (state IN ('open', 'closed', 'set_aside')),
  reason text,
  epoch bigint NOT NULL DEFAULT 1,
  head bigint NOT NULL DEFAULT 0,
  created_at timestamptz NOT NULL DEFAULT now(),
  ended_at timestamptz);
CREATE TABLE entries(
  room text NOT NULL REFERENCES rooms(code),
  n bigint NOT NULL,
  epoch bigint NOT NULL,
  kind text NOT NULL,
  body text NOT NULL,
  PRIMARY KEY (room, n));
CREATE TABLE games(
  id text PRIMARY KEY,
  room text NOT NULL,
  game text NOT NULL,
  finished_at timestamptz NOT NULL,
  body text NOT NULL);
CREATE INDEX games_finished ON games(finished_at);
CREATE TABLE meta(key text PRIMARY KEY, value text NOT NULL);
)sql",
    // Cluster mode: the instances and their leases (lease_until on the database's clock; a
    // negative incarnation is a tombstone), and each room's owner (instance and incarnation).
    R"sql(
CREATE TABLE instances(
  id text PRIMARY KEY,
  incarnation bigint NOT NULL,
  lease_until timestamptz NOT NULL,
  draining boolean NOT NULL DEFAULT false,
  started_at timestamptz NOT NULL DEFAULT now());
ALTER TABLE rooms ADD COLUMN owner text, ADD COLUMN owner_incarnation bigint, ADD COLUMN summary text;
CREATE INDEX rooms_open_owner ON rooms(owner) WHERE state = 'open';
)sql",
    // Limits across a cluster: failed joins per address key or IPv6 /48 (cluster/shared_misses),
    // and who created each open room (an address key, cleared when the room ends). And each
    // instance's session name (application_name), so that a takeover can end its sessions.
    R"sql(
ALTER TABLE instances ADD COLUMN session text;
CREATE TABLE join_misses(
  key text PRIMARY KEY,
  misses integer NOT NULL,
  last_miss timestamptz NOT NULL);
ALTER TABLE rooms ADD COLUMN creator text;
CREATE INDEX rooms_open_creator ON rooms(creator) WHERE state = 'open';
)sql",
};

// Any constant: start-ups of several servers on one database migrate one after the other.
constexpr const char* migration_lock = "SELECT pg_advisory_xact_lock(7357616)";

}  // namespace

void migrate(pg::connection& c) {
  pg::transaction t(c);
  c.exec(migration_lock);
  c.exec("CREATE TABLE IF NOT EXISTS schema_version(version integer PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())");
  const auto have = static_cast<std::size_t>(c.exec("SELECT coalesce(max(version), 0) FROM schema_version").integer(0, 0));
  if (have > migrations.size())
    throw std::runtime_error("the database's schema is version " + std::to_string(have) + ", newer than this server's (" +
                             std::to_string(migrations.size()) + "): run a newer tinsel-server, or give this one a database of its own");
  for (auto v = have; v < migrations.size(); ++v) {
    c.exec(migrations[v]);
    c.exec("INSERT INTO schema_version(version) VALUES ($1)", {std::to_string(v + 1)});
    spdlog::info("journal schema migrated to version={}", v + 1);
  }
  t.commit();
}

const std::vector<std::pair<const char*, const char*>> statements = {
    {"ins_entry",
     "WITH r AS (UPDATE rooms SET head = head + 1 WHERE code = $1 RETURNING head, epoch) "
     "INSERT INTO entries(room, n, epoch, kind, body) SELECT $1, head, epoch, $2, $3 FROM r"},
    // Fenced: only while the room's epoch and head are what this writer last wrote (CLUSTER.md).
    {"ins_entry_fenced",
     "WITH r AS (UPDATE rooms SET head = head + 1 WHERE code = $1 AND epoch = $4 AND head = $5 RETURNING head, epoch) "
     "INSERT INTO entries(room, n, epoch, kind, body) SELECT $1, head, epoch, $2, $3 FROM r"},
    {"ins_room",
     "INSERT INTO rooms(code) VALUES ($1) ON CONFLICT (code) DO UPDATE SET state = 'open', reason = NULL, ended_at = NULL "
     "RETURNING epoch, head"},
    {"end_room", "UPDATE rooms SET state = $2, reason = $3, ended_at = now(), creator = NULL WHERE code = $1"},
    {"end_room_fenced",
     "UPDATE rooms SET state = $2, reason = $3, ended_at = now(), creator = NULL WHERE code = $1 AND epoch = $4 AND head = $5"},
    {"del_entries", "DELETE FROM entries WHERE room = $1"},
    // A new game, or the host's choice of the next one: the last game's records go.
    {"del_game", "DELETE FROM entries WHERE room = $1 AND kind IN ('game', 'started', 'command', 'timeout', 'default', 'ended')"},
    // A lobby snapshot replaces the one before it.
    {"del_lobby", "DELETE FROM entries WHERE room = $1 AND kind = 'lobby'"},
    {"trim_chat",
     "DELETE FROM entries WHERE room = $1 AND kind = 'chat' AND n <= "
     "(SELECT n FROM entries WHERE room = $1 AND kind = 'chat' ORDER BY n DESC LIMIT 1 OFFSET 100)"},
    {"ins_game",
     "INSERT INTO games(id, room, game, finished_at, body) VALUES ($1, $2, $3, now(), $4) ON CONFLICT (id) DO UPDATE "
     "SET room = EXCLUDED.room, game = EXCLUDED.game, finished_at = EXCLUDED.finished_at, body = EXCLUDED.body"},
    {"set_summary", "UPDATE rooms SET summary = $2 WHERE code = $1"},
    {"prune", "DELETE FROM games WHERE finished_at < now() - make_interval(days => $1::int)"},
    {"mark", "INSERT INTO meta(key, value) VALUES ('last_batch', $1) ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value"},
};

}  // namespace tinsel::server::storage::pg_schema
