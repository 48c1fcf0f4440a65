#pragma once
// Cluster mode (--instance; ../shared/design/CLUSTER.md): this instance's lease in the shared
// PostgreSQL database, and the directory of rooms as the instances see it.
//
// The instance registers with a fresh random incarnation and renews `lease_until` on the
// database's clock every --renew-ms, on a thread and a connection of its own. It serves its rooms
// only while its own steady clock is inside the last acknowledged renewal + --lease-ms minus a
// margin (valid()); when that runs out, a watchdog thread says so at once (lapsed), whatever the
// database connection is doing, and the instance drops every room and registers again with a new
// incarnation. An expired lease ends only by a write: the sweep on every instance tombstones it
// (its incarnation negated), so that a renewal in flight and a takeover serialize on the row.
// The sweep then hands the open rooms that no live incarnation owns to `orphans`, to be claimed.
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

namespace tinsel::server {

namespace storage {
class journal;
namespace pg {
class connection;
}
}  // namespace storage

class cluster_lease {
 public:
  using clock = std::chrono::steady_clock;
  struct hooks {
    // The lease is no longer valid (lapsed, or this incarnation was tombstoned): every room must
    // leave this instance now. From the watchdog or the lease thread.
    std::function<void()> lapsed;
    // Open rooms that no live incarnation owns (their owner died, drained, or lapsed): claim them.
    // From the lease thread; may block (the claims are database writes).
    std::function<void(const std::vector<std::string>& codes)> orphans;
  };

  // Connects and registers `id`, waiting up to one lease for an earlier process's lease to run
  // out. Throws std::runtime_error with one clear line when the database cannot be used or `id` is
  // live in another process.
  cluster_lease(const std::string& conninfo, std::string id, std::chrono::milliseconds lease, std::chrono::milliseconds renew,
                storage::journal& journal);
  ~cluster_lease();

  // Starts renewing and sweeping.
  void start(hooks h);
  // Stops the threads; with `release`, the instance's row says it is gone (lease over at once).
  void stop(bool release);

  const std::string& id() const { return id_; }
  // Whether this instance may serve its rooms now (its own steady clock, with a margin).
  bool valid() const { return clock::now().time_since_epoch().count() < valid_until_.load(std::memory_order_acquire); }
  // Drain: no more orphans are claimed here, and other instances are told (instances.draining).
  void set_draining();

  // Where a room lives, as the database says now (one indexed read; blocks the calling thread).
  struct whereabouts {
    enum class kind { none, here, elsewhere, orphaned, unknown } what = kind::unknown;
    std::string instance;  // elsewhere: its live owner
    // elsewhere, and its owner has missed a renewal (it may be dead): how long its lease still
    // runs; the room can be claimed once that has passed, unless the owner renews after all. Or
    // the owner is draining: a moment, until it has released the room.
    std::optional<std::chrono::milliseconds> owner_silent = std::nullopt;
  };
  // An owner whose lease has run out (not yet tombstoned) is tombstoned here, and the room is then
  // orphaned: the client asking for it need not wait for a sweep. `unknown`: the database cannot
  // be reached.
  whereabouts locate(const std::string& code);

 private:
  void run();
  void watch();
  bool renew();
  void register_incarnation(bool first);
  void sweep();
  void extend(clock::time_point sent);

  std::string conninfo_;
  std::string id_;
  std::chrono::milliseconds lease_;
  std::chrono::milliseconds renew_;
  std::chrono::milliseconds margin_;
  storage::journal& journal_;
  hooks hooks_;

  std::unique_ptr<storage::pg::connection> db_;      // the lease thread's
  std::mutex lookup_mutex_;
  std::unique_ptr<storage::pg::connection> lookup_;  // locate(), from any thread, one at a time
  std::atomic<clock::rep> lookup_paused_until_{0};   // after a failed lookup: `unknown` at once until then
  std::atomic<long long> incarnation_{0};
  std::atomic<clock::rep> valid_until_{0};
  std::atomic<bool> draining_{false};
  bool lapsed_ = false;  // told (guarded by mutex_)

  std::mutex mutex_;
  std::condition_variable wake_;
  bool stopping_ = false;
  std::thread thread_;
  std::thread watchdog_;
};

}  // namespace tinsel::server
