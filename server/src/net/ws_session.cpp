#include "net/ws_session.hpp"

#include "net/http_routes.hpp"

#include <boost/asio/bind_allocator.hpp>
#include <boost/asio/dispatch.hpp>
#include <boost/asio/recycling_allocator.hpp>
#include <boost/asio/post.hpp>
#include <spdlog/spdlog.h>

#include "ops/metrics.hpp"

namespace tinsel::server {

namespace beast = boost::beast;
namespace websocket = beast::websocket;
namespace net = boost::asio;

void server_state::add_session(std::uint64_t id, std::weak_ptr<ws_session> s) {
  std::lock_guard lock(mutex_);
  sessions_.emplace(id, std::move(s));
}
void server_state::remove_session(std::uint64_t id) {
  std::lock_guard lock(mutex_);
  sessions_.erase(id);
}
std::size_t server_state::session_count() const {
  std::lock_guard lock(mutex_);
  return sessions_.size();
}
void server_state::for_each_session(const std::function<void(const std::shared_ptr<ws_session>&)>& f) const {
  std::vector<std::shared_ptr<ws_session>> live;
  {
    std::lock_guard lock(mutex_);
    for (const auto& [id, w] : sessions_)
      if (auto s = w.lock()) live.push_back(std::move(s));
  }
  for (const auto& s : live) f(s);
}

ws_session::ws_session(connection_socket&& socket, std::shared_ptr<server_state> state, std::string address,
                       connection_slot tcp)
    : ws_(std::move(socket)),
      state_(std::move(state)),
      address_(std::move(address)),
      tcp_(std::move(tcp)),
      id_(state_->next_connection_id()),
      requests_(state_->rooms, state_->players, state_->cfg, state_->limits, address_) {}

ws_session::~ws_session() {
  state_->remove_session(id_);
  state_->limits.close_connection(address_);
}

template <class... Args>
void ws_session::log_limited(spdlog::level::level_enum level, const char* kind, spdlog::format_string_t<Args...> fmt,
                             Args&&... args) {
  if (!spdlog::should_log(level)) return;
  const auto held = state_->log_limit.allow(std::string(kind) + "|" + address_);
  if (!held) return;
  spdlog::log(level, "{} client={} suppressed={}", fmt::format(fmt, std::forward<Args>(args)...), address_, *held);
}

void ws_session::run(beast::http::request<beast::http::string_body> upgrade) {
  // Heartbeats: Beast pings an idle peer and drops it if nothing comes back within the timeout.
  websocket::stream_base::timeout t = websocket::stream_base::timeout::suggested(beast::role_type::server);
  t.handshake_timeout = std::chrono::seconds(10);  // also bounds the close handshake
  t.idle_timeout = state_->cfg.idle_timeout;
  t.keep_alive_pings = true;
  ws_.set_option(t);
  ws_.set_option(websocket::stream_base::decorator([](websocket::response_type& res) {
    res.set(beast::http::field::server, "tinsel/" + version_string());
  }));
  ws_.read_message_max(state_->cfg.hard_frame_bytes);
  if (state_->cfg.deflate) {
    websocket::permessage_deflate pmd;
    pmd.server_enable = true;
    // A small window and memory level: the state frames repeat within a few KB, and each
    // connection keeps its compressor between frames (bench/README.md, "Compression").
    pmd.server_max_window_bits = 10;
    pmd.client_max_window_bits = 10;
    pmd.memLevel = 4;
    pmd.compLevel = 3;
    pmd.msg_size_threshold = 256;  // smaller frames (an `ok`) are not worth compressing
    ws_.set_option(pmd);
  }
  requests_.set_room_hint(room_param(upgrade.target()));
  state_->add_session(id_, weak_from_this());
  ws_.async_accept(upgrade, beast::bind_front_handler(&ws_session::on_accept, shared_from_this()));
}

void ws_session::on_accept(beast::error_code ec) {
  if (ec) {
    spdlog::debug("websocket handshake failed conn={} error={}", id_, ec.message());
    return finish();
  }
  open_ = true;
  bucket_ = token_bucket(state_->cfg.rate_per_sec, state_->cfg.rate_burst, std::chrono::steady_clock::now());
  // Per connection, so at debug: at info a client opening and closing connections in a loop
  // would write lines as fast as it connects.
  spdlog::debug("connected conn={} client={} connections={}", id_, address_, state_->session_count());
  if (state_->stopping) return do_close(close_code::going_away, "server shutting down");
  do_read();
}

// Beast's operations name std::allocator as theirs, so Asio would allocate every read and write
// with plain new; the recycling allocator reuses the thread's freed blocks instead.
void ws_session::do_read() {
  ws_.async_read(buffer_, net::bind_allocator(net::recycling_allocator<void>(),
                                              beast::bind_front_handler(&ws_session::on_read, shared_from_this())));
}

void ws_session::on_read(beast::error_code ec, std::size_t) {
  if (ec) {
    if (ec == websocket::error::message_too_big) {
      log_limited(spdlog::level::warn, "frame-limit", "frame over hard limit conn={} limit={}", id_, state_->cfg.hard_frame_bytes);
    } else if (ec != websocket::error::closed && ec != net::error::operation_aborted && ec != net::error::eof) {
      spdlog::debug("read failed conn={} error={}", id_, ec.message());
    }
    return finish();
  }
  const std::shared_ptr<participant> self = shared_from_this();
  if (!open_) {
    // Closing: frames still arriving are dropped; the read continues until the close completes.
  } else {
    // Binary frames are refused, but they cost a token like any request: otherwise they would be
    // a free way to make the server answer.
    const auto data = buffer_.cdata();
    const std::string_view text = ws_.got_text() ? std::string_view(static_cast<const char*>(data.data()), data.size())
                                                 : std::string_view{};
    if (take_token()) {
      refused_in_row_ = 0;
      if (ws_.got_text()) {
        requests_.on_text(text, self);
      } else {
        requests_.on_binary(data.size(), self);
      }
    } else if (++refused_in_row_ >= state_->cfg.rate_close_after) {
      log_limited(spdlog::level::warn, "rate-abuse", "rate limit abuse, closing conn={} refused={}", id_, refused_in_row_);
      metrics().rate_limit_closed();
      do_close(close_code::rate_limited, "rate limit exceeded");
    } else {
      requests_.on_rate_limited(text, self);
    }
  }
  buffer_.consume(buffer_.size());
  do_read();
}

// Token bucket (limits/token_bucket.hpp): refills continuously at rate_per_sec up to rate_burst.
bool ws_session::take_token() { return bucket_.take(std::chrono::steady_clock::now()); }

void ws_session::send(std::shared_ptr<const std::string> frame) {
  net::post(ws_.get_executor(), [self = shared_from_this(), frame = std::move(frame)]() mutable {
    if (self->enqueue(std::move(frame)) && self->queue_.size() == 1) self->do_write();
  });
}

void ws_session::send_all(std::vector<std::shared_ptr<const std::string>> frames) {
  net::post(ws_.get_executor(), [self = shared_from_this(), frames = std::move(frames)]() mutable {
    const bool idle = self->queue_.empty();
    for (auto& f : frames)
      if (!self->enqueue(std::move(f))) return;
    if (!idle || self->queue_.empty()) return;  // a write in flight goes on with what was queued
    self->do_write();
  });
}

void ws_session::left_room(const std::shared_ptr<room>& r) {
  net::post(ws_.get_executor(), [self = shared_from_this(), r] { self->requests_.on_left_room(r); });
}

void ws_session::close_with(close_code code, std::string reason) {
  net::post(ws_.get_executor(), [self = shared_from_this(), code, reason = std::move(reason)]() mutable {
    self->do_close(code, std::move(reason));
  });
}

bool ws_session::enqueue(std::shared_ptr<const std::string> frame) {
  if (!open_) return false;
  if (queue_.size() >= state_->cfg.write_queue_messages || queued_bytes_ + frame->size() > state_->cfg.write_queue_bytes) {
    log_limited(spdlog::level::warn, "too-slow", "client too slow, closing conn={} queued={} bytes={}", id_, queue_.size(), queued_bytes_);
    metrics().slow_client_closed();
    do_close(close_code::too_slow, "too slow: outgoing queue full");
    return false;
  }
  queued_bytes_ += frame->size();
  queue_.push_back(std::move(frame));
  return true;
}

void ws_session::do_write() {
  ws_.text(true);
  ws_.next_layer().hold(queue_.size() > 1);  // more frames follow this one
  ws_.async_write(net::buffer(*queue_.front()),
                  net::bind_allocator(net::recycling_allocator<void>(),
                                      beast::bind_front_handler(&ws_session::on_write, shared_from_this())));
}

void ws_session::on_write(beast::error_code ec, std::size_t) {
  if (ec) {
    spdlog::debug("write failed conn={} error={}", id_, ec.message());
    queue_.clear();
    queued_bytes_ = 0;
    return finish();
  }
  if (queue_.empty()) return;  // cleared by a close meanwhile
  metrics().frame_sent(queue_.front()->size());
  queued_bytes_ -= queue_.front()->size();
  queue_.pop_front();
  if (!queue_.empty() && open_) return do_write();
  ws_.next_layer().hold(false);
}

void ws_session::do_close(close_code code, std::string reason) {
  if (!open_) return;
  open_ = false;
  // Drop what is not yet on the wire; one write may still be in flight, which Beast allows
  // alongside the close.
  if (queue_.size() > 1) {
    queue_.keep_front_only();
    queued_bytes_ = queue_.front()->size();
  }
  ws_.next_layer().hold(false);  // the close frame must not wait behind a held segment
  spdlog::debug("closing conn={} code={} reason=\"{}\"", id_, static_cast<int>(code), reason);
  // Leave the room now: a peer that is not reading may take until the close timeout to answer.
  detach();
  websocket::close_reason cr(static_cast<websocket::close_code>(code), reason);
  ws_.async_close(cr, [self = shared_from_this()](beast::error_code) { self->finish(); });
}

void ws_session::detach() {
  if (detached_) return;
  detached_ = true;
  requests_.on_closed(id_);
}

void ws_session::finish() {
  open_ = false;
  if (finished_) return;
  finished_ = true;
  detach();
  state_->remove_session(id_);
  spdlog::debug("disconnected conn={}", id_);
}

}  // namespace tinsel::server
