// gsched: runs a mix the way the metrics need it -- every kernel alone, then the whole mix.
//
// T_alone of a kernel is its turnaround when it runs by itself on the same GPU config, from
// cycle 0, under the Left-Over (FIFO) policy with the same scheduler kind, preemption mode,
// seed and run limits as the shared run. Left-Over is the baseline every paper normalizes to
// (Warped-Slicer Sec. V, Pai Sec. 6), and alone it gives the kernel the whole GPU, so T_alone
// does not depend on the policy under study. Alone results are cached per process
// (AloneRunCache), so a mix listing a kernel twice, or a sweep over policies, runs it once.
//
// Fixed window (Mix::window_cycles): the alone run is the same single-kernel mix over the same
// window, relaunching as the shared run does; its instruction count gives IPC_alone, and the
// metrics are compute_window_metrics() (metrics.hpp).
#pragma once
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "config/gpu_config.hpp"
#include "gpu/gpu.hpp"
#include "metrics/counters_summary.hpp"
#include "metrics/metrics.hpp"
#include "sched/scheduler_port.hpp"
#include "workload/kernel_desc.hpp"

namespace gs {

/// The alone-run policy (see the header comment).
constexpr const char* kAlonePolicy = spec::kDefaultPolicyName;

/// Which simulation of a `gsim run` is under way, for progress reports and interruption:
/// alone run `index` of `count` (1-based) of `kernel`, or the shared run of the mix.
struct RunPhase {
  bool shared = false;
  uint32_t index = 0, count = 0;
  std::string kernel;
};
/// Called after every simulated cycle of every run (alone and shared) with the cycle just
/// finished; may throw (e.g. gs::Interrupted) to stop the run.
using CycleHook = std::function<void(const RunPhase& phase, uint64_t cycle)>;

/// Process-local cache of alone runs, keyed by everything that can change T_alone.
class AloneRunCache {
 public:
  /// The alone result of `entry` (runs it on a miss). Throws what Gpu::run throws.
  /// `window_cycles`, `window_start`: the mix's fixed window (0: none) and the cycle it opens,
  /// which the alone run uses too.
  const KernelResult& get(const GpuConfig& cfg, const MixEntry& entry, const std::string& scheduler_kind,
                          const SchedOptions& shared_opt, const RunOptions& run_opt, const CycleHook& hook = {},
                          const RunPhase& phase = {}, uint64_t window_cycles = 0, uint64_t window_start = 0);
  /// Records `result` as the alone result of `entry` (the arguments as for get()): a shared run
  /// that was the same simulation as the alone run (run_mix_with_alone, one kernel).
  void put(const GpuConfig& cfg, const MixEntry& entry, const std::string& scheduler_kind,
           const SchedOptions& shared_opt, const RunOptions& run_opt, uint64_t window_cycles, uint64_t window_start,
           const KernelResult& result, const CounterGroup& counters);
  /// A process mix's process `p` run alone (alone_process_mix: its runs, from cycle 0, context
  /// 0), as get() runs a kernel: same policy, options and caching. `kernels` and `counters` are
  /// those of its steps, in step order.
  struct ProcessAlone {
    ProcessResult process;
    std::vector<KernelResult> kernels;
    std::vector<CounterGroup> counters;
  };
  const ProcessAlone& get_process(const GpuConfig& cfg, const Mix& mix, uint32_t p, const std::string& scheduler_kind,
                                  const SchedOptions& shared_opt, const RunOptions& run_opt, const CycleHook& hook = {},
                                  const RunPhase& phase = {});
  /// The counters of the alone run whose result get() returned as `result` (the kernel on every
  /// SM; summarize_counters), nullptr for any other reference.
  const CounterGroup* counters_of(const KernelResult& result) const;
  /// Number of simulations performed so far (cache misses).
  uint32_t runs() const { return runs_; }

 private:
  struct Entry {
    KernelResult kernel;
    CounterGroup counters;
  };
  std::map<std::string, Entry> cache_;
  std::map<std::string, ProcessAlone> process_cache_;
  uint32_t runs_ = 0;
};

/// The single-kernel mix an alone run simulates: the entry at arrival 0 in context 0, over
/// the mix's fixed window if it has one.
Mix alone_mix(const Mix& mix, const MixEntry& entry);
/// The mix a process alone run simulates: process `p` of `mix` by itself, starting at cycle 0 in
/// context 0, with its steps, host gaps and runs.
Mix alone_process_mix(const Mix& mix, uint32_t p);
/// Scheduler options of an alone run derived from the shared run's options.
SchedOptions alone_sched_options(const SchedOptions& shared_opt);

/// Whether the shared run of `mix` under `sched_opt` is the same simulation as its one kernel's
/// alone run (see run_mix_with_alone).
bool same_as_alone_run(const Mix& mix, const SchedOptions& sched_opt);

struct MixRun {
  RunResult shared;
  std::vector<KernelResult> alone;             // mix order
  std::vector<CounterGroup> alone_counters;    // mix order: each alone run's counters (run_mix_with_alone)
  std::vector<ProcessResult> alone_processes;  // process mix: each process's alone run, in process order
  MixMetrics metrics;
};

/// Runs every kernel alone (through `cache`), then the mix, and computes the metrics. An entry
/// with arrival_pct arrives at kernels[0]'s arrival + its alone turnaround x pct / 100 (the
/// shared run's KernelResult::arrival_cycle reports the cycle).
/// `sched_opt` is what the shared run's scheduler is built and reset with (run_opt.sched is
/// replaced by it); alone runs use alone_sched_options(sched_opt).
/// `hook` (optional) sees every cycle of every run, alone and shared.
/// A mix of one kernel arriving at cycle 0 in context 0 whose shared run is the alone run (the
/// alone policy, no cap, mapping or waveform: same_as_alone_run) is simulated once: the shared
/// run's result is also its alone result.
/// A process mix (Mix::processes) runs each process alone (AloneRunCache::get_process; `alone`
/// and `alone_counters` then hold each step's figures from its process's alone run), then the
/// mix, and takes compute_process_metrics().
MixRun run_mix_with_alone(const GpuConfig& cfg, const Mix& mix, const std::string& scheduler_kind,
                          const SchedOptions& sched_opt, const RunOptions& run_opt, AloneRunCache& cache,
                          const CycleHook& hook = {});

}  // namespace gs
