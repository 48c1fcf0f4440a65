#include "tinsel/engine/game.hpp"

#include "happy_holidays/happy_holidays.hpp"

namespace tinsel::engine {

const registry& builtin_games() {
  static const registry games = [] {
    registry r;
    r.add(happy_holidays::info());
    return r;
  }();
  return games;
}

}  // namespace tinsel::engine
