// One room for the evening (issue 31): between games the host picks the next game, any the server
// hosts, with its options (set_game, docs/protocol.md). Seats, names, bots, spectators, the
// sent-away list and chat stay; the invite and watch links (the room code) stay; the room push and
// the invite summary show the new game at once. The finished game leaves the table: its state,
// log, history and result (the room push's `result` is null again: a result belongs with the game
// it was played in, which the push no longer names; every player got it in the final state, and
// its game record stays downloadable).
#include <spdlog/spdlog.h>

#include "rooms/room.hpp"
#include "tinsel/protocol/errors.hpp"

namespace tinsel::server {

namespace errc = protocol::errc;

void room::set_game(std::shared_ptr<participant> p, std::string game, json options, json request_id) {
  dispatch([p, game = std::move(game), options = std::move(options), id = request_id](room& r) mutable {
    r.do_set_game(p, game, std::move(options), id);
  }, p, request_id);
}

void room::do_set_game(const pptr& p, const std::string& game_id, json options, const json& id) {
  if (!check_host(p, id, "choose the next game")) return;
  if (status_ == status::playing)
    return reply_error(p, id, errc::game_in_progress, "the next game can only be chosen when no game is running");
  const auto* next = engine::builtin_games().find(game_id);
  if (!next) return reply_error(p, id, errc::unknown_game, "there is no game called '" + game_id.substr(0, 40) + "'");
  auto normalized = next->normalize_options(options.is_null() ? json::object() : options);
  if (!normalized) return reply_error(p, id, normalized.error().code, normalized.error().message);
  const int max = next->seats(normalized.value()).max;
  if (seated_count() > max)
    return reply_error(p, id, errc::too_many_players,
                       next->title + " with these options seats at most " + std::to_string(max) + " players, and " +
                           std::to_string(seated_count()) + " are seated: remove a player or a bot first");
  spdlog::info("next game room={} from={} to={}", code_, game().id, next->id);
  append_record({{"kind", "game"}, {"game", next->id}, {"options", normalized.value()}});
  switch_game(*next, std::move(normalized.value()));
  compact_seats(static_cast<std::size_t>(max));
  reply_ok(p, id);
  broadcast_room();
}

void room::switch_game(const engine::game_info& next, json options) {
  game_ = &next;
  options_ = std::move(options);
  table_.change_game(next);
  status_ = status::lobby;
}

}  // namespace tinsel::server
