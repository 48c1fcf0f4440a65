#include "tinsel/engine/game.hpp"

#include "christmas_penguins/christmas_penguins.hpp"
#include "happy_holidays/happy_holidays.hpp"
#include "unterm_baum/unterm_baum.hpp"

namespace tinsel::engine {

const registry& builtin_games() {
  static const registry games = [] {
    registry r;
    r.add(christmas_penguins::info());
    r.add(happy_holidays::info());
    r.add(unterm_baum::info());
    return r;
  }();
  return games;
}

}  // namespace tinsel::engine
