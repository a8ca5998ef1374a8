// SBM's profiling phases as a run reports them: each phase's configuration is a partition record
// and its window's measured instructions a window record after it (gsim run's "window" lines
// and JSON "windows", docs/cli.md "Policy reports"). The records must be exactly what
// gs_sbm_ctrl decided on: replayed through a fresh golden SbmCtrl, they give the same sequence
// of configurations and the same final SBM_REG the run put in force.
#include <catch2/catch.hpp>

#include <algorithm>
#include <memory>

#include "config/gpu_config.hpp"
#include "gpu/gpu.hpp"
#include "metrics/ewm.hpp"
#include "sched/golden/golden_scheduler.hpp"
#include "sched/golden/gs_policy_sbm.hpp"
#include "sched/golden/gs_sbm_ctrl.hpp"
#include "sched/golden/gs_sbm_smc.hpp"
#include "sched/scheduler_port.hpp"
#include "workload/kernel_desc.hpp"
#include "test_support.hpp"

using namespace gs;

namespace {
/// sbm on sbm-gcn32 with fw and hist for `window` cycles: a phase's warm-up and sample are set
/// set by the caller on cfg before the Gpu is built.
struct SbmRun {
  GpuConfig cfg = load_gpu_config("sbm-gcn32");
  Mix mix;
  RunOptions ro;
  std::unique_ptr<SchedulerPort> sched;
  explicit SbmRun(const char* name) : mix(test::window_mix(name, {"sbm.fw.128x1", "sbm.hist.128x1"}, 150000)) {
    ro.sched.policy = "sbm";
    sched = make_scheduler("golden", ro.sched);
  }
};
}  // namespace

TEST_CASE("sbm: each profiling phase's measured window is on its partition and replays to SBM_REG", "[sbm]") {
  SbmRun run("sbm-phases-test");
  GpuConfig& cfg = run.cfg;
  const Mix& mix = run.mix;
  cfg.settings.sbm.warmup_cycles = 2000;
  cfg.settings.sbm.sample_cycles = 4000;
  Gpu gpu(cfg, mix, *run.sched, run.ro);
  const RunResult r = gpu.run();

  // each phase's configuration is a partition record, its window a window record after it
  const std::vector<Report> all = reports_of(r.records, mix);
  std::vector<std::pair<const Report*, const Report*>> measured;  // (partition, its window)
  const Report* in_force = nullptr;
  for (const Report& rep : all) {
    if (rep.kind() == spec::ReportKind::kPartition) in_force = &rep;
    if (rep.kind() != spec::ReportKind::kWindow) continue;
    REQUIRE(in_force != nullptr);
    measured.emplace_back(in_force, &rep);
  }
  // Algorithm 1 runs five phases (Base, B1_L12, B2_L12, B1_L2, B2_L2); Algorithm 2 at most four more
  REQUIRE(measured.size() >= 5);
  REQUIRE(measured.size() <= golden::SbmCtrl::kPhases);
  int64_t prev_to = 0;
  for (const auto& [p, w] : measured) {
    REQUIRE(w->rows("kernels").size() == 2);
    CHECK(test::row_kernel(*w, 0) == mix.kernels[0].kernel);  // task 1 is the mix's first kernel
    CHECK(test::cell(*w, 0, "insts") > 0);
    CHECK(test::cell(*w, 1, "insts") > 0);
    // the window opens after the warm-up and holds at least the sample length
    CHECK(test::int_field(*w, "to") - test::int_field(*w, "from") >= cfg.settings.sbm.sample_cycles);
    CHECK(test::int_field(*w, "from") > prev_to);
    prev_to = test::int_field(*w, "to");
  }

  // replay: the controller fed the recorded sums walks the same phases to the same SBM_REG
  const EwmChoice occ = ewm_choose(cfg, mix, RunOptions{});  // its occ1, occ2 are the OCC scan's counts
  golden::SbmCtrl ctrl;
  ctrl.reset();
  ctrl.next(true, occ.occ1, occ.occ2, false, 0, 0);
  ctrl.commit();
  using R = spec::PartitionReport;
  for (const auto& [p, w] : measured) {
    REQUIRE(ctrl.busy());
    const SbmReg phase = ctrl.cfg();
    INFO("phase " << golden::sbm_config_name(phase));
    CHECK(test::int_field(*p, "mode") == (golden::sbm_shared(phase) ? R::kModeShared : R::kModeSpatial));
    for (uint32_t t = 0; t < 2; ++t)  // the task that is not $F bypasses in B_L2, B_L12, MWGB
      CHECK(test::cell(*p, t, "bypass") == int64_t(golden::sbm_level(phase, t)));
    if (golden::sbm_shared(phase)) {
      CHECK(test::cell(*p, 0, "ctas_per_sm") == golden::sbm_quota(phase, 0, occ.occ1));
      CHECK(test::cell(*p, 1, "ctas_per_sm") == golden::sbm_quota(phase, 1, occ.occ2));
    }
    for (bool ack = false; !ack;) {  // the result held until the controller has decided
      ack = ctrl.ack();
      ctrl.next(false, occ.occ1, occ.occ2, true, uint64_t(test::cell(*w, 0, "insts")),
                uint64_t(test::cell(*w, 1, "insts")));
      ctrl.commit();
    }
  }
  REQUIRE(!ctrl.busy());
  // the configuration in force at the end is the replayed SBM_REG
  REQUIRE(!all.empty());
  const Report& last = all.back();
  CHECK(last.kind() == spec::ReportKind::kPartition);
  const SbmReg fin = ctrl.cfg();
  CHECK(test::int_field(last, "mode") == (golden::sbm_shared(fin) ? R::kModeShared : R::kModeSpatial));
  if (golden::sbm_shared(fin)) {
    CHECK(test::cell(last, 0, "ctas_per_sm") == golden::sbm_quota(fin, 0, occ.occ1));
    CHECK(test::cell(last, 1, "ctas_per_sm") == golden::sbm_quota(fin, 1, occ.occ2));
  }
}

TEST_CASE("sbm: the chunked window sums equal the counters' per-task sums", "[sbm]") {
  // a window long enough that a task's sum passes 2**ArithChunkW: a carry crosses a chunk
  SbmRun run("sbm-sums-test");
  run.cfg.settings.sbm.warmup_cycles = 2000;
  run.cfg.settings.sbm.sample_cycles = 8000;
  Gpu gpu(run.cfg, run.mix, *run.sched, run.ro);
  const auto& twin = dynamic_cast<const golden::PolicySbm&>(
      dynamic_cast<const GoldenScheduler&>(*run.sched).policy_twin());
  golden::PolicySbm::St prev = golden::PolicySbm::St::kIdle;
  uint32_t phases = 0;
  uint64_t most = 0;
  while (phases < 2 && gpu.step()) {
    const auto& q = twin.q;
    if (prev == golden::PolicySbm::St::kSumCarry && q.st == golden::PolicySbm::St::kRes) {  // the sums are final
      ++phases;
      // the counters are frozen since the window closed: each task's sum over every SM
      const uint64_t s1 = twin.prof.acc(q.slot1), s2 = twin.prof.acc(q.slot2);
      CHECK(q.sum1 == s1);
      CHECK(q.sum2 == s2);
      most = std::max({most, s1, s2});
    }
    prev = q.st;
  }
  REQUIRE(phases == 2);
  CHECK(most > (uint64_t(1) << spec::ArithChunkW));
}

TEST_CASE("sbm: a window whose instructions over every SM could pass a task's sum is refused", "[sbm]") {
  // 40M cycles x 4 schedulers fits one SM's count; x 32 SMs x 4 passes 2**ProfCntW - 1
  SbmRun run("sbm-window-test");
  run.cfg.settings.sbm.sample_cycles = 40000000;
  run.ro.max_cycles = 100000000;
  const std::string m = test::input_error_of([&] { Gpu gpu(run.cfg, run.mix, *run.sched, run.ro); });
  CHECK(m.find("sbm.sample_cycles") != std::string::npos);
  CHECK(m.find("every SM") != std::string::npos);
  run.cfg.settings.sbm.sample_cycles = 8000000;  // x 128 schedulers fits
  CHECK(test::input_error_of([&] { Gpu gpu(run.cfg, run.mix, *run.sched, run.ro); }).empty());
}
