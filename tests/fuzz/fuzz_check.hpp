#pragma once
// Invariant checks for the fuzz harnesses: a violation prints what broke and aborts, which libFuzzer
// reports as a crash and saves the input (and which fails the replay test in a normal build).
#include <cstdio>
#include <cstdlib>

#define FUZZ_CHECK(cond, what)                                                                  \
  do {                                                                                          \
    if (!(cond)) {                                                                              \
      std::fprintf(stderr, "fuzz invariant violated at %s:%d: %s (%s)\n", __FILE__, __LINE__, \
                   what, #cond);                                                                \
      std::abort();                                                                             \
    }                                                                                           \
  } while (0)
