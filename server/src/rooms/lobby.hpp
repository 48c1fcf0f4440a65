#pragma once
// The registry of rooms by code. The map is the only shared structure between sessions, guarded by
// a mutex held for a lookup or an insert only; everything inside a room lives on the room's strand.
// A room counts against its creator's address (address_limits) until it closes or expires. With a
// journal, rooms are written there and come back after a restart (recover), and room codes stay
// unique across restarts.
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <unordered_set>

#include <boost/asio/any_io_executor.hpp>
#include <nlohmann/json.hpp>

#include "tinsel/server/config.hpp"
#include "limits/address_limits.hpp"
#include "rooms/identities.hpp"
#include "rooms/room.hpp"
#include "storage/journal.hpp"

namespace tinsel::server {

class cluster_lease;

class lobby {
 public:
  // `next_executor`: the executor each new room runs on (one of the server's threads, in turn).
  lobby(std::function<boost::asio::any_io_executor()> next_executor, const config& cfg, address_limits& limits, storage::journal* journal = nullptr);

  // At start: every room the journal holds open is rebuilt, and its players' identities restored
  // so that they can resume with their tokens. A room that does not replay is set aside (logged;
  // its code answers room_unavailable). Returns the number of rooms recovered.
  std::size_t recover(identities& ids);
  // A room code that was set aside because its room could not be recovered.
  bool set_aside(const std::string& code) const;

  struct created {
    std::shared_ptr<room> r;                         // null when refused
    std::optional<address_limits::refusal> refused;  // too_many_rooms
    bool storage_failed = false;                     // cluster mode: no code could be claimed
  };
  // Creates a room with a fresh code for a client at address key `creator`, if its limits allow;
  // options are already normalized.
  created create(const engine::game_info& game, nlohmann::json options, const std::string& creator);
  // False while the journal cannot write: a new room could not be saved, so none is made.
  bool can_save() const { return !journal_ || journal_->writable(); }
  std::shared_ptr<room> find(const std::string& code) const;
  std::size_t size() const;
  // Calls f for every open room, under the registry's lock (f must be quick): /metrics counts them.
  void for_each_room(const std::function<void(const room&)>& f) const;
  // Server shutdown: close every room.
  void close_all();

  // Cluster mode (cluster/lease.hpp): the lease; null outside it.
  void set_cluster(cluster_lease* c) { cluster_ = c; }
  cluster_lease* cluster() const { return cluster_; }
  // Where the room `code` is served: here (a room no live instance owns is claimed and restored
  // first), elsewhere (`instance`, moved), or nowhere (no open room with that code: r null).
  struct routed {
    std::shared_ptr<room> r;
    bool moved = false;
    std::string instance = {};  // moved: its owner; empty while the database cannot tell
    // moved, and the owner has stopped renewing its lease: come back when it has run out.
    std::optional<std::chrono::milliseconds> retry_after = std::nullopt;
  };
  routed route(const std::string& code, identities& ids);
  // Claims an open room that no live instance owns and restores it here; null if another instance
  // has it (or it cannot be restored: it is then set aside).
  std::shared_ptr<room> adopt(const std::string& code, identities& ids);
  // Every room leaves this instance without a write (the lease lapsed, or a drain released them):
  // each room's members are told room_moved.
  void drop_all();

 private:
  void remove(const std::string& code, bool set_aside);
  std::shared_ptr<room> make_room(const std::string& code, const engine::game_info& game, nlohmann::json options,
                                  bool recovered);
  // A stored room rebuilt (identities restored, timers running); null when it does not replay (set aside).
  std::shared_ptr<room> rebuild(const storage::stored_room& sr, identities& ids);
  // A code no room here has, nor (with a journal) any room this server ever had. Under mutex_.
  std::string fresh_code() const;

  cluster_lease* cluster_ = nullptr;
  std::mutex adopt_mutex_;  // one claim at a time: a room is never rebuilt twice here

  std::function<boost::asio::any_io_executor()> next_executor_;
  struct entry {
    std::shared_ptr<room> r;
    std::string creator;  // address key
  };

  const config& cfg_;
  address_limits& limits_;
  mutable std::mutex mutex_;
  std::unordered_map<std::string, entry> rooms_;
  storage::journal* journal_;
  std::unordered_set<std::string> used_codes_;  // with a journal: every code ever handed out
  std::unordered_set<std::string> set_aside_;
};

}  // namespace tinsel::server
