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
  uint64_t arrival_cycle = 0;     // in the shared run
  uint32_t priority = 0;          // the mix entry's (NPQ/PPQ: higher = more important)
  uint64_t instructions = 0;      // warp instructions in the shared run
  uint64_t cycles_alone = 0;      // T_alone: turnaround when run alone (arrival 0)
  uint64_t cycles_shared = 0;     // T_shared: turnaround in the mix
  double ntt = 0;                 // T_shared / T_alone
  double ipc = 0;                 // instructions / cycles_shared (warp instructions per cycle)
};

/// Whole-mix figures.
struct MixMetrics {
  std::vector<KernelMetrics> kernels;   // in mix order
  uint64_t cycles = 0;                  // shared run: cycle the last kernel finished
  uint64_t instructions = 0;            // sum over kernels
  double stp = 0;
  double antt = 0;
  double strictf = 0;
  double ipc = 0;                       // Warped-Slicer mix IPC
};

/// One kernel's raw inputs to compute_mix_metrics.
struct KernelRuntimes {
  std::string name;
  uint64_t arrival_cycle = 0;
  uint64_t instructions = 0;
  uint64_t cycles_alone = 0;
  uint64_t cycles_shared = 0;
  uint32_t priority = 0;
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

}  // namespace gs
