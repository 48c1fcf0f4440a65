#include "tinsel/server/server.hpp"

#include <map>
#include <stdexcept>
#include <thread>
#include <vector>

#include <boost/asio/io_context.hpp>
#include <boost/asio/signal_set.hpp>
#include <boost/asio/steady_timer.hpp>
#include <spdlog/spdlog.h>

#include "tinsel/server/config.hpp"
#include "cluster/shared_misses.hpp"
#include "net/io_pool.hpp"
#include "net/listener.hpp"
#include "net/metrics_listener.hpp"
#include "net/ws_session.hpp"
#include "ops/metrics.hpp"

namespace tinsel::server {

namespace net = boost::asio;

std::unique_ptr<storage::journal> server_state::open_journal(const config& cfg, std::string& status) {
  status = "off";
  // Cluster mode commits with synchronous_commit on: the database can crash on its own, and a
  // room's next owner reads what it committed (CLUSTER.md, "Durability").
  const auto d = cfg.durability == "power" || !cfg.instance.empty() ? storage::durability::power : storage::durability::process;
  if (cfg.journal == "postgres") {
    // A database that was asked for and cannot be used stops the start (the caller's one line):
    // unlike a data folder, nothing here is the server's own to fall back on.
    if (!cfg.instance.empty()) storage::name_postgres_sessions(cfg.instance);
    auto j = storage::open_postgres_journal(cfg.postgres, d, cfg.keep_records_days);
    status = "postgres";
    spdlog::info("journal open postgres=\"{}\" durability={}", storage::postgres_target(cfg.postgres),
                 d == storage::durability::power ? "power" : "process");
    return j;
  }
  if (cfg.journal != "sqlite") {
    spdlog::info("journal off: rooms live in memory only");
    return nullptr;
  }
  try {
    auto j = storage::open_sqlite_journal(cfg.data_dir, d, cfg.keep_records_days);
    status = "sqlite";
    spdlog::info("journal open data_dir={} durability={}", cfg.data_dir, cfg.durability);
    return j;
  } catch (const std::exception& e) {
    status = "unavailable";
    spdlog::error("journal unavailable, rooms will NOT survive a restart data_dir={} error=\"{}\"", cfg.data_dir, e.what());
    return nullptr;
  }
}

namespace {
unsigned thread_count(const config& cfg) { return cfg.threads ? cfg.threads : std::max(1u, std::thread::hardware_concurrency()); }
}  // namespace

struct server::impl {
  explicit impl(const config& cfg)
      : pool(thread_count(cfg)),
        state(std::make_shared<server_state>([this] { return pool.next(); }, cfg)),
        signals(pool.main()),
        drain_timer(pool.main()) {}

  void begin_shutdown();
  void drain_cluster();
  void start_metrics();
  void drain(std::chrono::steady_clock::time_point deadline);

  io_pool pool;
  std::shared_ptr<server_state> state;
  std::shared_ptr<listener> accept;
  std::shared_ptr<metrics_listener> metrics_accept;  // null: --metrics-bind off
  net::signal_set signals;
  net::steady_timer drain_timer;
  std::thread drainer;  // cluster mode's drain (its database work)
};

void server::impl::begin_shutdown() {
  if (state->stopping.exchange(true)) return;
  spdlog::info("shutting down connections={} rooms={}", state->session_count(), state->rooms.size());
  if (accept) accept->stop();
  if (metrics_accept) metrics_accept->stop();
  signals.cancel();
  if (state->cluster) return drain_cluster();
  // With a journal the rooms come back: clients are told the server restarts (1012) and reconnect.
  const bool durable = state->journal != nullptr;
  state->for_each_session([durable](const std::shared_ptr<ws_session>& s) {
    if (durable) s->close_with(close_code::service_restart, "server restarting");
    else s->close_with(close_code::going_away, "server shutting down");
  });
  state->rooms.close_all();
  drain(std::chrono::steady_clock::now() + state->cfg.shutdown_grace);
}

// Cluster mode's SIGTERM: /healthz says 503 and new rooms are refused (stopping); each room, after
// its write in flight, tells its members room_moved and leaves; the journal writes what is queued
// and releases the rooms in the database, so that the next instance claims them at once; then the
// lease ends and the process exits 0. The database work runs on a thread of its own.
void server::impl::drain_cluster() {
  const auto started = std::chrono::steady_clock::now();
  state->cluster->set_draining();
  state->rooms.drop_all();
  drainer = std::thread([this, started] {
    // The rooms leave on their strands (each after its write in flight): wait for them, bounded.
    const auto deadline = std::chrono::steady_clock::now() + state->cfg.shutdown_grace;
    while (state->rooms.size() > 0 && std::chrono::steady_clock::now() < deadline)
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    const bool released = state->journal->release_all();
    state->cluster->stop(true);
    spdlog::info("drained released={} ms={}", released,
                 std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - started).count());
    net::post(pool.main(), [this] {
      state->for_each_session([](const std::shared_ptr<ws_session>& s) { s->close_with(close_code::service_restart, "server restarting"); });
      drain(std::chrono::steady_clock::now() + state->cfg.shutdown_grace);
    });
  });
}

// Waits for the sessions to finish their close handshakes, then stops the I/O threads.
void server::impl::drain(std::chrono::steady_clock::time_point deadline) {
  if (state->session_count() == 0 || std::chrono::steady_clock::now() >= deadline) {
    spdlog::info("stopped");
    pool.stop();
    return;
  }
  drain_timer.expires_after(std::chrono::milliseconds(20));
  drain_timer.async_wait([this, deadline](boost::system::error_code) { drain(deadline); });
}

namespace {

// The gauges are read now, not kept up to date: an idle server does nothing for its metrics.
std::string scrape(const server_state& state) {
  metrics_gauges g;
  g.connections = state.session_count();
  std::map<std::pair<std::string_view, std::string_view>, std::size_t> rooms;
  for (const auto* game : engine::builtin_games().all())
    for (const std::string_view status : {"lobby", "playing", "finished"}) rooms[{game->id, status}] = 0;
  state.rooms.for_each_room([&](const room& r) { ++rooms[{r.game_info().id, r.status_name()}]; });
  for (const auto& [key, n] : rooms) g.rooms_by_game_and_status.push_back({std::string(key.first), std::string(key.second), n});
  if (state.journal) g.journal_writable = state.journal->writable() ? 1 : 0;
  return metrics().render(g);
}

}  // namespace

// The metrics listener (--metrics-bind). The default address is best effort, so that a second
// server on one machine still starts; an address the operator chose must be bound.
void server::impl::start_metrics() {
  const auto& cfg = state->cfg;
  if (cfg.metrics_address.empty()) return;
  const std::string where = (cfg.metrics_address.find(':') != std::string::npos ? "[" + cfg.metrics_address + "]" : cfg.metrics_address);
  try {
    const net::ip::tcp::endpoint ep(net::ip::make_address(cfg.metrics_address), cfg.metrics_port);
    metrics_accept = std::make_shared<metrics_listener>(pool.main(), ep, [s = state] { return scrape(*s); });
  } catch (const boost::system::system_error& e) {
    const std::string what = "cannot listen on " + where + ":" + std::to_string(cfg.metrics_port) + " for metrics: " + e.code().message();
    if (cfg.metrics_required) throw std::runtime_error(what);
    spdlog::warn("metrics off: {} (choose another with --metrics-bind ADDR:PORT, or --metrics-bind off)", what);
    return;
  }
  metrics_accept->run();
  spdlog::info("metrics listening metrics=http://{}:{}/metrics", where, metrics_accept->port());
}

server::server(const config& cfg) : impl_(std::make_unique<impl>(cfg)) {}

server::~server() {
  shutdown();
  wait();
}

std::uint16_t server::start() {
  const auto& cfg = impl_->state->cfg;
  boost::system::error_code ec;
  const auto address = net::ip::make_address(cfg.bind, ec);
  if (ec) throw std::runtime_error("invalid bind address '" + cfg.bind + "'");
  try {
    impl_->accept = std::make_shared<listener>(impl_->pool, net::ip::tcp::endpoint(address, cfg.port), impl_->state);
  } catch (const boost::system::system_error& e) {
    throw std::runtime_error("cannot listen on " + cfg.bind + ":" + std::to_string(cfg.port) + ": " + e.code().message());
  }
  auto& state = *impl_->state;
  if (!cfg.instance.empty()) {
    // Cluster mode: no room is recovered at start; each is claimed by whichever instance is asked
    // for it first, or by a sweep (rooms with bots or timers go on with nobody connected).
    state.cluster = std::make_unique<cluster_lease>(cfg.postgres, cfg.instance, cfg.lease, cfg.renew, *state.journal);
    state.rooms.set_cluster(state.cluster.get());
    state.shared_misses = std::make_unique<shared_misses>(cfg.postgres);
    state.limits.share_misses(state.shared_misses.get());
  }
  state.rooms.recover(state.players);
  impl_->accept->run();
  impl_->start_metrics();
  if (state.cluster) {
    auto* s = impl_->state.get();
    state.cluster->start({[s] { s->rooms.drop_all(); },
                          [s](const std::vector<std::string>& codes) {
                            // Within a renewal interval: the lease thread renews when this returns
                            // (the codes left are found again next round).
                            const auto until = std::chrono::steady_clock::now() + s->cfg.renew;
                            for (const auto& code : codes) {
                              if (s->stopping || std::chrono::steady_clock::now() >= until) return;
                              s->rooms.adopt(code, s->players);
                            }
                          }});
    spdlog::info("cluster mode instance={} lease_ms={} renew_ms={}", cfg.instance, cfg.lease.count(), cfg.renew.count());
  }
  if (cfg.handle_signals) {
    impl_->signals.add(SIGINT);
    impl_->signals.add(SIGTERM);
    impl_->signals.async_wait([this](boost::system::error_code e, int sig) {
      if (e) return;
      spdlog::info("signal received signal={}", sig);
      impl_->begin_shutdown();
    });
  }
  impl_->pool.run();
  spdlog::info("running threads={} (one event loop each)", impl_->pool.size());
  return impl_->accept->port();
}

void server::shutdown() {
  net::post(impl_->pool.main(), [this] { impl_->begin_shutdown(); });
}

void server::wait() {
  impl_->pool.join();
  if (impl_->drainer.joinable()) impl_->drainer.join();
  if (impl_->state->cluster) impl_->state->cluster->stop(false);
  if (impl_->state->journal) impl_->state->journal->close();
}

}  // namespace tinsel::server
