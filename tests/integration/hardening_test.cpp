// Issue 30, "Hardening, round two", against real servers: frames nested 100,000 deep with the
// largest frame limits the flags allow, a game record that must not lead to its room, tinsel-replay
// on a deep file, and the envelope's small mismatches (binary frames over the limit, a byte order
// mark, a NUL byte, a key twice, an empty token).
#include <catch2/catch.hpp>

#include <signal.h>
#include <sqlite3.h>
#include <stdlib.h>
#include <sys/wait.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <random>

#include "play_helpers.hpp"
#include "server_process.hpp"
#include "tinsel/protocol/game_record.hpp"
#include "tinsel/protocol/messages.hpp"
#include "ws_client.hpp"

using namespace tinsel::test;
using json = nlohmann::json;

namespace {

std::string temp_dir() {
  char t[] = "/tmp/tinsel-hardening-XXXXXX";
  REQUIRE(::mkdtemp(t) != nullptr);
  return t;
}

std::string nested(std::size_t levels) { return std::string(levels, '[') + std::string(levels, ']'); }

struct run_result {
  int status = -1;  // the exit status, or -1 if the program did not exit normally (a signal)
  std::string output;
};

// Runs tinsel-replay on `file`; its standard output and error.
run_result replay(const std::string& file) {
  run_result r;
  const std::string cmd = std::string(TINSEL_REPLAY_BINARY) + " '" + file + "' 2>&1";
  FILE* p = ::popen(cmd.c_str(), "r");
  REQUIRE(p != nullptr);
  char buf[4096];
  for (std::size_t n; (n = std::fread(buf, 1, sizeof buf, p)) > 0;) r.output.append(buf, n);
  const int status = ::pclose(p);
  // sh reports a child killed by a signal as 128 + the signal.
  if (WIFEXITED(status) && WEXITSTATUS(status) < 128) r.status = WEXITSTATUS(status);
  return r;
}

void write_file(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary);
  out << text;
}

// Every key at any depth, and every string value.
void walk(const json& j, std::vector<std::string>& keys, std::vector<std::string>& strings) {
  if (j.is_object()) {
    for (const auto& [k, v] : j.items()) {
      keys.push_back(k);
      walk(v, keys, strings);
    }
  } else if (j.is_array()) {
    for (const auto& v : j) walk(v, keys, strings);
  } else if (j.is_string()) {
    strings.push_back(j.get<std::string>());
  }
}

// Nothing in the record names the room: no `room` member, no string that is the code (as
// join_room would read it), not the code anywhere in the text.
void check_no_room_in(const std::string& text, const std::string& code) {
  INFO(text.substr(0, 400));
  const auto record = json::parse(text);
  std::vector<std::string> keys, strings;
  walk(record, keys, strings);
  CHECK(std::find(keys.begin(), keys.end(), "room") == keys.end());
  for (const auto& s : strings) CHECK(tinsel::protocol::normalize_room_code(s) != code);
  // A code of digits only could turn up in the decimal seed by chance; one with a letter cannot
  // turn up in hashes and ids, which are lower-case hex.
  if (code.find_first_not_of("0123456789") != std::string::npos) CHECK(text.find(code) == std::string::npos);
}

}  // namespace

TEST_CASE("with the largest frame limits, a create_room or set_options nested 100,000 deep gets frame_too_deep and the server goes on",
          "[hardening][limits]") {
  server_process s({"--max-frame-bytes", "1048576", "--hard-frame-bytes", "16777216"});
  ws_client host(s.port);
  say_hello(host, "Oma Inge");
  const std::string deep = nested(100'000);
  // Before, the option value was deep-copied recursively and the server died (exit 139).
  host.send_unchecked(R"({"type":"create_room","game":"happy_holidays","id":1,"options":{"maxPlayers":)" + deep + "}}");
  auto e = host.expect_type("error", std::chrono::seconds(30));
  CHECK(e["code"] == "frame_too_deep");
  CHECK_FALSE(e.contains("id"));  // the frame was not read, as with frame_too_large

  const auto created = host.request({{"type", "create_room"}, {"game", "happy_holidays"}}, std::chrono::seconds(30));
  REQUIRE(created["type"] == "ok");
  host.send_unchecked(R"({"type":"set_options","id":2,"options":{"maxPlayers":)" + deep + "}}");
  e = host.expect_type("error", std::chrono::seconds(30));
  CHECK(e["code"] == "frame_too_deep");
  // Deep inside a game command, and deep objects rather than arrays.
  std::string objects;
  for (int i = 0; i < 100'000; ++i) objects += R"({"a":)";
  host.send_unchecked(R"({"type":"action","action":{"kind":"roll","x":)" + objects + "1" + std::string(100'000, '}') + "}}");
  CHECK(host.expect_type("error", std::chrono::seconds(30))["code"] == "frame_too_deep");

  // The server still serves: this connection, a new one, and the room is as it was.
  const auto changed = host.request({{"type", "set_options"}, {"options", {{"maxPlayers", 3}}}}, std::chrono::seconds(30));
  CHECK(changed["type"] == "ok");
  ws_client guest(s.port);
  say_hello(guest, "Opa Karl");
  CHECK(guest.request({{"type", "join_room"}, {"room", created["room"]}}, std::chrono::seconds(30))["type"] == "ok");
  CHECK(::kill(s.pid, 0) == 0);
  CHECK(http_get(s.port, "/healthz").status == 200);
}

TEST_CASE("tinsel-replay refuses a record file nested 100,000 deep instead of crashing", "[hardening][records]") {
  const auto dir = temp_dir();
  const std::string file = dir + "/deep.json";
  write_file(file, R"({"format":"tinsel-game-record","version":1,"game":"happy_holidays","options":{"maxPlayers":)" + nested(100'000) +
                       R"(},"players":["a","b"],"first_seat":null,"seed":"1",)"
                       // SHA-256 of "1": the seed matches, so the check goes on to the options.
                       R"("commitment":"6b86b273ff34fce19d6b804eff5a3f5747ada4eaa22f1d49c01e52ddb7875b4b","commands":[],"result":{}})");
  const auto r = replay(file);
  INFO(r.output);
  CHECK(r.status == 1);
  CHECK(r.output.starts_with("REJECTED: "));
  std::filesystem::remove_all(dir);
}

TEST_CASE("a game record names no room: neither a new one nor one written before, while the room is still open",
          "[hardening][records]") {
  const auto dir = temp_dir();
  const std::vector<std::string> flags = {"--data-dir", dir, "--rate-per-sec", "100000", "--rate-burst", "100000",
                                          "--auto-play-delay-ms", "20"};
  std::mt19937 rng(30);
  std::string code, record_id;
  {
    server_process a(flags);
    table t = seat_players(a.port, 2, {{"maxPlayers", 2}, {"giftsPerColour", 5}});
    code = t.code;
    REQUIRE(t.clients[0]->request({{"type", "start_game"}}, std::chrono::seconds(30))["type"] == "ok");
    std::uint64_t seq = 0;
    const auto finals = play_to_end(t, rng, seq);
    record_id = finals[0]["result"]["record"];
    const auto res = http_get(a.port, "/records/" + record_id + ".json");
    REQUIRE(res.status == 200);
    check_no_room_in(res.body, code);
    // It still checks out, with the library and with the tool.
    CHECK(tinsel::protocol::check_record(json::parse(res.body)).ok);
    write_file(dir + "/record.json", res.body);
    const auto r = replay(dir + "/record.json");
    INFO(r.output);
    CHECK(r.status == 0);
    CHECK(r.output.starts_with("OK: happy_holidays"));
    REQUIRE(a.terminate() == 0);
  }
  // A record kept from an earlier version carries `room`; its room outlives a restart.
  {
    sqlite3* db = nullptr;
    REQUIRE(sqlite3_open((dir + "/tinsel.db").c_str(), &db) == SQLITE_OK);
    const std::string sql = "UPDATE games SET body = json_set(body, '$.room', '" + code + "') WHERE id = '" + record_id + "'";
    REQUIRE(sqlite3_exec(db, sql.c_str(), nullptr, nullptr, nullptr) == SQLITE_OK);
    REQUIRE(sqlite3_changes(db) == 1);
    sqlite3_close(db);
  }
  server_process b(flags);
  ws_client uncle(b.port);
  say_hello(uncle, "Onkel Tom");
  REQUIRE(uncle.request({{"type", "join_room"}, {"room", code}, {"as", "spectator"}}, std::chrono::seconds(30))["type"] == "ok");
  const auto res = http_get(b.port, "/records/" + record_id);
  REQUIRE(res.status == 200);
  check_no_room_in(res.body, code);
  CHECK(tinsel::protocol::check_record(json::parse(res.body)).ok);
  std::filesystem::remove_all(dir);
}

TEST_CASE("the envelope says what the protocol says: binary frames over the limit, a BOM, a NUL, a key twice, an empty token",
          "[hardening][limits]") {
  test_server s;
  ws_client c(s.port);
  // A binary frame over the frame limit is too large, as a text frame would be; a small one is not a message.
  c.send_binary(std::string(s.cfg.limits.max_frame_bytes + 1, 'x'));
  CHECK(c.expect_type("error")["code"] == "frame_too_large");
  c.send_binary(std::string(100, 'x'));
  CHECK(c.expect_type("error")["code"] == "invalid_message");

  const std::string hello = R"({"type":"hello","protocol":1,"name":"Anna"})";
  c.send_unchecked("\xEF\xBB\xBF" + hello);
  CHECK(c.expect_type("error")["code"] == "bad_json");
  c.send_unchecked(hello + std::string(1, '\0') + "garbage");
  CHECK(c.expect_type("error")["code"] == "bad_json");
  c.send_unchecked(R"({"type":"hello","protocol":1,"name":"Anna","name":"Bea"})");
  CHECK(c.expect_type("error")["code"] == "invalid_message");
  CHECK(c.request_unchecked({{"type", "hello"}, {"protocol", 1}, {"name", "Anna"}, {"token", ""}})["code"] == "invalid_field");
  CHECK(c.request_unchecked({{"type", "hello"}, {"protocol", 1}, {"name", "Anna\u2028Bea"}})["code"] == "invalid_field");
  // None of them said hello: this one does.
  CHECK(say_hello(c, "Anna")["name"] == "Anna");
}
