// This instance's lease and the directory of rooms, in cluster mode (lease.hpp).
#include "cluster/lease.hpp"

#include <algorithm>
#include <random>
#include <stdexcept>

#include <spdlog/spdlog.h>

#include "ops/metrics.hpp"
#include "storage/journal.hpp"
#include "storage/pg.hpp"

namespace tinsel::server {

namespace {

long long fresh_incarnation() {
  std::random_device rd;
  const auto v = (static_cast<unsigned long long>(rd()) << 32) ^ rd();
  return static_cast<long long>(v >> 2) + 1;  // positive: a negative one is a tombstone
}

// Ends the database sessions of an instance just tombstoned, found by their name (`session`, its
// application_name): a stopped process keeps its sessions, and a transaction it left open keeps
// row locks that a claim of its rooms would wait on for as long as it stays stopped. Its writes
// are fenced anyway; a process that wakes finds its connections gone and connects again. Not a
// condition of the takeover (a role that may not end other sessions only logs it here, and a
// claim then waits at most its lock_timeout).
void end_sessions(storage::pg::connection& db, const std::string& instance, const std::string& session) {
  try {
    // Filtered first (a materialized CTE), then ended: within one WHERE the planner may call
    // pg_terminate_backend before the other conditions, on any session.
    auto e = db.exec("WITH s AS MATERIALIZED (SELECT pid FROM pg_stat_activity WHERE application_name = $1 AND pid <> pg_backend_pid()) "
                     "SELECT count(*) FROM s WHERE pg_terminate_backend(s.pid)",
                     {session});
    if (const auto n = e.integer(0, 0); n > 0) spdlog::info("sessions of a tombstoned instance ended instance={} sessions={}", instance, n);
  } catch (const storage::pg::error& err) {
    spdlog::warn("sessions of a tombstoned instance not ended instance={} error=\"{}\"", instance, err.what());
  }
}

// How long a client asking for a room of a draining instance waits before it asks again: the
// instance releases its rooms as soon as their last writes are done.
constexpr std::chrono::milliseconds drain_wait{300};
// After a lookup failed on the database, how long the next ones answer `unknown` at once.
constexpr std::chrono::milliseconds lookup_pause{1000};

// An interval of `ms` milliseconds on the database's clock, as SQL.
const char* lease_until_sql = "clock_timestamp() + make_interval(secs => $3::double precision / 1000)";

}  // namespace

cluster_lease::cluster_lease(const std::string& conninfo, std::string id, std::chrono::milliseconds lease,
                             std::chrono::milliseconds renew, storage::journal& journal)
    : conninfo_(conninfo),
      id_(std::move(id)),
      lease_(lease),
      renew_(renew),
      // A renewal acknowledged at T keeps the rooms until T + lease on the database's clock; we
      // stop serving a renewal interval earlier by our own clock (measured from when it was sent).
      margin_(renew),
      journal_(journal) {
  try {
    db_ = std::make_unique<storage::pg::connection>(conninfo_);
    // A database that does not answer must not hold the lease thread past a renewal or two.
    db_->exec("SET statement_timeout = " + std::to_string(2 * renew_.count()));
    register_incarnation(true);
  } catch (const storage::pg::error& e) {
    throw std::runtime_error(std::string("cluster mode: cannot use the database: ") + e.what());
  }
}

cluster_lease::~cluster_lease() { stop(false); }

void cluster_lease::start(hooks h) {
  hooks_ = std::move(h);
  thread_ = std::thread([this] { run(); });
  watchdog_ = std::thread([this] { watch(); });
}

void cluster_lease::stop(bool release) {
  {
    std::lock_guard lock(mutex_);
    if (stopping_) return;
    stopping_ = true;
  }
  wake_.notify_all();
  if (thread_.joinable()) thread_.join();
  if (watchdog_.joinable()) watchdog_.join();
  valid_until_.store(0, std::memory_order_release);
  if (!release || !db_) return;
  try {
    // Gone: its lease ends now (a tombstone), so nobody waits for it to run out.
    db_->exec("UPDATE instances SET incarnation = -abs(incarnation), lease_until = clock_timestamp() WHERE id = $1 AND incarnation = $2",
              {id_, std::to_string(incarnation_.load())});
    spdlog::info("lease ended instance={}", id_);
  } catch (const std::exception& e) {
    spdlog::warn("lease not ended (it runs out by itself) instance={} error=\"{}\"", id_, e.what());
  }
}

void cluster_lease::set_draining() {
  draining_.store(true, std::memory_order_release);
  try {
    std::lock_guard lock(lookup_mutex_);
    if (!lookup_) lookup_ = std::make_unique<storage::pg::connection>(conninfo_);
    lookup_->exec("UPDATE instances SET draining = true WHERE id = $1 AND incarnation = $2", {id_, std::to_string(incarnation_.load())});
  } catch (const std::exception& e) {
    spdlog::debug("draining not recorded instance={} error=\"{}\"", id_, e.what());
  }
}

void cluster_lease::extend(clock::time_point sent) {
  valid_until_.store((sent + lease_ - margin_).time_since_epoch().count(), std::memory_order_release);
  wake_.notify_all();
}

// A fresh incarnation for this id. The first (at start) waits up to one lease for an earlier
// process's lease to run out; a live one keeps renewing, and then this start is refused.
void cluster_lease::register_incarnation(bool first) {
  const auto deadline = clock::now() + lease_ + renew_;
  const auto old = incarnation_.load();
  const auto inc = fresh_incarnation();
  for (;;) {
    const auto sent = clock::now();
    auto r = db_->exec(std::string("INSERT INTO instances(id, incarnation, lease_until, session) VALUES ($1, $2, ") + lease_until_sql +
                           ", $5) ON CONFLICT (id) DO UPDATE SET incarnation = EXCLUDED.incarnation, lease_until = EXCLUDED.lease_until, "
                           "draining = false, started_at = now(), session = EXCLUDED.session "
                           "WHERE instances.incarnation <= 0 OR instances.lease_until < clock_timestamp() OR instances.incarnation = $4",
                       {id_, std::to_string(inc), std::to_string(lease_.count()), std::to_string(old), storage::pg::session_name()});
    if (r.affected() == 1) {
      incarnation_.store(inc);
      journal_.set_owner(id_, inc);
      extend(sent);
      spdlog::info("lease taken instance={} lease_ms={} renew_ms={}{}", id_, lease_.count(), renew_.count(),
                   first ? "" : " (a new incarnation: this instance's rooms went to others)");
      return;
    }
    if (!first || clock::now() > deadline)
      throw std::runtime_error("the instance id '" + id_ + "' is in use by a live server (its lease is renewed); give each instance its own --instance");
    if (first && clock::now() + renew_ <= deadline)
      spdlog::info("waiting for an earlier process's lease to run out instance={}", id_);
    std::this_thread::sleep_for(renew_);
  }
}

bool cluster_lease::renew() {
  const auto sent = clock::now();
  auto r = db_->exec(std::string("UPDATE instances SET lease_until = ") + lease_until_sql + " WHERE id = $1 AND incarnation = $2",
                     {id_, std::to_string(incarnation_.load()), std::to_string(lease_.count())});
  if (r.affected() == 1) {
    extend(sent);
    return true;
  }
  return false;
}

void cluster_lease::run() {
  std::unique_lock lock(mutex_);
  while (!stopping_) {
    const bool lapsed = lapsed_;
    lock.unlock();
    try {
      if (!db_->alive()) {
        db_->reconnect();
        db_->exec("SET statement_timeout = " + std::to_string(2 * renew_.count()));
      }
      if (lapsed) {
        register_incarnation(false);
        std::lock_guard again(mutex_);
        lapsed_ = false;
      } else if (!renew()) {
        // Tombstoned: another instance found the lease run out and may have taken the rooms.
        metrics().lease_lapsed();
        spdlog::warn("lease lost: this incarnation was tombstoned; every room leaves this instance instance={}", id_);
        valid_until_.store(0, std::memory_order_release);
        {
          std::lock_guard again(mutex_);
          lapsed_ = true;
        }
        if (hooks_.lapsed) hooks_.lapsed();
        register_incarnation(false);
        std::lock_guard again(mutex_);
        lapsed_ = false;
      }
      bool told = false;
      {
        std::lock_guard again(mutex_);
        told = lapsed_;
      }
      if (!told && valid() && !draining_.load(std::memory_order_acquire)) sweep();
    } catch (const std::exception& e) {
      spdlog::warn("lease not renewed instance={} error=\"{}\"", id_, e.what());
    }
    lock.lock();
    wake_.wait_for(lock, renew_, [this] { return stopping_; });
  }
}

// Says at once when the lease runs out by this instance's own clock, whatever the lease thread
// is waiting for.
void cluster_lease::watch() {
  std::unique_lock lock(mutex_);
  while (!stopping_) {
    const auto until = clock::time_point(clock::duration(valid_until_.load(std::memory_order_acquire)));
    if (!lapsed_ && clock::now() >= until && until.time_since_epoch().count() != 0) {
      lapsed_ = true;
      lock.unlock();
      metrics().lease_lapsed();
      spdlog::warn("lease lapsed: not renewed in time; every room leaves this instance instance={} lease_ms={}", id_, lease_.count());
      if (hooks_.lapsed) hooks_.lapsed();
      lock.lock();
      continue;
    }
    if (lapsed_ || until.time_since_epoch().count() == 0) wake_.wait(lock);
    else wake_.wait_until(lock, until);
  }
}

void cluster_lease::sweep() {
  // Expired leases end by a write (CLUSTER.md): a renewal in flight then finds the tombstone.
  auto t = db_->exec("UPDATE instances SET incarnation = -abs(incarnation) WHERE incarnation > 0 AND lease_until < clock_timestamp() "
                     "RETURNING id, session");
  for (int i = 0; i < t.rows(); ++i) {
    spdlog::warn("instance lease ran out, tombstoned instance={} by={}", t.text(i, 0), id_);
    if (!t.null(i, 1)) end_sessions(*db_, t.text(i, 0), t.text(i, 1));
  }
  auto o = db_->exec(
      "SELECT r.code FROM rooms r LEFT JOIN instances i ON i.id = r.owner WHERE r.state = 'open' AND "
      "(r.owner IS NULL OR i.incarnation IS DISTINCT FROM r.owner_incarnation) ORDER BY random() LIMIT 64");
  if (o.rows() == 0 || !hooks_.orphans) return;
  std::vector<std::string> codes;
  for (int i = 0; i < o.rows(); ++i) codes.push_back(o.text(i, 0));
  hooks_.orphans(codes);
}

cluster_lease::whereabouts cluster_lease::locate(const std::string& code) {
  if (clock::now().time_since_epoch().count() < lookup_paused_until_.load(std::memory_order_acquire)) return {whereabouts::kind::unknown, {}};
  try {
    std::lock_guard lock(lookup_mutex_);
    if (!lookup_) lookup_ = std::make_unique<storage::pg::connection>(conninfo_);
    else if (!lookup_->alive()) lookup_->reconnect();
    for (int attempt = 0; attempt < 2; ++attempt) {
      auto r = lookup_->exec(
          "SELECT r.state, r.owner, r.owner_incarnation, i.incarnation, i.lease_until > clock_timestamp(), "
          "(extract(epoch FROM i.lease_until - clock_timestamp()) * 1000)::bigint, i.draining "
          "FROM rooms r LEFT JOIN instances i ON i.id = r.owner WHERE r.code = $1",
          {code});
      if (r.rows() == 0 || r.text(0, 0) != "open") return {whereabouts::kind::none, {}};
      if (r.null(0, 1) || r.null(0, 3) || r.text(0, 2) != r.text(0, 3)) return {whereabouts::kind::orphaned, {}};
      const auto owner = r.text(0, 1);
      if (owner == id_ && r.integer(0, 2) == incarnation_.load()) return {whereabouts::kind::here, owner};
      if (r.text(0, 4) == "t") {
        // A live owner renews every renew_, so its lease always has more than lease_ - renew_
        // left; with half a renewal less it has missed one (dead, paused or cut off): say how
        // long until the room can be claimed, rather than sending the client to it.
        const std::chrono::milliseconds left(r.integer(0, 5));
        if (left < lease_ - renew_ - renew_ / 2) return {whereabouts::kind::elsewhere, owner, left};
        // A draining owner releases its rooms in a moment: sending the client to it would only
        // meet its closing listener (or HAProxy's redispatch) until the proxy marks it down.
        if (r.text(0, 6) == "t") return {whereabouts::kind::elsewhere, owner, std::min(left, drain_wait)};
        return {whereabouts::kind::elsewhere, owner};
      }
      // Its owner's lease ran out and no sweep has tombstoned it yet: done here, so that the
      // client asking need not wait.
      auto t = lookup_->exec(
          "UPDATE instances SET incarnation = -abs(incarnation) WHERE id = $1 AND incarnation = $2 AND lease_until < clock_timestamp() "
          "RETURNING session",
          {owner, r.text(0, 3)});
      if (t.rows() == 1) {
        spdlog::warn("instance lease ran out, tombstoned instance={} by={} room={}", owner, id_, code);
        if (!t.null(0, 0)) end_sessions(*lookup_, owner, t.text(0, 0));
        return {whereabouts::kind::orphaned, {}};
      }
    }
  } catch (const std::exception& e) {
    // For a moment the next lookups answer `unknown` at once: a hello must not wait on a
    // connection attempt (up to libpq's connect_timeout) that the last one just failed.
    lookup_paused_until_.store((clock::now() + lookup_pause).time_since_epoch().count(), std::memory_order_release);
    spdlog::warn("room not located: the database cannot be reached room={} error=\"{}\"", code, e.what());
  }
  return {whereabouts::kind::unknown, {}};
}

}  // namespace tinsel::server
