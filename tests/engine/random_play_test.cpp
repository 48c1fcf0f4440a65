// The shared random-play harness: every game in builtin_games() plays many seeded games with
// randomly picked legal commands, and the engine contract (engine/include/tinsel/engine/game.hpp) is
// checked at every step:
// - a prompt exists iff the game is not over; every prompted seat has a sendable legal command;
//   nobody has one once it is over; the result is null until then; serials never go back; a
//   prompt that awaits no seat is a timed wait (it must have a timer) and is moved by timeouts;
// - every listed command applies (each is tried on a clone);
// - sampled illegal commands (a wrong seat, stale commands, mutated parameters, garbage) are
//   rejected with a snake_case code and change neither the state nor the dice;
// - every seat and a spectator get a view; a shared view (game::shared_view) equals each of them;
//   events are objects with a "kind";
// - now and then the prompt times out; a stale serial changes nothing;
// - clone() equals the original and plays on identically; the same seed and command log replay
//   to an equal full_state(); the game ends within max_steps.
// A failure names the game and the seed; replay just that seed of one game with
//   TINSEL_RANDOM_PLAY_SEED=<seed> engine_tests "random play*" -c <game id>
//
// A new game is picked up automatically with default options; add its interesting option variants
// to option_variants(). Commands are picked from game::commands() (legal with the domains a game
// lists one by one written out), which must equal legal's domains written out (legal_domains.hpp);
// domain entries are neither picked nor used to judge a command illegal.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cctype>
#include <cstdlib>
#include <map>
#include <string>
#include <vector>

#include "legal_domains.hpp"
#include "tinsel/engine/game.hpp"

namespace {

using namespace tinsel::engine;

constexpr std::uint64_t first_seed = 1;
// 1000 games per game take ~8 s in an optimized build but ~90 s unoptimized, so a Debug build
// plays the first 150 seeds only. TINSEL_RANDOM_PLAY_GAMES=<n> overrides both (a longer soak).
#ifdef NDEBUG
constexpr int games_per_game = 1000;
#else
constexpr int games_per_game = 150;
#endif
constexpr int max_steps = 5000;  // a Happy Holidays game takes about 30–150 steps
constexpr int probes_per_step = 2;
constexpr std::uint32_t timeout_one_in = 12;
constexpr std::uint32_t clone_check_one_in = 8;

// Option variants per game id, cycled by seed; a game without an entry plays with {} only.
const std::map<std::string, std::vector<json>>& option_variants() {
  static const std::map<std::string, std::vector<json>> variants = {
      {"happy_holidays",
       {json::object(),
        {{"reindeerMode", "assisted"}},
        {{"endCheck", "immediate"}, {"tieBreak", "totalGifts"}},
        {{"maxPlayers", 6}, {"giftsPerColour", 5}, {"reindeerCount", 1}},
        {{"maxPlayers", 6},
         {"giftsPerColour", 15},
         {"rerollEmptyReward", true},
         {"mainTimeoutSec", "off"},
         {"subPromptTimeoutSec", "off"}},
        {{"startPlayer", "host-picks"}, {"maxPlayers", 3}},
        {{"maxPlayers", 2}, {"reindeerCount", 1}, {"endCheck", "immediate"}},
        {{"maxPlayers", 5},
         {"reindeerMode", "assisted"},
         {"rerollEmptyReward", true},
         {"tieBreak", "totalGifts"}}}},
      // Christmas Penguins: short round caps keep a game to a few hundred steps; extra stones and
      // short stop/reaction timers make the harness claim, queue, use and lapse "Stop!" often.
      {"christmas_penguins",
       {{{"maxRounds", 4}, {"stones", "3/3/3"}, {"stopSeconds", 1}, {"reactionWindowMs", 1000}},
        {{"maxRounds", 3},
         {"minPlayers", 5},
         {"backtrackRule", "noImmediateReverse"},
         {"pushMode", "freeFirst"},
         {"bearMode", "instead"},
         {"fleeRange", "anyRefuge"},
         {"mainTimeoutSec", 1},
         {"subPromptTimeoutSec", 1}},
        {{"maxRounds", 5},
         {"presentsPerColour", 3},
         {"poolColours", "seatedOnly"},
         {"treeMinDistance", 1},
         {"confiscatedTo", "santaPlayer"},
         {"bearDropTo", "pool"},
         {"stoneRecycle", "discard"},
         {"bonusMode", "twoAwards"},
         {"tieBreak", "presentsThenDistinct"}},
        {{"maxRounds", 3},
         {"startPlayer", "host-picks"},
         {"boardRadius", 4},
         {"stones", "4/4/4"},
         {"channelsPerPlayer", 6},
         {"channelsPerTurn", 1},
         {"connectivityGuard", false},
         {"confiscatedTo", "removed"},
         {"reactionWindowMs", 0},
         {"stopSeconds", "off"}},
        {{"maxRounds", 5}, {"boardRadius", 3}, {"stones", "0/1/4"}, {"mainTimeoutSec", "off"},
         {"subPromptTimeoutSec", "off"}}}},
      // Unterm Baum: few seats, a small deck and short round caps keep each game to a few dozen
      // steps; the maxRounds 12 variant plays long enough for a field to fill and end the game.
      {"unterm_baum",
       {{{"maxPlayers", 2}, {"maxRounds", 3}, {"decoys", 0}, {"memorizeSeconds", 1}},
        {{"maxPlayers", 3},
         {"maxRounds", 2},
         {"actionsMode", "anyTwo"},
         {"positionMode", "ordinal"},
         {"tieBreak", "exactThenRow"},
         {"assignSeconds", 1},
         {"memorizeSeconds", 1},
         {"revealSeconds", 1},
         {"mainTimeoutSec", 1}},
        {{"maxPlayers", 2}, {"familySize", 3}, {"decoys", 2}, {"maxRounds", 12}},
        {{"startPlayer", "host-picks"}, {"maxPlayers", 4}, {"familySize", 5}, {"maxRounds", 1}},
        {{"maxPlayers", 2},
         {"cardsToRemember", 12},
         {"maxRounds", 2},
         {"assignSeconds", "off"},
         {"mainTimeoutSec", "off"}}}},
  };
  return variants;
}

// Games per game where the default would exceed the ~10 s budget of one game's part of the run
// (optimized builds; a Debug build keeps its own smaller count if that is lower).
int games_for(const std::string& id) {
  static const std::map<std::string, int> fewer = {{"christmas_penguins", 200}};
  const auto it = fewer.find(id);
  return it == fewer.end() ? games_per_game : std::min(games_per_game, it->second);
}

bool is_snake_case(const std::string& s) {
  if (s.empty() || !std::islower(static_cast<unsigned char>(s.front()))) return false;
  return std::all_of(s.begin(), s.end(), [](char c) {
    return std::islower(static_cast<unsigned char>(c)) || std::isdigit(static_cast<unsigned char>(c)) ||
           c == '_';
  });
}

bool contains(const json& list, const json& cmd) {
  return std::any_of(list.begin(), list.end(), [&](const json& e) { return e == cmd; });
}

// Whether `wire` (a legal list) has a domain of cmd's kind that commands() does not write out
// (Unterm Baum's assign, move, rearrange): a command of that kind may be legal without being listed.
bool open_domain(const json& wire, const json& cmd) {
  return cmd.is_object() && std::any_of(wire.begin(), wire.end(), [&](const json& e) {
           return e.is_object() && e.contains("domain") && e["kind"] == cmd.value("kind", json()) &&
                  legal_domains::expand_domain(e).empty();
         });
}

json bodies(const events& evs) {
  json out = json::array();
  for (const auto& e : evs) out.push_back(e.body);
  return out;
}

struct step_record {
  bool timeout = false;
  int seat = -1;
  json command;
  std::uint64_t serial = 0;
  json events;
};

// Fails the running test case with the game, seed and step in the message.
#define HARNESS_CHECK(cond, what)                                                          \
  do {                                                                                     \
    if (!(cond)) FAIL(info_.id << " seed " << seed_ << " step " << step_ << ": " << what); \
  } while (0)

class random_game {
 public:
  random_game(const game_info& info, std::uint64_t seed, const json& options)
      : info_(info), seed_(seed), pick_(seed * 0x9e3779b97f4a7c15ULL + 7), dice_(seed), options_(options) {}

  void play() {
    start();
    for (step_ = 0; step_ < max_steps && !game_->is_over(); ++step_) {
      check_invariants();
      probe_illegal();
      // A prompt that awaits nobody is a timed wait (e.g. a memorising phase): only time moves it.
      if (game_->current_prompt()->seats.empty() || pick_.roll(timeout_one_in) == 0)
        time_out();
      else
        play_command();
    }
    check_invariants();
    HARNESS_CHECK(game_->is_over(), "not over after " << max_steps << " steps");
    check_result();
    check_replay();
  }

  int steps() const { return step_; }

 private:
  void start() {
    auto norm = info_.normalize_options(options_);
    HARNESS_CHECK(norm.ok(), "options " << options_.dump() << " rejected: " << norm.error().message);
    normalized_ = norm.value();
    const auto range = info_.seats(normalized_);
    HARNESS_CHECK(range.min >= 1 && range.min <= range.max, "bad seat range");
    setup_.options = normalized_;
    setup_.players =
        range.min + static_cast<int>(pick_.roll(static_cast<std::uint32_t>(range.max - range.min + 1)));
    setup_.first_seat = static_cast<int>(pick_.roll(static_cast<std::uint32_t>(setup_.players)));
    auto created = info_.create(setup_, dice_);
    HARNESS_CHECK(created.ok(), "create failed: " << created.error().code << " " << created.error().message);
    game_ = std::move(created.value());
    HARNESS_CHECK(game_->players() == setup_.players, "players() disagrees with the setup");
  }

  void check_invariants() {
    const auto p = game_->current_prompt();
    const bool over = game_->is_over();
    HARNESS_CHECK(p.has_value() != over, "a prompt must exist exactly while the game is not over");
    HARNESS_CHECK(game_->result().is_null() != over, "result must be null exactly until the end");
    HARNESS_CHECK(game_->legal(-1).empty(), "a spectator has legal commands");
    legal_.clear();
    wire_.clear();
    for (int s = 0; s < setup_.players; ++s) {
      wire_.push_back(game_->legal(s));
      const json& wire = wire_.back();
      HARNESS_CHECK(wire.is_array(), "legal is not an array");
      HARNESS_CHECK(!over || wire.empty(), "seat " << s << " has legal commands after the end");
      for (const auto& e : wire)
        HARNESS_CHECK(e.is_object() && e.contains("kind") && e["kind"].is_string(),
                      "legal entry without kind: " << e.dump());
      // The harness picks from commands(): the domains a game lists one by one written out. They
      // must be exactly what legal's domains stand for, written out as docs/protocol.md says, in
      // order (Unterm Baum's commands() keeps example moves instead of its move domain).
      legal_.push_back(game_->commands(s));
      const json& l = legal_.back();
      HARNESS_CHECK(std::none_of(l.begin(), l.end(), [](const json& e) { return e.contains("domain"); }),
                    "commands() holds a domain entry");
      const json expanded = legal_domains::expand(wire);
      if (info_.id == "unterm_baum") {
        const auto reveals = [](const json& list) {
          json out = json::array();
          for (const auto& e : list)
            if (e["kind"] == "reveal") out.push_back(e);
          return out;
        };
        HARNESS_CHECK(reveals(expanded) == reveals(l), "the reveal domain of seat " << s << " is not commands()' reveals");
      } else {
        HARNESS_CHECK(expanded == l, "legal of seat " << s << " written out differs from commands(): " << wire.dump());
      }
      // Every concrete entry of legal (the examples) is one of commands().
      for (const auto& e : wire)
        HARNESS_CHECK(e.contains("domain") || std::find(l.begin(), l.end(), e) != l.end(),
                      "legal entry " << e.dump() << " is not one of commands()");
    }
    if (p) {
      HARNESS_CHECK(!p->seats.empty() || p->timeout_ms,
                    "prompt '" << p->kind << "' awaits nobody and has no timer");
      HARNESS_CHECK(p->serial >= last_serial_, "prompt serial went back");
      last_serial_ = p->serial;
      for (int s : p->seats) {
        HARNESS_CHECK(s >= 0 && s < setup_.players, "prompt seat " << s << " out of range");
        const json& l = legal_[static_cast<std::size_t>(s)];
        HARNESS_CHECK(!l.empty(), "prompted seat " << s << " has no legal command");
        const json wire = game_->legal(s);
        HARNESS_CHECK(std::any_of(wire.begin(), wire.end(), [](const json& e) { return !e.contains("domain"); }),
                      "prompted seat " << s << " has no concrete entry in legal");
        check_all_apply(s, l);
      }
    }
    // A shared view goes to every viewer as it is: it must be exactly what each of them may see.
    const auto shared = game_->shared_view();
    for (int s = -1; s < setup_.players; ++s) {
      const json v = game_->view(s < 0 ? viewer::spectator() : viewer::player(s));
      HARNESS_CHECK(v.is_object(), "view for " << s << " is not an object");
      HARNESS_CHECK(!shared || *shared == v, "the shared view differs from the view of " << s);
      // Christmas Penguins: a player's can_stop says exactly whether their legal lists "stop".
      if (info_.id == "christmas_penguins" && s >= 0) {
        const auto& l = legal_[static_cast<std::size_t>(s)];
        const bool listed = std::any_of(l.begin(), l.end(), [](const json& e) { return e["kind"] == "stop"; });
        HARNESS_CHECK(v["players"][static_cast<std::size_t>(s)]["can_stop"] == listed,
                      "can_stop of seat " << s << " is not whether its legal lists stop");
      }
    }
    state_ = game_->full_state();
    HARNESS_CHECK(game_->clone()->full_state() == state_, "clone differs from the original");
  }

  // Every listed command must apply; tried on clones so the real game stays put.
  void check_all_apply(int seat, const json& list) {
    for (const auto& cmd : list) {
      if (cmd.contains("domain")) continue;
      auto copy = game_->clone();
      seeded_dice d = dice_;
      auto r = copy->apply(seat, cmd, d);
      HARNESS_CHECK(r.ok(), "listed command " << cmd.dump() << " for seat " << seat
                                              << " rejected: " << (r.ok() ? "" : r.error().code));
    }
  }

  void probe_illegal() {
    const json& before = state_;
    const auto draws = dice_.draws();
    const auto serial = game_->current_prompt() ? game_->current_prompt()->serial : 0;
    for (int i = 0; i < probes_per_step; ++i) {
      int seat = -1;
      json cmd;
      if (!make_probe(seat, cmd)) continue;
      auto r = game_->apply(seat, cmd, dice_);
      HARNESS_CHECK(!r.ok(), "illegal command " << cmd.dump() << " from seat " << seat << " accepted");
      HARNESS_CHECK(is_snake_case(r.error().code),
                    "error code '" << r.error().code << "' for " << cmd.dump());
      HARNESS_CHECK(game_->full_state() == before, "rejected " << cmd.dump() << " changed the state");
      HARNESS_CHECK(dice_.draws() == draws, "rejected " << cmd.dump() << " rolled dice");
      HARNESS_CHECK((game_->current_prompt() ? game_->current_prompt()->serial : 0) == serial,
                    "rejected " << cmd.dump() << " changed the prompt");
    }
  }

  // A command that `seat` may certainly not send now, or false if none was found this time.
  bool make_probe(int& seat, json& cmd) {
    static const std::vector<json> garbage = {42,
                                              "x",
                                              json::object(),
                                              {{"kind", "nope"}},
                                              nullptr,
                                              json::array(),
                                              {{"kind", 7}},
                                              "roll",
                                              {{"type", "action"}}};
    const auto p = game_->current_prompt();
    const int n = setup_.players;
    const int prompt_seat = p && !p->seats.empty()
                                ? p->seats[pick_.roll(static_cast<std::uint32_t>(p->seats.size()))]
                                : static_cast<int>(pick_.roll(static_cast<std::uint32_t>(n)));
    const json& prompt_legal = legal_for(prompt_seat);
    switch (pick_.roll(4)) {
      case 0: {  // a legal command of the prompted seat, sent by someone else
        if (prompt_legal.empty()) return false;
        cmd = prompt_legal[pick_.roll(static_cast<std::uint32_t>(prompt_legal.size()))];
        seat = static_cast<int>(pick_.roll(static_cast<std::uint32_t>(n + 2))) - 1;  // -1 .. n
        break;
      }
      case 1:  // a command applied earlier
        if (history_.empty()) return false;
        cmd = history_[pick_.roll(static_cast<std::uint32_t>(history_.size()))];
        seat = prompt_seat;
        break;
      case 2: {  // a legal command with one parameter broken
        if (prompt_legal.empty()) return false;
        cmd = mutate(prompt_legal[pick_.roll(static_cast<std::uint32_t>(prompt_legal.size()))]);
        seat = prompt_seat;
        break;
      }
      default:
        cmd = garbage[pick_.roll(static_cast<std::uint32_t>(garbage.size()))];
        seat = prompt_seat;
        return true;
    }
    const json& l = legal_for(seat);
    static const json none = json::array();
    const json& wire = seat >= 0 && seat < setup_.players ? wire_[static_cast<std::size_t>(seat)] : none;
    return !open_domain(wire, cmd) && !contains(l, cmd);
  }

  // This step's legal list of a seat (cached by check_invariants; the state does not change until
  // the step's command), or the empty list of a non-seat.
  const json& legal_for(int seat) const {
    static const json none = json::array();
    return seat >= 0 && seat < setup_.players ? legal_[static_cast<std::size_t>(seat)] : none;
  }

  json mutate(json cmd) {
    std::vector<std::string> keys;
    for (const auto& [k, v] : cmd.items())
      if (k != "kind") keys.push_back(k);
    if (keys.empty() || cmd.contains("domain")) {
      // A kind no game has: "roll" becomes "roll_bogus".
      cmd["kind"] = cmd["kind"].get_ref<const std::string&>() + "_bogus";
      return cmd;
    }
    const auto& key = keys[pick_.roll(static_cast<std::uint32_t>(keys.size()))];
    static const std::vector<json> values = {-1,  999,  "bogus",       nullptr,
                                             1.5, true, json::array(), json::object()};
    const auto i = pick_.roll(static_cast<std::uint32_t>(values.size() + 1));
    if (i == values.size())
      cmd.erase(key);
    else
      cmd[key] = values[i];
    return cmd;
  }

  void time_out() {
    const auto p = game_->current_prompt();
    const json& before = state_;
    const auto draws = dice_.draws();
    for (const auto stale : {p->serial - 1, p->serial + 1}) {
      HARNESS_CHECK(game_->on_timeout(stale, dice_).empty(), "stale timeout produced events");
      HARNESS_CHECK(game_->full_state() == before && dice_.draws() == draws,
                    "stale timeout changed the state");
    }
    const auto evs = game_->on_timeout(p->serial, dice_);
    HARNESS_CHECK(!evs.empty(), "timeout of '" << p->kind << "' did nothing");
    check_events(evs);
    HARNESS_CHECK(game_->is_over() || game_->current_prompt()->serial != p->serial,
                  "timeout left the prompt open");
    log_.push_back({true, -1, nullptr, p->serial, bodies(evs)});
  }

  void play_command() {
    std::vector<std::pair<int, json>> options;
    for (int s = 0; s < setup_.players; ++s)
      for (const auto& e : legal_for(s))
        if (!e.contains("domain")) options.emplace_back(s, e);
    HARNESS_CHECK(!options.empty(), "no sendable legal command for anyone");
    const auto& [seat, cmd] = options[pick_.roll(static_cast<std::uint32_t>(options.size()))];

    std::unique_ptr<game> twin;
    seeded_dice twin_dice = dice_;
    const bool clone_check = pick_.roll(clone_check_one_in) == 0;
    json twin_events;
    if (clone_check) {
      twin = game_->clone();
      auto r = twin->apply(seat, cmd, twin_dice);
      HARNESS_CHECK(r.ok() && game_->full_state() == state_, "playing on a clone touched the original");
      twin_events = bodies(r.value());
    }
    auto r = game_->apply(seat, cmd, dice_);
    HARNESS_CHECK(r.ok(), "legal " << cmd.dump() << " by seat " << seat << " rejected: " << r.error().code);
    check_events(r.value());
    log_.push_back({false, seat, cmd, 0, bodies(r.value())});
    if (history_.size() < 32)
      history_.push_back(cmd);
    else
      history_[pick_.roll(32)] = cmd;
    if (clone_check) {
      HARNESS_CHECK(twin->full_state() == game_->full_state() && twin_dice.draws() == dice_.draws() &&
                        twin_events == log_.back().events,
                    "clone played on differently");
    }
  }

  void check_events(const events& evs) {
    for (const auto& e : evs)
      HARNESS_CHECK(e.body.is_object() && e.body.contains("kind") && e.body["kind"].is_string() &&
                        is_snake_case(e.body["kind"].get<std::string>()),
                    "bad event " << e.body.dump());
  }

  void check_result() {
    const json r = game_->result();
    HARNESS_CHECK(r.is_object() && r.contains("scores") && r.contains("winners"), "bad result " << r.dump());
    HARNESS_CHECK(r["scores"].is_array() && static_cast<int>(r["scores"].size()) == setup_.players,
                  "bad scores");
    HARNESS_CHECK(r["winners"].is_array() && !r["winners"].empty(), "nobody won");
    for (const auto& w : r["winners"])
      HARNESS_CHECK(w.is_number_integer() && w.get<int>() >= 0 && w.get<int>() < setup_.players,
                    "bad winner");
  }

  void check_replay() {
    seeded_dice d(seed_);
    auto created = info_.create(setup_, d);
    HARNESS_CHECK(created.ok(), "replay create failed");
    auto& g = created.value();
    for (std::size_t i = 0; i < log_.size(); ++i) {
      const auto& rec = log_[i];
      json evs;
      if (rec.timeout) {
        evs = bodies(g->on_timeout(rec.serial, d));
      } else {
        auto r = g->apply(rec.seat, rec.command, d);
        HARNESS_CHECK(r.ok(), "replay of step " << i << " rejected");
        evs = bodies(r.value());
      }
      HARNESS_CHECK(evs == rec.events, "replay of step " << i << " gave other events");
    }
    HARNESS_CHECK(g->full_state() == game_->full_state(), "replay ended in another state");
  }

  const game_info& info_;
  std::uint64_t seed_;
  seeded_dice pick_;  // the harness's own choices, apart from the game's dice
  seeded_dice dice_;
  json options_;
  json normalized_;
  setup setup_;
  std::unique_ptr<game> game_;
  std::vector<step_record> log_;
  std::vector<json> history_;
  std::vector<json> legal_;  // per seat, for the current step: commands()
  std::vector<json> wire_;   // per seat, for the current step: legal()
  json state_;               // full_state() at the start of the current step
  std::uint64_t last_serial_ = 0;
  int step_ = 0;
};

}  // namespace

// One section per game, so a failing game does not hide the others and one game can be run alone:
//   engine_tests "random play*" -c happy_holidays
TEST_CASE("random play: every builtin game keeps the engine contract", "[random_play]") {
  const auto games = builtin_games().all();
  REQUIRE_FALSE(games.empty());
  for (const game_info* info : games) {
    DYNAMIC_SECTION(info->id) {
      const auto it = option_variants().find(info->id);
      const std::vector<json> variants =
          it != option_variants().end() ? it->second : std::vector<json>{json::object()};
      long long total_steps = 0;
      std::uint64_t from = first_seed, count = static_cast<std::uint64_t>(games_for(info->id));
      if (const char* n = std::getenv("TINSEL_RANDOM_PLAY_GAMES")) count = std::strtoull(n, nullptr, 10);
      if (const char* one = std::getenv("TINSEL_RANDOM_PLAY_SEED"))
        from = std::strtoull(one, nullptr, 10), count = 1;
      for (std::uint64_t seed = from; seed < from + count; ++seed) {
        const json& options = variants[seed % variants.size()];
        CAPTURE(info->id, seed, options.dump());
        random_game g(*info, seed, options);
        g.play();
        total_steps += g.steps();
      }
      // Guards against a harness that silently stops playing.
      CHECK(total_steps > static_cast<long long>(count));
    }
  }
}
