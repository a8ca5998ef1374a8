// gsched: a small deterministic PRNG (SplitMix64 seeding + xoshiro256**).
//
// std:: distributions are not specified bit-exactly across standard libraries, so every
// random draw in the model goes through this class: the same seed gives the same bytes
// of output on every platform (every run is deterministic for a given config, workload and seed).
#pragma once
#include <cstdint>

namespace gs {

class Rng {
 public:
  explicit Rng(uint64_t seed = 1) { reseed(seed); }

  void reseed(uint64_t seed) {
    uint64_t x = seed;
    for (auto& s : s_) s = splitmix(x);
  }

  uint64_t next() {
    const uint64_t result = rotl(s_[1] * 5, 7) * 9;
    const uint64_t t = s_[1] << 17;
    s_[2] ^= s_[0];
    s_[3] ^= s_[1];
    s_[1] ^= s_[2];
    s_[0] ^= s_[3];
    s_[2] ^= t;
    s_[3] = rotl(s_[3], 45);
    return result;
  }

  /// Uniform integer in [0, n); n == 0 returns 0. (Multiply-shift, tiny bias is irrelevant here.)
  uint32_t below(uint32_t n) {
    return n == 0 ? 0 : static_cast<uint32_t>(((next() >> 32) * static_cast<uint64_t>(n)) >> 32);
  }

  /// True with probability permille/1000.
  bool chance_permille(uint32_t permille) { return below(1000) < permille; }

  /// Derive an independent stream (e.g. per SM, per CTA) from this seed and a salt.
  static uint64_t mix(uint64_t seed, uint64_t salt) {
    uint64_t x = seed ^ (salt * 0x9E3779B97F4A7C15ULL);
    return splitmix(x);
  }

 private:
  static uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
  static uint64_t splitmix(uint64_t& x) {
    uint64_t z = (x += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
  }
  uint64_t s_[4];
};

}  // namespace gs
