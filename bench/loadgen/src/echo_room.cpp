// A room of tinsel-echo (bench/echo) driven in the shape of a Tinsel room: P members, one frame in
// flight per room. Each member sends {"join":"rN"} and waits for {"joined":…}; then the members
// take turns (round robin) sending a frame the size of a Tinsel action. The echo server answers the
// sender with an `ok` and sends the frame to every member of the room, the sender included (P + 1
// frames, as Tinsel's `ok` and P states); the latency runs from sending to the sender receiving it
// back, and the next frame goes out once every member has received this one.
//
// With sizes (--sizes FILE, the sizes of Tinsel's own state frames that --record-sizes wrote), the
// frame begins with {"size":S and the echo pads what every member receives to S bytes; each room
// replays the list from its own starting point, in order, round and round.
#include <algorithm>
#include <optional>
#include <sstream>

#include "rooms.hpp"

namespace tinsel_loadgen {

namespace {

class echo_room final : public room, public std::enable_shared_from_this<echo_room> {
 public:
  echo_room(int index, std::shared_ptr<lane> on, const room_settings& settings, run_state& run)
      : index_(index), lane_(std::move(on)), settings_(settings), run_(run) {
    if (settings_.echo_sizes && !settings_.echo_sizes->empty())
      next_size_ = static_cast<std::size_t>(index) * 7919 % settings_.echo_sizes->size();
  }

  void start(std::function<void()> ready) override {
    ready_ = std::move(ready);
    members_.resize(static_cast<std::size_t>(settings_.players));
    for (std::size_t i = 0; i < members_.size(); ++i) {
      std::weak_ptr<echo_room> weak = weak_from_this();
      connection_callbacks cb;
      cb.opened = [weak, i] {
        if (auto self = weak.lock()) self->on_open(i);
      };
      cb.message = [weak, i](std::string_view text) {
        if (auto self = weak.lock()) self->on_message(i, text);
      };
      cb.closed = [weak, i](const close_info& info) {
        if (auto self = weak.lock()) self->on_closed(i, info);
      };
      members_[i].conn = std::make_unique<connection>(*lane_, settings_.target, settings_.conn, std::move(cb));
    }
    joined_since_ = clock_type::now();
    watch();
  }

  void stop() override {
    stopped_ = true;
    for (auto& m : members_)
      if (m.conn) m.conn->close();
  }

  std::vector<std::uint64_t>& samples() override { return samples_; }

 private:
  struct member {
    std::unique_ptr<connection> conn;
    bool open = false;
    bool joined = false;
    std::uint64_t received = 0;  // echoes received
    bool ok_due = false;         // the sender: the `ok` comes before the echo
    std::uint64_t wire_seen = 0;
  };

  std::string where(std::size_t i) const {
    return "echo room r" + std::to_string(index_) + " member " + std::to_string(i);
  }

  void on_open(std::size_t i) {
    auto& m = members_[i];
    m.open = true;
    ++run_.connections_open;
    if (m.conn->deflate_negotiated()) ++run_.deflate_connections;
    if (!stopped_) m.conn->send(R"({"join":"r)" + std::to_string(index_) + R"("})");
  }

  void on_closed(std::size_t i, const close_info& info) {
    auto& m = members_[i];
    if (m.open) --run_.connections_open;
    if (run_.stopping || stopped_ || failed_) return;
    std::ostringstream what;
    what << where(i) << ": " << (info.opened ? "closed" : "could not connect");
    if (info.http_status) what << ", HTTP " << info.http_status;
    if (info.close_code) what << ", close code " << info.close_code;
    if (!info.error.empty()) what << " (" << info.error << ")";
    run_.error("connection_closed", what.str());
    fail();
  }

  void on_message(std::size_t i, std::string_view text) {
    auto& m = members_[i];
    if (run_.stopping) return;
    const auto wire = m.conn->wire_bytes_read();
    if (run_.measuring.load(std::memory_order_relaxed)) {
      run_.frames.fetch_add(1, std::memory_order_relaxed);
      run_.payload_bytes.fetch_add(text.size(), std::memory_order_relaxed);
      run_.wire_bytes.fetch_add(wire - m.wire_seen, std::memory_order_relaxed);
    }
    m.wire_seen = wire;
    if (failed_) return;
    if (!m.joined) {
      if (!text.starts_with(R"({"joined":)")) {
        run_.error("echo_join", where(i) + ": expected {\"joined\":…}, got " + std::string(text.substr(0, 100)));
        return fail();
      }
      m.joined = true;
      if (std::all_of(members_.begin(), members_.end(), [](const member& x) { return x.joined; })) {
        auto ready = std::move(ready_);
        ready_ = nullptr;
        if (ready) ready();
        next();
      }
      return;
    }
    if (m.ok_due) {
      m.ok_due = false;
      if (!text.starts_with(R"({"type":"ok")")) {
        run_.error("echo_ok", where(i) + ": expected the ok before the echo, got " + std::string(text.substr(0, 100)));
        return fail();
      }
      return;
    }
    ++m.received;
    const bool same = size_ == 0 ? text == payload_
                                 : text.size() == size_ && text.starts_with(std::string_view(payload_).substr(0, payload_.size() - 1));
    if (m.received != round_ || !same) {
      run_.error("echo_mismatch", where(i) + ": echo " + std::to_string(m.received) + " of round " +
                                      std::to_string(round_) + " is " + std::string(text.substr(0, 100)));
      return fail();
    }
    if (awaiting_ && i == sender_) {
      awaiting_ = false;
      const auto took = clock_type::now() - sent_;
      run_.moves_total.fetch_add(1, std::memory_order_relaxed);
      if (run_.measuring.load(std::memory_order_relaxed)) {
        run_.moves.fetch_add(1, std::memory_order_relaxed);
        samples_.push_back(
            static_cast<std::uint64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(took).count()));
      }
    }
    next();
  }

  // The next frame, once every member has received the last one.
  void next() {
    if (failed_ || stopped_ || awaiting_) return;
    for (const auto& m : members_)
      if (m.received != round_) return;
    ++round_;
    sender_ = static_cast<std::size_t>(round_ % members_.size());
    // The size of a Tinsel action: {"type":"action","id":…,"action":{"kind":"take_reindeer","from":1}}
    payload_ = R"({"type":"action","id":)" + std::to_string(round_) + R"(,"action":{"kind":"take_reindeer","from":1}})";
    size_ = 0;
    if (const auto& sizes = settings_.echo_sizes; sizes && !sizes->empty()) {
      size_ = std::max((*sizes)[next_size_], payload_.size() + 16);
      next_size_ = (next_size_ + 1) % sizes->size();
      payload_ = R"({"size":)" + std::to_string(size_) + "," + payload_.substr(1);
    }
    members_[sender_].ok_due = true;
    awaiting_ = true;
    sent_ = clock_type::now();
    members_[sender_].conn->send(payload_);
  }

  void fail() {
    if (failed_) return;
    failed_ = true;
    for (auto& m : members_)
      if (m.conn) m.conn->close();
    auto ready = std::move(ready_);
    ready_ = nullptr;
    if (ready) ready();
  }

  // Once a second: a join or a frame not echoed within 10 s is an error.
  void watch() {
    if (stopped_ || failed_ || run_.stopping) return;
    const auto now = clock_type::now();
    const bool joining = ready_ != nullptr;
    if ((joining && now - joined_since_ > answer_deadline) || (awaiting_ && now - sent_ > answer_deadline)) {
      run_.error("stalled", where(sender_) + (joining ? ": not every member joined within 10 s"
                                                      : ": a frame was not echoed within 10 s"));
      return fail();
    }
    std::weak_ptr<echo_room> weak = weak_from_this();
    lane_->after(std::chrono::seconds(1), [weak] {
      if (auto self = weak.lock()) self->watch();
    });
  }

  int index_;
  std::shared_ptr<lane> lane_;
  const room_settings& settings_;
  run_state& run_;
  std::function<void()> ready_;
  std::vector<member> members_;
  std::uint64_t round_ = 0;
  std::size_t sender_ = 0;
  std::string payload_;
  std::size_t size_ = 0;       // what every member receives, with sizes; 0: the payload itself
  std::size_t next_size_ = 0;  // where this room is in the list of sizes
  bool awaiting_ = false;
  clock_type::time_point sent_;
  clock_type::time_point joined_since_;
  std::vector<std::uint64_t> samples_;
  bool stopped_ = false;
  bool failed_ = false;
};

}  // namespace

std::shared_ptr<room> make_echo_room(int index, std::shared_ptr<lane> on, const room_settings& settings,
                                     run_state& run) {
  return std::make_shared<echo_room>(index, std::move(on), settings, run);
}

}  // namespace tinsel_loadgen
