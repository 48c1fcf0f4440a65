// Christmas Penguins: names, options, setup, view, full state and scoring. The turn machine is in
// cp_rules.cpp, "Stop!"/stones/channels in cp_stones.cpp, geometry and searches in cp_board.cpp.
#include "christmas_penguins/christmas_penguins.hpp"

#include <algorithm>

#include "christmas_penguins/cp_game.hpp"
#include "common/last_decoded.hpp"
#include "tinsel/json_text/sinks.hpp"

namespace tinsel::engine::christmas_penguins {

namespace detail {

namespace {
constexpr std::array<const char*, colour_count> colour_names = {"red", "blue", "green", "yellow", "purple", "orange"};
constexpr std::array<const char*, stone_kinds> stone_names = {"red", "blue", "green"};
constexpr std::array<const char*, 17> phase_names = {
    "place_penguin", "place_tree",    "place_bear",   "place_stone", "roll",      "reaction",
    "move",          "push_chain",    "confiscate",   "steal_colour", "relocate_tree", "pickup_stone",
    "bear_move",     "flee",          "post_move",    "stopped",     "over"};
}  // namespace

const char* colour_name(int colour) { return colour_names.at(static_cast<std::size_t>(colour)); }
std::optional<int> colour_from_name(std::string_view name) {
  for (int c = 0; c < colour_count; ++c)
    if (name == colour_names[static_cast<std::size_t>(c)]) return c;
  return std::nullopt;
}
const char* stone_name(int stone) { return stone_names.at(static_cast<std::size_t>(stone)); }
std::optional<int> stone_from_name(std::string_view name) {
  for (int c = 0; c < stone_kinds; ++c)
    if (name == stone_names[static_cast<std::size_t>(c)]) return c;
  return std::nullopt;
}
const char* phase_name(phase p) { return phase_names.at(static_cast<std::size_t>(p)); }

namespace {

// A colour's count per name, in the order a json object keeps them: the view, the result and the
// events.
template <class Sink>
void emit_counts(Sink& s, const counts& c) {
  s.begin_object();
  s.member("blue", c[1]);
  s.member("green", c[2]);
  s.member("orange", c[5]);
  s.member("purple", c[4]);
  s.member("red", c[0]);
  s.member("yellow", c[3]);
  s.end_object();
}

}  // namespace

json counts_json(const counts& c) {
  return json_text::as_json([&](auto& sink) { emit_counts(sink, c); });
}

int total(const counts& c) {
  int t = 0;
  for (int v : c) t += v;
  return t;
}

// ---- scoring (A38) --------------------------------------------------------------------------

namespace {
int max_colour(const counts& c) { return *std::max_element(c.begin(), c.end()); }
int distinct(const counts& c) { return static_cast<int>(std::count_if(c.begin(), c.end(), [](int v) { return v > 0; })); }
}  // namespace

std::vector<int> cp_game::points() const {
  const int n = s_.cfg->players;
  int top_colour = 0, top_distinct = 0;
  for (int p = 0; p < n; ++p) {
    if (p == s_.santa_player) continue;
    top_colour = std::max(top_colour, max_colour(s_.presents[static_cast<std::size_t>(p)]));
    top_distinct = std::max(top_distinct, distinct(s_.presents[static_cast<std::size_t>(p)]));
  }
  std::vector<int> out;
  for (int p = 0; p < n; ++p) {
    const auto& c = s_.presents[static_cast<std::size_t>(p)];
    int pts = total(c);
    if (p != s_.santa_player) {  // R38: the final Santa gets no bonus and cannot win
      const bool a = top_colour > 0 && max_colour(c) == top_colour;
      const bool b = top_distinct > 0 && distinct(c) == top_distinct;
      pts += s_.cfg->two_awards ? int(a) + int(b) : int(a || b);
    }
    out.push_back(pts);
  }
  return out;
}

std::vector<int> cp_game::winners() const {
  const auto pts = points();
  std::vector<int> top;
  int best = -1;
  for (int p = 0; p < s_.cfg->players; ++p) {
    if (p == s_.santa_player) continue;
    if (pts[static_cast<std::size_t>(p)] > best) top.clear(), best = pts[static_cast<std::size_t>(p)];
    if (pts[static_cast<std::size_t>(p)] == best) top.push_back(p);
  }
  if (top.size() > 1 && s_.cfg->tie_presents) {
    const auto key = [&](int p) {
      const auto& c = s_.presents[static_cast<std::size_t>(p)];
      return std::pair(total(c), distinct(c));
    };
    auto best_key = key(top.front());
    for (int p : top) best_key = std::max(best_key, key(p));
    std::erase_if(top, [&](int p) { return key(p) != best_key; });
  }
  return top;
}

json cp_game::result() const {
  return json_text::as_json([&](auto& sink) { emit_result(sink); });
}

namespace {

template <class Sink, class Container>
void emit_ints(Sink& s, const Container& c) {
  s.begin_array(std::size(c));
  for (const auto v : c) s.value(v);
  s.end_array();
}

}  // namespace

template <class Sink>
void cp_game::emit_result(Sink& s) const {
  if (s_.ph != phase::over) return s.null();
  s.begin_object();
  s.member("final_santa", s_.santa_player);
  s.key("presents");
  s.begin_array(s_.presents.size());
  for (const auto& c : s_.presents) emit_counts(s, c);
  s.end_array();
  s.member("reason", s_.end_reason);
  s.key("scores");
  emit_ints(s, points());
  s.key("winners");
  emit_ints(s, winners());
  s.end_object();
}

// Own points against the best rival's, and being Santa is bad (you cannot win and hold no role in
// stealing); stones held are a small plus. Everything used is public.
double cp_game::heuristic(int seat) const {
  const auto pts = points();
  int rival = 0;
  for (int p = 0; p < s_.cfg->players; ++p)
    if (p != seat && p != s_.santa_player) rival = std::max(rival, pts[static_cast<std::size_t>(p)]);
  const auto& st = s_.stones[static_cast<std::size_t>(seat)];
  double h = 10.0 * (pts[static_cast<std::size_t>(seat)] - rival) + 0.5 * (st[0] + st[1] + st[2]);
  if (seat == s_.santa_player) h -= 25.0;
  return h;
}

// ---- view (1.5: everything is public) -------------------------------------------------------

std::shared_ptr<const json> cp_game::shared_view() const { return std::make_shared<const json>(view({})); }

json cp_game::view(viewer) const {
  return json_text::as_json([&](auto& sink) { emit_view(sink); });
}

bool cp_game::write_shared_view(std::string& out) const {
  json_text::as_text(out, [&](auto& sink) { emit_view(sink); });
  return true;
}

namespace {

// A number, or null for a negative one (no tree, no bear, no claimant yet, no roll).
template <class Sink>
void emit_or_null(Sink& s, int v) {
  if (v >= 0) s.value(v);
  else s.null();
}

// The board: cells[id] = [q, r] (compact on purpose: a view goes out after every command), the
// channels, the loose presents and the stones lying on floes.
template <class Sink>
void emit_cells(Sink& s, const state& st) {
  s.begin_array(st.floes.size());
  for (const auto& fl : st.floes) {
    s.begin_array(2);
    s.value(fl.q);
    s.value(fl.r);
    s.end_array();
  }
  s.end_array();
}

template <class Sink>
void emit_channels(Sink& s, const state& st) {
  s.begin_array(st.channels.size());
  for (const auto& c : st.channels) {
    s.begin_object();
    s.member("a", c.a);
    s.member("b", c.b);
    s.member("owner", c.owner);
    s.end_object();
  }
  s.end_array();
}

template <class Sink>
void emit_loose_presents(Sink& s, const state& st) {
  s.begin_array();
  for (std::size_t f = 0; f < st.floes.size(); ++f) {
    if (total(st.floes[f].loose) == 0) continue;
    s.begin_object();
    s.member("floe", f);
    s.key("presents");
    emit_counts(s, st.floes[f].loose);
    s.end_object();
  }
  s.end_array();
}

template <class Sink>
void emit_stones_on_board(Sink& s, const state& st) {
  s.begin_array();
  for (std::size_t f = 0; f < st.floes.size(); ++f) {
    if (st.floes[f].stone == no_stone) continue;
    s.begin_array(2);
    s.value(f);
    s.value(stone_name(st.floes[f].stone));
    s.end_array();
  }
  s.end_array();
}

// The arrival being resolved while one of its sub-prompts is open; steal_colour and pickup_stone
// concern the mover alone: no other seat (null, not the -1 sentinel).
template <class Sink>
void emit_pending(Sink& s, const state& st) {
  const bool pending = st.ph == phase::push_chain || st.ph == phase::confiscate || st.ph == phase::steal ||
                       st.ph == phase::relocate_tree || st.ph == phase::pickup_stone || st.ph == phase::flee;
  if (!pending) return s.null();
  s.begin_object();
  s.member("floe", st.pending_floe);
  s.key("seat");
  emit_or_null(s, st.pending_seat);
  s.end_object();
}

template <class Sink>
void emit_player(Sink& s, const state& st, int seat, bool can_stop) {
  const auto i = static_cast<std::size_t>(seat);
  s.begin_object();
  s.member("can_stop", can_stop);
  s.member("channels_left", st.channels_left[i]);
  s.member("colour", colour_name(seat));
  s.key("penguin");
  if (st.penguin[i] == edge) s.value("edge");
  else if (st.penguin[i] == at_hut) s.value("at_hut");
  else s.value(st.penguin[i]);
  s.key("presents");
  emit_counts(s, st.presents[i]);
  s.member("role", seat == st.santa_player ? "santa" : "penguin");
  s.member("seat", seat);
  s.key("stones");
  s.begin_object();
  s.member("blue", st.stones[i][1]);
  s.member("green", st.stones[i][2]);
  s.member("red", st.stones[i][0]);
  s.end_object();
  s.end_object();
}

template <class Sink>
void emit_stop(Sink& s, const state& st) {
  s.begin_object();
  s.key("claimant");
  emit_or_null(s, st.claimant);
  s.key("queue");
  emit_ints(s, st.stop_queue);
  s.key("resumes");
  if (st.ph == phase::stopped) s.value(phase_name(st.resume));
  else s.null();
  s.end_object();
}

}  // namespace

template <class Sink>
void cp_game::emit_view(Sink& s) const {
  const int n = s_.cfg->players;
  s.begin_object();
  s.member("active", s_.active);
  s.key("bear");
  emit_or_null(s, s_.bear);
  s.key("cells");
  emit_cells(s, s_);
  s.key("channels");
  emit_channels(s, s_);
  s.member("channels_this_turn", s_.channels_this_turn);
  s.member("game", "christmas_penguins");
  s.member("hut", s_.hut);
  s.key("loose_presents");
  emit_loose_presents(s, s_);
  s.member("max_rounds", s_.cfg->max_rounds);
  s.key("pending");
  emit_pending(s, s_);
  s.member("phase", phase_name(s_.ph));
  s.key("players");
  s.begin_array(static_cast<std::size_t>(n));
  for (int p = 0; p < n; ++p) emit_player(s, s_, p, may_shout(p));
  s.end_array();
  s.key("pool");
  emit_counts(s, s_.pool);
  s.key("prompt");  // current_prompt()->kind, the phase's name; none once the game is over
  if (s_.ph == phase::over) s.null();
  else s.value(phase_name(s_.ph));
  s.member("radius", s_.cfg->radius);
  s.key("reaction_seats");
  emit_ints(s, s_.reaction_seats);
  s.key("roll");
  emit_or_null(s, s_.roll > 0 ? s_.roll : -1);
  s.member("round", s_.turns / n + 1);
  s.member("santa", s_.santa);
  s.member("santa_player", s_.santa_player);
  s.key("santa_supply");
  s.begin_array(s_.supply.size());
  for (int st : s_.supply) s.value(stone_name(st));
  s.end_array();
  s.member("start_seat", s_.start_seat);
  s.key("stones_on_board");
  emit_stones_on_board(s, s_);
  s.key("stop");
  emit_stop(s, s_);
  s.key("tree");
  emit_or_null(s, s_.tree);
  s.end_object();
}

// Flat integer arrays rather than the view's objects: the harness compares full states several
// times per step, and a compact document is what keeps that cheap.
json cp_game::full_state() const {
  std::vector<int> cells, stones_on, loose, chans, presents, stones_held;
  cells.reserve(2 * s_.floes.size());
  stones_on.reserve(s_.floes.size());
  loose.reserve(colour_count * s_.floes.size());
  for (const auto& fl : s_.floes) {
    cells.insert(cells.end(), {fl.q, fl.r});
    stones_on.push_back(fl.stone);
    loose.insert(loose.end(), fl.loose.begin(), fl.loose.end());
  }
  for (const auto& c : s_.channels) chans.insert(chans.end(), {c.a, c.b, c.owner});
  for (const auto& c : s_.presents) presents.insert(presents.end(), c.begin(), c.end());
  for (const auto& c : s_.stones) stones_held.insert(stones_held.end(), c.begin(), c.end());
  const std::array<int, 15> ints = {s_.hut,          s_.tree,          s_.santa,        s_.bear,
                                    s_.santa_player, s_.active,        s_.start_seat,   s_.turns,
                                    s_.roll,         s_.channels_this_turn, s_.pending_floe, s_.pending_seat,
                                    int(s_.santa_moved), s_.claimant,  int(s_.resume)};
  json reclaim = fast_json::array_with_capacity(s_.reclaim_blocked.size());
  for (bool b : s_.reclaim_blocked) fast_json::elements(reclaim).emplace_back(b);
  using fast_json::array_of;
  return fast_json::object(
      "cells", array_of(cells), "channels", array_of(chans), "channels_left", array_of(s_.channels_left),
      "end_reason", s_.end_reason, "game", "christmas_penguins", "ints", array_of(ints), "loose", array_of(loose),
      "options", s_.cfg->options, "penguin", array_of(s_.penguin), "phase", phase_name(s_.ph), "place_order",
      array_of(s_.place_order), "players", s_.cfg->players, "pool", array_of(s_.pool), "presents", array_of(presents),
      "reaction_seats", array_of(s_.reaction_seats), "reclaim_blocked", std::move(reclaim), "serial", s_.serial,
      "stones", array_of(stones_held), "stones_on_board", array_of(stones_on), "stop_queue", array_of(s_.stop_queue),
      "supply", array_of(s_.supply));
}

}  // namespace detail

// ---- options and setup ----------------------------------------------------------------------

namespace {

using detail::config;

std::optional<detail::stone_counts> parse_stones(const json& v) {
  if (!v.is_string()) return std::nullopt;
  const auto s = v.get<std::string>();
  if (s.size() != 5 || s[1] != '/' || s[3] != '/') return std::nullopt;
  detail::stone_counts out{};
  for (std::size_t k = 0; k < 3; ++k) {
    const char c = s[k * 2];
    if (c < '0' || c > '4') return std::nullopt;
    out[k] = c - '0';
  }
  return out;
}

using kind = option_spec::kind;

std::optional<rule_error> min_within_max(const json& so_far) {
  if (so_far["minPlayers"].get<int>() <= so_far["maxPlayers"].get<int>()) return std::nullopt;
  return make_error("invalid_option", "option 'minPlayers' must not exceed 'maxPlayers'");
}

// The options of Christmas Penguins (docs/rules/christmas-penguins.md, "Options").
const option_specs& declared_options() {
  using seat = option_spec::seat_bound;
  static const option_specs specs = {
      {.key = "minPlayers", .fallback = 2, .min = 2, .max = 6, .seats = seat::min_players,
       .about = "The fewest players a game needs"},
      // Not in the rulebook (max 6 is fixed there): how many seats the room offers, as in the other games.
      {.key = "maxPlayers", .fallback = 6, .min = 2, .max = 6, .seats = seat::max_players,
       .about = "Seats the room offers, at least minPlayers", .check = min_within_max},
      start_player_option(
          "Who is the first Santa: chosen at random, or by the host (start_game then needs first_seat)"),
      {.key = "boardRadius", .fallback = "auto", .min = 3, .max = 4, .also = {"auto"},
       .bad_value = "must be \"auto\", 3 or 4",
       .about = "The board's radius: 3 (37 floes) or 4 (61 floes); \"auto\" is 3 for up to 4 players, else 4"},
      {.key = "presentsPerColour", .fallback = 4, .min = 3, .max = 8,
       .about = "Presents of each colour: 2 go to the player of that colour, the rest to the pool"},
      {.key = "poolColours", .type = kind::choice, .fallback = "all6", .choices = {"all6", "seatedOnly"},
       .about = "Which colours the pool holds: every colour, or only the colours of seated players"},
      {.key = "stones", .type = kind::text, .fallback = "2/2/2", .pattern = "^[0-4]/[0-4]/[0-4]$",
       .bad_value = "must be \"red/blue/green\" counts 0..4, e.g. \"2/2/2\"",
       .about = "Event stones on the board at the start, as \"red/blue/green\", each 0–4"},
      {.key = "channelsPerPlayer", .fallback = 3, .min = 0, .max = 6, .about = "Water channels each player holds"},
      {.key = "channelsPerTurn", .fallback = "unlimited", .min = 1, .max = 1, .also = {"unlimited"},
       .bad_value = "must be \"unlimited\" or 1", .about = "Channels a player may place per turn"},
      {.key = "backtrackRule", .type = kind::choice, .fallback = "simplePath",
       .choices = {"simplePath", "noImmediateReverse"},
       .about = "\"simplePath\": no floe twice in a move; \"noImmediateReverse\": only no immediate reversal"},
      {.key = "pushMode", .type = kind::choice, .fallback = "anyAdjacent", .choices = {"anyAdjacent", "freeFirst"},
       .about = "\"freeFirst\": a pushed penguin goes to an occupied floe only if no REFUGE neighbour exists"},
      {.key = "treeMinDistance", .fallback = 3, .min = 1, .max = 6,
       .about = "The least hexDist between Santa and a new tree floe"},
      {.key = "bearMode", .type = kind::choice, .fallback = "additional", .choices = {"additional", "instead"},
       .about = "On a 1 the bear moves after your own move (\"additional\"), or only the bear moves (\"instead\")"},
      {.key = "fleeRange", .type = kind::choice, .fallback = "adjacent", .choices = {"adjacent", "anyRefuge"},
       .about = "Where the bear's victim flees: to an adjacent REFUGE floe, or to any REFUGE floe"},
      {.key = "bearDropTo", .type = kind::choice, .fallback = "floe", .choices = {"floe", "pool"},
       .about = "Where the present dropped to the bear goes: it lies on the floe, or goes into the pool"},
      {.key = "confiscatedTo", .type = kind::choice, .fallback = "pool",
       .choices = {"pool", "santaPlayer", "removed"},
       .about = "Where a confiscated present goes (\"removed\": out of the game)"},
      {.key = "stoneRecycle", .type = kind::choice, .fallback = "santaReplaces",
       .choices = {"santaReplaces", "discard"},
       .about = "A used stone goes to Santa's supply and Santa places it again, or out of the game"},
      {.key = "reactionWindowMs", .fallback = 4000, .min = 0, .max = 60000, .unit = "milliseconds",
       .about = "How long the reaction window after a roll stays open (0: no window)"},
      {.key = "connectivityGuard", .type = kind::boolean, .fallback = true,
       .about = "True: a channel or green-stone move that would split the board is refused"},
      {.key = "maxRounds", .fallback = 20, .min = 1, .max = 500,
       .about = "The game ends at the end of this round (C8; \"An evening's game\" in the rules)"},
      {.key = "bonusMode", .type = kind::choice, .fallback = "either", .choices = {"either", "twoAwards"},
       .about = "\"either\": +1 for the most presents of one colour or the most colours; \"twoAwards\": +1 for "
                "each, at most +2"},
      {.key = "tieBreak", .type = kind::choice, .fallback = "shared", .choices = {"shared", "presentsThenDistinct"},
       .about = "\"shared\": all tied players win; \"presentsThenDistinct\": the most presents, then the most "
                "colours, then shared"},
      {.key = "mainTimeoutSec", .fallback = 60, .min = 1, .max = 3600, .also = {"off"}, .unit = "seconds",
       .about = "Timer of the main prompts (setup placements, roll, move, bear_move, post_move)"},
      {.key = "subPromptTimeoutSec", .fallback = 30, .min = 1, .max = 3600, .also = {"off"}, .unit = "seconds",
       .about = "Timer of the sub-prompts (place_stone, push_chain, confiscate, steal_colour, relocate_tree, "
                "pickup_stone, flee)"},
      {.key = "stopSeconds", .fallback = 20, .min = 1, .max = 600, .also = {"off"}, .unit = "seconds",
       .about = "How long a granted \"Stop!\" lasts before it lapses (D16)"},
  };
  return specs;
}

outcome<config> make_config(const json& options, int players) {
  auto norm = normalize_options(declared_options(), options);
  if (!norm) return norm.error();
  const json& o = norm.value();
  const int min = o["minPlayers"].get<int>(), max = o["maxPlayers"].get<int>();
  if (players < min || players > max)
    return make_error("invalid_player_count", "Christmas Penguins needs " + std::to_string(min) + " to " +
                                                  std::to_string(max) + " players, not " + std::to_string(players));
  config c;
  c.options = o;
  c.players = players;
  c.radius = o["boardRadius"] == "auto" ? (players <= 4 ? 3 : 4) : o["boardRadius"].get<int>();
  c.presents_per_colour = o["presentsPerColour"].get<int>();
  c.pool_seated_only = o["poolColours"] == "seatedOnly";
  c.stones = *parse_stones(o["stones"]);
  c.channels_per_player = o["channelsPerPlayer"].get<int>();
  c.one_channel_per_turn = o["channelsPerTurn"] == 1;
  c.simple_path = o["backtrackRule"] == "simplePath";
  c.free_first = o["pushMode"] == "freeFirst";
  c.tree_min_distance = o["treeMinDistance"].get<int>();
  c.bear_instead = o["bearMode"] == "instead";
  c.flee_any = o["fleeRange"] == "anyRefuge";
  c.drop_to_pool = o["bearDropTo"] == "pool";
  c.confiscated = o["confiscatedTo"] == "pool"          ? detail::confiscate_to::pool
                  : o["confiscatedTo"] == "santaPlayer" ? detail::confiscate_to::santa_player
                                                        : detail::confiscate_to::removed;
  c.recycle = o["stoneRecycle"] == "santaReplaces";
  c.reaction_ms = o["reactionWindowMs"].get<int>();
  c.connectivity_guard = o["connectivityGuard"].get<bool>();
  c.max_rounds = o["maxRounds"].get<int>();
  c.two_awards = o["bonusMode"] == "twoAwards";
  c.tie_presents = o["tieBreak"] == "presentsThenDistinct";
  c.host_picks = o["startPlayer"] == "host-picks";
  c.main_ms = timer_ms(o["mainTimeoutSec"]);
  c.sub_ms = timer_ms(o["subPromptTimeoutSec"]);
  c.stop_ms = timer_ms(o["stopSeconds"]);
  return c;
}

// The last decoding is shared by the games made from it, as the states' copies share it.
outcome<std::shared_ptr<const config>> shared_config(const json& options, int players) {
  return last_decoded<std::shared_ptr<const config>>(
      options, players, [&]() -> outcome<std::shared_ptr<const config>> {
        auto c = make_config(options, players);
        if (!c) return c.error();
        return std::make_shared<const config>(std::move(c.value()));
      });
}

outcome<std::unique_ptr<game>> create(const setup& su, dice& d) {
  auto cfg = shared_config(su.options, su.players);
  if (!cfg) return cfg.error();
  const int n = su.players;
  // C2/A6: the first Santa. No other die is rolled before: the board is laid without dice.
  auto first = first_seat(su, cfg.value()->host_picks, "Santa", d);
  if (!first) return first.error();
  detail::state s;
  s.cfg = std::move(cfg.value());
  const config& c = *s.cfg;
  const int radius = c.radius;
  s.floes.reserve(static_cast<std::size_t>(3 * radius * (radius + 1) + 1));
  for (int r = -radius; r <= radius; ++r)  // A2: ids sorted by r, then q
    for (int q = -radius; q <= radius; ++q)
      if (std::abs(q + r) <= radius) s.floes.push_back({q, r, detail::no_stone, {}});
  detail::rebuild_grid(s);
  const auto un = static_cast<std::size_t>(n);
  // A3: the hut, then each stone on a distinct free floe.
  s.start_seat = first.value();
  s.active = s.start_seat;
  s.santa_player = s.start_seat;
  s.hut = static_cast<int>(d.roll(static_cast<std::uint32_t>(s.floes.size())));
  s.santa = s.hut;
  json stones_ev = json::array();
  for (int k = 0; k < detail::stone_kinds; ++k)
    for (int i = 0; i < c.stones[static_cast<std::size_t>(k)]; ++i) {
      std::vector<int> free;
      for (int f = 0; f < static_cast<int>(s.floes.size()); ++f)
        if (f != s.hut && s.floes[static_cast<std::size_t>(f)].stone == detail::no_stone) free.push_back(f);
      const int f = free[d.roll(static_cast<std::uint32_t>(free.size()))];
      s.floes[static_cast<std::size_t>(f)].stone = k;
    }
  s.penguin.assign(un, detail::edge);
  s.presents.assign(un, detail::counts{});
  s.channels_left.assign(un, c.channels_per_player);
  s.stones.assign(un, detail::stone_counts{});
  s.reclaim_blocked.assign(un, false);
  for (int col = 0; col < detail::colour_count; ++col) {  // A4
    const auto ci = static_cast<std::size_t>(col);
    if (col < n) {
      s.presents[ci][ci] = 2;
      s.pool[ci] = c.presents_per_colour - 2;
    } else {
      s.pool[ci] = c.pool_seated_only ? 0 : c.presents_per_colour;
    }
  }
  for (int k = 1; k < n; ++k) s.place_order.push_back((s.start_seat + k) % n);  // A6
  s.ph = detail::phase::place_penguin;
  return std::unique_ptr<game>(std::make_unique<detail::cp_game>(std::move(s)));
}

}  // namespace

game_info info() {
  game_info g;
  g.id = "christmas_penguins";
  g.title = "Christmas Penguins";
  g.options = declared_options();
  g.create = create;
  return g;
}

}  // namespace tinsel::engine::christmas_penguins
