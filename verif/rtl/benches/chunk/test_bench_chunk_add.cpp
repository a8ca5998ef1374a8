// gsched block bench: rtl/lib/gs_chunk_add.sv (Verilated with W = 20, N = 3, CH = 8, SC = 3: a
// top chunk padded above W) against its golden twin chunk_add(), every cycle, with the sums and
// carries fed back as its callers register them; and against plain addition: whenever no carry
// is pending (at the latest SC - 1 cycles after the last addend), a sum is the exact sum of its
// addends mod 2**W. Each
// GS_MUT_CADD_* mutant runs the same stimulus and must differ (docs/rtl/mutations.md).
#include <catch2/catch.hpp>

#include <array>
#include <memory>
#include <string>

#include <verilated.h>

#include "Vbench_gs_chunk_add.h"
#include "gs_chunk_add_mutants.hpp"  // generated: GS_BENCH_MUTANTS(X), one model per GS_MUT_CADD_*
#include "sched/golden/gs_chunk_add.hpp"
#include "common/rng.hpp"

namespace {

constexpr uint32_t kW = 20, kN = 3, kCh = 8, kSc = 3;  // -G... in verif/rtl/benches/CMakeLists.txt
constexpr uint64_t kMask = (uint64_t{1} << kW) - 1;

/// Random addends into random lanes (many near the top of a chunk or of W, so carries ripple
/// through several chunks and wrap, and gaps of SC - 1 idle cycles in which they settle).
/// "" or the first difference.
template <class V>
std::string random_run(uint32_t seed, int cycles) {
  auto ctx = std::make_unique<VerilatedContext>();
  V d(ctx.get(), "dut");
  gs::Rng r(seed);
  std::array<uint64_t, kN> sum{}, exact{};
  std::array<uint32_t, kN> cy{};
  int idle = 0;
  for (int i = 0; i < cycles; ++i) {
    const bool add = idle > 0 ? false : !r.chance_permille(150);
    if (idle > 0) --idle;
    else if (r.chance_permille(40)) idle = kSc - 1;
    const uint64_t a = r.chance_permille(300)   ? kMask - r.below(16)
                       : r.chance_permille(300) ? 0xFFu
                                                : r.below(1u << kW);
    const uint32_t lane = r.below(kN);
    uint32_t sel = add ? 1u << lane : 0;
    if (add && r.chance_permille(50)) sel |= 1u << r.below(kN);  // two lanes at once: each reads its own bit
    uint64_t sums_i = 0;
    uint32_t cy_i = 0;
    for (uint32_t t = 0; t < kN; ++t) {
      sums_i |= sum[t] << (t * kW);
      cy_i |= cy[t] << (t * (kSc - 1));
    }
    d.sums_i = sums_i;
    d.add_i = uint32_t(a);
    d.sel_i = sel;
    d.cy_i = cy_i;
    d.eval();
    for (uint32_t t = 0; t < kN; ++t) {
      uint32_t cy_out = 0;
      const uint64_t want = gs::golden::chunk_add(sum[t], sel >> t & 1u ? a : 0, cy[t], kSc, kCh, kW, cy_out);
      const uint64_t got = uint64_t(d.sums_o) >> (t * kW) & kMask;
      const uint32_t got_cy = uint32_t(d.cy_o) >> (t * (kSc - 1)) & ((1u << (kSc - 1)) - 1);
      if (got != want || got_cy != cy_out)
        return "cycle " + std::to_string(i) + " lane " + std::to_string(t) + ": sum " + std::to_string(got) +
               " carries " + std::to_string(got_cy) + ", golden " + std::to_string(want) + " " + std::to_string(cy_out);
      if (sel >> t & 1u) exact[t] = (exact[t] + a) & kMask;
      sum[t] = want;
      cy[t] = cy_out;
      if (cy[t] == 0 && sum[t] != exact[t])  // no carry pending: the sum must be exact
        return "cycle " + std::to_string(i) + " lane " + std::to_string(t) + ": settled sum " + std::to_string(sum[t]) +
               ", exact " + std::to_string(exact[t]);
    }
  }
  return "";
}

}  // namespace

TEST_CASE("gs_chunk_add: every cycle against chunk_add(), and exact once the carries settle", "[rtl][bench]") {
  CHECK(random_run<Vbench_gs_chunk_add>(5, 20000) == "");
}

TEST_CASE("chunk_add: the carries settle into the exact sum", "[golden]") {
  // 0xFFFFF + 1 at W = 20, CH = 8: chunk 0 carries, then chunk 1, then the top chunk wraps
  uint32_t cy = 0;
  uint64_t s = gs::golden::chunk_add(0xFFFFF, 1, 0, kSc, kCh, kW, cy);
  CHECK(s == 0xFFF00);
  CHECK(cy == 1);
  s = gs::golden::chunk_add(s, 0, cy, kSc, kCh, kW, cy);
  CHECK(s == 0xF0000);
  CHECK(cy == 2);
  s = gs::golden::chunk_add(s, 0, cy, kSc, kCh, kW, cy);
  CHECK(s == 0);  // (0xFFFFF + 1) mod 2**20
  CHECK(cy == 0);
}

#define GS_CADD_MUTANT_TEST(define, model)                                           \
  TEST_CASE("gs_chunk_add mutant " #define " is caught", "[rtl][bench][mutation]") { \
    const std::string diff = random_run<model>(5, 20000);                            \
    INFO(diff);                                                                      \
    CHECK(diff != "");                                                               \
    WARN(#define " caught: " << diff);                                               \
  }
GS_BENCH_MUTANTS(GS_CADD_MUTANT_TEST)
