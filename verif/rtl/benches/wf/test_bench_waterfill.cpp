// gsched block bench: rtl/policy/gs_waterfill.sv vs. golden WaterfillTwin (every register,
// every cycle, through state_o) and rtl/policy/gs_wf_scale.sv vs. golden wf_scale(); the twin
// vs. waterfill_reference() (Algorithm 1 read straight). Directed vectors: the pinned
// readings with hand-worked results (wf_vectors.hpp); random: thousands of vectors, start
// pulses while busy (ignored) and back-to-back runs. Each mutant of gs_waterfill.sv
// (GS_MUT_WF_*, docs/rtl/mutations.md) is built as its own model, and the same stimulus must
// find a difference: the mutation tests below.
#include <catch2/catch.hpp>

#include <sstream>

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
    for (uint32_t cyc = 0; cyc < 4 * (3 + (K + 1) * N); ++cyc) {
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
    }
    field("full", get_bits(d.state_o, lay::full_lsb, lay::full_width), q.full);
    const WfRes left = gs::rtl::get_rec<WfRes>(d.state_o, lay::left_lsb);
    if (left != q.left && o.tellp() == 0) o << "left RTL " << str(left) << " golden " << str(q.left);
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
    REQUIRE(res.cycles <= 3 + (K + 1) * N);  // the latency contract (docs/rtl/gs_waterfill.md)
    spatial += res.spatial;
    max_cycles = std::max(max_cycles, res.cycles);
  }
  // the generator reaches both outcomes and long runs (a bench that cannot fail is a defect)
  CHECK(spatial > 100);
  CHECK(spatial < 3900);
  CHECK(max_cycles > N + 3 + N);  // more than N iterations: several kernels stepping far
  WARN("random: " << spatial << " of 4000 vectors spatial, longest run " << max_cycles << " cycles");
}

TEST_CASE("gs_wf_scale random and edge operands vs. golden wf_scale", "[rtl][bench]") {
  // combinational: no clock, no reset (Bench<> is for clocked blocks)
  VerilatedContext ctx;
  ctx.fatalOnError(false);
  Verilated::threadContextp(&ctx);
  Vbench_gs_wf_scale d(&ctx, "dut");
  gs::Rng r(3);
  auto check = [&](uint32_t perf, uint32_t phi, uint32_t cta, uint32_t avg) {
    d.perf_i = perf;
    d.phi_i = phi;
    d.cta_i = cta;
    d.avg_i = avg;
    d.eval();
    const gs::golden::WfScale g = gs::golden::wf_scale(perf, phi, cta, avg);
    INFO("perf " << perf << " phi " << phi << " cta " << cta << " avg " << avg);
    REQUIRE(d.factor_o == g.factor);
    REQUIRE(d.perf_o == g.perf);
  };
  constexpr uint32_t one_phi = 1u << gs::spec::WfPhiFracW, one_avg = 1u << gs::spec::WfAvgFracW;
  constexpr uint32_t perf_max = (1u << PW) - 1;
  check(1000, 0, 4, 4 * one_avg);                         // phi = 0: factor 1
  check(1000, one_phi, 8, 4 * one_avg);                   // phi = 1, psi = 1: factor 2
  check(1000, one_phi / 2, 2, 4 * one_avg);               // psi = -0.5: factor 0.75
  check(1000, one_phi, 0, 4 * one_avg);                   // psi = -1, phi = 1: factor 0
  check(1000, (1u << gs::spec::WfPhiW) - 1, 8, one_avg);  // phi above 1.0 counts as 1.0
  check(1000, one_phi, 5, 0);                             // CTA_avg = 0: factor 1
  check(perf_max, one_phi, (1u << SW) - 1, 1);            // largest factor: saturates
  check(777, 77, 3, 5 * one_avg + 3);                     // negative psi with a fraction: floor
  for (int i = 0; i < 200000; ++i)
    check(r.below(1u << PW), r.below(1u << gs::spec::WfPhiW), r.below(1u << SW), r.below(1u << gs::spec::WfAvgW));
  CHECK(gs::golden::wf_scale(1000, one_phi, 8, 4 * one_avg).factor == 2u << gs::spec::WfFactorFracW);
  CHECK(gs::golden::wf_scale(1000, one_phi / 2, 2, 4 * one_avg).perf == 750);
  CHECK(gs::golden::wf_scale(perf_max, one_phi, (1u << SW) - 1, 1).perf == perf_max);
  d.final();
  Verilated::threadContextp(nullptr);
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
