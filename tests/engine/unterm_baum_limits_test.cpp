// Unterm Baum, A14 and A12 as the rulebook resolves them against a player who never stops: a
// rearrangement must change something, a turn allows at most rearrangesPerTurn of them (default 20;
// legal stops offering them), and a revealed card is told again (catch-up, game log) without its
// motif. Also: the option does not change the state (and so the journal hashes) of default games.
#include "unterm_baum_common.hpp"

#include <random>

using namespace ub_test;

namespace {

bool lists_rearrange(const json& legal) {
  return std::any_of(legal.begin(), legal.end(), [](const json& e) { return e["kind"] == "rearrange"; });
}

// The normalized options of the servers before rearrangesPerTurn: what journals of running games
// store, and what the full state of every default game held when their hashes were written.
const json options_before_rearranges_per_turn = {
    {"maxPlayers", 6},        {"startPlayer", "random"}, {"cardsToRemember", 8},      {"familySize", 4},
    {"decoys", "auto"},       {"actionsMode", "oneEach"}, {"positionMode", "slot"},   {"tieBreak", "shared"},
    {"maxRounds", "auto"},    {"assignSeconds", 90},     {"memorizeSeconds", 30},     {"revealSeconds", 4},
    {"mainTimeoutSec", 90}};

std::unique_ptr<game> created(const json& options, int players, std::uint64_t seed) {
  seeded_dice d(seed);
  auto r = ub::info().create(setup{options, players, std::nullopt}, d);
  REQUIRE(r.ok());
  return std::move(r.value());
}

// Plays `steps` commands (random concrete legal entries, or the timeout) and returns every full state
// on the way, as text: the room's journal hashes exactly this text (protocol::state_hash).
std::vector<std::string> play(game& g, std::uint64_t seed, int steps) {
  seeded_dice d(seed);
  std::mt19937 rng(static_cast<std::uint32_t>(seed));
  std::vector<std::string> states{g.full_state().dump()};
  for (int i = 0; i < steps && !g.is_over(); ++i) {
    const auto prompt = g.current_prompt();
    REQUIRE(prompt);
    bool played = false;
    for (int seat : prompt->seats) {
      std::vector<json> concrete;
      for (const auto& e : g.commands(seat))  // legal with the reveals written out
        if (!e.contains("domain")) concrete.push_back(e);
      if (concrete.empty()) continue;
      const auto r = g.apply(seat, concrete[std::uniform_int_distribution<std::size_t>(0, concrete.size() - 1)(rng)], d);
      REQUIRE(r.ok());
      played = true;
      break;
    }
    if (!played) g.on_timeout(prompt->serial, d);
    states.push_back(g.full_state().dump());
  }
  return states;
}

}  // namespace

TEST_CASE("UB A14 a rearrangement that leaves every card where it was is refused and changes nothing",
          "[unterm_baum][rearrange][limits]") {
  table t;
  t.to_play();
  t.edit([](json& s) {
    place(s, 1, A, 0, 0);
    place(s, 2, A, 0, 1);
  });
  CHECK(t.rejected(A, rearrange({{cell(0, 0), cell(0, 0)}})) == "rearrange_changes_nothing");
  CHECK(t.rejected(A, rearrange({{cell(0, 0), cell(0, 0)}, {cell(0, 1), cell(0, 1)}})) ==
        "rearrange_changes_nothing");
  // The shape is checked first: an empty slot as `from` is still location_empty.
  CHECK(t.rejected(A, rearrange({{cell(1, 1), cell(1, 1)}})) == "location_empty");
  // One card staying put beside one that moves is a rearrangement.
  const auto evs = t.ok(A, rearrange({{cell(0, 0), cell(0, 0)}, {cell(0, 1), cell(2, 2)}}));
  CHECK(evs[0].body["moves"].size() == 2);
  CHECK(t.st()["fields"][A][12] == 1);
}

TEST_CASE("UB A14 a turn allows at most 20 rearrangements: legal stops offering them and the next turn starts afresh",
          "[unterm_baum][rearrange][limits]") {
  table t;
  t.to_play();
  t.edit([](json& s) {
    place(s, 1, A, 0, 0);
    place(s, 2, A, 0, 1);
    place(s, 9, B, 0, 0);
  });
  const json swap = rearrange({{cell(0, 0), cell(0, 1)}, {cell(0, 1), cell(0, 0)}});
  t.ok(A, reveal(tree(5)));  // actions do not count, and do not restore the allowance
  for (int i = 0; i < 20; ++i) {
    INFO("rearrangement " << i + 1);
    REQUIRE(lists_rearrange(t.g->legal(A)));
    t.ok(A, swap);
  }
  CHECK_FALSE(lists_rearrange(t.g->legal(A)));
  CHECK(t.rejected(A, swap) == "no_rearranges_left");
  CHECK(t.rejected(A, rearrange({{cell(0, 0), cell(3, 4)}})) == "no_rearranges_left");
  // Everything else of the turn is still there: the move, and ending it.
  const auto legal = t.g->legal(A);
  CHECK(legal[0] == end_turn());
  CHECK(std::any_of(legal.begin(), legal.end(), [](const json& e) { return e["kind"] == "move"; }));
  t.ok(A, move(tree(5), at(A, 1, 0)));
  t.ok(A, end_turn());
  // Bob's turn has its own 20, and so has Alice's next one.
  t.ok(B, rearrange({{cell(0, 0), cell(1, 1)}}));
  t.ok(B, end_turn());
  CHECK(lists_rearrange(t.g->legal(A)));
  t.ok(A, swap);
}

TEST_CASE("UB A14 rearrangesPerTurn=3: the 4th rearrangement of a turn is refused, legal lists none after the 3rd",
          "[unterm_baum][rearrange][limits][options]") {
  table t(json{{"rearrangesPerTurn", 3}});
  t.to_play();
  t.edit([](json& s) {  // the option goes through full_state and restore
    place(s, 1, A, 0, 0);
    place(s, 2, A, 0, 1);
  });
  CHECK(t.st()["options"]["rearrangesPerTurn"] == 3);
  const json swap = rearrange({{cell(0, 0), cell(0, 1)}, {cell(0, 1), cell(0, 0)}});
  for (int i = 0; i < 3; ++i) {
    INFO("rearrangement " << i + 1);
    REQUIRE(lists_rearrange(t.g->legal(A)));
    t.ok(A, swap);
  }
  CHECK_FALSE(lists_rearrange(t.g->legal(A)));
  std::string text;
  REQUIRE(t.g->write_legal(A, text));
  CHECK(json::parse(text) == t.g->legal(A));
  CHECK(t.rejected(A, swap) == "no_rearranges_left");
  t.ok(A, end_turn());
  t.ok(B, end_turn());
  CHECK(lists_rearrange(t.g->legal(A)));  // the next turn has its own 3
  t.ok(A, swap);

  table one(json{{"rearrangesPerTurn", 1}});
  one.to_play();
  one.edit([](json& s) { place(s, 1, A, 0, 0); });
  one.ok(A, rearrange({{cell(0, 0), cell(1, 1)}}));
  CHECK(one.rejected(A, rearrange({{cell(1, 1), cell(0, 0)}})) == "no_rearranges_left");
}

TEST_CASE("UB A14 rearrangesPerTurn: 1 to 100, default 20, anything else is invalid_option",
          "[unterm_baum][options]") {
  const auto info = ub::info();
  CHECK(info.normalize_options(json::object()).value()["rearrangesPerTurn"] == 20);
  for (int n : {1, 3, 20, 100}) CHECK(info.normalize_options({{"rearrangesPerTurn", n}}).value()["rearrangesPerTurn"] == n);
  for (const json& v : {json(0), json(-1), json(101), json(2.5), json("20"), json("off"), json(nullptr), json(true)}) {
    INFO(v.dump());
    const auto r = info.normalize_options({{"rearrangesPerTurn", v}});
    REQUIRE_FALSE(r.ok());
    CHECK(r.error().code == "invalid_option");
    CHECK(r.error().message.find("rearrangesPerTurn") != std::string::npos);
  }
}

TEST_CASE("UB rearrangesPerTurn at its default stays out of full_state: games journaled before the option hash the same",
          "[unterm_baum][options][journal]") {
  // A default game's state holds exactly the options the earlier normalization gave.
  const auto fresh = created(json::object(), 3, 7);
  CHECK(fresh->full_state()["options"] == options_before_rearranges_per_turn);
  // A game created from a journal's stored options (without the key) plays through the same states,
  // hence the same journal hashes, as one created from today's normalized options; and each state
  // restores to itself.
  const auto today = ub::info().normalize_options(json::object()).value();
  REQUIRE(today["rearrangesPerTurn"] == 20);
  for (std::uint64_t seed : {1u, 2u, 3u}) {
    INFO("seed " << seed);
    auto old_game = created(options_before_rearranges_per_turn, 3, seed);
    auto new_game = created(today, 3, seed);
    const auto old_states = play(*old_game, seed, 60);
    CHECK(old_states == play(*new_game, seed, 60));
    CHECK(old_states.size() > 20);
    CHECK(json::parse(old_states.back())["options"] == options_before_rearranges_per_turn);
    auto back = ub::restore(json::parse(old_states.back()));
    REQUIRE(back.ok());
    CHECK(back.value()->full_state().dump() == old_states.back());
  }
  // Any other value is part of the state (and of its hash), and survives restore.
  auto three = created({{"rearrangesPerTurn", 3}}, 2, 1);
  CHECK(three->full_state()["options"]["rearrangesPerTurn"] == 3);
  auto back = ub::restore(three->full_state());
  REQUIRE(back.ok());
  CHECK(back.value()->full_state() == three->full_state());
}

TEST_CASE("UB A12 a reveal told again (catch-up, game log) says who looked at which place, never the motif",
          "[unterm_baum][reveal][secrecy]") {
  table t;
  t.to_play();
  const auto evs = t.ok(A, reveal(tree(3)));
  REQUIRE(evs.size() == 1);
  CHECK(evs[0].body["motif"] == m(4));  // live: once, to everyone
  CHECK(evs[0].retold == json{{"kind", "revealed"}, {"seat", A}, {"location", tree(3)}});
  CHECK(evs[0].retold_body().dump().find(m(4)) == std::string::npos);
  CHECK(evs[0].to == event::audience::everyone);
  // Every other event is told again as it was.
  for (const auto& e : t.ok(A, end_turn())) CHECK(e.retold.is_null());
}
