// Unterm Baum through the real server: complete games (assign, memorize, reveals, moves, end), and
// the frame-level leak test: every frame each client receives during the game is checked against
// the whole truth that the result reveals at the end.
#include <catch2/catch.hpp>

#include <set>

#include "play_helpers.hpp"

using namespace tinsel::test;

namespace {

json fast_options(int players) {
  return {{"maxPlayers", players}, {"cardsToRemember", 8}, {"assignSeconds", 30}, {"memorizeSeconds", 1},
          {"mainTimeoutSec", 30},   {"maxRounds", 4}};
}

// Every motif of this game: the result names each card on the tree, in the fields, each wish, and
// the undrawn green cards.
std::set<std::string> all_motifs(const json& result) {
  std::set<std::string> out;
  auto add = [&](const json& m) {
    if (m.is_string()) out.insert(m.get<std::string>());
  };
  for (const auto& m : result["tree"]) add(m);
  for (const auto& m : result["undrawn"]) add(m);
  for (const auto& p : result["players"]) {
    for (const auto& c : p["cards"]) add(c["motif"]);
    for (const auto& w : p["wishes"]) add(w["motif"]);
  }
  return out;
}

// Checks every frame a seat received up to the end of the game. Returns how many frames it checked.
int check_no_leaks(const std::vector<json>& frames, const std::set<std::string>& motifs, const std::string& who) {
  std::set<std::string> hand;  // this seat's own wish motifs, learnt from its own view
  int checked = 0;
  for (const auto& f : frames) {
    if (f["type"] == "state" && f["over"] == true) break;  // after the end everything may be shown
    // A finished room carries the previous game's result, public since its end.
    if (f["type"] == "room" && f["room"]["status"] == "finished") continue;
    std::set<std::string> allowed;
    std::string phase;
    if (f["type"] == "state") {
      phase = f["view"].value("phase", "");
      const auto& wl = f["view"]["wish_list"];
      if (wl.is_object())
        for (const auto& m : wl["hand"]) hand.insert(m.get<std::string>());
      // The wish list goes to its owner only while writing and memorising.
      if (phase == "assign" || phase == "memorize") allowed = hand;
      else CHECK(wl.is_null());
      // A revealed card's motif travels once, in the reveal event, to everyone.
      for (const auto& e : f["events"])
        if (e["kind"] == "revealed") allowed.insert(e["motif"].get<std::string>());
    }
    const std::string text = f.dump();
    for (const auto& m : motifs) {
      if (allowed.count(m)) continue;
      INFO(who << " received motif '" << m << "' in phase '" << phase << "': " << text.substr(0, 300));
      CHECK(text.find("\"" + m + "\"") == std::string::npos);
    }
    ++checked;
  }
  return checked;
}

}  // namespace

TEST_CASE("Unterm Baum: three players play complete games through the server and no frame leaks a secret", "[unterm_baum][play][leak]") {
  test_server s(lift_rate_limit);
  auto t = seat_players(s, 3, fast_options(3), "unterm_baum");
  ws_client watcher(s.port);
  say_hello(watcher, "Enkel");
  REQUIRE(watcher.request({{"type", "join_room"}, {"room", t.code}, {"as", "spectator"}})["type"] == "ok");
  std::mt19937 rng(2024);
  auto since = [](const std::vector<json>& all, std::size_t from) { return std::vector<json>(all.begin() + static_cast<long>(from), all.end()); };
  for (int game = 0; game < 2; ++game) {
    INFO("game " << game);
    std::vector<std::size_t> start;
    for (auto& c : t.clients) start.push_back(c->transcript().size());
    while (watcher.recv(std::chrono::milliseconds(50))) {
    }
    const auto watcher_start = watcher.transcript().size();
    REQUIRE(t.clients[0]->request({{"type", "start_game"}})["type"] == "ok");
    std::uint64_t seq = 0;
    auto finals = play_to_end(t, rng, seq);
    const json& result = finals[0]["result"];
    REQUIRE(result.is_object());
    CHECK(result["players"].size() == 3);
    // The phases all happened: every seat assigned, memorize ran, cards were revealed and moved.
    std::set<std::string> kinds;
    for (const auto& f : since(t.clients[0]->transcript(), start[0]))
      if (f["type"] == "state")
        for (const auto& e : f["events"]) kinds.insert(e["kind"].get<std::string>());
    for (const char* k : {"assigned", "memorize_started", "memorize_ended", "turn_started", "game_over"}) CHECK(kinds.count(k) == 1);
    CHECK((kinds.count("revealed") + kinds.count("moved")) > 0);
    // Scores follow the rule as the result itemises it (4 exact, 3 right member, 1 otherwise).
    for (const auto& p : result["players"]) {
      int sum = 0;
      for (const auto& c : p["cards"]) sum += c["points"].get<int>();
      CHECK(p["score"] == sum);
    }
    // Every frame each player and the spectator saw before the end is leak-free.
    const auto motifs = all_motifs(result);
    REQUIRE(motifs.size() >= 24);
    for (std::size_t i = 0; i < t.clients.size(); ++i)
      CHECK(check_no_leaks(since(t.clients[i]->transcript(), start[i]), motifs, "seat " + std::to_string(i)) > 5);
    watcher.expect([](const json& j) { return j.value("type", "") == "state" && j["over"] == true; }, "the end, as a spectator");
    CHECK(check_no_leaks(since(watcher.transcript(), watcher_start), motifs, "spectator") > 5);
    t.clients[0]->expect([](const json& j) { return j.value("type", "") == "room" && j["room"]["status"] == "finished"; },
                         "the finished room");
  }
}

TEST_CASE("Unterm Baum: a player who resumes after memorize does not get the wish list back", "[unterm_baum][resume][leak]") {
  test_server s(lift_rate_limit);
  auto t = seat_players(s, 2, fast_options(2), "unterm_baum");
  const std::string token = t.clients[1]->transcript().front()["token"];
  REQUIRE(t.clients[0]->request({{"type", "start_game"}})["type"] == "ok");
  // Both write their lists; then seat 1 drops during memorize and returns in the play phase.
  for (int i = 0; i < 2; ++i) {
    // Seat i acts on the state after seat i-1 has written its list (the default family changes).
    auto st = t.clients[i]->expect([&](const json& j) { return j.value("type", "") == "state" && j["seq"] == i + 1; },
                                   "the assign prompt");
    CHECK(st["view"]["wish_list"].is_object());
    t.clients[i]->send({{"type", "action"}, {"action", st["legal"][0]}});
  }
  auto memo = t.clients[1]->expect([](const json& j) { return j.value("type", "") == "state" && j["view"]["phase"] == "memorize"; },
                                   "memorize");
  std::set<std::string> hand;
  for (const auto& m : memo["view"]["wish_list"]["hand"]) hand.insert(m.get<std::string>());
  REQUIRE(hand.size() == 8);
  const auto last_seq = memo["seq"].get<std::uint64_t>();
  t.clients[1]->close();
  t.clients[0]->expect([](const json& j) { return j.value("type", "") == "state" && j["view"]["phase"] == "play"; }, "play",
                       std::chrono::milliseconds(5000));
  ws_client back(s.port);
  back.send({{"type", "hello"}, {"protocol", 1}, {"name", "B"}, {"token", token}});
  back.expect_type("welcome");
  REQUIRE(back.request({{"type", "join_room"}, {"room", t.code}, {"last_seq", last_seq}})["type"] == "ok");
  auto st = back.expect_type("state");
  CHECK(st["view"]["phase"] == "play");
  CHECK(st["view"]["wish_list"].is_null());
  const std::string text = st.dump();
  for (const auto& m : hand) CHECK(text.find("\"" + m + "\"") == std::string::npos);
}
