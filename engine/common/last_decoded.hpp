#pragma once
// A room starts game after game with the same options, so a game keeps the last decoding of its
// options (one per thread and per kind of decoding; the decoding is pure): the same options and
// player count give back what was decoded for them, without decoding again.
#include <optional>
#include <utility>

#include <nlohmann/json.hpp>

#include "tinsel/engine/outcome.hpp"

namespace tinsel::engine {

// `decode()` gives an outcome<T>; only a success is kept.
template <class T, class Decode>
outcome<T> last_decoded(const nlohmann::json& options, int players, Decode&& decode) {
  struct last_decoding {
    nlohmann::json options;
    int players;
    T decoded;
  };
  thread_local std::optional<last_decoding> last;
  if (last && last->players == players && last->options == options) return last->decoded;
  outcome<T> d = std::forward<Decode>(decode)();
  if (d) last = last_decoding{options, players, d.value()};
  return d;
}

}  // namespace tinsel::engine
