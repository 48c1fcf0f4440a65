// tinsel-server: parses flags and environment, sets up logging, runs until SIGINT/SIGTERM; or,
// with --healthcheck URL, checks another server's health and exits.
#include <cstdlib>
#include <iostream>

#include <spdlog/spdlog.h>

#include "ops/healthcheck.hpp"
#include "ops/log_format.hpp"
#include "tinsel/server/config.hpp"
#include "tinsel/server/server.hpp"

int main(int argc, char** argv) {
  using namespace tinsel::server;
  auto parsed = parse_args(std::vector<std::string>(argv, argv + argc), [](const char* n) -> const char* { return std::getenv(n); });
  if (!parsed.cfg) {
    (parsed.exit_code == 0 ? std::cout : std::cerr) << parsed.output;
    return parsed.exit_code;
  }
  const config& cfg = *parsed.cfg;
  if (cfg.healthcheck_url) {
    const auto health = check_health(*cfg.healthcheck_url);
    (health.healthy ? std::cout : std::cerr) << "healthcheck " << *cfg.healthcheck_url << ": " << health.message << "\n";
    return health.healthy ? 0 : 1;
  }
  spdlog::set_level(spdlog::level::from_str(cfg.log_level));
  set_log_format(cfg.log_format);
  try {
    server srv(cfg);
    const auto port = srv.start();
    const std::string host = cfg.bind == "0.0.0.0" || cfg.bind == "::" ? "localhost" : cfg.bind;
    spdlog::info("tinsel-server {} listening url=http://{}:{}/ web_root={} lib_root={}", version_string(), host, port, cfg.web_root, cfg.lib_root);
    srv.wait();
  } catch (const std::exception& e) {
    spdlog::critical("startup failed error={}", e.what());
    return 1;
  }
  return 0;
}
