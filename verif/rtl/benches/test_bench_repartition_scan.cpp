// gsched block bench: rtl/policy/gs_repartition_scan.sv (Inner = 1 and Inner = MaxKernels, the
// two instantiations of gs_policy_spatial and gs_policy_even) vs. golden RepartitionScan.
#include <catch2/catch.hpp>

#include "Vbench_gs_repartition_scan_1.h"
#include "Vbench_gs_repartition_scan_8.h"
#include "bench_records.hpp"
#include "common/rng.hpp"
#include "sched/golden/gs_repartition_scan.hpp"

namespace {
using namespace gs::bench;

template <class V>
struct ScanBench {
  Bench<V> rtl{23};
  RepartitionScan gold;
  uint32_t num_sms;
  ScanBench(uint32_t inner, uint32_t sms) : num_sms(sms) {
    gold.reset(inner);
    rtl.dut().en_i = 0;
    rtl.dut().pending_i = 0;
    rtl.dut().hold_i = 0;
    rtl.dut().cfg_num_sms_i = sms;
    rtl.reset();
  }
  void cycle(bool en, uint32_t pending, bool hold = false) {
    auto& d = rtl.dut();
    d.en_i = en;
    d.pending_i = pending;
    d.hold_i = hold;
    rtl.settle();
    INFO("cycle " << rtl.cycle() << " en " << en << " pending " << pending << " hold " << hold);
    REQUIRE(bool(d.start_o) == gold.starts(en, pending));
    REQUIRE(bool(d.step_o) == gold.steps(en, pending, hold));
    if (d.step_o) {
      REQUIRE(d.sm_o == gold.q.s);
      REQUIRE(d.inner_o == gold.q.inner);
      REQUIRE(d.target_o == gold.q.target);
      REQUIRE(d.nk_o == gold.q.nk);
    }
    rtl.tick();
    gold.clock(en, pending, num_sms, hold);
    REQUIRE(rtl.errors() == 0);
  }
};

/// Directed: one scan to completion takes num_sms * inner steps, then the unit is quiet until
/// the set changes; a change in the middle restarts from SM 0.
template <class V>
void directed(uint32_t inner) {
  ScanBench<V> b(inner, 5);
  uint32_t steps = 0;
  for (int i = 0; i < 200; ++i) {
    if (b.gold.steps(true, 0b011)) ++steps;
    b.cycle(true, 0b011);
  }
  CHECK(steps == 5 * inner);
  CHECK(b.gold.q.done == 0b011);
  for (int i = 0; i < 3; ++i) b.cycle(true, 0b111);  // restart, a few steps
  CHECK(b.gold.q.busy);
  b.cycle(true, 0b101);  // another change: restart
  CHECK(b.gold.q.s == 0);
  CHECK(b.gold.q.inner == 0);
  b.cycle(false, 0b101);  // disabled: idles
  CHECK(!b.gold.q.busy);
  for (int i = 0; i < 3; ++i) b.cycle(true, 0b101);  // restart, a few steps
  const RepartitionScan::Regs before = b.gold.q;
  for (int i = 0; i < 4; ++i) b.cycle(true, 0b101, true);  // held: no step, no advance
  CHECK(b.gold.q.s == before.s);
  CHECK(b.gold.q.inner == before.inner);
  b.cycle(true, 0b111, true);  // a start is not held
  CHECK(b.gold.q.s == 0);
  CHECK(b.gold.q.target == 0b111);
}

template <class V>
void random_stimulus(uint32_t inner) {
  gs::Rng r(inner * 7 + 1);
  for (uint32_t sms : {1u, 2u, 13u, 32u, MaxSms}) {  // up to the whole build (h100: 132)
    ScanBench<V> b(inner, sms);
    uint32_t pending = 0;
    for (int i = 0; i < 6000; ++i) {
      if (r.chance_permille(8)) pending = r.below(1u << MaxKernels);
      b.cycle(!r.chance_permille(3), pending, r.chance_permille(200));  // held a fifth of the cycles
    }
  }
}

}  // namespace

TEST_CASE("gs_repartition_scan directed, one step per SM", "[rtl][bench]") {
  directed<Vbench_gs_repartition_scan_1>(1);
}
TEST_CASE("gs_repartition_scan directed, one step per (SM, slot)", "[rtl][bench]") {
  directed<Vbench_gs_repartition_scan_8>(8);
}
TEST_CASE("gs_repartition_scan random, both widths", "[rtl][bench]") {
  random_stimulus<Vbench_gs_repartition_scan_1>(1);
  random_stimulus<Vbench_gs_repartition_scan_8>(8);
}
