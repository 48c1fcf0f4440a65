// The game at the table alone: a game's start and its journal records, the frames of a state, the
// catch-up of a member who missed some states, and the game log.
#include <catch2/catch.hpp>

#include <boost/asio/io_context.hpp>

#include "rooms/table.hpp"

using json = nlohmann::json;
using tinsel::engine::viewer;
using tinsel::server::table;

namespace {
struct table_fixture {
  table_fixture() : t(io.get_executor(), *tinsel::engine::builtin_games().find("happy_holidays"), cfg, code) {
    t.set_seeds([] { return 42; });
    options = tinsel::engine::builtin_games().find("happy_holidays")->normalize_options(
        {{"mainTimeoutSec", "off"}, {"subPromptTimeoutSec", "off"}}).value();
    auto started = t.start(options, 2, 0, json::array({"Ann", "Ben"}), {"p1", "p2"});
    REQUIRE(started.ok());
    record = started.value();
    t.next_seq();
    first = t.publish({t.started_event()});
  }
  // The seat the prompt waits for plays its first concrete legal command; the next state's parts.
  tinsel::protocol::state_parts play_one() {
    const int seat = t.game().current_prompt()->seats.at(0);
    json cmd;
    for (const auto& c : t.game().legal(seat))
      if (c.is_object() && !c.contains("domain")) {
        cmd = c;
        break;
      }
    auto evs = t.apply(seat, cmd);
    REQUIRE(evs.ok());
    t.journal_entry({{"kind", "command"}, {"seat", seat}, {"command", cmd}});
    t.next_seq();
    return t.publish(evs.value());
  }
  boost::asio::io_context io;
  tinsel::server::config cfg;
  std::string code = "TESTRM";
  table t;
  json options, record;
  tinsel::protocol::state_parts first;
};
}  // namespace

TEST_CASE("table: a game's start is journaled with its seed, players and the seq of its first state", "[table]") {
  table_fixture f;
  CHECK(f.record.at("kind") == "started");
  CHECK(f.record.at("seed") == "42");
  CHECK(f.record.at("seq") == 1);
  CHECK(f.record.at("player_ids") == json::array({"p1", "p2"}));
  CHECK(f.t.seq() == 1);
}

TEST_CASE("table: every viewer's state names the room, the seq and the viewer's seat", "[table]") {
  table_fixture f;
  const auto seat1 = json::parse(f.t.frame(viewer::player(1), f.first));
  const auto spectator = json::parse(f.t.frame(viewer::spectator(), f.first));
  CHECK(seat1.at("type") == "state");
  CHECK(seat1.at("room") == "TESTRM");
  CHECK(seat1.at("seq") == 1);
  CHECK(seat1.at("seat") == 1);
  CHECK(spectator.at("seat").is_null());
  CHECK(spectator.at("legal") == json::array());
  CHECK(seat1.at("events").at(0).at("kind") == "game_started");
}

TEST_CASE("table: a catch-up carries every missed event with its seq, or resyncs beyond the history", "[table]") {
  table_fixture f;
  f.play_one();
  f.play_one();
  const auto caught = json::parse(f.t.catch_up_frame(viewer::player(0), 1));
  CHECK(caught.at("replayed_from") == 2);
  CHECK(caught.at("seq") == 3);
  for (const auto& e : caught.at("events")) CHECK(e.at("seq").get<int>() >= 2);
  const auto withheld = json::parse(f.t.catch_up_frame(viewer::player(0), 1, false));
  CHECK(withheld.at("resync") == true);
  CHECK(withheld.at("events") == json::array());
  f.cfg.history_states = 1;
  f.play_one();
  CHECK(json::parse(f.t.catch_up_frame(viewer::player(0), 1)).at("resync") == true);
}

TEST_CASE("table: the game log holds the game's events from its start, each with its state's seq", "[table]") {
  table_fixture f;
  f.play_one();
  const auto log = json::parse(f.t.game_log_frame(viewer::player(0)));
  CHECK(log.at("type") == "game_log");
  CHECK(log.at("game") == "happy_holidays");
  CHECK(log.at("truncated") == false);
  CHECK(log.at("events").at(0).at("kind") == "game_started");
  CHECK(log.at("events").at(0).at("seq") == 1);
}

TEST_CASE("table: journal entries carry the seq of the state they make, and every 32nd the state's hash", "[table]") {
  table_fixture f;
  const auto entry = f.t.journal_entry({{"kind", "command"}});
  CHECK(entry.at("seq") == f.t.seq() + 1);
  CHECK_FALSE(entry.contains("hash"));
  json last;
  for (int i = 0; i < 31; ++i) last = f.t.journal_entry({{"kind", "command"}});
  CHECK(last.contains("hash"));
}

TEST_CASE("table: after the game, a player sees it with the seat they had in it", "[table]") {
  table_fixture f;
  CHECK(f.t.viewer_of(1, "p2").seat == 1);  // running: the member's own seat
  CHECK(f.t.viewer_of(-1, "p2").is_spectator());
}

// Views as changes (hello views "changes"): for every game, through many states of a game played
// from `legal` (the first concrete entry of the first seat prompted, timers off), each viewer's
// patch applied to its previous view is its view now, and a new game has no patch.
TEST_CASE("table: a view patch turns each viewer's previous view into its view now, in every game", "[table]") {
  for (const char* id : {"happy_holidays", "christmas_penguins", "unterm_baum"}) {
    INFO(id);
    boost::asio::io_context io;
    tinsel::server::config cfg;
    const std::string code = "TESTRM";
    const auto& game = *tinsel::engine::builtin_games().find(id);
    table t(io.get_executor(), game, cfg, code);
    t.set_seeds([] { return 7; });
    const auto options = game.normalize_options({{"maxPlayers", 3}}).value();
    REQUIRE(t.start(options, 3, 0, json::array({"A", "B", "C"}), {"a", "b", "c"}).ok());
    t.next_seq();
    auto parts = t.publish({t.started_event()});
    const std::vector<viewer> viewers{viewer::player(0), viewer::player(1), viewer::player(2), viewer::spectator()};
    std::vector<json> before;
    for (const auto& v : viewers) {
      CHECK(t.view_patch(v) == nullptr);  // the first state of a game: nothing to patch
      before.push_back(t.game().view(v));
    }
    int patched = 0;
    for (int step = 0; step < 60 && !t.game().is_over(); ++step) {
      const auto pr = t.game().current_prompt();
      if (!pr) break;
      if (pr->seats.empty()) {  // a prompt only its timer ends (Unterm Baum's MEMORIZE)
        const auto evs = t.on_timeout(pr->serial);
        t.next_seq();
        parts = t.publish(evs);
      } else {
        json cmd;
        for (const auto& c : t.game().legal(pr->seats.at(0)))
          if (c.is_object() && !c.contains("domain")) {
            cmd = c;
            break;
          }
        if (cmd.is_null()) break;
        auto evs = t.apply(pr->seats.at(0), cmd);
        REQUIRE(evs.ok());
        t.next_seq();
        parts = t.publish(evs.value());
      }
      for (std::size_t i = 0; i < viewers.size(); ++i) {
        const auto* patch = t.view_patch(viewers[i]);
        REQUIRE(patch != nullptr);
        const auto now = t.game().view(viewers[i]);
        CHECK(before[i].patch(json::parse(*patch)) == now);
        // The frame carries the patch instead of the view.
        const auto frame = json::parse(t.frame(viewers[i], parts, patch));
        CHECK_FALSE(frame.contains("view"));
        CHECK(frame.at("view_patch") == json::parse(*patch));
        CHECK(t.view_patch(viewers[i]) == patch);  // worked out once per state and viewer
        before[i] = now;
        ++patched;
      }
    }
    CHECK(patched > 20);
    // A new game in the same room: its first state has no patch for anyone.
    REQUIRE(t.start(options, 3, 0, json::array({"A", "B", "C"}), {"a", "b", "c"}).ok());
    t.next_seq();
    t.publish({t.started_event()});
    for (const auto& v : viewers) CHECK(t.view_patch(v) == nullptr);
  }
}
