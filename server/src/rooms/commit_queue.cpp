// A room's operations, journal first and then tell (commit_queue.hpp).
#include "rooms/commit_queue.hpp"

#include <algorithm>

#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>
#include <spdlog/spdlog.h>

#include "ops/metrics.hpp"
#include "tinsel/protocol/errors.hpp"
#include "tinsel/protocol/outgoing.hpp"

namespace tinsel::server {

void commit_queue::run(const std::shared_ptr<room>& owner, op f, pptr sender, json id, op_kind kind) {
  if (owner_.expired()) owner_ = owner;
  if (writing_) {
    deferred_.push_back({std::move(f), std::move(sender), std::move(id), kind});
    return;
  }
  start(std::move(f), std::move(sender), std::move(id), kind);
}

void commit_queue::refuse(const pptr& sender, const json& id) {
  metrics().storage_refused();
  sender->send(share_frame(protocol::make_error(
      id, protocol::errc::storage_failed, "the server could not save this; nothing changed, please try again")));
}

void commit_queue::start(op f, pptr sender, json id, op_kind kind) {
  if (journal_ && !journal_->writable() && kind != op_kind::membership) {
    if (kind == op_kind::request) {
      if (sender) refuse(sender, id);
      else metrics().storage_refused();
      return;
    }
    // A server move waits for the journal; a timer that was re-armed meanwhile makes it stale,
    // and it then does nothing, as a stale timer does.
    auto retry = std::make_shared<boost::asio::steady_timer>(strand_, std::chrono::seconds(1));
    retry->async_wait([this, self = owner_.lock(), retry, f = std::move(f)](boost::system::error_code ec) mutable {
      if (!ec && !hooks_.closed()) run(self, std::move(f), nullptr, nullptr, op_kind::server_move);
    });
    return;
  }
  f();
  end(sender, id);
}

void commit_queue::end(const pptr& sender, const json& id) {
  if (records_.empty() || !journal_) {
    records_.clear();
    auto out = std::move(outbox_);
    outbox_.clear();
    committed(true, std::move(out), sender, id);
    return;
  }
  writing_ = true;
  if (hooks_.summary && journal_->keeps_summaries())
    if (auto s = hooks_.summary(); !s.is_null()) records_.back().body["summary"] = std::move(s);
  auto batch = std::move(records_);
  records_.clear();
  journal_->append(std::move(batch), [this, self = owner_.lock(), out = std::move(outbox_), sender, id](bool ok) mutable {
    boost::asio::post(strand_, [this, self, ok, out = std::move(out), sender = std::move(sender), id = std::move(id)]() mutable {
      after_write(ok, std::move(out), sender, id);
    });
  });
  outbox_.clear();
}

void commit_queue::after_write(bool ok, std::vector<outgoing> out, const pptr& sender, const json& id) {
  writing_ = false;
  committed(ok, std::move(out), sender, id);
  // What waited behind the write runs now, in order, until one of them writes again.
  while (!writing_ && !deferred_.empty()) {
    auto next = std::move(deferred_.front());
    deferred_.pop_front();
    start(std::move(next.f), std::move(next.sender), std::move(next.id), next.kind);
  }
}

// Written (or nothing to write): what the operation told goes out, in order. Not written: none of
// it goes out; the sender is refused, and the room goes back to what its journal holds.
void commit_queue::committed(bool ok, std::vector<outgoing> out, const pptr& sender, const json& id) {
  if (!ok && hooks_.closed()) return;  // the server is stopping
  if (!ok && journal_ && journal_->lost(code_)) {
    // Fenced: another instance owns the room now. Nothing of this operation went out; the room
    // leaves this instance (its members follow it), and never reloads itself here.
    spdlog::info("room moved: a write was fenced, another instance owns it room={}", code_);
    return hooks_.moved();
  }
  if (!ok) {
    // The journal said so once (journal write failed); this is one room's part of it.
    spdlog::debug("journal write failed, operation refused room={}", code_);
    if (sender) refuse(sender, id);
    return hooks_.write_failed();
  }
  deliver(out);
}

void commit_queue::deliver(std::vector<outgoing>& out) {
  // Each participant's frames go in one hand-over, in order: a command's `ok` and its `state`
  // can then share a write. Anything else flushes what is gathered first, to keep the order.
  // Most get one frame: a batch holds its first frame by itself and a vector only for more.
  struct batch {
    const pptr* to;
    frame_ptr first;
    std::vector<frame_ptr> more;
  };
  std::vector<batch> batches;
  batches.reserve(out.size());
  const auto flush = [&] {
    for (auto& b : batches) {
      if (b.more.empty()) {
        (*b.to)->send(std::move(b.first));
      } else {
        b.more.insert(b.more.begin(), std::move(b.first));
        (*b.to)->send_all(std::move(b.more));
      }
    }
    batches.clear();
  };
  for (auto& o : out) {
    switch (o.kind) {
      case what::send: {
        auto it = std::find_if(batches.begin(), batches.end(), [&](const batch& b) { return *b.to == o.to; });
        if (it == batches.end()) batches.push_back({&o.to, std::move(o.frame), {}});
        else it->more.push_back(std::move(o.frame));
        break;
      }
      case what::left_room:
        flush();
        o.to->left_room(owner_.lock());
        break;
      case what::expired:
        flush();
        hooks_.expired();
        break;
    }
  }
  flush();
}

}  // namespace tinsel::server
