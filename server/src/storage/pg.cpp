// libpq, thinly (pg.hpp).
#include "storage/pg.hpp"

#include <mutex>

#include <charconv>
#include <memory>

namespace tinsel::server::storage::pg {

namespace {

// PQconninfoParse's options, freed on every path.
struct parsed_conninfo {
  explicit parsed_conninfo(const std::string& conninfo) {
    char* err = nullptr;
    opts = PQconninfoParse(conninfo.c_str(), &err);
    if (err) {
      why = err;
      PQfreemem(err);
    }
  }
  ~parsed_conninfo() {
    if (opts) PQconninfoFree(opts);
  }
  parsed_conninfo(const parsed_conninfo&) = delete;
  parsed_conninfo& operator=(const parsed_conninfo&) = delete;
  std::string value(std::string_view key) const {
    for (auto* o = opts; o && o->keyword; ++o)
      if (key == o->keyword && o->val) return o->val;
    return {};
  }
  PQconninfoOption* opts = nullptr;
  std::string why;
};

std::string trimmed(std::string s) {
  while (!s.empty() && (s.back() == '\n' || s.back() == ' ')) s.pop_back();
  for (auto& ch : s)
    if (ch == '\n') ch = ' ';  // one log line
  return s;
}

// libpq's messages quote pieces of a connection string it could not parse; those pieces may be a
// password, so what stands between quotes goes. A known password goes wherever it appears.
std::string scrub(std::string msg, const std::string& conninfo) {
  parsed_conninfo p(conninfo);
  if (!p.opts) {
    std::string out;
    bool quoted = false;
    for (char ch : msg) {
      if (ch == '"') {
        out += quoted ? "\"" : "\"...";
        quoted = !quoted;
      } else if (!quoted) {
        out += ch;
      }
    }
    return trimmed(out);
  }
  const auto password = p.value("password");
  if (!password.empty())
    for (auto at = msg.find(password); at != std::string::npos; at = msg.find(password, at)) msg.replace(at, password.size(), "***");
  return trimmed(msg);
}

}  // namespace

long long result::integer(int row, int col) const {
  long long v = 0;
  const char* s = PQgetvalue(r_, row, col);
  std::from_chars(s, s + PQgetlength(r_, row, col), v);
  return v;
}

long long result::affected() const {
  const char* s = PQcmdTuples(r_);
  long long v = 0;
  std::from_chars(s, s + std::char_traits<char>::length(s), v);
  return v;
}

bool valid_conninfo(const std::string& conninfo, std::string& why) {
  parsed_conninfo p(conninfo);
  if (!p.opts) why = scrub(p.why, conninfo);
  return p.opts != nullptr;
}

std::string describe(const std::string& conninfo) {
  parsed_conninfo p(conninfo);
  if (!p.opts) return "(not a connection string: " + scrub(p.why, conninfo) + ")";
  std::string out;
  for (const char* key : {"host", "hostaddr", "port", "dbname", "user"}) {
    const auto v = p.value(key);
    if (v.empty()) continue;
    if (!out.empty()) out += ' ';
    out += std::string(key) + "=" + v;
  }
  return out.empty() ? "(libpq defaults)" : out;
}

namespace {
std::mutex session_name_mutex;
std::string session_name_value;  // empty: connections are "tinsel-server", unless the conninfo says otherwise
}  // namespace

void set_session_name(const std::string& name) {
  std::lock_guard lock(session_name_mutex);
  session_name_value = name;
}

std::string session_name() {
  std::lock_guard lock(session_name_mutex);
  return session_name_value;
}

connection::connection(const std::string& conninfo) : conninfo_(conninfo) { reconnect(); }

void connection::reconnect() {
  if (c_) {
    PQfinish(c_);
    c_ = nullptr;
  }
  std::string why;
  if (!valid_conninfo(conninfo_, why)) throw error("not a libpq connection string: " + why, "");
  // Our defaults first: what the connection string says wins (expand_dbname), except a session
  // name, which comes last and wins (cluster mode finds its instances' sessions by it).
  const std::string named = session_name();
  const char* keys[] = {"application_name", "connect_timeout", "dbname", named.empty() ? nullptr : "application_name", nullptr};
  const char* values[] = {"tinsel-server", "5", conninfo_.c_str(), named.empty() ? nullptr : named.c_str(), nullptr};
  lost_ = false;
  c_ = PQconnectdbParams(keys, values, 1);
  if (!c_) throw error("out of memory", "");
  if (PQstatus(c_) != CONNECTION_OK) throw error(scrub(PQerrorMessage(c_), conninfo_), "");
  // NOTICEs ("relation already exists, skipping") would go to stderr, outside the log.
  PQsetNoticeProcessor(c_, [](void*, const char*) {}, nullptr);
}

result connection::check(PGresult* r, std::string_view what) {
  result out(r);
  const auto status = r ? PQresultStatus(r) : PGRES_FATAL_ERROR;
  if (status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK) return out;
  const char* state = r ? PQresultErrorField(r, PG_DIAG_SQLSTATE) : nullptr;
  if (!state || !*state) lost_ = true;
  std::string msg = r ? PQresultErrorMessage(r) : "";
  if (msg.empty()) msg = PQerrorMessage(c_);
  if (msg.empty()) msg = std::string(what) + " failed";
  throw error(scrub(msg, conninfo_), state ? state : "");
}

result connection::exec(const std::string& sql) { return check(PQexec(c_, sql.c_str()), "statement"); }

result connection::exec(const std::string& sql, const std::vector<param>& params) {
  std::vector<const char*> values;
  values.reserve(params.size());
  for (const auto& p : params) values.push_back(p ? p->c_str() : nullptr);
  return check(PQexecParams(c_, sql.c_str(), static_cast<int>(values.size()), nullptr, values.data(), nullptr, nullptr, 0),
               "statement");
}

void connection::prepare(const std::string& name, const std::string& sql) {
  check(PQprepare(c_, name.c_str(), sql.c_str(), 0, nullptr), "prepare");
}

result connection::run(const std::string& name, const std::vector<param>& params) {
  std::vector<const char*> values;
  values.reserve(params.size());
  for (const auto& p : params) values.push_back(p ? p->c_str() : nullptr);
  return check(PQexecPrepared(c_, name.c_str(), static_cast<int>(values.size()), values.data(), nullptr, nullptr, 0), name);
}

}  // namespace tinsel::server::storage::pg
