// Exact limits at both sides and exact counts: each test here was checked against a one-line bug
// planted in the server (a limit off by one, a wrong role holder), which it must catch.
#include <catch2/catch.hpp>

#include <cctype>

#include "play_helpers.hpp"

using namespace tinsel::test;

namespace {
json untimed() { return {{"maxPlayers", 2}, {"mainTimeoutSec", "off"}, {"subPromptTimeoutSec", "off"}, {"startPlayer", "host-picks"}}; }

std::string repeat(const std::string& s, int n) {
  std::string out;
  for (int i = 0; i < n; ++i) out += s;
  return out;
}

bool is_room(const json& j) { return j.value("type", "") == "room"; }

}  // namespace

TEST_CASE("an id of exactly 64 characters is accepted, 65 are refused, by the schema and by the server", "[boundaries]") {
  test_server s;
  ws_client c(s.port);
  say_hello(c, "Oma");
  for (const std::string ch : {"i", "\u00e9", "\U0001F384"}) {  // 1, 2 and 4 bytes: characters count, not bytes
    INFO(ch);
    const json id64 = repeat(ch, 64);
    c.send({{"type", "leave_room"}, {"id", id64}});  // the schema check in send() accepts it
    auto reply = c.expect_reply(id64);
    CHECK(reply["code"] == "not_in_room");  // answered, so the id was read

    const json msg65 = {{"type", "leave_room"}, {"id", repeat(ch, 65)}};
    CHECK_THROWS(c.send(msg65));  // the schema refuses it ...
    c.send_unchecked(msg65.dump());
    auto refused = c.expect_type("error");  // ... and so does the server, without echoing it
    CHECK(refused["code"] == "invalid_field");
    CHECK_FALSE(refused.contains("id"));
  }
}

TEST_CASE("hello with a protocol beyond the integer range is invalid_field, not protocol 1", "[boundaries]") {
  test_server s;
  ws_client c(s.port);
  CHECK(c.request_unchecked({{"type", "hello"}, {"protocol", 4294967297ULL}, {"name", "Oma"}})["code"] == "invalid_field");
  CHECK(c.request_unchecked({{"type", "hello"}, {"protocol", -4294967295LL}, {"name", "Oma"}})["code"] == "invalid_field");
  CHECK(c.request({{"type", "chat"}, {"text", "hi"}})["code"] == "hello_required");  // not greeted
  CHECK(c.request({{"type", "hello"}, {"protocol", 1}, {"name", "Oma"}})["type"] == "ok");
}

TEST_CASE("a token of 33 characters or with upper-case letters is refused on resume", "[boundaries]") {
  test_server s;
  ws_client first(s.port);
  const auto w = say_hello(first, "Oma");
  const std::string token = w["token"];
  REQUIRE(token.size() == 32);
  std::string upper = token;
  for (auto& ch : upper) ch = static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
  REQUIRE(upper != token);  // 128 random bits hold a letter a-f

  ws_client c(s.port);
  CHECK(c.request_unchecked({{"type", "hello"}, {"protocol", 1}, {"name", "Oma"}, {"token", token + "0"}})["code"] == "invalid_field");
  CHECK(c.request_unchecked({{"type", "hello"}, {"protocol", 1}, {"name", "Oma"}, {"token", upper}})["code"] == "invalid_field");
  CHECK(c.request_unchecked({{"type", "hello"}, {"protocol", 1}, {"name", "Oma"}, {"token", token.substr(1)}})["code"] == "invalid_field");
  // The refused hellos changed nothing: the first connection is still open, the token still works.
  CHECK_FALSE(first.closed());
  c.send({{"type", "hello"}, {"protocol", 1}, {"name", "Oma"}, {"token", token}});
  auto back = c.expect_type("welcome");
  CHECK(back["resumed"] == true);
  CHECK(back["player"] == w["player"]);
}

TEST_CASE("names without a visible character are refused, bidi controls are removed from names and chat", "[boundaries]") {
  test_server s;
  ws_client c(s.port);
  for (const char* name : {"\u200b\u200c", "\u2060\u2061\u2062\u2063\u2064", "\ufeff", "\u0301\u0302", " \u3000 ", "\u202e"})
    CHECK(c.request_unchecked({{"type", "hello"}, {"protocol", 1}, {"name", name}})["code"] == "invalid_field");
  c.send_unchecked(json({{"type", "hello"}, {"protocol", 1}, {"name", "\u202eOma\u202c"}}).dump());
  CHECK(c.expect_type("welcome")["name"] == "Oma");
  REQUIRE(c.request({{"type", "create_room"}, {"game", "happy_holidays"}})["type"] == "ok");
  CHECK(c.request_unchecked({{"type", "chat"}, {"text", "\u200b\u2063"}})["code"] == "invalid_field");
  c.send_unchecked(json({{"type", "chat"}, {"text", "hello \u2066world\u2069\u200f"}}).dump());
  CHECK(c.expect_type("chat")["text"] == "hello world");
}

TEST_CASE("exactly rate_burst requests pass in a burst, the next is rate_limited", "[boundaries]") {
  // Next to no refill: the bucket holds exactly the burst however slowly this machine sends.
  test_server s([](tinsel::server::config& cfg) {
    cfg.rate_burst = 5;
    cfg.rate_per_sec = 0.001;
  });
  ws_client c(s.port);
  c.send({{"type", "hello"}, {"protocol", 1}, {"name", "Oma"}, {"id", 0}});  // hello counts too
  for (int i = 1; i < 8; ++i) c.send({{"type", "chat"}, {"text", "hi"}, {"id", i}});
  std::vector<std::string> codes;
  for (int i = 0; i < 8; ++i) {
    auto r = c.expect_reply(i);
    codes.push_back(r["type"] == "ok" ? "ok" : r["code"].get<std::string>());
  }
  CHECK(codes == std::vector<std::string>{"ok", "not_in_room", "not_in_room", "not_in_room", "not_in_room", "rate_limited",
                                          "rate_limited", "rate_limited"});
}

TEST_CASE("away after exactly two consecutive timeouts, not after one", "[boundaries][away]") {
  test_server s([](tinsel::server::config& c) {
    c.away_after_timeouts = 2;
    c.away_delay = std::chrono::milliseconds(700);
  });
  auto t = seat_players(s, 2, {{"maxPlayers", 2}, {"mainTimeoutSec", 1}, {"subPromptTimeoutSec", 1}, {"startPlayer", "host-picks"}});
  REQUIRE(t.clients[0]->request({{"type", "start_game"}, {"first_seat", 1}})["type"] == "ok");
  // Ben (seat 1) never answers; Oma plays her own prompts. Count Ben's timeouts as Oma sees them.
  int ben_timeouts = 0;
  auto count = [&](const json& st) {
    for (const auto& e : st["events"])
      if (e["kind"] == "timed_out")
        for (const auto& seat : e["seats"]) ben_timeouts += seat == 1;
  };
  std::uint64_t acted = 0;
  auto away = t.clients[0]->expect(
      [&](const json& j) {
        if (j.value("type", "") == "state") {
          count(j);
          if (!j["legal"].empty() && j["seq"].get<std::uint64_t>() > acted) {
            acted = j["seq"];
            t.clients[0]->send({{"type", "action"}, {"action", j["legal"][0]}});
          }
        }
        return is_room(j) && j["room"]["seats"][1]["status"] == "away";
      },
      "Ben shown as away", std::chrono::milliseconds(20000));
  // The room push comes just before the state of the timeout that made Ben away.
  CHECK(ben_timeouts == 1);
  auto next = t.clients[0]->expect_type("state");
  count(next);
  CHECK(ben_timeouts == 2);
  CHECK(away["room"]["seats"][0]["status"] == "connected");
}

TEST_CASE("the host role never goes to a spectator", "[boundaries][host]") {
  test_server s;
  ws_client oma(s.port), sam(s.port), ben(s.port);  // Sam, the spectator, connects before Ben
  say_hello(oma, "Oma");
  const std::string sam_id = say_hello(sam, "Sam")["player"];
  const std::string ben_id = say_hello(ben, "Ben")["player"];
  const std::string code = oma.request({{"type", "create_room"}, {"game", "happy_holidays"}, {"options", {{"maxPlayers", 3}}}})["room"];
  REQUIRE(sam.request({{"type", "join_room"}, {"room", code}, {"as", "spectator"}})["type"] == "ok");
  REQUIRE(ben.request({{"type", "join_room"}, {"room", code}})["type"] == "ok");
  CHECK(oma.request({{"type", "transfer_host"}, {"player", sam_id}})["code"] == "unknown_player");

  // The host leaves: the seated player gets the role, not the spectator who came first.
  REQUIRE(oma.request({{"type", "leave_room"}})["type"] == "ok");
  auto r = sam.expect([](const json& j) { return is_room(j) && j["room"]["seats"][0]["status"] == "empty"; }, "Oma gone");
  CHECK(r["room"]["host"] == ben_id);
  CHECK(ben.request({{"type", "add_bot"}})["type"] == "ok");
  CHECK(sam.request({{"type", "add_bot"}})["code"] == "not_host");

  // Only a spectator (and a bot) left: nobody of them becomes host.
  REQUIRE(ben.request({{"type", "leave_room"}})["type"] == "ok");
  r = sam.expect([&](const json& j) { return is_room(j) && j["room"]["seats"][1]["status"] == "empty"; }, "Ben gone");
  CHECK(r["room"]["host"] != sam_id);
  CHECK(sam.request({{"type", "add_bot"}})["code"] == "not_host");
  CHECK(sam.request({{"type", "close_room"}})["code"] == "not_host");
}

TEST_CASE("a host kicking themself is refused with unknown_player and nothing changes", "[boundaries][host]") {
  test_server s;
  auto t = seat_players(s, 2, {{"maxPlayers", 3}});
  const std::string oma_id = t.clients[0]->transcript().front()["player"];
  auto before = t.clients[1]->expect([](const json& j) { return is_room(j) && j["room"]["seats"][1]["status"] == "connected"; },
                                     "Ben seated");
  CHECK(t.clients[0]->request({{"type", "kick"}, {"player", oma_id}})["code"] == "unknown_player");
  // Still in the room, still the host, seated as before; nobody was told of a change.
  CHECK(t.clients[0]->request({{"type", "chat"}, {"text", "still here"}})["type"] == "ok");
  CHECK(t.clients[1]->expect_type("chat")["text"] == "still here");
  for (const auto& m : t.clients[0]->transcript()) CHECK(m["type"] != "kicked");
  REQUIRE(t.clients[0]->request({{"type", "add_bot"}})["type"] == "ok");
  auto after = t.clients[1]->expect([](const json& j) { return is_room(j) && j["room"]["seats"][2]["status"] == "bot"; }, "the bot");
  CHECK(after["room"]["host"] == oma_id);
  CHECK(after["room"]["seats"][0] == before["room"]["seats"][0]);
  CHECK(after["room"]["seats"][1] == before["room"]["seats"][1]);
}

TEST_CASE("kick with an empty player is invalid_field and nothing changes", "[boundaries][host]") {
  test_server s;
  auto t = seat_players(s, 2, {{"maxPlayers", 3}});  // seat 2 is empty: its player id is ""
  CHECK(t.clients[0]->request_unchecked({{"type", "kick"}, {"player", ""}})["code"] == "invalid_field");
  CHECK(t.clients[0]->request_unchecked({{"type", "transfer_host"}, {"player", ""}})["code"] == "invalid_field");
  CHECK(t.clients[0]->request({{"type", "chat"}, {"text", "hi"}})["type"] == "ok");
  CHECK(t.clients[1]->expect_type("chat")["text"] == "hi");
  CHECK(t.clients[1]->request({{"type", "chat"}, {"text", "me too"}})["type"] == "ok");
}

TEST_CASE("a player kicked during a game cannot take the seat back, they may watch", "[boundaries][host]") {
  test_server s;
  auto t = seat_players(s, 2, untimed());
  const std::string ben_token = t.clients[1]->transcript().front()["token"];
  const std::string ben_id = t.clients[1]->transcript().front()["player"];
  REQUIRE(t.clients[0]->request({{"type", "start_game"}, {"first_seat", 0}})["type"] == "ok");
  REQUIRE(t.clients[0]->request({{"type", "kick"}, {"player", ben_id}})["type"] == "ok");
  CHECK(t.clients[1]->expect_type("kicked")["room"] == t.code);
  t.clients[0]->expect([](const json& j) { return is_room(j) && j["room"]["seats"][1]["status"] == "gone"; }, "Ben's seat gone");

  // Neither on the same connection nor resumed with the token elsewhere.
  CHECK(t.clients[1]->request({{"type", "join_room"}, {"room", t.code}})["code"] == "kicked");
  ws_client back(s.port);
  back.send({{"type", "hello"}, {"protocol", 1}, {"name", "Ben"}, {"token", ben_token}});
  REQUIRE(back.expect_type("welcome")["resumed"] == true);
  CHECK(back.request({{"type", "join_room"}, {"room", t.code}, {"as", "player"}})["code"] == "kicked");
  auto watching = back.request({{"type", "join_room"}, {"room", t.code}, {"as", "spectator"}});
  REQUIRE(watching["type"] == "ok");
  CHECK(watching["seat"] == nullptr);
  auto r = t.clients[0]->expect([](const json& j) { return is_room(j) && j["room"]["spectators"] == 1; }, "Ben watching");
  CHECK(r["room"]["seats"][1]["status"] == "gone");
  CHECK(back.expect_type("state")["legal"].empty());
}

TEST_CASE("a new spectator gets the current state with no past events, whatever last_seq says", "[boundaries][resume]") {
  test_server s;
  auto t = seat_players(s, 2, untimed());
  ws_client watcher(s.port);
  const auto ww = say_hello(watcher, "Wendy");
  REQUIRE(watcher.request({{"type", "join_room"}, {"room", t.code}, {"as", "spectator"}})["type"] == "ok");
  REQUIRE(t.clients[0]->request({{"type", "start_game"}, {"first_seat", 0}})["type"] == "ok");
  const auto wendy_seen = watcher.expect_type("state")["seq"].get<std::uint64_t>();
  watcher.close();
  auto oma = play_turn(*t.clients[0], t.clients[0]->expect_type("state"));
  REQUIRE(oma["seq"].get<std::uint64_t>() >= wendy_seen + 2);

  for (const auto& last_seq : {json(0), json(1), json(wendy_seen)}) {
    INFO(last_seq);
    ws_client fresh(s.port);
    say_hello(fresh, "Sam");
    REQUIRE(fresh.request({{"type", "join_room"}, {"room", t.code}, {"as", "spectator"}, {"last_seq", last_seq}})["type"] == "ok");
    auto st = fresh.expect_type("state");
    CHECK(st["events"].empty());
    CHECK_FALSE(st.contains("replayed_from"));
    CHECK_FALSE(st.contains("resync"));
    CHECK(st["seq"] == oma["seq"]);
    CHECK(st["view"] == oma["view"]);
  }
  // A spectator who watched this game and comes back is caught up like a player.
  ws_client back(s.port);
  back.send({{"type", "hello"}, {"protocol", 1}, {"name", "Wendy"}, {"token", ww["token"]}});
  REQUIRE(back.expect_type("welcome")["resumed"] == true);
  REQUIRE(back.request({{"type", "join_room"}, {"room", t.code}, {"as", "spectator"}, {"last_seq", wendy_seen}})["type"] == "ok");
  auto st = back.expect_type("state");
  CHECK(st["replayed_from"] == wendy_seen + 1);
  CHECK_FALSE(st["events"].empty());
}
