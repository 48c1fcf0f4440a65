// The documented limits (docs/protocol.md "Limits", docs/operations.md "Settings") at, below and
// above their value, for those the other tests checked only on one side: the frame sizes (soft and
// hard), names and chat in code points rather than bytes, refused requests in a row before 4029,
// and the state history a resuming player is replayed from.
#include <catch2/catch.hpp>

#include <set>

#include "play_helpers.hpp"

using namespace tinsel::test;

namespace {

// A chat request of exactly `bytes` bytes (padded with JSON whitespace), so that its size alone
// decides how the server answers.
std::string chat_frame(std::size_t bytes) {
  const std::string head = R"({"type":"chat","text":"Frohe Weihnachten")";
  const std::string tail = "}";
  REQUIRE(bytes >= head.size() + tail.size());
  return head + std::string(bytes - head.size() - tail.size(), ' ') + tail;
}

json error_for(ws_client& c, const std::string& frame) {
  c.send_unchecked(frame);
  return c.expect_type("error", std::chrono::seconds(60));
}

std::string repeat(const std::string& s, int n) {
  std::string out;
  for (int i = 0; i < n; ++i) out += s;
  return out;
}

}  // namespace

TEST_CASE("frame size: --max-frame-bytes bytes are read, one more is frame_too_large", "[boundaries][limits]") {
  test_server s;
  const std::size_t limit = s.cfg.limits.max_frame_bytes;
  REQUIRE(limit == 8192);
  ws_client c(s.port);
  say_hello(c, "Oma");
  // Read and understood: the client is in no room, which only a parsed chat can tell.
  CHECK(error_for(c, chat_frame(limit - 1))["code"] == "not_in_room");
  CHECK(error_for(c, chat_frame(limit))["code"] == "not_in_room");
  CHECK(error_for(c, chat_frame(limit + 1))["code"] == "frame_too_large");
  CHECK_FALSE(c.closed());
  CHECK(c.request({{"type", "create_room"}, {"game", "happy_holidays"}})["type"] == "ok");
}

TEST_CASE("frame size: --hard-frame-bytes bytes are still answered, one more closes with 1009", "[boundaries][limits]") {
  test_server s;
  const std::size_t hard = s.cfg.hard_frame_bytes;
  REQUIRE(hard == 65536);
  ws_client c(s.port);
  say_hello(c, "Oma");
  CHECK(error_for(c, chat_frame(hard))["code"] == "frame_too_large");
  CHECK_FALSE(c.closed());
  CHECK(c.request({{"type", "create_room"}, {"game", "happy_holidays"}})["type"] == "ok");
  c.send_unchecked(chat_frame(hard + 1));
  CHECK(c.wait_closed(std::chrono::seconds(60)) == 1009);
}

TEST_CASE("display names: 32 characters are counted in code points, not bytes (31, 32 and 33 of 'ä' and '🎄')",
          "[boundaries]") {
  test_server s;
  for (const std::string ch : {"x", "\u00e4", "\U0001F384"}) {
    INFO(ch);
    for (const int n : {31, 32}) {
      ws_client c(s.port);
      const auto w = c.request({{"type", "hello"}, {"protocol", 1}, {"name", repeat(ch, n)}}, std::chrono::seconds(60));
      CHECK(w["type"] == "ok");
    }
    ws_client c(s.port);
    CHECK(c.request_unchecked({{"type", "hello"}, {"protocol", 1}, {"name", repeat(ch, 33)}}, std::chrono::seconds(60))["code"] ==
          "invalid_field");
  }
}

TEST_CASE("chat: 500 characters are counted in code points, not bytes (499, 500 and 501 of 'x', 'ä' and '🎄')",
          "[boundaries]") {
  test_server s(lift_rate_limit);
  ws_client host(s.port);
  say_hello(host, "Oma");
  REQUIRE(host.request({{"type", "create_room"}, {"game", "happy_holidays"}})["type"] == "ok");
  for (const std::string ch : {"x", "\u00e4", "\U0001F384"}) {
    INFO(ch);
    for (const int n : {499, 500}) {
      const auto r = host.request({{"type", "chat"}, {"text", repeat(ch, n)}}, std::chrono::seconds(60));
      CHECK(r["type"] == "ok");
      const auto pushed = host.expect_type("chat", std::chrono::seconds(60));
      CHECK(pushed["text"] == repeat(ch, n));
    }
    CHECK(host.request_unchecked({{"type", "chat"}, {"text", repeat(ch, 501)}}, std::chrono::seconds(60))["code"] ==
          "invalid_field");
  }
}

TEST_CASE("rate limit: --rate-close-after refused requests in a row close with 4029, one fewer does not",
          "[boundaries][limits][rate]") {
  test_server s([](tinsel::server::config& c) {
    c.rate_burst = 1;
    c.rate_per_sec = 0.0001;  // no new token during the test, however slow the machine
    c.rate_close_after = 3;
  });
  ws_client c(s.port);
  say_hello(c, "Oma");  // the only token
  for (int i = 1; i < 3; ++i) {
    INFO("refused request " << i);
    c.send({{"type", "chat"}, {"text", "hallo"}, {"id", i}});
    const auto e = c.expect_type("error", std::chrono::seconds(60));
    CHECK(e["code"] == "rate_limited");
  }
  // Two refused in a row, and the second one's answer came back: still open.
  CHECK_FALSE(c.closed());
  c.send({{"type", "chat"}, {"text", "hallo"}, {"id", 3}});
  CHECK(c.wait_closed(std::chrono::seconds(60)) == 4029);
}

TEST_CASE("state history: a player who missed exactly --history-states states is replayed, one more is a resync",
          "[boundaries][resume]") {
  constexpr std::uint64_t history = 3;
  test_server s([](tinsel::server::config& c) {
    lift_rate_limit(c);
    c.history_states = history;
  });
  auto t = seat_players(s, 2, {{"maxPlayers", 2}, {"mainTimeoutSec", "off"}, {"subPromptTimeoutSec", "off"},
                               {"startPlayer", "host-picks"}});
  const std::string ben_token = t.clients[1]->transcript().front()["token"];
  REQUIRE(t.clients[0]->request({{"type", "start_game"}, {"first_seat", 0}})["type"] == "ok");
  // Four more states (seq 2..5), each by whoever is prompted; so the room keeps seq 3, 4, 5.
  json st = t.clients[0]->expect_type("state", std::chrono::seconds(60));
  json ben = t.clients[1]->expect_type("state", std::chrono::seconds(60));
  while (st["seq"].get<std::uint64_t>() < 1 + history + 1) {
    const int who = st["prompt"]["seats"][0];
    const json& mine = who == 0 ? st : ben;
    json cmd;
    for (const auto& e : mine["legal"])
      if (!e.contains("domain")) {
        cmd = e;
        break;
      }
    REQUIRE_FALSE(cmd.is_null());
    REQUIRE(t.clients[static_cast<std::size_t>(who)]->request({{"type", "action"}, {"action", cmd}}, std::chrono::seconds(60))["type"] ==
            "ok");
    st = t.clients[0]->expect_type("state", std::chrono::seconds(60));
    ben = t.clients[1]->expect_type("state", std::chrono::seconds(60));
  }
  const auto now = st["seq"].get<std::uint64_t>();
  REQUIRE(now == 1 + history + 1);
  // Ben comes back on a new connection (each takes over the previous one) with a last_seq that
  // leaves him history - 1, history and history + 1 states behind.
  for (const std::uint64_t missed : {history - 1, history, history + 1}) {
    INFO("missed " << missed << " states");
    ws_client back(s.port);
    back.send({{"type", "hello"}, {"protocol", 1}, {"name", "Ben"}, {"token", ben_token}});
    back.expect_type("welcome", std::chrono::seconds(60));
    const auto last_seq = now - missed;
    REQUIRE(back.request({{"type", "join_room"}, {"room", t.code}, {"last_seq", last_seq}}, std::chrono::seconds(60))["type"] ==
            "ok");
    const auto caught_up = back.expect_type("state", std::chrono::seconds(60));
    CHECK(caught_up["seq"] == now);
    if (missed <= history) {
      CHECK(caught_up.value("resync", false) == false);
      CHECK(caught_up["replayed_from"] == last_seq + 1);
      std::set<std::uint64_t> seqs;
      for (const auto& e : caught_up["events"]) seqs.insert(e["seq"].get<std::uint64_t>());
      REQUIRE_FALSE(seqs.empty());
      CHECK(*seqs.begin() == last_seq + 1);
      CHECK(*seqs.rbegin() == now);
    } else {
      CHECK(caught_up["resync"] == true);
      CHECK(caught_up["events"].empty());
    }
  }
}
