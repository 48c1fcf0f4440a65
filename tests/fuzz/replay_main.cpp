// A stand-in for libFuzzer's main in builds without it (g++, no TINSEL_FUZZ): replays every file of
// the given corpus directories (or single files) through the harness once, so the normal test suite
// runs each fuzz harness, with its invariant checks, over its checked-in seed corpus.
//   fuzz_replay_protocol tests/fuzz/corpus/protocol
// Exits non-zero when no input was found (a moved corpus must not pass silently); a violated
// invariant aborts inside the harness, as it does under libFuzzer.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size);

namespace {

void run_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  const std::vector<char> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  // A copy in a buffer of exactly the input's size, as libFuzzer passes it, so ASan catches reads
  // past the end.
  std::vector<std::uint8_t> data(bytes.begin(), bytes.end());
  LLVMFuzzerTestOneInput(data.empty() ? nullptr : data.data(), data.size());
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::filesystem::path> files;
  for (int i = 1; i < argc; ++i) {
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
  for (const auto& f : files) {
    std::fprintf(stderr, "replaying %s\n", f.string().c_str());
    run_file(f);
  }
  std::printf("replayed %zu inputs\n", files.size());
  return 0;
}
