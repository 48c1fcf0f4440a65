#pragma once
// Reading JSON that someone else wrote: a client's frame, a game record passed around as a file.
// nlohmann's parser itself does not recurse, but copying, comparing and serializing a document
// recurse once per level of nesting, so a document nested 100,000 deep, read with json::parse,
// overflows the stack later, wherever it is first copied. This reader refuses such a document
// while reading it (and stops there, building nothing more). It also refuses what nlohmann would
// accept silently, so that no other reader of the same text can see something else:
// - an object with the same key twice (nlohmann keeps the last value; other readers the first);
// - a NUL byte anywhere (nlohmann's reader takes it for the end of the text and ignores the rest;
//   in JSON text it can only be an error: inside a string it must be escaped).
// A UTF-8 byte order mark at the start is skipped, as nlohmann does; the frame parser refuses it
// before it gets here (messages.cpp).
#include <cstddef>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace tinsel::protocol {

enum class json_refusal {
  none,
  not_json,       // not JSON text (or a NUL byte in it)
  too_deep,       // arrays and objects nested deeper than allowed
  duplicate_key,  // an object with the same key twice
};

struct bounded_json {
  nlohmann::json value;  // null unless refusal is none
  json_refusal refusal = json_refusal::none;
  std::string key;  // duplicate_key: the key that came twice
};

// `max_depth`: how many arrays and objects may be nested in each other, the outermost counting 1
// (so {"a":[1]} has depth 2, a bare number 0).
bounded_json parse_bounded_json(std::string_view text, std::size_t max_depth);

}  // namespace tinsel::protocol
