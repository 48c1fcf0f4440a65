// The builders of protocol/include/tinsel/protocol/outgoing.hpp but the state frame's
// (outgoing_state.cpp): ok, error, welcome, room, chat, chat_history, kicked, game_log.
#include "tinsel/protocol/outgoing.hpp"

#include "tinsel/protocol/messages.hpp"

namespace tinsel::protocol {

std::string make_ok(const json& id, json extra) {
  json j = json::object();
  j["type"] = "ok";
  if (!id.is_null()) j["id"] = id;
  for (auto& [k, v] : extra.items()) j[k] = std::move(v);
  return dump(j);
}

std::string make_error(const json& id, std::string_view code, std::string_view message,
                       std::optional<std::chrono::milliseconds> retry_after) {
  json j = {{"type", "error"}, {"code", code}, {"message", message}};
  if (!id.is_null()) j["id"] = id;
  if (retry_after) j["retry_after_ms"] = retry_after->count();
  return dump(j);
}

std::string make_room_moved(const json& id, std::string_view room, std::string_view instance,
                            std::optional<std::chrono::milliseconds> retry_after) {
  const std::string ws = instance.empty() || retry_after ? "/ws?room=" + std::string(room)
                                                         : "/i/" + std::string(instance) + "/ws?room=" + std::string(room);
  json j = {{"type", "error"}, {"code", "room_moved"},
            {"message", retry_after ? "this room's server stopped answering; another takes the room over when its lease runs out: connect to ws then and resume"
                                    : "this room is now served by another server; connect to ws and resume"},
            {"room", room}, {"instance", instance.empty() ? json(nullptr) : json(instance)}, {"ws", ws}};
  if (retry_after) j["retry_after_ms"] = retry_after->count();
  if (!id.is_null()) j["id"] = id;
  return dump(j);
}

std::string make_welcome(const welcome_fields& w) {
  return dump({{"type", "welcome"},
               {"protocol", protocol_version},
               {"player", w.player},
               {"name", w.name},
               {"token", w.token},
               {"resumed", w.resumed},
               {"room", w.room ? json(*w.room) : json(nullptr)},
               {"server", {{"name", "tinsel"}, {"version", w.server_version},
                           {"instance", w.instance.empty() ? json(nullptr) : json(w.instance)}}},
               {"games", w.games}});
}

std::string make_room(const room_fields& r) {
  json seats = json::array();
  for (std::size_t i = 0; i < r.seats.size(); ++i) {
    const auto& s = r.seats[i];
    if (s.player.empty()) seats.push_back({{"seat", i}, {"player", nullptr}, {"name", nullptr}, {"status", "empty"}});
    else {
      seats.push_back({{"seat", i}, {"player", s.player}, {"name", s.name}, {"status", s.status},
                       {"since", s.since ? json(*s.since) : json(nullptr)}});
      if (!s.bot_level.empty()) seats.back()["bot_level"] = s.bot_level;
    }
  }
  json watchers = json::array();
  for (const auto& w : r.watchers) watchers.push_back({{"player", w.player}, {"name", w.name}});
  json kicked = json::array();
  for (const auto& k : r.kicked) kicked.push_back({{"player", k.player}, {"name", k.name}});
  return dump({{"type", "room"},
               {"room",
                {{"code", r.code},
                 {"game", r.game},
                 {"title", r.title},
                 {"options", r.options},
                 {"min_players", r.min_players},
                 {"max_players", r.max_players},
                 {"host", r.host.empty() ? json(nullptr) : json(r.host)},
                 {"seats", std::move(seats)},
                 {"spectators", r.spectators},
                 {"watchers", std::move(watchers)},
                 {"status", r.status},
                 {"seq", r.seq},
                 {"result", r.result},
                 {"kicked", std::move(kicked)}}}});
}

json chat_message(std::string_view room, std::string_view player, std::string_view name, std::optional<int> seat,
                  std::string_view text) {
  return {{"type", "chat"},
          {"room", room},
          {"from", {{"player", player}, {"name", name}, {"seat", seat ? json(*seat) : json(nullptr)}}},
          {"text", text}};
}

std::string make_chat(const json& message) { return dump(message); }

std::string make_chat_history(std::string_view room, const std::deque<json>& messages) {
  return dump({{"type", "chat_history"}, {"room", room}, {"messages", json(messages)}});
}

std::string make_kicked(std::string_view room) { return dump({{"type", "kicked"}, {"room", room}}); }

// Visibility is the state frames' own rule (event::visible_to), so the log never shows a viewer
// what its states did not.
std::string make_game_log(const std::deque<logged_event>& log, engine::viewer v, std::string_view game,
                          std::string_view room, std::uint64_t seq, bool truncated) {
  std::string f = "{\"events\":[";
  bool first = true;
  for (const auto& e : log) {
    if (!e.visible_to(v)) continue;
    if (!first) f += ',';
    first = false;
    f += *e.body;
  }
  f += "],\"game\":" + dump(json(game)) + ",\"room\":" + dump(json(room)) + ",\"seq\":" + std::to_string(seq) +
       ",\"truncated\":" + (truncated ? "true" : "false") + ",\"type\":\"game_log\"}";
  return f;
}

}  // namespace tinsel::protocol
