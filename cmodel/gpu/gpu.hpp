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
  SchedOptions sched;                   // passed to SchedulerPort::reset()
  uint64_t max_cycles = 50'000'000;     // hard cap; exceeding it is an error
  uint64_t watchdog_cycles = 500'000;   // no-progress window
  uint64_t progress_every = 0;          // print a progress line every N cycles (0 = quiet)
  /// Observation epoch in cycles (0 = no samples): at the end of every epoch the model queues one
  /// ObsSample per SM and kernel whose counters moved, presented one per cycle on the scheduler
  /// port (gsim --obs-interval). At least SMs x kernels, so an epoch's samples drain before the next.
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
  uint64_t end_cycle = 0;               // cycle its last CTA finished
  uint64_t instructions = 0;            // warp instructions
  uint32_t ctas = 0;
  uint32_t preemptions = 0;             // CTAs context-saved
  uint64_t cycles() const { return end_cycle - arrival_cycle; }   // turnaround
};

/// A preemption command the scheduler gave (applied at `cycle`; gsim run --timeline marks it).
struct PreemptRecord {
  uint64_t cycle = 0;
  SmId sm = 0;
  PreemptMode mode = PreemptMode::kDrain;
  KernelId victim = kNoKernel;          // kNoKernel: every kernel on the SM
};

struct RunResult {
  uint64_t cycles = 0;                  // until the last kernel finished
  std::vector<KernelResult> kernels;
  CounterBank counters;
  std::vector<DramChannelCounters> dram;   // per channel, at the end of the run
  std::vector<CtaRecord> ctas;
  std::vector<PreemptRecord> preempts;  // in the order applied
};

class Gpu {
 public:
  Gpu(const GpuConfig& cfg, const Mix& mix, SchedulerPort& sched, const RunOptions& opt);
  ~Gpu();
  Gpu(const Gpu&) = delete;
  Gpu& operator=(const Gpu&) = delete;

  /// Runs until every kernel of the mix has finished. Throws InvariantError, WatchdogError,
  /// CheckMismatch (from a lockstep scheduler).
  RunResult run();
  /// One cycle; returns false once every kernel has finished.
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

  struct Impl;
  GpuConfig cfg_;               // the run's config: the caller's, with the shared-memory carve-out fixed
  std::unique_ptr<Impl> impl_;
  uint64_t cycle_ = 0;
  CounterBank counters_;
};

}  // namespace gs
