#pragma once
// The PostgreSQL journal's schema: its migrations (applied at start, one version at a time, with a
// schema version table) and the statements the journal's writer prepares on each connection.
// Tables: rooms (every code ever handed out, its state, epoch and head; in cluster mode its owner,
// summary and creator), entries (the open rooms' records), games (finished games' records), meta
// (the writer's marker), instances (cluster mode's leases), join_misses (failed joins across a
// cluster).
#include <utility>
#include <vector>

#include "storage/pg.hpp"

namespace tinsel::server::storage::pg_schema {

// Creates or migrates the schema in one transaction (several servers starting on one database
// migrate one after the other). Throws when the database's schema is newer than this server's.
void migrate(pg::connection& c);

// name -> SQL of every statement the writer prepares.
extern const std::vector<std::pair<const char*, const char*>> statements;

}  // namespace tinsel::server::storage::pg_schema
