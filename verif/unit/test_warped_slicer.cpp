// The warped-slicer policy's golden twin (cmodel/sched/golden/gs_policy_warped_slicer.hpp) in a
// real run of the GPU model: the profile it measures, the partition it computes and the quotas
// the framework then holds (docs/rtl/gs_policy_warped_slicer.md).
#include <catch2/catch.hpp>

#include "common/error.hpp"
#include "config/gpu_config.hpp"
#include "gpu/gpu.hpp"
#include "gpu/occupancy.hpp"
#include "sched/golden/golden_scheduler.hpp"
#include "sched/golden/gs_policy_warped_slicer.hpp"
#include "workload/kernel_desc.hpp"
#include "test_support.hpp"

using namespace gs;
using golden::PolicyWarpedSlicer;

namespace {

Mix mix_of(const std::vector<std::string>& names, uint32_t grid) {
  const auto lib = load_kernel_library();
  Mix mix;
  mix.name = "ws-test";
  for (const auto& n : names) {
    MixEntry e;
    e.kernel = n;
    e.desc = find_kernel(lib, n);
    e.grid_ctas = grid;
    mix.kernels.push_back(e);
  }
  return mix;
}

struct Partition {
  bool reached = false;
  uint32_t rounds = 0;  // profile rounds seen (SETUP entries of one profile)
  uint64_t cycle = 0;
};

/// Runs until the twin has partitioned the whole set of `mix` (state IDLE, done = every slot of
/// the mix) after a profile, recording how many profile rounds it took.
Partition run_until_partitioned(Gpu& gpu, const GoldenScheduler& g, uint32_t kernels) {
  const auto& twin = dynamic_cast<const PolicyWarpedSlicer&>(g.policy_twin());
  Partition p;
  PolicyWarpedSlicer::St last_st = PolicyWarpedSlicer::St::kIdle;
  const uint32_t all = (1u << kernels) - 1;
  while (gpu.step() && gpu.cycle() < 3'000'000) {
    const PolicyWarpedSlicer::St st = twin.q.st;
    if (st == PolicyWarpedSlicer::St::kOcc) p.rounds = 0;
    if (st == PolicyWarpedSlicer::St::kSetup && last_st != PolicyWarpedSlicer::St::kSetup) ++p.rounds;
    last_st = st;
    if (st == PolicyWarpedSlicer::St::kIdle && twin.q.done == all && twin.q.prof_ok == all) {
      p.reached = true;
      p.cycle = gpu.cycle();
      return p;
    }
  }
  return p;
}

}  // namespace

TEST_CASE("warped-slicer: profile, water-fill and quotas in a run", "[sched][warped-slicer]") {
  GpuConfig cfg = load_gpu_config("warped-slicer");  // 16 SMs of 8 CTA slots
  cfg.settings.warped_slicer.warmup_cycles = 3000;
  cfg.settings.warped_slicer.sample_cycles = 3000;

  SECTION("two kernels on 16 SMs: one round, the partition is Algorithm 1's on the measured curves") {
    const Mix mix = mix_of({"IMG", "HOT"}, 4000);
    RunOptions ro;
    ro.sched.policy = "warped-slicer";
    auto sched = make_scheduler("golden", ro.sched);
    Gpu gpu(cfg, mix, *sched, ro);
    const auto& g = dynamic_cast<const GoldenScheduler&>(*sched);
    const Partition p = run_until_partitioned(gpu, g, 2);
    REQUIRE(p.reached);
    CHECK(p.rounds == 1);  // 8 SMs per kernel measure 1..8 CTAs at once
    // warm-up + sample, on 1000-cycle epochs, bound when the partition can be final
    CHECK(p.cycle > 6000);
    const auto& twin = dynamic_cast<const PolicyWarpedSlicer&>(g.policy_twin());
    // N_k is the kernel's occupancy on SM 0 (IMG: its 8 CTA slots; HOT: registers, 3)
    for (uint32_t k = 0; k < 2; ++k) CHECK(twin.q.nsteps[k] == occupancy(mix.kernels[k].desc, cfg, cfg.sm(0)).max_ctas);
    CHECK(twin.q.nsteps[0] == 8);
    // the water-filler saw the stored profile: Algorithm 1 read straight gives the same answer
    golden::WfInputs in;
    const SmTypeConfig& sm = cfg.sm(0);
    in.avail = WfRes{sm.max_threads, sm.max_warps, sm.registers, sm.shared_mem_bytes, sm.max_ctas};
    for (uint32_t k = 0; k < 2; ++k) {
      const CtaResources r = cta_resources(mix.kernels[k].desc, cfg);
      in.k[k].cta = WfRes{r.threads, r.warps, r.regs, r.shmem, 1};
      in.k[k].nsteps = twin.q.nsteps[k];
      for (uint32_t j = 1; j <= in.k[k].nsteps; ++j) {
        in.k[k].perf[j - 1] = twin.perf_at(k, j);
        CHECK(twin.perf_at(k, j) > 0);  // every count was measured: its SM issued instructions
      }
    }
    const golden::WfResult ref = golden::waterfill_reference(in);
    CHECK(ref.spatial == twin.wf.q.spatial);
    for (uint32_t k = 0; k < 2; ++k) CHECK(ref.ctas[k] == twin.wf.q.ctas[k]);
    // gsim run's partition record (SchedulerPort::records) names the same partition
    REQUIRE(g.records() != nullptr);
    const std::vector<Report> parts = test::reports_of_kind(*g.records(), spec::ReportKind::kPartition, mix);
    REQUIRE_FALSE(parts.empty());
    const Report& last = parts.back();
    using R = spec::PartitionReport;
    CHECK(test::int_field(last, "mode") == (twin.wf.q.spatial ? R::kModeSpatial : R::kModeShared));
    REQUIRE(last.rows("kernels").size() == 2);
    for (uint32_t k = 0; k < 2; ++k) {
      CHECK(test::row_kernel(last, k) == mix.kernels[k].kernel);  // slots 0, 1 hold mix kernels 0, 1
      if (!twin.wf.q.spatial) CHECK(test::cell(last, k, "ctas_per_sm") == twin.wf.q.ctas[k]);
      CHECK(test::cell(last, k, "bypass") == -1);  // warped-slicer bypasses nothing: no column
    }
    // the partition fits one SM, and every SM holds it as its quotas
    if (!twin.wf.q.spatial) {
      uint64_t threads = 0, slots = 0;
      for (uint32_t k = 0; k < 2; ++k) {
        threads += uint64_t(twin.wf.q.ctas[k]) * in.k[k].cta.threads;
        slots += twin.wf.q.ctas[k];
      }
      CHECK(threads <= sm.max_threads);
      CHECK(slots <= sm.max_ctas);
      const auto& quota = g.quota_table().q.quota;
      for (uint32_t s = 0; s < cfg.num_sms(); ++s)
        for (uint32_t k = 0; k < 2; ++k) CHECK(quota[s * cfg.max_active_kernels + k] == twin.wf.q.ctas[k]);
    }
  }

  SECTION("three kernels of 8 CTAs on 16 SMs: 5 rows per round, two rounds (Sec. IV-A time sharing)") {
    const Mix mix = mix_of({"IMG", "DXT", "BLK"}, 4000);
    RunOptions ro;
    ro.sched.policy = "warped-slicer";
    auto sched = make_scheduler("golden", ro.sched);
    Gpu gpu(cfg, mix, *sched, ro);
    const auto& g = dynamic_cast<const GoldenScheduler&>(*sched);
    const Partition p = run_until_partitioned(gpu, g, 3);
    REQUIRE(p.reached);
    const auto& twin = dynamic_cast<const PolicyWarpedSlicer&>(g.policy_twin());
    CHECK(twin.q.rows == 5);
    CHECK(p.rounds == (twin.q.maxn + 4) / 5);
    for (uint32_t k = 0; k < 3; ++k)
      for (uint32_t j = 1; j <= twin.q.nsteps[k]; ++j) CHECK(twin.perf_at(k, j) > 0);
  }

  SECTION("the phase monitor (Sec. IV-B): a sustained change profiles the set again, none does not") {
    const Mix mix = mix_of({"IMG", "NN"}, 3000);
    uint64_t max_sum = 0;  // the largest window sum seen
    for (uint32_t pct : {1u, 255u}) {
      GpuConfig c = cfg;
      c.settings.warped_slicer.phase_change_pct = pct;
      c.settings.warped_slicer.phase_windows = 2;
      RunOptions ro;
      ro.sched.policy = "warped-slicer";
      auto sched = make_scheduler("golden", ro.sched);
      Gpu gpu(c, mix, *sched, ro);
      const auto& g = dynamic_cast<const GoldenScheduler&>(*sched);
      const auto& twin = dynamic_cast<const PolicyWarpedSlicer&>(g.policy_twin());
      uint32_t profiles = 0, compares = 0;
      PolicyWarpedSlicer::St last = PolicyWarpedSlicer::St::kIdle;
      bool both = false;
      while (gpu.step()) {
        if (twin.q.target == 3u) both = true;
        else if (both) break;  // only while both kernels have CTAs to issue
        // a profile starts at its first kernel's OCC_LD (the others' follow an OCC)
        if (twin.q.st == PolicyWarpedSlicer::St::kOccLd && last != PolicyWarpedSlicer::St::kOcc &&
            last != PolicyWarpedSlicer::St::kOccLd)
          ++profiles;
        if (twin.q.st == PolicyWarpedSlicer::St::kMonCmp && last != PolicyWarpedSlicer::St::kMonCmp) {
          // the chunked sums (carries a cycle later) are the counters' per-kernel sums, and the
          // chunked verdict is |sum - ref| x 100 > pct x ref in plain arithmetic
          bool changed = false;
          for (uint32_t k = 0; k < twin.q.nk; ++k) {
            const uint64_t sum = twin.prof.acc(twin.q.order[k]);  // the kernel's sum over every SM
            CHECK(twin.q.sum_insts[k] == sum);
            max_sum = std::max(max_sum, sum);
            const uint64_t ref = twin.q.ref_insts[k];
            changed |= (sum > ref ? sum - ref : ref - sum) * 100 > uint64_t(pct) * ref;
          }
          if (twin.q.ref_valid) CHECK(twin.q.mon_chg == changed);
          ++compares;
        }
        last = twin.q.st;
      }
      INFO("phase_change_pct " << pct << ": " << profiles << " profiles, " << compares << " window compares");
      CHECK(compares >= 3);                // the reference and at least two windows
      if (pct == 1) CHECK(profiles >= 2);  // IPC moves by more than 1% between 3000-cycle windows
      else CHECK(profiles == 1);           // never by 255%
    }
    CHECK(max_sum >> spec::ArithChunkW);  // some sum carried out of its low chunk
  }

  SECTION("the algorithm delay (Sec. V-H) holds the partition back by the configured cycles") {
    const Mix mix = mix_of({"IMG", "HOT"}, 4000);
    uint64_t at[2] = {0, 0};
    for (uint32_t delay : {0u, 5000u}) {
      GpuConfig c = cfg;
      c.settings.warped_slicer.partition_delay_cycles = delay;
      RunOptions ro;
      ro.sched.policy = "warped-slicer";
      auto sched = make_scheduler("golden", ro.sched);
      Gpu gpu(c, mix, *sched, ro);
      const auto& g = dynamic_cast<const GoldenScheduler&>(*sched);
      bool delayed = false;
      const auto& twin = dynamic_cast<const PolicyWarpedSlicer&>(g.policy_twin());
      // until the pair's partition (a lone IMG's may come first when the pair's second kernel
      // arrives after the restart's decision)
      const auto pair_at = [&]() -> const PolicyRecord* {
        for (const PolicyRecord& p : *g.records())
          if (p.kind == spec::ReportKind::kPartition && p.slots == 3u) return &p;
        return nullptr;
      };
      while (gpu.step() && !pair_at()) delayed |= twin.q.st == PolicyWarpedSlicer::St::kDelay;
      REQUIRE(pair_at() != nullptr);
      at[delay != 0] = pair_at()->cycle;
      CHECK(delayed == (delay != 0));
    }
    // the same profile, then 5000 cycles counted on 1000-cycle epochs: 5000..7000 cycles later
    CHECK(at[1] >= at[0] + 5000);
    CHECK(at[1] <= at[0] + 7000);
  }

  SECTION("a lone kernel runs without limit and without a profile") {
    const Mix mix = mix_of({"HOT"}, 64);
    RunOptions ro;
    ro.sched.policy = "warped-slicer";
    auto sched = make_scheduler("golden", ro.sched);
    Gpu gpu(cfg, mix, *sched, ro);
    const auto& g = dynamic_cast<const GoldenScheduler&>(*sched);
    const auto& twin = dynamic_cast<const PolicyWarpedSlicer&>(g.policy_twin());
    bool profiled = false;
    while (gpu.step()) profiled |= twin.q.st == PolicyWarpedSlicer::St::kOcc;
    CHECK_FALSE(profiled);
    CHECK(twin.q.mode == PolicyWarpedSlicer::Mode::kAlone);
  }
}

TEST_CASE("warped-slicer: a window that could overflow the performance table is refused", "[sched][warped-slicer]") {
  GpuConfig cfg = load_gpu_config("warped-slicer");
  cfg.settings.warped_slicer.sample_cycles = 1u << 20;  // x 2 schedulers > 2^20 - 1 instructions
  const Mix mix = mix_of({"IMG", "HOT"}, 64);
  RunOptions ro;
  ro.sched.policy = "warped-slicer";
  auto sched = make_scheduler("golden", ro.sched);
  try {
    Gpu gpu(cfg, mix, *sched, ro);
    FAIL("no error");
  } catch (const InputError& e) {
    CHECK(std::string(e.what()).find("warped_slicer.sample_cycles") != std::string::npos);
  }
}
