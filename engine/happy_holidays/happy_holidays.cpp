// Happy Holidays: options, setup, serialization, view and scoring. The turn machine is in
// hh_rules.cpp.
#include "happy_holidays/happy_holidays.hpp"

#include <algorithm>
#include <exception>
#include <functional>

#include "common/fast_json.hpp"
#include "common/last_decoded.hpp"
#include "happy_holidays/hh_game.hpp"
#include "tinsel/json_text/sinks.hpp"

namespace tinsel::engine::happy_holidays {

namespace detail {

namespace {
constexpr std::array<const char*, colour_count> colour_names = {"red", "green", "blue", "yellow"};
constexpr std::array<const char*, face_count> face_names = {
    "red_green", "green_blue", "blue_yellow", "yellow_red", "reindeer_reward", "christmas_wish"};
constexpr std::array<const char*, 5> phase_names = {"start_of_turn", "sleigh_colour", "choose_sleigh",
                                                    "wish_colour", "over"};
}  // namespace

const char* colour_name(int colour) { return colour_names.at(static_cast<std::size_t>(colour)); }

std::optional<int> colour_from_name(std::string_view name) {
  for (int c = 0; c < colour_count; ++c)
    if (name == colour_names[static_cast<std::size_t>(c)]) return c;
  return std::nullopt;
}

const char* face_name(int face) { return face_names.at(static_cast<std::size_t>(face)); }
bool is_pair_face(int face) { return face >= 0 && face < reward_face; }
std::array<int, 2> face_colours(int face) { return {face, (face + 1) % colour_count}; }

namespace {

// A colour's count per name, in the order a json object keeps them: the views, the result and the
// events.
template <class Sink>
void emit_counts(Sink& s, const counts& c) {
  s.begin_object();
  s.member("blue", c[2]);
  s.member("green", c[1]);
  s.member("red", c[0]);
  s.member("yellow", c[3]);
  s.end_object();
}

// An array of n elements, each written by each(i).
template <class Sink, class Each>
void emit_per_seat(Sink& s, int n, Each&& each) {
  s.begin_array(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) each(i);
  s.end_array();
}

}  // namespace

json counts_json(const counts& c) {
  return json_text::as_json([&](auto& sink) { emit_counts(sink, c); });
}

const char* phase_name(phase p) { return phase_names.at(static_cast<std::size_t>(p)); }

std::optional<phase> phase_from_name(std::string_view name) {
  for (std::size_t i = 0; i < phase_names.size(); ++i)
    if (name == phase_names[i]) return static_cast<phase>(i);
  return std::nullopt;
}

// ---- scoring (A15, A16) -------------------------------------------------------------------

int hh_game::score(int seat) const {
  counts c = s_.stacks[static_cast<std::size_t>(seat)];
  std::sort(c.begin(), c.end(), std::greater<>());
  return c[0] + c[1];
}

int hh_game::total(int seat) const {
  const auto& c = s_.stacks[static_cast<std::size_t>(seat)];
  return c[0] + c[1] + c[2] + c[3];
}

// The bot's view of a position: its own score above all, then gifts that may still count (banked
// ones, then ones waiting on its sleigh), minus the strongest rival's score, so that taking from a
// leader (a sleigh swap, a wish) looks as good as it is. Holding a reindeer is worth a gift: without
// it a turn is missed, and a bot that weighed only the roll after taking one (one step deep, on one
// simulated die) now and then chose to sit out instead (a newcomer trial saw it and found it odd).
double hh_game::heuristic(int seat) const {
  const auto me = static_cast<std::size_t>(seat);
  int rival = 0;
  for (int p = 0; p < s_.cfg.players; ++p)
    if (p != seat) rival = std::max(rival, score(p));
  const auto& sleigh = s_.sleighs[static_cast<std::size_t>(s_.sleigh_of[me])];
  const int on_sleigh = sleigh[0] + sleigh[1] + sleigh[2] + sleigh[3];
  const double reindeer = s_.reindeer[me] ? 1.0 : 0.0;
  return 10.0 * score(seat) + total(seat) + 0.5 * on_sleigh + reindeer - 4.0 * rival;
}

std::vector<int> hh_game::winners() const {
  const int n = s_.cfg.players;
  int best = -1;
  for (int p = 0; p < n; ++p) best = std::max(best, score(p));
  std::vector<int> top;
  for (int p = 0; p < n; ++p)
    if (score(p) == best) top.push_back(p);
  if (top.size() > 1 && s_.cfg.tie_total_gifts) {
    int most = -1;
    for (int p : top) most = std::max(most, total(p));
    std::erase_if(top, [&](int p) { return total(p) != most; });
  }
  return top;
}

json hh_game::result() const {
  return json_text::as_json([&](auto& sink) { emit_result(sink); });
}

template <class Sink>
void hh_game::emit_result(Sink& s) const {
  if (s_.ph != phase::over) return s.null();
  const int n = s_.cfg.players;
  int best = -1, top_scorers = 0;
  for (int p = 0; p < n; ++p) best = std::max(best, score(p));
  for (int p = 0; p < n; ++p)
    if (score(p) == best) ++top_scorers;
  const auto win = winners();
  s.begin_object();
  s.member("decided_by", top_scorers == 1 ? "score" : win.size() == 1 ? "total_gifts" : "shared");
  s.member("reason", s_.end_reason);
  s.key("scores");
  emit_per_seat(s, n, [&](int p) { s.value(score(p)); });
  s.key("stacks");
  emit_per_seat(s, n, [&](int p) { emit_counts(s, s_.stacks[static_cast<std::size_t>(p)]); });
  s.member("tie_break", s_.cfg.tie_total_gifts ? "totalGifts" : "shared");
  s.key("total_gifts");
  emit_per_seat(s, n, [&](int p) { s.value(total(p)); });
  s.key("winners");
  emit_per_seat(s, static_cast<int>(win.size()), [&](int i) { s.value(win[static_cast<std::size_t>(i)]); });
  s.end_object();
}

// ---- view and full state ------------------------------------------------------------------

std::optional<prompt> hh_game::current_prompt() const {
  if (s_.ph == phase::over) return std::nullopt;
  // D1/D2 run on the main timer; the choices after a roll (D3–D5) on the sub-prompt timer.
  const bool turn_start = s_.ph == phase::start_of_turn;
  return prompt{
      prompt_kind(), {s_.active}, turn_start ? s_.cfg.main_timeout_ms : s_.cfg.sub_timeout_ms, s_.serial};
}

// Rulebook 3.4: nothing is hidden, so every viewer (seat or spectator) gets the same object.
json hh_game::view(viewer) const {
  return json_text::as_json([&](auto& sink) { emit_view(sink); });
}

std::shared_ptr<const json> hh_game::shared_view() const { return std::make_shared<const json>(view({})); }

bool hh_game::write_shared_view(std::string& out) const {
  json_text::as_text(out, [&](auto& sink) { emit_view(sink); });
  return true;
}

template <class Sink>
void hh_game::emit_view(Sink& s) const {
  const int n = s_.cfg.players;
  s.begin_object();
  s.member("active", s_.active);
  s.member("game", "happy_holidays");
  s.key("last_roll");
  if (s_.last_face) {
    s.begin_object();
    s.member("face", face_name(*s_.last_face));
    s.member("seat", s_.last_roll_seat);
    s.end_object();
  } else {
    s.null();
  }
  s.member("max_rounds", max_rounds);
  s.member("phase", phase_name(s_.ph));
  s.key("players");
  emit_per_seat(s, n, [&](int p) {
    const auto i = static_cast<std::size_t>(p);
    const int id = s_.sleigh_of[i];
    s.begin_object();
    s.member("reindeer", static_cast<bool>(s_.reindeer[i]));
    s.member("score", score(p));
    s.member("seat", p);
    s.key("sleigh");
    s.begin_object();
    s.key("gifts");
    emit_counts(s, s_.sleighs[static_cast<std::size_t>(id)]);
    s.member("id", id);
    s.end_object();
    s.key("stacks");
    emit_counts(s, s_.stacks[i]);
    s.member("total_gifts", total(p));
    s.end_object();
  });
  s.key("prompt");
  if (s_.ph == phase::over) s.null();
  else s.value(prompt_kind_name());
  s.member("rerolls", s_.rerolls);
  s.key("rolled_colours");
  s.begin_array(2);
  if (s_.ph == phase::sleigh_colour)
    for (int c : face_colours(*s_.last_face)) s.value(colour_name(c));
  s.end_array();
  s.member("round", (s_.turn - 1) / n + 1);
  s.member("start_seat", s_.start_seat);
  s.key("tree");
  emit_counts(s, s_.tree);
  s.member("turn", s_.turn);
  s.end_object();
}

json hh_game::full_state() const {
  json sleighs = fast_json::array_with_capacity(s_.sleighs.size());
  json stacks = fast_json::array_with_capacity(s_.stacks.size());
  json reindeer = fast_json::array_with_capacity(s_.reindeer.size());
  for (const auto& c : s_.sleighs) fast_json::elements(sleighs).push_back(fast_json::array_of(c));
  for (const auto& c : s_.stacks) fast_json::elements(stacks).push_back(fast_json::array_of(c));
  for (bool r : s_.reindeer) fast_json::elements(reindeer).emplace_back(r);
  return fast_json::object(
      "active", s_.active, "end_reason", s_.end_reason, "game", "happy_holidays", "last_face",
      s_.last_face ? json(*s_.last_face) : json(nullptr), "last_roll_seat", s_.last_roll_seat, "options",
      *s_.cfg.options, "phase", phase_name(s_.ph), "players", s_.cfg.players, "reindeer", std::move(reindeer),
      "rerolls", s_.rerolls, "serial", s_.serial, "sleigh_of", fast_json::array_of(s_.sleigh_of), "sleighs",
      std::move(sleighs), "stacks", std::move(stacks), "start_seat", s_.start_seat, "tree",
      fast_json::array_of(s_.tree), "turn", s_.turn);
}

}  // namespace detail

// ---- options ------------------------------------------------------------------------------

namespace {

using detail::config;

using kind = option_spec::kind;

// The start player lacks one, so k reindeer need k + 1 players (A6).
std::optional<rule_error> reindeer_fit(const json& so_far) {
  const auto& k = so_far["reindeerCount"];
  const int max_players = so_far["maxPlayers"].get<int>();
  if (!k.is_number_integer() || k.get<int>() <= max_players - 1) return std::nullopt;
  return make_error("invalid_option", "option 'reindeerCount' " + std::to_string(k.get<int>()) + " needs at least " +
                                          std::to_string(k.get<int>() + 1) + " players, but maxPlayers is " +
                                          std::to_string(max_players));
}

// The options of Happy Holidays (docs/rules/happy-holidays.md, "Options").
const option_specs& declared_options() {
  static const option_specs specs = {
      {.key = "maxPlayers", .fallback = 4, .min = 2, .max = 6, .seats = option_spec::seat_bound::max_players,
       .about = "Seats the room offers; the game needs at least 2 players"},
      start_player_option("Who begins: chosen at random, or by the host (start_game then needs first_seat)"),
      {.key = "giftsPerColour", .fallback = 8, .min = 5, .max = 15,
       .about = "Gifts of each colour around the tree at the start"},
      {.key = "reindeerCount", .fallback = "auto", .min = 1, .max = 5, .also = {"auto"},
       .about = "Reindeer in the game: \"auto\" is players − 1; at most maxPlayers − 1 and, at the start, at "
                "most players − 1",
       .check = reindeer_fit},
      {.key = "reindeerMode", .type = kind::choice, .fallback = "strict", .choices = {"strict", "assisted"},
       .about = "\"strict\": rolling without a reindeer misses the turn; \"assisted\": such a roll is refused "
                "with must_take_reindeer"},
      {.key = "rerollEmptyReward", .type = kind::boolean, .fallback = false,
       .about = "True: a Reindeer reward with every sleigh empty rolls again (false: it banks nothing)"},
      {.key = "endCheck", .type = kind::choice, .fallback = "endOfTurn", .choices = {"endOfTurn", "immediate"},
       .about = "When the end (at most one colour left at the tree) is checked: at the end of the turn (the "
                "player still banks) or right after the gifts move"},
      {.key = "tieBreak", .type = kind::choice, .fallback = "shared", .choices = {"shared", "totalGifts"},
       .about = "\"shared\": all tied players win; \"totalGifts\": the most banked gifts of all colours wins "
                "among the tied"},
      {.key = "mainTimeoutSec", .fallback = 60, .min = 1, .max = 3600, .also = {"off"}, .unit = "seconds",
       .about = "Timer of the start-of-turn prompts (D1, D2)"},
      {.key = "subPromptTimeoutSec", .fallback = 30, .min = 1, .max = 3600, .also = {"off"}, .unit = "seconds",
       .about = "Timer of the sleigh_colour, choose_sleigh and wish_colour prompts (D3–D5)"},
  };
  return specs;
}

// Decodes normalized options for `players` seated players; rejects a reindeer count that cannot be
// dealt.
outcome<config> decode_config(const json& options, int players);

outcome<config> make_config(const json& options, int players) {
  return last_decoded<config>(options, players, [&] { return decode_config(options, players); });
}

outcome<config> decode_config(const json& options, int players) {
  auto norm = normalize_options(declared_options(), options);
  if (!norm) return norm.error();
  const json& o = norm.value();
  if (players < 2 || players > o["maxPlayers"].get<int>())
    return make_error("invalid_player_count", "Happy Holidays needs 2 to " +
                                                  std::to_string(o["maxPlayers"].get<int>()) +
                                                  " players, not " + std::to_string(players));
  config c;
  c.options = std::make_shared<const json>(o);
  c.players = players;
  c.gifts_per_colour = o["giftsPerColour"].get<int>();
  c.reindeer = o["reindeerCount"] == "auto" ? players - 1 : o["reindeerCount"].get<int>();
  if (c.reindeer > players - 1)
    return make_error("invalid_option", "option 'reindeerCount' " + std::to_string(c.reindeer) +
                                            " needs at least " + std::to_string(c.reindeer + 1) +
                                            " players, but only " + std::to_string(players) + " are seated");
  c.host_picks = o["startPlayer"] == "host-picks";
  c.assisted = o["reindeerMode"] == "assisted";
  c.reroll_empty_reward = o["rerollEmptyReward"].get<bool>();
  c.end_immediate = o["endCheck"] == "immediate";
  c.tie_total_gifts = o["tieBreak"] == "totalGifts";
  c.main_timeout_ms = timer_ms(o["mainTimeoutSec"]);
  c.sub_timeout_ms = timer_ms(o["subPromptTimeoutSec"]);
  return c;
}

outcome<std::unique_ptr<game>> create(const setup& su, dice& d) {
  auto cfg = make_config(su.options, su.players);
  if (!cfg) return cfg.error();
  const int n = su.players;
  // Everything is validated before the dice move, so a rejected create leaves them untouched.
  auto first = first_seat(su, cfg.value().host_picks, "seat", d);
  if (!first) return first.error();
  detail::state s;
  s.cfg = std::move(cfg.value());
  s.start_seat = first.value();
  s.active = s.start_seat;
  s.tree.fill(s.cfg.gifts_per_colour);
  const auto un = static_cast<std::size_t>(n);
  s.sleighs.assign(un, detail::counts{});
  s.stacks.assign(un, detail::counts{});
  s.reindeer.assign(un, false);
  for (int p = 0; p < n; ++p) s.sleigh_of.push_back(p);
  // A6: the start player lacks one. With fewer than N−1 (a gap in the rulebook) they go to the
  // players who move next, so the shortage reaches the table as late as possible.
  for (int k = 1; k <= s.cfg.reindeer; ++k)
    s.reindeer[static_cast<std::size_t>((s.start_seat + k) % n)] = true;
  return std::unique_ptr<game>(std::make_unique<detail::hh_game>(std::move(s)));
}

bool valid_counts(const detail::counts& c) {
  return std::all_of(c.begin(), c.end(), [](int v) { return v >= 0; });
}

outcome<std::unique_ptr<game>> restore_impl(const json& j) {
  const auto bad = [](const std::string& what) { return make_error("invalid_state", what); };
  if (!j.is_object() || j.value("game", "") != "happy_holidays") return bad("not a Happy Holidays state");
  auto cfg = make_config(j.at("options"), j.at("players").get<int>());
  if (!cfg) return bad(cfg.error().message);
  detail::state s;
  s.cfg = std::move(cfg.value());
  const int n = s.cfg.players;
  const auto un = static_cast<std::size_t>(n);
  const auto ph = detail::phase_from_name(j.at("phase").get<std::string>());
  if (!ph) return bad("unknown phase");
  s.ph = *ph;
  s.start_seat = j.at("start_seat").get<int>();
  s.active = j.at("active").get<int>();
  s.turn = j.at("turn").get<int>();
  s.rerolls = j.at("rerolls").get<int>();
  s.tree = j.at("tree").get<detail::counts>();
  s.sleigh_of = j.at("sleigh_of").get<std::vector<int>>();
  s.sleighs = j.at("sleighs").get<std::vector<detail::counts>>();
  s.stacks = j.at("stacks").get<std::vector<detail::counts>>();
  s.reindeer = j.at("reindeer").get<std::vector<bool>>();
  if (!j.at("last_face").is_null()) s.last_face = j.at("last_face").get<int>();
  s.last_roll_seat = j.at("last_roll_seat").get<int>();
  s.serial = j.at("serial").get<std::uint64_t>();
  s.end_reason = j.at("end_reason").get<std::string>();

  const auto seat_ok = [&](int p) { return p >= 0 && p < n; };
  if (!seat_ok(s.start_seat) || !seat_ok(s.active) || s.turn < 1 || s.rerolls < 0)
    return bad("seat or counter out of range");
  if (s.sleigh_of.size() != un || s.sleighs.size() != un || s.stacks.size() != un || s.reindeer.size() != un)
    return bad("per-seat arrays must have one entry per player");
  auto ids = s.sleigh_of;
  std::sort(ids.begin(), ids.end());
  for (int p = 0; p < n; ++p)
    if (ids[static_cast<std::size_t>(p)] != p) return bad("sleigh_of must be a permutation of the seats");
  if (!valid_counts(s.tree) || !std::all_of(s.sleighs.begin(), s.sleighs.end(), valid_counts) ||
      !std::all_of(s.stacks.begin(), s.stacks.end(), valid_counts))
    return bad("gift counts must not be negative");
  if (s.last_face && (*s.last_face < 0 || *s.last_face >= detail::face_count)) return bad("bad face");
  const bool needs_pair = s.ph == detail::phase::sleigh_colour;
  if (needs_pair && !(s.last_face && detail::is_pair_face(*s.last_face)))
    return bad("the sleigh_colour phase needs a colour-pair last_face");
  if (s.ph == detail::phase::start_of_turn &&
      std::none_of(s.reindeer.begin(), s.reindeer.end(), [](bool r) { return r; }))
    return bad("somebody must hold a reindeer");
  return std::unique_ptr<game>(std::make_unique<detail::hh_game>(std::move(s)));
}

}  // namespace

game_info info() {
  game_info g;
  g.id = "happy_holidays";
  g.title = "Happy Holidays";
  g.options = declared_options();
  g.create = create;
  return g;
}

outcome<std::unique_ptr<game>> restore(const json& full_state) { return guarded_restore(restore_impl, full_state); }

}  // namespace tinsel::engine::happy_holidays
