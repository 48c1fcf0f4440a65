#pragma once
// A small expected-style result for rule checks: the engine never throws on a player's input.
#include <string>
#include <utility>
#include <variant>

namespace tinsel::engine {

// A rejected command or option. `code` is stable and documented in docs/protocol.md;
// `message` is for humans and may change.
struct rule_error {
  std::string code;
  std::string message;
};

template <class T>
class outcome {
 public:
  outcome(T value) : v_(std::move(value)) {}              // NOLINT: implicit on purpose
  outcome(rule_error error) : v_(std::move(error)) {}     // NOLINT: implicit on purpose

  bool ok() const { return v_.index() == 0; }
  explicit operator bool() const { return ok(); }
  T& value() { return std::get<0>(v_); }
  const T& value() const { return std::get<0>(v_); }
  const rule_error& error() const { return std::get<1>(v_); }

 private:
  std::variant<T, rule_error> v_;
};

inline rule_error make_error(std::string code, std::string message) {
  return rule_error{std::move(code), std::move(message)};
}

}  // namespace tinsel::engine
