// Christmas Penguins "Stop!" protocol (A23), the event stones (A21, A22, A24, A25) and water
// channels (A35, A36).
//
// Stop! in short: a claim from a seat holding a usable stone is granted at once at a stable point
// (roll, reaction, move, bear_move, post_move) and queued during sub-prompts and setup; the queue
// is granted first come first served when the next stable point is reached. While stopped only the
// claimant acts (use_stone or cancel_stop); other claims are refused with stop_already_claimed.
#include <bit>
#include <algorithm>
#include <cstdlib>

#include "christmas_penguins/cp_game.hpp"

namespace tinsel::engine::christmas_penguins::detail {

using fast_json::object;

namespace {
std::optional<int> int_field(const json& cmd, const char* key) {
  if (!cmd.contains(key) || !cmd[key].is_number_integer()) return std::nullopt;
  const auto v = cmd[key].get<long long>();
  if (v < -1000000 || v > 1000000) return std::nullopt;
  return static_cast<int>(v);
}

int ring(int q, int r) { return (std::abs(q) + std::abs(r) + std::abs(q + r)) / 2; }
std::uint64_t bit(int f) { return std::uint64_t{1} << f; }

constexpr std::array<std::array<int, 2>, 6> directions = {
    {{{1, 0}}, {{1, -1}}, {{0, -1}}, {{-1, 0}}, {{-1, 1}}, {{0, 1}}}};
}  // namespace

bool is_stable(phase p) {
  return p == phase::await_roll || p == phase::reaction || p == phase::await_move || p == phase::await_bear ||
         p == phase::await_post;
}

// A25: Santa cannot use stones; red and blue need the own penguin on the board, red also another
// penguin there.
bool cp_game::usable_stone(int seat, int stone) const {
  const auto i = static_cast<std::size_t>(seat);
  if (seat == s_.santa_player || s_.stones[i][static_cast<std::size_t>(stone)] == 0) return false;
  if (stone == 2) return true;
  if (s_.penguin[i] < 0) return false;
  if (stone == 1) return true;
  for (std::size_t p = 0; p < s_.penguin.size(); ++p)
    if (p != i && s_.penguin[p] >= 0) return true;
  return false;
}

bool cp_game::may_shout(int seat) const {
  if (s_.ph == phase::over || s_.ph == phase::stopped || s_.reclaim_blocked[static_cast<std::size_t>(seat)]) return false;
  if (std::find(s_.stop_queue.begin(), s_.stop_queue.end(), seat) != s_.stop_queue.end()) return false;
  return usable(seat);
}

bool cp_game::usable(int seat) const {
  for (int k = 0; k < stone_kinds; ++k)
    if (usable_stone(seat, k)) return true;
  return false;
}

cp_game::result_t cp_game::claim_stop(int seat, events& out) {
  if (s_.ph == phase::stopped)
    return make_error("stop_already_claimed", seat == s_.claimant
                                                  ? std::string("you already hold the stop")
                                                  : "seat " + std::to_string(s_.claimant) + " has already stopped the game");
  if (std::find(s_.stop_queue.begin(), s_.stop_queue.end(), seat) != s_.stop_queue.end())
    return make_error("stop_already_queued", "your stop is already queued");
  if (!usable(seat)) return make_error("no_usable_stone", "you hold no stone you could use now");
  if (s_.reclaim_blocked[static_cast<std::size_t>(seat)])
    return make_error("stop_reclaim_blocked", "your last stop ended without a stone; wait until play moves on");
  if (is_stable(s_.ph)) {
    s_.claimant = seat;
    s_.resume = s_.ph;
    out.push_back(event::public_event(object("kind", "stop_claimed", "resumes", phase_name(s_.ph), "seat", seat)));
    open(phase::stopped);
    return std::nullopt;
  }
  s_.stop_queue.push_back(seat);
  out.push_back(event::public_event(object("kind", "stop_queued", "position", s_.stop_queue.size(), "seat", seat,
                                           "waiting_for", phase_name(s_.ph))));
  return std::nullopt;
}

void cp_game::end_stop(const char* why, events& out) {
  if (std::string_view(why) != "used") s_.reclaim_blocked[static_cast<std::size_t>(s_.claimant)] = true;
  out.push_back(event::public_event(object("kind", "stop_ended", "reason", why, "seat", s_.claimant)));
  s_.claimant = -1;
  // A23.3: play resumes where it stopped; reach() recomputes what depends on the position (the
  // destinations for the die already rolled, the bear's steps, the reaction window).
  reach(s_.resume, out);
}

cp_game::result_t cp_game::green_error(int seat, int f, int q, int r) const {
  (void)seat;
  const auto bad = [](const char* what) { return make_error("illegal_target", what); };
  if (f < 0 || f >= static_cast<int>(s_.floes.size())) return bad("no such floe");
  if (std::abs(q) > grid_offset - 1 || std::abs(r) > grid_offset - 1 || ring(q, r) > s_.cfg->radius + 1)
    return bad("the cell is outside the radius R+1 hexagon");
  if (floe_at(s_, q, r) >= 0) return bad("the cell is not vacant");
  bool touches = false;
  for (const auto& dir : directions) {
    const int n = floe_at(s_, q + dir[0], r + dir[1]);
    if (n >= 0 && n != f) touches = true;
  }
  if (!touches) return bad("the cell must touch another floe");
  if (s_.cfg->connectivity_guard && !board_connected_after(s_, f, q, r, -1, -1))
    return make_error("disconnects_board", "the board must stay connected (A36)");
  return std::nullopt;
}

cp_game::result_t cp_game::use_stone(int seat, const json& cmd, events& out) {
  const auto stone = cmd.contains("stone") && cmd["stone"].is_string()
                         ? stone_from_name(cmd["stone"].get<std::string>())
                         : std::nullopt;
  if (!stone) return make_error("bad_command", "stone must be red, blue or green");
  if (!usable_stone(seat, *stone)) return make_error("no_stone", "you cannot use a " + std::string(stone_name(*stone)) + " stone now");
  const auto i = static_cast<std::size_t>(seat);
  json ev = object("kind", "stone_used", "seat", seat, "stone", stone_name(*stone));
  if (*stone == 2) {  // A22: move floe F with everything on it to a vacant cell
    const auto f = int_field(cmd, "floe");
    if (!f || !cmd.contains("to") || !cmd["to"].is_array() || cmd["to"].size() != 2 ||
        !cmd["to"][0].is_number_integer() || !cmd["to"][1].is_number_integer())
      return make_error("illegal_target", "green needs \"floe\" and \"to\": [q, r]");
    const auto lq = cmd["to"][0].get<long long>(), lr = cmd["to"][1].get<long long>();
    if (lq < -grid_offset || lq > grid_offset || lr < -grid_offset || lr > grid_offset)
      return make_error("illegal_target", "the cell is outside the radius R+1 hexagon");
    const int q = static_cast<int>(lq), r = static_cast<int>(lr);
    if (auto e = green_error(seat, *f, q, r)) return e;
    std::erase_if(s_.channels, [&](const channel& c) { return c.a == *f || c.b == *f; });
    s_.adj_ok = false;
    ++s_.layout;
    auto& fl = s_.floes[static_cast<std::size_t>(*f)];
    ev["floe"] = *f;
    ev["from"] = {fl.q, fl.r};
    ev["to"] = {q, r};
    fl.q = q;
    fl.r = r;
    rebuild_grid(s_);
  } else {  // A21: swap the own penguin with another penguin (red) or any figure (blue)
    const auto t = int_field(cmd, "target");
    const int own = s_.penguin[i];
    if (!t || *t < 0 || *t >= static_cast<int>(s_.floes.size()) || *t == own)
      return make_error("illegal_target", "target must be a floe with another figure");
    const int other = penguin_at(s_, *t);
    const bool figure = other >= 0 || (*stone == 1 && (*t == s_.santa || *t == s_.bear));
    if (!figure) return make_error("illegal_target", "no figure you may swap with stands there");
    if (other >= 0)
      s_.penguin[static_cast<std::size_t>(other)] = own;
    else if (*t == s_.santa)
      s_.santa = own;
    else
      s_.bear = own;
    s_.penguin[i] = *t;
    ev["from"] = own;
    ev["to"] = *t;
  }
  --s_.stones[i][static_cast<std::size_t>(*stone)];
  if (s_.cfg->recycle) s_.supply.push_back(*stone);  // A24: handed to Santa
  ev["to_supply"] = s_.cfg->recycle;
  out.push_back(event::public_event(std::move(ev)));
  end_stop("used", out);
  return std::nullopt;
}

void cp_game::legal_stones(int seat, legal_writer& out) const {
  const auto i = static_cast<std::size_t>(seat);
  for (int k = 0; k < 2; ++k) {
    if (!usable_stone(seat, k)) continue;
    for (int f = 0; f < static_cast<int>(s_.floes.size()); ++f) {
      if (f == s_.penguin[i]) continue;
      if (penguin_at(s_, f) >= 0 || (k == 1 && (f == s_.santa || f == s_.bear)))
        out.swap_stone(k, f);
    }
  }
  if (!usable_stone(seat, 2)) return;
  // Every floe to every vacant cell of the radius R+1 hexagon that touches another floe and keeps
  // the board connected: at most floes x (cells of that hexagon - floes), 888 on a radius-3
  // board and 1,830 on radius 4, listed floe by floe, cells in (r, q) order.
  const int reach = s_.cfg->radius + 1;
  struct vacant_cell {
    int q, r;
    std::uint64_t floes;  // the floes around it (bit i = floe i)
  };
  std::vector<vacant_cell> vacant;
  vacant.reserve(64);
  for (int r = -reach; r <= reach; ++r)
    for (int q = -reach; q <= reach; ++q) {
      if (ring(q, r) > reach || floe_at(s_, q, r) >= 0) continue;
      vacant_cell c{q, r, 0};
      for (const auto& d : directions)
        if (const int m = floe_at(s_, q + d[0], r + d[1]); m >= 0) c.floes |= bit(m);
      vacant.push_back(c);
    }
  // The checks of green_error, for a whole floe at once: the board stays connected when the floe's
  // new cell touches every piece that the board falls into without it (its channels go with it,
  // the others' stay). One flood fill per floe instead of one per cell: the list is long, and it was
  // the largest share of a Christmas Penguins server's own work (bench/README.md).
  const int n = static_cast<int>(s_.floes.size());
  const std::uint64_t board = (std::uint64_t{1} << n) - 1;  // fewer than 64 floes
  legal_writer::green_moves green;
  std::array<std::uint64_t, max_floes> pieces{};
  for (int f = 0; f < n; ++f) {
    int count = 0;
    std::uint64_t rest = board & ~bit(f);
    while (rest) {
      std::uint64_t piece = bit(std::countr_zero(rest));  // the lowest floe left, and all it is connected to
      for (std::uint64_t todo = piece; todo;) {
        const int x = std::countr_zero(todo);
        todo &= todo - 1;
        const std::uint64_t fresh = neighbours(s_, x).bits & rest & ~piece;
        piece |= fresh;
        todo |= fresh;
      }
      pieces[static_cast<std::size_t>(count++)] = piece;
      rest &= ~piece;
    }
    const auto touches_every_piece = [&](std::uint64_t around) {
      for (int k = 0; k < count; ++k)
        if (!(around & pieces[static_cast<std::size_t>(k)])) return false;
      return true;
    };
    // On the wire a floe whose leaving keeps the rest together (or any floe without the guard) may
    // go to every listed cell that touches another floe: it is named once in `floes`. Only the
    // moves of the other floes are listed as pairs.
    const bool whole = !s_.cfg->connectivity_guard || count <= 1;
    bool named = false;
    for (const auto& c : vacant) {
      const std::uint64_t around = c.floes & ~bit(f);
      if (around == 0 || (s_.cfg->connectivity_guard && !touches_every_piece(around))) continue;
      if (out.expand) {
        out.green_stone(f, c.q, c.r);
        continue;
      }
      if (green.floes.empty() && green.pairs.empty()) out.green_stone(f, c.q, c.r);  // the example
      if (!whole) {
        green.pairs.push_back({f, c.q, c.r});
      } else if (!named) {
        green.floes.push_back(f);
        named = true;
      }
    }
  }
  if (out.expand || (green.floes.empty() && green.pairs.empty())) return;
  // The cells: every vacant one that touches a floe, with the floe when it touches only one (that
  // floe may not go there: the cell must touch another floe).
  for (const auto& c : vacant)
    if (c.floes) green.cells.push_back({c.q, c.r, std::popcount(c.floes) == 1 ? std::countr_zero(c.floes) : -1});
  out.green_domain(green);
}

// ---- water channels (A35, A36) ------------------------------------------------------------

bool cp_game::channel_phase() const {
  return s_.ph == phase::await_roll || s_.ph == phase::await_move || s_.ph == phase::await_post;
}

cp_game::result_t cp_game::channel_error(int seat, int a, int b) const {
  if (!channel_phase()) return make_error("wrong_phase", "channels are placed before rolling, before or after the move");
  if (seat != s_.active) return make_error("not_your_turn", "channels are placed on your own turn");
  if (s_.channels_left[static_cast<std::size_t>(seat)] <= 0) return make_error("no_channels_left", "your channels are used up");
  if (s_.cfg->one_channel_per_turn && s_.channels_this_turn > 0)
    return make_error("channel_limit", "one channel per turn (channelsPerTurn=1)");
  const int n = static_cast<int>(s_.floes.size());
  if (a < 0 || b < 0 || a >= n || b >= n || !lattice_adjacent(s_, a, b))
    return make_error("illegal_edge", "a channel lies between two adjacent floes");
  if (has_channel(s_, a, b)) return make_error("illegal_edge", "there is a channel on that edge already");
  if (s_.cfg->connectivity_guard && !board_connected_after(s_, -1, 0, 0, a, b))
    return make_error("disconnects_board", "the board must stay connected (A36)");
  return std::nullopt;
}

cp_game::result_t cp_game::place_channel(int seat, const json& cmd, events& out) {
  const auto a = int_field(cmd, "a"), b = int_field(cmd, "b");
  if (!channel_phase()) return make_error("wrong_phase", "channels are placed before rolling, before or after the move");
  if (!a || !b) return make_error("illegal_edge", "place_channel needs floe ids \"a\" and \"b\"");
  if (auto e = channel_error(seat, *a, *b)) return e;
  s_.channels.push_back({std::min(*a, *b), std::max(*a, *b), seat});
  s_.adj_ok = false;
  ++s_.layout;
  --s_.channels_left[static_cast<std::size_t>(seat)];
  ++s_.channels_this_turn;
  out.push_back(event::public_event(
      object("a", std::min(*a, *b), "b", std::max(*a, *b), "kind", "channel_placed", "seat", seat)));
  // A channel can take away the last destination for the die already rolled.
  if (s_.ph == phase::await_move && destinations().empty()) reach(phase::await_move, out);
  return std::nullopt;
}

void cp_game::legal_channels(int seat, legal_writer& out) const {
  if (!channel_phase() || seat != s_.active || s_.channels_left[static_cast<std::size_t>(seat)] <= 0) return;
  if (s_.cfg->one_channel_per_turn && s_.channels_this_turn > 0) return;
  // Every edge between two adjacent floes without a channel, as (a, b) with a < b in order of a,
  // then b: at most 3 per floe (90 on a radius-3 board, 156 on radius 4). Under the connectivity
  // guard, no bridge (channel_error's check for each edge, answered for all edges at once).
  const bool guard = s_.cfg->connectivity_guard;
  if (guard && !board_connected(s_)) return;
  const auto cut = guard ? bridges(s_) : std::array<std::uint64_t, max_floes>{};
  const int n = static_cast<int>(s_.floes.size());
  std::vector<std::pair<int, int>> edges;
  for (int a = 0; a < n; ++a) {
    // The partners b > a, as bits, read out in ascending order: the adjacent floes without a
    // channel between are exactly a's connected neighbours.
    std::uint64_t around = neighbours(s_, a).bits & ~((std::uint64_t{2} << a) - 1);
    for (around &= ~cut[static_cast<std::size_t>(a)]; around; around &= around - 1) {
      const int b = std::countr_zero(around);
      assert(!channel_error(seat, a, b));
      if (out.expand)
        out.channel(a, b);
      else
        edges.emplace_back(a, b);
    }
  }
  // On the wire: the first edge as an example, then every edge (up to 156 on radius 4) as pairs.
  if (edges.empty()) return;
  out.channel(edges.front().first, edges.front().second);
  out.channel_domain(edges);
}

}  // namespace tinsel::engine::christmas_penguins::detail
