#include "net/http_session.hpp"

#include "cluster/lease.hpp"

#include <boost/asio/dispatch.hpp>
#include <spdlog/spdlog.h>

#include "net/ws_session.hpp"

namespace tinsel::server {

namespace beast = boost::beast;
namespace http = beast::http;
namespace net = boost::asio;

http_session::http_session(connection_socket&& socket, std::shared_ptr<server_state> state, connection_slot slot)
    : stream_(std::move(socket)), state_(std::move(state)), slot_(std::move(slot)) {
  boost::system::error_code ec;
  const auto ep = stream_.socket().remote_endpoint(ec);
  peer_ = ec ? "unknown" : ep.address().to_string();
}

void http_session::run() {
  net::dispatch(stream_.get_executor(), beast::bind_front_handler(&http_session::do_wait, shared_from_this()));
}

// An idle keep-alive connection costs a descriptor and nothing else; it gets the idle timeout,
// and only a request under way the longer read timeout.
void http_session::do_wait() {
  if (buffer_.size() > 0) return do_read();  // a pipelined request is here already
  stream_.expires_after(state_->cfg.http_idle_timeout);
  stream_.async_read_some(buffer_.prepare(4096), [self = shared_from_this()](beast::error_code ec, std::size_t n) {
    if (ec) return;  // idle too long, closed or reset: nothing to answer
    self->buffer_.commit(n);
    self->do_read();
  });
}

void http_session::do_read() {
  parser_.emplace();
  parser_->header_limit(http_header_limit);
  parser_->body_limit(http_body_limit);
  stream_.expires_after(std::chrono::seconds(30));
  http::async_read(stream_, buffer_, *parser_, beast::bind_front_handler(&http_session::on_read, shared_from_this()));
}

template <class Response>
void http_session::write(Response&& res) {
  auto sp = std::make_shared<std::decay_t<Response>>(std::forward<Response>(res));
  const bool keep_alive = sp->keep_alive();
  http::async_write(stream_, *sp, [self = shared_from_this(), sp, keep_alive](beast::error_code ec, std::size_t n) {
    self->on_write(keep_alive, ec, n);
  });
}

void http_session::on_read(beast::error_code ec, std::size_t) {
  if (ec == http::error::end_of_stream) {
    stream_.socket().shutdown(net::ip::tcp::socket::shutdown_send, ec);
    return;
  }
  if (ec) {
    // A request the parser refused gets its status code; timeouts and resets need no answer.
    const auto a = parse_failure(ec);
    if (a.status == 0) return;
    spdlog::debug("http request refused peer={} status={} error={}", peer_, a.status, ec.message());
    return respond(a, 11);
  }
  auto req = parser_->release();
  http_context ctx{state_->cfg, peer_};
  ctx.stopping = state_->stopping.load();
  ctx.rooms = state_->rooms.size();
  ctx.connections = state_->session_count();
  ctx.journal = state_->journal_status;
  if (auto* c = state_->rooms.cluster()) {
    ctx.instance = c->id();
    ctx.lease_valid = c->valid();
  }
  if (state_->journal && !state_->journal->writable()) ctx.journal = "failing";  // rooms refuse what they would save
  ctx.files = &state_->files;
  ctx.limits = &state_->limits;
  ctx.records = &state_->records;
  ctx.record_downloads = &state_->record_downloads;
  if (auto* j = state_->journal.get()) ctx.record_served = [j](const std::string& id) { return j->has_record(id); };
  ctx.find_room = [s = state_.get()](const std::string& code) {
    room_peek peek;
    if (auto r = s->rooms.find(code)) {
      peek.what = room_peek::found::open;
      peek.summary = r->public_summary();
    } else if (s->rooms.set_aside(code)) {
      peek.what = room_peek::found::unavailable;
    } else if (auto summary = s->cluster && s->journal ? s->journal->summary(code) : std::nullopt) {
      // Cluster mode: a room another instance serves, as its owner last wrote it.
      peek.what = room_peek::found::open;
      peek.summary = std::move(*summary);
      peek.summary["spectators"] = 0;
    }
    return peek;
  };
  if (auto* j = state_->journal.get())
    ctx.find_record = [j](const std::string& id) -> std::optional<std::string> {
      auto r = j->find_record(id);
      if (!r) return std::nullopt;
      // Records written before 0.3.0 carry the room code, and their room may still be open: a
      // record is passed around, it must not let its holder into the room.
      if (r->body.is_object()) r->body.erase("room");
      return r->body.dump() + "\n";  // compact: half the bytes of an indented one, and half the work
    };
  auto a = route_http(req, ctx);
  if (!a.log.empty()) {
    // One line per address and kind of refusal per interval: a client cannot fill the log.
    const auto kind = a.log.substr(0, a.log.find(':'));
    if (const auto held = state_->log_limit.allow(kind + "|" + limit_key(canonical_address(peer_).value_or(peer_))))
      spdlog::info("{} peer={} suppressed={}", a.log, peer_, *held);
  }
  if (a.what == http_answer::action::upgrade) return upgrade(std::move(req), a.client);
  respond(a, req.version());
}

void http_session::upgrade(http_request req, const std::string& client) {
  const auto admitted = state_->limits.open_connection(client);
  if (admitted == address_limits::admission::ok) {
    std::make_shared<ws_session>(stream_.release_socket(), state_, client, std::move(slot_))->run(std::move(req));
    return;
  }
  const bool server_full = admitted == address_limits::admission::server_full;
  if (const auto held = state_->log_limit.allow(std::string(server_full ? "ws-full|" : "ws-address|") + client))
    spdlog::info("websocket refused: {} client={} connections={} suppressed={}",
                 server_full ? "server full" : "too many connections from this address", client,
                 state_->limits.connections(), *held);
  http_answer a;
  a.status = 503;
  a.keep_alive = false;
  a.body = server_full ? "service unavailable: the server has as many connections as it allows; try again later\n"
                       : "service unavailable: too many connections from your address; close some tabs and try again\n";
  respond(a, req.version());
}

void http_session::respond(const http_answer& a, unsigned version) {
  const auto status = static_cast<http::status>(a.status);
  auto headers = [&](auto& res) {
    res.set(http::field::server, "tinsel/" + version_string());
    if (a.status != 304) res.set(http::field::content_type, a.content_type);  // a 304 sends no content
    res.set(http::field::cache_control, a.cache_control);
    if (!a.etag.empty()) res.set(http::field::etag, a.etag);
    if (!a.content_encoding.empty()) res.set(http::field::content_encoding, a.content_encoding);
    if (a.vary_encoding) res.set(http::field::vary, "Accept-Encoding");
    if (a.retry_after) res.set(http::field::retry_after, std::to_string(*a.retry_after));
    res.keep_alive(a.keep_alive);
  };
  if (a.head || a.status == 304) {  // a 304 has no body, nor a Content-Length
    http::response<http::empty_body> res{status, version};
    headers(res);
    if (a.status != 304)
      res.content_length(!a.file.empty() ? a.file_size : a.shared_body ? a.shared_body->size() : a.body.size());
    return write(std::move(res));
  }
  if (a.shared_body) {  // sent from where it is kept, not copied
    http::response<http::span_body<const char>> res{status, version};
    headers(res);
    res.body() = http::span_body<const char>::value_type(a.shared_body->data(), a.shared_body->size());
    res.prepare_payload();
    body_owner_ = a.shared_body;
    return write(std::move(res));
  }
  if (!a.file.empty()) {
    http::file_body::value_type body;
    beast::error_code ec;
    body.open(a.file.c_str(), beast::file_mode::scan, ec);
    if (ec) {  // gone since it was looked up
      http_answer missing;
      missing.status = 404;
      missing.body = "not found\n";
      missing.keep_alive = a.keep_alive;
      return respond(missing, version);
    }
    const auto size = body.size();
    http::response<http::file_body> res{std::piecewise_construct, std::make_tuple(std::move(body)),
                                        std::make_tuple(status, version)};
    headers(res);
    res.content_length(size);
    return write(std::move(res));
  }
  http::response<http::string_body> res{status, version};
  headers(res);
  res.body() = a.body;
  res.prepare_payload();
  write(std::move(res));
}

void http_session::on_write(bool keep_alive, beast::error_code ec, std::size_t) {
  body_owner_.reset();
  if (ec) return;
  if (!keep_alive) {
    stream_.socket().shutdown(net::ip::tcp::socket::shutdown_send, ec);
    stream_.expires_after(std::chrono::seconds(5));
    buffer_.clear();
    return drain();
  }
  do_wait();
}

void http_session::drain() {
  stream_.async_read_some(buffer_.prepare(16 * 1024), [self = shared_from_this()](beast::error_code ec, std::size_t n) {
    self->buffer_.clear();
    self->drained_ += n;
    if (!ec && self->drained_ < 4 * 1024 * 1024) self->drain();
  });
}

}  // namespace tinsel::server
