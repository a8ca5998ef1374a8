// gsched unit tests: the SM model -- issue rate, latency-bound warps, GTO vs LRR, scoreboard
// stall classification, capacity invariant, stores, determinism (preemption: test_sm_preempt.cpp).
#include <catch2/catch.hpp>

#include <set>

#include "common/error.hpp"
#include "test_sm_fake_memory.hpp"

using namespace gs;
using gs_test::alu_kernel;
using gs_test::make_config;
using gs_test::SmHarness;

namespace {

SmTypeConfig fermi_like(uint32_t schedulers = 2, WarpSchedPolicy p = WarpSchedPolicy::kGto) {
  SmTypeConfig t;
  t.warp_schedulers = schedulers;
  t.warp_sched_policy = p;
  t.alu_lanes = 32;
  t.alu_latency = 10;
  t.sfu_lanes = 4;
  t.sfu_latency = 20;
  t.ldst_lanes = 16;
  t.shmem_latency = 24;
  return t;
}

uint64_t stall(const SmHarness& h, KernelId k, StallReason r) { return h.counters.at(0, k).stall_cycles[int(r)]; }

}  // namespace

TEST_CASE("sm pure ALU kernel with enough warps issues one instruction per scheduler per cycle", "[sm]") {
  SmHarness h(make_config(fermi_like(2)), 100);
  const KernelDesc k = alu_kernel(256, 2000, 4);  // 8 warps per CTA, 16 warps in all
  h.start(0, k, 0);
  h.start(0, k, 1);
  // Steady state (before GTO's oldest warps finish and leave a latency-bound tail): each
  // scheduler has 8 warps that could issue 0.4 instructions per cycle each, so its one issue
  // slot per cycle is always used.
  for (int i = 0; i < 4000; ++i) h.step();
  CHECK(double(h.insts(0)) / 4000.0 == Approx(2.0).epsilon(0.05));
  const uint64_t cycles = 4000 + h.run();
  CHECK(h.insts(0) == 16u * 2000u);
  CHECK(h.counters.at(0, 0).active_cycles == cycles);
}

TEST_CASE("sm single warp is latency bound by its dependency distance", "[sm]") {
  // Instruction i waits for i - dep, which completes alu_latency cycles after issue:
  // a lone warp issues dep instructions per alu_latency cycles.
  for (uint32_t dep : {1u, 4u}) {
    SmHarness h(make_config(fermi_like(2)), 100);
    const KernelDesc k = alu_kernel(32, 4000, dep);
    h.start(0, k, 0);
    const uint64_t cycles = h.run();
    const double ipc = double(h.insts(0)) / double(cycles);
    CHECK(ipc == Approx(double(dep) / 10.0).epsilon(0.05));
    // Every scheduler-cycle without an issue on the warp's scheduler is a RAW stall.
    CHECK(stall(h, 0, StallReason::kRaw) == Approx(double(cycles - h.insts(0))).epsilon(0.01));
    CHECK(stall(h, 0, StallReason::kMemLatency) == 0);
  }
}

TEST_CASE("sm GTO runs one warp to completion first while LRR interleaves", "[sm]") {
  // One scheduler, two one-warp CTAs of independent ALU instructions with 1-cycle latency.
  auto finish_cycles = [](WarpSchedPolicy p) {
    SmTypeConfig t = fermi_like(1, p);
    t.alu_latency = 1;
    SmHarness h(make_config(t), 100);
    const KernelDesc k = alu_kernel(32, 1000, 0);
    h.start(0, k, 0);
    h.start(0, k, 1);
    h.run();
    REQUIRE(h.records.size() == 2);
    std::vector<uint64_t> end(2);
    for (const CtaRecord& r : h.records) end[r.cta] = r.end_cycle;
    return end;
  };
  const auto gto = finish_cycles(WarpSchedPolicy::kGto);
  CHECK(gto[0] <= 1001);  // the greedy warp never yields
  CHECK(gto[1] >= 1999);
  const auto lrr = finish_cycles(WarpSchedPolicy::kLrr);
  CHECK(lrr[0] >= 1998);  // alternating issue: both finish together
  CHECK(lrr[1] >= 1998);
  CHECK(lrr[1] - lrr[0] <= 2);
}

TEST_CASE("sm GTO returns to the oldest ready warp when the greedy warp stalls", "[sm]") {
  // Two warps with dep 1 and latency 4 on one scheduler: GTO issues from warp A until it
  // stalls, then from the oldest ready warp. Both progress; total IPC = 2 * 1/4.
  SmTypeConfig t = fermi_like(1, WarpSchedPolicy::kGto);
  t.alu_latency = 4;
  SmHarness h(make_config(t), 100);
  const KernelDesc k = alu_kernel(64, 1000, 1);
  h.start(0, k, 0);
  const uint64_t cycles = h.run();
  CHECK(double(h.insts(0)) / double(cycles) == Approx(0.5).epsilon(0.05));
}

TEST_CASE("sm stall classification memory latency raw exec busy and mshr full", "[sm]") {
  SECTION("a warp waiting on global loads is a memory-latency stall") {
    SmHarness h(make_config(fermi_like(1)), 200);
    KernelDesc k = alu_kernel(32, 200, 1);
    k.ldst_permille = 1000;
    h.start(0, k, 0);
    const uint64_t cycles = h.run();
    CHECK(h.insts(0) == 200);
    CHECK(cycles > 200u * 200u);  // fully serialised loads
    CHECK(stall(h, 0, StallReason::kMemLatency) > cycles * 95 / 100);
    CHECK(stall(h, 0, StallReason::kRaw) == 0);
  }
  SECTION("busy SFU port is an exec-busy stall") {
    SmHarness h(make_config(fermi_like(1)), 200);
    KernelDesc k = alu_kernel(1024, 200, 0);  // 32 independent warps of SFU instructions
    k.sfu_permille = 1000;
    h.start(0, k, 0);
    const uint64_t cycles = h.run();
    // sfu_lanes 4: a warp instruction holds the SFU 8 cycles.
    CHECK(double(cycles) == Approx(32.0 * 200 * 8).epsilon(0.02));
    CHECK(stall(h, 0, StallReason::kExecBusy) == Approx(double(cycles) * 7 / 8).epsilon(0.02));
  }
  SECTION("refused accesses are mshr-full stalls") {
    SmHarness h(make_config(fermi_like(1)), 100, /*mshrs=*/2);
    KernelDesc k = alu_kernel(256, 100, 0);
    k.ldst_permille = 1000;
    k.lines_per_access = 4;
    h.start(0, k, 0);
    h.run();
    CHECK(h.insts(0) == 8u * 100u);
    CHECK(h.mem.refused > 0);
    CHECK(h.mem.accesses == 8u * 100u * 4u);
    CHECK(stall(h, 0, StallReason::kMshrFull) > 0);
  }
}

TEST_CASE("sm stall is memory latency only when every warp waits on a load", "[sm]") {
  // One scheduler: warp A (kernel 0, oldest) does nothing but dependent loads, warp B (kernel 1)
  // dependent ALU work. While B runs, idle cycles are RAW stalls (B is not waiting on memory);
  // once B is done they are memory-latency stalls. Both are charged to the oldest warp's kernel.
  SmHarness h(make_config(fermi_like(1)), 199);  // 200-cycle load round trip
  KernelDesc a = alu_kernel(32, 100, 1);
  a.ldst_permille = 1000;
  const KernelDesc b = alu_kernel(32, 1000, 1);  // 1000 x 10 cycles
  h.start(0, a, 0);
  h.start(1, b, 0);
  const uint64_t cycles = h.run();
  CHECK(cycles == Approx(100 * 200).epsilon(0.02));
  CHECK(stall(h, 0, StallReason::kRaw) == Approx(10000 - 1000 - 50).epsilon(0.02));
  CHECK(stall(h, 0, StallReason::kMemLatency) == Approx(cycles - 10000 - 50).epsilon(0.02));
  CHECK(stall(h, 1, StallReason::kRaw) == 0);
}

TEST_CASE("sm global access sends lines_per_access lines one per cycle and loads block dependents", "[sm]") {
  SmHarness h(make_config(fermi_like(1)), 50);
  KernelDesc k = alu_kernel(32, 10, 1);
  k.ldst_permille = 1000;
  k.lines_per_access = 8;
  h.start(0, k, 0);
  const uint64_t cycles = h.run();
  CHECK(h.mem.accesses == 80);
  std::set<uint64_t> distinct(h.mem.lines.begin(), h.mem.lines.end());
  CHECK(distinct.size() == 80);  // streaming: no line touched twice
  // Each load: 8 cycles to send, the last line back 51 cycles later.
  CHECK(cycles >= 10u * (7 + 51));
}

TEST_CASE("sm stores do not block dependents but the CTA waits for them", "[sm]") {
  SmHarness h(make_config(fermi_like(1)), 500);
  KernelDesc k = alu_kernel(32, 1000, 1);
  k.ldst_permille = 1000;
  k.store_permille = 1000;
  h.start(0, k, 0);
  const uint64_t cycles = h.run();
  CHECK(h.mem.writes == 1000);
  REQUIRE(h.records.size() == 1);
  // One store per cycle through the LD/ST unit, then the last store's 500-cycle round trip.
  CHECK(h.records[0].end_cycle >= 1000 + 500);
  CHECK(cycles < 1000 + 500 + 20);
}

TEST_CASE("sm shared-memory ops use the LD/ST port and shared latency", "[sm]") {
  SmHarness h(make_config(fermi_like(1)), 100);
  KernelDesc k = alu_kernel(32, 1000, 1);
  k.shmem_permille = 1000;
  h.start(0, k, 0);
  const uint64_t cycles = h.run();
  CHECK(double(cycles) == Approx(1000.0 * 24).epsilon(0.02));  // shmem_latency 24, dep 1
  CHECK(h.mem.accesses == 0);
}

TEST_CASE("sm start_cta over capacity throws an invariant error", "[sm]") {
  SmTypeConfig t = fermi_like(2);
  t.max_threads = 1024;
  t.max_warps = 32;
  t.max_ctas = 3;
  t.registers = 16384;
  t.shared_mem_bytes = 16384;
  SmHarness h(make_config(t), 100);
  SECTION("threads") {
    const KernelDesc k = alu_kernel(512, 10, 1);
    h.start(0, k, 0);
    h.start(0, k, 1);
    CHECK_FALSE(h.sm().fits(cta_resources(k, h.cfg)));
    CHECK_THROWS_AS(h.start(0, k, 2), InvariantError);
  }
  SECTION("registers") {
    KernelDesc k = alu_kernel(128, 10, 1);
    k.regs_per_thread = 64;  // 8192 registers per CTA
    h.start(0, k, 0);
    h.start(0, k, 1);
    CHECK_THROWS_AS(h.start(0, k, 2), InvariantError);
  }
  SECTION("shared memory") {
    KernelDesc k = alu_kernel(64, 10, 1);
    k.shmem_per_cta = 6000;
    h.start(0, k, 0);
    h.start(0, k, 1);
    CHECK_THROWS_AS(h.start(0, k, 2), InvariantError);
    CHECK(h.sm().used().shmem == 12032);  // rounded to 128 B
  }
  SECTION("CTA slots") {
    const KernelDesc k = alu_kernel(32, 10, 1);
    for (CtaId c = 0; c < 3; ++c) h.start(0, k, c);
    CHECK(h.sm().resident_ctas(0) == 3);
    CHECK_THROWS_AS(h.start(0, k, 3), InvariantError);
    h.run();
    CHECK(h.sm().used().ctas == 0);
    CHECK(h.sm().used().regs == 0);
    CHECK(h.sm().fits(cta_resources(k, h.cfg)));
  }
}

TEST_CASE("sm shared-memory carve-out is chosen by the first CTA and fixed while resident", "[sm]") {
  SmTypeConfig t = fermi_like(2);
  t.shared_mem_bytes = 48 * 1024;
  t.shared_mem_options = {16 * 1024, 32 * 1024, 48 * 1024};
  t.max_ctas = 16;
  SmHarness h(make_config(t), 100);
  KernelDesc big = alu_kernel(64, 10, 1);
  big.shmem_per_cta = 24 * 1024;
  KernelDesc small = alu_kernel(64, 10, 1);
  small.shmem_per_cta = 8 * 1024;
  CHECK(h.sm().fits(cta_resources(big, h.cfg)));  // an empty SM can be configured to 32 KB
  h.start(0, big, 0);
  CHECK(h.sm().fits(cta_resources(small, h.cfg)));  // 24 + 8 <= 32 KB
  h.start(1, small, 0);
  CHECK_FALSE(h.sm().fits(cta_resources(small, h.cfg)));  // 40 KB > 32 KB carve-out
  h.run();
  // Empty again: the next first CTA picks the default 16 KB configuration.
  h.start(1, small, 1);
  h.start(1, small, 2);
  CHECK_FALSE(h.sm().fits(cta_resources(small, h.cfg)));
}

TEST_CASE("sm CTAs of different kernels share an SM with per-kernel counters", "[sm]") {
  SmHarness h(make_config(fermi_like(2)), 100);
  const KernelDesc a = alu_kernel(128, 500, 2);
  KernelDesc b = alu_kernel(64, 300, 2);
  b.ldst_permille = 200;
  h.start(0, a, 0);
  h.start(2, b, 0);
  h.run();
  CHECK(h.insts(0) == 4u * 500u);
  CHECK(h.insts(2) == 2u * 300u);
  CHECK(h.counters.at(0, 0).ctas_started == 1);
  CHECK(h.counters.at(0, 2).ctas_finished == 1);
  CHECK(h.counters.at(0, 1).insts_issued == 0);
  REQUIRE(h.events.size() == 2);
  for (const SmEvent& e : h.events) CHECK(e.type == SmEventType::kCtaFinished);
}

TEST_CASE("sm is deterministic for a seed", "[sm]") {
  auto run = [](uint64_t seed) {
    SmTypeConfig t = fermi_like(2);
    SmHarness h(make_config(t), 120, 8, 4, seed);
    KernelDesc k = alu_kernel(256, 400, 3);
    k.ldst_permille = 150;
    k.sfu_permille = 50;
    k.shmem_permille = 100;
    k.store_permille = 300;
    k.cta_spread_pct = 30;
    k.pattern = MemPattern::kRandom;
    k.lines_per_access = 2;
    for (CtaId c = 0; c < 4; ++c) h.start(0, k, c);
    h.run();
    std::vector<uint64_t> out;
    for (const CtaRecord& r : h.records) out.insert(out.end(), {r.cta, r.start_cycle, r.end_cycle});
    const KernelSmCounters& c = h.counters.at(0, 0);
    out.insert(out.end(), c.stall_cycles, c.stall_cycles + int(StallReason::kCount));
    out.push_back(c.insts_issued);
    out.insert(out.end(), h.mem.lines.begin(), h.mem.lines.end());
    return out;
  };
  CHECK(run(5) == run(5));
  CHECK(run(5) != run(6));
}

TEST_CASE("sm warp-slot groups: a scheduler serves one group and loses a cycle to switch", "[sm][heterocore]") {
  // HeteroCore Sec. 3.2 (SmTypeConfig::warp_group_slots). One GTO scheduler, one CTA of four
  // warps, dependent ALU instructions of latency 4: each warp can issue every 4th cycle.
  auto run = [](uint32_t group_slots) {
    SmTypeConfig t = fermi_like(1, WarpSchedPolicy::kGto);
    t.alu_latency = 4;
    t.warp_group_slots = group_slots;
    SmHarness h(make_config(t), 100);
    h.start(0, alu_kernel(128, 1000, 1), 0);
    const uint64_t cycles = h.run();
    REQUIRE(h.insts(0) == 4u * 1000u);
    return cycles;
  };
  const uint64_t one_group = run(0);
  // four warps keep the issue slot busy
  CHECK(4000.0 / double(one_group) == Approx(1.0).epsilon(0.02));
  // slots 0-3 all in the first group: the same run, cycle for cycle
  CHECK(run(4) == one_group);
  CHECK(run(8) == one_group);
  // slots 0-1 | 2-3: two warps issue, neither is ready in the third cycle, the scheduler moves
  // to the other group (a lost cycle) and issues its two: 2 issues per 3 cycles
  const uint64_t two_groups = run(2);
  CHECK(4000.0 / double(two_groups) == Approx(2.0 / 3.0).epsilon(0.03));
}

TEST_CASE("config: warp_group_slots must leave a second group", "[sm][heterocore][config]") {
  GpuConfig cfg = load_gpu_config("heterocore");
  CHECK(cfg.sm_types[0].name == "big");
  CHECK(cfg.sm_types[0].warp_group_slots == 48);  // the baseline SM's warp slots (Table 1)
  CHECK(cfg.sm_types[1].warp_group_slots == 0);
  CHECK_THROWS_WITH(load_gpu_config("heterocore", {"sm_types[0].warp_group_slots=72"}),
                    Catch::Contains("warp_group_slots") && Catch::Contains("max_warps"));
}
