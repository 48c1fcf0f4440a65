#pragma once
// What one connected client has said and where it is: the v1 request dispatcher. Knows nothing of
// sockets; its websocket session calls it on the session's strand, one frame at a time.
#include <memory>
#include <string>
#include <string_view>

#include "tinsel/server/config.hpp"
#include "lobby.hpp"
#include "participant.hpp"

namespace tinsel::server {

class client {
 public:
  client(lobby& l, const config& cfg) : lobby_(l), cfg_(cfg) {}

  void on_text(std::string_view frame, const std::shared_ptr<participant>& self);
  void on_binary(const std::shared_ptr<participant>& self);
  void on_left_room(const std::shared_ptr<room>& r);
  void on_closed(std::uint64_t connection);

 private:
  void reply(const std::shared_ptr<participant>& self, std::string frame);

  lobby& lobby_;
  const config& cfg_;
  bool hello_ = false;
  std::string player_id_;
  std::string name_;
  std::string token_;
  // The room this client has asked to be in; the room itself is the authority on membership and
  // tells us (on_left_room) when a join was refused.
  std::shared_ptr<room> room_;
};

}  // namespace tinsel::server
