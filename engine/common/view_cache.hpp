#pragma once
// A game's view of its current state, built at most once per state while someone holds it. The
// server holds it for one broadcast (game::shared_view), so a room nobody plays in keeps none of it
// in memory; the game resets it whenever its state changes.
#include <memory>

#include <nlohmann/json.hpp>

namespace tinsel::engine {

class view_cache {
 public:
  template <class Build>
  std::shared_ptr<const nlohmann::json> get(Build&& build) const {
    if (auto v = cached_.lock()) return v;
    auto v = std::make_shared<const nlohmann::json>(build());
    cached_ = v;
    return v;
  }
  // The view as a value: a copy of the one someone holds, or built afresh and not kept.
  template <class Build>
  nlohmann::json value(Build&& build) const {
    if (auto v = cached_.lock()) return *v;
    return build();
  }
  void reset() const { cached_.reset(); }

 private:
  mutable std::weak_ptr<const nlohmann::json> cached_;
};

}  // namespace tinsel::engine
