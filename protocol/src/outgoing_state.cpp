// The state frame (protocol/include/tinsel/protocol/outgoing.hpp): put together from serialized
// parts, so that a broadcast serializes what its viewers share once. The room and
// bench/engine/tinsel-engine-bench both build their frames here.
#include <string>

#include "tinsel/json_text/json_text.hpp"
#include "tinsel/protocol/messages.hpp"
#include "tinsel/protocol/outgoing.hpp"

namespace tinsel::protocol {

state_parts serialize_events(const engine::events& evs) {
  state_parts s;
  s.events.reserve(evs.size());
  for (const auto& e : evs)
    s.events.push_back({dump(e.body), e.to, e.seat, e.retold.is_null() ? std::string() : dump(e.retold)});
  return s;
}

namespace {
void join_public_events(state_parts& s) {
  for (const auto& e : s.events)
    if (e.to != engine::event::audience::everyone) s.all_public = false;
  if (!s.all_public) return;
  s.public_events = "[";
  for (const auto& e : s.events) {
    if (s.public_events.size() > 1) s.public_events += ',';
    s.public_events += e.body;
  }
  s.public_events += ']';
}

void write_prompt(std::string& out, const engine::game& g, const std::optional<long long>& deadline_ms) {
  namespace text = json_text;
  const auto pr = g.current_prompt();
  if (!pr) {
    out += "null";
    return;
  }
  out += "{\"deadline\":";
  if (deadline_ms) text::integer(out, *deadline_ms);
  else out += "null";
  out += ",\"kind\":";
  text::string(out, pr->kind);
  out += ",\"seats\":[";
  for (std::size_t i = 0; i < pr->seats.size(); ++i) {
    if (i) out += ',';
    text::integer(out, pr->seats[i]);
  }
  out += "]}";
}
}  // namespace

void complete_state_parts(state_parts& s, const engine::game& g, const state_context& c, bool game_text) {
  namespace text = json_text;
  join_public_events(s);
  const bool over = g.is_over();
  s.middle.reserve(128);
  s.middle += ",\"over\":";
  text::boolean(s.middle, over);
  s.middle += ",\"prompt\":";
  write_prompt(s.middle, g, c.deadline_ms);
  s.middle += ",\"result\":";
  if (over) dump_to(s.middle, c.result);
  else s.middle += "null";
  s.middle += ",\"room\":";
  text::string(s.middle, c.room);
  s.middle += ",\"seat\":";
  s.tail = ",\"seq\":";
  text::integer(s.tail, c.seq);
  s.tail += ",\"type\":\"state\"";
  // The game's own text where it writes one (game::write_shared_view), else its json serialized.
  if (!game_text || !g.write_shared_view(s.shared_view))
    if (const auto shared = g.shared_view()) dump_to(s.shared_view, *shared);
}

std::string make_state(const engine::game& g, engine::viewer v, const state_parts& s, std::size_t& size_hint,
                       catch_up more, bool game_text, const std::string* view_patch) {
  // One buffer, sized like the last frame, and every part appended in place.
  std::string f;
  f.reserve(size_hint + 256);
  f += "{\"events\":";
  if (s.all_public) {
    f += s.public_events;
  } else {
    f += '[';
    bool first = true;
    for (const auto& e : s.events) {
      if (!e.visible_to(v)) continue;
      if (!first) f += ',';
      first = false;
      f += e.body;
    }
    f += ']';
  }
  f += ",\"legal\":";
  if (v.is_spectator()) f += "[]";
  else if (!game_text || !g.write_legal(v.seat, f)) dump_to(f, g.legal(v.seat));
  f += s.middle;
  if (v.is_spectator()) f += "null";
  else f += std::to_string(v.seat);
  f += s.tail;
  if (view_patch) {
    f += ",\"view_patch\":";
    f += *view_patch;
  } else {
    f += ",\"view\":";
    if (s.shared_view.empty()) dump_to(f, g.view(v));
    else f += s.shared_view;
  }
  // Catch-up members follow at the end, after the alphabetical ones.
  if (more.what == catch_up::kind::replayed_from) f += ",\"replayed_from\":" + std::to_string(more.from);
  else if (more.what == catch_up::kind::resync) f += ",\"resync\":true";
  f += '}';
  size_hint = f.size();
  return f;
}

}  // namespace tinsel::protocol
