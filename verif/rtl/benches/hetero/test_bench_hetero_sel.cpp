// gsched block bench: rtl/policy/gs_hetero_sel.sv, HeteroCore's sequential mapping unit, vs.
// its golden twin HeteroSel every cycle (busy_o, the outputs and every register through
// state_o), each decision vs. hetero_sel() (the decision's integer definition), and the twin
// vs. hetero_reference(): HeteroCore's Algorithm 2 (and Sec. 6.4's four kernels) read straight
// from the paper in floating point. Directed: the paper's cases (a thick and a lean kernel, two
// thick, two lean, a tie, 3T1L) and the corners of the fixed point (a kernel whose big SM holds
// no more CTAs than its small one, an estimate at or below zero); random: thousands of vectors
// with rates of every magnitude, some decisions restarted while they run. Each mutant of
// gs_hetero_sel.sv (GS_MUT_HC_*, docs/rtl/mutations.md) is built as its own model, and the same
// stimulus must find a difference: the mutation tests below.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <sstream>
#include <vector>

#include "Vbench_gs_hetero_sel.h"
#include "bench_harness.hpp"
#include "common/rng.hpp"
#include "gs_hetero_sel_mutants.hpp"  // generated: GS_BENCH_MUTANTS(X), one Verilated model per GS_MUT_HC_*
#include "rtl_sched/hetero_sel_drive.hpp"
#include "sched/golden/gs_hetero_sel.hpp"

namespace {
using namespace gs::bench;
using gs::golden::HeteroSel;
using gs::golden::HeteroSelIn;
using gs::golden::HeteroSelOut;
using gs::golden::hetero_sel;
using gs::golden::PolicyState;
namespace lay = gs::spec::layout::hc_sel_state_t;
constexpr uint32_t K = gs::golden::kHcKernels;
constexpr uint32_t IW = gs::spec::HcInstW;
constexpr uint32_t CW = gs::spec::CtaCntW;
constexpr uint64_t kMaxCycles = 4000;  // a decision of HcMaxKernels kernels takes 1,342 at MaxSms 132

/// The RTL unit and its twin, clocked together from reset.
template <class V>
class SelBench {
 public:
  explicit SelBench(uint32_t seed = 1) : rtl_(seed) {
    V& d = rtl_.dut();
    d.start_i = 0;
    gs::rtl::drive_hetero_sel(d, HeteroSelIn{});
    rtl_.reset();
    gold_.reset();
  }

  /// One decision: start, then cycles until busy_o falls (or `restart_after` cycles, when
  /// nonzero: a start while it runs abandons it). "" or the first difference: RTL vs. twin in
  /// any cycle, or the decision vs. hetero_sel(in). `cycles`: start to the decision.
  std::string check(const HeteroSelIn& in, uint64_t* cycles = nullptr, uint64_t restart_after = 0) {
    V& d = rtl_.dut();
    gs::rtl::drive_hetero_sel(d, in);
    uint64_t n = 0;
    bool start = true;
    for (;; ++n) {
      d.start_i = start;
      rtl_.settle();
      const std::string diff = compare();
      if (!diff.empty()) return "cycle " + std::to_string(n) + ": " + diff;
      if (n > 0 && !start && !gold_.busy()) break;
      if (n > kMaxCycles) return "no decision after " + std::to_string(kMaxCycles) + " cycles";
      gold_.next(start, in);
      rtl_.tick();
      gold_.commit();
      start = restart_after != 0 && n + 1 == restart_after;
    }
    if (cycles) *cycles = n;
    const HeteroSelOut g = hetero_sel(in);
    std::ostringstream o;
    if (gold_.thick() != g.thick) o << "thick " << gold_.thick() << " hetero_sel() " << g.thick << "; ";
    if (gold_.big() != g.big) o << "big " << gold_.big() << " hetero_sel() " << g.big << "; ";
    if (gold_.even() != g.even) o << "even " << gold_.even() << " hetero_sel() " << g.even << "; ";
    return o.str();
  }

 private:
  std::string compare() {
    const V& d = rtl_.dut();
    std::ostringstream o;
    if (bool(d.busy_o) != gold_.busy()) o << "busy_o RTL " << int(d.busy_o) << " golden " << gold_.busy() << "; ";
    if (d.thick_o != gold_.thick()) o << "thick_o RTL " << uint32_t(d.thick_o) << " golden " << gold_.thick() << "; ";
    if (d.big_o != gold_.big()) o << "big_o RTL " << uint32_t(d.big_o) << " golden " << gold_.big() << "; ";
    if (bool(d.even_o) != gold_.even()) o << "even_o RTL " << int(d.even_o) << " golden " << gold_.even() << "; ";
    PolicyState st;
    gold_.state(st, 0);
    for (const auto& f : lay::kFields) {
      for (uint32_t at = 0; at < f.width; at += 64) {  // wide fields in 64-bit pieces
        const uint32_t w = std::min<uint32_t>(64, f.width - at);
        const uint64_t r = get_bits(d.state_o, f.lsb + at, w), g = st.get(f.lsb + at, w);
        if (r != g) o << f.name << "[" << at + w - 1 << ":" << at << "] RTL " << r << " golden " << g << "; ";
      }
    }
    if (rtl_.errors() != 0) o << "RTL assertion failed; ";
    return o.str();
  }

  Bench<V> rtl_;
  HeteroSel gold_;
};

/// Algorithm 2 and Sec. 6.4 in floating point, from the paper's text: per-SM IPCs, IPC_base by
/// the CTA-count interpolation, all thick -> even; else the nk/2 kernels whose big-SM mapping
/// adds the most STP ((IPC^B - IPC^S) / IPC^base) take the big SMs, a tie to the later kernel.
/// Returns false (no verdict) where two gains are closer than the twin's fixed point can tell
/// apart: each rate is kept to one unit of 2**shift (shift as the twin's), so a gain is known to
/// (2 + 2 |gain|) units over IPC^base in those units.
bool hetero_reference(const HeteroSelIn& in, uint32_t& big, bool& even) {
  std::vector<double> gain(in.nk), err(in.nk);
  bool all_thick = in.nk >= 2;
  uint64_t top = 0;
  for (uint32_t c = 0; c < in.nk; ++c)
    top = std::max({top, in.big_insts[c] * in.sms_small, in.small_insts[c] * in.sms_big});
  uint32_t len = 0;
  while (len < 64 && (top >> len) != 0) ++len;
  const double unit = std::ldexp(1.0, len > gs::spec::HcSigW ? int(len - gs::spec::HcSigW) : 0);
  for (uint32_t c = 0; c < in.nk; ++c) {
    const double ipc_b = double(in.big_insts[c]) / in.sms_big, ipc_s = double(in.small_insts[c]) / in.sms_small;
    if (!(in.big_insts[c] * in.sms_small > in.small_insts[c] * in.sms_big)) all_thick = false;  // IPC^B > IPC^S
    double base = ipc_b;
    if (in.cta_big[c] > in.cta_small[c]) {
      const double scaled = (double(in.cta_base[c]) - in.cta_small[c]) / (double(in.cta_big[c]) - in.cta_small[c]);
      base = scaled * (ipc_b - ipc_s) + ipc_s;
    }
    if (base <= 0) return false;  // the twin holds the estimate at its smallest step: no verdict
    gain[c] = (ipc_b - ipc_s) / base;
    err[c] = (2 + 2 * std::fabs(gain[c])) * unit / (base * in.sms_big * in.sms_small);
  }
  even = in.nk < 2 || all_thick;
  big = 0;
  if (even) return true;
  for (uint32_t i = 0; i < in.nk; ++i) {
    uint32_t rank = 0;
    for (uint32_t j = 0; j < in.nk; ++j) {
      if (j == i) continue;
      if (std::fabs(gain[j] - gain[i]) <= 2 * (err[i] + err[j])) return false;
      if (gain[j] > gain[i]) ++rank;
    }
    if (rank < in.nk / 2) big |= 1u << i;
  }
  return true;
}

HeteroSelIn pair(uint64_t b0, uint64_t s0, uint64_t b1, uint64_t s1) {
  HeteroSelIn in;
  in.nk = 2;
  in.sms_big = in.sms_small = 4;
  in.big_insts = {b0, b1, 0, 0};
  in.small_insts = {s0, s1, 0, 0};
  // HeteroCore Table 3's CTAs per SM (conventional / big / small): FDTD3D 2/3/1 and LAVAMD 6/9/3
  in.cta_base = {2, 6, 0, 0};
  in.cta_big = {3, 9, 0, 0};
  in.cta_small = {1, 3, 0, 0};
  return in;
}

HeteroSelIn random_input(gs::Rng& r) {
  HeteroSelIn in;
  in.nk = r.below(K + 1);
  in.sms_big = 1 + r.below(r.chance_permille(500) ? 8 : 66);
  in.sms_small = r.chance_permille(600) ? in.sms_big : 1 + r.below(66);
  const uint32_t scale = r.below(IW - 4);  // rates of every magnitude: 2**scale
  for (uint32_t c = 0; c < K; ++c) {
    const uint64_t top = uint64_t(1) << (scale + 4);
    in.big_insts[c] = r.next() % top;
    in.small_insts[c] = r.chance_permille(100) ? in.big_insts[c] : r.next() % top;
    in.cta_small[c] = r.below(12);
    in.cta_big[c] = r.chance_permille(100) ? in.cta_small[c] : in.cta_small[c] + r.below(20);
    in.cta_base[c] = in.cta_small[c] + r.below(in.cta_big[c] - in.cta_small[c] + 2);
    if (r.chance_permille(20)) in.cta_big[c] = (1u << CW) - 1;
  }
  return in;
}

}  // namespace

TEST_CASE("gs_hetero_sel directed: the paper's cases and the fixed-point corners", "[rtl][bench]") {
  SelBench<Vbench_gs_hetero_sel> b;
  // a thick kernel (2x on big SMs) beside a lean one (the same on both): the thick one goes big
  HeteroSelIn in = pair(400000, 200000, 300000, 300000);
  REQUIRE(b.check(in) == "");
  HeteroSelOut o = hetero_sel(in);
  CHECK(o.thick == 0b01);
  CHECK(!o.even);
  CHECK(o.big == 0b01);
  // the same pair in the other order
  o = hetero_sel(pair(300000, 300000, 400000, 200000));
  CHECK(o.big == 0b10);
  // two thick kernels: the even split stays (Algorithm 2 line 9)
  in = pair(400000, 200000, 330000, 300000);
  REQUIRE(b.check(in) == "");
  o = hetero_sel(in);
  CHECK(o.thick == 0b11);
  CHECK(o.even);
  CHECK(o.big == 0);
  // two lean kernels: the one that loses less on big SMs takes them
  in = pair(280000, 300000, 150000, 300000);
  REQUIRE(b.check(in) == "");
  o = hetero_sel(in);
  CHECK(o.thick == 0);
  CHECK(!o.even);
  CHECK(o.big == 0b01);
  // an exact tie (the same kernel twice): K1 on the big SMs, Algorithm 2's else branch
  in = pair(300000, 300000, 300000, 300000);
  in.cta_base = {6, 6, 0, 0};
  in.cta_big = {9, 9, 0, 0};
  in.cta_small = {3, 3, 0, 0};
  REQUIRE(b.check(in) == "");
  o = hetero_sel(in);
  CHECK(o.big == 0b10);
  // 3T1L (Sec. 6.4): three thick kernels and a lean one, 2 big + 2 small SMs each in profiling;
  // the two largest gains go big: kernel 2 (3x) and kernel 0 (2x); kernel 1 (1.2x) goes small
  in = HeteroSelIn{};
  in.nk = 4;
  in.sms_big = in.sms_small = 2;
  in.big_insts = {200000, 120000, 300000, 90000};
  in.small_insts = {100000, 100000, 100000, 100000};
  in.cta_base = {2, 2, 2, 6};
  in.cta_big = {3, 3, 3, 9};
  in.cta_small = {1, 1, 1, 3};
  REQUIRE(b.check(in) == "");
  o = hetero_sel(in);
  CHECK(o.thick == 0b0111);
  CHECK(!o.even);
  CHECK(o.big == 0b0101);
  // one kernel: nothing to map
  in.nk = 1;
  REQUIRE(b.check(in) == "");
  CHECK(hetero_sel(in).even);
  // unequal SM counts (4 big + 12 small, Sec. 6.5): per-SM rates decide. Kernel 0 runs 2x per
  // big SM (its 2 big SMs do 200000, its 6 small ones 300000: 100000 vs 50000 per SM)
  in = pair(200000, 300000, 100000, 300000);
  in.sms_big = 2;
  in.sms_small = 6;
  REQUIRE(b.check(in) == "");
  o = hetero_sel(in);
  CHECK(o.thick == 0b01);
  CHECK(o.big == 0b01);
  // a kernel whose big SM holds no more CTAs than its small one: IPC^base = IPC^B
  in = pair(400000, 200000, 300000, 300000);
  in.cta_big[0] = in.cta_small[0] = 4;
  REQUIRE(b.check(in) == "");
  CHECK(hetero_sel(in).n[0] == int64_t(hetero_sel(in).b[0]));
  // an estimate at or below zero is held at 1 (base below the small-SM IPC, no instructions)
  in = pair(0, 0, 300000, 300000);
  REQUIRE(b.check(in) == "");
  CHECK(hetero_sel(in).n[0] == 1);
  // the widest rates: every bit of HcInstW on the largest SM counts
  in = pair((uint64_t(1) << IW) - 1, (uint64_t(1) << (IW - 1)), 12345, 1);
  in.sms_big = in.sms_small = (1u << gs::spec::SmIdW) - 1;
  REQUIRE(b.check(in) == "");
}

TEST_CASE("gs_hetero_sel random vectors against its twin, and the twin against the paper", "[rtl][bench]") {
  SelBench<Vbench_gs_hetero_sel> b;
  gs::Rng r(17);
  uint32_t verdicts = 0, big_kernels = 0, evens = 0;
  uint64_t longest = 0;
  for (int v = 0; v < 20000; ++v) {
    const HeteroSelIn in = random_input(r);
    if (v < 4000) {  // the RTL on the first 4000 (the rest: the twin's arithmetic against the paper)
      uint64_t cycles = 0;
      const std::string diff = b.check(in, &cycles, r.chance_permille(50) ? 1 + r.below(600) : 0);
      if (!diff.empty()) FAIL("vector " << v << ": " << diff);
      longest = std::max(longest, cycles);
    }
    uint32_t big = 0;
    bool even = false;
    if (in.nk >= 1 && hetero_reference(in, big, even)) {
      ++verdicts;
      const HeteroSelOut g = hetero_sel(in);
      INFO("vector " << v << " nk " << in.nk);
      REQUIRE(g.even == even);
      REQUIRE(g.big == big);
      big_kernels += __builtin_popcount(big);
      evens += even;
    }
  }
  // the reference decided most vectors, both outcomes occurred
  CHECK(verdicts > 10000);
  CHECK(big_kernels > 1000);
  CHECK(evens > 1000);
  WARN(verdicts << " vectors decided by the paper's algorithm in floating point: " << evens << " even splits, "
                << big_kernels << " kernels mapped on big SMs; the longest RTL decision " << longest << " cycles");
}

TEST_CASE("gs_hetero_sel latency: the page's cycle counts", "[rtl][bench]") {
  // docs/rtl/gs_hetero_sel.md and constraints/latency.json, R = HcMulBW + 1 (a product): per
  // kernel 2 R + 1 (its rates, thick), then 2 (the shift; the last thick's step); per kernel
  // 3 R + 3 (load, differences, N_c and G_c); per pair 2 R + 2 (the cross products, the rank)
  SelBench<Vbench_gs_hetero_sel> b;
  constexpr uint64_t R = gs::spec::HcMulBW + 1;
  uint64_t cycles = 0;
  HeteroSelIn in = pair(400000, 200000, 300000, 300000);  // a thick and a lean kernel
  REQUIRE(b.check(in, &cycles) == "");
  CHECK(cycles == 2 * (2 * R + 1) + 2 + 2 * (3 * R + 3) + 1 * (2 * R + 2));
  in = pair(400000, 200000, 330000, 300000);  // both thick: the rates and the shift step only
  REQUIRE(b.check(in, &cycles) == "");
  CHECK(cycles == 2 * (2 * R + 1) + 2);
  in.nk = 4;  // four kernels, the 3T1L case below: six pairs
  in.sms_big = in.sms_small = 2;
  in.big_insts = {200000, 120000, 300000, 90000};
  in.small_insts = {100000, 100000, 100000, 100000};
  in.cta_base = {2, 2, 2, 6};
  in.cta_big = {3, 3, 3, 9};
  in.cta_small = {1, 1, 1, 3};
  REQUIRE(b.check(in, &cycles) == "");
  CHECK(cycles == 4 * (2 * R + 1) + 2 + 4 * (3 * R + 3) + 6 * (2 * R + 2));
}

namespace {
/// The mutation stimulus: the directed pairs and random vectors, the first difference RTL vs. twin.
template <class V>
std::string first_difference(int vectors) {
  SelBench<V> b;
  std::vector<HeteroSelIn> directed = {pair(400000, 200000, 300000, 300000), pair(400000, 200000, 330000, 300000),
                                       pair(280000, 300000, 150000, 300000), pair(300000, 300000, 300000, 300000)};
  for (size_t i = 0; i < directed.size(); ++i) {
    const std::string diff = b.check(directed[i]);
    if (!diff.empty()) return "directed " + std::to_string(i) + ": " + diff;
  }
  gs::Rng r(29);
  for (int v = 0; v < vectors; ++v) {
    const std::string diff = b.check(random_input(r));
    if (!diff.empty()) return "vector " + std::to_string(v) + ": " + diff;
  }
  return "";
}
}  // namespace

TEST_CASE("gs_hetero_sel unmutated: the mutation stimulus finds no difference", "[rtl][bench]") {
  CHECK(first_difference<Vbench_gs_hetero_sel>(1500) == "");
}

// One test per GS_MUT_HC_* define of gs_hetero_sel.sv: the same stimulus must find a difference.
#define GS_HC_MUTANT_TEST(define, model)                                              \
  TEST_CASE("gs_hetero_sel mutant " #define " is caught", "[rtl][bench][mutation]") { \
    const std::string diff = first_difference<model>(1500);                           \
    INFO(diff);                                                                       \
    CHECK(diff != "");                                                                \
    WARN(#define " caught: " << diff);                                                \
  }
GS_BENCH_MUTANTS(GS_HC_MUTANT_TEST)
