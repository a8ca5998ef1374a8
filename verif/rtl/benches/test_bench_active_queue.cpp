// gsched block bench: rtl/framework/gs_active_queue.sv vs. golden ActiveQueue, every cycle.
// The bench plays the KSRT: an allocated slot becomes valid next cycle, a valid slot may be
// freed (one-hot) -- exactly the protocol gs_top wires up.
#include <catch2/catch.hpp>

#include "Vbench_gs_active_queue.h"
#include "bench_records.hpp"
#include "common/rng.hpp"
#include "sched/golden/gs_active_queue.hpp"

namespace {
using namespace gs::bench;

struct AqBench {
  Bench<Vbench_gs_active_queue> rtl{41};
  ActiveQueue gold;
  uint32_t valid = 0;  // the KSRT valid bits the bench models
  AqBench() {
    gold.reset(MaxKernels);
    rtl.dut().head_valid_i = 0;
    rtl.dut().ksrt_valid_i = 0;
    rtl.dut().free_i = 0;
    rtl.reset();
  }
  void cycle(bool head_valid, uint32_t free_mask) {
    auto& d = rtl.dut();
    d.head_valid_i = head_valid;
    d.ksrt_valid_i = valid;
    d.free_i = free_mask;
    rtl.settle();
    ActiveQueue::In in;
    in.head_valid = head_valid;
    in.ksrt_valid = valid;
    in.free_mask = free_mask;
    const ActiveQueue::Out a = gold.comb(in);
    INFO("cycle " << rtl.cycle() << " valid " << valid << " free " << free_mask);
    REQUIRE(bool(d.alloc_valid_o) == a.valid);
    REQUIRE(bool(d.pop_o) == a.valid);
    if (a.valid) REQUIRE(uint32_t(d.alloc_slot_o) == a.slot);
    for (uint32_t k = 0; k < MaxKernels; ++k) {
      INFO("slot " << k);
      REQUIRE(get_bits(d.rank_o, k * SlotW, SlotW) == gold.q.rank[k]);
    }
    rtl.tick();
    gold.next(in, a, gold.d);
    gold.commit();
    valid &= ~free_mask;
    if (a.valid) valid |= 1u << a.slot;
    REQUIRE(rtl.errors() == 0);
  }
};

uint32_t random_free(gs::Rng& r, uint32_t valid) {
  const uint32_t k = r.below(MaxKernels);
  return (valid >> k & 1u) ? 1u << k : 0u;
}

}  // namespace

TEST_CASE("gs_active_queue directed: fill every slot then free from the middle", "[rtl][bench]") {
  AqBench b;
  for (uint32_t i = 0; i < MaxKernels + 2; ++i) b.cycle(true, 0);  // the last two find no slot
  REQUIRE(b.valid == (1u << MaxKernels) - 1);
  b.cycle(false, 1u << 3);  // ranks above 3 move down
  b.cycle(true, 1u << 0);   // slot 3 reused while the oldest leaves
  for (int i = 0; i < 4; ++i) b.cycle(false, 0);
}

TEST_CASE("gs_active_queue random admissions and frees", "[rtl][bench]") {
  AqBench b;
  gs::Rng r(4242);
  for (int i = 0; i < 20000; ++i) b.cycle(r.chance_permille(400), r.chance_permille(350) ? random_free(r, b.valid) : 0);
}
