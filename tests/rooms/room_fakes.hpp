#pragma once
// What the room tests drive a real room with: participants that keep what the room sends them, a
// journal in memory that can refuse, and the room's strand as an io_context the test runs by hand.
#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include <boost/asio/io_context.hpp>
#include <nlohmann/json.hpp>

#include "rooms/participant.hpp"
#include "rooms/room.hpp"
#include "storage/journal.hpp"

namespace tinsel::room_tests {

using json = nlohmann::json;
using server::participant;

// A connection as a room sees one: every frame it was sent, parsed, and whether the room let go of it.
class fake_participant : public participant {
 public:
  explicit fake_participant(std::uint64_t id) : id_(id) {}
  std::uint64_t connection_id() const override { return id_; }
  void send(std::shared_ptr<const std::string> frame) override { frames.push_back(json::parse(*frame)); }
  void send_all(std::vector<std::shared_ptr<const std::string>> fs) override {
    for (auto& f : fs) send(std::move(f));
  }
  void left_room(const std::shared_ptr<server::room>&) override { ++left; }
  void close_with(server::close_code code, std::string) override { closed = static_cast<int>(code); }

  // The frames of `type`, oldest first.
  std::vector<json> of_type(const std::string& type) const;
  // The last frame of `type` (null if none).
  json last(const std::string& type) const;
  // The answer (ok or error) to the request with `id`; null if none.
  json answer(const json& id) const;

  std::vector<json> frames;
  int left = 0;
  int closed = 0;

 private:
  std::uint64_t id_;
};

// A journal in memory. `fail_writes`: every batch fails (as a full disk would); `writable`: what
// journal::writable() says (false: the room refuses requests before they run).
class fake_journal : public server::storage::journal {
 public:
  void append(std::vector<server::storage::record> batch, std::function<void(bool)> done) override;
  std::vector<server::storage::stored_room> open_rooms() override { return {}; }
  std::optional<server::storage::stored_room> load_room(const std::string& code) override;
  std::vector<std::string> used_codes() override { return {}; }
  void set_aside(const std::string& code, const std::string&) override { set_aside_codes_.push_back(code); }
  std::vector<std::string> set_aside_codes() override { return set_aside_codes_; }
  std::optional<server::storage::game_record> find_record(const std::string&) override { return std::nullopt; }
  bool writable() const override { return writable_; }
  void close() override {}

  // The kinds of the records written, in order.
  std::vector<std::string> kinds() const;

  bool fail_writes = false;
  bool writable_ = true;
  // `hold`: batches wait in `held` until the test finishes them (finish_held).
  bool hold = false;
  std::vector<std::pair<std::vector<server::storage::record>, std::function<void(bool)>>> held;
  void finish_held(bool ok);
  std::map<std::string, std::vector<json>> rooms;

 private:
  std::vector<std::string> set_aside_codes_;
};

// A room on a strand the test runs: `settle()` runs what is ready; `run_until(pred)` also waits
// for timers, until `pred` holds (or a generous bound passes, and the test's check then fails).
struct room_fixture {
  explicit room_fixture(const std::string& game = "happy_holidays", json options = json::object(),
                        server::storage::journal* journal = nullptr);

  void settle();
  bool run_until(const std::function<bool()>& pred);
  std::shared_ptr<fake_participant> connect();
  // hello's identity for player n: id "p<n>", name "Player <n>".
  static server::identity who(int n);
  std::shared_ptr<fake_participant> join(int n, bool spectator = false, std::optional<std::uint64_t> last_seq = std::nullopt);
  // The seat awaited by the open prompt and its first concrete legal command, from `p`'s last state.
  static json first_command(const json& state);

  boost::asio::io_context io;
  server::config cfg;
  std::shared_ptr<server::room> room;
  std::vector<std::string> expired;  // the codes on_expired was called with
  std::uint64_t next_connection = 1;
  json id_counter = 100;
};

}  // namespace tinsel::room_tests
