// Cluster mode's safety rule at the journal (CLUSTER.md, "The rule that makes it safe"): two
// instances' journals on one PostgreSQL database. Codes are claimed once; a room is claimed only
// from an owner that is gone; the instance that lost a room writes nothing for it (its batch
// fails and lost() says why) while the new owner writes on; two claimers racing for the same
// orphaned rooms win each exactly once.
#include <atomic>
#include <future>
#include <set>
#include <thread>

#include <catch2/catch.hpp>

#include "storage/journal.hpp"
#include "storage/pg.hpp"
#include "../support/postgres_cluster.hpp"

using tinsel::server::storage::journal;
using tinsel::server::storage::record;
namespace storage = tinsel::server::storage;
using json = nlohmann::json;

namespace {

struct instance {
  std::unique_ptr<journal> j;
  instance(const std::string& conninfo, const std::string& id, long long incarnation) {
    j = storage::open_postgres_journal(conninfo, storage::durability::power, 0);
    j->set_owner(id, incarnation);
  }
  // Appends one batch and waits for its answer.
  bool write(std::vector<record> batch) {
    std::promise<bool> done;
    j->append(std::move(batch), [&](bool ok) { done.set_value(ok); });
    return done.get_future().get();
  }
};

// The lease rows the instances would have (a live lease far in the future; the tests tombstone).
void live(storage::pg::connection& db, const std::string& id, long long incarnation) {
  db.exec("INSERT INTO instances(id, incarnation, lease_until) VALUES ($1, $2, now() + interval '1 hour') "
          "ON CONFLICT (id) DO UPDATE SET incarnation = EXCLUDED.incarnation, lease_until = EXCLUDED.lease_until",
          {id, std::to_string(incarnation)});
}
void tombstone(storage::pg::connection& db, const std::string& id) {
  db.exec("UPDATE instances SET incarnation = -abs(incarnation) WHERE id = $1", {id});
}

// Instances a and b on a database of their own, their leases live.
struct two_instances {
  std::string conninfo = tinsel::test::postgres_cluster::shared().create_database();
  instance a{conninfo, "a", 11};
  instance b{conninfo, "b", 22};
  storage::pg::connection db{conninfo};
  two_instances() {
    live(db, "a", 11);
    live(db, "b", 22);
  }
};

std::vector<record> created(const std::string& code) {
  return {record{code, {{"kind", "created"}, {"game", "happy_holidays"}, {"options", json::object()}}},
          record{code, {{"kind", "chat"}, {"message", {{"text", "hello"}}}}}};
}
record chat(const std::string& code, const std::string& text) { return {code, {{"kind", "chat"}, {"message", {{"text", text}}}}}; }

}  // namespace

TEST_CASE("cluster journal: a code is claimed once, a live owner's room cannot be claimed, a fenced instance writes nothing", "[postgres][cluster]") {
  two_instances two;
  auto& [conninfo, a, b, db] = two;

  REQUIRE(a.j->claim_code("ROOM01", "10.0.0.1", 20) == storage::code_claim::taken);
  CHECK(b.j->claim_code("ROOM01", "10.0.0.2", 20) == storage::code_claim::in_use);  // unique across the cluster
  REQUIRE(a.write(created("ROOM01")));
  REQUIRE(a.write({chat("ROOM01", "one")}));
  CHECK_FALSE(b.j->claim("ROOM01"));  // its owner is live

  tombstone(db, "a");
  auto taken = b.j->claim("ROOM01");
  REQUIRE(taken);
  CHECK(taken->records.size() == 3);
  // The old owner's next write is fenced: refused, and not a storage failure.
  CHECK_FALSE(a.write({chat("ROOM01", "stale")}));
  CHECK(a.j->lost("ROOM01"));
  CHECK(a.j->writable());
  // The new owner writes on; the room's records are one sequence, epoch 1 then 2.
  REQUIRE(b.write({chat("ROOM01", "two")}));
  auto rows = db.exec("SELECT n, epoch, body FROM entries WHERE room = 'ROOM01' ORDER BY n");
  REQUIRE(rows.rows() == 4);
  for (int i = 0; i < rows.rows(); ++i) {
    CHECK(rows.integer(i, 0) == i + 1);
    CHECK(rows.integer(i, 1) == (i < 3 ? 1 : 2));
    CHECK(rows.text(i, 2).find("stale") == std::string::npos);
  }
  auto room = db.exec("SELECT owner, owner_incarnation, epoch, head FROM rooms WHERE code = 'ROOM01'");
  CHECK(room.text(0, 0) == "b");
  CHECK(room.integer(0, 1) == 22);
  CHECK(room.integer(0, 2) == 2);
  CHECK(room.integer(0, 3) == 4);
}

TEST_CASE("cluster journal: one address's open rooms are counted across the instances, and a closed room no longer counts", "[postgres][cluster]") {
  two_instances two;
  auto& [conninfo, a, b, db] = two;
  // A limit of 3 open rooms: two made on a, one on b, then neither takes a fourth.
  REQUIRE(a.j->claim_code("LIM001", "10.0.0.7", 3) == storage::code_claim::taken);
  REQUIRE(a.j->claim_code("LIM002", "10.0.0.7", 3) == storage::code_claim::taken);
  REQUIRE(b.j->claim_code("LIM003", "10.0.0.7", 3) == storage::code_claim::taken);
  CHECK(a.j->claim_code("LIM004", "10.0.0.7", 3) == storage::code_claim::over_limit);
  CHECK(b.j->claim_code("LIM004", "10.0.0.7", 3) == storage::code_claim::over_limit);
  CHECK(db.exec("SELECT 1 FROM rooms WHERE code = 'LIM004'").rows() == 0);  // refused: not taken
  // Another address is not affected.
  CHECK(b.j->claim_code("LIM005", "10.0.0.8", 3) == storage::code_claim::taken);
  // LIM002 closes: its creator is forgotten, and the address may open another.
  REQUIRE(a.write(created("LIM002")));
  REQUIRE(a.write({record{"LIM002", {{"kind", "closed"}, {"reason", "expired"}}}}));
  CHECK(db.exec("SELECT creator FROM rooms WHERE code = 'LIM002'").null(0, 0));
  CHECK(b.j->claim_code("LIM006", "10.0.0.7", 3) == storage::code_claim::taken);
  CHECK(a.j->claim_code("LIM007", "10.0.0.7", 3) == storage::code_claim::over_limit);
}

TEST_CASE("cluster journal: two instances creating rooms for one address at once stay within its limit", "[postgres][cluster]") {
  two_instances two;
  auto& [conninfo, a, b, db] = two;
  std::atomic<bool> go{false};
  const auto creator = [&](instance& me, char tag) {
    int taken = 0;
    while (!go.load()) std::this_thread::yield();
    for (int i = 0; i < 20; ++i)
      if (me.j->claim_code(std::string("C") + tag + std::to_string(1000 + i), "10.0.0.9", 10) == storage::code_claim::taken) ++taken;
    return taken;
  };
  auto fa = std::async(std::launch::async, creator, std::ref(a), 'A');
  auto fb = std::async(std::launch::async, creator, std::ref(b), 'B');
  go = true;
  CHECK(fa.get() + fb.get() == 10);
  CHECK(db.exec("SELECT count(*) FROM rooms WHERE creator = '10.0.0.9' AND state = 'open'").integer(0, 0) == 10);
}

TEST_CASE("cluster journal: two instances claiming the same orphaned rooms at once win each exactly once", "[postgres][cluster]") {
  const auto conninfo = tinsel::test::postgres_cluster::shared().create_database();
  instance gone(conninfo, "gone", 5);
  storage::pg::connection db(conninfo);
  live(db, "gone", 5);
  std::vector<std::string> codes;
  for (int i = 0; i < 24; ++i) {
    codes.push_back("RACE" + std::string(1, static_cast<char>('A' + i)) + "X");
    REQUIRE(gone.j->claim_code(codes.back(), "10.0.0.1", 100) == storage::code_claim::taken);
    REQUIRE(gone.write(created(codes.back())));
  }
  tombstone(db, "gone");
  instance a(conninfo, "a", 1);
  instance b(conninfo, "b", 2);
  live(db, "a", 1);
  live(db, "b", 2);
  std::atomic<bool> go{false};
  const auto claimer = [&](instance& me) {
    std::set<std::string> won;
    while (!go.load()) std::this_thread::yield();
    for (const auto& c : codes)
      if (me.j->claim(c)) won.insert(c);
    return won;
  };
  auto fa = std::async(std::launch::async, claimer, std::ref(a));
  auto fb = std::async(std::launch::async, claimer, std::ref(b));
  go = true;
  const auto wa = fa.get();
  const auto wb = fb.get();
  CHECK(wa.size() + wb.size() == codes.size());
  for (const auto& c : codes) CHECK(wa.count(c) + wb.count(c) == 1);
  // Each room's owner in the database is the one that won it, at epoch 2; the loser cannot write it.
  for (const auto& c : codes) {
    auto r = db.exec("SELECT owner, epoch FROM rooms WHERE code = $1", {c});
    CHECK(r.text(0, 0) == (wa.count(c) ? "a" : "b"));
    CHECK(r.integer(0, 1) == 2);
    auto& loser = wa.count(c) ? b : a;
    CHECK_FALSE(loser.write({chat(c, "not mine")}));
    CHECK(loser.j->lost(c));
  }
}
