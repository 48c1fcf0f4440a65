// The SQLite journal keeps only the current game of a room: a `started` record deletes the previous
// game's records, every kind of them, so that replaying the room after a restart meets no record
// of a game that is no longer there (room_journal.cpp refuses one as "a game record outside a
// game" and sets the whole room aside).
#include <catch2/catch.hpp>

#include <stdlib.h>

#include <filesystem>
#include <future>

#include "storage/journal.hpp"

using tinsel::server::storage::record;
using json = nlohmann::json;

namespace {

void write(tinsel::server::storage::journal& j, const std::string& room, std::vector<json> bodies) {
  std::vector<record> batch;
  for (auto& b : bodies) batch.push_back({room, std::move(b)});
  std::promise<bool> done;
  j.append(std::move(batch), [&](bool ok) { done.set_value(ok); });
  REQUIRE(done.get_future().get());
}

}  // namespace

TEST_CASE("journal: a new game's start drops every record of the previous game, server defaults included",
          "[journal]") {
  char t[] = "/tmp/tinsel-journal-XXXXXX";
  REQUIRE(::mkdtemp(t) != nullptr);
  const std::string dir = t;
  {
    auto j = tinsel::server::storage::open_sqlite_journal(dir, tinsel::server::storage::durability::process, 0);
    write(*j, "ABCDEF", {{{"kind", "created"}, {"game", "happy_holidays"}, {"options", json::object()}}});
    write(*j, "ABCDEF", {{{"kind", "started"}, {"seq", 1}}});
    write(*j, "ABCDEF", {{{"kind", "command"}, {"seq", 2}}});
    write(*j, "ABCDEF", {{{"kind", "timeout"}, {"seq", 3}}});
    write(*j, "ABCDEF", {{{"kind", "default"}, {"seq", 4}, {"serial", 7}}});
    write(*j, "ABCDEF", {{{"kind", "chat"}, {"message", "gg"}}});
    write(*j, "ABCDEF", {{{"kind", "ended"}, {"seq", 4}, {"result", json::object()}}});
    write(*j, "ABCDEF", {{{"kind", "started"}, {"seq", 5}}});
    write(*j, "ABCDEF", {{{"kind", "command"}, {"seq", 6}}});
    j->close();
  }
  auto j = tinsel::server::storage::open_sqlite_journal(dir, tinsel::server::storage::durability::process, 0);
  const auto room = j->load_room("ABCDEF");
  REQUIRE(room);
  std::vector<std::string> kinds;
  for (const auto& r : room->records) kinds.push_back(r.at("kind").get<std::string>() + "@" + r.value("seq", json(0)).dump());
  CHECK(kinds == std::vector<std::string>{"created@0", "chat@0", "started@5", "command@6"});
  j->close();
  std::filesystem::remove_all(dir);
}
