// gsched: memory system micro-benchmark (hidden: run with `gs_unit_tests "[bench]"`).
// Prints simulated cycles and accesses per second of host time for a 16-SM GPU under three
// loads: idle, an L1-friendly load, and DRAM-saturating streams.
#include <catch2/catch.hpp>

#include <chrono>
#include <cstdio>

#include "common/rng.hpp"
#include "test_mem_common.hpp"

using namespace gs;
using gs::memtest::make_config;

namespace {

struct BenchResult {
  double cycles_per_sec, accesses_per_sec;
  uint64_t accesses;
};

/// `pattern` 0: nothing; 1: each SM loads from a 12 KB working set (mostly L1 hits) every
/// other cycle; 2: each SM streams distinct lines every cycle (DRAM bound).
BenchResult bench(int pattern, uint64_t cycles) {
  const GpuConfig cfg = make_config(16, 6);
  CounterBank counters(16, 1);
  MemorySystem mem(cfg, counters);
  Rng rng(7);
  std::vector<uint64_t> next(16, 0), done;
  uint64_t accesses = 0;
  const auto t0 = std::chrono::steady_clock::now();
  for (uint64_t c = 0; c < cycles; ++c) {
    if (pattern == 1 && (c & 1) == 0) {
      for (uint32_t s = 0; s < 16; ++s) {
        const uint64_t line = (uint64_t(s) << 24) + (rng.next() % 96) * 128;
        accesses += mem.access(s, MemAccess{line, 0, false, c});
      }
    } else if (pattern == 2) {
      for (uint32_t s = 0; s < 16; ++s)
        if (mem.access(s, MemAccess{(uint64_t(s) << 28) + next[s] * 128, 0, false, c})) {
          ++next[s];
          ++accesses;
        }
    }
    mem.tick(c);
    for (uint32_t s = 0; s < 16; ++s) mem.take_completions(s, done);
  }
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return {double(cycles) / secs, double(accesses) / secs, accesses};
}

}  // namespace

TEST_CASE("memory system micro-benchmark", "[.][bench]") {
  const char* names[] = {"idle", "L1-resident loads", "DRAM streams"};
  for (int p = 0; p < 3; ++p) {
    const BenchResult r = bench(p, 400000);
    std::printf("[mem bench] %-18s %12.0f cycles/s %12.0f accesses/s (%llu accesses)\n", names[p], r.cycles_per_sec,
                r.accesses_per_sec, (unsigned long long)r.accesses);
    CHECK(r.cycles_per_sec > 0);
  }
}
