// gsched: multiprogram metrics from alone and shared runtimes (docs/metrics.md).
//
// Definitions, as the papers use them (all runtimes are turnaround times in core cycles,
// arrival to last CTA finished):
//   NTT_i   = T_shared_i / T_alone_i                  normalized turnaround time (slowdown)
//   ANTT    = (1/n) * sum_i NTT_i                     lower is better
//   STP     = sum_i T_alone_i / T_shared_i            system throughput (weighted speedup)
//   StrictF = min_i NTT_i / max_i NTT_i               1 = perfectly fair
// ANTT and STP: Eyerman and Eeckhout, "System-level Performance Metrics for Multiprogram
// Workloads", IEEE Micro 2008 (Pai et al. Sec. 6, ref. [9]). StrictF: Vandierendonck and
// Seznec, IEEE CAL 2011, as used by Pai et al. Sec. 6 ("ratio of minimum slowdown to maximum
// slowdown").
//   mix IPC = sum_i instructions_i / cycles until every kernel has finished
// is Warped-Slicer's figure of merit (Xu et al. Sec. V-A, Fig. 6: "sum of all kernels'
// instruction count by execution time until all kernels finish").
//
// Fixed-window method (Mix::window_cycles = W; every kernel relaunches until cycle W):
//   IPC_i   = instructions_i in the window / W         (alone: the kernel alone over the same W)
//   NTT_i   = IPC_alone_i / IPC_shared_i               the slowdown, measured by IPC
//   ANTT_SBM = sum_i IPC_alone_i / IPC_shared_i        SBM Sec. 6.2 (Fig. 8): "The ANTT of a
//     particular task is the ratio of IPC_alone to IPC_happ. [...] The overall ANTT is the
//     summation of the individual ANTT of each task."
// ANTT, STP and StrictF keep their formulas above over these NTT_i (so ANTT = ANTT_SBM / n).
//
// These are analysis figures computed once per run, after the simulation, so they are plain
// doubles; nothing here feeds back into a scheduling decision (those use fixed point).
// Contract: every function throws InputError for an empty or non-positive runtime, because a
// zero-cycle kernel means the run itself was wrong and a division by zero would hide it.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace gs {

/// Per-kernel figures of one shared run and its matching alone run.
struct KernelMetrics {
  std::string name;
  uint64_t arrival_cycle = 0;  // in the shared run
  uint32_t priority = 0;       // the mix entry's (NPQ/PPQ: higher = more important)
  uint64_t instructions = 0;   // warp instructions in the shared run
  uint64_t cycles_alone = 0;   // T_alone: turnaround when run alone (arrival 0)
  uint64_t cycles_shared = 0;  // T_shared: turnaround in the mix
  double ntt = 0;              // T_shared / T_alone (fixed window: IPC_alone / IPC)
  double ipc = 0;              // instructions / cycles_shared (warp instructions per cycle; fixed window: / W)
  // Fixed window only:
  uint64_t instructions_alone = 0;  // warp instructions of the alone run in the same window
  double ipc_alone = 0;             // instructions_alone / W
  uint32_t launches = 0;            // instances launched in the shared run (1 + relaunches)
  uint32_t completions = 0;         // instances that finished inside the window
};

/// Per-process figures of a process mix (Mix::processes; docs/metrics.md, "Process mixes").
/// A process's turnaround is one run of its whole kernel sequence, host gaps included (Tanasic
/// Sec. 4.1 traces each application from its first CUDA call to its last); its NTT is the mean
/// turnaround of its completed shared runs over the mean of its alone runs (Sec. 4.1:
/// "Statistics are gathered only for the completed executions and then averaged").
struct ProcessMetrics {
  std::string name;
  uint32_t priority = 0;
  uint32_t runs = 0;                        // MixProcess::runs (completions required)
  std::vector<uint64_t> turnarounds;        // shared run: every completed run, in order (replays included)
  std::vector<uint64_t> turnarounds_alone;  // alone run: its `runs` runs
  double mean_shared = 0;                   // mean of turnarounds (every completed run)
  double mean_first = 0;                    // mean of the first `runs` turnarounds (for comparison; not used by NTT)
  double mean_alone = 0;                    // mean of turnarounds_alone
  double ntt = 0;                           // mean_shared / mean_alone
};

/// Whole-mix figures.
struct MixMetrics {
  std::vector<KernelMetrics> kernels;  // in mix order
  /// Process mix only, in Mix::processes order; stp, antt and strictf are then over these NTTs.
  std::vector<ProcessMetrics> processes;
  uint64_t cycles = 0;         // shared run: cycle the last kernel finished (fixed window: W)
  uint64_t window_cycles = 0;  // fixed window W; 0 = each kernel ran once (turnaround metrics)
  uint64_t window_start = 0;   // fixed window: the cycle it opened (Mix::window_start)
  uint64_t instructions = 0;   // sum over kernels
  double stp = 0;
  double antt = 0;
  double antt_sbm = 0;  // fixed window only: sum_i IPC_alone_i / IPC_i (SBM Sec. 6.2)
  double strictf = 0;
  double ipc = 0;  // Warped-Slicer mix IPC
};

/// One kernel's raw inputs to compute_mix_metrics.
struct KernelRuntimes {
  std::string name;
  uint64_t arrival_cycle = 0;
  uint64_t instructions = 0;
  uint64_t cycles_alone = 0;
  uint64_t cycles_shared = 0;
  uint32_t priority = 0;
  // Fixed window (compute_window_metrics) only:
  uint64_t instructions_alone = 0;
  uint32_t launches = 0, completions = 0;
};

/// One process's raw inputs to compute_process_metrics.
struct ProcessRuntimes {
  std::string name;
  uint32_t priority = 0;
  uint32_t runs = 0;
  std::vector<uint64_t> shared, alone;  // turnaround of each completed run, shared and alone
};

/// NTT = T_shared / T_alone.
double normalized_turnaround(uint64_t cycles_shared, uint64_t cycles_alone);
/// Mean of the NTTs.
double antt(const std::vector<double>& ntts);
/// Sum of 1/NTT_i = sum of T_alone_i / T_shared_i.
double stp(const std::vector<double>& ntts);
/// min NTT / max NTT.
double strict_fairness(const std::vector<double>& ntts);
/// Warped-Slicer mix IPC: all instructions over the cycles until every kernel finished.
double mix_ipc(uint64_t total_instructions, uint64_t cycles);

/// All of the above for one mix. `cycles` is the shared run's total cycle count.
MixMetrics compute_mix_metrics(const std::vector<KernelRuntimes>& kernels, uint64_t cycles);
/// The fixed-window figures (header comment) over a window of `window` cycles, from each
/// kernel's instructions and instructions_alone in that window (cycles_* are not used).
/// Throws InputError for a zero window, or a kernel that issued nothing in the window, alone or
/// shared (its slowdown would be undefined: the window is too short for it).
MixMetrics compute_window_metrics(const std::vector<KernelRuntimes>& kernels, uint64_t window);
/// A process mix's figures: per process the means and NTT (ProcessMetrics), STP/ANTT/StrictF
/// over the processes; per kernel (step) only instructions, IPC over `cycles`, launches and
/// completions. Throws InputError for a process without a completed run (shared or alone) or a
/// zero-cycle run.
MixMetrics compute_process_metrics(const std::vector<ProcessRuntimes>& processes,
                                   const std::vector<KernelRuntimes>& kernels, uint64_t cycles);

}  // namespace gs
