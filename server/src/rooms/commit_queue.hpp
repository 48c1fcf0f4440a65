#pragma once
// A room's operations, journal first and then tell: each operation runs on the room's strand,
// appends its journal records and queues what it tells; with records, what it queued goes out
// only once the journal has written them, and later operations wait behind the write. Without a
// journal (or without records) it all goes out at once. One per room; used on its strand only.
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <boost/asio/any_io_executor.hpp>
#include <nlohmann/json.hpp>

#include "rooms/participant.hpp"
#include "storage/journal.hpp"

namespace tinsel::server {

class commit_queue {
 public:
  using json = nlohmann::json;
  using pptr = std::shared_ptr<participant>;
  using frame_ptr = std::shared_ptr<const std::string>;
  using op = std::function<void()>;

  // What an operation is, for while the journal is not writable: a request is refused with
  // storage_failed before it runs (so nothing changes and nothing needs undoing); a server move
  // (a timer, a bot) waits, tried again every second; joins, leaves and dropped connections run
  // as ever (a resumed seat must see its game), and only if they change the seats does their
  // write fail and the room go back to its journal.
  enum class op_kind { request, membership, server_move };

  // What the queue asks of its room.
  struct room_hooks {
    std::function<bool()> closed;       // the room is over: failed writes and retries do nothing
    std::function<void()> expired;      // tell_expired's turn came: the lobby forgets the room
    std::function<void()> write_failed;  // the room goes back to what its journal holds
    std::function<void()> moved = nullptr;  // cluster mode: a write was fenced, the room is another's
    // Cluster mode: the room's public summary if it changed since it was last written, else null.
    std::function<json()> summary = nullptr;
  };

  // `journal`: null for a room that is not durable.
  commit_queue(boost::asio::any_io_executor strand, std::string code, storage::journal* journal)
      : strand_(std::move(strand)), code_(std::move(code)), journal_(journal) {}

  void set_hooks(room_hooks h) { hooks_ = std::move(h); }

  // Runs `f` now, or after the write in flight, or (journal not writable) refuses or postpones it.
  // `sender`/`id`: who asked, to be refused with storage_failed if the journal fails. `owner`: the
  // room, named in left_room and kept alive while a write or a retry is in flight (held weakly
  // otherwise: the room holds its queue).
  void run(const std::shared_ptr<room>& owner, op f, pptr sender, json id, op_kind kind);

  // What the running operation tells, in order, once its records are written.
  void tell(const pptr& p, frame_ptr frame) { outbox_.push_back({what::send, p, std::move(frame)}); }
  void tell_left(const pptr& p) { outbox_.push_back({what::left_room, p, nullptr}); }
  void tell_expired() { outbox_.push_back({what::expired, nullptr, nullptr}); }
  // A journal record of the running operation (nothing without a journal).
  void append(json body) {
    if (journal_) records_.push_back({code_, std::move(body)});
  }
  bool durable() const { return journal_ != nullptr; }
  storage::journal* journal() const { return journal_; }
  // The server is stopping: what waits behind a write is dropped (a write in flight completes).
  void drop_waiting() { deferred_.clear(); }

 private:
  enum class what { send, left_room, expired };
  struct outgoing {
    what kind;
    pptr to;
    frame_ptr frame;
  };
  struct deferred_op {
    op f;
    pptr sender;
    json id;
    op_kind kind;
  };
  void start(op f, pptr sender, json id, op_kind kind);
  void end(const pptr& sender, const json& id);
  void after_write(bool ok, std::vector<outgoing> out, const pptr& sender, const json& id);
  void committed(bool ok, std::vector<outgoing> out, const pptr& sender, const json& id);
  void deliver(std::vector<outgoing>& out);
  void refuse(const pptr& sender, const json& id);

  boost::asio::any_io_executor strand_;
  std::string code_;
  storage::journal* journal_;
  room_hooks hooks_;
  std::weak_ptr<room> owner_;
  std::vector<storage::record> records_;
  std::vector<outgoing> outbox_;
  bool writing_ = false;  // a batch is being written: operations wait in deferred_
  std::deque<deferred_op> deferred_;
};

}  // namespace tinsel::server
