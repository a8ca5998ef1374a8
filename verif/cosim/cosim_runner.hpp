// gsched cosim: one co-simulation case -- a mix on a config under a scheduler -- and its outcome.
//
// Contract: run_case() builds the scheduler with `make(opt)`, runs gs::Gpu to the end and
// classifies how it ended: kPass, kMismatch (CheckMismatch: the lockstep checker), kInvariant
// (InvariantError: the model's capacity / exactly-once checks or an RTL assertion), kWatchdog,
// kInputError. It never throws for those; the message is kept for the report. Statistics
// (cycles, decisions checked) come back when the scheduler is a LockstepScheduler.
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "config/gpu_config.hpp"
#include "cosim/mix_generator.hpp"
#include "sched/scheduler_port.hpp"
#include "workload/kernel_desc.hpp"

namespace gs::cosim {

enum class Outcome { kPass, kMismatch, kInvariant, kWatchdog, kInputError };
const char* outcome_name(Outcome o);

struct CaseResult {
  Outcome outcome = Outcome::kPass;
  uint64_t cycles = 0;             // simulated cycles (until the end or the failure)
  uint64_t decisions_checked = 0;  // lockstep only
  std::string message;             // what the failure said
};

using SchedMaker = std::function<std::unique_ptr<SchedulerPort>(const SchedOptions&)>;

CaseResult run_case(const GpuConfig& cfg, const Mix& mix, const SchedOptions& opt, const SchedMaker& make,
                    uint64_t max_cycles = 20'000'000);

/// The config random-mix cases run on: `cfg` with each policy setting that has a `regression`
/// value in the registry set to it (spec::apply_regression_settings): Warped-Slicer's warm-up
/// shortened to 500 cycles (its profile reads 82 cycles per measured SM since gs_wf_scale is
/// sequential), its sample window and hetero-dynamic's windows to 1,000. A random mix lasts some 10^4
/// cycles; the default 20,000-cycle warm-up (docs/config_schema.md) would end after most of
/// them, and the profile, water-filling and quotas would never be checked.
GpuConfig case_config(GpuConfig cfg);

/// The config a case of `policy` runs on: `cfg` (a case_config()), except for a policy that maps
/// by SM type (registry flag `sm_types`) on a GPU without big SMs, which gets case_config() of
/// its entry's regression_config: on SMs of one type hetero-dynamic keeps its profiling split
/// (docs/rtl/gs_policy_hetero.md), and its selection and adaptive preemption would never be checked.
GpuConfig case_config_for(const std::string& policy, const GpuConfig& cfg);

/// The random-mix options a case of `policy` uses: `gen` itself, except for a policy that profiles
/// the kernels with CTAs waiting (registry flag `observes`, warped-slicer): it sees a set only
/// while its kernels still have CTAs to issue, so its mixes get up to 4 kernels (Algorithm 1's
/// K, WfMaxKernels) of up to 600 CTAs of 40 instructions per warp, arriving within 1000 cycles:
/// about half of them are profiled and water-filled on case_config() ("random-mix cases reach
/// Warped-Slicer's partition" in verif/cosim/tests/test_cosim_runs.cpp). A registry entry's own
/// regression_mix replaces both (srtf-adaptive's: 2-3 kernels of up to 1200 CTAs, so that two
/// predicted kernels both have CTAs to issue, the only time it shares SMs).
MixGenOptions case_mix_options(const std::string& policy, MixGenOptions gen);

}  // namespace gs::cosim
