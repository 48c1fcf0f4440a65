// Christmas Penguins through the real server: complete games with stones and channels, and
// "Stop!" claims sent near-simultaneously from several connections, many times over.
#include <catch2/catch.hpp>

#include <algorithm>
#include <set>

#include "play_helpers.hpp"

using namespace tinsel::test;

namespace {

json cp_options() {
  return {{"maxRounds", 12},          {"stones", "4/4/4"},     {"reactionWindowMs", 1500}, {"stopSeconds", 5},
          {"mainTimeoutSec", 30},     {"subPromptTimeoutSec", 30}};
}

// Follows the newest state one client has received, reading only frames it has not looked at.
struct follower {
  ws_client& c;
  std::size_t seen = 0;
  json latest;
  const json& refresh() {
    while (c.recv(std::chrono::milliseconds(1))) {
    }
    for (auto& f : c.transcript(seen)) {
      ++seen;
      if (f["type"] == "state" && (latest.is_null() || f["seq"] > latest["seq"])) latest = std::move(f);
    }
    return latest;
  }
};

bool offers(const json& st, const std::string& kind) {
  for (const auto& e : st["legal"])
    if (e.value("kind", "") == kind && !e.contains("domain")) return true;
  return false;
}

// A concrete legal command other than a stop claim, preferring to take stones so that claims
// become possible; null if there is none.
json pick_move(const json& st, std::mt19937& rng) {
  json options = json::array();
  for (const auto& e : st["legal"]) {
    const std::string k = e.value("kind", "");
    if (e.contains("domain") || k == "stop" || k == "withdraw_stop") continue;
    if (k == "pickup_stone" && e.value("take", false)) return e;
    options.push_back(e);
  }
  if (options.empty()) return nullptr;
  return options[std::uniform_int_distribution<std::size_t>(0, options.size() - 1)(rng)];
}

}  // namespace

TEST_CASE("Christmas Penguins: players play complete games through the server", "[christmas_penguins][play]") {
  test_server s(lift_rate_limit);
  auto t = seat_players(s, 3, cp_options(), "christmas_penguins");
  std::mt19937 rng(11);
  std::set<std::string> kinds;
  for (int game = 0; game < 2; ++game) {
    INFO("game " << game);
    REQUIRE(t.clients[0]->request({{"type", "start_game"}})["type"] == "ok");
    std::uint64_t seq = 0;
    auto finals = play_to_end(t, rng, seq);
    const json& result = finals[0]["result"];
    REQUIRE(result.is_object());
    CHECK(result["winners"].is_array());
    t.clients[0]->expect([](const json& j) { return j.value("type", "") == "room" && j["room"]["status"] == "finished"; },
                         "the finished room");
  }
  for (const auto& f : t.clients[0]->transcript())
    if (f["type"] == "state")
      for (const auto& e : f["events"]) kinds.insert(e["kind"].get<std::string>());
  // The games really used the board: dice, moves, channels and stones.
  for (const char* k : {"rolled", "moved", "channel_placed", "stone_taken", "game_over"}) {
    INFO(k);
    CHECK(kinds.count(k) == 1);
  }
}

TEST_CASE("Christmas Penguins: near-simultaneous Stop! claims, every time exactly one is granted and every claimant answered",
          "[christmas_penguins][stop]") {
  test_server s(lift_rate_limit);
  auto t = seat_players(s, 4, cp_options(), "christmas_penguins");
  std::mt19937 rng(17);
  int rounds = 0;
  int games = 0;
  int id = 0;
  std::vector<follower> follow;
  for (auto& c : t.clients) follow.push_back(follower{*c, 0, nullptr});
  while (rounds < 10 && games < 12) {
    ++games;
    REQUIRE(t.clients[0]->request({{"type", "start_game"}})["type"] == "ok");
    const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    for (;;) {
      REQUIRE(std::chrono::steady_clock::now() < until);
      std::vector<json> last;
      for (auto& f : follow) last.push_back(f.refresh());
      if (last[0].is_null()) continue;
      bool same = true;
      for (const auto& l : last) same = same && !l.is_null() && l["seq"] == last[0]["seq"];
      if (!same) continue;
      if (last[0]["over"] == true) break;

      std::vector<std::size_t> claimants;
      for (std::size_t i = 0; i < last.size(); ++i)
        if (offers(last[i], "stop")) claimants.push_back(i);
      if (claimants.size() >= 2 && last[0]["prompt"]["kind"] != "stopped") {
        // Everyone who may shout does so at once, each on its own connection.
        const auto base = last[0]["seq"].get<std::uint64_t>();
        std::vector<json> ids;
        for (auto i : claimants) {
          ids.push_back("stop" + std::to_string(++id));
          t.clients[i]->send({{"type", "action"}, {"action", {{"kind", "stop"}}}, {"id", ids.back()}});
        }
        int oks = 0;
        for (std::size_t k = 0; k < claimants.size(); ++k) {
          auto reply = t.clients[claimants[k]]->expect_reply(ids[k]);  // every claimant gets its answer
          if (reply["type"] == "ok") {
            ++oks;
          } else {
            INFO(reply.dump());
            CHECK((reply["code"] == "stop_already_claimed" || reply["code"] == "stop_already_queued"));
            CHECK_FALSE(reply["message"].get<std::string>().empty());
          }
        }
        // The states the accepted claims produced, as everyone sees them.
        std::vector<json> produced;
        const auto until_states = std::chrono::steady_clock::now() + std::chrono::seconds(5);
        const auto from = follow[0].seen;
        while (produced.size() < static_cast<std::size_t>(oks) && std::chrono::steady_clock::now() < until_states) {
          follow[0].refresh();
          produced.clear();
          for (const auto& f : t.clients[0]->transcript(from))
            if (f["type"] == "state" && f["seq"].get<std::uint64_t>() > base) produced.push_back(f);
        }
        int claimed = 0, queued = 0;
        for (const auto& st : produced)
          for (const auto& e : st["events"]) {
            claimed += e["kind"] == "stop_claimed";
            queued += e["kind"] == "stop_queued";
          }
        INFO("claimants " << claimants.size() << " oks " << oks << " claimed " << claimed << " queued " << queued);
        // Exactly one stops the game now, or (during a sub-prompt) every accepted claim is queued
        // and the first in line will be granted when the sub-prompt resolves.
        CHECK(((claimed == 1 && oks == 1) || (claimed == 0 && queued == oks && oks >= 1)));
        if (claimed == 1) {
          // Everyone sees who stopped the game, and only the claimant may act now.
          for (auto& f : follow) {
            while (f.refresh()["seq"].get<std::uint64_t>() < base + 1) {
            }
            CHECK(f.latest["prompt"]["kind"] == "stopped");
          }
        }
        ++rounds;
        continue;
      }
      // Otherwise someone plays on (the claimant of a granted stop uses the stone or cancels).
      for (std::size_t i = 0; i < last.size(); ++i) {
        const auto& seats = last[i]["prompt"]["seats"];
        if (std::find(seats.begin(), seats.end(), json(static_cast<int>(i))) == seats.end()) continue;
        auto cmd = pick_move(last[i], rng);
        if (cmd.is_null()) continue;
        auto reply = t.clients[i]->request({{"type", "action"}, {"action", cmd}});
        // A timer (the reaction window) may have moved the game on meanwhile; nothing else fails.
        if (reply["type"] == "error") CHECK(reply["code"] != "invalid_command");
        break;
      }
    }
  }
  INFO("games " << games);
  CHECK(rounds >= 10);
  // Granted stops were used: stones changed the board.
  int used = 0;
  for (const auto& f : t.clients[0]->transcript())
    if (f["type"] == "state")
      for (const auto& e : f["events"]) used += e["kind"] == "stone_used";
  CHECK(used > 0);
}

// The "Stop!" window after a roll waits for whoever wants to shout and closes by itself: letting it
// close is no one's time running out. A newcomer trial found a grandmother holding a stone marked
// "away" after two such windows, her own turns then played for her after 3 seconds (rulebook C5).
TEST_CASE("Christmas Penguins: letting Stop! windows close never makes a player away", "[christmas_penguins][away]") {
  test_server s(lift_rate_limit);
  json options = cp_options();
  options["reactionWindowMs"] = 100;  // windows close by themselves: short ones only make the test quicker
  options["mainTimeoutSec"] = "off";
  options["subPromptTimeoutSec"] = "off";
  options["stopSeconds"] = "off";
  options["maxRounds"] = 30;
  auto t = seat_players(s, 3, options, "christmas_penguins");
  std::mt19937 rng(23);
  std::vector<follower> follow;
  for (auto& c : t.clients) follow.push_back(follower{*c, 0, nullptr});
  std::vector<int> closed_on(3, 0);  // windows that closed with the seat not answering
  // Bounded by the game's progress, not by the clock: nobody answers a window and every other
  // timer is off, so the commands are the same on a slow machine, only later. A hang guard of
  // ten minutes stays for a server that stopped answering.
  const auto hang_guard = std::chrono::steady_clock::now() + std::chrono::minutes(10);
  int commands = 0;
  std::uint64_t counted = 0;
  REQUIRE(t.clients[0]->request({{"type", "start_game"}}, std::chrono::seconds(60))["type"] == "ok");
  while (*std::min_element(closed_on.begin(), closed_on.end()) < 3) {
    REQUIRE(commands < 20000);
    REQUIRE(std::chrono::steady_clock::now() < hang_guard);
    const json st = follow[0].refresh();
    if (st.is_null()) continue;
    if (st["seq"].get<std::uint64_t>() > counted) {
      for (const auto& f : t.clients[0]->transcript())
        if (f["type"] == "state" && f["seq"].get<std::uint64_t>() > counted)
          for (const auto& e : f["events"])
            if (e["kind"] == "reaction_closed")
              for (const auto& seat : e["unanswered"]) ++closed_on.at(seat.get<std::size_t>());
      counted = st["seq"];
    }
    if (st["over"] == true) {
      REQUIRE(t.clients[0]->request({{"type", "start_game"}}, std::chrono::seconds(60))["type"] == "ok");
      continue;
    }
    if (st["prompt"]["kind"] == "reaction") continue;  // nobody answers the window: it closes by itself
    for (const int seat : st["prompt"]["seats"]) {
      auto& f = follow[static_cast<std::size_t>(seat)];
      const json mine = f.refresh();
      if (mine.is_null() || mine["seq"] != st["seq"]) continue;
      auto cmd = pick_move(mine, rng);
      if (cmd.is_null()) continue;
      t.clients[static_cast<std::size_t>(seat)]->request({{"type", "action"}, {"action", cmd}}, std::chrono::seconds(60));
      ++commands;
      break;
    }
  }
  INFO("commands: " << commands);
  INFO("windows closed unanswered, per seat: " << closed_on[0] << " " << closed_on[1] << " " << closed_on[2]);
  for (const auto& c : t.clients)
    for (const auto& f : c->transcript())
      if (f["type"] == "room")
        for (const auto& seat : f["room"]["seats"]) CHECK(seat.value("status", "") != "away");
}
