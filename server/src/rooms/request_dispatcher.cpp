// The v1 request dispatcher (request_dispatcher.hpp): hello, the lobby's requests, and the room
// requests, each kind its own short handler.
#include "rooms/request_dispatcher.hpp"

#include <spdlog/spdlog.h>

#include "cluster/lease.hpp"
#include "ops/metrics.hpp"
#include "rooms/random.hpp"
#include "tinsel/protocol/errors.hpp"
#include "tinsel/protocol/messages.hpp"
#include "tinsel/protocol/outgoing.hpp"

namespace tinsel::server {

namespace errc = protocol::errc;
using protocol::make_error;
using protocol::make_ok;

namespace {
// Every game the server offers, for welcome.games.
json games_json() {
  json games = json::array();
  for (const auto* g : engine::builtin_games().all()) {
    const auto defaults = g->normalize_options(json::object());
    const auto range = g->seats(defaults.value());
    games.push_back({{"id", g->id}, {"title", g->title}, {"min_players", range.min}, {"max_players", range.max},
                     {"default_options", defaults.value()}, {"options", engine::describe_options(g->options)}});
  }
  return games;
}

std::string seconds_text(std::chrono::milliseconds ms) {
  const auto s = (ms.count() + 999) / 1000;
  return s == 1 ? "1 second" : std::to_string(s) + " seconds";
}
}  // namespace

void request_dispatcher::reply(const pptr& self, std::string frame) {
  self->send(share_frame(std::move(frame)));
}

void request_dispatcher::on_binary(std::size_t bytes, const pptr& self) {
  if (bytes > cfg_.limits.max_frame_bytes)
    return reply(self, make_error(nullptr, errc::frame_too_large, "frame of " + std::to_string(bytes) + " bytes exceeds the limit of " +
                                                                      std::to_string(cfg_.limits.max_frame_bytes) + " bytes"));
  reply(self, make_error(nullptr, errc::invalid_message, "binary frames are not supported; send JSON text frames"));
}

void request_dispatcher::on_left_room(const std::shared_ptr<room>& r) {
  if (room_ == r) room_.reset();
}

void request_dispatcher::on_closed(std::uint64_t connection) {
  if (room_) room_->disconnected(connection);
  room_.reset();
  if (hello_) ids_.released(token_, connection);
}

void request_dispatcher::on_rate_limited(std::string_view frame, const pptr& self) {
  auto parsed = protocol::parse_client_message(frame, cfg_.limits);
  reply(self, make_error(parsed.id, errc::rate_limited, "too many requests; slow down"));
}

void request_dispatcher::handle(protocol::hello_msg& m, const json& id, const pptr& self) {
  if (hello_) return reply(self, make_error(id, errc::already_hello, "this connection has already said hello"));
  if (m.protocol != protocol::protocol_version)
    return reply(self, make_error(id, errc::unsupported_protocol,
                                  "this server speaks protocol " + std::to_string(protocol::protocol_version)));
  // Cluster mode: the room of the URL is served here (claimed first if its owner is gone) or the
  // client goes where it is, before its token is looked up (a room taken over brings its players'
  // identities with it).
  // The URL's room is looked up like a join_room's: a code that names no room is a miss for the
  // address, and an address waiting out its failed-join back-off gets no lookup (room_moved or not
  // would tell a guesser which codes exist); its join_room is refused as ever.
  if (lobby_.cluster() && !room_hint_.empty() && !limits_.join_wait(address_, address_limits::clock::now(), true)) {
    std::shared_ptr<room> here;
    if (!route(room_hint_, id, self, here)) return;
    if (!here) limits_.join_missed(address_);
  }
  std::optional<identity_info> who;
  if (m.token) {
    std::shared_ptr<participant> replaced;
    who = ids_.resume(*m.token, self, replaced);
    if (replaced && replaced != self) replaced->close_with(close_code::replaced, "this player connected again elsewhere");
  }
  const bool resumed = who.has_value();
  if (!who) who = ids_.issue(std::move(m.name), self, address_);
  if (!who) {
    spdlog::debug("hello refused: too many identities conn={} client={}", self->connection_id(), address_);
    return reply(self, make_error(id, errc::too_many_identities,
                                  "too many players from your address; resume with your token, or try again in a few minutes"));
  }
  hello_ = true;
  player_id_ = who->player_id;
  name_ = who->name;
  token_ = who->token;
  token_hash_ = who->token_hash;
  view_changes_ = m.view_changes;
  std::shared_ptr<room> last_room = who->room.empty() ? nullptr : lobby_.find(who->room);
  // A room whose host sent this player away is no longer theirs to go back to (they may still watch it).
  if (last_room && last_room->sent_away(player_id_)) last_room.reset();
  spdlog::debug("hello conn={} player={} resumed={}", self->connection_id(), player_id_, resumed);  // per connection: debug
  // The games and their option specifications never change while the server runs: built once.
  static const json games = games_json();
  const auto version = version_string();
  reply(self, protocol::make_welcome({player_id_, name_, token_, resumed,
                                      last_room ? std::optional<std::string_view>(last_room->code()) : std::nullopt,
                                      version, games, lobby_.cluster() ? std::string_view(lobby_.cluster()->id()) : std::string_view()}));
  // Like every request with an id, hello is answered with exactly one ok or error.
  if (!id.is_null()) reply(self, make_ok(id));
}

// Codes are guessed by trying them: every miss counts against the address (and an IPv6 /64's
// against its /48 too), and past the free ones each attempt waits longer (address_limits::join_wait),
// whether or not the code is right. A player going back to the room it is in (a reload, a
// reconnect) is not guessing: its /48's wait does not apply to that, only its own address's.
void request_dispatcher::handle(protocol::join_room_msg& m, const json& id, const pptr& self) {
  if (room_) return reply(self, make_error(id, errc::already_in_room, "leave your room before joining another"));
  const bool own_room = !m.room.empty() && ids_.room_of(token_hash_) == m.room;
  if (auto wait = limits_.join_wait(address_, address_limits::clock::now(), !own_room)) {
    spdlog::debug("join refused: back-off after failed joins conn={} client={}", self->connection_id(), address_);
    return reply(self, make_error(id, errc::too_many_attempts,
                               "too many tries with unknown room codes; try again in " + seconds_text(*wait), wait));
  }
  // What joins sent this address is bounded (address_limits::join_bytes_wait): in debt, wait.
  if (auto wait = limits_.join_bytes_wait(address_)) {
    spdlog::debug("join refused: join byte budget in debt conn={} client={}", self->connection_id(), address_);
    return reply(self, make_error(id, errc::rate_limited,
                               "too much sent to your address for joining rooms; try again in " + seconds_text(*wait), wait));
  }
  std::shared_ptr<room> r;
  if (lobby_.cluster()) {
    if (!route(m.room, id, self, r)) return;
  } else {
    r = lobby_.find(m.room);
  }
  if (!r && lobby_.set_aside(m.room))
    return reply(self, make_error(id, errc::room_unavailable,
                                  "the room " + m.room + " could not be restored after the server restarted; please start a new one"));
  if (!r) {
    limits_.join_missed(address_);
    return reply(self, make_error(id, errc::unknown_room, "there is no room with the code " + m.room));
  }
  room_ = r;
  ids_.set_room(token_, room_->code());
  room_->join(self, identity{player_id_, name_, token_hash_, view_changes_}, m.spectator, m.last_seq, id, join_budget{&limits_, address_});
}

void request_dispatcher::on_text(std::string_view frame, const pptr& self) {
  auto parsed = protocol::parse_client_message(frame, cfg_.limits);
  if (parsed.error) {
    spdlog::debug("rejected frame conn={} code={}", self->connection_id(), parsed.error->code);
    return reply(self, make_error(parsed.id, parsed.error->code, parsed.error->message));
  }
  const json& id = parsed.ok->id;
  auto& msg = parsed.ok->message;

  if (!hello_ && !std::holds_alternative<protocol::hello_msg>(msg))
    return reply(self, make_error(id, errc::hello_required, "say hello first: {\"type\":\"hello\",\"protocol\":1,\"name\":\"...\"}"));

  std::visit([&](auto& m) { handle(m, id, self); }, msg);
}

void request_dispatcher::handle(protocol::create_room_msg& m, const json& id, const pptr& self) {
  if (room_) return reply(self, make_error(id, errc::already_in_room, "leave your room before creating another"));
  const auto* game = engine::builtin_games().find(m.game);
  if (!game) return reply(self, make_error(id, errc::unknown_game, "there is no game called '" + m.game.substr(0, 40) + "'"));
  auto options = game->normalize_options(m.options);
  if (!options) return reply(self, make_error(id, options.error().code, options.error().message));
  if (!lobby_.can_save()) {
    metrics().storage_refused();
    return reply(self, make_error(id, errc::storage_failed, "the server cannot save rooms right now; please try again in a moment"));
  }
  if (lobby_.cluster() && !lobby_.cluster()->valid()) {
    metrics().storage_refused();
    return reply(self, make_error(id, errc::storage_failed, "the server cannot save rooms right now; please try again in a moment"));
  }
  auto made = lobby_.create(*game, std::move(options.value()), address_);
  if (made.storage_failed) {
    metrics().storage_refused();
    return reply(self, make_error(id, errc::storage_failed, "the server cannot save rooms right now; please try again in a moment"));
  }
  if (!made.r) return reply(self, make_error(id, errc::too_many_rooms, made.refused->message, made.refused->retry_after));
  room_ = std::move(made.r);
  ids_.set_room(token_, room_->code());
  room_->join(self, identity{player_id_, name_, token_hash_, view_changes_}, false, std::nullopt, id);
}

// A client's silence timer: the answer itself is the point (the connection still carries).
void request_dispatcher::handle(protocol::ping_msg&, const json& id, const pptr& self) { reply(self, make_ok(id)); }

bool request_dispatcher::route(const std::string& code, const json& id, const pptr& self, std::shared_ptr<room>& r) {
  auto* cluster = lobby_.cluster();
  lobby::routed where;
  // Past its lease this instance serves no room, not even a look (another may own it by now).
  if (!cluster->valid()) where.moved = true;
  else where = lobby_.route(code, ids_);
  if (!where.moved) {
    r = std::move(where.r);
    return true;
  }
  spdlog::debug("room moved conn={} room={} instance={} retry_after_ms={}", self->connection_id(), code,
                where.instance.empty() ? "?" : where.instance, where.retry_after ? where.retry_after->count() : 0);
  send_away(id, self, code, where.instance, where.retry_after);
  return false;
}

void request_dispatcher::send_away(const json& id, const pptr& self, const std::string& code, const std::string& instance,
                                   std::optional<std::chrono::milliseconds> retry_after) {
  reply(self, protocol::make_room_moved(id, code, instance, retry_after));
  self->close_with(close_code::room_moved, "room moved");
}

room* request_dispatcher::room_or_refuse(const json& id, const pptr& self) {
  if (!room_) reply(self, make_error(id, errc::not_in_room, "you are not in a room"));
  // Cluster mode: past its lease this instance answers nothing for its rooms (the watchdog is
  // about to send every room away; a process woken from a pause must not answer first).
  if (room_ && lobby_.cluster() && !lobby_.cluster()->valid()) {
    send_away(id, self, room_->code(), {});
    return nullptr;
  }
  return room_.get();
}

void request_dispatcher::handle(protocol::leave_room_msg&, const json& id, const pptr& self) {
  auto* r = room_or_refuse(id, self);
  if (!r) return;
  r->leave(self, id);
  room_.reset();
  ids_.set_room(token_, "");
}

namespace {
// The room's call for each request that acts on the client's room.
void to_room(room& r, protocol::chat_msg& m, const json& id, const std::shared_ptr<participant>& self) {
  r.chat(self, std::move(m.text), id);
}
void to_room(room& r, protocol::set_options_msg& m, const json& id, const std::shared_ptr<participant>& self) {
  r.set_options(self, std::move(m.options), id);
}
void to_room(room& r, protocol::set_game_msg& m, const json& id, const std::shared_ptr<participant>& self) {
  r.set_game(self, std::move(m.game), std::move(m.options), id);
}
void to_room(room& r, protocol::start_game_msg& m, const json& id, const std::shared_ptr<participant>& self) {
  r.start_game(self, m.first_seat, id);
}
void to_room(room& r, protocol::action_msg& m, const json& id, const std::shared_ptr<participant>& self) {
  r.action(self, std::move(m.action), id);
}
void to_room(room& r, protocol::kick_msg& m, const json& id, const std::shared_ptr<participant>& self) {
  r.kick(self, std::move(m.player), id);
}
void to_room(room& r, protocol::transfer_host_msg& m, const json& id, const std::shared_ptr<participant>& self) {
  r.transfer_host(self, std::move(m.player), id);
}
void to_room(room& r, protocol::add_bot_msg& m, const json& id, const std::shared_ptr<participant>& self) {
  r.add_bot(self, id, engine::bot_level_from_name(m.level).value_or(engine::bot_level::fair));  // parsed: one of the two
}
void to_room(room& r, protocol::remove_bot_msg& m, const json& id, const std::shared_ptr<participant>& self) {
  r.remove_bot(self, m.seat, id);
}
void to_room(room& r, protocol::close_room_msg&, const json& id, const std::shared_ptr<participant>& self) {
  r.close_room(self, id);
}
void to_room(room& r, protocol::skip_msg& m, const json& id, const std::shared_ptr<participant>& self) {
  r.skip(self, m.seat, id);
}
void to_room(room& r, protocol::full_view_msg&, const json& id, const std::shared_ptr<participant>& self) {
  r.full_view(self, id);
}
void to_room(room& r, protocol::readmit_msg& m, const json& id, const std::shared_ptr<participant>& self) {
  r.readmit(self, std::move(m.player), id);
}
}  // namespace

template <class Request>
void request_dispatcher::handle(Request& m, const json& id, const pptr& self) {
  if (auto* r = room_or_refuse(id, self)) to_room(*r, m, id, self);
}

}  // namespace tinsel::server
