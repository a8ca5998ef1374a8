// gsched block bench: rtl/framework/gs_ptbq.sv vs. golden Ptbq, every cycle.
#include <catch2/catch.hpp>

#include "Vbench_gs_ptbq.h"
#include "bench_records.hpp"
#include "common/rng.hpp"
#include "sched/golden/gs_ptbq.hpp"

namespace {
using namespace gs::bench;

struct PtbqBench {
  Bench<Vbench_gs_ptbq> rtl{11};
  Ptbq gold;
  PtbqBench() {
    gold.reset(MaxKernels);
    rtl.dut().push_valid_i = 0;
    rtl.dut().pop_valid_i = 0;
    rtl.reset();
  }
  void cycle(bool push, uint32_t push_slot, uint32_t cta, bool pop, uint32_t pop_slot) {
    auto& d = rtl.dut();
    d.push_valid_i = push;
    d.push_slot_i = push_slot;
    d.push_cta_i = cta;
    d.pop_valid_i = pop;
    d.pop_slot_i = pop_slot;
    rtl.settle();
    INFO("cycle " << rtl.cycle());
    for (uint32_t k = 0; k < MaxKernels; ++k) {
      INFO("slot " << k);
      REQUIRE(get_bits(d.count_o, k * PtbqCntW, PtbqCntW) == gold.count(k));
      // The head is only meaningful below the count (the handle memory has no reset).
      if (gold.count(k) != 0) REQUIRE(get_bits(d.head_o, k * CtaIdW, CtaIdW) == gold.head(k));
    }
    rtl.tick();
    Ptbq::In in;
    in.push = push;
    in.push_slot = push_slot;
    in.push_cta = cta;
    in.pop = pop;
    in.pop_slot = pop_slot;
    gold.clock(in);
    REQUIRE(rtl.errors() == 0);
  }
};

}  // namespace

TEST_CASE("gs_ptbq directed: a queue fills to its depth and wraps", "[rtl][bench]") {
  PtbqBench b;
  for (uint32_t i = 0; i < PtbqDepth; ++i) b.cycle(true, 5, 1000 + i, false, 0);
  REQUIRE(b.gold.count(5) == PtbqDepth);
  for (uint32_t i = 0; i < PtbqDepth / 2; ++i) b.cycle(false, 0, 0, true, 5);
  // push and pop of the same slot in one cycle, across the wrap of the read pointer
  for (uint32_t i = 0; i < 2 * PtbqDepth; ++i) b.cycle(true, 5, 5000 + i, true, 5);
  while (b.gold.count(5) != 0) b.cycle(false, 0, 0, true, 5);
}

TEST_CASE("gs_ptbq random pushes and pops", "[rtl][bench]") {
  PtbqBench b;
  gs::Rng r(99);
  for (int i = 0; i < 20000; ++i) {
    const uint32_t ps = r.below(MaxKernels), qs = r.below(MaxKernels);
    const bool push = r.chance_permille(500) && b.gold.count(ps) < PtbqDepth - 1;
    const bool pop = r.chance_permille(450) && b.gold.count(qs) != 0;
    b.cycle(push, ps, r.below(1u << CtaIdW), pop, qs);
  }
}
