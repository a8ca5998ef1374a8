// gsched: EWM, SBM's fine-grained baseline (Bitalebi et al., ../shared/seeds/003_*.txt, Sec. 6.1
// and 6.3: "EWM [16] statically profiles each task individually and then manages the workgroup
// mapping based on the profiled behavior of each task"; "EWM profiles each task separately at
// compile time").
//
// Our reading, chosen so that EWM and SBM differ in one thing only, where they profile:
//   * The mapping is SBM's shared one without bypassing (SBM_REG arch MWG): both tasks on every
//     SM, each held to its quota occ/2 +- occ_th (gs_sbm_smc.hpp, sbm_quota). EWM is a mapping
//     policy; the paper gives it no cache management.
//   * Profiling is standalone. Task x (x = 1, 2: the mix's kernels in order, as gs_policy_sbm
//     pairs them) runs alone on the whole GPU at each per-SM cap q that a quota can take,
//     under golden Left-Over with cta_limit q, over the SBM window (config sbm.warmup_cycles
//     then sbm.sample_cycles, relaunching as the fixed-window method does). Its instructions
//     in the sample part, I_x(q) = I(warm-up + sample) - I(warm-up), are what SBM's profiling
//     counters would count over the same window (the two runs are identical up to the
//     warm-up's end: the model is deterministic).
//   * The decision is SBM's Algorithm 2 (gs_sbm_ctrl.hpp) on those standalone numbers: the
//     computation-intensive task (CI) is the one with more instructions at the equal split
//     (occ_th 0, ties to task 1); occ_th steps up while the predicted sum I_ci + I_other
//     improves and the occupancy limit allows (at most 3). What EWM cannot see is each
//     task's effect on the other when they share the SMs (Sec. 3.1, Fig. 4).
// The shared run is golden mwg with that SBM_REG fixed (SchedOptions::sbm_fixed_reg). Golden
// only: gs_policy_sbm has no port for a given SBM_REG.
#pragma once
#include <cstdint>
#include <vector>

#include "metrics/mix_runner.hpp"

namespace gs {

constexpr const char* kEwmPolicy = "ewm";

/// One standalone profile: task (0: task 1) alone with `cap` CTAs per SM, the instructions of
/// its sample window.
struct EwmProfile {
  uint32_t task = 0;
  uint32_t cap = 0;
  uint64_t insts = 0;
};

/// EWM's decision and what it was made from.
struct EwmChoice {
  SbmReg reg;                   // arch MWG, fcache 0, ci, occ_th
  uint32_t occ1 = 0, occ2 = 0;  // each task's CTAs per SM alone (SM 0)
  std::vector<EwmProfile> profiles;
  std::vector<uint64_t> predicted;  // I_ci + I_other per occ_th tried (index = occ_th)
};

/// Standalone profiling and the choice. Throws InputError naming the mix unless it has exactly
/// two kernels.
EwmChoice ewm_choose(const GpuConfig& cfg, const Mix& mix, const RunOptions& run_opt);

/// Runs `mix` under EWM: ewm_choose, then the alone runs and the shared run (golden mwg with
/// the chosen SBM_REG). `choice` (optional) receives the decision.
MixRun run_ewm(const GpuConfig& cfg, const Mix& mix, const SchedOptions& sched_opt, const RunOptions& run_opt,
               AloneRunCache& cache, const CycleHook& hook = {}, EwmChoice* choice = nullptr);

}  // namespace gs
