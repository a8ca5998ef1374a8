// gsched: EWM, SBM's standalone-profiling baseline (contract in ewm.hpp).
#include "metrics/ewm.hpp"
#include "metrics/mix_strategy.hpp"

#include <cstdio>

#include <map>
#include <string>

#include "common/error.hpp"
#include "gpu/occupancy.hpp"
#include "sched/golden/gs_sbm_smc.hpp"

namespace gs {

namespace {

/// Instructions task `entry` retires alone with `cap` CTAs per SM over `window` cycles.
uint64_t alone_insts(const GpuConfig& cfg, const MixEntry& entry, uint32_t cap, uint64_t window,
                     const RunOptions& run_opt) {
  Mix windowed;
  windowed.window_cycles = window;
  const Mix mix = alone_mix(windowed, entry);
  SchedOptions opt;
  opt.policy = kAlonePolicy;
  opt.cta_limit = cap;
  opt.seed = run_opt.sched.seed;
  RunOptions run = run_opt;
  run.sched = opt;
  run.on_cycle = nullptr;
  auto sched = make_scheduler("golden", opt);
  Gpu gpu(cfg, mix, *sched, run);
  const RunResult r = gpu.run();
  return r.kernels.at(0).instructions;
}

}  // namespace

EwmChoice ewm_choose(const GpuConfig& cfg, const Mix& mix, const RunOptions& run_opt) {
  const std::string where = mix.file.empty() ? mix.name : mix.file;
  if (mix.kernels.size() != 2)
    throw InputError(where, "kernels",
                     "policy " + std::string(kEwmPolicy) + " maps two tasks (SBM's pairs); this mix has " +
                         std::to_string(mix.kernels.size()));
  const uint64_t warm = cfg.settings.sbm.warmup_cycles, sample = cfg.settings.sbm.sample_cycles;
  const GpuConfig rc = run_config(cfg, mix);
  EwmChoice out;
  out.occ1 = occupancy(mix.kernels[0].desc, rc, rc.sm(0)).max_ctas;
  out.occ2 = occupancy(mix.kernels[1].desc, rc, rc.sm(0)).max_ctas;
  const uint32_t occ[2] = {out.occ1, out.occ2};

  std::map<std::pair<uint32_t, uint32_t>, uint64_t> measured;  // (task, cap) -> sample instructions
  auto insts = [&](uint32_t task, uint32_t cap) {
    auto it = measured.find({task, cap});
    if (it != measured.end()) return it->second;
    const MixEntry& e = mix.kernels[task];
    const uint64_t before = warm == 0 ? 0 : alone_insts(cfg, e, cap, warm, run_opt);
    const uint64_t v = alone_insts(cfg, e, cap, warm + sample, run_opt) - before;
    out.profiles.push_back({task, cap, v});
    return measured.emplace(std::make_pair(task, cap), v).first->second;
  };
  auto predicted = [&](const SbmReg& r) {
    return insts(0, golden::sbm_quota(r, 0, occ[0])) + insts(1, golden::sbm_quota(r, 1, occ[1]));
  };

  // Algorithm 2 (gs_sbm_ctrl.hpp, sbm_flow_reference) on standalone numbers
  SbmReg r{SbmArch::kMwg, false, false, 0};
  const uint64_t i1 = insts(0, golden::sbm_quota(r, 0, occ[0])), i2 = insts(1, golden::sbm_quota(r, 1, occ[1]));
  r.ci = i2 > i1;
  uint64_t best = i1 + i2;
  out.predicted.push_back(best);
  const uint32_t occ_ci = r.ci ? occ[1] : occ[0], occ_other = r.ci ? occ[0] : occ[1];
  uint32_t t_best = 0;
  for (uint32_t t = 1; t <= 3; ++t) {
    if (!((occ_other >> 1) > t && (occ_ci >> 1) + t <= occ_ci)) break;  // the occupancy limit
    SbmReg step = r;
    step.occ_th = t;
    const uint64_t p = predicted(step);
    out.predicted.push_back(p);
    if (!(p > best)) break;
    best = p;
    t_best = t;
  }
  r.occ_th = t_best;
  out.reg = r;
  return out;
}

MixRun run_ewm(const GpuConfig& cfg, const Mix& mix, const SchedOptions& sched_opt, const RunOptions& run_opt,
               AloneRunCache& cache, const CycleHook& hook, EwmChoice* choice) {
  RunOptions profile_run = run_opt;
  profile_run.sched = sched_opt;
  const EwmChoice c = ewm_choose(cfg, mix, profile_run);
  if (choice) *choice = c;
  SchedOptions opt = sched_opt;
  opt.policy = "mwg";
  opt.sbm_fixed_reg = c.reg;
  return run_mix_with_alone(cfg, mix, "golden", opt, run_opt, cache, hook);
}

}  // namespace gs

// ---- the analysis policy `ewm` (metrics/mix_strategy.hpp)
namespace gs {
namespace {

/// The standalone profiles and the SBM_REG they gave, after the table.
Report ewm_report(const EwmChoice& c, const Mix& mix) {
  Report rep(spec::ReportKind::kEwm);
  rep.set("arch", c.reg.arch)
      .set("ci", mix.kernels.at(c.reg.ci ? 1 : 0).kernel)
      .set("occ_th", c.reg.occ_th)
      .set("occupancy", std::vector<uint32_t>{c.occ1, c.occ2})
      .set("predicted", c.predicted);
  for (const EwmProfile& p : c.profiles)
    rep.add_row("profiles")
        .set("task", p.task + 1)
        .set("kernel", mix.kernels.at(p.task).kernel)
        .set("cap", p.cap)
        .set("insts", p.insts);
  return rep;
}

class EwmStrategy final : public MixStrategy {
 public:
  MixRun run(const StrategyRun& r, std::vector<Report>& reports) override {
    r.note("ewm: profiling both tasks standalone (sbm window of config " + r.cfg.name + ")");
    EwmChoice choice;
    MixRun result = run_ewm(r.cfg, r.mix, r.sched, r.run, r.cache, r.hook, &choice);
    reports.push_back(ewm_report(choice, r.mix));
    return result;
  }
};

}  // namespace

std::unique_ptr<MixStrategy> make_mix_strategy_ewm(const std::string&) { return std::make_unique<EwmStrategy>(); }

}  // namespace gs
