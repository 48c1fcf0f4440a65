#include "lobby.hpp"

#include <spdlog/spdlog.h>

#include "random.hpp"

namespace tinsel::server {

lobby::lobby(boost::asio::any_io_executor ex, const config& cfg) : ex_(std::move(ex)), cfg_(cfg) {}

std::shared_ptr<room> lobby::create(const engine::game_info& game, nlohmann::json options) {
  std::lock_guard lock(mutex_);
  std::string code;
  do {
    code = new_room_code();
  } while (rooms_.count(code));
  auto r = std::make_shared<room>(ex_, code, game, std::move(options), cfg_,
                                  [this](const std::string& c) { remove(c); });
  rooms_.emplace(code, r);
  spdlog::info("room created room={} game={} rooms={}", code, game.id, rooms_.size());
  return r;
}

std::shared_ptr<room> lobby::find(const std::string& code) const {
  std::lock_guard lock(mutex_);
  auto it = rooms_.find(code);
  return it == rooms_.end() ? nullptr : it->second;
}

std::size_t lobby::size() const {
  std::lock_guard lock(mutex_);
  return rooms_.size();
}

void lobby::remove(const std::string& code) {
  std::lock_guard lock(mutex_);
  rooms_.erase(code);
  spdlog::info("room removed room={} rooms={}", code, rooms_.size());
}

void lobby::close_all() {
  std::lock_guard lock(mutex_);
  for (auto& [code, r] : rooms_) r->close();
  rooms_.clear();
}

}  // namespace tinsel::server
