// A Tinsel room played closed-loop by P connections of ours (docs/protocol.md, nothing else).
//
// Setup: every member says hello; the host (member 0) creates the room with timers off, the others
// join it; the host starts the game. Play: exactly one command in flight per room. When every
// member has received the newest state, a seat is picked at random among those in the state's
// `prompt.seats` whose `legal` has a concrete entry (never a `domain` entry), and one of those
// entries, at random, is sent as it is. The own-move latency runs from sending the action to the
// sender's next `state`. When a state says `over`, the host starts the next game.
#include <algorithm>
#include <charconv>
#include <optional>
#include <random>
#include <sstream>

#include "json_scan.hpp"
#include "rooms.hpp"

namespace tinsel_loadgen {

namespace {

using json = nlohmann::json;

enum class request { hello, create_room, join_room, start_game, action };

const char* name_of(request r) {
  switch (r) {
    case request::hello: return "hello";
    case request::create_room: return "create_room";
    case request::join_room: return "join_room";
    case request::start_game: return "start_game";
    case request::action: return "action";
  }
  return "?";
}

struct pending_request {
  request what;
  clock_type::time_point sent;
  std::string text;  // what was sent, for the error message
};

std::string describe(const close_info& info) {
  std::ostringstream out;
  if (info.http_status) out << "HTTP " << info.http_status << " on upgrade";
  else if (!info.opened) out << "could not connect";
  else out << "closed";
  if (info.close_code) out << ", close code " << info.close_code;
  if (!info.reason.empty()) out << " \"" << info.reason << "\"";
  if (!info.error.empty()) out << " (" << info.error << ")";
  return out.str();
}

class tinsel_room final : public room, public std::enable_shared_from_this<tinsel_room> {
 public:
  tinsel_room(int index, std::shared_ptr<lane> on, const room_settings& settings, run_state& run, std::uint64_t seed)
      : index_(index), lane_(std::move(on)), settings_(settings), run_(run), rng_(seed) {}

  void start(std::function<void()> ready) override {
    ready_ = std::move(ready);
    last_progress_ = clock_type::now();
    members_.resize(static_cast<std::size_t>(settings_.players));
    for (std::size_t i = 0; i < members_.size(); ++i) {
      std::weak_ptr<tinsel_room> weak = weak_from_this();
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
    bool hello_done = false;
    bool join_sent = false;
    bool in_room = false;
    int seat = -1;
    std::int64_t last_seq = 0;
    bool over = false;
    std::vector<int> prompt_seats;
    std::string legal;  // `legal` of the newest state, as sent: parsed only when this seat may act
    std::map<std::int64_t, pending_request> pending;
    std::uint64_t wire_seen = 0;
  };

  struct in_flight {
    request what;
    std::size_t sender;
    std::int64_t seq_at_send;
    clock_type::time_point sent;
  };

  std::string where(std::size_t i) const {
    return "room " + std::to_string(index_) + (code_.empty() ? "" : " (" + code_ + ")") + " member " +
           std::to_string(i);
  }

  // ---- connection events ------------------------------------------------------------------

  void on_open(std::size_t i) {
    auto& m = members_[i];
    m.open = true;
    ++run_.connections_open;
    if (m.conn->deflate_negotiated()) ++run_.deflate_connections;
    if (stopped_) return;
    json hello{{"type", "hello"}, {"protocol", 1}, {"name", "lg" + std::to_string(index_) + "-" + std::to_string(i)}};
    if (settings_.view_changes) hello["views"] = "changes";
    send(i, request::hello, std::move(hello));
  }

  void on_closed(std::size_t i, const close_info& info) {
    auto& m = members_[i];
    if (m.open) --run_.connections_open;
    if (run_.stopping || stopped_ || failed_) return;
    if (info.http_status == 503)
      run_.refusal("http_503", where(i) + ": the server refused the WebSocket upgrade (" + describe(info) + ")");
    else
      run_.error("connection_closed", where(i) + ": " + describe(info));
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

    // States are most of the traffic: only their small fields are read, the rest is skipped.
    std::string_view type, seq, seat, over, prompt, legal;
    const bool scanned = json_scan::for_each_member(text, [&](std::string_view key, std::string_view value) {
      if (key == "type") type = value;
      else if (key == "seq") seq = value;
      else if (key == "seat") seat = value;
      else if (key == "over") over = value;
      else if (key == "prompt") prompt = value;
      else if (key == "legal") legal = value;
    });
    if (!scanned) {
      run_.error("bad_frame", where(i) + ": not a JSON object: " + std::string(text.substr(0, 200)));
      return;
    }
    if (type == R"("state")") return on_state(i, seq, seat, over, prompt, legal, text.size());
    if (type != R"("ok")" && type != R"("error")" && type != R"("kicked")") return;
    // welcome, room, chat, chat_history and whatever a later release adds are not needed here.
    const json doc = json::parse(text, nullptr, /*allow_exceptions=*/false);
    if (!doc.is_object()) {
      run_.error("bad_frame", where(i) + ": not a JSON object: " + std::string(text.substr(0, 200)));
      return;
    }
    if (type == R"("ok")") on_ok(i, doc);
    else if (type == R"("error")") on_error(i, doc);
    else run_.error("kicked", where(i) + ": " + std::string(text));
  }

  // ---- answers ------------------------------------------------------------------------------

  std::optional<pending_request> take_pending(std::size_t i, const json& doc) {
    auto& m = members_[i];
    const auto id = doc.find("id");
    if (id == doc.end() || !id->is_number_integer()) {
      run_.error("answer_without_id", where(i) + ": " + doc.dump());
      return std::nullopt;
    }
    const auto it = m.pending.find(id->get<std::int64_t>());
    if (it == m.pending.end()) {
      run_.error("answer_to_unknown_id", where(i) + ": " + doc.dump() + " (a second answer, or one after 10 s)");
      return std::nullopt;
    }
    auto p = std::move(it->second);
    m.pending.erase(it);
    return p;
  }

  void on_ok(std::size_t i, const json& doc) {
    const auto req = take_pending(i, doc);
    if (!req) return;
    auto& m = members_[i];
    switch (req->what) {
      case request::hello:
        m.hello_done = true;
        if (i == 0) {
          json create{{"type", "create_room"}, {"game", settings_.game}, {"options", settings_.options}};
          send(0, request::create_room, std::move(create));
        }
        send_joins();
        break;
      case request::create_room:
        if (!doc.contains("room") || !doc["room"].is_string()) {
          run_.error("create_room", where(i) + ": ok without a room code: " + doc.dump());
          return fail();
        }
        code_ = doc["room"].get<std::string>();
        m.in_room = true;
        send_joins();
        check_all_in();
        break;
      case request::join_room:
        m.in_room = true;
        check_all_in();
        break;
      case request::start_game:
      case request::action:
        break;  // the states that follow are what counts
    }
  }

  void on_error(std::size_t i, const json& doc) {
    const auto code = doc.value("code", std::string("?"));
    const auto message = doc.value("message", std::string());
    const auto req = doc.contains("id") ? take_pending(i, doc) : std::nullopt;
    std::string detail = where(i) + ": " + code + " \"" + message + "\"";
    if (req) detail += " answering " + req->text;
    if (is_refusal_code(code)) run_.refusal(code, detail);
    else run_.error(std::string(req ? name_of(req->what) : "unsolicited") + " " + code, detail);
    if (!req || req->what != request::action) return fail();  // the room cannot go on without it
    // A refused action changes nothing: choose again from the same state, after a breath so that a
    // persistent refusal does not spin.
    flight_.reset();
    retry_pending_ = true;
    std::weak_ptr<tinsel_room> weak = weak_from_this();
    lane_->after(std::chrono::milliseconds(100), [weak] {
      if (auto self = weak.lock()) {
        self->retry_pending_ = false;
        self->next();
      }
    });
  }

  void on_state(std::size_t i, std::string_view seq_text, std::string_view seat, std::string_view over,
                std::string_view prompt, std::string_view legal, std::size_t bytes) {
    auto& m = members_[i];
    std::int64_t seq = 0;
    const auto [end, ec] = std::from_chars(seq_text.data(), seq_text.data() + seq_text.size(), seq);
    if (ec != std::errc() || end != seq_text.data() + seq_text.size()) {
      run_.error("bad_state", where(i) + ": state without an integer seq");
      return fail();
    }
    if (seq != m.last_seq + 1)
      run_.error("seq_gap", where(i) + ": state seq " + std::to_string(seq) + " after " + std::to_string(m.last_seq));
    m.last_seq = seq;
    newest_seq_ = std::max(newest_seq_, seq);
    if (settings_.record_sizes) record_size(seq, bytes);
    last_progress_ = clock_type::now();
    if (timer_wait_since_) {
      if (run_.measuring.load(std::memory_order_relaxed))
        run_.timer_wait_ns.fetch_add(static_cast<std::uint64_t>(
            std::chrono::duration_cast<std::chrono::nanoseconds>(last_progress_ - *timer_wait_since_).count()));
      timer_wait_since_.reset();
    }

    m.seat = -1;
    std::from_chars(seat.data(), seat.data() + seat.size(), m.seat);  // null stays -1
    m.over = over == "true";
    m.prompt_seats.clear();
    std::string_view seats;
    json_scan::for_each_member(prompt, [&](std::string_view key, std::string_view value) {
      if (key == "seats") seats = value;
    });
    if (const auto parsed = json::parse(seats, nullptr, false); parsed.is_array())
      for (const auto& s : parsed)
        if (s.is_number_integer()) m.prompt_seats.push_back(s.get<int>());
    m.legal.assign(legal);

    if (flight_ && flight_->sender == i && seq > flight_->seq_at_send) finish_flight();
    next();
  }

  // --record-sizes: the mean size of the states of one seq over the room's members (each gets its
  // own view), once every member has received its one, in the window only.
  void record_size(std::int64_t seq, std::size_t bytes) {
    if (seq != size_seq_) {
      size_seq_ = seq;
      size_sum_ = 0;
      size_count_ = 0;
    }
    size_sum_ += bytes;
    if (++size_count_ == members_.size() && run_.measuring.load(std::memory_order_relaxed))
      sizes_.push_back((size_sum_ + size_count_ / 2) / size_count_);
  }

  const std::vector<std::size_t>& state_sizes() const override { return sizes_; }

  // ---- setup ------------------------------------------------------------------------------------

  void send_joins() {
    if (code_.empty()) return;
    for (std::size_t i = 1; i < members_.size(); ++i) {
      auto& m = members_[i];
      if (!m.hello_done || m.join_sent) continue;
      m.join_sent = true;
      send(i, request::join_room, json{{"type", "join_room"}, {"room", code_}, {"as", "player"}});
    }
  }

  void check_all_in() {
    if (all_in_ || !std::all_of(members_.begin(), members_.end(), [](const member& m) { return m.in_room; })) return;
    all_in_ = true;
    if (settings_.goal == room_settings::plan::join || members_.size() < 2) return signal_ready();
    start_game();
  }

  void start_game() {
    const auto sent = send(0, request::start_game, json{{"type", "start_game"}});
    flight_ = in_flight{request::start_game, 0, newest_seq_, sent};
  }

  void signal_ready() {
    if (!ready_) return;
    auto ready = std::move(ready_);
    ready_ = nullptr;
    ready();
  }

  // ---- play -------------------------------------------------------------------------------------

  void finish_flight() {
    const auto f = *flight_;
    flight_.reset();
    if (f.what == request::start_game) return signal_ready();
    const auto took = clock_type::now() - f.sent;
    run_.moves_total.fetch_add(1, std::memory_order_relaxed);
    if (run_.measuring.load(std::memory_order_relaxed)) {
      run_.moves.fetch_add(1, std::memory_order_relaxed);
      samples_.push_back(static_cast<std::uint64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(took).count()));
    }
  }

  // Sends the next command once nothing is in flight and every member has the newest state.
  void next() {
    if (failed_ || stopped_ || flight_ || retry_pending_ || newest_seq_ == 0) return;
    if (settings_.goal != room_settings::plan::play) return;
    for (const auto& m : members_)
      if (m.last_seq != newest_seq_) return;

    if (members_[0].over) {
      if (over_counted_ != newest_seq_) {
        over_counted_ = newest_seq_;
        if (run_.measuring.load(std::memory_order_relaxed)) run_.games.fetch_add(1, std::memory_order_relaxed);
      }
      return start_game();
    }

    // The seats that may act now, each with the concrete entries of its `legal`.
    std::vector<std::pair<std::size_t, std::vector<json>>> candidates;
    for (std::size_t i = 0; i < members_.size(); ++i) {
      const auto& m = members_[i];
      if (m.seat < 0 || std::find(m.prompt_seats.begin(), m.prompt_seats.end(), m.seat) == m.prompt_seats.end())
        continue;
      std::vector<json> concrete;
      auto legal = json::parse(m.legal, nullptr, false);
      if (legal.is_array())
        for (auto& entry : legal)
          if (entry.is_object() && !entry.contains("domain")) concrete.push_back(std::move(entry));
      if (!concrete.empty()) candidates.emplace_back(i, std::move(concrete));
    }
    // Nobody can answer (Unterm Baum's MEMORIZE): the server's timer sends the next state.
    if (candidates.empty()) {
      timer_wait_since_ = clock_type::now();
      return;
    }
    auto& [who, entries] = candidates[std::uniform_int_distribution<std::size_t>(0, candidates.size() - 1)(rng_)];
    const auto& entry = entries[std::uniform_int_distribution<std::size_t>(0, entries.size() - 1)(rng_)];
    const auto sent = send(who, request::action, json{{"type", "action"}, {"action", entry}});
    flight_ = in_flight{request::action, who, newest_seq_, sent};
  }

  clock_type::time_point send(std::size_t i, request what, json msg) {
    auto& m = members_[i];
    const auto id = ++next_id_;
    msg["id"] = id;
    auto text = msg.dump();
    const auto now = clock_type::now();
    last_progress_ = now;  // a stall is 10 s without a state after the last command too
    m.pending.emplace(id, pending_request{what, now, text});
    m.conn->send(std::move(text));
    return now;
  }

  void fail() {
    if (failed_) return;
    failed_ = true;
    for (auto& m : members_)
      if (m.conn) m.conn->close();
    signal_ready();  // the run goes on without this room; its error is counted
  }

  // Once a second: requests unanswered for 10 s, and a room that stopped moving, are errors.
  void watch() {
    if (stopped_ || failed_ || run_.stopping) return;
    const auto now = clock_type::now();
    for (std::size_t i = 0; i < members_.size(); ++i) {
      auto& pending = members_[i].pending;
      for (auto it = pending.begin(); it != pending.end();) {
        if (now - it->second.sent < answer_deadline) {
          ++it;
          continue;
        }
        run_.error("unanswered " + std::string(name_of(it->second.what)),
                   where(i) + ": no ok or error within 10 s for " + it->second.text);
        it = pending.erase(it);
      }
    }
    // While playing, a state is always due (timers are off, so one of ours caused it); when only
    // starting a game, until its first state has come.
    const bool state_due = settings_.goal == room_settings::plan::play || flight_.has_value();
    if (all_in_ && members_.size() >= 2 && state_due && now - last_progress_ > answer_deadline) {
      std::string waiting = flight_ ? "the answer to " + std::string(name_of(flight_->what)) + " of member " +
                                          std::to_string(flight_->sender)
                                    : "a state nobody asked for (no seat could act)";
      run_.error("stalled", where(0) + ": no state for 10 s while waiting for " + waiting);
      return fail();
    }
    std::weak_ptr<tinsel_room> weak = weak_from_this();
    lane_->after(std::chrono::seconds(1), [weak] {
      if (auto self = weak.lock()) self->watch();
    });
  }

  int index_;
  std::shared_ptr<lane> lane_;
  const room_settings& settings_;
  run_state& run_;
  std::mt19937_64 rng_;
  std::function<void()> ready_;
  std::vector<member> members_;
  std::string code_;
  std::int64_t next_id_ = 0;
  std::int64_t newest_seq_ = 0;
  std::int64_t over_counted_ = -1;
  std::optional<in_flight> flight_;
  std::optional<clock_type::time_point> timer_wait_since_;
  clock_type::time_point last_progress_;
  std::vector<std::uint64_t> samples_;
  std::vector<std::size_t> sizes_;
  std::int64_t size_seq_ = 0;
  std::size_t size_sum_ = 0;
  std::size_t size_count_ = 0;
  bool all_in_ = false;
  bool retry_pending_ = false;
  bool stopped_ = false;
  bool failed_ = false;
};

}  // namespace

std::shared_ptr<room> make_tinsel_room(int index, std::shared_ptr<lane> on, const room_settings& settings,
                                       run_state& run, std::uint64_t seed) {
  return std::make_shared<tinsel_room>(index, std::move(on), settings, run, seed);
}

}  // namespace tinsel_loadgen
