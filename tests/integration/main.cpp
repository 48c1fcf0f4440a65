#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>
#include <spdlog/spdlog.h>

int main(int argc, char* argv[]) {
  // The servers under test log through spdlog; keep test output to what matters.
  spdlog::set_level(spdlog::level::warn);
  return Catch::Session().run(argc, argv);
}
