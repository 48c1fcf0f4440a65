#include "tinsel/engine/dice.hpp"

#include <string>

namespace tinsel::engine {

namespace {
std::uint64_t splitmix64(std::uint64_t& x) {
  std::uint64_t z = (x += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}
std::uint64_t rotl(std::uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
}  // namespace

seeded_dice::seeded_dice(std::uint64_t seed) {
  for (auto& s : s_) s = splitmix64(seed);
}

std::uint64_t seeded_dice::next() {
  const std::uint64_t result = rotl(s_[1] * 5, 7) * 9;
  const std::uint64_t t = s_[1] << 17;
  s_[2] ^= s_[0];
  s_[3] ^= s_[1];
  s_[1] ^= s_[2];
  s_[0] ^= s_[3];
  s_[2] ^= t;
  s_[3] = rotl(s_[3], 45);
  return result;
}

std::uint32_t seeded_dice::roll(std::uint32_t sides) {
  if (sides <= 1) {
    ++draws_;
    return 0;
  }
  // Rejection sampling: uniform and identical on every platform.
  const std::uint64_t limit = UINT64_MAX - (UINT64_MAX % sides);
  std::uint64_t v;
  do {
    v = next();
  } while (v >= limit);
  ++draws_;
  return static_cast<std::uint32_t>(v % sides);
}

std::uint32_t scripted_dice::roll(std::uint32_t sides) {
  if (values_.empty()) throw std::logic_error("scripted_dice: no scripted value left");
  const auto v = values_.front();
  if (v >= sides)
    throw std::logic_error("scripted_dice: value " + std::to_string(v) + " out of range for " +
                           std::to_string(sides) + " sides");
  values_.pop_front();
  ++draws_;
  return v;
}

}  // namespace tinsel::engine
