// The host's controls of a room: options, removing and letting back players, bots, handing over
// the role, skipping a seat, closing the room (docs/protocol.md, "Host controls").
#include <algorithm>
#include <array>
#include <cctype>

#include <spdlog/spdlog.h>

#include "rooms/room.hpp"
#include "tinsel/protocol/errors.hpp"
#include "tinsel/protocol/outgoing.hpp"

namespace tinsel::server {

namespace errc = protocol::errc;

void room::kick(std::shared_ptr<participant> p, std::string player, json request_id) {
  dispatch([p, player = std::move(player), id = request_id](room& r) { r.do_kick(p, player, id); }, p, request_id);
}

void room::transfer_host(std::shared_ptr<participant> p, std::string player, json request_id) {
  dispatch([p, player = std::move(player), id = request_id](room& r) {
    if (!r.check_host(p, id, "hand over the host role")) return;
    const bool connected_player = std::any_of(r.members_.begin(), r.members_.end(), [&](const auto& kv) {
      return kv.second.seat >= 0 && kv.second.who.player_id == player;
    });
    if (!connected_player)
      return r.reply_error(p, id, errc::unknown_player, "the new host must be a connected player in this room");
    spdlog::info("host handed over room={} from={} to={}", r.code_, r.host_, player);
    r.host_ = player;
    r.reply_ok(p, id);
    r.broadcast_room();
  }, p, request_id);
}

namespace {
// A computer player's name: friendly, the same in every language, and not one a seated player
// already has (a family's "Holly" and a computer's "Holly" at one table confuse everyone). The
// web client renames the "Bot N" that rooms journaled by older servers still carry by the same
// list (clients/web/js/state.js, botNames).
std::string bot_name(int n, const std::vector<std::string>& at_table) {
  static constexpr std::array<const char*, 6> names{"Holly", "Rudi", "Noel", "Stella", "Niko", "Ella"};
  const auto lower = [](std::string_view v) {
    std::string out(v);
    for (auto& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return out;
  };
  for (std::size_t i = 0; i < names.size(); ++i) {
    const char* name = names[(static_cast<std::size_t>(n - 1) + i) % names.size()];
    if (std::none_of(at_table.begin(), at_table.end(), [&](const std::string& t) { return lower(t) == lower(name); }))
      return name;
  }
  return "Bot " + std::to_string(n);  // every name taken: at most 6 seats, so only by people
}
}  // namespace

void room::add_bot(std::shared_ptr<participant> p, json request_id, engine::bot_level level) {
  dispatch([p, level, id = request_id](room& r) {
    if (!r.check_host(p, id, "add a bot")) return;
    if (r.status_ == status::playing) return r.reply_error(p, id, errc::game_in_progress, "bots join between games");
    const auto bots = std::count_if(r.seats_.begin(), r.seats_.end(), [](const seat& s) { return s.bot; });
    if (bots >= r.cfg_.max_bots_per_room)
      return r.reply_error(p, id, errc::too_many_bots, "this room already has the most bots allowed");
    auto free = std::find_if(r.seats_.begin(), r.seats_.end(), [](const seat& s) { return s.player_id.empty(); });
    if (free == r.seats_.end()) return r.reply_error(p, id, errc::room_full, "every seat in this room is taken");
    ++r.bots_added_;
    *free = seat{};
    free->player_id = "bot_" + std::to_string(r.bots_added_);
    std::vector<std::string> at_table;
    for (const auto& s : r.seats_)
      if (!s.player_id.empty()) at_table.push_back(s.name);
    free->name = bot_name(r.bots_added_, at_table);
    free->bot = true;
    free->level = level;
    r.reply_ok(p, id, {{"seat", free - r.seats_.begin()}, {"player", free->player_id}});
    r.broadcast_room();
  }, p, request_id);
}

void room::remove_bot(std::shared_ptr<participant> p, int seat_index, json request_id) {
  dispatch([p, seat_index, id = request_id](room& r) {
    if (!r.check_host(p, id, "remove a bot")) return;
    if (r.status_ == status::playing) return r.reply_error(p, id, errc::game_in_progress, "bots leave between games");
    if (seat_index < 0 || static_cast<std::size_t>(seat_index) >= r.seats_.size() || !r.seats_[static_cast<std::size_t>(seat_index)].bot)
      return r.reply_error(p, id, errc::not_a_bot, "no bot sits in that seat");
    r.seats_[static_cast<std::size_t>(seat_index)] = seat{};
    r.reply_ok(p, id);
    r.broadcast_room();
  }, p, request_id);
}

void room::close_room(std::shared_ptr<participant> p, json request_id) {
  dispatch([p, id = request_id](room& r) { r.do_close_room(p, id); }, p, request_id);
}

void room::skip(std::shared_ptr<participant> p, int seat_index, json request_id) {
  dispatch([p, seat_index, id = request_id](room& r) { r.do_skip(p, seat_index, id); }, p, request_id);
}

void room::readmit(std::shared_ptr<participant> p, std::string player, json request_id) {
  dispatch([p, player = std::move(player), id = request_id](room& r) {
    if (!r.check_host(p, id, "let players back")) return;
    {
      std::lock_guard lock(r.kicked_mutex_);
      if (!r.kicked_.erase(player))
        return r.reply_error(p, id, errc::unknown_player, "nobody by that id was sent away from this room");
    }
    spdlog::info("readmitted room={} player={}", r.code_, player);
    r.reply_ok(p, id);
    r.broadcast_room();  // journals the lobby snapshot without them
  }, p, request_id);
}

bool room::sent_away(const std::string& player) const {
  std::lock_guard lock(kicked_mutex_);
  return kicked_.count(player) > 0;
}

void room::do_kick(const pptr& p, const std::string& player, const json& id) {
  if (!check_host(p, id, "remove players")) return;
  const auto me = find_member(p->connection_id());
  if (me && me->who.player_id == player) return reply_error(p, id, errc::unknown_player, "the host cannot remove themself; leave instead");
  auto seat_it = std::find_if(seats_.begin(), seats_.end(),
                              [&](const seat& s) { return !s.bot && !s.player_id.empty() && s.player_id == player; });
  std::vector<std::uint64_t> connections;
  for (const auto& [c, m] : members_)
    if (m.who.player_id == player) connections.push_back(c);
  if (seat_it == seats_.end() && connections.empty())
    return reply_error(p, id, errc::unknown_player, "no such player or spectator in this room");
  spdlog::info("kicked room={} player={}", code_, player);
  {
    sent_away_player who;
    if (seat_it != seats_.end()) who = {seat_it->name, seat_it->token_hash};
    else who = {members_[connections.front()].who.name, members_[connections.front()].who.token_hash};
    std::lock_guard lock(kicked_mutex_);
    kicked_[player] = std::move(who);
  }
  for (auto c : connections) {
    if (auto target = members_[c].p.lock()) {
      tell(target, share_frame(protocol::make_kicked(code_)));
      tell_left(target);
    }
    members_.erase(c);
  }
  if (seat_it != seats_.end()) {
    if (status_ == status::playing) {
      seat_it->connection = 0;
      seat_it->gone = true;  // the bot finishes the game in this seat
    } else {
      *seat_it = seat{};
    }
  }
  reply_ok(p, id);
  update_empty_timer();
  broadcast_room();
  if (status_ == status::playing) {
    arm_prompt_timer();
    arm_bot_timer();
  }
}

void room::do_close_room(const pptr& p, const json& id) {
  if (!check_host(p, id, "close the room")) return;
  spdlog::info("room closed by host room={}", code_);
  closed_ = true;
  table_.cancel_timers();
  seat_timer_.cancel();
  append_record({{"kind", "closed"}, {"reason", "host"}});
  // Before the ok: the host's connection is out of the room (left_room is queued on its strand
  // ahead of the ok) and the room out of the lobby and the host's live-room count, so a client
  // that creates a room as soon as it reads the ok finds both done.
  tell_left(p);
  queue_.tell_expired();
  reply_ok(p, id);
  send_to_all(share_frame(room_frame("closed")));
  for (auto& [c, m] : members_)
    if (auto target = m.p.lock(); target && target != p) tell_left(target);
  members_.clear();
}

void room::set_options(std::shared_ptr<participant> p, json options, json request_id) {
  dispatch([p, options = std::move(options), id = request_id](room& r) mutable {
    r.do_set_options(p, std::move(options), id);
  }, p, request_id);
}

bool room::check_host(const pptr& p, const json& id, std::string_view what) {
  if (!find_member(p->connection_id())) {
    reply_error(p, id, errc::not_in_room, "you are not in this room");
    return false;
  }
  if (!is_host(p->connection_id())) {
    reply_error(p, id, errc::not_host, "only the host can " + std::string(what));
    return false;
  }
  return true;
}

void room::do_set_options(const pptr& p, json options, const json& id) {
  if (!check_host(p, id, "change the options")) return;
  if (status_ == status::playing) return reply_error(p, id, errc::game_in_progress, "options can only change between games");
  auto normalized = game().normalize_options(options);
  if (!normalized) return reply_error(p, id, normalized.error().code, normalized.error().message);
  const int max = game().seats(normalized.value()).max;
  if (seated_count() > max)
    return reply_error(p, id, errc::invalid_option,
                       std::to_string(seated_count()) + " players are seated, more than these options allow");
  options_ = std::move(normalized.value());
  compact_seats(static_cast<std::size_t>(max));
  reply_ok(p, id);
  broadcast_room();
}

}  // namespace tinsel::server
