#pragma once
// A thin RAII layer over libpq's C API, the size the PostgreSQL journal needs: a connection, a
// result, statements with text parameters. Errors are exceptions (pg::error) carrying libpq's
// message and the SQLSTATE; callers that must go on (the journal's writer) catch them.
//
// A connection string (conninfo) may hold a password: nothing here ever puts it in a message, and
// describe() names the target without it, for the log.
#include <libpq-fe.h>

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace tinsel::server::storage::pg {

class error : public std::runtime_error {
 public:
  error(const std::string& what, std::string sqlstate) : std::runtime_error(what), sqlstate_(std::move(sqlstate)) {}
  // Five characters ("40P01"), or empty when the server sent none (the connection is gone).
  const std::string& sqlstate() const { return sqlstate_; }

 private:
  std::string sqlstate_;
};

class result {
 public:
  explicit result(PGresult* r) : r_(r) {}
  ~result() { PQclear(r_); }
  result(result&& o) noexcept : r_(o.r_) { o.r_ = nullptr; }
  result& operator=(result&& o) noexcept {
    std::swap(r_, o.r_);
    return *this;
  }
  result(const result&) = delete;
  result& operator=(const result&) = delete;

  int rows() const { return PQntuples(r_); }
  bool null(int row, int col) const { return PQgetisnull(r_, row, col) != 0; }
  std::string text(int row, int col) const {
    return std::string(PQgetvalue(r_, row, col), static_cast<std::size_t>(PQgetlength(r_, row, col)));
  }
  long long integer(int row, int col) const;
  // Rows an INSERT, UPDATE or DELETE touched.
  long long affected() const;

 private:
  PGresult* r_;
};

// One parameter, as text; nullopt is SQL NULL.
using param = std::optional<std::string>;

class connection {
 public:
  // Connects (blocking, at most connect_timeout seconds: 5 unless the conninfo says otherwise).
  // Throws pg::error with libpq's reason, never the password.
  explicit connection(const std::string& conninfo);
  ~connection() { PQfinish(c_); }
  connection(const connection&) = delete;
  connection& operator=(const connection&) = delete;

  // Whether the connection is up as far as we know: a server that went away is noticed by the
  // next statement, which fails without a SQLSTATE (libpq's own error: the connection is lost,
  // even where PQstatus does not say so yet).
  bool alive() const { return !lost_ && PQstatus(c_) == CONNECTION_OK; }
  // Connects again with the same settings; throws like the constructor. Prepared statements are
  // gone afterwards: prepare them again.
  void reconnect();

  // Runs SQL without parameters (may be several statements); throws on error.
  result exec(const std::string& sql);
  // Runs one statement with $1, $2, ... bound to `params` (text); throws on error.
  result exec(const std::string& sql, const std::vector<param>& params);
  // A named statement, prepared once per connection, run with text parameters.
  void prepare(const std::string& name, const std::string& sql);
  result run(const std::string& name, const std::vector<param>& params);

 private:
  result check(PGresult* r, std::string_view what);
  std::string conninfo_;
  PGconn* c_ = nullptr;
  bool lost_ = false;
};

// "host=/tmp/x port=5432 dbname=tinsel user=tinsel": where a conninfo points, without its password
// (or why it is not a connection string at all), for log lines and error messages.
std::string describe(const std::string& conninfo);

// BEGIN at construction; ROLLBACK at destruction unless commit() went through (nothing to roll
// back on a lost connection: the server ends the transaction itself).
class transaction {
 public:
  explicit transaction(connection& c) : c_(c) { c_.exec("BEGIN"); }
  ~transaction() {
    if (done_ || !c_.alive()) return;
    try {
      c_.exec("ROLLBACK");
    } catch (const error&) {
    }
  }
  transaction(const transaction&) = delete;
  transaction& operator=(const transaction&) = delete;
  void commit() {
    c_.exec("COMMIT");
    done_ = true;
  }

 private:
  connection& c_;
  bool done_ = false;
};

// The application_name of every connection this process makes from now on (cluster mode:
// "tinsel/<instance>/<process tag>", so that another instance can end this process's sessions
// when it takes its rooms; see cluster/lease.cpp). Empty: "tinsel-server" unless the conninfo
// names one.
void set_session_name(const std::string& name);
std::string session_name();

// Whether `conninfo` parses as a libpq connection string; `why` says what is wrong if not.
bool valid_conninfo(const std::string& conninfo, std::string& why);

}  // namespace tinsel::server::storage::pg
