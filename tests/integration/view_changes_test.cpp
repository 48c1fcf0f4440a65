// Views as changes (hello views "changes", docs/protocol.md "Views as changes") through the real
// server: every frame of a changes client validates against the schemas (ws_client checks each
// one); each view_patch applied to the view before is the view a full-view client with the same
// eyes gets; `full_view` without an id gets no ok, only its state; and after a server restart the
// state that answers the resume is whole, and patches go on from it.
#include <catch2/catch.hpp>

#include <stdlib.h>

#include <filesystem>

#include "server_process.hpp"
#include "ws_client.hpp"

using namespace tinsel::test;

namespace {

bool is_state(const json& j) { return j.value("type", "") == "state"; }

json hello(ws_client& c, const std::string& name, bool changes, const std::string& token = "") {
  json h = {{"type", "hello"}, {"protocol", 1}, {"name", name}};
  if (changes) h["views"] = "changes";
  if (!token.empty()) h["token"] = token;
  c.send(h);
  const auto w = c.expect_type("welcome", std::chrono::seconds(30));
  return w;
}

// The next state after `seq`; `view` follows it: whole, or the patch applied.
json next_state(ws_client& c, std::uint64_t seq, json& view) {
  const auto st = c.expect([&](const json& j) { return is_state(j) && j["seq"].get<std::uint64_t>() > seq; }, "the next state",
                           std::chrono::seconds(30));
  if (st.contains("view_patch")) {
    CHECK(st["seq"] == seq + 1);
    view = view.patch(st["view_patch"]);
  } else {
    view = st["view"];
  }
  return st;
}

}  // namespace

TEST_CASE("views as changes: patches rebuild the full view, full_view answers with its state, a restart resumes whole",
          "[integration][views]") {
  char dir_template[] = "/tmp/tinsel-views-XXXXXX";
  REQUIRE(::mkdtemp(dir_template) != nullptr);
  const std::string dir = dir_template;
  const std::vector<std::string> flags = {"--data-dir", dir, "--rate-per-sec", "100000", "--rate-burst", "100000"};
  const json options = {{"maxPlayers", 2}, {"mainTimeoutSec", "off"}, {"subPromptTimeoutSec", "off"}, {"startPlayer", "host-picks"}};

  std::string token, code;
  json view;          // Anna's view, kept from patches
  std::uint64_t seq = 0;
  {
    server_process a(flags);
    ws_client anna(a.port), ben(a.port);
    token = hello(anna, "Anna", true)["token"];
    hello(ben, "Ben", false);
    code = anna.request({{"type", "create_room"}, {"game", "happy_holidays"}, {"options", options}})["room"];
    REQUIRE(ben.request({{"type", "join_room"}, {"room", code}})["type"] == "ok");
    REQUIRE(anna.request({{"type", "start_game"}, {"first_seat", 0}})["type"] == "ok");
    auto st = next_state(anna, 0, view);
    CHECK(st.contains("view"));  // a game's first state is whole
    seq = st["seq"];
    json bens_view;
    json bens = next_state(ben, 0, bens_view);
    int patches = 0;
    for (int move = 0; move < 12 && st["over"] == false; ++move) {
      const bool annas_turn = st["prompt"]["seats"][0] == 0;
      auto& mover = annas_turn ? anna : ben;
      const json& mine = annas_turn ? st : bens;
      REQUIRE(mover.request({{"type", "action"}, {"action", mine["legal"][0]}})["type"] == "ok");
      st = next_state(anna, seq, view);
      seq = st["seq"];
      if (st.contains("view_patch")) ++patches;
      // Ben takes whole views: Happy Holidays shows everyone the same view.
      bens = ben.expect([&](const json& j) { return is_state(j) && j["seq"] == seq; }, "Ben's state", std::chrono::seconds(30));
      CHECK_FALSE(bens.contains("view_patch"));
      CHECK(bens["view"] == view);
    }
    CHECK(patches >= 10);

    // full_view without an id: no ok, one state with the same seq, no events, the whole view.
    anna.send({{"type", "full_view"}});
    const auto whole = anna.expect(is_state, "the full_view state", std::chrono::seconds(30));
    CHECK(whole["seq"] == seq);
    CHECK(whole["events"] == json::array());
    CHECK(whole["view"] == view);
    REQUIRE(anna.request({{"type", "chat"}, {"text", "fence"}})["type"] == "ok");
    for (const auto& f : anna.transcript()) CHECK((f.value("type", "") != "ok" || f.contains("id")));
    a.kill_hard();
  }
  // The restart: resume with the token and last_seq; the answer is whole, then patches again.
  server_process b(flags);
  ws_client anna(b.port);
  CHECK(hello(anna, "Anna", true, token)["resumed"] == true);
  REQUIRE(anna.request({{"type", "join_room"}, {"room", code}, {"last_seq", seq}}, std::chrono::seconds(30))["type"] == "ok");
  auto st = anna.expect(is_state, "the resume's state", std::chrono::seconds(30));
  REQUIRE(st.contains("view"));
  CHECK(st["view"] == view);
  view = st["view"];
  seq = st["seq"];
  if (st["over"] == false && st["prompt"]["seats"][0] == 0) {
    REQUIRE(anna.request({{"type", "action"}, {"action", st["legal"][0]}})["type"] == "ok");
    st = next_state(anna, seq, view);
    CHECK(st.contains("view_patch"));
    // The patched view is what a full_view answers.
    REQUIRE(anna.request({{"type", "full_view"}})["type"] == "ok");
    CHECK(anna.expect(is_state, "the full_view state", std::chrono::seconds(30))["view"] == view);
  }
  std::filesystem::remove_all(dir);
}
