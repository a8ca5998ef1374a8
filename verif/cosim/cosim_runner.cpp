// gsched cosim: one co-simulation case (see cosim_runner.hpp).
#include "cosim/cosim_runner.hpp"

#include "common/error.hpp"
#include "gpu/gpu.hpp"
#include "rtl_sched/lockstep_scheduler.hpp"

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

}  // namespace gs::cosim
