// Fuzzes protocol::parse_client_message with the default limits: any byte string is a frame. It must
// never throw or crash, and must answer with exactly one of a request or an error whose code is
// documented (errors.hpp); an accepted request respects the limits (no NUL, no BOM, nesting within
// max_depth, names and chat within theirs), and the server can always build
// the ok/error reply echoing the request id.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <string>
#include <string_view>
#include <type_traits>
#include <variant>

#include "fuzz_check.hpp"
#include "tinsel/protocol/bounded_json.hpp"
#include "tinsel/protocol/errors.hpp"
#include "tinsel/protocol/messages.hpp"

namespace {

using namespace tinsel::protocol;

bool documented(std::string_view code) {
  return std::find(std::begin(errc::all), std::end(errc::all), code) != std::end(errc::all);
}

// The server sends every reply through dump(); it must give JSON that parses back to an object.
void check_reply(const std::string& frame) {
  const json back = json::parse(frame, nullptr, false);
  FUZZ_CHECK(!back.is_discarded() && back.is_object() && back.contains("type"), "a reply is not a JSON object");
}

void check_request(const request& req, const limits& lim) {
  FUZZ_CHECK(req.id.is_null() || req.id.is_number_integer() || req.id.is_string(), "bad request id");
  if (req.id.is_string())
    FUZZ_CHECK(utf8_length(req.id.get_ref<const std::string&>()) <= lim.max_id_chars, "id over the limit");
  std::visit(
      [&](const auto& m) {
        using T = std::decay_t<decltype(m)>;
        if constexpr (std::is_same_v<T, hello_msg>) {
          FUZZ_CHECK(!m.name.empty() && utf8_length(m.name) <= lim.max_name_chars, "name outside its limits");
        } else if constexpr (std::is_same_v<T, chat_msg>) {
          FUZZ_CHECK(!m.text.empty() && utf8_length(m.text) <= lim.max_chat_chars, "chat outside its limits");
        } else if constexpr (std::is_same_v<T, join_room_msg>) {
          FUZZ_CHECK(m.room.size() == room_code_length, "room code of the wrong length");
          for (char c : m.room)
            FUZZ_CHECK(std::string_view(room_code_alphabet).find(c) != std::string_view::npos,
                       "room code outside the alphabet");
        } else if constexpr (std::is_same_v<T, create_room_msg> || std::is_same_v<T, set_options_msg> ||
                             std::is_same_v<T, set_game_msg>) {
          FUZZ_CHECK(m.options.is_object(), "options not an object");
        } else if constexpr (std::is_same_v<T, action_msg>) {
          FUZZ_CHECK(m.action.is_object() && m.action.contains("kind") && m.action["kind"].is_string(),
                     "action without a string kind");
        }
      },
      req.message);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const limits lim{};
  const std::string_view frame(reinterpret_cast<const char*>(data), size);
  const parse_result r = parse_client_message(frame, lim);
  FUZZ_CHECK(r.ok.has_value() != r.error.has_value(), "exactly one of request and error");
  if (r.error) {
    FUZZ_CHECK(documented(r.error->code), "undocumented error code");
    if (size > lim.max_frame_bytes) FUZZ_CHECK(r.error->code == errc::frame_too_large, "oversized frame");
    check_reply(make_error(r.id, r.error->code, r.error->message));
  } else {
    FUZZ_CHECK(size <= lim.max_frame_bytes, "an oversized frame was accepted");
    // The frame is the JSON text alone (docs/protocol.md, "The envelope"), nested within the limit.
    FUZZ_CHECK(frame.find('\0') == std::string_view::npos && !frame.starts_with("\xEF\xBB\xBF"), "a NUL or a BOM was accepted");
    FUZZ_CHECK(parse_bounded_json(frame, lim.max_depth).refusal == json_refusal::none, "a frame beyond the nesting limit was accepted");
    check_request(*r.ok, lim);
    check_reply(make_ok(r.ok->id));
  }
  return 0;
}
