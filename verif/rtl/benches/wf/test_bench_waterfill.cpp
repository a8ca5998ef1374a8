// gsched block bench: rtl/policy/gs_waterfill.sv vs. golden WaterfillTwin (every register,
// every cycle, through state_o) and rtl/policy/gs_wf_scale.sv vs. golden WfScaleTwin (every
// register every cycle) and the formula wf_scale(); the twin vs. waterfill_reference()
// (Algorithm 1 read straight). Directed vectors: the pinned
// readings with hand-worked results (wf_vectors.hpp); random: thousands of vectors, start
// pulses while busy (ignored) and back-to-back runs. Each mutant of gs_waterfill.sv
// (GS_MUT_WF_*, docs/rtl/mutations.md) is built as its own model, and the same stimulus must
// find a difference: the mutation tests below; likewise each of gs_wf_scale.sv (GS_MUT_WFS_*).
#include <catch2/catch.hpp>

#include <sstream>
#include <vector>

#include "Vbench_gs_waterfill.h"
#include "Vbench_gs_wf_scale.h"
#include "bench_records.hpp"
#include "gs_waterfill_mutants.hpp"  // generated: GS_BENCH_MUTANTS(X), one Verilated model per GS_MUT_WF_*
#include "wf_vectors.hpp"

namespace {
using namespace gs::bench;
using gs::golden::WaterfillTwin;
using gs::golden::WfResult;
namespace lay = gs::spec::layout::wf_state_t;
constexpr uint32_t K = gs::spec::WfMaxKernels;
constexpr uint32_t N = gs::spec::WfMaxSteps;
constexpr uint32_t SW = gs::spec::WfStepW;
constexpr uint32_t PW = gs::spec::WfPerfW;

template <class V>
class WfBench {
 public:
  explicit WfBench(uint32_t seed) : rtl_(seed) {
    drive(WfInputs{}, false);
    rtl_.reset();
    gold_.reset();
  }

  /// Runs one vector from a start pulse to done_o, comparing every cycle; `noise`: also pulse
  /// start_i while busy (must be ignored). Returns "" or the first difference.
  std::string run(const WfInputs& in, WfResult* out = nullptr, gs::Rng* noise = nullptr) {
    WfResult r;
    bool start = true;
    for (uint32_t cyc = 0; cyc < 4 * WaterfillTwin::kMaxCycles; ++cyc) {
      drive(in, start);
      rtl_.settle();
      std::string diff = compare();
      if (!diff.empty()) return "cycle " + std::to_string(cyc) + ": " + diff;
      gold_.next(in, start);
      rtl_.tick();
      gold_.commit();
      if (rtl_.errors() != 0) return "RTL assertion failed";
      ++r.cycles;
      start = noise != nullptr && noise->chance_permille(20);
      if (gold_.q.done) {
        rtl_.settle();
        diff = compare();
        if (!diff.empty()) return "done cycle: " + diff;
        r.ctas = gold_.q.ctas;
        r.spatial = gold_.q.spatial;
        if (out) *out = r;
        return "";
      }
    }
    return "no done_o within 4x the latency bound";
  }

 private:
  void drive(const WfInputs& in, bool start) {
    auto& d = rtl_.dut();
    d.start_i = start;
    put_rec(d.avail_i, in.avail);
    for (uint32_t i = 0; i < K; ++i) {
      set_bits(d.nsteps_i, i * SW, SW, in.k[i].nsteps);
      put_rec(d.cta_i, in.k[i].cta, i * gs::spec::WfResW);
      for (uint32_t j = 0; j < N; ++j) set_bits(d.perf_i, (i * N + j) * PW, PW, in.k[i].perf[j]);
    }
  }

  std::string compare() {
    const auto& d = rtl_.dut();
    const WaterfillTwin::Regs& q = gold_.q;
    std::ostringstream o;
    auto field = [&](const char* name, uint64_t rtl, uint64_t gold) {
      if (rtl != gold && o.tellp() == 0) o << name << " RTL " << rtl << " golden " << gold;
    };
    field("st", get_bits(d.state_o, lay::st_lsb, lay::st_width), static_cast<uint32_t>(q.st));
    field("j", get_bits(d.state_o, lay::j_lsb, lay::j_width), q.j);
    for (uint32_t i = 0; i < K; ++i) {
      const std::string k = "[" + std::to_string(i) + "]";
      field(("step" + k).c_str(), get_bits(d.state_o, lay::step_lsb + i * N, N), q.step[i]);
      field(("peak" + k).c_str(), get_bits(d.state_o, lay::peak_lsb + i * PW, PW), q.peak[i]);
      field(("ctas" + k).c_str(), get_bits(d.state_o, lay::ctas_lsb + i * SW, SW), q.ctas[i]);
      field(("ctas_o" + k).c_str(), get_bits(d.ctas_o, i * SW, SW), q.ctas[i]);
      field(("nst" + k).c_str(), get_bits(d.state_o, lay::nst_lsb + i * SW, SW), q.nst[i]);
    }
    field("full", get_bits(d.state_o, lay::full_lsb, lay::full_width), q.full);
    auto res = [&](const char* name, uint32_t lsb, const WfRes& gold) {
      const WfRes rtl = gs::rtl::get_rec<WfRes>(d.state_o, lsb);
      if (rtl != gold && o.tellp() == 0) o << name << " RTL " << str(rtl) << " golden " << str(gold);
    };
    res("left", lay::left_lsb, q.left);
    res("res", lay::res_lsb, q.res);
    res("tl", lay::tl_lsb, q.tl);
    for (uint32_t i = 0; i < K; ++i)
      field(("smp[" + std::to_string(i) + "]").c_str(), get_bits(d.state_o, lay::smp_lsb + i * PW, PW), q.smp[i]);
    field("ki", get_bits(d.state_o, lay::ki_lsb, lay::ki_width), q.ki);
    field("cnt", get_bits(d.state_o, lay::cnt_lsb, lay::cnt_width), q.cnt);
    field("pres", get_bits(d.state_o, lay::pres_lsb, lay::pres_width), q.pres);
    field("found", get_bits(d.state_o, lay::found_lsb, 1), q.found);
    field("sel", get_bits(d.state_o, lay::sel_lsb, lay::sel_width), q.sel);
    field("sel_cur", get_bits(d.state_o, lay::sel_cur_lsb, lay::sel_cur_width), q.sel_cur);
    field("dt", get_bits(d.state_o, lay::dt_lsb, lay::dt_width), q.dt);
    field("brw", get_bits(d.state_o, lay::brw_lsb, 1), q.brw);
    field("chk", get_bits(d.state_o, lay::chk_lsb, 1), q.chk);
    field("lossy", get_bits(d.state_o, lay::lossy_lsb, 1), q.lossy);
    field("ma", get_bits(d.state_o, lay::ma_lsb, lay::ma_width), q.ma);
    field("mp", get_bits(d.state_o, lay::mp_lsb, lay::mp_width), q.mp);
    field("na", get_bits(d.state_o, lay::na_lsb, lay::na_width), q.na);
    field("np", get_bits(d.state_o, lay::np_lsb, lay::np_width), q.np);
    field("lt", get_bits(d.state_o, lay::lt_lsb, lay::lt_width), q.lt);
    field("eq", get_bits(d.state_o, lay::eq_lsb, lay::eq_width), q.eq);
    field("nofit", get_bits(d.state_o, lay::nofit_lsb, 1), q.nofit);
    field("spatial", get_bits(d.state_o, lay::spatial_lsb, 1), q.spatial);
    field("spatial_o", d.spatial_o, q.spatial);
    field("done", get_bits(d.state_o, lay::done_lsb, 1), q.done);
    field("done_o", d.done_o, q.done);
    field("busy_o", d.busy_o, gold_.busy());
    return o.str();
  }

  Bench<V> rtl_;
  WaterfillTwin gold_;
};

/// The bench's whole stimulus on model V: "" when RTL and golden agree everywhere, else the
/// first difference (with the vector that shows it).
template <class V>
std::string first_difference(uint32_t randoms) {
  WfBench<V> b(5);
  for (const auto& dv : wf_directed()) {
    const std::string diff = b.run(dv.in);
    if (!diff.empty()) return "directed '" + dv.name + "': " + diff;
  }
  gs::Rng r(14);
  for (uint32_t v = 0; v < randoms; ++v) {
    const std::string diff = b.run(wf_random(r), nullptr, &r);
    if (!diff.empty()) return "random vector " + std::to_string(v) + ": " + diff;
  }
  return "";
}

/// One operand set of gs_wf_scale; q = CTA_i / CTA_avg as the policy divides it (from cta and
/// avg), or a raw q (the unit's whole input range).
struct WfsVec {
  uint32_t perf = 0, phi = 0, q = 0;
  bool from_cta = false;
  uint32_t cta = 0, avg = 0;
};
WfsVec wfs_vec(uint32_t perf, uint32_t phi, uint32_t cta, uint32_t avg) {
  WfsVec v;
  v.perf = perf;
  v.phi = phi;
  v.from_cta = true;
  v.cta = cta;
  v.avg = avg;
  v.q = static_cast<uint32_t>(gs::golden::wf_scale_quotient(cta, avg));
  return v;
}
/// A w-bit operand that reaches the corners: zero, all ones, one bit, 1.0 in `frac` fraction bits.
uint32_t wfs_operand(gs::Rng& r, uint32_t w, uint32_t frac) {
  switch (r.below(8)) {
    case 0: return 0;
    case 1: return static_cast<uint32_t>(gs::golden::width_mask64(w));
    case 2: return 1u << r.below(w);
    case 3: return (1u << frac) + r.below(3) - 1;  // around 1.0
    default: return r.below(1u << w);
  }
}
/// The edge operands: the pinned readings of Eq. 3 and 4.
std::vector<WfsVec> wfs_edges() {
  constexpr uint32_t one_phi = 1u << gs::spec::WfPhiFracW, one_avg = 1u << gs::spec::WfAvgFracW;
  constexpr uint32_t perf_max = (1u << PW) - 1, phi_max = (1u << gs::spec::WfPhiW) - 1;
  constexpr uint32_t avg_max = (1u << gs::spec::WfAvgW) - 1, cta_max = (1u << SW) - 1;
  std::vector<WfsVec> e = {
      wfs_vec(1000, 0, 4, 4 * one_avg),            // phi = 0: factor 1
      wfs_vec(1000, one_phi, 8, 4 * one_avg),      // phi = 1, psi = 1: factor 2
      wfs_vec(1000, one_phi / 2, 2, 4 * one_avg),  // psi = -0.5: factor 0.75
      wfs_vec(1000, one_phi, 0, 4 * one_avg),      // psi = -1, phi = 1: factor 0
      wfs_vec(1000, phi_max, 8, one_avg),          // phi above 1.0 counts as 1.0
      wfs_vec(1000, one_phi + 1, 2, 4 * one_avg),  // just above 1.0, psi < 0
      wfs_vec(1000, one_phi, 5, 0),                // CTA_avg = 0: factor 1
      wfs_vec(perf_max, one_phi, cta_max, 1),      // largest factor: saturates
      wfs_vec(perf_max, phi_max, cta_max, 1),      // the same, phi clamped
      wfs_vec(perf_max, 0, cta_max, 1),            // factor 1: the sample itself
      wfs_vec(perf_max, one_phi, 0, avg_max),      // factor 0
      wfs_vec(777, 77, 3, 5 * one_avg + 3),        // negative psi with a fraction: the ceiling
      wfs_vec(1, 1, cta_max, avg_max),             // tiny phi, psi < 0
      wfs_vec(perf_max, 1, cta_max, 1),            // tiny phi, huge psi
      wfs_vec(0, one_phi, cta_max, 1),             // no instructions
  };
  for (uint32_t raw : {0u, 1u, 255u, 256u, 257u, (1u << gs::spec::WfFactorW) - 1}) {  // raw q corners
    WfsVec v;
    v.perf = perf_max;
    v.phi = one_phi;
    v.q = raw;
    e.push_back(v);
  }
  return e;
}

/// gs_wf_scale (model V) against WfScaleTwin: the edge operands, then `randoms` random ones,
/// started back to back, now and then a start while one runs (it is abandoned), the ports
/// random while no start is on them. Every register and output every cycle; every scaling that
/// ends against the formula (wf_scale_q, and wf_scale from CTA_i and CTA_avg), 2 * WfPerfW + 3
/// cycles after its start. "" or the first difference.
template <class V>
std::string wfs_first_difference(uint32_t randoms, uint32_t* finished_out = nullptr) {
  using gs::golden::WfScaleTwin;
  namespace L = gs::spec::layout::wfs_state_t;
  namespace M = gs::spec::layout::wfs_mul_state_t;
  constexpr uint32_t QW = gs::spec::WfFactorW, PhiW = gs::spec::WfPhiW;
  Bench<V> b(7);
  WfScaleTwin t;
  t.reset();
  V& d = b.dut();
  d.start_i = 0;
  b.reset();
  gs::Rng r(9);
  const std::vector<WfsVec> edges = wfs_edges();
  const uint64_t total = edges.size() + randoms;
  uint64_t next = 0, cyc = 0, started_at = 0;
  uint32_t finished = 0;
  bool running = false;
  WfsVec cur;
  while (next < total || running) {
    const std::string at = "cycle " + std::to_string(cyc) + ": ";
    const bool ends = running && !t.busy();  // the twin's registers: this cycle shows the result
    // this cycle's inputs: a start when idle or the last one ends, sometimes while one runs
    bool start = false;
    WfsVec nv;
    if (next < total && (!running || ends || r.below(500) == 0)) {
      start = true;
      if (next < edges.size()) {
        nv = edges[next];
      } else if (r.below(4) != 0) {
        nv = wfs_vec(wfs_operand(r, PW, 0), wfs_operand(r, PhiW, gs::spec::WfPhiFracW), wfs_operand(r, SW, 0),
                     wfs_operand(r, gs::spec::WfAvgW, gs::spec::WfAvgFracW));
      } else {
        nv.perf = wfs_operand(r, PW, 0);
        nv.phi = wfs_operand(r, PhiW, gs::spec::WfPhiFracW);
        nv.q = wfs_operand(r, QW, gs::spec::WfFactorFracW);
      }
      ++next;
    }
    d.start_i = start;
    d.perf_i = start ? nv.perf : r.below(1u << PW);  // read only with a start
    d.phi_i = start ? nv.phi : r.below(1u << PhiW);
    d.q_i = start ? nv.q : r.below(1u << QW);
    b.settle();
    std::ostringstream o;
    auto field = [&](const char* name, uint64_t rtl, uint64_t gold) {
      if (rtl != gold && o.tellp() == 0) o << name << " RTL " << rtl << " golden " << gold;
    };
    const WfScaleTwin::Regs& q = t.q;
    field("st", get_bits(d.state_o, L::st_lsb, L::st_width), static_cast<uint32_t>(q.st));
    field("neg", get_bits(d.state_o, L::neg_lsb, 1), q.neg);
    field("perf", get_bits(d.state_o, L::perf_lsb, L::perf_width), q.perf);
    field("factor", get_bits(d.state_o, L::factor_lsb, L::factor_width), q.factor);
    field("mul.busy", get_bits(d.state_o, L::mul_lsb + M::busy_lsb, 1), t.mul.q.busy);
    field("mul.cnt", get_bits(d.state_o, L::mul_lsb + M::cnt_lsb, M::cnt_width), t.mul.q.cnt);
    field("mul.a", get_bits(d.state_o, L::mul_lsb + M::a_lsb, M::a_width), t.mul.q.a);
    field("mul.prod", get_bits(d.state_o, L::mul_lsb + M::prod_lsb, M::prod_width), t.mul.q.prod);
    field("busy_o", d.busy_o, t.busy());
    field("factor_o", d.factor_o, t.factor());
    field("perf_o", d.perf_o, t.perf());
    if (o.tellp() != 0) return at + o.str();
    if (ends) {  // the result against the formula read straight
      const gs::golden::WfScale g = gs::golden::wf_scale_q(cur.perf, cur.phi, cur.q);
      std::ostringstream v;
      v << "perf " << cur.perf << " phi " << cur.phi << " q " << cur.q;
      if (cur.from_cta) v << " (cta " << cur.cta << " avg " << cur.avg << ")";
      if (cur.from_cta) {
        const gs::golden::WfScale f = gs::golden::wf_scale(cur.perf, cur.phi, cur.cta, cur.avg);
        if (f.factor != g.factor || f.perf != g.perf) return at + v.str() + ": wf_scale and wf_scale_q differ";
      }
      if (d.factor_o != g.factor || d.perf_o != g.perf)
        return at + v.str() + ": factor_o " + std::to_string(d.factor_o) + " perf_o " + std::to_string(d.perf_o) +
               ", the formula " + std::to_string(g.factor) + " / " + std::to_string(g.perf);
      if (cyc - started_at != 2 * PW + 3)
        return at + v.str() + ": ended " + std::to_string(cyc - started_at) + " cycles after its start";
      running = false;
      ++finished;
    }
    if (b.errors() != 0) return at + "an RTL assertion failed";
    t.next(start, d.perf_i, d.phi_i, d.q_i);
    t.commit();
    b.tick();
    if (start) {
      running = true;
      cur = nv;
      started_at = cyc;
    }
    ++cyc;
  }
  if (finished_out) *finished_out = finished;
  return "";
}

}  // namespace

TEST_CASE("gs_waterfill directed, the pinned readings of Algorithm 1", "[rtl][bench]") {
  WfBench<Vbench_gs_waterfill> b(3);
  for (const auto& dv : wf_directed()) {
    INFO(dv.name);
    WfResult res;
    REQUIRE(b.run(dv.in, &res) == "");
    uint32_t n = 0;
    for (uint32_t i = 0; i < K; ++i) {
      if (dv.in.k[i].nsteps == 0) {
        CHECK(res.ctas[i] == 0);
        continue;
      }
      REQUIRE(n < dv.ctas.size());
      CHECK(res.ctas[i] == dv.ctas[n++]);
    }
    CHECK(n == dv.ctas.size());
    CHECK(res.spatial == dv.spatial);
    if (dv.cycles) CHECK(res.cycles == dv.cycles);
    const WfResult ref = gs::golden::waterfill_reference(dv.in);
    CHECK(ref.ctas == res.ctas);
    CHECK(ref.spatial == res.spatial);
  }
}

TEST_CASE("gs_waterfill random vectors, twin vs. Algorithm 1 and the latency bound", "[rtl][bench]") {
  WfBench<Vbench_gs_waterfill> b(7);
  gs::Rng r(2016);
  uint32_t spatial = 0, max_cycles = 0;
  for (int v = 0; v < 4000; ++v) {
    const WfInputs in = wf_random(r);
    INFO("random vector " << v);
    WfResult res;
    REQUIRE(b.run(in, &res, &r) == "");
    const WfResult ref = gs::golden::waterfill_reference(in);
    REQUIRE(ref.ctas == res.ctas);
    REQUIRE(ref.spatial == res.spatial);
    REQUIRE(res.cycles <= WaterfillTwin::kMaxCycles);  // the latency contract (docs/rtl/gs_waterfill.md)
    spatial += res.spatial;
    max_cycles = std::max(max_cycles, res.cycles);
  }
  // the generator reaches both outcomes and long runs (a bench that cannot fail is a defect)
  CHECK(spatial > 100);
  CHECK(spatial < 3900);
  CHECK(max_cycles > gs::bench::wf_cycles(N, N, 2 * N, 1));  // more than N iterations: several kernels stepping far
  WARN("random: " << spatial << " of 4000 vectors spatial, longest run " << max_cycles << " cycles");
}

TEST_CASE("gs_wf_scale sequential: every register every cycle, every result against the formula", "[rtl][bench]") {
  uint32_t finished = 0;
  CHECK(wfs_first_difference<Vbench_gs_wf_scale>(200000, &finished) == "");
  // most scalings run to their end; a start while one runs (1/500 per cycle) abandons about 8%
  CHECK(finished > 175000);
  CHECK(finished < 195000);
  // the formula itself, on hand-worked operands
  constexpr uint32_t one_phi = 1u << gs::spec::WfPhiFracW, one_avg = 1u << gs::spec::WfAvgFracW;
  constexpr uint32_t perf_max = (1u << PW) - 1;
  CHECK(gs::golden::wf_scale(1000, one_phi, 8, 4 * one_avg).factor == 2u << gs::spec::WfFactorFracW);
  CHECK(gs::golden::wf_scale(1000, one_phi / 2, 2, 4 * one_avg).perf == 750);
  CHECK(gs::golden::wf_scale(perf_max, one_phi, (1u << SW) - 1, 1).perf == perf_max);
}

TEST_CASE("gs_waterfill unmutated: the mutation stimulus finds no difference", "[rtl][bench]") {
  CHECK(first_difference<Vbench_gs_waterfill>(500) == "");
}

// One test per GS_MUT_WF_* define: the same stimulus must find a difference.
#define GS_WF_MUTANT_TEST(define, model)                                             \
  TEST_CASE("gs_waterfill mutant " #define " is caught", "[rtl][bench][mutation]") { \
    const std::string diff = first_difference<model>(500);                           \
    INFO(diff);                                                                      \
    CHECK(diff != "");                                                               \
    WARN(#define " caught: " << diff);                                               \
  }
GS_BENCH_MUTANTS(GS_WF_MUTANT_TEST)

// One test per GS_MUT_WFS_* define of gs_wf_scale: the same stimulus must find a difference.
#define GS_WFS_MUTANT_TEST(define, model)                                           \
  TEST_CASE("gs_wf_scale mutant " #define " is caught", "[rtl][bench][mutation]") { \
    const std::string diff = wfs_first_difference<model>(200000);                   \
    INFO(diff);                                                                     \
    CHECK(diff != "");                                                              \
    WARN(#define " caught: " << diff);                                              \
  }
#undef GS_BENCH_MUTANTS             // gs_waterfill's, expanded above
#include "gs_wf_scale_mutants.hpp"  // generated: GS_BENCH_MUTANTS(X), one model per GS_MUT_WFS_*
GS_BENCH_MUTANTS(GS_WFS_MUTANT_TEST)
