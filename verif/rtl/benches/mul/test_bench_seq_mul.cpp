// gsched block bench: rtl/policy/gs_seq_mul.sv, the policies' sequential multiplier, against
// its golden twin SeqMul (cmodel/sched/golden/gs_seq_mul.hpp) every cycle (busy_o, prod_o and
// every register through state_o), and every product that runs to its end against a * b read
// straight. Two models: narrow widths (-GAW=7 -GBW=5, where random operands hit the corners:
// zero, all ones, a single bit) with the GS_MUT_SEQ_MUL_* mutants, and the widest of
// gs_policy_srtf's three (adaptive_threshold x rem: AW SaThrW = 12, BW SrtfPredW = 48). Starts come at random, also while a
// product runs (it is abandoned). docs/rtl/gs_seq_mul.md.
#include <catch2/catch.hpp>

#include <cstdint>
#include <string>

#include "Vbench_gs_seq_mul.h"
#include "Vbench_gs_seq_mul_thr.h"
#include "bench_harness.hpp"
#include "seq_unit_bench.hpp"
#include "common/rng.hpp"
#include "gs_seq_mul_mutants.hpp"  // generated: GS_BENCH_MUTANTS(X), one model per GS_MUT_SEQ_MUL_*
#include "sched/golden/gs_seq_mul.hpp"

namespace {

using gs::bench::Bench;
using gs::bench::get_bits;
using gs::golden::width_mask64;

/// An operand of `w` bits that reaches the corners.
uint64_t operand(gs::Rng& r, uint32_t w) {
  switch (r.below(6)) {
    case 0: return 0;
    case 1: return width_mask64(w);
    case 2: return uint64_t(1) << r.below(w);  // one bit
    default: return r.next() & width_mask64(w);
  }
}

/// The multiplier's pieces for random_starts() (seq_unit_bench.hpp): "" or the first difference
/// (registers, outputs, or a finished product against a * b).
template <class V, uint32_t AW, uint32_t BW>
struct MulUnit {
  using Twin = gs::golden::SeqMul<AW, BW>;
  static constexpr uint32_t PW = AW + BW;
  void draw(gs::Rng& r, uint64_t& a, uint64_t& m) {
    a = operand(r, AW);
    m = operand(r, BW);
  }
  void drive(V& d, bool start, uint64_t a, uint64_t m) {
    d.start_i = start;
    d.a_i = a;
    d.b_i = m;
  }
  std::string compare(const V& d, const Twin& t) {
    const auto& q = t.q;
    const uint64_t st_prod = get_bits(d.state_o, 0, PW), st_a = get_bits(d.state_o, PW, AW),
                   st_cnt = get_bits(d.state_o, PW + AW, Twin::kCntW),
                   st_busy = get_bits(d.state_o, PW + AW + Twin::kCntW, 1);
    if (bool(d.busy_o) != q.busy || uint64_t(d.prod_o) != q.prod || st_prod != q.prod || st_a != q.a ||
        st_cnt != q.cnt || bool(st_busy) != q.busy)
      return "rtl busy " + std::to_string(d.busy_o) + " prod " + std::to_string(uint64_t(d.prod_o)) + " cnt " +
             std::to_string(st_cnt) + "; twin busy " + std::to_string(q.busy) + " prod " + std::to_string(q.prod) +
             " cnt " + std::to_string(q.cnt);
    return "";
  }
  std::string result(const Twin& t, uint64_t a, uint64_t m) {  // the product ended: a * b read straight
    if (t.q.prod != a * m) return std::to_string(a) + " * " + std::to_string(m) + " gave " + std::to_string(t.q.prod);
    return "";
  }
};

template <class V, uint32_t AW, uint32_t BW>
std::string run(uint32_t seed, uint32_t cycles) {
  MulUnit<V, AW, BW> unit;  // most products end: a start one cycle in 4 BW while one runs
  return gs::bench::random_starts<V, typename MulUnit<V, AW, BW>::Twin>(unit, seed, cycles, 4 * BW,
                                                                        cycles / (2 * (BW + 8)), "products");
}

}  // namespace

TEST_CASE("gs_seq_mul at narrow widths, every register every cycle and every product", "[rtl][bench]") {
  CHECK(run<Vbench_gs_seq_mul, 7, 5>(1, 40000) == "");
}

TEST_CASE("gs_seq_mul at gs_policy_srtf's widest (adaptive_threshold x rem)", "[rtl][bench]") {
  CHECK(run<Vbench_gs_seq_mul_thr, 12, 48>(2, 40000) == "");
}

#define GS_SEQ_MUL_MUTANT_TEST(define, model)                                      \
  TEST_CASE("gs_seq_mul mutant " #define " is caught", "[rtl][bench][mutation]") { \
    const std::string diff = run<model, 7, 5>(1, 40000);                           \
    INFO(diff);                                                                    \
    CHECK(diff != "");                                                             \
    WARN(#define " caught: " << diff);                                             \
  }
GS_BENCH_MUTANTS(GS_SEQ_MUL_MUTANT_TEST)
