// The room tests' fakes (room_fakes.hpp).
#include "room_fakes.hpp"

#include "tinsel/engine/game.hpp"

namespace tinsel::room_tests {

std::vector<json> fake_participant::of_type(const std::string& type) const {
  std::vector<json> out;
  for (const auto& f : frames)
    if (f.value("type", "") == type) out.push_back(f);
  return out;
}

json fake_participant::last(const std::string& type) const {
  for (auto it = frames.rbegin(); it != frames.rend(); ++it)
    if (it->value("type", "") == type) return *it;
  return nullptr;
}

json fake_participant::answer(const json& id) const {
  for (const auto& f : frames)
    if ((f.value("type", "") == "ok" || f.value("type", "") == "error") && f.value("id", json()) == id) return f;
  return nullptr;
}

void fake_journal::append(std::vector<server::storage::record> batch, std::function<void(bool)> done) {
  if (hold) {
    held.emplace_back(std::move(batch), std::move(done));
    return;
  }
  if (fail_writes) return done(false);
  for (auto& r : batch) rooms[r.room].push_back(std::move(r.body));
  done(true);
}

void fake_journal::finish_held(bool ok) {
  auto batches = std::move(held);
  held.clear();
  for (auto& [batch, done] : batches) {
    if (ok)
      for (auto& r : batch) rooms[r.room].push_back(std::move(r.body));
    done(ok);
  }
}

std::optional<server::storage::stored_room> fake_journal::load_room(const std::string& code) {
  auto it = rooms.find(code);
  if (it == rooms.end()) return server::storage::stored_room{code, {}};
  return server::storage::stored_room{code, it->second};
}

std::vector<std::string> fake_journal::kinds() const {
  std::vector<std::string> out;
  for (const auto& [code, records] : rooms)
    for (const auto& r : records) out.push_back(r.at("kind").get<std::string>());
  return out;
}

room_fixture::room_fixture(const std::string& game, json options, server::storage::journal* journal) {
  const auto* info = engine::builtin_games().find(game);
  auto normalized = info->normalize_options(options);
  room = std::make_shared<server::room>(
      io.get_executor(), "TESTRM", *info, normalized.value(), cfg,
      [this](const std::string& code, bool) { expired.push_back(code); }, journal);
  std::uint64_t seed = 1;
  room->set_seeds([seed]() mutable { return seed++; });  // scripted dice: the same games every run
}

void room_fixture::settle() {
  io.restart();
  io.poll();
}

bool room_fixture::run_until(const std::function<bool()>& pred) {
  for (int i = 0; i < 2000 && !pred(); ++i) {
    io.restart();
    io.run_one_for(std::chrono::milliseconds(10));
  }
  return pred();
}

std::shared_ptr<fake_participant> room_fixture::connect() { return std::make_shared<fake_participant>(next_connection++); }

server::identity room_fixture::who(int n) {
  return {"p" + std::to_string(n), "Player " + std::to_string(n), "hash" + std::to_string(n), false};
}

std::shared_ptr<fake_participant> room_fixture::join(int n, bool spectator, std::optional<std::uint64_t> last_seq) {
  auto p = connect();
  room->join(p, who(n), spectator, last_seq, id_counter);
  id_counter = id_counter.get<int>() + 1;
  settle();
  return p;
}

json room_fixture::first_command(const json& state) {
  for (const auto& cmd : state.at("legal"))
    if (cmd.is_object() && !cmd.contains("domain")) return cmd;
  return nullptr;
}

}  // namespace tinsel::room_tests
