// SBM's EWM baseline (cmodel/metrics/ewm.hpp): standalone profiles, Algorithm 2 on them, and
// the shared run under golden mwg with the chosen SBM_REG.
#include <catch2/catch.hpp>

#include <map>

#include "common/error.hpp"
#include "config/gpu_config.hpp"
#include "config/limits.hpp"
#include "gpu/gpu.hpp"
#include "metrics/ewm.hpp"
#include "sched/golden/gs_sbm_smc.hpp"
#include "sched/scheduler_port.hpp"
#include "workload/kernel_desc.hpp"
#include "test_support.hpp"

using namespace gs;

namespace {

GpuConfig short_window_config() {
  GpuConfig cfg = load_gpu_config("sbm-gcn32");
  cfg.settings.sbm.warmup_cycles = 2000;
  cfg.settings.sbm.sample_cycles = 4000;
  return cfg;
}

/// Instructions of `e` alone under golden left-over capped at `cap` CTAs per SM over `window`.
uint64_t capped_alone(const GpuConfig& cfg, const MixEntry& e, uint32_t cap, uint64_t window) {
  Mix m;
  m.window_cycles = window;
  m.kernels.push_back(e);
  SchedOptions so;
  so.cta_limit = cap;
  RunOptions ro;
  ro.sched = so;
  auto sched = make_scheduler("golden", so);
  Gpu gpu(cfg, m, *sched, ro);
  return gpu.run().kernels.at(0).instructions;
}

}  // namespace

TEST_CASE("ewm: standalone profiles decide CI and occ_th by Algorithm 2", "[ewm][sbm]") {
  const GpuConfig cfg = short_window_config();
  const Mix mix = test::window_mix("ewm-test", {"sbm.fw.128x1", "sbm.mm.128x1"}, 0);
  const EwmChoice c = ewm_choose(cfg, mix, RunOptions{});
  CHECK(c.reg.arch == SbmArch::kMwg);
  CHECK(!c.reg.fcache);
  REQUIRE(c.occ1 > 1);
  REQUIRE(c.occ2 > 1);

  std::map<std::pair<uint32_t, uint32_t>, uint64_t> insts;
  for (const EwmProfile& p : c.profiles) {
    CHECK(insts.emplace(std::make_pair(p.task, p.cap), p.insts).second);  // each (task, cap) profiled once
    CHECK(p.insts > 0);
  }
  // a profile is the sample window's instructions of the task alone at that cap
  const EwmProfile& p0 = c.profiles.front();
  const MixEntry& e0 = mix.kernels[p0.task];
  CHECK(p0.insts == capped_alone(cfg, e0, p0.cap, 6000) - capped_alone(cfg, e0, p0.cap, 2000));

  // Algorithm 2 on those numbers: CI has more at the equal split; occ_th rises while the sum does
  const uint32_t occ[2] = {c.occ1, c.occ2};
  auto at = [&](uint32_t t, uint32_t task) {
    const SbmReg r{SbmArch::kMwg, false, c.reg.ci, t};
    return insts.at({task, golden::sbm_quota(r, task, occ[task])});
  };
  CHECK(c.reg.ci == (at(0, 1) > at(0, 0)));
  REQUIRE(!c.predicted.empty());
  uint32_t t_best = 0;
  for (uint32_t t = 0; t < c.predicted.size(); ++t) {
    CHECK(c.predicted[t] == at(t, 0) + at(t, 1));
    if (t > 0 && c.predicted[t] > c.predicted[t_best] && t_best == t - 1) t_best = t;
  }
  CHECK(c.reg.occ_th == t_best);
  CHECK(c.predicted.size() <= 4);
}

TEST_CASE("ewm: the shared run maps both tasks to the chosen quotas, golden only", "[ewm][sbm]") {
  const GpuConfig cfg = short_window_config();
  const Mix mix = test::window_mix("ewm-test", {"sbm.fw.128x1", "sbm.mm.128x1"}, 20000);
  AloneRunCache cache;
  EwmChoice c;
  const MixRun r = run_ewm(cfg, mix, SchedOptions{}, RunOptions{}, cache, {}, &c);
  const std::vector<Report> parts = test::reports_of_kind(r.shared.records, spec::ReportKind::kPartition, mix);
  REQUIRE(!parts.empty());
  const Report& p = parts.front();
  CHECK(test::int_field(p, "mode") == spec::PartitionReport::kModeShared);
  REQUIRE(p.rows("kernels").size() == 2);
  CHECK(test::row_kernel(p, 0) == "sbm.fw.128x1");
  CHECK(test::cell(p, 0, "ctas_per_sm") == golden::sbm_quota(c.reg, 0, c.occ1));
  CHECK(test::cell(p, 1, "ctas_per_sm") == golden::sbm_quota(c.reg, 1, c.occ2));
  CHECK(test::cell(p, 0, "bypass") == int64_t(BypassLevel::kNone));  // EWM maps, it does not bypass
  CHECK(test::cell(p, 1, "bypass") == int64_t(BypassLevel::kNone));
  CHECK(r.metrics.ipc > 0);

  // two tasks only; the SBM_REG goes with mwg only
  const Mix three = test::window_mix("ewm-test", {"sbm.fw.128x1", "sbm.mm.128x1", "sbm.hist.128x1"}, 20000);
  CHECK_THROWS_WITH(ewm_choose(cfg, three, RunOptions{}), Catch::Contains("two tasks"));
  SchedOptions bad;
  bad.policy = "srtf";
  bad.sbm_fixed_reg = c.reg;
  CHECK_THROWS_WITH(limits::check_scheduler_config(cfg, bad), Catch::Contains("sbm_fixed_reg"));
}
