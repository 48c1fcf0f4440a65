#include "rooms/lobby.hpp"

#include <spdlog/spdlog.h>

#include "rooms/random.hpp"

namespace tinsel::server {

lobby::lobby(boost::asio::any_io_executor ex, const config& cfg, address_limits& limits)
    : ex_(std::move(ex)), cfg_(cfg), limits_(limits) {}

lobby::created lobby::create(const engine::game_info& game, nlohmann::json options, const std::string& creator) {
  if (auto no = limits_.create_room(creator)) {
    spdlog::debug("room refused: too many rooms client={}", creator);
    return {nullptr, std::move(no)};
  }
  std::lock_guard lock(mutex_);
  std::string code;
  do {
    code = new_room_code();
  } while (rooms_.count(code));
  auto r = std::make_shared<room>(ex_, code, game, std::move(options), cfg_,
                                  [this](const std::string& c) { remove(c); });
  rooms_.emplace(code, entry{r, creator});
  spdlog::info("room created room={} game={} rooms={}", code, game.id, rooms_.size());
  return {r, std::nullopt};
}

std::shared_ptr<room> lobby::find(const std::string& code) const {
  std::lock_guard lock(mutex_);
  auto it = rooms_.find(code);
  return it == rooms_.end() ? nullptr : it->second.r;
}

std::size_t lobby::size() const {
  std::lock_guard lock(mutex_);
  return rooms_.size();
}

void lobby::for_each_room(const std::function<void(const room&)>& f) const {
  std::lock_guard lock(mutex_);
  for (const auto& [code, e] : rooms_) f(*e.r);
}

void lobby::remove(const std::string& code) {
  std::lock_guard lock(mutex_);
  auto it = rooms_.find(code);
  if (it == rooms_.end()) return;
  limits_.room_closed(it->second.creator);
  rooms_.erase(it);
  spdlog::info("room removed room={} rooms={}", code, rooms_.size());
}

void lobby::close_all() {
  std::lock_guard lock(mutex_);
  for (auto& [code, e] : rooms_) {
    e.r->close();
    limits_.room_closed(e.creator);
  }
  rooms_.clear();
}

}  // namespace tinsel::server
