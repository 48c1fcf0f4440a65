// A stand-in for libFuzzer's main in builds without it (g++, no TINSEL_FUZZ): replays every file of
// the given corpus directories (or single files) through the harness once, so the normal test suite
// runs each fuzz harness, with its invariant checks, over its checked-in seed corpus. With
// `--mutations N` it then runs N inputs made from the seeds by libFuzzer-like mutations (bit flips,
// random bytes, insertions, deletions, repeats, splices of two seeds, truncations) drawn from a
// fixed pseudo-random sequence: a small, deterministic fuzzing run in every build, with no clang.
//   fuzz_replay_protocol tests/fuzz/corpus/protocol
//   fuzz_replay_protocol --mutations 50000 tests/fuzz/corpus/protocol
// Exits non-zero when no input was found (a moved corpus must not pass silently); a violated
// invariant aborts inside the harness, as it does under libFuzzer. An input that aborts is written
// to fuzz-replay-crash (in the working directory) first, for `fuzz_replay_<target> fuzz-replay-crash`.
#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size);

namespace {

using bytes = std::vector<std::uint8_t>;

bytes read_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  const std::vector<char> raw((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  return bytes(raw.begin(), raw.end());
}

// The mutated input being run, written out by the SIGABRT handler (only async-signal-safe calls).
const bytes* current = nullptr;

void save_current(int) {
  if (current) {
    const int fd = ::open("fuzz-replay-crash", O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd >= 0) {
      if (!current->empty()) {
        [[maybe_unused]] auto n = ::write(fd, current->data(), current->size());
      }
      ::close(fd);
      const char msg[] = "the mutated input that failed is in ./fuzz-replay-crash\n";
      [[maybe_unused]] auto n = ::write(2, msg, sizeof msg - 1);
    }
  }
  ::signal(SIGABRT, SIG_DFL);
  ::raise(SIGABRT);
}

void run(const bytes& input) {
  // A copy in a buffer of exactly the input's size, as libFuzzer passes it, so ASan catches reads
  // past the end.
  bytes data(input);
  LLVMFuzzerTestOneInput(data.empty() ? nullptr : data.data(), data.size());
}

// One input made from the seeds: a few stacked mutations of one seed, now and then spliced with
// another.
bytes mutate(const std::vector<bytes>& seeds, std::mt19937_64& rng) {
  auto below = [&](std::size_t n) { return n == 0 ? std::size_t{0} : static_cast<std::size_t>(rng() % n); };
  bytes b = seeds[below(seeds.size())];
  for (auto steps = 1 + below(4); steps > 0; --steps) {
    switch (below(7)) {
      case 0:  // flip a bit
        if (!b.empty()) b[below(b.size())] ^= static_cast<std::uint8_t>(1u << below(8));
        break;
      case 1:  // a random byte, often a boundary value
        if (!b.empty()) {
          static constexpr std::uint8_t special[] = {0, 1, 0x7f, 0x80, 0xff, '"', '\\', '{', '}', '[', ']', ',', ':', '-', '0', '9'};
          b[below(b.size())] = below(2) ? special[below(sizeof special)] : static_cast<std::uint8_t>(rng());
        }
        break;
      case 2: {  // insert random bytes
        const auto at = below(b.size() + 1);
        bytes extra(1 + below(8));
        for (auto& x : extra) x = static_cast<std::uint8_t>(rng());
        b.insert(b.begin() + static_cast<std::ptrdiff_t>(at), extra.begin(), extra.end());
        break;
      }
      case 3:  // delete a range
        if (!b.empty()) {
          const auto at = below(b.size());
          const auto len = 1 + below(std::min<std::size_t>(16, b.size() - at));
          b.erase(b.begin() + static_cast<std::ptrdiff_t>(at), b.begin() + static_cast<std::ptrdiff_t>(at + len));
        }
        break;
      case 4:  // repeat a range
        if (!b.empty() && b.size() < 4096) {
          const auto at = below(b.size());
          const bytes part(b.begin() + static_cast<std::ptrdiff_t>(at),
                           b.begin() + static_cast<std::ptrdiff_t>(at + 1 + below(std::min<std::size_t>(32, b.size() - at))));
          for (auto times = 1 + below(4); times > 0; --times)
            b.insert(b.begin() + static_cast<std::ptrdiff_t>(at), part.begin(), part.end());
        }
        break;
      case 5: {  // splice: the front of this input, the back of another seed
        const bytes& other = seeds[below(seeds.size())];
        const auto keep = below(b.size() + 1), from = below(other.size() + 1);
        b.resize(keep);
        b.insert(b.end(), other.begin() + static_cast<std::ptrdiff_t>(from), other.end());
        break;
      }
      default:  // truncate
        b.resize(below(b.size() + 1));
        break;
    }
  }
  return b;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::filesystem::path> files;
  unsigned long mutations = 0;
  for (int i = 1; i < argc; ++i) {
    if (std::string(argv[i]) == "--mutations" && i + 1 < argc) {
      mutations = std::stoul(argv[++i]);
      continue;
    }
    const std::filesystem::path arg(argv[i]);
    if (std::filesystem::is_directory(arg)) {
      for (const auto& e : std::filesystem::directory_iterator(arg))
        if (e.is_regular_file()) files.push_back(e.path());
    } else if (std::filesystem::is_regular_file(arg)) {
      files.push_back(arg);
    }
  }
  std::sort(files.begin(), files.end());  // a stable order, so a failure is reproducible
  if (files.empty()) {
    std::fprintf(stderr, "no corpus files found\n");
    return 1;
  }
  std::vector<bytes> seeds;
  for (const auto& f : files) {
    std::fprintf(stderr, "replaying %s\n", f.string().c_str());
    seeds.push_back(read_file(f));
    run(seeds.back());
  }
  std::printf("replayed %zu inputs\n", files.size());
  if (mutations == 0) return 0;
  ::signal(SIGABRT, save_current);
  std::mt19937_64 rng(20261130);  // fixed: the same inputs in every run
  for (unsigned long i = 0; i < mutations; ++i) {
    const bytes input = mutate(seeds, rng);
    current = &input;
    run(input);
  }
  current = nullptr;
  std::printf("ran %lu mutated inputs\n", mutations);
  return 0;
}
