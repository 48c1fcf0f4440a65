#pragma once
// A real tinsel server on an ephemeral loopback port, in this process, for integration tests.
#include <cstdint>
#include <functional>
#include <memory>

#include "tinsel/server/config.hpp"
#include "tinsel/server/server.hpp"

namespace tinsel::test {

struct test_server {
  explicit test_server(const std::function<void(server::config&)>& tweak = {}) {
    cfg.port = 0;
    cfg.threads = 2;
    cfg.handle_signals = false;
    cfg.log_level = "warn";
    cfg.metrics_address.clear();  // no metrics listener: tests in parallel would contend for 9464
    cfg.journal = "off";  // a test that wants durable rooms sets journal and data_dir
    if (tweak) tweak(cfg);
    srv = std::make_unique<server::server>(cfg);
    port = srv->start();
  }
  ~test_server() {
    srv->shutdown();
    srv->wait();
  }
  server::config cfg;
  std::unique_ptr<server::server> srv;
  std::uint16_t port = 0;
};

}  // namespace tinsel::test
