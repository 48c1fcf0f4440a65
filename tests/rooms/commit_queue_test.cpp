// The commit queue alone: journal first, then tell; what waits behind a write; what a journal
// that cannot write refuses.
#include <catch2/catch.hpp>

#include "room_fakes.hpp"
#include "rooms/commit_queue.hpp"

using namespace tinsel::room_tests;
using tinsel::server::commit_queue;

namespace {
struct queue_fixture {
  explicit queue_fixture(fake_journal* j) : queue(io.get_executor(), "TESTRM", j) {
    queue.set_hooks({[this] { return closed; }, [this] { ++expired; }, [this] { ++write_failures; }});
  }
  void settle() {
    io.restart();
    io.poll();
  }
  std::shared_ptr<const std::string> frame(const std::string& type) {
    return std::make_shared<const std::string>("{\"type\":\"" + type + "\"}");
  }
  boost::asio::io_context io;
  commit_queue queue;
  bool closed = false;
  int expired = 0, write_failures = 0;
};
}  // namespace

TEST_CASE("commit queue: without a journal an operation's frames go out at once, in order", "[commit_queue]") {
  queue_fixture f(nullptr);
  auto p = std::make_shared<fake_participant>(1);
  f.queue.run(nullptr, [&] {
    f.queue.tell(p, f.frame("ok"));
    f.queue.tell(p, f.frame("state"));
    f.queue.append({{"kind", "command"}});  // no journal: nothing to wait for
  }, p, 1, commit_queue::op_kind::request);
  REQUIRE(p->frames.size() == 2);
  CHECK(p->frames[0].at("type") == "ok");
  CHECK(p->frames[1].at("type") == "state");
}

TEST_CASE("commit queue: what an operation tells waits for its records, and later operations wait behind them", "[commit_queue]") {
  fake_journal j;
  j.hold = true;
  queue_fixture f(&j);
  auto p = std::make_shared<fake_participant>(1);
  int second_ran = 0;
  f.queue.run(nullptr, [&] {
    f.queue.append({{"kind", "chat"}});
    f.queue.tell(p, f.frame("chat"));
  }, p, 1, commit_queue::op_kind::request);
  f.queue.run(nullptr, [&] { ++second_ran; }, p, 2, commit_queue::op_kind::request);
  CHECK(p->frames.empty());
  CHECK(second_ran == 0);
  j.finish_held(true);
  f.settle();
  CHECK(p->frames.size() == 1);
  CHECK(second_ran == 1);
  CHECK(j.kinds() == std::vector<std::string>{"chat"});
}

TEST_CASE("commit queue: a failed write tells nothing, refuses the sender and sends the room back to its journal", "[commit_queue]") {
  fake_journal j;
  j.fail_writes = true;
  queue_fixture f(&j);
  auto p = std::make_shared<fake_participant>(1);
  f.queue.run(nullptr, [&] {
    f.queue.append({{"kind", "chat"}});
    f.queue.tell(p, f.frame("chat"));
  }, p, 3, commit_queue::op_kind::request);
  f.settle();
  REQUIRE(p->frames.size() == 1);
  CHECK(p->frames[0].at("code") == "storage_failed");
  CHECK(p->frames[0].at("id") == 3);
  CHECK(f.write_failures == 1);
}

TEST_CASE("commit queue: while the journal cannot write, requests are refused before they run and membership runs", "[commit_queue]") {
  fake_journal j;
  j.writable_ = false;
  queue_fixture f(&j);
  auto p = std::make_shared<fake_participant>(1);
  int ran = 0;
  f.queue.run(nullptr, [&] { ++ran; }, p, 4, commit_queue::op_kind::request);
  CHECK(ran == 0);
  CHECK(p->answer(4).at("code") == "storage_failed");
  f.queue.run(nullptr, [&] { ++ran; }, p, 5, commit_queue::op_kind::membership);
  CHECK(ran == 1);
}

TEST_CASE("commit queue: the room's end goes out after the frames told before it", "[commit_queue]") {
  queue_fixture f(nullptr);
  auto p = std::make_shared<fake_participant>(1);
  f.queue.run(nullptr, [&] {
    f.queue.tell(p, f.frame("room"));
    f.queue.tell_left(p);
    f.queue.tell_expired();
  }, nullptr, nullptr, commit_queue::op_kind::server_move);
  CHECK(p->frames.size() == 1);
  CHECK(p->left == 1);
  CHECK(f.expired == 1);
}
