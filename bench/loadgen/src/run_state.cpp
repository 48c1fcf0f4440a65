#include "run_state.hpp"

#include <algorithm>
#include <iostream>
#include <sstream>
#include <vector>

namespace tinsel_loadgen {

bool is_refusal_code(const std::string& code) {
  return code == "rate_limited" || code == "too_many_rooms" || code == "too_many_attempts" ||
         code == "too_many_identities" || code == "too_many_spectators";
}

void run_state::tally(std::map<std::string, std::uint64_t>& into, const std::string& kind, const std::string& detail,
                      const char* what) {
  std::lock_guard lock(mutex_);
  ++into[kind];
  // The first few in full, so a failing run says what went wrong without drowning the output.
  if (printed_ < 20) {
    ++printed_;
    std::cerr << "tinsel-loadgen: " << what << ": " << kind << ": " << detail << "\n";
    if (printed_ == 20) std::cerr << "tinsel-loadgen: (further errors and refusals are only counted)\n";
  }
}

std::uint64_t run_state::errors() const {
  std::lock_guard lock(mutex_);
  std::uint64_t n = 0;
  for (const auto& [kind, count] : errors_) n += count;
  return n;
}

std::uint64_t run_state::refusals() const {
  std::lock_guard lock(mutex_);
  std::uint64_t n = 0;
  for (const auto& [kind, count] : refusals_) n += count;
  return n;
}

std::string run_state::breakdown() const {
  std::lock_guard lock(mutex_);
  std::ostringstream out;
  for (const auto* m : {&errors_, &refusals_}) {
    std::vector<std::pair<std::string, std::uint64_t>> rows(m->begin(), m->end());
    std::sort(rows.begin(), rows.end(), [](const auto& a, const auto& b) { return a.second > b.second; });
    for (const auto& [kind, count] : rows)
      out << "    " << (m == &errors_ ? "error    " : "refusal  ") << kind << ": " << count << "\n";
  }
  return out.str();
}

}  // namespace tinsel_loadgen
