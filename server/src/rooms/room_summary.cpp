// The room as an invite link shows it (docs/protocol.md, "Invite links"). Only what anyone with the
// code may learn: no player ids, tokens, options, chat or game state.
#include "rooms/room.hpp"

namespace tinsel::server {

void room::refresh_public_summary() {
  json players = json::array();
  json host_name = nullptr;
  int free_seats = 0;
  for (const auto& st : seats_) {
    if (st.player_id.empty()) {
      ++free_seats;
      continue;
    }
    const bool host = !host_.empty() && st.player_id == host_;
    players.push_back({{"name", st.name}, {"bot", st.bot}, {"host", host}});
    if (host) host_name = st.name;
  }
  const status s = status_;
  const auto range = game().seats(options_);
  const auto spectators = std::count_if(members_.begin(), members_.end(), [](const auto& kv) { return kv.second.seat < 0; });
  json j = {{"code", code_},
            {"game", game().id},
            {"title", game().title},
            {"status", s == status::lobby ? "lobby" : s == status::playing ? "playing" : "finished"},
            {"host", host_name},
            {"players", std::move(players)},
            // Nobody sits down in a running game; its seats open again when it ends.
            {"free_seats", s == status::playing ? 0 : free_seats},
            {"min_players", range.min},
            {"max_players", range.max},
            {"spectators", spectators}};
  std::lock_guard lock(public_summary_mutex_);
  public_summary_ = std::move(j);
}

json room::public_summary() const {
  std::lock_guard lock(public_summary_mutex_);
  return public_summary_;
}

}  // namespace tinsel::server
