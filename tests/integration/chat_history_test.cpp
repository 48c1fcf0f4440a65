// docs/protocol.md, "chat": whoever joins a room that has chat, also after a server restart,
// receives the room's last 100 messages, oldest first. Checked below, at and above the limit
// (99, 100, 101 and 250 lines), before and after a restart, and in the journal itself, which keeps
// the last 100 chat lines (docs/operations.md, "The journal").
#include <catch2/catch.hpp>

#include <stdlib.h>
#include <sqlite3.h>

#include <filesystem>
#include <map>

#include "server_process.hpp"
#include "ws_client.hpp"

using namespace tinsel::test;
using json = nlohmann::json;

namespace {

constexpr std::size_t history_lines = 100;

std::vector<std::string> flags(const std::string& dir) {
  return {"--data-dir", dir, "--rate-per-sec", "100000", "--rate-burst", "100000"};
}

// A new spectator joins `code` and returns the texts of its chat_history (empty without one).
std::vector<std::string> history_seen_by_joiner(std::uint16_t port, const std::string& code) {
  ws_client c(port);
  say_hello(c, "Onkel Tom");
  REQUIRE(c.request({{"type", "join_room"}, {"room", code}, {"as", "spectator"}}, std::chrono::seconds(60))["type"] ==
          "ok");
  const auto h = c.expect_type("chat_history", std::chrono::seconds(60));
  std::vector<std::string> texts;
  for (const auto& m : h["messages"]) texts.push_back(m["text"]);
  return texts;
}

// The last min(sent, 100) lines, oldest first.
void check_history(const std::vector<std::string>& texts, int sent) {
  INFO(sent << " lines sent");
  const int kept = std::min<int>(sent, history_lines);
  REQUIRE(texts.size() == static_cast<std::size_t>(kept));
  for (int i = 0; i < kept; ++i) CHECK(texts[static_cast<std::size_t>(i)] == "line " + std::to_string(sent - kept + 1 + i));
}

}  // namespace

TEST_CASE("chat history: a joiner gets the last 100 lines, also after a restart, and the journal keeps 100",
          "[chat][durable][boundaries]") {
  char t[] = "/tmp/tinsel-chat-XXXXXX";
  REQUIRE(::mkdtemp(t) != nullptr);
  const std::string dir = t;
  const std::vector<int> counts = {99, 100, 101, 250};
  std::map<int, std::string> rooms;  // lines sent -> room code
  std::vector<std::unique_ptr<ws_client>> hosts;
  {
    server_process a(flags(dir));
    for (int n : counts) {
      auto host = std::make_unique<ws_client>(a.port);
      say_hello(*host, "Oma Inge");
      const auto created = host->request({{"type", "create_room"}, {"game", "happy_holidays"}});
      REQUIRE(created["type"] == "ok");
      rooms[n] = created["room"];
      for (int i = 1; i <= n; ++i)
        REQUIRE(host->request({{"type", "chat"}, {"text", "line " + std::to_string(i)}}, std::chrono::seconds(60))["type"] ==
                "ok");
      hosts.push_back(std::move(host));  // the room stays open while its host is connected
    }
    for (int n : counts) check_history(history_seen_by_joiner(a.port, rooms[n]), n);
    REQUIRE(a.terminate() == 0);
  }
  {
    sqlite3* db = nullptr;
    REQUIRE(sqlite3_open((dir + "/tinsel.db").c_str(), &db) == SQLITE_OK);
    for (int n : counts) {
      INFO(n << " lines sent");
      sqlite3_stmt* s = nullptr;
      REQUIRE(sqlite3_prepare_v2(db, "SELECT count(*) FROM entries WHERE room = ? AND kind = 'chat'", -1, &s, nullptr) ==
              SQLITE_OK);
      sqlite3_bind_text(s, 1, rooms[n].c_str(), -1, SQLITE_TRANSIENT);
      REQUIRE(sqlite3_step(s) == SQLITE_ROW);
      CHECK(sqlite3_column_int(s, 0) == std::min<int>(n, history_lines));
      sqlite3_finalize(s);
    }
    sqlite3_close(db);
  }
  server_process b(flags(dir));
  for (int n : counts) check_history(history_seen_by_joiner(b.port, rooms[n]), n);
  std::filesystem::remove_all(dir);
}
