// Christmas Penguins turn machine: apply and the arrival resolution (A40). Every transition that opens a prompt goes through open() (which bumps the serial);
// stable points (A23) go through reach(), which first grants a queued "Stop!".
#include <algorithm>
#include <cassert>
#include <climits>
#include <map>

#include "christmas_penguins/cp_game.hpp"

namespace tinsel::engine::christmas_penguins::detail {

using fast_json::object;

namespace {
using result_t = std::optional<rule_error>;

std::optional<int> int_field(const json& cmd, const char* key) {
  if (!cmd.contains(key) || !cmd[key].is_number_integer()) return std::nullopt;
  const auto v = cmd[key].get<long long>();
  if (v < INT_MIN || v > INT_MAX) return std::nullopt;
  return static_cast<int>(v);
}

std::optional<int> colour_field(const json& cmd) {
  if (!cmd.contains("colour") || !cmd["colour"].is_string()) return std::nullopt;
  return colour_from_name(cmd["colour"].get<std::string>());
}

// Every command kind and the fields it may carry besides "kind" (protocol/schema/games/
// christmas_penguins/command.json): a field not listed is refused, so what legal() does not list is
// never accepted. use_stone's fields depend on the stone: see fields_ok.
struct kind_fields {
  std::string_view kind;
  std::array<std::string_view, 4> fields;  // unused ones empty
};
constexpr std::array<kind_fields, 20> known_kinds = {{
    {"place_penguin", {"floe"}}, {"place_tree", {"floe"}},    {"place_bear", {"floe"}},
    {"place_stone", {"floe"}},   {"relocate_tree", {"floe"}}, {"roll", {}},
    {"pass", {}},                {"end_turn", {}},            {"stop", {}},
    {"withdraw_stop", {}},       {"cancel_stop", {}},         {"move", {"to"}},
    {"bear_move", {"to"}},       {"push", {"chain"}},         {"confiscate", {"colour"}},
    {"steal", {"colour"}},       {"pickup_stone", {"take"}},  {"flee", {"to", "colour"}},
    {"place_channel", {"a", "b"}}, {"use_stone", {"stone", "target", "floe", "to"}}}};

const kind_fields* find_kind(std::string_view kind) {
  for (const auto& k : known_kinds)
    if (k.kind == kind) return &k;
  return nullptr;
}

bool fields_ok(std::string_view kind, const std::array<std::string_view, 4>& allowed, const json& cmd) {
  const bool use_stone = kind == "use_stone";
  const bool green = use_stone && cmd.contains("stone") && cmd["stone"] == "green";
  for (const auto& [key_string, value] : *cmd.get_ptr<const json::object_t*>()) {
    const std::string_view key = key_string;
    if (key == "kind") continue;
    if (key.empty() || std::find(allowed.begin(), allowed.end(), key) == allowed.end()) return false;
    // use_stone: red and blue take a target, green a floe and a destination.
    if (use_stone && key != "stone" && (key == "target") == green) return false;
  }
  return true;
}

}  // namespace
// ---- apply ----------------------------------------------------------------------------------

// dispatch() validates a command completely before it changes anything, with one exception: the
// reclaim_blocked reset of a command that moves play on happens before the phase checks, so it is
// undone here when the command is refused. (Debug builds check that a refusal left the state as
// it was.)
outcome<events> cp_game::apply(int seat, const json& command, dice& d) {
  std::uint32_t reclaim = 0;
  for (std::size_t i = 0; i < s_.reclaim_blocked.size(); ++i)
    if (s_.reclaim_blocked[i]) reclaim |= 1U << i;
#ifndef NDEBUG
  const json before = full_state();
#endif
  events out;
  out.reserve(4);
  if (auto err = dispatch(seat, command, d, out)) {
    for (std::size_t i = 0; i < s_.reclaim_blocked.size(); ++i) s_.reclaim_blocked[i] = (reclaim >> i) & 1U;
    assert(full_state() == before);
    return *err;
  }
  return out;
}

cp_game::result_t cp_game::dispatch(int seat, const json& cmd, dice& d, events& out) {
  if (!cmd.is_object() || !cmd.contains("kind") || !cmd["kind"].is_string())
    return make_error("bad_command", "a command is an object with a string \"kind\"");
  const std::string& kind_string = cmd["kind"].get_ref<const std::string&>();
  const std::string_view kind = kind_string;
  const auto* known = find_kind(kind);
  if (!known) return make_error("unknown_command", "unknown command kind '" + kind_string + "'");
  if (!fields_ok(kind, known->fields, cmd))
    return make_error("bad_command", "'" + kind_string + "' carries a field it does not have");
  if (s_.ph == phase::over) return make_error("game_over", "the game is over");
  if (seat < 0 || seat >= s_.cfg->players) return make_error("not_a_player", "only seated players act");

  // The "Stop!" protocol (A23) works at any moment of play.
  if (kind == "stop") return claim_stop(seat, out);
  if (kind == "withdraw_stop") return withdraw_stop(seat, out);
  if (kind == "cancel_stop" || kind == "use_stone") {
    if (s_.ph != phase::stopped) return make_error("no_stop_claimed", "claim a stop first");
    if (seat != s_.claimant)
      return make_error("not_claimant", "seat " + std::to_string(s_.claimant) + " holds the stop");
    if (kind == "use_stone") return use_stone(seat, cmd, out);
    end_stop("cancelled", out);
    return std::nullopt;
  }
  if (s_.ph == phase::stopped)
    return make_error("game_stopped", "seat " + std::to_string(s_.claimant) + " stopped the game");
  // Play moves on (a pass does not move it): every seat may claim again. apply() restores this if
  // the command fails.
  if (kind != "pass") std::fill(s_.reclaim_blocked.begin(), s_.reclaim_blocked.end(), false);
  if (kind == "place_channel") return place_channel(seat, cmd, out);

  // Everything else answers the open prompt: the one kind it expects, from a seat it waits for.
  const prompted_command* expected = prompted_command_for(s_.ph);
  const std::string_view expected_kind = expected ? expected->kind : "";
  if (kind != expected_kind)
    return make_error("wrong_phase", "'" + kind_string + "' is not expected now; the game waits for '" +
                                         std::string(expected_kind) + "'");
  if (!contains(prompt_seats(), seat)) return make_error("not_your_turn", "another seat is awaited");
  return (this->*expected->handle)(seat, cmd, d, out);
}

const cp_game::prompted_command* cp_game::prompted_command_for(phase p) {
  static constexpr prompted_command table[] = {
      {phase::place_penguin, "place_penguin", &cp_game::on_place_penguin},
      {phase::place_tree, "place_tree", &cp_game::on_place_tree},
      {phase::place_bear, "place_bear", &cp_game::on_place_bear},
      {phase::santa_place_stone, "place_stone", &cp_game::on_place_stone},
      {phase::await_roll, "roll", &cp_game::on_roll},
      {phase::reaction, "pass", &cp_game::on_pass},
      {phase::await_move, "move", &cp_game::on_move},
      {phase::push_chain, "push", &cp_game::on_push},
      {phase::confiscate, "confiscate", &cp_game::on_confiscate},
      {phase::steal, "steal", &cp_game::on_steal},
      {phase::relocate_tree, "relocate_tree", &cp_game::on_relocate_tree},
      {phase::pickup_stone, "pickup_stone", &cp_game::on_pickup_stone},
      {phase::await_bear, "bear_move", &cp_game::on_bear_move},
      {phase::flee, "flee", &cp_game::on_flee},
      {phase::await_post, "end_turn", &cp_game::on_end_turn},
  };
  for (const auto& c : table)
    if (c.ph == p) return &c;
  return nullptr;
}

cp_game::result_t cp_game::withdraw_stop(int seat, events& out) {
  auto it = std::find(s_.stop_queue.begin(), s_.stop_queue.end(), seat);
  if (it == s_.stop_queue.end()) return make_error("not_queued", "you have no queued stop");
  s_.stop_queue.erase(it);
  s_.reclaim_blocked[static_cast<std::size_t>(seat)] = true;
  out.push_back(event::public_event(object("kind", "stop_withdrawn", "seat", seat)));
  return std::nullopt;
}

// ---- the prompted commands (prompted_command_for) ----------------------------------------------

namespace {
// The floe a command names in `key`, if it is one of the board's.
std::optional<int> floe_field(const state& s, const json& cmd, const char* key) {
  const auto f = int_field(cmd, key);
  if (!f || *f < 0 || *f >= static_cast<int>(s.floes.size())) return std::nullopt;
  return f;
}
rule_error illegal_floe() { return make_error("illegal_floe", "that floe is not allowed here"); }
// The colour a command names, if `from` holds a present of it.
std::optional<int> colour_held(const json& cmd, const counts& from) {
  const auto c = colour_field(cmd);
  if (!c || from[static_cast<std::size_t>(*c)] == 0) return std::nullopt;
  return c;
}
}  // namespace

cp_game::result_t cp_game::on_place_penguin(int seat, const json& cmd, dice&, events& out) {
  const auto f = floe_field(s_, cmd, "floe");
  if (!f || !is_refuge(s_, *f)) return illegal_floe();
  s_.penguin[static_cast<std::size_t>(seat)] = *f;
  s_.place_order.erase(s_.place_order.begin());
  out.push_back(event::public_event(object("floe", *f, "kind", "penguin_placed", "seat", seat)));
  next_setup(out);
  return std::nullopt;
}

cp_game::result_t cp_game::on_place_tree(int, const json& cmd, dice&, events& out) {
  const auto f = floe_field(s_, cmd, "floe");
  if (!f || !contains(tree_candidates(s_), *f)) return illegal_floe();
  s_.tree = *f;
  out.push_back(event::public_event(object("floe", *f, "kind", "tree_placed")));
  next_setup(out);
  return std::nullopt;
}

cp_game::result_t cp_game::on_place_bear(int, const json& cmd, dice&, events& out) {
  const auto f = floe_field(s_, cmd, "floe");
  if (!f || has_figure(s_, *f) || *f == s_.tree) return illegal_floe();
  s_.bear = *f;
  out.push_back(event::public_event(object("floe", *f, "kind", "bear_placed")));
  next_setup(out);
  return std::nullopt;
}

cp_game::result_t cp_game::on_place_stone(int, const json& cmd, dice&, events& out) {
  const auto f = floe_field(s_, cmd, "floe");
  if (!f || !contains(stone_floes(s_), *f)) return illegal_floe();
  const int stone = s_.supply.front();
  s_.supply.erase(s_.supply.begin());
  s_.floes[static_cast<std::size_t>(*f)].stone = stone;
  out.push_back(event::public_event(object("floe", *f, "kind", "stone_placed", "stone", stone_name(stone))));
  start_turn(out);  // the next stone, or the roll
  return std::nullopt;
}

cp_game::result_t cp_game::on_roll(int seat, const json&, dice& d, events& out) {
  s_.roll = static_cast<int>(d.roll(6)) + 1;
  static const fast_json::shape rolled{"kind", "seat", "value"};
  out.push_back(event::public_event(rolled("rolled", seat, s_.roll)));
  reach(phase::reaction, out);
  return std::nullopt;
}

cp_game::result_t cp_game::on_pass(int seat, const json&, dice&, events& out) {
  std::erase(s_.reaction_seats, seat);
  static const fast_json::shape passed{"kind", "seat"};
  out.push_back(event::public_event(passed("passed", seat)));
  if (s_.reaction_seats.empty()) after_reaction(out);
  return std::nullopt;
}

cp_game::result_t cp_game::on_move(int, const json& cmd, dice&, events& out) {
  const auto f = floe_field(s_, cmd, "to");
  if (!f || !destination_legal(*f))
    return make_error("illegal_destination", "no legal path of exactly " + std::to_string(s_.roll) +
                                                 " steps ends there");
  do_move(*f, out);
  return std::nullopt;
}

cp_game::result_t cp_game::on_push(int seat, const json& cmd, dice&, events& out) {
  if (!cmd.contains("chain") || !cmd["chain"].is_array())
    return make_error("illegal_chain", "chain must be a list of floe ids");
  std::vector<int> chain;
  for (const auto& v : cmd["chain"]) {
    if (!v.is_number_integer()) return make_error("illegal_chain", "chain must be a list of floe ids");
    chain.push_back(v.get<int>());
  }
  if (!chain_valid(s_, s_.active, s_.pending_floe, chain))
    return make_error("illegal_chain", "not a valid push chain (A15)");
  std::vector<int> pushed;  // the penguins on X, Y1, ..., Y(k-1) before anyone moves
  pushed.push_back(s_.pending_seat);
  for (std::size_t i = 0; i + 1 < chain.size(); ++i) pushed.push_back(penguin_at(s_, chain[i], s_.active));
  for (std::size_t i = 0; i < chain.size(); ++i) s_.penguin[static_cast<std::size_t>(pushed[i])] = chain[i];
  out.push_back(event::public_event(
      object("chain", chain, "from", s_.pending_floe, "kind", "pushed", "penguins", pushed, "seat", seat)));
  after_push(out);
  return std::nullopt;
}

cp_game::result_t cp_game::on_confiscate(int, const json& cmd, dice&, events& out) {
  const auto c = colour_held(cmd, s_.presents[static_cast<std::size_t>(s_.pending_seat)]);
  if (!c) return make_error("colour_not_available", "choose a colour that is there");
  confiscate(*c, out);
  return std::nullopt;
}

cp_game::result_t cp_game::on_steal(int, const json& cmd, dice&, events& out) {
  const auto c = colour_held(cmd, s_.pool);
  if (!c) return make_error("colour_not_available", "choose a colour that is there");
  steal(*c, out);
  return std::nullopt;
}

cp_game::result_t cp_game::on_relocate_tree(int, const json& cmd, dice&, events& out) {
  const auto f = floe_field(s_, cmd, "floe");
  if (!f || !contains(tree_candidates(s_), *f)) return illegal_floe();
  relocate(*f, out);
  return std::nullopt;
}

cp_game::result_t cp_game::on_pickup_stone(int seat, const json& cmd, dice&, events& out) {
  if (!cmd.contains("take") || !cmd["take"].is_boolean())
    return make_error("bad_command", "pickup_stone needs \"take\": true or false");
  auto& fl = s_.floes[static_cast<std::size_t>(s_.pending_floe)];
  if (cmd["take"].get<bool>()) {
    ++s_.stones[static_cast<std::size_t>(seat)][static_cast<std::size_t>(fl.stone)];
    out.push_back(event::public_event(
        object("floe", s_.pending_floe, "kind", "stone_taken", "seat", seat, "stone", stone_name(fl.stone))));
    fl.stone = no_stone;
  } else {
    out.push_back(event::public_event(object("floe", s_.pending_floe, "kind", "stone_left", "seat", seat)));
  }
  after_pickup(out);
  return std::nullopt;
}

cp_game::result_t cp_game::on_bear_move(int, const json& cmd, dice&, events& out) {
  const auto f = floe_field(s_, cmd, "to");
  if (!f || !contains(bear_steps(s_), *f)) return illegal_floe();
  bear_move(*f, out);
  return std::nullopt;
}

cp_game::result_t cp_game::on_flee(int seat, const json& cmd, dice&, events& out) {
  const auto& held = s_.presents[static_cast<std::size_t>(seat)];
  std::optional<int> c;
  if (total(held) > 0) {
    c = colour_held(cmd, held);
    if (!c) return make_error("colour_not_available", "leave a present of a colour you hold");
  } else if (cmd.contains("colour")) {
    return make_error("colour_not_available", "you hold no present to leave");
  }
  const auto f = floe_field(s_, cmd, "to");
  if (!f || !contains(flee_targets(s_, seat), *f)) return illegal_floe();
  flee(c, *f, out);
  return std::nullopt;
}

cp_game::result_t cp_game::on_end_turn(int, const json&, dice&, events& out) {
  end_turn(out);
  return std::nullopt;
}

// ---- the turn machine -----------------------------------------------------------------------

void cp_game::next_setup(events& out) {
  if (!s_.place_order.empty())
    open(phase::place_penguin);
  else if (s_.tree < 0)
    open(phase::place_tree);
  else if (s_.bear < 0)
    open(phase::place_bear);
  else
    start_turn(out);
}

void cp_game::start_turn(events& out) {
  if (s_.ph != phase::santa_place_stone) {
    s_.roll = 0;
    s_.channels_this_turn = 0;
    static const fast_json::shape started{"kind", "round", "seat"};
    out.push_back(event::public_event(
        started("turn_started", s_.turns / s_.cfg->players + 1, s_.active)));
  }
  // A24: Santa first re-places every handed-in stone; with nowhere to put one, it is discarded.
  if (s_.active == s_.santa_player && !s_.supply.empty()) {
    if (!stone_floes(s_).empty()) {
      open(phase::santa_place_stone);
      return;
    }
    for (int st : s_.supply)
      out.push_back(event::public_event(object("kind", "stone_discarded", "stone", stone_name(st))));
    s_.supply.clear();
  }
  reach(phase::await_roll, out);
}

void cp_game::reach(phase p, events& out) {
  while (!s_.stop_queue.empty()) {
    const int c = s_.stop_queue.front();
    s_.stop_queue.pop_front();
    if (!usable(c)) {
      out.push_back(event::public_event(object("kind", "stop_dropped", "reason", "no_usable_stone", "seat", c)));
      continue;
    }
    s_.claimant = c;
    s_.resume = p;
    out.push_back(event::public_event(object("kind", "stop_granted", "resumes", phase_name(p), "seat", c)));
    open(phase::stopped);
    return;
  }
  switch (p) {
    case phase::reaction: {
      // A23.4: the window opens (again) only if a non-Santa player holds a usable stone.
      s_.reaction_seats.clear();
      for (int q = 0; q < s_.cfg->players; ++q)
        if (usable(q)) s_.reaction_seats.push_back(q);
      if (s_.cfg->reaction_ms <= 0 || s_.reaction_seats.empty()) {
        s_.reaction_seats.clear();
        after_reaction(out);
        return;
      }
      break;
    }
    case phase::await_move:
      if (destinations().empty()) {
        auto_stay(out);
        return;
      }
      break;
    case phase::await_bear:
      if (bear_steps(s_).empty()) {
        out.push_back(event::public_event(object("floe", s_.bear, "kind", "bear_stays")));
        reach(phase::await_post, out);
        return;
      }
      break;
    default: break;
  }
  open(p);
}

void cp_game::after_reaction(events& out) {
  s_.reaction_seats.clear();
  if (s_.roll == 1 && s_.cfg->bear_instead)
    reach(phase::await_bear, out);
  else
    reach(phase::await_move, out);
}

// R14/A30: no legal exact-N path. A penguin waiting at the hut is put on the hut floe if it is free.
void cp_game::auto_stay(events& out) {
  auto& pos = s_.penguin[static_cast<std::size_t>(s_.active)];
  if (!active_is_santa(s_) && pos == at_hut && !has_figure(s_, s_.hut)) {
    pos = s_.hut;
    out.push_back(event::public_event(object("floe", s_.hut, "kind", "entered_hut_floe", "seat", s_.active)));
  } else {
    out.push_back(event::public_event(object("kind", "no_move", "roll", s_.roll, "seat", s_.active)));
  }
  after_move(out);
}

void cp_game::do_move(int to, events& out) {
  const bool santa = active_is_santa(s_);
  auto& pos = s_.penguin[static_cast<std::size_t>(s_.active)];
  const int from = santa ? s_.santa : pos == at_hut ? s_.hut : pos;
  static const fast_json::shape moved{"figure", "from", "kind", "seat", "to"};
  out.push_back(event::public_event(
      moved(santa ? "santa" : "penguin", from, "moved", s_.active, to)));
  s_.pending_floe = to;
  if (santa) {
    s_.santa = to;
    const int caught = penguin_at(s_, to);
    if (caught >= 0) {
      s_.pending_seat = caught;
      s_.santa_moved = true;
      meet(out);
      return;
    }
    after_move(out);
    return;
  }
  pos = to;
  arrive(out);
}

// A40: (1) meeting, (2) push, (3) steal, (4) stone, (5) loose presents.
void cp_game::arrive(events& out) {
  const int x = s_.pending_floe;
  if (x == s_.santa) {
    s_.pending_seat = s_.active;
    s_.santa_moved = false;
    meet(out);
    return;
  }
  const int other = penguin_at(s_, x, s_.active);
  if (other >= 0) {
    s_.pending_seat = other;
    open(phase::push_chain);
    return;
  }
  after_push(out);
}

void cp_game::after_push(events& out) {
  const int x = s_.pending_floe;
  if (x == s_.tree) {
    open(phase::steal);
    return;
  }
  if (s_.floes[static_cast<std::size_t>(x)].stone != no_stone) {
    open(phase::pickup_stone);
    return;
  }
  after_pickup(out);
}

void cp_game::after_pickup(events& out) {
  auto& loose = s_.floes[static_cast<std::size_t>(s_.pending_floe)].loose;
  if (total(loose) > 0) {
    auto& mine = s_.presents[static_cast<std::size_t>(s_.active)];
    for (int c = 0; c < colour_count; ++c) mine[static_cast<std::size_t>(c)] += loose[static_cast<std::size_t>(c)];
    out.push_back(event::public_event(
        object("floe", s_.pending_floe, "kind", "loose_presents_collected", "presents", counts_json(loose), "seat",
               s_.active)));
    loose.fill(0);
  }
  after_move(out);
}

void cp_game::after_move(events& out) {
  if (s_.roll == 1 && !s_.cfg->bear_instead)
    reach(phase::await_bear, out);  // A31: own step first, then the bear
  else
    reach(phase::await_post, out);
}

void cp_game::meet(events& out) {
  out.push_back(event::public_event(object("by", s_.santa_moved ? "santa" : "penguin", "floe", s_.pending_floe,
                                           "kind", "santa_met", "penguin_seat", s_.pending_seat, "santa_seat",
                                           s_.santa_player)));
  if (total(s_.presents[static_cast<std::size_t>(s_.pending_seat)]) > 0) {
    open(phase::confiscate);
    return;
  }
  swap_roles(out);
  after_move(out);
}

void cp_game::confiscate(std::optional<int> colour, events& out) {
  if (colour) {
    const auto c = static_cast<std::size_t>(*colour);
    --s_.presents[static_cast<std::size_t>(s_.pending_seat)][c];
    const char* to = "pool";
    switch (s_.cfg->confiscated) {
      case confiscate_to::pool: ++s_.pool[c]; break;
      case confiscate_to::santa_player: ++s_.presents[static_cast<std::size_t>(s_.santa_player)][c], to = "santa_player"; break;
      case confiscate_to::removed: to = "removed"; break;
    }
    out.push_back(event::public_event(
        object("colour", colour_name(*colour), "from", s_.pending_seat, "kind", "present_confiscated", "to", to)));
  }
  swap_roles(out);
  after_move(out);
}

// A28: the caught player becomes Santa (figure stays on the floe); the old Santa waits at the hut.
void cp_game::swap_roles(events& out) {
  const int old_santa = s_.santa_player;
  const int victim = s_.pending_seat;
  s_.santa = s_.pending_floe;
  s_.santa_player = victim;
  s_.penguin[static_cast<std::size_t>(victim)] = edge;
  s_.penguin[static_cast<std::size_t>(old_santa)] = at_hut;
  out.push_back(event::public_event(
      object("at_hut_seat", old_santa, "kind", "roles_swapped", "santa_floe", s_.santa, "santa_seat", victim)));
}

void cp_game::steal(int colour, events& out) {
  const auto c = static_cast<std::size_t>(colour);
  --s_.pool[c];
  ++s_.presents[static_cast<std::size_t>(s_.active)][c];
  out.push_back(
      event::public_event(object("colour", colour_name(colour), "kind", "present_stolen", "seat", s_.active)));
  if (total(s_.pool) == 0) {
    finish("pool_empty", out);  // A37: nothing else of this turn happens
    return;
  }
  if (tree_candidates(s_).empty()) {
    out.push_back(event::public_event(object("floe", s_.tree, "kind", "tree_stays")));
    after_move(out);
    return;
  }
  open(phase::relocate_tree);
}

void cp_game::relocate(int f, events& out) {
  out.push_back(event::public_event(object("from", s_.tree, "kind", "tree_relocated", "to", f)));
  s_.tree = f;
  after_move(out);
}

void cp_game::bear_move(int to, events& out) {
  out.push_back(event::public_event(object("from", s_.bear, "kind", "bear_moved", "seat", s_.active, "to", to)));
  s_.bear = to;
  const int victim = penguin_at(s_, to);
  if (victim >= 0 && !flee_targets(s_, victim).empty()) {
    s_.pending_seat = victim;
    s_.pending_floe = to;
    open(phase::flee);
    return;
  }
  reach(phase::await_post, out);
}

void cp_game::flee(std::optional<int> colour, int to, events& out) {
  const int victim = s_.pending_seat;
  if (colour) {
    const auto c = static_cast<std::size_t>(*colour);
    --s_.presents[static_cast<std::size_t>(victim)][c];
    if (s_.cfg->drop_to_pool)
      ++s_.pool[c];
    else
      ++s_.floes[static_cast<std::size_t>(s_.bear)].loose[c];
    out.push_back(event::public_event(object("colour", colour_name(*colour), "kind", "present_dropped", "seat",
                                             victim, "to", s_.cfg->drop_to_pool ? json("pool") : json(s_.bear))));
  }
  s_.penguin[static_cast<std::size_t>(victim)] = to;
  out.push_back(event::public_event(object("from", s_.bear, "kind", "fled", "seat", victim, "to", to)));
  reach(phase::await_post, out);
}

void cp_game::end_turn(events& out) {
  static const fast_json::shape ended{"kind", "seat"};
  out.push_back(event::public_event(ended("turn_ended", s_.active)));
  ++s_.turns;
  if (s_.turns % s_.cfg->players == 0 && s_.turns / s_.cfg->players >= s_.cfg->max_rounds) {
    finish("round_cap", out);  // C8
    return;
  }
  s_.active = (s_.active + 1) % s_.cfg->players;
  start_turn(out);
}

void cp_game::finish(const char* reason, events& out) {
  s_.ph = phase::over;
  ++s_.serial;
  s_.end_reason = reason;
  s_.claimant = -1;
  s_.stop_queue.clear();
  s_.reaction_seats.clear();
  out.push_back(event::public_event(object("kind", "game_over", "reason", reason, "winners", winners())));
}


}  // namespace tinsel::engine::christmas_penguins::detail
