// gsched block bench: rtl/framework/gs_ksrt.sv vs. golden Ksrt, every cycle.
// Stimulus follows the KSRT's contract: alloc into a free slot, issue below the grid, retire
// (done) only issued CTAs; token updates anywhere. lookup/free are combinational outputs.
#include <catch2/catch.hpp>

#include "Vbench_gs_ksrt.h"
#include "bench_records.hpp"
#include "common/rng.hpp"
#include "sched/golden/gs_ksrt.hpp"

namespace {
using namespace gs::bench;

struct KsrtIn {
  bool alloc = false;
  uint32_t alloc_slot = 0;
  Launch launch;
  bool issue = false;
  uint32_t issue_slot = 0;
  bool done = false;
  uint32_t done_slot = 0;
  TokenUpd tok;
  KernelId lookup = 0;
};

struct KsrtBench {
  Bench<Vbench_gs_ksrt> rtl{21};
  Ksrt gold;
  KsrtBench() {
    gold.reset(MaxKernels);
    auto& d = rtl.dut();
    d.alloc_valid_i = d.issue_valid_i = d.done_valid_i = 0;
    d.tok_i = 0;
    rtl.reset();
  }
  void cycle(const KsrtIn& in) {
    auto& d = rtl.dut();
    d.alloc_valid_i = in.alloc;
    d.alloc_slot_i = in.alloc_slot;
    put_launch(d.alloc_launch_i, in.launch);
    d.issue_valid_i = in.issue;
    d.issue_slot_i = in.issue_slot;
    d.done_valid_i = in.done;
    d.done_slot_i = in.done_slot;
    put_rec(d.tok_i, in.tok);
    d.lookup_kernel_i = kernel_bits(in.lookup);
    rtl.settle();
    INFO("cycle " << rtl.cycle());
    REQUIRE(uint32_t(d.valid_o) == gold.valid_mask());
    for (uint32_t k = 0; k < MaxKernels; ++k) {
      const KsrtEntry r = get_ksrt(d.entries_o, k * KsrtW);
      INFO("slot " << k << " RTL " << str(r) << " golden " << str(gold.entry(k)));
      if (gold.entry(k).valid) REQUIRE(same(r, gold.entry(k)));
      else REQUIRE_FALSE(r.valid);
    }
    Ksrt::In gin;
    gin.alloc_valid = in.alloc;
    gin.alloc_slot = in.alloc_slot;
    gin.launch = in.launch;
    gin.issue_valid = in.issue;
    gin.issue_slot = in.issue_slot;
    gin.done_valid = in.done;
    gin.done_slot = in.done_slot;
    gin.tok = in.tok;
    gin.lookup = in.lookup;
    const Ksrt::Out o = gold.comb(gin);
    REQUIRE(uint32_t(d.valid_o) == o.valid);
    REQUIRE(bool(d.lookup_hit_o) == o.lookup.hit);
    if (o.lookup.hit) REQUIRE(uint32_t(d.lookup_slot_o) == o.lookup.slot);
    REQUIRE(uint32_t(d.free_o) == o.free_mask);
    rtl.tick();
    gold.clock(gin);
    REQUIRE(rtl.errors() == 0);
  }
};

Launch launch_for(gs::Rng& r, KernelId kernel, uint32_t grid) {
  Launch l;
  l.kernel = kernel;
  l.ctx = r.below(MaxContexts);
  l.prio = r.below(16);
  l.tokens = static_cast<int16_t>(r.below(200)) - 100;
  l.threads = 32 * (1 + r.below(32));
  l.warps = 1 + r.below(32);
  l.regs = r.below(65536);
  l.shmem = r.below(49152);
  l.grid = grid;
  return l;
}

/// One random legal cycle given the golden state.
KsrtIn random_in(gs::Rng& r, const Ksrt& g, KernelId& next_kernel) {
  KsrtIn in;
  const uint32_t valid = g.valid_mask();
  const uint32_t a = r.below(MaxKernels), i = r.below(MaxKernels), d = r.below(MaxKernels);
  if (!(valid >> a & 1u) && r.chance_permille(300)) {
    in.alloc = true;
    in.alloc_slot = a;
    in.launch = launch_for(r, next_kernel, 1 + r.below(12));
    next_kernel = KernelId((next_kernel + 1) % 255);
  }
  if ((valid >> i & 1u) && g.entry(i).next_cta < g.entry(i).grid && r.chance_permille(600)) {
    in.issue = true;
    in.issue_slot = i;
  }
  if ((valid >> d & 1u) && g.entry(d).done < g.entry(d).next_cta && r.chance_permille(500)) {
    in.done = true;
    in.done_slot = d;
  }
  in.tok.inc_valid = r.chance_permille(200);
  in.tok.inc = r.below(MaxKernels);
  in.tok.dec_valid = r.chance_permille(200);
  in.tok.dec = r.below(MaxKernels);
  in.lookup = r.chance_permille(100) ? kNoKernel : KernelId(r.below(next_kernel + 1));
  return in;
}

}  // namespace

TEST_CASE("gs_ksrt directed: a kernel of grid 1 is allocated issued and retired", "[rtl][bench]") {
  KsrtBench b;
  gs::Rng r(3);
  KsrtIn in;
  in.alloc = true;
  in.alloc_slot = 6;
  in.launch = launch_for(r, 42, 1);
  b.cycle(in);
  KsrtIn issue;
  issue.issue = true;
  issue.issue_slot = 6;
  issue.lookup = 42;
  b.cycle(issue);
  KsrtIn done;
  done.done = true;
  done.done_slot = 6;  // the last CTA: free_o fires, the slot is invalid next cycle
  done.lookup = 42;
  REQUIRE(b.gold.free_mask(true, 6) == (1u << 6));
  b.cycle(done);
  b.cycle(KsrtIn{});
  REQUIRE(b.gold.valid_mask() == 0);
}

TEST_CASE("gs_ksrt random allocs issues retires and token updates", "[rtl][bench]") {
  KsrtBench b;
  gs::Rng r(2024);
  KernelId next_kernel = 0;
  for (int i = 0; i < 20000; ++i) b.cycle(random_in(r, b.gold, next_kernel));
}
