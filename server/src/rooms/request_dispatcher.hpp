#pragma once
// What one connected client has said and where it is: the v1 request dispatcher. It drives the
// lobby (create, join), the identities (hello, resume) and the client's room (every other request,
// one short handler per kind). Knows nothing of sockets; its websocket session calls it on the
// session's thread, one frame at a time.
#include <memory>
#include <string>
#include <string_view>

#include "tinsel/server/config.hpp"
#include "limits/address_limits.hpp"
#include "rooms/identities.hpp"
#include "rooms/lobby.hpp"
#include "rooms/participant.hpp"
#include "tinsel/protocol/messages.hpp"

namespace tinsel::server {

class request_dispatcher {
 public:
  // `address`: the client's address key, which per-address limits count against.
  request_dispatcher(lobby& l, identities& ids, const config& cfg, address_limits& limits, std::string address)
      : lobby_(l), ids_(ids), cfg_(cfg), limits_(limits), address_(std::move(address)) {}

  void on_text(std::string_view frame, const std::shared_ptr<participant>& self);
  // A binary frame of `bytes`: refused, with frame_too_large over the frame limit as a text frame would be.
  void on_binary(std::size_t bytes, const std::shared_ptr<participant>& self);
  // A request over the rate limit: answered with rate_limited (echoing its id), not executed.
  void on_rate_limited(std::string_view frame, const std::shared_ptr<participant>& self);
  void on_left_room(const std::shared_ptr<room>& r);
  void on_closed(std::uint64_t connection);
  // Cluster mode: the room the connection's URL names (`?room=CODE`), served or redirected at hello.
  void set_room_hint(std::string code) { room_hint_ = std::move(code); }

 private:
  using pptr = std::shared_ptr<participant>;
  void reply(const pptr& self, std::string frame);

  // One handler per request kind (std::visit picks it). Every kind without its own handler acts
  // on the client's room: the template runs the one guard, then the room's call for it.
  void handle(protocol::hello_msg& m, const json& id, const pptr& self);
  void handle(protocol::create_room_msg& m, const json& id, const pptr& self);
  void handle(protocol::join_room_msg& m, const json& id, const pptr& self);
  void handle(protocol::leave_room_msg& m, const json& id, const pptr& self);
  void handle(protocol::ping_msg& m, const json& id, const pptr& self);
  template <class Request>
  void handle(Request& m, const json& id, const pptr& self);
  // The client's room; none (and the request refused with not_in_room) outside one.
  room* room_or_refuse(const json& id, const pptr& self);
  // Cluster mode: where the room `code` is served; false when the client was told room_moved (and
  // its connection is closing). `r`: the room, here, or null when there is none.
  bool route(const std::string& code, const json& id, const pptr& self, std::shared_ptr<room>& r);
  // Cluster mode: room_moved for `code` (served by `instance`, empty when not known), then the close 4002.
  void send_away(const json& id, const pptr& self, const std::string& code, const std::string& instance,
                 std::optional<std::chrono::milliseconds> retry_after = std::nullopt);

  lobby& lobby_;
  identities& ids_;
  const config& cfg_;
  address_limits& limits_;
  const std::string address_;
  bool hello_ = false;
  std::string player_id_;
  std::string name_;
  std::string token_;
  std::string token_hash_;
  bool view_changes_ = false;  // hello asked for views as changes
  // The room this client has asked to be in; the room itself is the authority on membership and
  // tells us (on_left_room) when a join was refused.
  std::shared_ptr<room> room_;
  std::string room_hint_;
};

}  // namespace tinsel::server
