#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <spdlog/spdlog.h>

#include "journal_store.hpp"
#include "ws_client.hpp"

int main(int argc, char* argv[]) {
  // The servers under test log through spdlog; keep test output to what matters.
  spdlog::set_level(spdlog::level::warn);
#ifdef TINSEL_TEST_JOURNAL_POSTGRES
  // postgres_journal_tests: the durable-rooms tests on the PostgreSQL journal.
  tinsel::test::set_journal_under_test(tinsel::test::journal_kind::postgres);
#endif
  // By hand, either binary on either journal: TINSEL_TEST_JOURNAL=sqlite|postgres.
  if (const char* j = std::getenv("TINSEL_TEST_JOURNAL"))
    tinsel::test::set_journal_under_test(std::string(j) == "postgres" ? tinsel::test::journal_kind::postgres
                                                                      : tinsel::test::journal_kind::sqlite);
  const int failed = Catch::Session().run(argc, argv);
  // A server frame that broke protocol/schema but that no test read was printed when its client
  // closed; it still fails the run, so the schemas and the server cannot drift apart unnoticed.
  if (const auto n = tinsel::test::unreported_schema_violations(); n > 0 && failed == 0) {
    std::fprintf(stderr, "%zu server frame(s) violated protocol/schema (see SCHEMA VIOLATION above)\n", n);
    return 1;
  }
  return failed;
}
