// gsched: per-SM, per-kernel performance counters.
//
// The model increments them; the scheduler (golden and RTL alike) sees their per-epoch deltas
// as ObsSample records on the scheduler port (RunOptions::obs_interval). Counters are
// plain integers, registered here once, and dumped by name (to_json) -- ramulator2 style.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

namespace gs {

enum class StallReason : uint8_t {
  kMemLatency = 0,  // every ready-less warp waits on a global load: Warped-Slicer phi_mem (Eq. 3)
  kRaw,             // scoreboard: waits on a short-latency result
  kExecBusy,        // the needed functional unit / LD-ST port is busy
  kMshrFull,        // L1 could not accept the access (MSHRs/port)
  kIdle,            // no warp resident on the scheduler
  kCount
};
const char* stall_reason_name(StallReason r);

struct KernelSmCounters {
  uint64_t insts_issued = 0;   // warp instructions
  uint64_t active_cycles = 0;  // cycles with at least one CTA of this kernel resident
  uint64_t stall_cycles[static_cast<int>(StallReason::kCount)] = {};
  uint64_t l1_accesses = 0, l1_misses = 0;    // accesses that looked L1 up; hits = accesses - misses
  uint64_t l2_accesses = 0, l2_misses = 0;    // (the same for L2)
  uint64_t l1_bypassed = 0, l2_bypassed = 0;  // accesses that went around the level (BypassLevel)
  uint64_t dram_bytes = 0;
  uint64_t ctas_started = 0, ctas_finished = 0;
  // Preemption (counted when it happens, never per cycle; docs/metrics.md, "Counters").
  uint64_t ctas_drained = 0;        // CTAs resident when a drain preemption of their kernel reached the SM
  uint64_t ctas_switched = 0;       // CTAs context-saved by a switch preemption
  uint64_t switch_fallbacks = 0;    // drain preemptions catching this kernel's CTAs on this SM in a run
                                    // that asked for context switch (gs_preempt_ctrl drains when the
                                    // PTBQ cannot take the SM's CTAs)
  uint64_t ctx_save_bytes = 0;      // context bytes written by those saves
  uint64_t ctx_restore_bytes = 0;   // context bytes read back by resumed CTAs
  uint64_t ctx_save_cycles = 0;     // per saved CTA: switch command reached the SM -> context saved
  uint64_t ctx_restore_cycles = 0;  // per resumed CTA: resume dispatch -> context read back
};

/// One DRAM channel's command counts over a run (gpu/mem/dram_channel.hpp DramStats).
struct DramChannelCounters {
  uint64_t reads = 0, writes = 0, activates = 0, precharges = 0;
  uint64_t row_hits = 0;  // column commands whose row an earlier request had opened
};

/// One record per finished (or preempted) CTA; the SmEvent of the same CTA carries the same
/// start/end cycles to the scheduler (modulo 2**CycleW).
struct CtaRecord {
  uint16_t kernel;
  uint32_t cta;
  uint16_t sm;
  uint64_t start_cycle;
  uint64_t end_cycle;
  bool saved = false;  // context-saved by a switch preemption at end_cycle (else it finished there)
};

class CounterBank {
 public:
  CounterBank() = default;
  CounterBank(uint32_t sms, uint32_t kernels) { resize(sms, kernels); }
  void resize(uint32_t sms, uint32_t kernels) {
    sms_ = sms;
    kernels_ = kernels;
    c_.assign(size_t(sms) * kernels, KernelSmCounters{});
  }
  KernelSmCounters& at(uint32_t sm, uint32_t kernel) { return c_[size_t(sm) * kernels_ + kernel]; }
  const KernelSmCounters& at(uint32_t sm, uint32_t kernel) const { return c_[size_t(sm) * kernels_ + kernel]; }
  /// Sum over SMs for one kernel.
  KernelSmCounters kernel_total(uint32_t kernel) const;
  uint32_t sms() const { return sms_; }
  uint32_t kernels() const { return kernels_; }

 private:
  uint32_t sms_ = 0, kernels_ = 0;
  std::vector<KernelSmCounters> c_;
};

}  // namespace gs
