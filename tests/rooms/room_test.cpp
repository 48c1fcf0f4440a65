// A real room driven through fake participants and a fake journal, on a strand the test runs by
// hand, with scripted dice: joining and leaving, resuming a seat with the last seq seen, the host's
// controls, the prompt's default when a seat's time runs out, and a write the journal refuses.
#include <catch2/catch.hpp>

#include <algorithm>

#include "room_fakes.hpp"

using namespace tinsel::room_tests;

namespace {
// Two players seated, the host (player 1) starts the game; both have their first state.
struct started_game : room_fixture {
  explicit started_game(tinsel::server::storage::journal* journal = nullptr)
      : room_fixture("happy_holidays", {{"mainTimeoutSec", "off"}, {"subPromptTimeoutSec", "off"}}, journal) {
    host = join(1);
    guest = join(2);
    room->start_game(host, std::nullopt, 7);
    settle();
  }
  // The participant of `seat`, and the seat the open prompt waits for.
  std::shared_ptr<fake_participant> of_seat(int seat) { return seat == 0 ? host : guest; }
  int awaited() const { return host->last("state").at("prompt").at("seats").at(0).get<int>(); }
  // The awaited seat plays its first concrete legal command.
  void play_one() {
    const int seat = awaited();
    auto p = of_seat(seat);
    room->action(p, first_command(p->last("state")), 8);
    settle();
  }
  std::shared_ptr<fake_participant> host, guest;
};
}  // namespace

TEST_CASE("room: a player who joins takes the first free seat, and everyone sees the room push", "[room]") {
  room_fixture f;
  auto a = f.join(1);
  auto b = f.join(2);
  CHECK(a->answer(100).at("seat") == 0);
  CHECK(b->answer(101).at("seat") == 1);
  const auto push = a->last("room");
  CHECK(push.at("room").at("host") == "p1");
  CHECK(push.at("room").at("seats").at(1).at("player") == "p2");
  CHECK(b->last("room") == push);  // one frame for everyone
}

TEST_CASE("room: a spectator has no seat and is counted apart", "[room]") {
  room_fixture f;
  auto a = f.join(1);
  auto s = f.join(3, true);
  CHECK(s->answer(101).at("seat").is_null());
  CHECK(s->answer(101).at("spectator") == true);
  CHECK(a->last("room").at("room").at("spectators") == 1);
}

TEST_CASE("room: a player who leaves the lobby frees the seat and the host role passes on", "[room]") {
  room_fixture f;
  auto a = f.join(1);
  auto b = f.join(2);
  f.room->leave(a, 5);
  f.settle();
  CHECK(a->answer(5).at("type") == "ok");
  const auto push = b->last("room").at("room");
  CHECK(push.at("seats").at(0).at("status") == "empty");
  CHECK(push.at("host") == "p2");
}

TEST_CASE("room: a second join from the same connection is refused", "[room]") {
  room_fixture f;
  auto a = f.join(1);
  f.room->join(a, room_fixture::who(1), false, std::nullopt, 9);
  f.settle();
  CHECK(a->answer(9).at("code") == "already_in_room");
}

TEST_CASE("room: a resumed seat with its last seq receives exactly the events it missed", "[room]") {
  started_game g;
  const auto seen = g.guest->last("state").at("seq").get<std::uint64_t>();
  g.play_one();
  g.play_one();
  const auto now = g.host->last("state").at("seq").get<std::uint64_t>();
  REQUIRE(now > seen);
  auto again = g.connect();
  g.room->join(again, room_fixture::who(2), false, seen, 30);
  g.settle();
  CHECK(g.guest->left == 1);  // the old connection was replaced
  CHECK(again->answer(30).at("resumed") == true);
  const auto state = again->last("state");
  CHECK(state.at("seq") == now);
  CHECK(state.at("replayed_from") == seen + 1);
  for (const auto& e : state.at("events")) CHECK(e.at("seq").get<std::uint64_t>() > seen);
}

TEST_CASE("room: a resume from beyond the history gets a full state marked resync", "[room]") {
  started_game g;
  g.cfg.history_states = 1;
  g.play_one();
  g.play_one();
  auto again = g.connect();
  g.room->join(again, room_fixture::who(2), false, 0, 31);
  g.settle();
  CHECK(again->last("state").at("resync") == true);
  CHECK(again->last("game_log").at("events").size() > 0);
}

TEST_CASE("room: only the host may use the host controls", "[room][host]") {
  room_fixture f;
  auto a = f.join(1);
  auto b = f.join(2);
  f.room->kick(b, "p1", 10);
  f.room->add_bot(b, 11);
  f.settle();
  CHECK(b->answer(10).at("code") == "not_host");
  CHECK(b->answer(11).at("code") == "not_host");
  CHECK(a->last("room").at("room").at("seats").at(0).at("player") == "p1");
}

TEST_CASE("room: the host removes a player, who is told, leaves, and may not sit again", "[room][host]") {
  room_fixture f;
  auto a = f.join(1);
  auto b = f.join(2);
  f.room->kick(a, "p2", 12);
  f.settle();
  CHECK(a->answer(12).at("type") == "ok");
  CHECK(b->last("kicked").at("room") == "TESTRM");
  CHECK(b->left == 1);
  CHECK(a->last("room").at("room").at("kicked").at(0).at("player") == "p2");
  CHECK(f.room->sent_away("p2"));
  auto back = f.join(2);
  CHECK(back->last("error").at("code") == "kicked");
}

TEST_CASE("room: the host hands the role over, adds a bot, and closes the room", "[room][host]") {
  room_fixture f;
  auto a = f.join(1);
  auto b = f.join(2);
  f.room->add_bot(a, 13);
  f.settle();
  CHECK(a->answer(13).at("seat") == 2);
  CHECK(b->last("room").at("room").at("seats").at(2).at("status") == "bot");
  f.room->transfer_host(a, "p2", 14);
  f.settle();
  CHECK(b->last("room").at("room").at("host") == "p2");
  f.room->close_room(b, 15);
  f.settle();
  CHECK(a->last("room").at("room").at("status") == "closed");
  CHECK(a->left == 1);
  CHECK(f.expired == std::vector<std::string>{"TESTRM"});
}

TEST_CASE("room: a command from the seat the prompt awaits is applied and everyone gets the next state", "[room][game]") {
  started_game g;
  const auto before = g.host->last("state").at("seq").get<std::uint64_t>();
  g.play_one();
  CHECK(g.host->answer(8).is_null() != g.guest->answer(8).is_null());  // one of them sent it
  CHECK(g.host->last("state").at("seq") == before + 1);
  CHECK(g.guest->last("state").at("seq") == before + 1);
}

TEST_CASE("room: a disconnected seat's prompt resolves with its default after the reconnection grace", "[room][timer]") {
  started_game g;
  g.cfg.reconnect_grace = std::chrono::milliseconds(1);
  const int seat = g.awaited();
  auto gone = g.of_seat(seat);
  auto other = g.of_seat(1 - seat);
  g.room->disconnected(gone->connection_id());
  const auto timed_out = [&] {
    for (const auto& s : other->of_type("state"))
      for (const auto& e : s.at("events"))
        if (e.value("kind", "") == "timed_out") return true;
    return false;
  };
  REQUIRE(g.run_until(timed_out));
}

TEST_CASE("room: while the journal cannot write, a request is refused with storage_failed and nothing changes", "[room][journal]") {
  fake_journal j;
  room_fixture f("happy_holidays", json::object(), &j);
  auto a = f.join(1);
  const auto written = j.kinds().size();
  j.writable_ = false;
  f.room->chat(a, "hello", 20);
  f.settle();
  CHECK(a->answer(20).at("code") == "storage_failed");
  CHECK(a->of_type("chat").empty());
  CHECK(j.kinds().size() == written);
}

TEST_CASE("room: a write that fails is refused and the room goes back to what its journal holds", "[room][journal]") {
  fake_journal j;
  room_fixture f("happy_holidays", json::object(), &j);
  auto a = f.join(1);
  const auto options = a->last("room").at("room").at("options");
  j.fail_writes = true;
  f.room->add_bot(a, 21);
  f.settle();
  CHECK(a->answer(21).at("code") == "storage_failed");
  const auto push = a->last("room").at("room");
  CHECK(push.at("seats").at(1).at("status") == "empty");  // no bot
  CHECK(push.at("options") == options);
}

TEST_CASE("room: a durable room journals its creation, the lobby, the start and every command", "[room][journal]") {
  fake_journal j;
  started_game g(&j);
  g.play_one();
  const auto kinds = j.kinds();
  REQUIRE(kinds.size() >= 4);
  CHECK(kinds.front() == "created");
  CHECK(std::find(kinds.begin(), kinds.end(), "started") != kinds.end());
  CHECK(kinds.back() == "command");
}

// Views as changes (hello views "changes"): whole views where a member needs one, patches between.
TEST_CASE("room: a member taking changes gets a whole view on joining, then patches, and a whole view on asking", "[room][views]") {
  started_game g;
  auto sam = g.connect();
  auto who = room_fixture::who(5);
  who.view_changes = true;
  g.room->join(sam, who, true, std::nullopt, 40);
  g.settle();
  REQUIRE(sam->last("state").contains("view"));  // the state that answers the join is whole
  json view = sam->last("state").at("view");
  for (int i = 0; i < 4; ++i) {
    g.play_one();
    const auto s = sam->last("state");
    REQUIRE(s.contains("view_patch"));
    CHECK_FALSE(s.contains("view"));
    view = view.patch(s.at("view_patch"));
    // Happy Holidays hides nothing: the patched view is the view the host (full views) got.
    CHECK(view == g.host->last("state").at("view"));
    CHECK(g.host->last("state").contains("view"));
    CHECK_FALSE(g.host->last("state").contains("view_patch"));
  }
  const auto seq = sam->last("state").at("seq");
  const auto states = sam->of_type("state").size();
  g.room->full_view(sam, 41);
  g.settle();
  CHECK(sam->answer(41).at("type") == "ok");
  REQUIRE(sam->of_type("state").size() == states + 1);
  const auto whole = sam->last("state");
  CHECK(whole.at("seq") == seq);  // the seq it has: nothing is told twice
  CHECK(whole.at("events") == json::array());
  CHECK(whole.at("view") == view);
  g.play_one();
  CHECK(view.patch(sam->last("state").at("view_patch")) == g.host->last("state").at("view"));
}

TEST_CASE("room: full_view outside a game is refused with game_not_started", "[room][views]") {
  room_fixture f("happy_holidays");
  auto p = f.join(1);
  f.room->full_view(p, 42);
  f.settle();
  CHECK(p->answer(42).at("code") == "game_not_started");
}
