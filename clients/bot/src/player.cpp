#include "player.hpp"

#include <algorithm>
#include <cctype>
#include <iostream>
#include <utility>
#include <random>

namespace tinsel_bot {

namespace {

// Refusals that are races, not mistakes: another seat acted first, a timer fired, someone else
// stopped the game. The next state tells what to do.
bool benign_refusal(const std::string& code) {
  static const std::vector<std::string> codes{"not_your_turn",        "wrong_phase",         "stop_already_claimed",
                                              "stop_already_queued",  "stop_reclaim_blocked", "game_stopped",
                                              "not_claimant",         "no_stop_claimed",      "not_queued",
                                              "game_over",            "game_not_started",     "no_usable_stone",
                                              "family_taken"};  // Unterm Baum: two default wish lists named one sheet
  return std::find(codes.begin(), codes.end(), code) != codes.end();
}

std::string compact(const json& v) { return v.is_string() ? v.get<std::string>() : v.dump(); }

// A room_moved's `ws` is used only if it is a path on this server: "/…", not "//host…".
bool is_local_path(const std::string& p) { return p.size() > 1 && p[0] == '/' && p[1] != '/'; }

// room_moved hops followed in a row at most; a join answered ok starts the count again.
constexpr int max_hops = 5;

// A code as typed (k7m-2qx) as the server writes it (K7M2QX), for the URL; empty if it cannot be
// a room code (the join then gets the server's unknown_room).
std::string room_input(const std::string& typed) {
  static const std::string alphabet = "23456789ABCDEFGHJKMNPQRSTUVWXYZ";
  std::string code;
  for (char c : typed) {
    if (c == ' ' || c == '-') continue;
    c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    if (alphabet.find(c) == std::string::npos) return {};
    code += c;
  }
  return code.size() == 6 ? code : std::string();
}

}  // namespace

player::player(event_loop& loop, settings s, ws_url url)
    : loop_(loop),
      s_(std::move(s)),
      url_(std::move(url)),
      chooser_(s_.seed, s_.stop_chance),
      rng_(s_.seed ^ 0x9e3779b97f4a7c15ULL),
      reconnects_left_(s_.reconnect_attempts) {}

player::~player() = default;

void player::start() {
  log("seed " + std::to_string(s_.seed) + ", connecting to ws://" + url_.host + ":" + url_.port + url_.path);
  connect();
}

std::string player::next_path() {
  if (!hop_path_.empty()) return std::exchange(hop_path_, std::string());
  const std::string room = !room_code_.empty() ? room_code_ : s_.join_code ? room_input(*s_.join_code) : std::string();
  if (room.empty()) return url_.path;
  return url_.path + (url_.path.find('?') == std::string::npos ? "?room=" : "&room=") + room;
}

void player::connect() {
  connected_ = false;
  moved_ = false;
  moved_path_.clear();
  moved_wait_ms_ = -1;
  ws_url target = url_;
  target.path = next_path();
  if (s_.verbose) log("connecting to ws://" + target.host + ":" + target.port + target.path);
  conn_ = std::make_unique<ws_connection>(
      loop_, target,
      connection_callbacks{[this] { on_open(); }, [this](std::string text) { on_message(text); },
                           [this](const close_info& info) { on_closed(info); }});
}

// ---- connection events -------------------------------------------------------------------------

void player::on_open() {
  connected_ = true;
  pending_.clear();
  action_in_flight_ = false;
  start_in_flight_ = false;
  json hello{{"type", "hello"}, {"protocol", 1}, {"name", s_.name}};
  if (!token_.empty()) hello["token"] = token_;  // resume the same player after a lost connection
  request(std::move(hello), "hello");
}

void player::on_closed(const close_info& info) {
  connected_ = false;
  ++think_generation_;
  if (done_) return stop_loop();
  std::string why = info.code != 0 ? "closed by the server (code " + std::to_string(info.code) +
                                         (info.reason.empty() ? "" : ", " + info.reason) + ")"
                                   : info.error.empty() ? "connection closed" : info.error;
  if (info.code == 4001) return finish(1, "another connection resumed this player: " + why);
  if ((moved_ || info.code == 4002) && hops_ < max_hops) {
    // The room is served by another instance: go there after a short random pause, doubling with
    // every hop (so that the clients of a drained instance do not all arrive at once); when the
    // owner stopped answering, once its lease has run out (retry_after_ms) and a moment more.
    ++hops_;
    hop_path_ = is_local_path(moved_path_) ? moved_path_ : std::string();  // empty: /ws?room=CODE
    static std::mt19937 jitter{std::random_device{}()};  // not the seeded rng_: the game's choices stay as seeded
    const int delay = moved_wait_ms_ >= 0 ? moved_wait_ms_ + std::uniform_int_distribution<int>(0, 100)(jitter)
                                          : std::uniform_int_distribution<int>(0, 250 * (1 << (hops_ - 1)))(jitter);
    log("the room moved to another server; following it in " + std::to_string(delay) + " ms (hop " +
        std::to_string(hops_) + ")");
    loop_.after(std::chrono::milliseconds(delay), [this] {
      if (!done_) connect();
    });
    return;
  }
  if (!info.opened && token_.empty()) return finish(1, "cannot connect to ws://" + url_.host + ":" + url_.port + url_.path + ": " + why);
  if (reconnects_left_ <= 0 || token_.empty()) return finish(1, "connection lost: " + why);
  --reconnects_left_;
  log("connection lost (" + why + "); reconnecting in " + std::to_string(reconnect_delay_ms_) + " ms");
  loop_.after(std::chrono::milliseconds(reconnect_delay_ms_), [this] {
    if (!done_) connect();
  });
  reconnect_delay_ms_ = std::min(reconnect_delay_ms_ * 2, 8000);
}

void player::on_message(const std::string& text) {
  if (done_ && !connected_) return;
  json m;
  try {
    m = json::parse(text);
  } catch (const json::exception&) {
    return finish(1, "the server sent a frame that is not JSON: " + text.substr(0, 200));
  }
  if (s_.verbose) std::cerr << "[" << s_.name << "] <- " << text << "\n";
  if (!m.is_object() || !m.contains("type") || !m["type"].is_string())
    return finish(1, "the server sent a message without a type: " + text.substr(0, 200));
  const std::string type = m["type"].get<std::string>();

  std::string purpose;
  if ((type == "ok" || type == "error") && m.contains("id") && m["id"].is_number_integer()) {
    const auto it = pending_.find(m["id"].get<int>());
    if (it != pending_.end()) {
      purpose = it->second;
      pending_.erase(it);
    }
  }

  if (type == "welcome") return on_welcome(m);
  if (type == "ok") return on_ok(m, purpose);
  if (type == "error") return on_error(m, purpose);
  if (type == "room") return on_room(m);
  if (type == "state") return on_state(m);
  if (type == "chat") {
    const json from = m.value("from", json::object());
    return log("chat " + compact(from.value("name", json("?"))) + ": " + compact(m.value("text", json(""))));
  }
  if (type == "kicked") {
    room_code_.clear();
    return finish(1, "kicked from room " + compact(m.value("room", json(""))) + " by the host");
  }
  // Other types: a later minor version may add pushes; ignoring them is what the protocol asks.
}

int player::request(json msg, const std::string& purpose) {
  const int id = next_id_++;
  msg["id"] = id;
  pending_[id] = purpose;
  if (s_.verbose) std::cerr << "[" << s_.name << "] -> " << msg.dump() << "\n";
  if (conn_) conn_->send(msg.dump());
  return id;
}

// First connection: create or join. After a reconnection: take the seat back and catch up.
void player::enter_room() {
  if (!room_code_.empty()) {
    json join{{"type", "join_room"}, {"room", room_code_}, {"as", seat_ ? "player" : "spectator"}};
    if (last_seq_) join["last_seq"] = *last_seq_;
    catch_up_pending_ = true;
    request(std::move(join), "join_room");
  } else if (s_.create_game) {
    request({{"type", "create_room"}, {"game", *s_.create_game}, {"options", s_.options}}, "create_room");
  } else {
    request({{"type", "join_room"}, {"room", *s_.join_code}, {"as", s_.spectate ? "spectator" : "player"}}, "join_room");
  }
}

// ---- replies -----------------------------------------------------------------------------------

void player::on_welcome(const json& m) {
  const bool resumed = m.value("resumed", false);
  if (!token_.empty() && !resumed) log("the server did not know our token any more: we are a new player");
  token_ = m.value("token", "");
  player_id_ = m.value("player", "");
  log(std::string(resumed ? "resumed as " : "hello, we are ") + player_id_ + " on " +
      compact(m.value("server", json::object()).value("name", json("?"))) + " " +
      compact(m.value("server", json::object()).value("version", json("?"))));
}

void player::on_ok(const json& m, const std::string& purpose) {
  if (purpose == "hello") return enter_room();
  if (purpose == "create_room" || purpose == "join_room") {
    hops_ = 0;  // a joined room ends a run of room_moved hops
    room_code_ = m.value("room", "");
    seat_ = m.contains("seat") && m["seat"].is_number_integer() ? std::optional<int>(m["seat"].get<int>()) : std::nullopt;
    reconnects_left_ = s_.reconnect_attempts;
    reconnect_delay_ms_ = 500;
    if (!code_printed_) {
      code_printed_ = true;
      std::cout << "room " << room_code_ << std::endl;
      if (purpose == "create_room") {
        // The browser client answers /r/CODE next to the WebSocket endpoint.
        std::string base = url_.path.substr(0, url_.path.rfind('/') + 1);
        std::cout << "invite http://" << url_.host << ":" << url_.port << base << "r/" << room_code_ << std::endl;
        for (int i = 0; i < s_.add_bots; ++i) request({{"type", "add_bot"}}, "add_bot");
      }
    }
    log((purpose == "create_room" ? "created room " : m.value("resumed", false) ? "back in room " : "joined room ") +
        room_code_ + (seat_ ? ", seat " + std::to_string(*seat_) : ", watching"));
    return;
  }
  if (purpose == "start_game") {
    start_in_flight_ = false;  // the `room` push (playing) and the first state follow
    return;
  }
  if (purpose == "action") {
    action_in_flight_ = false;  // the state it caused follows, and is answered then
    return;
  }
  if (purpose == "leave_room") {
    if (conn_) conn_->close();
    return;
  }
}

void player::on_error(const json& m, const std::string& purpose) {
  const std::string code = m.value("code", "");
  const std::string text = code + " (" + compact(m.value("message", json(""))) + ")";
  if (code == "room_moved") {
    // Cluster mode: the room lives on another instance (an answer to hello or join_room, or a
    // push when the room leaves this one). The server closes the connection with 4002 next, and
    // on_closed follows `ws`. Not an error: the game goes on there.
    moved_ = true;
    moved_path_ = m.value("ws", "");
    const auto wait = m.find("retry_after_ms");
    moved_wait_ms_ = wait != m.end() && wait->is_number_integer() ? static_cast<int>(std::clamp<long long>(wait->get<long long>(), 0, 60000)) : -1;
    if (purpose == "action") action_in_flight_ = false;
    if (purpose == "start_game") start_in_flight_ = false;
    return;
  }
  if (purpose == "action") {
    action_in_flight_ = false;
    if (code == "rate_limited") {
      log("rate limited; trying again in a second");
      const auto gen = ++think_generation_;
      loop_.after(std::chrono::seconds(1), [this, gen] {
        if (gen == think_generation_) consider_move();
      });
      return;
    }
    // A refusal that follows a newer state lost a race (e.g. another seat's "Stop!" moved the
    // board first): the command was legal when chosen. Other refusals deserve a log line.
    const bool overtaken = state_.is_object() && state_.value("seq", std::uint64_t{0}) != acted_seq_;
    if (!overtaken && !benign_refusal(code)) log("the server refused " + acted_.dump() + ": " + text);
    // A refusal changes nothing. If no newer state has come, choose again without that entry;
    // if one has, it has not been answered yet (the action was in flight).
    if (!overtaken) {
      if (refused_.size() >= 8) return;  // something is off; wait for the next state
      refused_.push_back(acted_);
    }
    return consider_move();
  }
  if (purpose == "start_game") {
    start_in_flight_ = false;
    if (code == "not_enough_players" || code == "game_in_progress") return;  // the next room push tells more
    return finish(1, "start_game refused: " + text);
  }
  if (purpose == "add_bot") return log("add_bot refused: " + text);
  if (purpose == "leave_room") {
    if (conn_) conn_->close();
    return;
  }
  if (purpose == "hello" || purpose == "create_room" || purpose == "join_room") {
    if (purpose == "join_room" && code == "game_in_progress")
      return finish(1, "join_room refused: " + text + "; a running game can only be watched (--spectate)");
    return finish(1, purpose + " refused: " + text);
  }
  log("error: " + text);
}

// ---- pushes ------------------------------------------------------------------------------------

void player::on_room(const json& m) {
  if (!m.contains("room") || !m["room"].is_object()) return;
  const std::string before = room_.is_object() ? room_.value("status", "") : "";
  room_ = m["room"];
  const std::string status = room_.value("status", "");
  if (status != before) log("room " + room_.value("code", "") + " is " + status);
  if (status == "closed") {
    room_code_.clear();
    if (games_done_ >= s_.games) return finish(0, "");
    return finish(1, "the host closed the room");
  }
  maybe_start_game();
}

void player::on_state(const json& m) {
  const auto seq = m.value("seq", std::uint64_t{0});
  // The state that answers a rejoin may repeat the seq we had (when nothing was missed): it still
  // has to be read, the move we were about to make was lost with the connection.
  const bool catch_up = catch_up_pending_ || m.contains("replayed_from") || m.value("resync", false);
  catch_up_pending_ = false;
  if (last_seq_ && seq <= *last_seq_ && !catch_up) {
    log("ignoring a state with seq " + std::to_string(seq) + " (already at " + std::to_string(*last_seq_) + ")");
    return;
  }
  if (last_seq_ && seq > *last_seq_ + 1 && !catch_up)
    log("seq jumped from " + std::to_string(*last_seq_) + " to " + std::to_string(seq) + "; taking the view as the truth");
  if (m.value("resync", false)) log("resync: events missed while away are lost, the view is current");
  last_seq_ = seq;

  if (m.contains("seat") && m["seat"].is_number_integer()) seat_ = m["seat"].get<int>();
  if (m.contains("events") && m["events"].is_array())
    for (const auto& e : m["events"]) log("#" + std::to_string(e.value("seq", seq)) + " " + describe(e));

  state_ = m;
  refused_.clear();
  ++think_generation_;

  if (!m.value("over", false)) {
    game_running_ = true;
    return consider_move();
  }
  if (!game_running_) return;  // joined after that game had ended: not ours
  game_running_ = false;
  ++games_done_;
  const json result = m.value("result", json());
  std::cout << "result " << result.dump() << std::endl;
  log("game " + std::to_string(games_done_) + " of " + std::to_string(s_.games) + " over: scores " +
      compact(result.value("scores", json())) + ", winners " + compact(result.value("winners", json())));
  if (games_done_ >= s_.games) return finish(0, "");
  maybe_start_game();
}

// ---- decisions ---------------------------------------------------------------------------------

// The host starts a game when the room is between games, enough seats are taken and this bot still
// has games to play. A joiner who inherited the host role starts follow-up games only.
void player::maybe_start_game() {
  if (done_ || start_in_flight_ || !room_.is_object() || room_.value("host", "") != player_id_) return;
  // Not before the last state of the running game: its `room` push may come first.
  if (games_done_ >= s_.games || game_running_) return;
  const std::string status = room_.value("status", "");
  if (status != "finished" && !(status == "lobby" && s_.create_game)) return;

  int seated = 0;
  for (const auto& st : room_.value("seats", json::array()))
    if (st.value("status", "empty") != "empty") ++seated;
  const int needed = std::min(s_.wait_players > 0 ? s_.wait_players : room_.value("min_players", 2), room_.value("max_players", 64));
  if (seated < needed) {
    // A joiner who inherited the room from a host who left has nobody to wait for.
    if (!s_.create_game) finish(0, "the host left and too few players remain for another game");
    return;
  }

  json start{{"type", "start_game"}};
  if (room_.value("options", json::object()).value("startPlayer", "") == "host-picks") {
    // first_seat counts the players of the game, 0..n-1 (seated players move to the front).
    start["first_seat"] = s_.first_seat >= 0 ? s_.first_seat : std::uniform_int_distribution<int>(0, seated - 1)(rng_);
  }
  log("starting game " + std::to_string(games_done_ + 1) + " with " + std::to_string(seated) + " players");
  start_in_flight_ = true;
  request(std::move(start), "start_game");
}

void player::consider_move() {
  if (done_ || !connected_ || action_in_flight_ || !seat_ || !state_.is_object() || state_.value("over", false)) return;
  const json& legal = state_.contains("legal") ? state_["legal"] : json();
  if (!legal.is_array() || legal.empty()) return;
  const auto gen = ++think_generation_;
  loop_.after(s_.think, [this, gen] {
    if (gen == think_generation_) act();
  });
}

void player::act() {
  if (done_ || !connected_ || action_in_flight_ || !seat_) return;
  const auto choice = chooser_.choose(state_, *seat_, refused_);
  if (!choice) return;
  acted_ = *choice;
  acted_seq_ = state_.value("seq", std::uint64_t{0});
  action_in_flight_ = true;
  request({{"type", "action"}, {"action", *choice}}, "action");
}

// ---- ending ------------------------------------------------------------------------------------

void player::finish(int code, const std::string& why) {
  if (done_) return;
  done_ = true;
  exit_code_ = code;
  ++think_generation_;
  if (code != 0) std::cerr << "tinsel-bot [" << s_.name << "]: " << why << std::endl;
  else if (!why.empty()) log(why);
  if (!connected_ || !conn_) return stop_loop();
  if (!room_code_.empty()) {
    request({{"type", "leave_room"}}, "leave_room");
  } else {
    conn_->close();
  }
  // Whatever the server does, do not hang on the way out.
  loop_.after(std::chrono::seconds(3), [this] { stop_loop(); });
}

void player::stop_loop() {
  if (loop_stopped_) return;
  loop_stopped_ = true;
  loop_.stop();
}

// ---- log ---------------------------------------------------------------------------------------

void player::log(const std::string& line) const {
  if (!s_.quiet) std::cerr << "[" << s_.name << "] " << line << std::endl;
}

std::string player::seat_name(int seat) const {
  if (room_.is_object())
    for (const auto& st : room_.value("seats", json::array()))
      if (st.value("seat", -1) == seat && st.contains("name") && st["name"].is_string()) return st["name"].get<std::string>();
  return "seat " + std::to_string(seat);
}

// A generic log line: the event's kind and its fields, seats by name. The bot knows no game's
// events by heart; a client for people would word each kind (see docs/protocol.md).
std::string player::describe(const json& event) const {
  std::string out = event.value("kind", "?");
  for (const auto& [k, v] : event.items()) {
    if (k == "kind" || k == "seq") continue;
    if (k == "result") continue;  // printed on its own line
    out += " " + k + "=";
    out += k == "seat" && v.is_number_integer() ? seat_name(v.get<int>()) : compact(v);
  }
  return out;
}

}  // namespace tinsel_bot
