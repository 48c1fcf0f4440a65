// Happy Holidays: the turn state machine (legal, apply, timeout defaults).
//
// apply validates the whole command before touching anything, so a rejection never changes the
// state or draws from the dice. Every state change goes through the small transition functions
// below, which the timeout defaults (D1–D5) reuse, so a default is exactly the command a player
// could have sent.
#include <algorithm>
#include <climits>

#include "common/fast_json.hpp"
#include "happy_holidays/hh_game.hpp"
#include "tinsel/json_text/sinks.hpp"

namespace tinsel::engine::happy_holidays::detail {

namespace {

using fast_json::object;
using fast_json::shape;

enum class kind { take_reindeer, roll, sleigh_colour, choose_sleigh, wish_colour };

struct command_spec {
  const char* name;
  kind k;
  const char* param;  // the one parameter, or nullptr
  phase needs;
};

constexpr std::array<command_spec, 5> specs = {{
    {"take_reindeer", kind::take_reindeer, "from", phase::start_of_turn},
    {"roll", kind::roll, nullptr, phase::start_of_turn},
    {"sleigh_colour", kind::sleigh_colour, "colour", phase::sleigh_colour},
    {"choose_sleigh", kind::choose_sleigh, "owner", phase::choose_sleigh},
    {"wish_colour", kind::wish_colour, "colour", phase::wish_colour},
}};

struct command {
  const command_spec* spec = nullptr;
  long long seat_arg = -1;     // take_reindeer.from, choose_sleigh.owner
  std::string_view colour_arg;  // sleigh_colour.colour, wish_colour.colour (inside the command JSON)
};

rule_error invalid_command(const std::string& message) { return make_error("invalid_command", message); }

// Shape only: an object with a known "kind", its parameter present with the right JSON type, and
// nothing else (a misspelt field such as "color" must not be silently ignored).
// Reads the command in place: no copy of it or of its strings.
outcome<command> parse(const json& c) {
  if (!c.is_object()) return invalid_command("a command is a JSON object with a \"kind\"");
  const auto& fields = *c.get_ptr<const json::object_t*>();
  const auto k = fields.find(std::string_view("kind"));
  if (k == fields.end() || !k->second.is_string())
    return invalid_command("a command needs a string \"kind\"");
  const auto& kind_name = *k->second.get_ptr<const std::string*>();
  command cmd;
  for (const auto& s : specs)
    if (std::string_view(kind_name) == s.name) cmd.spec = &s;
  if (!cmd.spec) return invalid_command("unknown command kind '" + kind_name + "'");
  const char* param = cmd.spec->param;
  for (const auto& [key, value] : fields)
    if (key != "kind" && !(param && key == param))
      return invalid_command(std::string(cmd.spec->name) + " has no field '" + key + "'");
  if (!param) return cmd;
  const json* found = fast_json::member(c, param);
  if (!found) return invalid_command(std::string(cmd.spec->name) + " needs '" + param + "'");
  const json& v = *found;
  if (std::string_view(param) == "colour") {
    if (!v.is_string()) return invalid_command("'colour' must be a colour name");
    cmd.colour_arg = *v.get_ptr<const std::string*>();
  } else {
    if (!v.is_number_integer()) return invalid_command("'" + std::string(param) + "' must be a seat number");
    // An unsigned value beyond long long is simply out of range.
    cmd.seat_arg =
        v.is_number_unsigned() && v.get<unsigned long long>() > LLONG_MAX ? -1 : v.get<long long>();
  }
  return cmd;
}

int sum(const counts& c) { return c[0] + c[1] + c[2] + c[3]; }

}  // namespace

const char* hh_game::prompt_kind_name() const {
  switch (s_.ph) {
    case phase::start_of_turn:
      if (s_.reindeer[static_cast<std::size_t>(s_.active)]) return "roll";
      return s_.cfg.assisted ? "take_reindeer" : "take_reindeer_or_roll";
    case phase::sleigh_colour:
      return "sleigh_colour";
    case phase::choose_sleigh:
      return "choose_sleigh";
    case phase::wish_colour:
      return "wish_colour";
    case phase::over:
      break;
  }
  return "";
}

json hh_game::legal(int seat) const {
  return json_text::as_json([&](auto& sink) { emit_legal(sink, seat); });
}

bool hh_game::write_legal(int seat, std::string& out) const {
  json_text::as_text(out, [&](auto& sink) { emit_legal(sink, seat); });
  return true;
}

namespace {

// {"colour":C,"kind":K} and {"kind":K}: the entries several prompts share.
template <class Sink>
void emit_colour_entry(Sink& s, int colour, const char* kind_name) {
  s.begin_object();
  s.member("colour", colour_name(colour));
  s.member("kind", kind_name);
  s.end_object();
}

template <class Sink>
void emit_kind_entry(Sink& s, const char* kind_name) {
  s.begin_object();
  s.member("kind", kind_name);
  s.end_object();
}

}  // namespace

template <class Sink>
void hh_game::emit_legal(Sink& s, int seat) const {
  const int n = s_.cfg.players;
  const bool acting = s_.ph != phase::over && seat == s_.active;
  s.begin_array(acting ? static_cast<std::size_t>(std::max(n, colour_count)) : 0);
  if (acting) switch (s_.ph) {
      case phase::start_of_turn:
        if (s_.reindeer[static_cast<std::size_t>(seat)]) {
          emit_kind_entry(s, "roll");
          break;
        }
        // Clockwise from the active player: nearest holder first, as D1 picks.
        for (int k = 1; k < n; ++k) {
          const int p = (seat + k) % n;
          if (!s_.reindeer[static_cast<std::size_t>(p)]) continue;
          s.begin_object();
          s.member("from", p);
          s.member("kind", "take_reindeer");
          s.end_object();
        }
        if (!s_.cfg.assisted) emit_kind_entry(s, "roll");  // the "forgot" move (A8)
        break;
      case phase::sleigh_colour:
        for (int c : face_colours(*s_.last_face)) emit_colour_entry(s, c, "sleigh_colour");
        break;
      case phase::choose_sleigh:
        for (int p = 0; p < n; ++p) {
          s.begin_object();
          s.member("kind", "choose_sleigh");
          s.member("owner", p);
          s.end_object();
        }
        break;
      case phase::wish_colour:
        for (int c = 0; c < colour_count; ++c) emit_colour_entry(s, c, "wish_colour");
        break;
      case phase::over:
        break;
    }
  s.end_array();
}

outcome<events> hh_game::apply(int seat, const json& command_json, dice& d) {
  if (s_.ph == phase::over) return make_error("game_over", "the game is over");
  if (seat != s_.active)
    return make_error("not_your_turn", "it is seat " + std::to_string(s_.active) + "'s turn");
  auto parsed = parse(command_json);
  if (!parsed) return parsed.error();
  const command& cmd = parsed.value();
  if (cmd.spec->needs != s_.ph)
    return make_error("wrong_phase",
                      std::string(cmd.spec->name) + " is not possible now; waiting for " + prompt_kind());

  const int n = s_.cfg.players;
  const auto has_reindeer = [&](long long p) {
    return static_cast<bool>(s_.reindeer[static_cast<std::size_t>(p)]);
  };
  events out;
  out.reserve(4);
  switch (cmd.spec->k) {
    case kind::take_reindeer: {
      if (cmd.seat_arg < 0 || cmd.seat_arg >= n) return make_error("invalid_seat", "'from' is not a seat");
      if (has_reindeer(seat)) return make_error("already_has_reindeer", "you already have a reindeer");
      if (cmd.seat_arg == seat)
        return make_error("cannot_take_from_self", "take a reindeer from another player");
      if (!has_reindeer(cmd.seat_arg)) return make_error("no_reindeer_there", "that player has no reindeer");
      take_reindeer(static_cast<int>(cmd.seat_arg), out);
      break;
    }
    case kind::roll:
      if (!has_reindeer(seat)) {
        if (s_.cfg.assisted) return make_error("must_take_reindeer", "take a reindeer before you roll");
        // R5/A8 strict: the turn is missed and the die is not rolled.
        out.push_back(event::public_event(object("kind", "forgot_reindeer", "seat", seat)));
        end_turn(out);
      } else {
        roll(d, out);
      }
      break;
    case kind::sleigh_colour: {
      const auto c = colour_from_name(cmd.colour_arg);
      if (!c) return make_error("invalid_colour", "'" + std::string(cmd.colour_arg) + "' is not a colour");
      const auto pair = face_colours(*s_.last_face);
      if (*c != pair[0] && *c != pair[1])
        return make_error("colour_not_rolled", "choose one of the rolled colours");
      bank_colour(*c, out);
      break;
    }
    case kind::choose_sleigh:
      if (cmd.seat_arg < 0 || cmd.seat_arg >= n) return make_error("invalid_seat", "'owner' is not a seat");
      reward(static_cast<int>(cmd.seat_arg), out);
      break;
    case kind::wish_colour: {
      const auto c = colour_from_name(cmd.colour_arg);
      if (!c) return make_error("invalid_colour", "'" + std::string(cmd.colour_arg) + "' is not a colour");
      wish(*c, out);
      break;
    }
  }
  return out;
}

events hh_game::on_timeout(std::uint64_t serial, dice& d) {
  events out;
  if (s_.ph == phase::over || serial != s_.serial) return out;
  out.reserve(4);
  const int a = s_.active;
  const int n = s_.cfg.players;
  const auto sleigh_gifts = [&](int p) {
    return sum(s_.sleighs[static_cast<std::size_t>(s_.sleigh_of[static_cast<std::size_t>(p)])]);
  };
  // No event of its own: the room announces the timeout ({"kind":"timed_out",...}, docs/protocol.md)
  // before these events.
  switch (s_.ph) {
    case phase::start_of_turn:
      // D1 then D2; a timeout is never "forgetting".
      if (!s_.reindeer[static_cast<std::size_t>(a)])
        for (int k = 1; k < n; ++k)
          if (s_.reindeer[static_cast<std::size_t>((a + k) % n)]) {
            take_reindeer((a + k) % n, out);
            break;
          }
      roll(d, out);
      break;
    case phase::sleigh_colour: {  // D3
      const auto pair = face_colours(*s_.last_face);
      const auto& own = s_.sleighs[static_cast<std::size_t>(s_.sleigh_of[static_cast<std::size_t>(a)])];
      bank_colour(
          own[static_cast<std::size_t>(pair[1])] > own[static_cast<std::size_t>(pair[0])] ? pair[1] : pair[0],
          out);
      break;
    }
    case phase::choose_sleigh: {  // D4: most gifts; ties to own sleigh, then clockwise
      int best = a;
      for (int k = 1; k < n; ++k)
        if (sleigh_gifts((a + k) % n) > sleigh_gifts(best)) best = (a + k) % n;
      reward(best, out);
      break;
    }
    case phase::wish_colour: {  // D5: held by the most other players; ties to the lowest colour
      int best = 0, best_holders = -1;
      for (int c = 0; c < colour_count; ++c) {
        int holders = 0;
        for (int p = 0; p < n; ++p)
          if (p != a && s_.stacks[static_cast<std::size_t>(p)][static_cast<std::size_t>(c)] > 0) ++holders;
        if (holders > best_holders) best = c, best_holders = holders;
      }
      wish(best, out);
      break;
    }
    case phase::over:
      break;
  }
  return out;
}

// ---- transitions ------------------------------------------------------------------------

void hh_game::take_reindeer(int from, events& out) {
  s_.reindeer[static_cast<std::size_t>(from)] = false;
  s_.reindeer[static_cast<std::size_t>(s_.active)] = true;
  static const shape took{"from", "kind", "seat"};
  out.push_back(event::public_event(took(from, "took_reindeer", s_.active)));
  open_prompt();  // the prompt is now "roll"
}

void hh_game::roll(dice& d, events& out) {
  const int a = s_.active;
  const auto ua = static_cast<std::size_t>(a);
  for (;;) {
    const int face = static_cast<int>(d.roll(face_count));
    s_.last_face = face;
    s_.last_roll_seat = a;
    static const shape rolled_pair{"colours", "face", "kind", "seat"}, rolled{"face", "kind", "seat"};
    if (is_pair_face(face)) {
      const auto pair = face_colours(face);
      out.push_back(event::public_event(rolled_pair(fast_json::array(colour_name(pair[0]), colour_name(pair[1])),
                                                    face_name(face), "rolled", a)));
    } else {
      out.push_back(event::public_event(rolled(face_name(face), "rolled", a)));
    }

    if (is_pair_face(face)) {  // R7 / A9
      auto& sleigh = s_.sleighs[static_cast<std::size_t>(s_.sleigh_of[ua])];
      json moved = fast_json::array_with_capacity(2);
      for (int c : face_colours(face)) {
        const auto uc = static_cast<std::size_t>(c);
        if (s_.tree[uc] == 0) continue;
        --s_.tree[uc];
        ++sleigh[uc];
        fast_json::elements(moved).emplace_back(colour_name(c));
      }
      if (moved.empty()) {
        if (may_reroll("no_gifts_of_rolled_colours", out)) continue;
        return;
      }
      static const shape to_sleigh{"colours", "kind", "seat"};
      out.push_back(event::public_event(to_sleigh(std::move(moved), "gifts_to_sleigh", a)));
      const auto left = std::count_if(s_.tree.begin(), s_.tree.end(), [](int g) { return g > 0; });
      if (s_.cfg.end_immediate && left <= 1) {
        finish("tree", out);  // A14 immediate: step 2 is skipped
        return;
      }
      s_.ph = phase::sleigh_colour;
    } else if (face == reward_face) {  // R8 / A11
      const bool all_empty =
          std::all_of(s_.sleighs.begin(), s_.sleighs.end(), [](const counts& c) { return sum(c) == 0; });
      if (s_.cfg.reroll_empty_reward && all_empty) {
        if (may_reroll("all_sleighs_empty", out)) continue;
        return;
      }
      s_.ph = phase::choose_sleigh;
    } else {  // R9 / A12: judged before the colour is chosen
      bool others_have = false;
      for (std::size_t p = 0; p < s_.stacks.size(); ++p)
        if (p != ua && sum(s_.stacks[p]) > 0) others_have = true;
      if (!others_have) {
        if (may_reroll("nobody_has_gifts", out)) continue;
        return;
      }
      s_.ph = phase::wish_colour;
    }
    open_prompt();
    return;
  }
}

// A13: a reroll stays in the turn; after reroll_cap of them in a row the turn ends instead.
bool hh_game::may_reroll(const char* reason, events& out) {
  if (s_.rerolls >= reroll_cap) {
    out.push_back(event::public_event(object("kind", "reroll_cap", "rerolls", s_.rerolls, "seat", s_.active)));
    end_turn(out);
    return false;
  }
  ++s_.rerolls;
  out.push_back(event::public_event(
      object("kind", "roll_again", "reason", reason, "reroll", s_.rerolls, "seat", s_.active)));
  return true;
}

void hh_game::bank_colour(int colour, events& out) {  // R7 step 2 / A10
  const auto ua = static_cast<std::size_t>(s_.active);
  const auto uc = static_cast<std::size_t>(colour);
  auto& sleigh = s_.sleighs[static_cast<std::size_t>(s_.sleigh_of[ua])];
  counts moved{};
  moved[uc] = sleigh[uc];
  s_.stacks[ua][uc] += sleigh[uc];
  sleigh[uc] = 0;
  static const shape banked{"colour", "count", "gifts", "kind", "seat", "sleigh_owner"};
  out.push_back(event::public_event(
      banked(colour_name(colour), moved[uc], counts_json(moved), "banked", s_.active, s_.active)));
  end_turn(out);
}

void hh_game::reward(int owner, events& out) {  // R8 / A11
  const int a = s_.active;
  const auto ua = static_cast<std::size_t>(a);
  const auto uo = static_cast<std::size_t>(owner);
  auto& chosen = s_.sleighs[static_cast<std::size_t>(s_.sleigh_of[uo])];
  const counts moved = chosen;
  for (int c = 0; c < colour_count; ++c)
    s_.stacks[ua][static_cast<std::size_t>(c)] += moved[static_cast<std::size_t>(c)];
  chosen = counts{};
  static const shape banked{"count", "gifts", "kind", "seat", "sleigh_owner"};
  static const shape swapped{"gifts_given", "kind", "seat", "with"};
  out.push_back(event::public_event(banked(sum(moved), counts_json(moved), "banked", a, owner)));
  if (owner != a) {
    std::swap(s_.sleigh_of[ua], s_.sleigh_of[uo]);
    out.push_back(event::public_event(
        swapped(counts_json(s_.sleighs[static_cast<std::size_t>(s_.sleigh_of[uo])]), "sleigh_swapped", a, owner)));
  }
  end_turn(out);
}

void hh_game::wish(int colour, events& out) {  // R9 / A12: each other holder gives exactly one
  const int a = s_.active;
  const int n = s_.cfg.players;
  const auto uc = static_cast<std::size_t>(colour);
  json from = fast_json::array_with_capacity(static_cast<std::size_t>(n));
  for (int k = 1; k < n; ++k) {
    auto& giver = s_.stacks[static_cast<std::size_t>((a + k) % n)];
    if (giver[uc] == 0) continue;
    --giver[uc];
    ++s_.stacks[static_cast<std::size_t>(a)][uc];
    fast_json::elements(from).emplace_back((a + k) % n);
  }
  const auto count = from.size();
  static const shape given{"colour", "count", "from", "kind", "seat"};
  out.push_back(event::public_event(given(colour_name(colour), count, std::move(from), "wish_given", a)));
  end_turn(out);
}

void hh_game::end_turn(events& out) {
  const auto left = std::count_if(s_.tree.begin(), s_.tree.end(), [](int g) { return g > 0; });
  if (left <= 1) return finish("tree", out);  // R12 / A14: at most one colour left
  if (s_.turn >= max_rounds * s_.cfg.players) return finish("round_cap", out);  // C8
  s_.active = (s_.active + 1) % s_.cfg.players;
  ++s_.turn;
  s_.rerolls = 0;
  s_.ph = phase::start_of_turn;
  open_prompt();
  static const shape started{"has_reindeer", "kind", "round", "seat", "turn"};
  out.push_back(event::public_event(started(static_cast<bool>(s_.reindeer[static_cast<std::size_t>(s_.active)]),
                                            "turn_started", (s_.turn - 1) / s_.cfg.players + 1, s_.active,
                                            s_.turn)));
}

void hh_game::finish(const char* reason, events& out) {
  s_.ph = phase::over;
  s_.end_reason = reason;
  out.push_back(event::public_event(object("kind", "game_over", "reason", reason, "winners", winners())));
}

}  // namespace tinsel::engine::happy_holidays::detail
