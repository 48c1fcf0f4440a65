// Unterm Baum secrecy (rulebook 2.4): no view, legal list, event or error tells anyone a motif they
// may not know. Two checks over many seeded games: a search for motif names, and a "twin" game with
// shuffled motifs that must look identical to every viewer. A deliberately leaky game shows that
// both checks catch leaks.
#include "legal_domains.hpp"
#include "unterm_baum_common.hpp"

using namespace ub_test;

namespace {

const std::unordered_map<std::string, int>& motif_index() {
  static const auto index = [] {
    std::unordered_map<std::string, int> out;
    for (int i = 0; i < ub::catalogue_size; ++i) out.emplace(std::string(ub::motif_name(i)), i);
    return out;
  }();
  return index;
}

// Motif names in `text` (any JSON dump or message) that are not in `allowed`.
std::vector<std::string> leaked_names(const std::string& text, const std::set<std::string>& allowed) {
  std::vector<std::string> out;
  std::string word;
  const auto flush = [&] {
    if (!word.empty() && motif_index().count(word) && !allowed.count(word)) out.push_back(word);
    word.clear();
  };
  for (char ch : text) {
    if (std::isalnum(static_cast<unsigned char>(ch)) || ch == '_')
      word += ch;
    else
      flush();
  }
  flush();
  return out;
}

// What `seat` may know of motifs now (before the end): its own hand during ASSIGN and MEMORIZE.
std::set<std::string> allowed_names(const json& full, int seat) {
  std::set<std::string> out;
  const auto ph = full["phase"];
  if (seat >= 0 && (ph == "assign" || ph == "memorize"))
    for (int x : full["hands"][seat]) out.insert(std::string(ub::motif_name(x)));
  return out;
}

json permuted(const json& full, const std::vector<int>& pi) {
  json out = full;
  const auto map = [&](json& x) {
    if (x.get<int>() >= 0) x = pi[x.get<std::size_t>()];
  };
  for (auto& x : out["tree"]) map(x);
  for (const char* key : {"fields", "hands", "wishes"})
    for (auto& row : out[key])
      for (auto& x : row) map(x);
  for (auto& x : out["bag"]) map(x);
  return out;
}

// A random valid wish list from an assign domain, keeping the family choice of `like`.
json random_assign(const json& domain, const json& like, seeded_dice& rng) {
  std::vector<std::string> motifs = domain["motifs"].get<std::vector<std::string>>();
  const int rows = domain["rows"].get<int>(), cols = domain["slots"].get<int>();
  for (std::size_t i = motifs.size(); i > 1; --i)
    std::swap(motifs[i - 1], motifs[rng.roll(static_cast<std::uint32_t>(i))]);
  std::vector<std::vector<bool>> used(static_cast<std::size_t>(rows),
                                      std::vector<bool>(static_cast<std::size_t>(cols)));
  json wishes = json::array();
  for (std::size_t i = 0; i < motifs.size(); ++i) {
    // The first M cards make sure every row has one; a row can always take the rest (C = K − M + 1).
    int r = i < static_cast<std::size_t>(rows) ? static_cast<int>(i)
                                               : static_cast<int>(rng.roll(static_cast<std::uint32_t>(rows)));
    auto& row = used[static_cast<std::size_t>(r)];
    std::vector<int> free;
    for (int s = 0; s < cols; ++s)
      if (!row[static_cast<std::size_t>(s)]) free.push_back(s);
    const int s = free[rng.roll(static_cast<std::uint32_t>(free.size()))];
    row[static_cast<std::size_t>(s)] = true;
    wishes.push_back({{"motif", motifs[i]}, {"row", r}, {"slot", s}});
  }
  json cmd = {{"kind", "assign"}, {"wishes", wishes}};
  if (like.contains("family")) cmd["family"] = like["family"];
  return cmd;
}

// A random command for a seat: a concrete legal entry (now and then a move into the own field, so
// that fields fill up and end games), a draw from a domain (possibly an illegal same-area move), or
// a random location probe.
json random_command(const json& legal, int seat, seeded_dice& rng) {
  std::vector<json> concrete, domains, gather;
  for (const auto& e : legal) {
    (e.contains("domain") ? domains : concrete).push_back(e);
    if (e.contains("to") && e["to"].value("seat", -1) == seat) gather.push_back(e);
  }
  const auto roll = rng.roll(10);
  if (roll == 9 && !gather.empty()) return gather[rng.roll(static_cast<std::uint32_t>(gather.size()))];
  if (roll == 0)
    return reveal(rng.roll(2) ? tree(static_cast<int>(rng.roll(30)))
                              : at(static_cast<int>(rng.roll(3)), static_cast<int>(rng.roll(5)),
                                   static_cast<int>(rng.roll(6))));
  if (roll < 4 && !domains.empty()) {
    const json& e = domains[rng.roll(static_cast<std::uint32_t>(domains.size()))];
    const json& dom = e["domain"];
    if (e["kind"] == "assign") {
      json cmd = random_assign(dom, json::object(), rng);
      if (rng.roll(2))
        cmd["family"] = dom["families"][rng.roll(static_cast<std::uint32_t>(dom["families"].size()))];
      return cmd;
    }
    if (e["kind"] == "move") {
      const auto from = legal_domains::locations(dom["from"]), to = legal_domains::locations(dom["to"]);
      return move(from[rng.roll(static_cast<std::uint32_t>(from.size()))], to[rng.roll(static_cast<std::uint32_t>(to.size()))]);
    }
    if (e["kind"] == "reveal") {
      const auto at = legal_domains::locations(dom["locations"]);
      return reveal(at[rng.roll(static_cast<std::uint32_t>(at.size()))]);
    }
    if (e["kind"] == "rearrange") {  // a random permutation of the own cards onto random cells
      json occupied_cells = json::array();  // the domain's [row, slot] pairs as cells
      for (const auto& rs : dom["occupied"]) occupied_cells.push_back(cell(rs[0].get<int>(), rs[1].get<int>()));
      std::vector<json> cells;
      for (int r = 0; r < dom["rows"].get<int>(); ++r)
        for (int s = 0; s < dom["slots"].get<int>(); ++s) cells.push_back(cell(r, s));
      std::vector<std::pair<json, json>> moves;
      for (const auto& from : occupied_cells) {
        if (rng.roll(2)) continue;
        moves.emplace_back(from, nullptr);
      }
      if (moves.empty()) moves.emplace_back(occupied_cells[0], nullptr);
      // Targets: empty cells or cells vacated by this mapping.
      std::vector<json> targets;
      for (const auto& c : cells) {
        const bool occupied =
            std::find(occupied_cells.begin(), occupied_cells.end(), c) != occupied_cells.end();
        const bool vacated =
            std::any_of(moves.begin(), moves.end(), [&](const auto& mv) { return mv.first == c; });
        if (!occupied || vacated) targets.push_back(c);
      }
      for (auto& mv : moves) {
        const auto k = rng.roll(static_cast<std::uint32_t>(targets.size()));
        mv.second = targets[k];
        targets.erase(targets.begin() + static_cast<std::ptrdiff_t>(k));
      }
      return rearrange(moves);
    }
  }
  return concrete[rng.roll(static_cast<std::uint32_t>(concrete.size()))];
}

json without_wish_list(json v) {
  v.erase("wish_list");
  return v;
}

// Replaces the motif of `revealed` events by a placeholder, after checking it is the card there
// (`full`: the game's full_state after the events).
json redacted_events(const events& evs, viewer v, const json& full, std::vector<std::string>& problems) {
  json out = json::array();
  for (const auto& e : evs) {
    if (!e.visible_to(v)) continue;
    json body = e.body;
    if (body["kind"] == "revealed") {
      const json& l = body["location"];
      const auto cols = full["fields"][0].size() / full["options"]["familySize"].get<std::size_t>();
      const int truth = l.contains("tree")
                            ? full["tree"][l["tree"].get<std::size_t>()].get<int>()
                            : full["fields"][l["seat"].get<std::size_t>()]
                                  [l["row"].get<std::size_t>() * cols + l["slot"].get<std::size_t>()]
                                      .get<int>();
      if (body["motif"] != ub::motif_name(truth)) problems.push_back("revealed motif is not the card there");
      body["motif"] = "?";
    }
    if (body["kind"] == "game_over") body["winners"] = "?";  // the twin's hidden cards score otherwise
    out.push_back(std::move(body));
  }
  return out;
}

// The name search over everything `v` receives after a step with events `evs`; returns problems.
std::vector<std::string> name_leaks(const game& g, viewer v, const events& evs) {
  std::vector<std::string> problems;
  const auto allowed = allowed_names(g.full_state(), v.seat);
  const auto report = [&](const std::string& where, const std::string& text,
                          const std::set<std::string>& ok) {
    for (const auto& n : leaked_names(text, ok))
      problems.push_back(where + " leaks " + n + ": " + text.substr(0, 300));
  };
  if (!g.is_over()) {
    report("view", g.view(v).dump(), allowed);
    if (!v.is_spectator()) report("legal", g.legal(v.seat).dump(), allowed);
  }
  for (const auto& e : evs) {
    if (!e.visible_to(v) || e.body["kind"] == "game_over") continue;  // the end opens everything
    std::set<std::string> ok;
    if (e.body["kind"] == "revealed") ok.insert(e.body["motif"].get<std::string>());
    report("event", e.body.dump(), ok);
    // Told again (a catch-up, the game log), an event names no motif at all (A12).
    report("retold event", e.retold_body().dump(), {});
  }
  return problems;
}

struct lockstep {
  std::unique_ptr<game> g, twin;
  std::vector<int> pi;
  int players = 0;
};

std::vector<std::string> compare(const lockstep& ls, const events& ge, const events& te) {
  std::vector<std::string> problems;
  const auto gp = ls.g->current_prompt(), tp = ls.twin->current_prompt();
  if (gp.has_value() != tp.has_value() ||
      (gp && (gp->kind != tp->kind || gp->seats != tp->seats || gp->timeout_ms != tp->timeout_ms ||
              gp->serial != tp->serial)))
    problems.push_back("prompts differ");
  const json gfull = ls.g->full_state(), tfull = ls.twin->full_state();
  const json spectator = ls.g->view(viewer::spectator());
  const bool over = ls.g->is_over();
  for (int s = -1; s < ls.players; ++s) {
    const viewer v{s};
    if (redacted_events(ge, v, gfull, problems) != redacted_events(te, v, tfull, problems))
      problems.push_back("events differ for " + std::to_string(s));
    if (over) continue;
    const json gv = s < 0 ? spectator : ls.g->view(v);
    if (without_wish_list(gv) != without_wish_list(ls.twin->view(v)))
      problems.push_back("views differ for " + std::to_string(s));
    if (s >= 0 && gv["phase"] != "assign" && ls.g->legal(s) != ls.twin->legal(s))
      problems.push_back("legal lists differ for " + std::to_string(s));
    if (s >= 0 && gv["phase"] == "play" && gv != spectator)
      problems.push_back("a seat sees more than a spectator during play");
  }
  // Revealed motifs differ exactly by the permutation.
  for (std::size_t i = 0; i < ge.size() && i < te.size(); ++i)
    if (ge[i].body["kind"] == "revealed" &&
        te[i].body["motif"] !=
            ub::motif_name(
                ls.pi[static_cast<std::size_t>(motif_index().at(ge[i].body["motif"].get<std::string>()))]))
      problems.push_back("the twin revealed another card");
  return problems;
}

}  // namespace

// A deliberately leaky game for the checkers' self-test: it plays the real game and adds one hidden
// fact (chosen by `leak`) to every view and, as an extra event, to every accepted command.
class leaky_game final : public game {
 public:
  using leak_fn = std::function<json(const game&)>;
  leaky_game(std::unique_ptr<game> inner, leak_fn leak) : inner_(std::move(inner)), leak_(std::move(leak)) {}
  std::unique_ptr<game> clone() const override {
    return std::make_unique<leaky_game>(inner_->clone(), leak_);
  }
  int players() const override { return inner_->players(); }
  json legal(int seat) const override { return inner_->legal(seat); }
  outcome<events> apply(int seat, const json& command, dice& d) override {
    auto r = inner_->apply(seat, command, d);
    if (r.ok()) r.value().push_back(event::public_event({{"kind", "debug"}, {"hint", leak_(*inner_)}}));
    return r;
  }
  json view(viewer v) const override {
    json out = inner_->view(v);
    out["debug"] = leak_(*inner_);
    return out;
  }
  std::optional<prompt> current_prompt() const override { return inner_->current_prompt(); }
  events on_timeout(std::uint64_t serial, dice& d) override { return inner_->on_timeout(serial, d); }
  bool is_over() const override { return inner_->is_over(); }
  json result() const override { return inner_->result(); }
  json full_state() const override { return inner_->full_state(); }

 private:
  std::unique_ptr<game> inner_;
  leak_fn leak_;
};

TEST_CASE("UB secrecy checker: the name search and the twin comparison catch deliberate leaks",
          "[unterm_baum][secrecy]") {
  table t;
  // During ASSIGN Alice may see her own cards, Bob may not.
  const json hand_view = t.v(viewer::player(A));
  CHECK(leaked_names(hand_view.dump(), allowed_names(t.st(), A)).empty());
  CHECK(leaked_names(hand_view.dump(), allowed_names(t.st(), B)).size() == 8);
  CHECK(leaked_names("{\"message\":\"the " + m(4) + " moved\"}", {}) == std::vector<std::string>{m(4)});
  t.to_play();
  // After MEMORIZE even the owner's own wishes are forbidden.
  CHECK(leaked_names(json{{"wish", m(1)}}.dump(), allowed_names(t.st(), A)) ==
        std::vector<std::string>{m(1)});

  const auto lockstep_of = [&](const leaky_game::leak_fn& leak) {
    lockstep ls;
    ls.players = 2;
    for (int i = 23; i >= 0; --i) ls.pi.push_back(i);
    ls.g = std::make_unique<leaky_game>(t.g->clone(), leak);
    ls.twin = std::make_unique<leaky_game>(std::move(ub::restore(permuted(t.g->full_state(), ls.pi)).value()),
                                           leak);
    return ls;
  };
  const auto step = [](lockstep& ls, const json& cmd, events& ge, events& te) {
    scripted_dice d;
    ge = ls.g->apply(A, cmd, d).value();
    te = ls.twin->apply(A, cmd, d).value();
  };
  events ge, te;

  // The honest game passes both checks.
  auto honest = lockstep_of([](const game&) { return json(nullptr); });
  step(honest, move(tree(0), at(A, 0, 0)), ge, te);
  CHECK(name_leaks(*honest.g, viewer::spectator(), ge).empty());
  CHECK(compare(honest, ge, te).empty());

  // A motif name in a view or an event: the name search finds it.
  auto by_name =
      lockstep_of([](const game& g) { return ub::motif_name(g.full_state()["tree"][5].get<int>()); });
  step(by_name, move(tree(0), at(A, 0, 0)), ge, te);
  for (int s = -1; s < 2; ++s) CHECK(name_leaks(*by_name.g, viewer{s}, ge).size() == 3);  // view, event, retold event
  CHECK_FALSE(compare(by_name, ge, te).empty());

  // A bare motif index carries no name; the twin comparison finds it.
  auto by_index = lockstep_of([](const game& g) { return g.full_state()["tree"][5]; });
  step(by_index, move(tree(0), at(A, 0, 0)), ge, te);
  CHECK(name_leaks(*by_index.g, viewer::spectator(), ge).empty());
  const auto problems = compare(by_index, ge, te);
  CHECK(std::find(problems.begin(), problems.end(), "views differ for -1") != problems.end());
  CHECK(std::find(problems.begin(), problems.end(), "events differ for 1") != problems.end());

  // The layout of a wish list is hidden too. A leak of "Alice wished something at (0,1)" is the same
  // in a merely permuted twin; the random games' twins write other layouts, which expose it.
  const auto layout = [](const game& g) { return g.full_state()["wishes"][0][1] != -1; };
  auto by_layout = lockstep_of(layout);
  CHECK(compare(by_layout, {}, {}).empty());
  json other = by_layout.twin->full_state();
  std::swap(other["wishes"][0][1], other["wishes"][0][4]);  // m02 from (0,1) to (0,4)
  by_layout.twin = std::make_unique<leaky_game>(std::move(ub::restore(other).value()), layout);
  CHECK_FALSE(compare(by_layout, {}, {}).empty());
}

TEST_CASE("UB secrecy (2.4): no view, legal list, event or error tells anyone a motif they may not know",
          "[unterm_baum][secrecy]") {
  const std::vector<json> variants = {
      {{"maxPlayers", 3}, {"maxRounds", 6}, {"decoys", 2}},
      {{"maxPlayers", 4}, {"maxRounds", 3}, {"actionsMode", "anyTwo"}, {"familySize", 3}},
      {{"maxPlayers", 2}, {"maxRounds", 15}, {"decoys", 0}, {"positionMode", "ordinal"}},
      {{"maxPlayers", 6}, {"maxRounds", 2}, {"cardsToRemember", 12}, {"familySize", 5}},
  };
  // About 60 ms a game in an optimized build, ten times that unoptimized.
#ifdef NDEBUG
  constexpr int seeds = 60;
#else
  constexpr int seeds = 12;
#endif
  int games = 0, reveals = 0, completed = 0;
  for (std::uint64_t seed = 1; seed <= seeds; ++seed) {
    const json& options = variants[seed % variants.size()];
    seeded_dice rng(seed * 7919 + 3), d(seed), td(seed);
    const int max = options["maxPlayers"].get<int>();
    lockstep ls;
    ls.players = 2 + static_cast<int>(rng.roll(static_cast<std::uint32_t>(max - 1)));
    auto created = ub::info().create(setup{options, ls.players, std::nullopt}, d);
    REQUIRE(created.ok());
    ls.g = std::move(created.value());
    const int motifs = ls.g->view(viewer::spectator())["motif_count"].get<int>();
    for (int i = 0; i < motifs; ++i) ls.pi.push_back(i);
    for (int i = motifs; i > 1; --i)
      std::swap(ls.pi[static_cast<std::size_t>(i - 1)], ls.pi[rng.roll(static_cast<std::uint32_t>(i))]);
    ls.twin = std::move(ub::restore(permuted(ls.g->full_state(), ls.pi)).value());
    ++games;
    for (int step = 0; step < 2000 && !ls.g->is_over(); ++step) {
      CAPTURE(seed, step, options.dump());
      const auto p = ls.g->current_prompt();
      events ge, te;
      if (p->seats.empty() || rng.roll(15) == 0) {
        ge = ls.g->on_timeout(p->serial, d);
        te = ls.twin->on_timeout(p->serial, td);
      } else {
        const int seat = rng.roll(8) == 0 ? static_cast<int>(rng.roll(static_cast<std::uint32_t>(ls.players)))
                                          : p->seats[rng.roll(static_cast<std::uint32_t>(p->seats.size()))];
        const json cmd = random_command(
            ls.g->legal(seat).empty() ? json::array({end_turn()}) : ls.g->legal(seat), seat, rng);
        json twin_cmd = cmd;
        const json twin_legal = ls.twin->legal(seat);
        if (cmd["kind"] == "assign" && !twin_legal.empty())  // the twin writes another, valid wish list
          twin_cmd = random_assign(twin_legal[1]["domain"], cmd, rng);
        auto gr = ls.g->apply(seat, cmd, d);
        auto tr = ls.twin->apply(seat, twin_cmd, td);
        REQUIRE(gr.ok() == tr.ok());
        if (!gr.ok()) {
          if (cmd["kind"] != "assign") {
            CHECK(gr.error().code == tr.error().code);
            CHECK(gr.error().message == tr.error().message);
            CHECK(leaked_names(gr.error().message, allowed_names(ls.g->full_state(), seat)).empty());
          }
          continue;
        }
        ge = std::move(gr.value());
        te = std::move(tr.value());
      }
      for (const auto& e : ge) reveals += e.body["kind"] == "revealed";
      for (int s = -1; s < ls.players; ++s) {
        const auto problems = name_leaks(*ls.g, viewer{s}, ge);
        INFO(s << ": " << (problems.empty() ? "" : problems.front()));
        CHECK(problems.empty());
      }
      const auto problems = compare(ls, ge, te);
      INFO((problems.empty() ? "" : problems.front()));
      REQUIRE(problems.empty());
    }
    REQUIRE(ls.g->is_over());
    REQUIRE(ls.twin->is_over());
    completed += ls.g->result()["reason"] == "field_complete";
  }
  CHECK(games == seeds);
  CHECK(reveals > 2 * seeds);  // the check saw plenty of reveals
  CHECK(completed > 0);        // and some games that ended by a full field
}
