#pragma once
// Who a connection is: a public player id and a secret token, issued at hello. A client that
// reconnects says hello with its token and becomes the same player again; the previous connection
// of that player, if still open, is closed (4001). Identities of players who have been gone longer
// than the reconnection grace are forgotten. Identities are found by the SHA-256 of their token, the
// form the journal keeps, so that players resume with their token after a restart. Each identity counts against the address that said
// hello (address_limits) until it is forgotten.
#include <chrono>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>

#include "limits/address_limits.hpp"
#include "rooms/participant.hpp"

namespace tinsel::server {

struct identity_info {
  std::string player_id;
  std::string name;
  std::string token;
  std::string room;  // the room this player was last in, "" if none
  std::string token_hash;  // SHA-256 of the token: the only form of it that is stored
};

class identities {
 public:
  identities(std::chrono::milliseconds keep, address_limits& limits) : keep_(keep), limits_(limits) {}

  // A new identity for a client at address key `address`; nullopt when that address holds as
  // many as it may (too_many_identities).
  std::optional<identity_info> issue(std::string name, const std::shared_ptr<participant>& conn,
                                     const std::string& address);
  // The identity of `token`, now held by `conn`; `replaced` receives the connection it had.
  std::optional<identity_info> resume(const std::string& token, const std::shared_ptr<participant>& conn,
                                      std::shared_ptr<participant>& replaced);
  void set_room(const std::string& token, const std::string& room);
  // The room the player of this token hash was last in ("" if none, or unknown).
  std::string room_of(const std::string& token_hash) const;
  // The connection holding `token` closed (ignored if another connection took over since).
  void released(const std::string& token, std::uint64_t connection);
  std::size_t size() const;
  // After a restart: a player seated in a recovered room, known by the hash of its token. It
  // counts as released now (forgotten after the grace unless it resumes) and against no address.
  void restore(const std::string& player_id, const std::string& name, const std::string& token_hash,
               const std::string& room);

 private:
  struct record {
    identity_info info;
    std::weak_ptr<participant> conn;
    std::uint64_t connection = 0;
    std::optional<std::chrono::steady_clock::time_point> released_at;
    std::string address;  // the address key it counts against
  };
  // Forgets identities released longer than keep_ ago, when one may be due (next_expiry_), so
  // the address counts stay exact without a timer or a scan per request.
  void purge(std::chrono::steady_clock::time_point now);

  std::chrono::milliseconds keep_;
  address_limits& limits_;
  mutable std::mutex mutex_;
  std::unordered_map<std::string, record> by_token_;  // by token hash: tokens are not kept after hello
  std::chrono::steady_clock::time_point next_expiry_ = std::chrono::steady_clock::time_point::max();
};

}  // namespace tinsel::server
