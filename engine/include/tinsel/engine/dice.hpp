#pragma once
// Randomness enters the engine only through `dice`. The server seeds one per room from a CSPRNG;
// tests script it. Given the seed and the ordered command log, a game replays exactly, so the
// generator is our own (xoshiro256**) rather than an implementation-defined std distribution.
#include <cstdint>
#include <deque>
#include <stdexcept>

namespace tinsel::engine {

class dice {
 public:
  virtual ~dice() = default;
  // A uniform integer in [0, sides). `sides` >= 1.
  virtual std::uint32_t roll(std::uint32_t sides) = 0;
  // How many values have been drawn so far (lets tests check "the PRNG was not advanced").
  virtual std::uint64_t draws() const = 0;
};

class seeded_dice final : public dice {
 public:
  explicit seeded_dice(std::uint64_t seed);
  std::uint32_t roll(std::uint32_t sides) override;
  std::uint64_t draws() const override { return draws_; }

 private:
  std::uint64_t next();
  std::uint64_t s_[4];
  std::uint64_t draws_ = 0;
};

// Returns the queued values in order (each must be < sides). Running dry or a value out of range
// is a bug in the test, so it throws std::logic_error.
class scripted_dice final : public dice {
 public:
  scripted_dice() = default;
  scripted_dice(std::initializer_list<std::uint32_t> values) : values_(values) {}
  void push(std::uint32_t value) { values_.push_back(value); }
  std::size_t remaining() const { return values_.size(); }
  std::uint32_t roll(std::uint32_t sides) override;
  std::uint64_t draws() const override { return draws_; }

 private:
  std::deque<std::uint32_t> values_;
  std::uint64_t draws_ = 0;
};

}  // namespace tinsel::engine
