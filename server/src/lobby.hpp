#pragma once
// The registry of rooms by code. The map is the only shared structure between sessions, guarded by
// a mutex held for a lookup or an insert only; everything inside a room lives on the room's strand.
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>

#include <boost/asio/any_io_executor.hpp>
#include <nlohmann/json.hpp>

#include "tinsel/server/config.hpp"
#include "room.hpp"

namespace tinsel::server {

class lobby {
 public:
  lobby(boost::asio::any_io_executor ex, const config& cfg);

  // Creates a room with a fresh code; options are already normalized.
  std::shared_ptr<room> create(const engine::game_info& game, nlohmann::json options);
  std::shared_ptr<room> find(const std::string& code) const;
  std::size_t size() const;
  // Server shutdown: close every room.
  void close_all();

 private:
  void remove(const std::string& code);

  boost::asio::any_io_executor ex_;
  const config& cfg_;
  mutable std::mutex mutex_;
  std::unordered_map<std::string, std::shared_ptr<room>> rooms_;
};

}  // namespace tinsel::server
