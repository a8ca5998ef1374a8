// gsched cosim: one co-simulation case (see cosim_runner.hpp).
#include "cosim/cosim_runner.hpp"

#include <algorithm>

#include "common/error.hpp"
#include "gpu/gpu.hpp"
#include "rtl_sched/lockstep_scheduler.hpp"
#include "sched/golden/golden_scheduler.hpp"

namespace gs::cosim {

const char* outcome_name(Outcome o) {
  switch (o) {
    case Outcome::kPass: return "pass";
    case Outcome::kMismatch: return "MISMATCH";
    case Outcome::kInvariant: return "INVARIANT";
    case Outcome::kWatchdog: return "WATCHDOG";
    case Outcome::kInputError: return "INPUT-ERROR";
  }
  return "?";
}

CaseResult run_case(const GpuConfig& cfg, const Mix& mix, const SchedOptions& opt, const SchedMaker& make,
                    uint64_t max_cycles) {
  CaseResult r;
  std::unique_ptr<SchedulerPort> sched;
  std::unique_ptr<Gpu> gpu;
  auto stats = [&] {
    if (gpu) r.cycles = gpu->cycle();
    if (const auto* ls = dynamic_cast<const LockstepScheduler*>(sched.get()))
      r.decisions_checked = ls->checker().decisions_checked();
  };
  try {
    sched = make(opt);
    RunOptions ro;
    ro.seed = opt.seed;
    ro.max_cycles = max_cycles;
    ro.sched = opt;
    gpu = std::make_unique<Gpu>(cfg, mix, *sched, ro);
    gpu->run();
  } catch (const CheckMismatch& e) {
    r.outcome = Outcome::kMismatch;
    r.message = e.what();
  } catch (const InvariantError& e) {
    r.outcome = Outcome::kInvariant;
    r.message = e.what();
  } catch (const WatchdogError& e) {
    r.outcome = Outcome::kWatchdog;
    r.message = e.what();
  } catch (const InputError& e) {
    r.outcome = Outcome::kInputError;
    r.message = e.what();
  }
  stats();
  return r;
}

GpuConfig case_config(GpuConfig cfg) {
  spec::apply_regression_settings(cfg.settings);  // each setting's `regression` in the registry
  return cfg;
}

GpuConfig case_config_for(const std::string& policy, const GpuConfig& cfg) {
  const spec::PolicyInfo& p = spec::kPolicies[static_cast<uint8_t>(parse_policy(policy))];
  if (!p.sm_types) return cfg;
  for (uint32_t s = 0; s < cfg.num_sms(); ++s)
    if (cfg.sm_is_big(s)) return cfg;
  return case_config(load_gpu_config(p.regression_config));
}

MixGenOptions case_mix_options(const std::string& policy, MixGenOptions gen) {
  const spec::PolicyInfo& p = spec::kPolicies[static_cast<uint8_t>(parse_policy(policy))];
  if (p.regression_mix.any()) {  // the entry's own bounds (its regression_mix)
    const spec::RegressionMix& m = p.regression_mix;
    if (m.min_kernels) gen.min_kernels = m.min_kernels;
    if (m.max_kernels) gen.max_kernels = m.max_kernels;
    if (m.max_grid) gen.max_grid = m.max_grid;
    if (m.max_insts_per_warp) gen.max_insts_per_warp = m.max_insts_per_warp;
    if (m.max_arrival) gen.max_arrival = m.max_arrival;
    return gen;
  }
  if (!p.observes) return gen;
  gen.max_kernels = std::min<uint32_t>(gen.max_kernels, spec::WfMaxKernels);
  gen.min_kernels = std::min(gen.min_kernels, gen.max_kernels);
  gen.max_grid = 600;
  gen.max_insts_per_warp = 40;
  gen.max_arrival = 1000;
  return gen;
}

}  // namespace gs::cosim
