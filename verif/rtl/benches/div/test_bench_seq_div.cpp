// gsched block bench: rtl/policy/gs_seq_div.sv, the policies' one divider, against its golden
// twin SeqDiv (cmodel/sched/golden/gs_seq_div.hpp) every cycle (busy_o, quo_o and every register
// through state_o), and every division that runs to its end against the quotient read straight
// (floor, saturated at all ones). Two models: narrow widths (-GNumW=20 -GDenW=7 -GQuoW=9, where
// random operands hit the corners: exact saturation, exact divisibility, a zero divisor) with
// the GS_MUT_SEQ_DIV_* mutants, and gs_policy_srtf's widths (52 / 14 / 48). Starts come at random,
// also while a division runs (it is abandoned). docs/rtl/gs_seq_div.md.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <string>

#include "Vbench_gs_seq_div.h"
#include "Vbench_gs_seq_div_srtf.h"
#include "bench_harness.hpp"
#include "seq_unit_bench.hpp"
#include "common/rng.hpp"
#include "gs_seq_div_mutants.hpp"  // generated: GS_BENCH_MUTANTS(X), one model per GS_MUT_SEQ_DIV_*
#include "sched/golden/gs_seq_div.hpp"

namespace {

using gs::bench::Bench;
using gs::bench::get_bits;
using gs::golden::width_mask64;

/// Operands that reach the corners at widths (NumW, DenW, QuoW).
template <uint32_t NumW, uint32_t DenW, uint32_t QuoW>
void operands(gs::Rng& r, uint64_t& num, uint64_t& den) {
  const uint64_t den_max = width_mask64(DenW);
  switch (r.below(6)) {
    case 0: den = 0; break;
    case 1: den = 1; break;
    case 2: den = den_max; break;
    default: den = 1 + r.below(static_cast<uint32_t>(den_max)); break;
  }
  const uint64_t num_max = width_mask64(NumW);
  const uint64_t q = r.below(2) ? r.next() & width_mask64(QuoW) : width_mask64(QuoW);  // the largest quotient
  switch (r.below(6)) {
    case 0: num = r.next() & num_max; break;                      // anything
    case 1: num = (den << QuoW) & num_max; break;                 // quotient exactly 2**QuoW
    case 2: num = ((den << QuoW) - (den != 0)) & num_max; break;  // the largest that fits
    case 3: num = (den * q) & num_max; break;                     // exact: remainder 0
    case 4: num = (den * q + (den ? r.below(static_cast<uint32_t>(den)) : 0)) & num_max; break;  // any remainder
    default: num = r.next() & width_mask64(QuoW + DenW - 1) & num_max; break;                    // below the saturation
  }
}

/// The divider's pieces for random_starts() (seq_unit_bench.hpp): "" or the first difference
/// (registers, outputs, or a finished quotient against floor(num / den) saturated).
template <class V, uint32_t NumW, uint32_t DenW, uint32_t QuoW>
struct DivUnit {
  using Twin = gs::golden::SeqDiv<NumW, DenW, QuoW>;
  void draw(gs::Rng& r, uint64_t& n, uint64_t& m) { operands<NumW, DenW, QuoW>(r, n, m); }
  void drive(V& d, bool start, uint64_t n, uint64_t m) {
    d.start_i = start;
    d.num_i = n;
    d.den_i = m;
  }
  std::string compare(const V& d, const Twin& t) {
    const auto& q = t.q;
    const uint64_t st_quo = get_bits(d.state_o, 0, QuoW), st_den = get_bits(d.state_o, QuoW, DenW),
                   st_rem = get_bits(d.state_o, QuoW + DenW, DenW),
                   st_cnt = get_bits(d.state_o, QuoW + 2 * DenW, Twin::kCntW),
                   st_busy = get_bits(d.state_o, QuoW + 2 * DenW + Twin::kCntW, 1);
    if (bool(d.busy_o) != q.busy || uint64_t(d.quo_o) != q.quo || st_quo != q.quo || st_den != q.den ||
        st_rem != q.rem || st_cnt != q.cnt || bool(st_busy) != q.busy)
      return "rtl busy " + std::to_string(d.busy_o) + " quo " + std::to_string(uint64_t(d.quo_o)) + " rem " +
             std::to_string(st_rem) + " cnt " + std::to_string(st_cnt) + "; twin busy " + std::to_string(q.busy) +
             " quo " + std::to_string(q.quo) + " rem " + std::to_string(q.rem) + " cnt " + std::to_string(q.cnt);
    return "";
  }
  std::string result(const Twin& t, uint64_t num, uint64_t den) {  // the division ended: its quotient read straight
    const uint64_t want = den == 0 ? width_mask64(QuoW) : std::min(num / den, width_mask64(QuoW));
    if (t.q.quo != want)
      return std::to_string(num) + " / " + std::to_string(den) + " gave " + std::to_string(t.q.quo) + ", expected " +
             std::to_string(want);
    return "";
  }
};

template <class V, uint32_t NumW, uint32_t DenW, uint32_t QuoW>
std::string run(uint32_t seed, uint32_t cycles) {
  DivUnit<V, NumW, DenW, QuoW> unit;
  return gs::bench::random_starts<V, typename DivUnit<V, NumW, DenW, QuoW>::Twin>(unit, seed, cycles, 40,
                                                                                  cycles / (QuoW + 8), "divisions");
}

}  // namespace

TEST_CASE("gs_seq_div at narrow widths, every register every cycle and every quotient", "[rtl][bench]") {
  CHECK(run<Vbench_gs_seq_div, 20, 7, 9>(1, 60000) == "");
}

TEST_CASE("gs_seq_div at gs_policy_srtf's widths", "[rtl][bench]") {
  CHECK(run<Vbench_gs_seq_div_srtf, 52, 14, 48>(2, 60000) == "");
}

#define GS_SEQ_DIV_MUTANT_TEST(define, model)                                      \
  TEST_CASE("gs_seq_div mutant " #define " is caught", "[rtl][bench][mutation]") { \
    const std::string diff = run<model, 20, 7, 9>(1, 60000);                       \
    INFO(diff);                                                                    \
    CHECK(diff != "");                                                             \
    WARN(#define " caught: " << diff);                                             \
  }
GS_BENCH_MUTANTS(GS_SEQ_DIV_MUTANT_TEST)
