// gsched: one streaming multiprocessor (public interface; implementation in gpu/sm*.cpp).
//
// Holds resident CTAs of one or more kernels within its capacities (threads, warps,
// registers, shared memory, CTA slots), runs their warps' synthetic instruction streams
// through `warp_schedulers` schedulers (GTO or loose round robin) with scoreboard stalls and
// ALU / SFU / LD-ST / shared-memory pipelines, and reports CTA completions as SmEvents.
// Preemption: drain (stop nothing, just report when the victim's CTAs are gone) or switch
// (stop the victim's warps at instruction boundaries once their loads return, write each
// CTA's registers and shared memory out through the memory system, report kCtaSaved per CTA
// and kPreemptDone). A resumed CTA first reads its context back, then continues at the
// saved per-warp positions (instruction streams are pure functions of position).
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "config/gpu_config.hpp"
#include "gpu/counters.hpp"
#include "gpu/gpu.hpp"
#include "sched/scheduler_port.hpp"
#include "workload/kernel_desc.hpp"

namespace gs {

class MemoryIface;

/// Execution progress of a context-switched CTA, kept by the Gpu until it resumes.
struct SavedCta {
  KernelId kernel = 0;
  CtaId cta = 0;
  std::vector<uint32_t> warp_pc;  // next instruction index per warp
  uint64_t first_start_cycle = 0;
};

/// Free resources of an SM (what the scheduler's SMST mirrors).
struct SmUsage {
  uint32_t threads = 0, warps = 0, regs = 0, shmem = 0, ctas = 0;
};

class Sm {
 public:
  /// `seed` is the run seed and must be the SAME for every SM: a CTA's instruction stream
  /// (and its length) derive from (seed, kernel, cta) only, so a context-switched CTA can
  /// resume on any SM at its saved per-warp positions.
  Sm(uint32_t id, const GpuConfig& cfg, MemoryIface& mem, CounterBank& counters, uint64_t seed);
  ~Sm();

  uint32_t id() const;
  const SmTypeConfig& type() const;
  SmUsage used() const;
  /// True if a CTA needing `r` fits into the free resources now.
  bool fits(const CtaResources& r) const;
  /// Number of resident CTAs of `kernel`.
  uint32_t resident_ctas(KernelId kernel) const;

  /// Starts a CTA. `desc` must outlive the CTA. `resume` non-null restores a saved CTA.
  /// Throws InvariantError if it does not fit.
  void start_cta(KernelId kernel, const KernelDesc& desc, const CtaResources& r, CtaId cta, uint64_t cycle,
                 const SavedCta* resume);
  /// Begins preempting `victim`'s CTAs (kNoKernel = every kernel but `next`, the kernel the SM is
  /// handed to: a CTA of it dispatched while the command was on its way keeps running).
  void preempt(PreemptMode mode, KernelId victim, KernelId next, uint64_t cycle);

  /// Advances one core cycle: collects memory completions, issues up to one warp
  /// instruction per warp scheduler, retires finished CTAs.
  void tick(uint64_t cycle);

  /// Events produced since the last call (kCtaFinished, kCtaSaved, kPreemptDone), in order.
  /// Saved CTAs' progress is appended to `saved` alongside their kCtaSaved events.
  void take_events(std::vector<SmEvent>& events, std::vector<SavedCta>& saved, std::vector<CtaRecord>& records);

  /// Instructions issued by this SM in the last tick (watchdog progress signal).
  uint32_t issued_last_tick() const;
  bool empty() const;
  std::string dump_state() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace gs
