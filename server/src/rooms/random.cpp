#include "rooms/random.hpp"

#include <sys/random.h>

#include <cerrno>
#include <stdexcept>
#include <string_view>

#include "tinsel/protocol/limits.hpp"

namespace tinsel::server {

namespace {
void fill(void* buf, std::size_t n) {
  auto* p = static_cast<unsigned char*>(buf);
  while (n > 0) {
    const ssize_t got = ::getrandom(p, n, 0);
    if (got < 0) {
      if (errno == EINTR) continue;
      throw std::runtime_error("getrandom failed");
    }
    p += got;
    n -= static_cast<std::size_t>(got);
  }
}
}  // namespace

std::uint64_t secure_u64() {
  std::uint64_t v;
  fill(&v, sizeof v);
  return v;
}

std::string secure_hex(std::size_t bytes) {
  static constexpr char digits[] = "0123456789abcdef";
  std::string raw(bytes, '\0');
  fill(raw.data(), bytes);
  std::string out;
  out.reserve(bytes * 2);
  for (unsigned char c : raw) {
    out.push_back(digits[c >> 4]);
    out.push_back(digits[c & 15]);
  }
  return out;
}

std::string new_room_code() {
  constexpr std::string_view alphabet = protocol::room_code_alphabet;
  constexpr auto n = static_cast<unsigned>(alphabet.size());
  std::string code;
  while (code.size() < protocol::room_code_length) {
    unsigned char b;
    fill(&b, 1);
    if (b >= 256 - (256 % n)) continue;  // rejection keeps every symbol equally likely
    code.push_back(alphabet[b % n]);
  }
  return code;
}

}  // namespace tinsel::server
