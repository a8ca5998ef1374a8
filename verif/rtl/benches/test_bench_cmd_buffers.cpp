// gsched block bench: rtl/framework/gs_cmd_buffers.sv vs. golden CmdBuffers, every cycle.
#include <catch2/catch.hpp>

#include "Vbench_gs_cmd_buffers.h"
#include "bench_records.hpp"
#include "common/rng.hpp"
#include "sched/golden/gs_cmd_buffers.hpp"

namespace {
using namespace gs::bench;

struct CmdBufBench {
  Bench<Vbench_gs_cmd_buffers> rtl{7};
  CmdBuffers gold;
  CmdBufBench() {
    gold.reset(MaxContexts);
    rtl.dut().push_i = 0;
    rtl.dut().pop_i = 0;
    rtl.reset();
  }
  /// Compares the registered outputs, then clocks one cycle into both.
  void cycle(bool push, const Launch& l, bool pop) {
    auto& d = rtl.dut();
    d.push_i = push;
    put_launch(d.push_launch_i, l);
    d.pop_i = pop;
    rtl.settle();
    INFO("cycle " << rtl.cycle());
    const CmdBuffers::Out o = gold.comb();
    REQUIRE(bool(d.ready_o) == o.ready);
    REQUIRE(bool(d.head_valid_o) == o.head_valid);
    if (o.head_valid) {
      INFO("RTL head " << str(get_launch(d.head_o)) << " golden head " << str(o.head));
      REQUIRE(same(get_launch(d.head_o), o.head));
    }
    rtl.tick();
    CmdBuffers::In in;
    in.push = push;
    in.launch = l;
    in.pop = pop;
    gold.clock(in);
    REQUIRE(rtl.errors() == 0);
  }
};

Launch random_launch(gs::Rng& r, uint32_t ctx) {
  Launch l;
  l.kernel = KernelId(r.below(255));
  l.ctx = ctx;
  l.prio = r.below(16);
  l.tokens = static_cast<int16_t>(r.below(65536) - 32768);
  l.threads = 1 + r.below(1024);
  l.warps = 1 + r.below(32);
  l.regs = r.below(1u << RegW);
  l.shmem = r.below(1u << ShmemW);
  l.grid = 1 + r.below((1u << CtaIdW) - 1);
  return l;
}

}  // namespace

TEST_CASE("gs_cmd_buffers directed: one context fills and order is global arrival order", "[rtl][bench]") {
  CmdBufBench b;
  gs::Rng r(1);
  // Fill context 2 to its depth: ready drops when any FIFO is full.
  for (uint32_t i = 0; i < CmdBufDepth; ++i) b.cycle(true, random_launch(r, 2), false);
  REQUIRE_FALSE(b.gold.ready());
  b.cycle(false, {}, false);
  // Drain it while pushing into other contexts in between: heads come out oldest first.
  for (uint32_t i = 0; i < 3 * CmdBufDepth; ++i) b.cycle(b.gold.ready(), random_launch(r, i % 3), true);
  for (int i = 0; i < 16; ++i) b.cycle(false, {}, true);  // pops of an empty buffer are ignored
  REQUIRE_FALSE(b.gold.head_valid());
}

TEST_CASE("gs_cmd_buffers random pushes and pops", "[rtl][bench]") {
  CmdBufBench b;
  gs::Rng r(12345);
  for (int i = 0; i < 20000; ++i) {
    const bool push = b.gold.ready() && r.chance_permille(550);
    b.cycle(push, random_launch(r, r.below(MaxContexts)), r.chance_permille(450));
  }
}
