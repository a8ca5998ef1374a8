// gsched: the whole GPU -- SMs, memory system, command dispatcher and the scheduler port.
//
// One Gpu runs one mix under one SchedulerPort. Per core cycle (Gpu::step):
//   1. kernels whose arrival cycle has come enter the pending-launch queue;
//   2. the scheduler's step() gets at most one launch, one SM event and one observation
//      sample (each queued FIFO; samples are queued at the end of each RunOptions::obs_interval);
//   3. its decisions are applied: dispatch -> Sm::start_cta (after the capacity and
//      exactly-once invariant checks), preempt -> Sm::preempt, bypass -> memory system (per SM and kernel);
//   4. each SM ticks, then its side of the memory system (MemoryIface::tick_sm), on
//      RunOptions::threads threads; then the shared memory blocks tick (tick_shared); SM
//      events are queued for the scheduler in SM order.
// A no-progress watchdog throws WatchdogError with a state dump when nothing retires,
// issues or dispatches for RunOptions::watchdog_cycles.
//
// Fixed-window method (Mix::window_cycles != 0): a kernel that finishes is launched again --
// same kernel id, context, priority, grid and token budget -- once the scheduler has been given
// the event of its last CTA (so the old instance has left the KSRT before the new one
// arrives); the run stops after window_cycles cycles, whatever is still running, and every
// counter covers exactly the window.
//
// Process mix (Mix::processes non-empty): each process's steps arrive one after another instead
// of at their arrival_cycle. Step 0 of the first run arrives at start_cycle + its host gap; step
// i+1 arrives at max(end + host_gap_cycles[i+1], d + 1), where end is the cycle after step i's
// last CTA finished (KernelResult::end_cycle) and d the cycle the scheduler was given that
// CTA's event (as for a relaunch, the old instance has left the KSRT first). After the last
// step the next run starts at `end` (its step 0 follows the same rule, same kernel ids). A
// process that has completed its runs keeps replaying (Tanasic Sec. 4.1: the load stays even);
// the run ends at the cycle the last process completes its runs, whatever is still running.
#pragma once
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "config/gpu_config.hpp"
#include "gpu/counters.hpp"
#include "sched/scheduler_port.hpp"
#include "workload/kernel_desc.hpp"

namespace gs {

class Sm;
class MemoryIface;

struct RunOptions {
  uint64_t seed = 1;
  SchedOptions sched;                  // passed to SchedulerPort::reset()
  uint64_t max_cycles = 50'000'000;    // hard cap; exceeding it is an error
  uint64_t watchdog_cycles = 500'000;  // no-progress window
  uint64_t progress_every = 0;         // print a progress line every N cycles (0 = quiet)
  /// Observation epoch in cycles (0 = no samples): at the end of every epoch the model queues one
  /// ObsSample per SM and kernel whose counters moved, presented one per cycle on the scheduler
  /// port (gsim --obs-interval). At least SMs x kernels, so an epoch's samples drain before the next.
  /// 0 with a policy that reads the channel (registry flag `observes`): kDefaultObsInterval.
  uint64_t obs_interval = 0;
  /// Threads that tick the SMs of a cycle (gsim --threads; 1..ParallelFor::kMaxThreads, more
  /// than the SM count are not started). SMs share no state while they tick (the memory
  /// system's job count is atomic), so the output is the same for every value.
  unsigned threads = 1;
  /// Optional per-cycle hook (waveform dump, tracing); called after each cycle.
  std::function<void(uint64_t)> on_cycle;
};
/// Upper bound of RunOptions::obs_interval: one epoch's counts stay far inside the port's
/// ObsCntW bits (a larger count is an InvariantError, never a wrap).
inline constexpr uint64_t kMaxObsInterval = 1ull << 24;
/// The epoch a policy that reads the observation channel (the registry's `observes`, e.g.
/// warped-slicer) runs with when RunOptions::obs_interval is 0: max(this, SMs x kernels).
inline constexpr uint64_t kDefaultObsInterval = 1000;

/// Per-CTA resources after allocation rounding (what a CTA takes from an SM).
struct CtaResources {
  uint32_t threads = 0, warps = 0, regs = 0, shmem = 0;
};
CtaResources cta_resources(const KernelDesc& k, const GpuConfig& cfg);

/// The config a mix runs with. Tanasic Table 2 footnote: an SM is configured with the default
/// (first) shared-memory option unless a kernel needs more, then with the first bigger one.
/// The driver sets the carve-out when the mix starts, for every SM type that has options: the
/// smallest option that holds the largest per-CTA shared memory of the mix. SMs and scheduler
/// (golden and RTL, whose SMST has one static capacity per SM) then agree on one capacity.
/// For an alone run this is exactly the per-kernel rule that occupancy() reports.
GpuConfig run_config(const GpuConfig& cfg, const Mix& mix);

struct KernelResult {
  std::string name;
  KernelId id = 0;
  uint64_t arrival_cycle = 0;
  uint64_t first_dispatch_cycle = 0;
  uint64_t end_cycle = 0;     // cycle its last CTA finished
  uint64_t instructions = 0;  // warp instructions (fixed window: from Mix::window_start on)
  uint32_t ctas = 0;
  uint32_t preemptions = 0;  // CTAs context-saved
  // Fixed-window method: instances given to the scheduler (the first launch and every
  // relaunch) and instances that finished inside the window; end_cycle is the last finish.
  uint32_t launches = 0;
  uint32_t completions = 0;
  uint64_t cycles() const { return end_cycle - arrival_cycle; }  // turnaround (a run without window)
};

/// One completed step of a process: kernel `kernel` (Mix::kernels index) of run `run` (0-based)
/// arrived at the command dispatcher at `arrival_cycle` and its last CTA finished at `end_cycle`.
struct ProcessStepRecord {
  uint32_t run = 0, step = 0;
  KernelId kernel = 0;
  uint64_t arrival_cycle = 0, end_cycle = 0;
};

/// A process of a process mix (Mix::processes) after the run: its completed runs, each from its
/// start (start_cycle, then the end of the run before) to its last kernel's last CTA.
struct ProcessResult {
  std::string name;
  uint32_t runs = 0;                         // MixProcess::runs: completions required
  std::vector<uint64_t> run_start, run_end;  // per completed run, in order (may exceed `runs`)
  std::vector<ProcessStepRecord> steps;      // every completed step, in completion order
  uint64_t turnaround(size_t run) const { return run_end[run] - run_start[run]; }
  size_t completed() const { return run_end.size(); }
};

/// A preemption command the scheduler gave (applied at `cycle`; gsim run --timeline marks it).
struct PreemptRecord {
  uint64_t cycle = 0;
  SmId sm = 0;
  PreemptMode mode = PreemptMode::kDrain;
  KernelId victim = kNoKernel;  // kNoKernel: every kernel on the SM
};

struct RunResult {
  uint64_t cycles = 0;         // until the last kernel finished (fixed window: the window)
  uint64_t window_cycles = 0;  // Mix::window_cycles of the run (0: no window)
  uint64_t window_start = 0;   // Mix::window_start of the run (instructions count from it)
  std::vector<KernelResult> kernels;
  std::vector<ProcessResult> processes;  // process mix only, in Mix::processes order
  CounterBank counters;
  std::vector<DramChannelCounters> dram;  // per channel, at the end of the run
  std::vector<CtaRecord> ctas;
  std::vector<PreemptRecord> preempts;  // in the order applied
  std::vector<PolicyRecord> records;    // SchedulerPort::records(), when it keeps them
  uint64_t records_dropped = 0;
};

class Gpu {
 public:
  /// The model keeps pointers into `mix` (its entries), so the mix must outlive the Gpu.
  Gpu(const GpuConfig& cfg, const Mix& mix, SchedulerPort& sched, const RunOptions& opt);
  Gpu(const GpuConfig& cfg, Mix&& mix, SchedulerPort& sched, const RunOptions& opt) = delete;  // would dangle
  ~Gpu();
  Gpu(const Gpu&) = delete;
  Gpu& operator=(const Gpu&) = delete;

  /// Runs until every kernel of the mix has finished (fixed window: until the window ends).
  /// Throws InvariantError, WatchdogError, CheckMismatch (from a lockstep scheduler).
  RunResult run();
  /// One cycle; returns false once every kernel has finished (fixed window: the window ended).
  bool step();

  uint64_t cycle() const { return cycle_; }
  /// The config this run uses: the caller's, except that SM types with shared-memory
  /// carve-out options (Tanasic Table 2) get one fixed size for the whole run, the smallest
  /// option holding the largest CTA of the mix (see run_config()).
  const CounterBank& counters() const { return counters_; }
  const GpuConfig& config() const { return cfg_; }
  std::string dump_state() const;

 private:
  /// End of an observation epoch at cycle `now`: queue one ObsSample per SM and kernel whose
  /// counters moved since the last epoch (RunOptions::obs_interval).
  void sample_observations(uint64_t now);
  /// Fixed window: kernel `k` finished and the scheduler has seen its last event -- launch it again.
  void relaunch(KernelId k);
  /// Process mix: process `p`'s current step finished and its last event reached the scheduler
  /// at cycle `now` -- schedule its next step (or its next run's first step).
  void advance_process(uint32_t p, uint64_t now);
  /// Whether the run is over: every kernel finished, the window ended, or every process has
  /// completed its runs.
  bool done() const;

  struct Impl;
  GpuConfig cfg_;  // the run's config: the caller's, with the shared-memory carve-out fixed
  std::unique_ptr<Impl> impl_;
  uint64_t cycle_ = 0;
  CounterBank counters_;
};

}  // namespace gs
