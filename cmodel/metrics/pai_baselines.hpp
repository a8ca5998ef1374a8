// gsched: two baselines of Pai et al. (PACT 2014, ../shared/seeds/001_*.txt) that are not
// registry policies, because what decides them is known before the run, not in hardware:
//
// SJF (Sec. 6, Table 5: "SJF ... schedules kernels even before they run", "unrealizable"):
//   shortest job first with the alone runtimes as the oracle. Each kernel's alone turnaround
//   (the same alone run its metrics use, AloneRunCache) ranks it: the shortest kernel gets the
//   highest priority. The mix then runs under NPQ (non-preemptive priority queues, RTL
//   gs_policy_npq): the SM driver issues the highest-priority kernel's thread blocks first and
//   never preempts a running block, which is Pai's block-level SJF. The decision (priorities)
//   is C++; its execution is the RTL's, so `--policy sjf` runs on every scheduler kind,
//   lockstep included.
//
// Just-in-Time MPMax (Sec. 5.2.2): "each executing kernel sets aside resources for a
//   hypothetical MPMax kernel, a composite constructed from co-running kernels [...] when two
//   kernels A and B execute together, A will set aside resources for one thread block of B per
//   SM and vice versa [...] when concurrent kernel execution ceases, kernels reoccupy the
//   resources they had set aside. [...] thread blocks are issued from a kernel until its MPMax
//   limit is reached, after which the next kernel in FIFO order gets to issue". Kernel i's cap
//   is the most of its CTAs that fit one SM beside one CTA of every other kernel of the mix
//   (on every SM type, the same resource sums as the Oracle's candidates), held while two or
//   more kernels have CTAs to issue (SchedOptions::fixed_ctas on golden Left-Over: FIFO order,
//   and the last kernel takes the whole SM). Exact for the paper's two-kernel workloads; with
//   three or more the caps are those of the whole set until only one kernel is left (the
//   paper recomputes them "on the basis of the kernels actually running at that instant").
//   Golden only: gs_top has no per-kernel cap register.
//
// Zero-sampling SRTF (Sec. 6.2.2: "we omitted the sampling phase [...] we provided the runtimes
//   to the SRTF scheduler directly as in SJF"): golden srtf with each kernel's alone turnaround
//   (the one its metrics use) as its runtime from its launch on (SchedOptions::
//   srtf_known_cycles): no SM samples, every SM serves the shortest kernel, and what is left
//   of SRTF's loss against SJF is the hand-off delay (running blocks are not preempted).
//   Golden only: gs_policy_srtf has no port for given runtimes.
#pragma once
#include <cstdint>
#include <vector>

#include "metrics/mix_runner.hpp"

namespace gs {

constexpr const char* kSjfPolicy = "sjf";
constexpr const char* kMpmaxPolicy = "mpmax";
constexpr const char* kSrtfZsPolicy = "srtf-zs";
/// The registry policy SJF's priorities run under.
constexpr const char* kSjfRunsUnder = "npq";

/// SJF priorities from alone turnarounds (mix order): the shortest gets the top priority
/// (2**PrioW - 1), each longer distinct turnaround one less, down to 0 (ties share one
/// priority, so arrival order decides between them, as in NPQ).
std::vector<uint32_t> sjf_priorities(const std::vector<uint64_t>& alone_cycles);

/// Runs `mix` under SJF: alone runs (through `cache`), priorities from them, then the shared
/// run under NPQ with scheduler `scheduler_kind`. `priorities` (optional) receives them.
/// Throws InputError for a fixed-window mix (SJF ranks run-to-completion turnarounds).
MixRun run_sjf(const GpuConfig& cfg, const Mix& mix, const std::string& scheduler_kind, const SchedOptions& sched_opt,
               const RunOptions& run_opt, AloneRunCache& cache, const CycleHook& hook = {},
               std::vector<uint32_t>* priorities = nullptr);

/// MPMax caps per kernel (mix order), see the header comment. Throws InputError naming the mix
/// when a kernel cannot keep one CTA beside one CTA of each other kernel.
std::vector<uint32_t> mpmax_caps(const GpuConfig& cfg, const Mix& mix);

/// The shared run's options under Just-in-Time MPMax: `sched_opt` on Left-Over, shared SMs,
/// mpmax_caps as fixed_ctas.
SchedOptions mpmax_options(const GpuConfig& cfg, const Mix& mix, const SchedOptions& sched_opt);

/// Runs `mix` under Just-in-Time MPMax (golden Left-Over with mpmax_caps as fixed_ctas).
MixRun run_mpmax(const GpuConfig& cfg, const Mix& mix, const SchedOptions& sched_opt, const RunOptions& run_opt,
                 AloneRunCache& cache, const CycleHook& hook = {});

/// Runs `mix` under zero-sampling SRTF: alone runs (through `cache`, golden), then the shared
/// run under golden srtf with their turnarounds as srtf_known_cycles. Throws InputError for a
/// fixed-window mix (it has no run-to-completion turnarounds to give).
MixRun run_srtf_zs(const GpuConfig& cfg, const Mix& mix, const SchedOptions& sched_opt, const RunOptions& run_opt,
                   AloneRunCache& cache, const CycleHook& hook = {});

}  // namespace gs
