#include "tinsel/protocol/messages.hpp"

#include <algorithm>
#include <cctype>
#include <limits>

#include "tinsel/protocol/bounded_json.hpp"
#include "tinsel/protocol/errors.hpp"

namespace tinsel::protocol {

namespace {

protocol_error err(std::string_view code, std::string message) {
  return protocol_error{std::string(code), std::move(message)};
}
protocol_error field_error(const std::string& field, const std::string& what) {
  return err(errc::invalid_field, "field '" + field + "' " + what);
}

// A field's value, or the first error found in the message.
template <class T>
using or_error = std::variant<T, protocol_error>;
template <class T>
const protocol_error* error_in(const or_error<T>& v) {
  return std::get_if<protocol_error>(&v);
}

const json* field(const json& obj, const char* name) {
  auto it = obj.find(name);
  return it == obj.end() ? nullptr : &*it;
}

// Reads a required string field.
or_error<std::string> req_string(const json& obj, const char* name) {
  const json* v = field(obj, name);
  if (!v) return field_error(name, "is required");
  if (!v->is_string()) return field_error(name, "must be a string");
  return v->get<std::string>();
}

// Reads an optional object field (default: empty object).
or_error<json> opt_object(const json& obj, const char* name) {
  const json* v = field(obj, name);
  if (!v || v->is_null()) return json::object();
  if (!v->is_object()) return field_error(name, "must be an object");
  return *v;
}

// An integer in [lo, hi], or nullopt. nlohmann keeps a non-negative integer as unsigned and a
// negative one as signed; comparing in the value's own type means a huge number is never
// truncated into range (4294967297 is not 1). Floats (1.0, 1e3) are not integers.
std::optional<long long> int_in_range(const json& v, long long lo, long long hi) {
  if (v.is_number_unsigned()) {
    const auto u = v.get<std::uint64_t>();
    if (hi < 0 || u > static_cast<std::uint64_t>(hi) || static_cast<long long>(u) < lo) return std::nullopt;
    return static_cast<long long>(u);
  }
  if (!v.is_number_integer()) return std::nullopt;
  const auto i = v.get<std::int64_t>();
  if (i < lo || i > hi) return std::nullopt;
  return i;
}

// Reads the `player` of kick / transfer_host / readmit: a non-empty string of at most 64 characters, as the
// schema says (player ids are far shorter).
or_error<std::string> req_player(const json& obj) {
  auto player = req_string(obj, "player");
  if (auto* s = std::get_if<std::string>(&player); s && (s->empty() || utf8_length(*s) > 64))
    return field_error("player", "must be a player id");
  return player;
}

// Reads a required seat index (remove_bot, skip).
or_error<int> req_seat(const json& obj) {
  const json* s = field(obj, "seat");
  const auto seat = s ? int_in_range(*s, 0, 64) : std::nullopt;
  if (!seat) return field_error("seat", "is required and must be a seat index");
  return static_cast<int>(*seat);
}

}  // namespace

std::size_t utf8_length(std::string_view s) {
  return static_cast<std::size_t>(
      std::count_if(s.begin(), s.end(), [](char c) { return (static_cast<unsigned char>(c) & 0xC0) != 0x80; }));
}

namespace {

// Decodes one code point of valid UTF-8 (nlohmann has validated the encoding) at `i`, advancing it.
char32_t next_code_point(std::string_view s, std::size_t& i) {
  const auto b = static_cast<unsigned char>(s[i++]);
  const int extra = b >= 0xF0 ? 3 : b >= 0xE0 ? 2 : b >= 0xC0 ? 1 : 0;
  char32_t cp = extra == 0 ? b : extra == 1 ? (b & 0x1F) : extra == 2 ? (b & 0x0F) : (b & 0x07);
  for (int k = 0; k < extra && i < s.size(); ++k) cp = (cp << 6) | (static_cast<unsigned char>(s[i++]) & 0x3F);
  return cp;
}

bool in(char32_t c, char32_t lo, char32_t hi) { return c >= lo && c <= hi; }

bool is_bidi_control(char32_t c) {
  return c == 0x061C || c == 0x200E || c == 0x200F || in(c, 0x202A, 0x202E) || in(c, 0x2066, 0x2069);
}

bool is_invisible(char32_t c) {
  // White space (Unicode White_Space, minus what is refused anyway: controls, U+2028, U+2029).
  if (c == ' ' || c == '\n' || c == 0x00A0 || c == 0x1680 || in(c, 0x2000, 0x200A) || c == 0x202F || c == 0x205F ||
      c == 0x3000)
    return true;
  // Invisible and format characters, fillers that render blank, variation selectors and tags.
  if (c == 0x00AD || c == 0x034F || c == 0x061C || c == 0x115F || c == 0x1160 || c == 0x17B4 || c == 0x17B5 ||
      in(c, 0x180B, 0x180F) || in(c, 0x200B, 0x200F) || in(c, 0x202A, 0x202E) || in(c, 0x2060, 0x206F) ||
      c == 0x2800 || c == 0x3164 || in(c, 0xFE00, 0xFE0F) || c == 0xFEFF || c == 0xFFA0 || in(c, 0xFFF9, 0xFFFB) ||
      in(c, 0x1D173, 0x1D17A) || in(c, 0xE0000, 0xE0FFF))
    return true;
  // Combining marks (the general combining blocks): they only decorate the character before them.
  return in(c, 0x0300, 0x036F) || in(c, 0x0483, 0x0489) || in(c, 0x1AB0, 0x1AFF) || in(c, 0x1DC0, 0x1DFF) ||
         in(c, 0x20D0, 0x20FF) || in(c, 0xFE20, 0xFE2F);
}

}  // namespace

std::optional<std::string> clean_display_text(std::string_view s, std::size_t max_chars, bool allow_newlines) {
  // Control characters (C0, DEL, C1) are refused, and so are the line and paragraph separators
  // U+2028 and U+2029: the only line break is a newline, in chat (U+0085, a C1 control, is NEL).
  // Bidirectional controls are dropped, so that no name or message can reorder the text shown
  // around it (a "Trojan Source" name in a chat line).
  std::string kept;
  kept.reserve(s.size());
  bool visible = false;
  for (std::size_t i = 0; i < s.size();) {
    const std::size_t start = i;
    const char32_t c = next_code_point(s, i);
    if (c == 0x7F || (c < 0x20 && !(allow_newlines && c == '\n')) || in(c, 0x80, 0x9F) || c == 0x2028 || c == 0x2029)
      return std::nullopt;
    if (is_bidi_control(c)) continue;
    visible = visible || !is_invisible(c);
    kept.append(s.substr(start, i - start));
  }
  if (!visible) return std::nullopt;
  const auto first = kept.find_first_not_of(" \n");
  const auto last = kept.find_last_not_of(" \n");
  std::string out = kept.substr(first, last - first + 1);
  if (utf8_length(out) > max_chars) return std::nullopt;
  return out;
}

std::optional<std::string> normalize_room_code(std::string_view s) {
  std::string out;
  for (char c : s) {
    if (c == ' ' || c == '-') continue;
    c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    if (std::string_view(room_code_alphabet).find(c) == std::string_view::npos) return std::nullopt;
    out.push_back(c);
  }
  if (out.size() != room_code_length) return std::nullopt;
  return out;
}

namespace {

// Reads a required display text (a name, a chat message): clean_display_text of a string field.
or_error<std::string> req_display_text(const json& obj, const char* name, std::size_t max_chars, bool allow_newlines) {
  auto text = req_string(obj, name);
  if (error_in(text)) return text;
  auto clean = clean_display_text(std::get<std::string>(text), max_chars, allow_newlines);
  if (!clean)
    return field_error(name, "must be 1 to " + std::to_string(max_chars) +
                                 " characters, at least one of them visible, without control characters");
  return std::move(*clean);
}

// One parse function per message type: the message, or the first of its fields that is wrong.
// `j` is the frame's own document (an object), so a function may move parts out of it.
using message_parser = or_error<client_message> (*)(json& j, const limits& lim);

or_error<client_message> parse_hello(json& j, const limits& lim) {
  hello_msg m;
  const json* p = field(j, "protocol");
  const auto version = p ? int_in_range(*p, 1, std::numeric_limits<int>::max()) : std::nullopt;
  if (!version) return field_error("protocol", "is required and must be a positive integer (this server speaks 1)");
  m.protocol = static_cast<int>(*version);
  auto name = req_display_text(j, "name", lim.max_name_chars, false);
  if (auto* e = error_in(name)) return *e;
  m.name = std::move(std::get<std::string>(name));
  if (const json* tok = field(j, "token"); tok && !tok->is_null()) {
    const bool hex32 = tok->is_string() && tok->get_ref<const std::string&>().size() == 32 &&
                       tok->get_ref<const std::string&>().find_first_not_of("0123456789abcdef") == std::string::npos;
    if (!hex32) return field_error("token", "must be the 32-digit token from an earlier welcome");
    m.token = tok->get<std::string>();
  }
  if (const json* views = field(j, "views"); views && !views->is_null()) {
    if (!views->is_string() || (*views != "full" && *views != "changes"))
      return field_error("views", "must be \"full\" (the default) or \"changes\"");
    m.view_changes = *views == "changes";
  }
  return m;
}

// A game id and its options (create_room, set_game): `game` required, `options` an optional object.
template <class Msg>
or_error<client_message> parse_game_and_options(json& j) {
  Msg m;
  auto game = req_string(j, "game");
  if (auto* e = error_in(game)) return *e;
  m.game = std::move(std::get<std::string>(game));
  auto options = opt_object(j, "options");
  if (auto* e = error_in(options)) return *e;
  m.options = std::move(std::get<json>(options));
  return m;
}

or_error<client_message> parse_create_room(json& j, const limits&) { return parse_game_and_options<create_room_msg>(j); }

or_error<client_message> parse_join_room(json& j, const limits&) {
  join_room_msg m;
  auto room = req_string(j, "room");
  if (auto* e = error_in(room)) return *e;
  auto code = normalize_room_code(std::get<std::string>(room));
  // A string that cannot be a code names no room, as the invite pages and /rooms/ say: the same
  // `unknown_room` as a well-formed code without a room (a person typed it), without a lookup and
  // not counted as a miss. A `room` that is not a string stays `invalid_field`.
  if (!code)
    return err(errc::unknown_room, "there is no room with this code: a code is " + std::to_string(room_code_length) +
                                        " letters and digits");
  m.room = *code;
  if (const json* as = field(j, "as")) {
    if (*as == "spectator")
      m.spectator = true;
    else if (*as != "player")
      return field_error("as", "must be \"player\" or \"spectator\"");
  }
  if (const json* ls = field(j, "last_seq"); ls && !ls->is_null()) {
    // Unsigned means 0 to 2^64-1 exactly: negative numbers are signed, larger ones floats.
    if (!ls->is_number_unsigned()) return field_error("last_seq", "must be a non-negative integer");
    m.last_seq = ls->get<std::uint64_t>();
  }
  return m;
}

or_error<client_message> parse_chat(json& j, const limits& lim) {
  auto text = req_display_text(j, "text", lim.max_chat_chars, true);
  if (auto* e = error_in(text)) return *e;
  return chat_msg{std::move(std::get<std::string>(text))};
}

or_error<client_message> parse_set_options(json& j, const limits&) {
  const json* o = field(j, "options");
  if (!o || !o->is_object()) return field_error("options", "is required and must be an object");
  return set_options_msg{std::move(j["options"])};  // j is ours: no copy
}

or_error<client_message> parse_set_game(json& j, const limits&) { return parse_game_and_options<set_game_msg>(j); }

or_error<client_message> parse_start_game(json& j, const limits&) {
  start_game_msg m;
  if (const json* s = field(j, "first_seat"); s && !s->is_null()) {
    const auto seat = int_in_range(*s, 0, 64);
    if (!seat) return field_error("first_seat", "must be a seat index");
    m.first_seat = static_cast<int>(*seat);
  }
  return m;
}

or_error<client_message> parse_action(json& j, const limits&) {
  const json* a = field(j, "action");
  if (!a || !a->is_object() || !a->contains("kind") || !(*a)["kind"].is_string())
    return field_error("action", "is required and must be an object with a string 'kind'");
  return action_msg{std::move(j["action"])};  // j is ours: no copy
}

or_error<client_message> parse_add_bot(json& j, const limits&) {
  add_bot_msg m;
  if (const json* level = field(j, "level"); level && !level->is_null()) {
    if (!level->is_string() || (*level != "gentle" && *level != "fair"))
      return field_error("level", "must be \"gentle\" or \"fair\" (the default)");
    m.level = level->get<std::string>();
  }
  return m;
}

// Messages without fields of their own.
template <class M>
or_error<client_message> parse_bare(json&, const limits&) {
  return M{};
}
// Messages about one player (host controls): kick, transfer_host, readmit.
template <class M>
or_error<client_message> parse_about_player(json& j, const limits&) {
  auto player = req_player(j);
  if (auto* e = error_in(player)) return *e;
  return M{std::move(std::get<std::string>(player))};
}
// Messages about one seat: remove_bot, skip.
template <class M>
or_error<client_message> parse_about_seat(json& j, const limits&) {
  auto seat = req_seat(j);
  if (auto* e = error_in(seat)) return *e;
  return M{std::get<int>(seat)};
}

struct message_type {
  std::string_view name;
  message_parser parse;
};
constexpr message_type message_types[] = {
    {"hello", parse_hello},
    {"create_room", parse_create_room},
    {"join_room", parse_join_room},
    {"leave_room", parse_bare<leave_room_msg>},
    {"chat", parse_chat},
    {"set_options", parse_set_options},
    {"set_game", parse_set_game},
    {"start_game", parse_start_game},
    {"action", parse_action},
    {"kick", parse_about_player<kick_msg>},
    {"transfer_host", parse_about_player<transfer_host_msg>},
    {"readmit", parse_about_player<readmit_msg>},
    {"add_bot", parse_add_bot},
    {"remove_bot", parse_about_seat<remove_bot_msg>},
    {"skip", parse_about_seat<skip_msg>},
    {"close_room", parse_bare<close_room_msg>},
    {"full_view", parse_bare<full_view_msg>},
    {"ping", parse_bare<ping_msg>},
};

// The frame as a JSON document: within the frame limit, without a byte order mark, within the
// nesting limit, and no key twice in one object.
or_error<json> read_frame(std::string_view frame, const limits& lim) {
  if (frame.size() > lim.max_frame_bytes)
    return err(errc::frame_too_large, "frame of " + std::to_string(frame.size()) + " bytes exceeds the limit of " +
                                          std::to_string(lim.max_frame_bytes) + " bytes");
  // A byte order mark is not part of JSON text on the wire (RFC 8259, 8.1); nlohmann would skip it.
  if (frame.starts_with("\xEF\xBB\xBF"))
    return err(errc::bad_json, "the frame starts with a byte order mark; send the JSON text alone");
  auto parsed = parse_bounded_json(frame, lim.max_depth);
  switch (parsed.refusal) {
    case json_refusal::none:
      break;
    case json_refusal::not_json:
      return err(errc::bad_json, "the frame is not valid JSON (UTF-8 text)");
    case json_refusal::too_deep:
      return err(errc::frame_too_deep, "the frame nests arrays and objects deeper than the limit of " +
                                           std::to_string(lim.max_depth) + " levels");
    case json_refusal::duplicate_key:
      return err(errc::invalid_message, parsed.key.size() <= 40 ? "the key '" + parsed.key + "' appears twice in one object"
                                                                : "a key appears twice in one object");
  }
  return std::move(parsed.value);
}

// The envelope's `id`: absent (null), an integer, or a string of at most max_id_chars characters.
or_error<json> read_id(const json& j, const limits& lim) {
  const json* id = field(j, "id");
  if (!id) return json();
  // Characters, not bytes, as the schema's maxLength counts them.
  const bool good = id->is_number_integer() || (id->is_string() && utf8_length(id->get_ref<const std::string&>()) <= lim.max_id_chars);
  if (!good) return field_error("id", "must be an integer or a string of at most " + std::to_string(lim.max_id_chars) + " characters");
  return *id;
}

}  // namespace

parse_result parse_client_message(std::string_view frame, const limits& lim) {
  parse_result out;
  auto doc = read_frame(frame, lim);
  if (auto* e = error_in(doc)) {
    out.error = *e;
    return out;
  }
  json& j = std::get<json>(doc);
  if (!j.is_object()) {
    out.error = err(errc::invalid_message, "a message must be a JSON object");
    return out;
  }
  auto id = read_id(j, lim);
  if (auto* e = error_in(id)) {
    out.error = *e;
    return out;
  }
  out.id = std::move(std::get<json>(id));
  const json* type = field(j, "type");
  if (!type || !type->is_string()) {
    out.error = err(errc::invalid_message, "a message needs a string field 'type'");
    return out;
  }
  const auto& t = type->get_ref<const std::string&>();
  const auto known = std::find_if(std::begin(message_types), std::end(message_types),
                                  [&](const message_type& m) { return m.name == t; });
  if (known == std::end(message_types)) {
    out.error = err(errc::unknown_type, t.size() <= 40 ? "unknown message type '" + t + "'" : "unknown message type");
    return out;
  }
  auto message = known->parse(j, lim);
  if (auto* e = error_in(message))
    out.error = *e;
  else
    out.ok = request{out.id, std::move(std::get<client_message>(message))};
  return out;
}

std::string dump(const json& j) { return j.dump(-1, ' ', false, json::error_handler_t::replace); }

void dump_to(std::string& out, const json& j) {
  nlohmann::detail::serializer<json> s(nlohmann::detail::output_adapter<char>(out), ' ', json::error_handler_t::replace);
  s.dump(j, false, false, 0);
}

namespace {
// The index just past the JSON value that starts at `i` (a string, a number, a literal, or an
// object or array with everything in it).
std::size_t skip_value(std::string_view t, std::size_t i) {
  int depth = 0;
  for (; i < t.size(); ++i) {
    const char c = t[i];
    if (c == '"') {
      for (++i; i < t.size() && t[i] != '"'; ++i)
        if (t[i] == '\\') ++i;
      if (depth == 0) return i + 1;
    } else if (c == '{' || c == '[') {
      ++depth;
    } else if (c == '}' || c == ']') {
      if (depth == 0) return i;  // the end of the enclosing container: a bare value ended here
      if (--depth == 0) return i + 1;
    } else if (c == ',' && depth == 0) {
      return i;
    }
  }
  return i;
}
}  // namespace

std::string insert_member(std::string_view object, std::string_view key, std::string_view value) {
  std::string out;
  out.reserve(object.size() + key.size() + value.size() + 4);
  const auto member = [&] {
    out += '"';
    out += key;
    out += "\":";
    out += value;
  };
  // Walk the members: each is "key":value; keys are compared as their text, which is their
  // value when they hold no escape (a key with one sends us to the slow path below).
  std::size_t i = 1;
  if (object.size() < 2 || object.front() != '{') return std::string(object);
  while (i < object.size() && object[i] == '"') {
    const std::size_t close = object.find('"', i + 1);
    if (close == std::string_view::npos) break;
    const std::string_view k = object.substr(i + 1, close - i - 1);
    if (k.find('\\') != std::string_view::npos) {
      json j = json::parse(object, nullptr, false);
      if (!j.is_object()) return std::string(object);
      j[std::string(key)] = json::parse(value, nullptr, false);
      return dump(j);
    }
    const std::size_t end = skip_value(object, close + 2);  // past the value
    if (k >= key) {
      out.append(object.substr(0, i));
      member();
      if (k == key) {
        out.append(object.substr(end));  // replaced: what follows, from its comma or brace
      } else {
        out += ',';
        out.append(object.substr(i));
      }
      return out;
    }
    i = end < object.size() && object[end] == ',' ? end + 1 : end;
    if (i >= object.size() || object[i] != '"') break;
  }
  // Every key sorts before `key` (or the object is empty): it goes last.
  const std::size_t last = object.rfind('}');
  if (last == std::string_view::npos) return std::string(object);
  out.append(object.substr(0, last));
  if (last > 1) out += ',';
  member();
  out += '}';
  return out;
}

}  // namespace tinsel::protocol
