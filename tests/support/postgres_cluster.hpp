#pragma once
// A throwaway PostgreSQL 15 for tests (postgres_cluster.sh): initdb'd in a temporary folder, only a
// unix socket there, run as the `postgres` user. The run's shared cluster is the CTest fixture's
// (TINSEL_TEST_POSTGRES_DIR), or, for a test binary run by hand, one this process starts for itself
// and stops at exit. A test that stops the database (crash) gets a private one.
//
// When PostgreSQL is not installed, asking for a cluster ends the process with 77, which CTest
// reports as skipped (SKIP_RETURN_CODE 77), never as passed.
#include <string>

namespace tinsel::test {

class postgres_cluster {
 public:
  // The run's cluster, shared by every test (one database each).
  static postgres_cluster& shared();
  // A cluster of this test's own, in a new temporary folder; stopped and removed by the destructor.
  postgres_cluster();
  ~postgres_cluster();
  postgres_cluster(const postgres_cluster&) = delete;
  postgres_cluster& operator=(const postgres_cluster&) = delete;

  // A new, empty database; its libpq connection string.
  std::string create_database();
  // The database stops at once, as in a crash (pg_ctl stop -m immediate), and starts again.
  void crash();
  void restart();

  const std::string& dir() const { return dir_; }

 private:
  struct adopt {};
  postgres_cluster(adopt, std::string dir);
  std::string dir_;
  bool owned_ = true;
};

}  // namespace tinsel::test
