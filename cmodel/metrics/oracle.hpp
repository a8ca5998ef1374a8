// gsched: Warped-Slicer's Oracle (Sec. V, "Oracle"): the best static intra-SM partition of a
// mix, found by exhaustive search over every CTA combination. C++ only (golden scheduler).
//
// Candidates: kernel i of the mix (mix order) gets c_i CTAs per SM, 1 <= c_i <= N_i, N_i its
// occupancy alone on the smallest SM type of the config, such that c_1..c_K CTAs of all the
// kernels fit one SM of every type together (threads, warps, registers, shared memory, CTA
// slots; per-CTA sizes after allocation rounding, on the carve-out the mix runs with). They
// are enumerated in lexicographic order of (c_1, ..., c_K); at most kMaxOracleCandidates.
//
// Each candidate's mix runs shared under golden Left-Over with SchedOptions::fixed_ctas = c:
// the same caps on every SM while two or more kernels have CTAs to issue. The last one then
// takes the whole SM, as the paper's finished kernel "is halted and its assigned GPU resources
// are released" to the slower one (Sec. V) and as warped-slicer's partition does (docs/rtl/
// gs_policy_warped_slicer.md, mode alone). The Oracle is the candidate with the highest mix IPC (Warped-Slicer's metric: all
// instructions over the shared run's cycles, docs/metrics.md); on a tie the first. Alone runs
// are the same for every candidate and run once (AloneRunCache).
#pragma once
#include <cstdint>
#include <functional>
#include <vector>

#include "metrics/mix_runner.hpp"

namespace gs {

/// `--policy oracle` (gsim run, gsim sweep): not a registry policy (it has no RTL).
constexpr const char* kOraclePolicy = "oracle";
/// Candidates one search may run: 4096 covers 4 kernels of 8 CTAs each (the paper's 2- and
/// 3-kernel mixes need at most 32 x 32 on a 32-slot SM).
constexpr uint64_t kMaxOracleCandidates = 4096;

struct OracleCandidate {
  std::vector<uint32_t> ctas;  // per kernel, mix order
  uint64_t cycles = 0;         // shared run
  double ipc = 0;              // mix IPC
};

struct OracleRun {
  MixRun best;  // the chosen candidate's run, alone runs and metrics
  std::vector<uint32_t> best_ctas;
  std::vector<OracleCandidate> candidates;  // enumeration order
};

/// The candidates of `mix` on `cfg` (see the header comment). Throws InputError naming the mix
/// when there are none (a kernel that does not fit) or more than kMaxOracleCandidates.
std::vector<std::vector<uint32_t>> oracle_candidates(const GpuConfig& cfg, const Mix& mix);

/// Called before candidate `index` (0-based) of `count` runs.
using OracleProgress = std::function<void(size_t index, size_t count, const std::vector<uint32_t>& ctas)>;

/// Runs every candidate (golden scheduler, policy left-over; `sched_opt`'s seed and preemption
/// mode are kept) and returns the best. `hook` sees every cycle of every run, as in
/// run_mix_with_alone.
OracleRun run_oracle(const GpuConfig& cfg, const Mix& mix, const SchedOptions& sched_opt, const RunOptions& run_opt,
                     AloneRunCache& cache, const CycleHook& hook = {}, const OracleProgress& progress = {});

}  // namespace gs
