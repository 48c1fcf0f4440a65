// What an address may cost through join_room, against a real server (docs/operations.md, "Limits
// per address"): the bytes joins send it, and failed joins counted per IPv6 /48. The server trusts
// 127.0.0.1 as a proxy, so a client's X-Forwarded-For presents it as any address, IPv6 included.
#include <catch2/catch.hpp>

#include <chrono>
#include <random>
#include <thread>

#include "play_helpers.hpp"

using namespace tinsel::test;

namespace {

json join_request(const std::string& code, bool spectator = false) {
  return {{"type", "join_room"}, {"room", code}, {"as", spectator ? "spectator" : "player"}};
}

std::unique_ptr<ws_client> client_from(std::uint16_t port, const std::string& address, const std::string& name) {
  auto c = std::make_unique<ws_client>(port, "/ws", 0, address);
  say_hello(*c, name);
  return c;
}

bool has_frame(const std::vector<json>& frames, const std::string& type) {
  return std::any_of(frames.begin(), frames.end(), [&](const json& f) { return f["type"] == type; });
}

}  // namespace

TEST_CASE("join bytes: joining a long game's room in a loop runs out of the address's budget while other addresses and rejoins are served",
          "[limits][join_bytes][integration]") {
  constexpr std::size_t burst = 200 * 1024;
  test_server s([](tinsel::server::config& c) {
    lift_rate_limit(c);
    c.trusted_proxies = {"127.0.0.1"};
    c.join_bytes_burst = burst;
    c.join_bytes_per_sec = 1;  // nothing to speak of comes back during the test
  });
  // A finished game with a log and a chat history: what every joiner gets.
  auto t = seat_players(s, 2, {{"maxPlayers", 2}, {"giftsPerColour", 5}});
  for (int i = 0; i < 20; ++i)
    REQUIRE(t.clients[0]->request({{"type", "chat"}, {"text", std::string(300, 'x') + std::to_string(i)}})["type"] == "ok");
  const std::string ben_token = t.clients[1]->transcript().front()["token"];
  REQUIRE(t.clients[0]->request({{"type", "start_game"}})["type"] == "ok");
  std::mt19937 rng(5);
  std::uint64_t seq = 0;
  play_to_end(t, rng, seq);

  // One address joins and leaves as a spectator, again and again.
  auto spy = client_from(s.port, "198.51.100.66", "Spy");
  std::size_t pulled = 0, biggest = 0, log_bytes = 0;
  int full = 0, withheld = 0;
  json refused;
  const auto t0 = std::chrono::steady_clock::now();
  for (int i = 0; i < 400; ++i) {
    INFO("join " << i);
    const auto before = spy->bytes_received();
    const auto from = spy->transcript().size();
    auto ok = spy->request(join_request(t.code, true));
    if (ok["type"] == "error") {
      refused = ok;
      break;
    }
    REQUIRE(ok["type"] == "ok");
    spy->expect_type("state");
    const auto frames = spy->transcript(from);
    const auto cost = spy->bytes_received() - before;
    pulled += cost;
    biggest = std::max(biggest, cost);
    if (ok.value("history_withheld", false)) {
      ++withheld;
      CHECK_FALSE(has_frame(frames, "game_log"));
      CHECK_FALSE(has_frame(frames, "chat_history"));
    } else {
      CHECK(withheld == 0);  // once the budget is short, it stays short (1 byte a second)
      ++full;
      REQUIRE(has_frame(frames, "game_log"));
      CHECK(has_frame(frames, "chat_history"));
      for (const auto& f : frames)
        if (f["type"] == "game_log") log_bytes = f.dump().size();
    }
    REQUIRE(spy->request({{"type", "leave_room"}})["type"] == "ok");
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  WARN("game_log " << log_bytes << " bytes; " << full << " full joins, " << withheld << " without histories, "
                   << pulled << " bytes in all (budget " << burst << ")");
  // After its budget the address first gets in without the histories, then is refused for a while.
  REQUIRE(refused.is_object());
  CHECK(refused["code"] == "rate_limited");
  REQUIRE(refused.contains("retry_after_ms"));
  CHECK(refused["retry_after_ms"].get<long long>() > 0);
  CHECK(full > 1);
  CHECK(withheld >= 1);
  CHECK(log_bytes > 1000);
  // Within the documented bound: the burst, the rate over the time taken, and one join more.
  CHECK(pulled > burst);
  CHECK(pulled <= burst + static_cast<std::size_t>(seconds + 1) + biggest);
  // The same address on another connection waits too.
  auto cousin = client_from(s.port, "198.51.100.66", "Cousin");
  CHECK(cousin->request(join_request(t.code, true))["code"] == "rate_limited");

  // Another address is served in full.
  auto opa = client_from(s.port, "198.51.100.7", "Opa");
  const auto from = opa->transcript().size();
  auto ok = opa->request(join_request(t.code, true));
  REQUIRE(ok["type"] == "ok");
  CHECK_FALSE(ok.contains("history_withheld"));
  opa->expect_type("state");
  CHECK(has_frame(opa->transcript(from), "game_log"));

  // An ordinary rejoin: Ben reloads and comes back to his seat with the whole log.
  t.clients[1]->close();
  ws_client ben(s.port);
  ben.send({{"type", "hello"}, {"protocol", 1}, {"name", "Ben"}, {"token", ben_token}});
  REQUIRE(ben.expect_type("welcome")["resumed"] == true);
  json rejoin = join_request(t.code);
  rejoin["last_seq"] = seq;
  const auto back = ben.request(rejoin);
  REQUIRE(back["type"] == "ok");
  CHECK(back["resumed"] == true);
  CHECK_FALSE(back.contains("history_withheld"));
  ben.expect_type("state");
  CHECK(has_frame(ben.transcript(), "game_log"));
}

TEST_CASE("failed joins per /48: guesses from /64s of one /48 make its other /64s wait but other /48s, IPv4 and returning players are not held back",
          "[limits][join48][integration]") {
  test_server s([](tinsel::server::config& c) {
    c.trusted_proxies = {"127.0.0.1"};
    c.free_failed_joins_per_48 = 4;
  });
  ws_client host(s.port);
  say_hello(host, "Host");
  const std::string code = host.request({{"type", "create_room"}, {"game", "happy_holidays"}})["room"];
  const std::string wrong = code == "222222" ? "333333" : "222222";
  // Oma watches from a /64 of 2001:db8:1::/48, then her connection drops.
  std::string oma_token;
  {
    auto oma = client_from(s.port, "2001:db8:1:5::1", "Oma");
    oma_token = oma->transcript().front()["token"];
    REQUIRE(oma->request(join_request(code, true))["type"] == "ok");
  }
  // Everyone who tries below says hello first, so that the tries themselves come quickly.
  auto fresh = client_from(s.port, "2001:db8:1:3::1", "Neighbour");        // the same /48, never guessed
  auto elsewhere = client_from(s.port, "2001:db8:2:3::1", "Elsewhere");    // another /48
  auto v4 = client_from(s.port, "198.51.100.7", "IPv4");
  auto oma = std::make_unique<ws_client>(s.port, "/ws", 0, "2001:db8:1:5::2");  // Oma again, her /64's other address
  oma->send({{"type", "hello"}, {"protocol", 1}, {"name", "Oma"}, {"token", oma_token}});
  REQUIRE(oma->expect_type("welcome")["room"] == code);

  // Two /64s of the /48 guess: 3 misses (free for that /64) and 1 (free too): the /48's 4 free
  // ones. The next try from the /48 waits 1 s; after it, one more miss: 2 s.
  auto a = client_from(s.port, "2001:db8:1:1::1", "A");
  auto b = client_from(s.port, "2001:db8:1:2::1", "B");
  for (int i = 0; i < 3; ++i) REQUIRE(a->request(join_request(wrong))["code"] == "unknown_room");
  REQUIRE(b->request(join_request(wrong))["code"] == "unknown_room");
  auto first = b->request(join_request(wrong));
  if (first["code"] == "too_many_attempts") {
    std::this_thread::sleep_for(std::chrono::milliseconds(first["retry_after_ms"].get<long long>() + 100));
    first = b->request(join_request(wrong));
  }
  REQUIRE(first["code"] == "unknown_room");
  const auto t0 = std::chrono::steady_clock::now();
  const auto neighbour = fresh->request(join_request(code, true));
  const auto returning = oma->request(join_request(code, true));
  const auto elapsed = std::chrono::steady_clock::now() - t0;
  // Oma goes back to the room she is in: no guess, so her /48's wait does not hold her back.
  CHECK(returning["type"] == "ok");
  if (elapsed < std::chrono::milliseconds(2000)) {
    // The neighbour never guessed, and has the right code: it waits with its /48 all the same.
    CHECK(neighbour["code"] == "too_many_attempts");
    REQUIRE(neighbour.contains("retry_after_ms"));
    CHECK(neighbour["retry_after_ms"].get<long long>() <= 2000);
  } else {
    WARN("the machine took " << std::chrono::duration_cast<std::chrono::milliseconds>(elapsed).count()
                             << " ms for two requests: past the /48's wait, nothing checked");
  }
  CHECK(elsewhere->request(join_request(code, true))["type"] == "ok");
  CHECK(v4->request(join_request(code, true))["type"] == "ok");
}
