// tinsel-bot: connects to a Tinsel server, creates or joins a room and plays to the end.
// See clients/bot/README.md and `tinsel-bot --help`.
#include <iostream>
#include <random>

#include "cli.hpp"
#include "player.hpp"
#include "ws.hpp"

int main(int argc, char** argv) {
  using namespace tinsel_bot;
  auto parsed = parse_args(std::vector<std::string>(argv, argv + argc));
  if (!parsed.s) {
    (parsed.exit_code == 0 ? std::cout : std::cerr) << parsed.output;
    return parsed.exit_code;
  }
  settings s = std::move(*parsed.s);
  const auto url = parse_ws_url(s.url);
  if (!url) {
    std::cerr << "tinsel-bot: --url must look like ws://HOST:PORT/ws (got '" << s.url << "')\n";
    return 2;
  }
  if (!s.seed_given) s.seed = (std::uint64_t{std::random_device{}()} << 32) ^ std::random_device{}();

  event_loop loop;
  player bot(loop, std::move(s), *url);
  bot.start();
  loop.run();
  return bot.exit_code();
}
