#pragma once
// Every message the server sends, one builder per type (protocol/schema/server/*.json): the one
// place that owns the outgoing wire format, as lila-ws's ClientIn does. Rooms and sessions hand
// over what a message says; the builder writes its text. Precomputed JSON text (serialized events,
// a game's own legal and view text) is spliced here, not in the rooms.
//
// Members come in the order nlohmann::json writes an object's (alphabetical), as they did when
// every frame was one JSON document; clients and the golden tests see the same bytes.
#include <chrono>
#include <cstdint>
#include <deque>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "tinsel/engine/game.hpp"

namespace tinsel::protocol {

using json = nlohmann::json;

// ok: the answer to an accepted request; `extra` adds members (e.g. a join's seat).
std::string make_ok(const json& id, json extra = json::object());
// error: a refused request, with a stable code; `retry_after`: when to try again (retry_after_ms).
std::string make_error(const json& id, std::string_view code, std::string_view message,
                       std::optional<std::chrono::milliseconds> retry_after = std::nullopt);

// room_moved (cluster mode): the room `room` is served elsewhere; connect to `ws` (a path on this
// origin); `instance` its owner, empty when not known yet (null on the wire). With `retry_after`
// its owner has stopped renewing its lease: `ws` is then /ws?room=CODE, to be used once the lease
// has run out, retry_after_ms from now (the room is claimed then).
std::string make_room_moved(const json& id, std::string_view room, std::string_view instance,
                            std::optional<std::chrono::milliseconds> retry_after = std::nullopt);

// welcome: the answer to hello.
struct welcome_fields {
  std::string_view player, name, token;
  bool resumed = false;
  std::optional<std::string_view> room;  // the room this player was last in, if it still exists
  std::string_view server_version;
  const json& games;  // every game the server offers
  std::string_view instance = {};  // cluster mode: this instance's id (server.instance; null outside)
};
std::string make_welcome(const welcome_fields& w);

// room: the room as it is now.
struct room_seat {
  std::string_view player;  // empty: a free seat
  std::string_view name;
  std::string_view status;  // connected, disconnected, away, gone or bot
  // Server time (ms since the Unix epoch) since when the seat has been disconnected, away or
  // gone; unset for connected and bot (the push's `since` is null then).
  std::optional<std::int64_t> since = std::nullopt;
  std::string_view bot_level = {};  // a server bot's level, gentle or fair; empty for anyone else
};
struct sent_away_entry {
  std::string_view player, name;
};
// A spectator connected now (room push `watchers`).
struct watcher_entry {
  std::string_view player, name;
};
struct room_fields {
  std::string_view code, game, title;
  const json& options;
  int min_players = 0, max_players = 0;
  std::string_view host;  // empty: nobody holds the role
  std::vector<room_seat> seats;
  long spectators = 0;
  std::string_view status;  // lobby, playing, finished, or closed (the room's last push)
  std::uint64_t seq = 0;
  const json& result;
  std::vector<sent_away_entry> kicked;
  std::vector<watcher_entry> watchers = {};  // in the order they joined
};
std::string make_room(const room_fields& r);

// chat: one message as the room tells (and keeps) it; the frame is its text.
json chat_message(std::string_view room, std::string_view player, std::string_view name, std::optional<int> seat,
                  std::string_view text);
std::string make_chat(const json& message);
// chat_history: the last chat messages, for a member who joins.
std::string make_chat_history(std::string_view room, const std::deque<json>& messages);
// kicked: the host sent this member away.
std::string make_kicked(std::string_view room);

// state: one viewer's frame, put together from serialized parts. What every viewer of one
// broadcast shares (events, prompt, result, and the view where the game hides nothing) is
// serialized once, and per viewer only its seat, its legal commands, and what differs.
struct state_parts {
  struct event_text {
    std::string body;  // serialized
    engine::event::audience to;
    int seat;
    std::string retold = {};  // serialized event::retold, for the history and the log; empty: as body
    bool visible_to(engine::viewer v) const { return engine::event{json(), to, seat}.visible_to(v); }
  };
  std::vector<event_text> events;
  std::string public_events;  // the events array, when every event is public
  bool all_public = true;
  std::string middle;       // from "over" to "seat": the same for every viewer
  std::string tail;         // from "seq" to "type"
  std::string shared_view;  // the view, when the game shows everyone the same
};
// What the state says besides the game: its room, seq, the prompt's deadline and the result.
struct state_context {
  std::string_view room;
  std::uint64_t seq = 0;
  std::optional<long long> deadline_ms;  // epoch ms; none: the prompt has no timer
  const json& result;                    // sent when the game is over
};
// How a catch-up state marks what it carries (join_room with last_seq).
struct catch_up {
  enum class kind { none, replayed_from, resync } what = kind::none;
  std::uint64_t from = 0;  // replayed_from: the first seq whose events it carries
};
// Only the events' part (each body serialized, and who may see it).
state_parts serialize_events(const engine::events& evs);
// The rest, from the events in `s`: the events array, prompt, result, view. `game_text`: use the
// game's own text for the shared view where it writes one (false: always its json).
void complete_state_parts(state_parts& s, const engine::game& g, const state_context& c, bool game_text = true);
// One viewer's frame. `size_hint`: the last frame's size, the next one's buffer (updated).
// `view_patch`: for a member who asked for changes (hello `views`), the JSON Patch (RFC 6902)
// from the view of its previous state to this one, sent as `view_patch` instead of `view`.
std::string make_state(const engine::game& g, engine::viewer v, const state_parts& s, std::size_t& size_hint,
                       catch_up more = {}, bool game_text = true, const std::string* view_patch = nullptr);

// One event of a game as the log and a catch-up tell it again: who may see it, and its body
// serialized once with the `seq` of its state.
struct logged_event {
  std::uint64_t seq;
  engine::event::audience to;
  int seat;
  std::shared_ptr<const std::string> body;
  bool visible_to(engine::viewer v) const { return engine::event{json(), to, seat}.visible_to(v); }
};
// game_log: every kept event of a game that `v` may see, oldest first.
std::string make_game_log(const std::deque<logged_event>& log, engine::viewer v, std::string_view game,
                          std::string_view room, std::uint64_t seq, bool truncated);

}  // namespace tinsel::protocol
