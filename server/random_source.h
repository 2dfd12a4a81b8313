#pragma once

#include <cstdint>
#include <random>

namespace kv {

// The server's source of random numbers for the commands that pick at random (SPOP, SRANDMEMBER,
// ...): splitmix64, seeded from the OS. One per server, in ServerState; no globals.
class RandomSource {
 public:
  RandomSource() {
    std::random_device os;
    state_ = (uint64_t{os()} << 32) ^ os();
  }
  explicit RandomSource(uint64_t seed) : state_(seed) {}

  uint64_t Next() {
    uint64_t z = (state_ += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }
  uint64_t operator()() { return Next(); }

 private:
  uint64_t state_;
};

}  // namespace kv
