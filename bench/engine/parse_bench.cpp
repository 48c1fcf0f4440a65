// tinsel-parse-bench: what reading a client frame costs (bench/README.md, "tinsel-parse-bench").
// For a few typical frames and one of the full default frame limit, the time per frame of
// nlohmann's json::parse (what the server used before issue 30), of the bounded reader that
// replaced it (protocol/src/bounded_json.cpp: the same parser, with a depth limit and a check for
// duplicate keys), and of the whole parse_client_message. One core, no I/O; CPU time of the thread.
//
//   tinsel-parse-bench [--seconds S]   (default 1 per frame and reader, in 25 rounds; the fastest counts)
#include <algorithm>
#include <ctime>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "tinsel/protocol/bounded_json.hpp"
#include "tinsel/protocol/messages.hpp"

namespace {

// This thread's CPU time in nanoseconds: time while other processes run does not count.
double cpu_ns() {
  timespec t{};
  ::clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) * 1e9 + static_cast<double>(t.tv_nsec);
}

template <class F>
double ns_per_call(double seconds, F&& f) {
  std::size_t n = 0;
  const double start = cpu_ns();
  double now = start;
  while (now - start < seconds * 1e9) {
    for (int i = 0; i < 64; ++i) f();
    n += 64;
    now = cpu_ns();
  }
  return (now - start) / static_cast<double>(n);
}

volatile std::size_t sink = 0;

}  // namespace

int main(int argc, char** argv) {
  double seconds = 1;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--seconds") == 0 && i + 1 < argc) {
      seconds = std::stod(argv[++i]);
    } else {
      std::fprintf(stderr, "usage: tinsel-parse-bench [--seconds S]\n");
      return 2;
    }
  }
  std::string big = R"({"type":"action","id":17,"action":{"kind":"rearrange","moves":[)";
  while (big.size() < 8000) big += R"({"from":{"row":1,"slot":2},"to":{"row":3,"slot":4}},)";
  big.back() = ']';
  big += "}}";
  const std::vector<std::pair<const char*, std::string>> frames = {
      {"hello", R"({"type":"hello","protocol":1,"name":"Oma Inge","token":"9c1e5b7a0d2f4e6c8b1a3d5f7e9c0b2a","id":1})"},
      {"action", R"({"type":"action","action":{"kind":"move","from":{"tree":0},"to":{"seat":0,"row":0,"slot":0}},"id":6})"},
      {"create_room", R"({"type":"create_room","game":"unterm_baum","options":{"maxPlayers":4,"assignSeconds":"off","familySize":4},"id":2})"},
      {"chat 500", R"({"type":"chat","text":")" + std::string(500, 'x') + R"(","id":5})"},
      {"8 KB action", big},
  };
  const tinsel::protocol::limits lim{};
  // The three are measured in turns, in many short rounds, and each keeps its fastest round: on a
  // shared machine the other processes only ever add time.
  constexpr int rounds = 25;
  std::printf("%-12s %7s %14s %14s %22s\n", "frame", "bytes", "json::parse", "bounded", "parse_client_message");
  for (const auto& [name, text] : frames) {
    double plain = 1e300, bounded = 1e300, full = 1e300;
    for (int r = 0; r < rounds; ++r) {
      plain = std::min(plain, ns_per_call(seconds / rounds, [&] {
        auto j = nlohmann::json::parse(text.begin(), text.end(), nullptr, false);
        sink = sink + j.size();
      }));
      bounded = std::min(bounded, ns_per_call(seconds / rounds, [&] {
        auto b = tinsel::protocol::parse_bounded_json(text, lim.max_depth);
        sink = sink + b.value.size();
      }));
      full = std::min(full, ns_per_call(seconds / rounds, [&] {
        auto m = tinsel::protocol::parse_client_message(text, lim);
        sink = sink + (m.ok ? 1 : 0);
      }));
    }
    std::printf("%-12s %7zu %11.0f ns %11.0f ns %19.0f ns\n", name, text.size(), plain, bounded, full);
  }
  return 0;
}
