// Unterm Baum: catalogue, options, setup, full state and restore. The phase machine is in
// ub_rules.cpp, views and scoring in ub_view.cpp.
#include "unterm_baum/unterm_baum.hpp"

#include <algorithm>
#include <exception>

#include "unterm_baum/ub_game.hpp"

namespace tinsel::engine::unterm_baum {

namespace {

// The motif catalogue (A2: public). The names are the wire identifiers of the motifs, so each is a
// distinct snake_case word that no other field of a view or event ever uses: a leak test can search
// serialized JSON for them.
// clang-format off
constexpr std::array<const char*, catalogue_size> motif_names = {
    "teddy_bear",       "rocking_horse",    "toy_train",        "jigsaw_puzzle",    "snow_globe",
    "woolly_scarf",     "knitted_gloves",   "bobble_hat",       "board_game",       "kite",
    "yo_yo",            "spinning_top",     "skateboard",       "roller_skates",    "ice_skates",
    "sledge",           "skis",             "football",         "basketball",       "tennis_racket",
    "fishing_rod",      "telescope",        "microscope",       "chemistry_set",    "paint_box",
    "crayons",          "sketchbook",       "diary",            "storybook",        "comic_book",
    "cookbook",         "atlas",            "globe",            "alarm_clock",      "wristwatch",
    "camera",           "headphones",       "radio",            "record_player",    "guitar",
    "violin",           "flute",            "drum_kit",         "harmonica",        "xylophone",
    "music_box",        "doll_house",       "rag_doll",         "puppet",           "toy_robot",
    "racing_car",       "fire_engine",      "toy_plane",        "sailing_ship",     "building_blocks",
    "marbles",          "playing_cards",    "dominoes",         "chess_set",        "magic_kit",
    "kaleidoscope",     "bubble_wand",      "water_pistol",     "beach_ball",       "umbrella",
    "raincoat",         "wellies",          "slippers",         "dressing_gown",    "pyjamas",
    "woolly_socks",     "jumper",           "cardigan",         "necktie",          "handbag",
    "wallet",           "backpack",         "suitcase",         "sunglasses",       "perfume",
    "bath_salts",       "soap_set",         "hairbrush",        "hand_mirror",      "necklace",
    "bracelet",         "earrings",         "silver_ring",      "brooch",           "hair_clip",
    "scented_candle",   "lantern",          "fairy_lights",     "flower_vase",      "teapot",
    "mug",              "tea_set",          "coffee_grinder",   "waffle_iron",      "cake_tin",
    "gingerbread",      "marzipan",         "chocolates",       "stollen",          "candy_cane",
    "honey_jar",        "jam_jar",          "fruit_basket",     "nutcracker",       "cuckoo_clock",
    "plant_pot",        "bonsai",           "bird_feeder",      "watering_can",     "garden_gnome",
    "toolbox",          "claw_hammer",      "screwdriver_set",  "torch",            "pocket_knife",
    "compass",          "binoculars",       "thermos_flask",    "picnic_blanket",   "hammock",
    "tent",             "sleeping_bag",     "bicycle",          "bike_bell",        "helmet",
    "scooter",          "snowboard",        "hockey_stick",     "goldfish_bowl",    "hamster_cage",
    "dog_lead",         "cat_toy",          "cushion",          "quilt",            "hot_water_bottle",
    "earmuffs",         "mittens",          "beanie",           "fountain_pen",     "pencil_case",
    "calculator",       "tablet_computer",  "game_console",     "walkie_talkies",   "remote_car",
    "train_ticket",     "theatre_tickets",  "cinema_voucher",   "spa_voucher",      "photo_album",
    "picture_frame",    "wall_calendar",    "poster",           "origami_paper",    "gift_voucher",
};
// clang-format on

}  // namespace

std::string_view motif_name(int motif) { return motif_names.at(static_cast<std::size_t>(motif)); }

namespace detail {

namespace {
constexpr std::array<family_sheet, family_count> family_sheets = {{
    {"mueller", {"Oma Erna", "Opa Karl", "Anna", "Jonas", "Mia"}},
    {"schmidt", {"Grandma Rose", "Grandpa Bill", "Sarah", "Tom", "Lily"}},
    {"schneider", {"Nonna Lucia", "Marco", "Giulia", "Luca", "Sofia"}},
    {"fischer", {"Mormor Ingrid", "Lars", "Karin", "Erik", "Elsa"}},
    {"weber", {"Mamie Jeanne", "Pierre", "Claire", "Hugo", "Chloe"}},
    {"meyer", {"Babcia Zofia", "Piotr", "Ewa", "Kuba", "Ola"}},
    {"wagner", {"Abuela Carmen", "Javier", "Lucia", "Pablo", "Ines"}},
    {"becker", {"Oma Trudi", "Vati Horst", "Mutti Gabi", "Tim", "Lea"}},
}};
constexpr std::array<const char*, 4> phase_names = {"assign", "memorize", "play", "over"};
}  // namespace

const family_sheet& family(int index) { return family_sheets.at(static_cast<std::size_t>(index)); }

std::optional<int> family_from_id(std::string_view id) {
  for (int f = 0; f < family_count; ++f)
    if (id == family_sheets[static_cast<std::size_t>(f)].id) return f;
  return std::nullopt;
}

const char* phase_name(phase p) { return phase_names.at(static_cast<std::size_t>(p)); }

std::optional<phase> phase_from_name(std::string_view name) {
  for (std::size_t i = 0; i < phase_names.size(); ++i)
    if (name == phase_names[i]) return static_cast<phase>(i);
  return std::nullopt;
}

json ub_game::full_state() const {
  json f = json::object();
  f["game"] = "unterm_baum";
  f["options"] = s_.cfg.options;
  // rearrangesPerTurn came after games were journaled: a journal keeps a hash of this state every
  // 32 commands and checks it on restore, so the option stays out while it has its default, and
  // the state of a default game (also one whose stored options lack it) hashes as before.
  // restore() fills the default in again.
  if (f["options"].value("rearrangesPerTurn", 0) == detail::default_rearranges_per_turn)
    f["options"].erase("rearrangesPerTurn");
  f["players"] = s_.cfg.players;
  f["phase"] = phase_name(s_.ph);
  f["start_seat"] = s_.start_seat;
  f["active"] = s_.active;
  f["turn"] = s_.turn;
  f["reveals_used"] = s_.reveals_used;
  f["moves_used"] = s_.moves_used;
  f["tree"] = s_.tree;
  f["fields"] = s_.fields;
  f["hands"] = s_.hands;
  f["wishes"] = s_.wishes;
  json assigned = json::array();
  for (bool a : s_.assigned) assigned.push_back(a);
  f["assigned"] = std::move(assigned);
  f["families"] = s_.families;
  f["bag"] = s_.bag;
  f["serial"] = s_.serial;
  f["end_reason"] = s_.end_reason;
  f["ended_by"] = s_.ended_by;
  return f;
}

}  // namespace detail

// ---- options ------------------------------------------------------------------------------

namespace {

using detail::config;

using kind = option_spec::kind;

// The options of Unterm Baum (docs/rules/unterm-baum.md, "Options").
const option_specs& declared_options() {
  static const option_specs specs = {
      {.key = "maxPlayers", .fallback = detail::max_players, .min = 2, .max = detail::max_players,
       .seats = option_spec::seat_bound::max_players,
       .about = "Seats the room offers; the game needs at least 2 players"},
      start_player_option("Who begins: chosen at random, or by the host (start_game then needs first_seat)"),
      // A6: the four agreed levels of R5.
      {.key = "cardsToRemember", .type = kind::choice, .fallback = 8, .choices = {8, 12, 16, 20},
       .bad_value = "must be 8, 12, 16 or 20", .about = "K, the motifs each player wishes"},
      {.key = "familySize", .fallback = 4, .min = 3, .max = 5, .about = "M, the rows (family members) per sheet"},
      {.key = "decoys", .fallback = "auto", .min = 0, .max = 40, .also = {"auto"},
       .about = "Motifs nobody wishes; \"auto\" is K"},
      {.key = "actionsMode", .type = kind::choice, .fallback = "oneEach", .choices = {"oneEach", "anyTwo"},
       .about = "\"oneEach\": at most one reveal and one move per turn; \"anyTwo\": any two actions"},
      {.key = "positionMode", .type = kind::choice, .fallback = "slot", .choices = {"slot", "ordinal"},
       .about = "How a wish's position matches: the slot index, or the k-th occupied slot of the row"},
      {.key = "tieBreak", .type = kind::choice, .fallback = "shared", .choices = {"shared", "exactThenRow"},
       .about = "\"shared\": all tied players win; \"exactThenRow\": the most 4-point cards, then the most "
                "3-point cards"},
      {.key = "maxRounds", .fallback = "auto", .min = 1, .max = 1000, .also = {"auto"},
       .about = "The round cap (C8); \"auto\" is 5 × K"},
      {.key = "assignSeconds", .fallback = 90, .min = 1, .max = 3600, .also = {"off"}, .unit = "seconds",
       .about = "Timer of ASSIGN (D3 on expiry)"},
      // MEMORIZE waits for nobody, so it cannot be switched off: it would never end.
      {.key = "memorizeSeconds", .fallback = 30, .min = 1, .max = 600, .unit = "seconds",
       .about = "How long MEMORIZE lasts; never off, as nobody answers it"},
      {.key = "revealSeconds", .fallback = 4, .min = 1, .max = 60, .unit = "seconds",
       .about = "How long clients show a revealed card; the game does not pause"},
      {.key = "mainTimeoutSec", .fallback = 90, .min = 1, .max = 3600, .also = {"off"}, .unit = "seconds",
       .about = "Timer of a turn (D8 on expiry)"},
      // A14. At least 1 (0 would be a rule the rulebook does not have); 100 keeps a turn's record
      // bounded. full_state() leaves it out while it has its default.
      {.key = "rearrangesPerTurn", .fallback = detail::default_rearranges_per_turn, .min = 1, .max = 100,
       .about = "Rearrangements of one's own field a turn allows (A14)"},
  };
  return specs;
}

outcome<config> make_config(const json& options, int players) {
  auto norm = normalize_options(declared_options(), options);
  if (!norm) return norm.error();
  const json& o = norm.value();
  if (players < 2 || players > o["maxPlayers"].get<int>())
    return make_error("invalid_player_count", "Unterm Baum needs 2 to " +
                                                  std::to_string(o["maxPlayers"].get<int>()) +
                                                  " players, not " + std::to_string(players));
  config c;
  c.options = o;
  c.players = players;
  c.k = o["cardsToRemember"].get<int>();
  c.m = o["familySize"].get<int>();
  c.c = c.k - c.m + 1;  // A3: room for any legal distribution
  const int decoys = o["decoys"] == "auto" ? c.k : o["decoys"].get<int>();
  c.motifs = players * c.k + decoys;  // A2; at most 6·20 + 40 = catalogue_size
  c.host_picks = o["startPlayer"] == "host-picks";
  c.any_two = o["actionsMode"] == "anyTwo";
  c.ordinal = o["positionMode"] == "ordinal";
  c.exact_then_row = o["tieBreak"] == "exactThenRow";
  c.max_rounds = o["maxRounds"] == "auto" ? 5 * c.k : o["maxRounds"].get<int>();
  c.assign_ms = timer_ms(o["assignSeconds"]);
  c.memorize_ms = o["memorizeSeconds"].get<int>() * 1000;
  c.reveal_ms = o["revealSeconds"].get<int>() * 1000;
  c.turn_ms = timer_ms(o["mainTimeoutSec"]);
  c.rearranges_per_turn = o["rearrangesPerTurn"].get<int>();
  return c;
}

outcome<std::unique_ptr<game>> create(const setup& su, dice& d) {
  auto cfg = make_config(su.options, su.players);
  if (!cfg) return cfg.error();
  const int n = su.players;
  // Everything is validated before the dice move, so a rejected create leaves them untouched.
  // Draw order (tests script it): start seat, then each seat's K green cards, then the tree shuffle.
  auto first = first_seat(su, cfg.value().host_picks, "seat", d);
  if (!first) return first.error();
  detail::state s;
  s.cfg = std::move(cfg.value());
  const int motifs = s.cfg.motifs;
  s.start_seat = first.value();
  s.active = s.start_seat;
  // A2: each seat draws K green cards without replacement; the rest stay in the bag.
  for (int m = 0; m < motifs; ++m) s.bag.push_back(m);
  const auto un = static_cast<std::size_t>(n);
  s.hands.assign(un, {});
  for (auto& hand : s.hands)
    for (int i = 0; i < s.cfg.k; ++i) {
      const auto pick = d.roll(static_cast<std::uint32_t>(s.bag.size()));
      hand.push_back(s.bag[pick]);
      s.bag.erase(s.bag.begin() + static_cast<std::ptrdiff_t>(pick));
    }
  // A22: the grey cards are shuffled onto the tree slots (Fisher–Yates; all zeros = identity).
  for (int m = 0; m < motifs; ++m) s.tree.push_back(m);
  for (int i = 0; i + 1 < motifs; ++i) {
    const int j = i + static_cast<int>(d.roll(static_cast<std::uint32_t>(motifs - i)));
    std::swap(s.tree[static_cast<std::size_t>(i)], s.tree[static_cast<std::size_t>(j)]);
  }
  const auto grid = static_cast<std::size_t>(s.cfg.grid());
  s.fields.assign(un, std::vector<int>(grid, detail::empty));
  s.wishes.assign(un, std::vector<int>(grid, detail::empty));
  s.assigned.assign(un, false);
  s.families.assign(un, detail::empty);
  return std::unique_ptr<game>(std::make_unique<detail::ub_game>(std::move(s)));
}

// ---- restore ------------------------------------------------------------------------------

outcome<std::unique_ptr<game>> restore_impl(const json& j) {
  const auto bad = [](const std::string& what) { return make_error("invalid_state", what); };
  if (!j.is_object() || j.value("game", "") != "unterm_baum") return bad("not an Unterm Baum state");
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
  s.reveals_used = j.at("reveals_used").get<int>();
  s.moves_used = j.at("moves_used").get<int>();
  s.tree = j.at("tree").get<std::vector<int>>();
  s.fields = j.at("fields").get<std::vector<std::vector<int>>>();
  s.hands = j.at("hands").get<std::vector<std::vector<int>>>();
  s.wishes = j.at("wishes").get<std::vector<std::vector<int>>>();
  s.assigned = j.at("assigned").get<std::vector<bool>>();
  s.families = j.at("families").get<std::vector<int>>();
  s.bag = j.at("bag").get<std::vector<int>>();
  s.serial = j.at("serial").get<std::uint64_t>();
  s.end_reason = j.at("end_reason").get<std::string>();
  s.ended_by = j.at("ended_by").get<int>();

  const int motifs = s.cfg.motifs;
  const auto grid = static_cast<std::size_t>(s.cfg.grid());
  const auto seat_ok = [&](int p) { return p >= 0 && p < n; };
  if (!seat_ok(s.start_seat) || !seat_ok(s.active) || s.turn < 1 || s.reveals_used < 0 || s.moves_used < 0)
    return bad("seat or counter out of range");
  if (s.fields.size() != un || s.hands.size() != un || s.wishes.size() != un || s.assigned.size() != un ||
      s.families.size() != un)
    return bad("per-seat arrays must have one entry per player");
  if (s.tree.size() != static_cast<std::size_t>(motifs)) return bad("the tree must have one slot per motif");
  // Every grey card lies exactly once on the tree or in a field; every green card is in exactly one
  // hand or the bag, and wishes are a placement of the owner's hand.
  std::vector<int> grey(static_cast<std::size_t>(motifs), 0), green(static_cast<std::size_t>(motifs), 0);
  const auto count = [&](std::vector<int>& seen, int m) {
    if (m == detail::empty) return true;
    if (m < 0 || m >= motifs) return false;
    ++seen[static_cast<std::size_t>(m)];
    return true;
  };
  for (int m : s.tree)
    if (!count(grey, m)) return bad("unknown motif on the tree");
  for (std::size_t p = 0; p < un; ++p) {
    if (s.fields[p].size() != grid || s.wishes[p].size() != grid)
      return bad("a field or wish grid has the wrong size");
    if (s.hands[p].size() != static_cast<std::size_t>(s.cfg.k)) return bad("a hand must hold K cards");
    for (int m : s.fields[p])
      if (!count(grey, m)) return bad("unknown motif in a field");
    for (int m : s.hands[p])
      if (m == detail::empty || !count(green, m)) return bad("unknown motif in a hand");
    std::vector<int> placed;
    for (int m : s.wishes[p])
      if (m != detail::empty) placed.push_back(m);
    auto hand = s.hands[p];
    std::sort(placed.begin(), placed.end());
    std::sort(hand.begin(), hand.end());
    if (s.assigned[p] ? placed != hand : !placed.empty()) return bad("wishes must place exactly the hand");
    const int f = s.families[p];
    if (f != detail::empty && (f < 0 || f >= detail::family_count)) return bad("unknown family");
    if (f != detail::empty && std::count(s.families.begin(), s.families.end(), f) > 1)
      return bad("a family sheet is taken twice");
  }
  for (int m : s.bag)
    if (m == detail::empty || !count(green, m)) return bad("unknown motif in the bag");
  if (std::any_of(grey.begin(), grey.end(), [](int c) { return c != 1; }) ||
      std::any_of(green.begin(), green.end(), [](int c) { return c != 1; }))
    return bad("every motif must exist exactly once as a grey and once as a green card");
  const bool all_assigned = std::all_of(s.assigned.begin(), s.assigned.end(), [](bool a) { return a; });
  if (s.ph != detail::phase::assign && !all_assigned) return bad("only ASSIGN may have unassigned seats");
  for (std::size_t p = 0; p < un; ++p) {
    int cards = 0;
    for (int m : s.fields[p]) cards += m != detail::empty;
    if (cards > s.cfg.k) return bad("a field holds more than K cards");
    if (cards == s.cfg.k && s.ph != detail::phase::over) return bad("a full field must have ended the game");
  }
  return std::unique_ptr<game>(std::make_unique<detail::ub_game>(std::move(s)));
}

}  // namespace

game_info info() {
  game_info g;
  g.id = "unterm_baum";
  g.title = "Unterm Baum";
  g.options = declared_options();
  g.create = create;
  return g;
}

outcome<std::unique_ptr<game>> restore(const json& full_state) { return guarded_restore(restore_impl, full_state); }

}  // namespace tinsel::engine::unterm_baum
