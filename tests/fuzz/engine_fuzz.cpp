// Fuzzes one game's engine (TINSEL_FUZZ_GAME, e.g. "unterm_baum") with command sequences derived from
// the input: the options (a curated variant, then a few keys overwritten with fuzzed values, or
// options given as raw JSON), the player count and first seat, the dice seed, then one operation
// per input byte or so:
//   - a listed legal command of some seat (domain entries are filled in with fuzzed values),
//   - a legal command with one field replaced or removed, or sent by another seat (-1 .. players),
//   - a command applied earlier, sent again,
//   - arbitrary JSON text from the input,
//   - a timeout of the open prompt, or of a stale serial.
// The engine contract (engine/include/tinsel/engine/game.hpp, as tests/engine/random_play_test.cpp
// checks it) is checked at every step and a violation aborts: a refused command leaves the full
// state, the dice and the prompt unchanged and has a snake_case code; an accepted command was listed
// in legal (or matched a domain entry of its kind); a stale timeout changes nothing; a prompt exists
// exactly while the game is not over; prompted seats have a sendable command. Every 8th step and at
// the end: every viewer gets a view and clone() equals the original; operations with the top three
// bits set also play on a clone, which must decide and roll identically.
#include <algorithm>
#include <cctype>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "../engine/legal_domains.hpp"
#include "fuzz_check.hpp"
#include "tinsel/engine/game.hpp"

#ifndef TINSEL_FUZZ_GAME
#error "define TINSEL_FUZZ_GAME to a game id"
#endif

namespace {

using namespace tinsel::engine;

constexpr int max_ops = 3000;  // bounds one input's running time; libFuzzer's inputs are short anyway
constexpr int deep_every = 8;  // how often the whole-game checks run (every view, clone == original)

// The fuzz input, read front to back; once used up it reads as zeros.
class input {
 public:
  input(const std::uint8_t* data, std::size_t size) : p_(data), n_(size) {}
  bool empty() const { return n_ == 0; }
  std::uint8_t byte() {
    if (n_ == 0) return 0;
    --n_;
    return *p_++;
  }
  // A number in [0, count), count >= 1.
  std::uint32_t pick(std::size_t count) {
    if (count <= 1) return 0;
    std::uint32_t v = byte();
    if (count > 256) v = v << 8 | byte();
    return static_cast<std::uint32_t>(v % count);
  }
  std::string text(std::size_t max) {
    const std::size_t len = std::min<std::size_t>({pick(max + 1), n_});
    std::string s(reinterpret_cast<const char*>(p_), len);
    p_ += len;
    n_ -= len;
    return s;
  }

 private:
  const std::uint8_t* p_;
  std::size_t n_;
};

// The same short-game variants as the random-play test, so inputs reach game ends quickly.
std::vector<json> variants() {
  const std::string id = TINSEL_FUZZ_GAME;
  if (id == "happy_holidays")
    return {json::object(),
            {{"reindeerMode", "assisted"}},
            {{"endCheck", "immediate"}, {"tieBreak", "totalGifts"}},
            {{"maxPlayers", 6}, {"giftsPerColour", 5}, {"reindeerCount", 1}},
            {{"startPlayer", "host-picks"}, {"maxPlayers", 3}, {"rerollEmptyReward", true}},
            {{"maxPlayers", 2}, {"reindeerCount", 1}, {"endCheck", "immediate"}, {"mainTimeoutSec", "off"}}};
  if (id == "unterm_baum")
    return {{{"maxPlayers", 2}, {"maxRounds", 3}, {"decoys", 0}, {"memorizeSeconds", 1}},
            {{"maxPlayers", 3},
             {"maxRounds", 2},
             {"actionsMode", "anyTwo"},
             {"positionMode", "ordinal"},
             {"tieBreak", "exactThenRow"}},
            {{"maxPlayers", 2}, {"familySize", 3}, {"decoys", 2}, {"maxRounds", 12}},
            {{"startPlayer", "host-picks"}, {"maxPlayers", 4}, {"familySize", 5}, {"maxRounds", 1}},
            {{"maxPlayers", 2}, {"cardsToRemember", 12}, {"maxRounds", 2}, {"assignSeconds", "off"}}};
  if (id == "christmas_penguins")
    return {{{"maxRounds", 4}, {"stones", "3/3/3"}, {"stopSeconds", 1}, {"reactionWindowMs", 1000}},
            {{"maxRounds", 3},
             {"minPlayers", 5},
             {"backtrackRule", "noImmediateReverse"},
             {"pushMode", "freeFirst"},
             {"bearMode", "instead"},
             {"fleeRange", "anyRefuge"}},
            {{"maxRounds", 5},
             {"presentsPerColour", 3},
             {"poolColours", "seatedOnly"},
             {"treeMinDistance", 1},
             {"confiscatedTo", "santaPlayer"},
             {"bearDropTo", "pool"},
             {"stoneRecycle", "discard"},
             {"bonusMode", "twoAwards"}},
            {{"maxRounds", 3},
             {"startPlayer", "host-picks"},
             {"boardRadius", 4},
             {"stones", "4/4/4"},
             {"channelsPerTurn", 1},
             {"connectivityGuard", false},
             {"reactionWindowMs", 0},
             {"stopSeconds", "off"}},
            {{"maxRounds", 5}, {"boardRadius", 3}, {"stones", "0/1/4"}}};
  return {json::object()};
}

bool is_snake_case(const std::string& s) {
  if (s.empty() || !std::islower(static_cast<unsigned char>(s.front()))) return false;
  return std::all_of(s.begin(), s.end(), [](char c) {
    return std::islower(static_cast<unsigned char>(c)) || std::isdigit(static_cast<unsigned char>(c)) || c == '_';
  });
}

// A value for a fuzzed field: small and boundary integers, cells, locations, colours, wrong types.
json fuzz_value(input& in) {
  static const std::vector<std::string> words = {"red",  "blue", "green", "yellow", "purple", "orange",
                                                 "off",  "",     "mueller", "teddy_bear", "x"};
  switch (in.pick(10)) {
    case 0:
    case 1: return static_cast<int>(in.pick(40)) - 4;
    case 2: return json::array({static_cast<int>(in.pick(13)) - 6, static_cast<int>(in.pick(13)) - 6});
    case 3: return {{"row", static_cast<int>(in.pick(8)) - 1}, {"slot", static_cast<int>(in.pick(8)) - 1}};
    case 4: return {{"tree", static_cast<int>(in.pick(20)) - 1}};
    case 5:
      return {{"seat", static_cast<int>(in.pick(8)) - 1},
              {"row", static_cast<int>(in.pick(6))},
              {"slot", static_cast<int>(in.pick(6))}};
    case 6: return words[in.pick(words.size())];
    case 7: {
      static const std::vector<json> odd = {nullptr, true, 1.5, -2147483648LL, 4294967297LL, 9007199254740993ULL,
                                            json::array(), json::object(), "0", 1e300};
      return odd[in.pick(odd.size())];
    }
    case 8: return in.pick(2) == 0;
    default: {
      const json j = json::parse(in.text(24), nullptr, false);
      return j.is_discarded() ? json(nullptr) : j;
    }
  }
}

const json& pick_from(input& in, const json& list) { return list[in.pick(list.size())]; }

// A concrete command from a legal entry that carries a `domain` (values for people plus, in Unterm
// Baum, machine-readable lists); values that are descriptions get fuzzed values.
json fill_domain(input& in, const json& entry) {
  const json& d = entry["domain"];
  json cmd = {{"kind", entry["kind"]}};
  if (!d.is_object()) return cmd;
  // Domains that stand for single commands (Christmas Penguins' green moves, channels, flights;
  // Unterm Baum's reveals and moves): one of their commands, written out as docs/protocol.md says.
  if (const auto all = legal_domains::expand_domain(entry, true); !all.empty()) return all[in.pick(all.size())];
  if (d.contains("motifs") && d["motifs"].is_array()) {  // Unterm Baum assign
    const int rows = d.value("rows", 1), slots = d.value("slots", 1);
    json wishes = json::array();
    for (const auto& m : d["motifs"])
      wishes.push_back({{"motif", m}, {"row", static_cast<int>(in.pick(static_cast<std::size_t>(std::max(rows, 1))))},
                        {"slot", static_cast<int>(in.pick(static_cast<std::size_t>(std::max(slots, 1))))}});
    cmd["wishes"] = wishes;
    if (d.contains("families") && d["families"].is_array() && !d["families"].empty() && in.pick(2))
      cmd["family"] = pick_from(in, d["families"]);
    return cmd;
  }
  if (d.contains("occupied") && d["occupied"].is_array() && !d["occupied"].empty()) {  // rearrange
    const int rows = d.value("rows", 1), slots = d.value("slots", 1);
    json moves = json::array();
    const auto n = 1 + in.pick(3);
    for (std::uint32_t i = 0; i < n; ++i) {
      const json& rs = pick_from(in, d["occupied"]);  // [row, slot]
      const json from = rs.is_array() && rs.size() == 2 ? json{{"row", rs[0]}, {"slot", rs[1]}} : rs;
      moves.push_back({{"from", from},
                       {"to",
                        {{"row", static_cast<int>(in.pick(static_cast<std::size_t>(std::max(rows, 1))))},
                         {"slot", static_cast<int>(in.pick(static_cast<std::size_t>(std::max(slots, 1))))}}}});
    }
    cmd["moves"] = moves;
    return cmd;
  }
  for (const auto& [key, value] : d.items()) {
    if (key == "rule") continue;
    cmd[key] = value.is_array() && !value.empty() ? pick_from(in, value) : fuzz_value(in);
  }
  return cmd;
}

class fuzz_game {
 public:
  explicit fuzz_game(input& in) : in_(in), info_(*builtin_games().find(TINSEL_FUZZ_GAME)) {}

  void run() {
    if (!start()) {
      if (verbose()) std::fprintf(stderr, "  no game: options or setup refused\n");
      return;
    }
    int op = 0;
    for (; op < max_ops && !in_.empty() && !game_->is_over(); ++op) {
      check_invariants(op % deep_every == 0);
      step();
    }
    check_invariants(true);
    if (verbose())
      std::fprintf(stderr, "  %d players, %d operations, %s\n", setup_.players, op,
                   game_->is_over() ? "game over" : "game still running");
  }

  // TINSEL_FUZZ_VERBOSE=1: one line per input, to see how far the seeds play.
  static bool verbose() {
    static const bool on = std::getenv("TINSEL_FUZZ_VERBOSE") != nullptr;
    return on;
  }

 private:
  // Options, seats and dice from the input; false when the input asks for a game that cannot start
  // (which must be refused with a code, not a crash).
  bool start() {
    const auto all = variants();
    json options = all[in_.pick(all.size())];
    const auto mode = in_.pick(4);
    if (mode == 3) {
      options = json::parse(in_.text(200), nullptr, false);
      if (options.is_discarded()) return false;
    } else if (mode == 2) {
      // Overwrite a few keys of the normalized defaults (every known option) with fuzzed values.
      const auto defaults = info_.normalize_options(json::object());
      FUZZ_CHECK(defaults.ok(), "default options are refused");
      std::vector<std::string> keys;
      for (const auto& item : defaults.value().items()) keys.push_back(item.key());
      for (auto n = 1 + in_.pick(3); n > 0; --n) options[keys[in_.pick(keys.size())]] = fuzz_value(in_);
    }
    const auto norm = info_.normalize_options(options);
    if (!norm.ok()) {
      FUZZ_CHECK(is_snake_case(norm.error().code), "option error code is not snake_case");
      return false;
    }
    const auto range = info_.seats(norm.value());
    FUZZ_CHECK(range.min >= 1 && range.min <= range.max, "bad seat range");
    setup_.options = norm.value();
    setup_.players = range.min + static_cast<int>(in_.pick(static_cast<std::size_t>(range.max - range.min + 1)));
    if (in_.pick(2)) setup_.first_seat = static_cast<int>(in_.pick(static_cast<std::size_t>(setup_.players)));
    dice_ = std::make_unique<seeded_dice>(static_cast<std::uint64_t>(in_.byte()) << 8 | in_.byte());
    auto created = info_.create(setup_, *dice_);
    if (!created.ok()) {
      FUZZ_CHECK(is_snake_case(created.error().code), "create error code is not snake_case");
      return false;
    }
    game_ = std::move(created.value());
    FUZZ_CHECK(game_->players() == setup_.players, "players() disagrees with the setup");
    return true;
  }

  // Checked before every operation. The expensive whole-game checks (a view for every viewer, the
  // clone equal to the original) run every `deep_every` operations and at the end; legal lists are
  // computed for the seats that need them.
  void check_invariants(bool deep) {
    const auto p = game_->current_prompt();
    const bool over = game_->is_over();
    FUZZ_CHECK(p.has_value() != over, "a prompt must exist exactly while the game is not over");
    FUZZ_CHECK(game_->result().is_null() != over, "result must be null exactly until the end");
    legal_.assign(static_cast<std::size_t>(setup_.players), std::nullopt);
    if (p) {
      FUZZ_CHECK(!p->seats.empty() || p->timeout_ms, "a prompt awaits nobody and has no timer");
      for (int s : p->seats) {
        FUZZ_CHECK(s >= 0 && s < setup_.players, "prompt seat out of range");
        const json& l = legal_for(s);
        FUZZ_CHECK(std::any_of(l.begin(), l.end(), [](const json& e) { return !e.contains("domain"); }),
                   "a prompted seat has no sendable command");
      }
    }
    state_ = game_->full_state();
    if (!deep && !over) return;
    FUZZ_CHECK(game_->legal(-1).empty(), "a spectator has legal commands");
    for (int s = 0; s < setup_.players; ++s) {
      const json& l = legal_for(s);
      FUZZ_CHECK(!over || l.empty(), "legal is not empty at the end");
    }
    for (int s = -1; s < setup_.players; ++s)
      FUZZ_CHECK(game_->view(s < 0 ? viewer::spectator() : viewer::player(s)).is_object(), "view is not an object");
    FUZZ_CHECK(game_->clone()->full_state() == state_, "clone differs from the original");
  }

  // The seat's legal list at the current state (computed once per state); empty for non-seats.
  const json& legal_for(int seat) {
    static const json none = json::array();
    if (seat < 0 || seat >= setup_.players) return none;
    auto& slot = legal_[static_cast<std::size_t>(seat)];
    if (!slot) {
      slot = game_->legal(seat);
      FUZZ_CHECK(slot->is_array(), "legal is not an array");
      for (const auto& e : *slot)
        FUZZ_CHECK(e.is_object() && e.contains("kind") && e["kind"].is_string(), "legal entry without kind");
    }
    return *slot;
  }

  // A seat that has something listed, preferring the prompted ones.
  int some_seat() {
    const auto p = game_->current_prompt();
    if (p && !p->seats.empty() && in_.pick(4) != 0) return p->seats[in_.pick(p->seats.size())];
    return static_cast<int>(in_.pick(static_cast<std::size_t>(setup_.players)));
  }

  void step() {
    const auto op = in_.byte();
    const bool twin = (op & 0xe0) == 0xe0;  // also play the command on a clone and compare
    switch (op % 16) {
      case 0:
      case 1:
      case 2:
      case 3:
      case 4:
      case 5: {  // a listed command (a domain entry filled in)
        const int seat = some_seat();
        const json& l = legal_for(seat);
        if (l.empty()) return time_out();
        const json& e = pick_from(in_, l);
        send(seat, e.contains("domain") ? fill_domain(in_, e) : e, twin);
        return;
      }
      case 6:
      case 7: {  // a listed command with one field replaced, added or removed
        const int seat = some_seat();
        const json& l = legal_for(seat);
        if (l.empty()) return time_out();
        json cmd = pick_from(in_, l);
        if (cmd.contains("domain")) cmd = fill_domain(in_, cmd);
        std::vector<std::string> keys;
        for (const auto& item : cmd.items()) keys.push_back(item.key());
        keys.push_back("extra");
        const std::string& key = keys[in_.pick(keys.size())];
        if (in_.pick(5) == 0)
          cmd.erase(key);
        else
          cmd[key] = fuzz_value(in_);
        send(seat, cmd, twin);
        return;
      }
      case 8: {  // a listed command of one seat, sent by any seat or a non-seat
        const json& l = legal_for(some_seat());
        if (l.empty()) return time_out();
        const json& e = pick_from(in_, l);
        const int seat = static_cast<int>(in_.pick(static_cast<std::size_t>(setup_.players + 3))) - 1;  // -1 .. n+1
        send(seat, e.contains("domain") ? fill_domain(in_, e) : e, twin);
        return;
      }
      case 9:
      case 10:  // a command applied earlier
        if (history_.empty()) return time_out();
        send(some_seat(), history_[in_.pick(history_.size())], twin);
        return;
      case 11: {  // arbitrary JSON
        json cmd = json::parse(in_.text(120), nullptr, false);
        if (cmd.is_discarded()) cmd = fuzz_value(in_);
        send(static_cast<int>(in_.pick(static_cast<std::size_t>(setup_.players + 2))) - 1, cmd, twin);
        return;
      }
      case 12: return stale_timeout();
      default: return time_out();
    }
  }

  // Listed as it is, or allowed by a domain entry of its kind; a Christmas Penguins channel is an
  // edge, listed once with a < b and accepted with its ends either way round (docs/protocol.md).
  static bool accepted_by_contract(const json& l, const json& cmd) {
    json swapped = cmd;
    if (cmd.is_object() && cmd.value("kind", json()) == "place_channel" && cmd.contains("a") && cmd.contains("b"))
      std::swap(swapped["a"], swapped["b"]);
    return std::any_of(l.begin(), l.end(), [&](const json& e) {
      return e == cmd || e == swapped ||
             (e.contains("domain") && cmd.is_object() && cmd.contains("kind") && cmd["kind"] == e["kind"]);
    });
  }

  void send(int seat, const json& cmd, bool twin_check) {
    const json& listed = legal_for(seat);  // before the command changes the state
    const auto draws = dice_->draws();
    const auto p = game_->current_prompt();
    std::unique_ptr<game> twin;
    std::unique_ptr<seeded_dice> twin_dice;
    json twin_events;
    bool twin_ok = false;
    if (twin_check) {
      twin = game_->clone();
      twin_dice = std::make_unique<seeded_dice>(*dice_);
      auto r = twin->apply(seat, cmd, *twin_dice);
      twin_ok = r.ok();
      if (r.ok()) twin_events = bodies(r.value());
      FUZZ_CHECK(game_->full_state() == state_, "playing on a clone touched the original");
    }
    auto r = game_->apply(seat, cmd, *dice_);
    if (!r.ok()) {
      FUZZ_CHECK(is_snake_case(r.error().code), "error code is not snake_case");
      FUZZ_CHECK(game_->full_state() == state_, "a refused command changed the state");
      FUZZ_CHECK(dice_->draws() == draws, "a refused command rolled dice");
      FUZZ_CHECK(game_->current_prompt().has_value() == p.has_value() &&
                     (!p || game_->current_prompt()->serial == p->serial),
                 "a refused command changed the prompt");
      const bool was_listed = std::any_of(listed.begin(), listed.end(), [&](const json& e) { return e == cmd; });
      if (was_listed)
        std::fprintf(stderr, "seat %d: listed %s refused with %s\n", seat, cmd.dump().c_str(),
                     r.error().code.c_str());
      FUZZ_CHECK(!was_listed, "a listed command was refused");
    } else {
      if (!accepted_by_contract(listed, cmd))
        std::fprintf(stderr, "seat %d: %s accepted; its legal list: %s\n", seat, cmd.dump().c_str(),
                     listed.dump().c_str());
      FUZZ_CHECK(accepted_by_contract(listed, cmd), "a command that legal() does not list was accepted");
      check_events(r.value());
      if (history_.size() < 32) history_.push_back(cmd);
    }
    if (twin_check) {
      FUZZ_CHECK(twin_ok == r.ok(), "a clone decided differently");
      FUZZ_CHECK(twin->full_state() == game_->full_state() && twin_dice->draws() == dice_->draws(),
                 "a clone played on differently");
      if (r.ok()) FUZZ_CHECK(twin_events == bodies(r.value()), "a clone gave other events");
    }
  }

  void stale_timeout() {
    const auto p = game_->current_prompt();
    const auto draws = dice_->draws();
    const std::uint64_t stale = in_.pick(2) ? p->serial + 1 + in_.pick(3) : p->serial - 1 - in_.pick(3);
    FUZZ_CHECK(game_->on_timeout(stale, *dice_).empty(), "a stale timeout produced events");
    FUZZ_CHECK(game_->full_state() == state_ && dice_->draws() == draws, "a stale timeout changed the state");
  }

  void time_out() {
    const auto p = game_->current_prompt();
    const auto evs = game_->on_timeout(p->serial, *dice_);
    FUZZ_CHECK(!evs.empty(), "a timeout did nothing");
    check_events(evs);
    FUZZ_CHECK(game_->is_over() || game_->current_prompt()->serial != p->serial, "a timeout left the prompt open");
  }

  static json bodies(const events& evs) {
    json out = json::array();
    for (const auto& e : evs) out.push_back(e.body);
    return out;
  }

  static void check_events(const events& evs) {
    for (const auto& e : evs)
      FUZZ_CHECK(e.body.is_object() && e.body.contains("kind") && e.body["kind"].is_string() &&
                     is_snake_case(e.body["kind"].get<std::string>()),
                 "bad event");
  }

  input& in_;
  const game_info& info_;
  setup setup_;
  std::unique_ptr<seeded_dice> dice_;
  std::unique_ptr<game> game_;
  std::vector<std::optional<json>> legal_;  // per seat, filled by legal_for
  std::vector<json> history_;
  json state_;
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  input in(data, size);
  fuzz_game(in).run();
  return 0;
}
