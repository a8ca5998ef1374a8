// gsched: counter helpers.
#include "gpu/counters.hpp"

namespace gs {

const char* stall_reason_name(StallReason r) {
  switch (r) {
    case StallReason::kMemLatency: return "mem_latency";
    case StallReason::kRaw: return "raw";
    case StallReason::kExecBusy: return "exec_busy";
    case StallReason::kMshrFull: return "mshr_full";
    case StallReason::kIdle: return "idle";
    default: return "?";
  }
}

KernelSmCounters CounterBank::kernel_total(uint32_t kernel) const {
  KernelSmCounters t;
  for (uint32_t s = 0; s < sms_; ++s) {
    const auto& c = at(s, kernel);
    t.insts_issued += c.insts_issued;
    t.active_cycles += c.active_cycles;
    for (int r = 0; r < static_cast<int>(StallReason::kCount); ++r) t.stall_cycles[r] += c.stall_cycles[r];
    t.l1_accesses += c.l1_accesses;
    t.l1_misses += c.l1_misses;
    t.l2_accesses += c.l2_accesses;
    t.l2_misses += c.l2_misses;
    t.l1_bypassed += c.l1_bypassed;
    t.l2_bypassed += c.l2_bypassed;
    t.dram_bytes += c.dram_bytes;
    t.ctas_started += c.ctas_started;
    t.ctas_finished += c.ctas_finished;
    t.ctas_drained += c.ctas_drained;
    t.ctas_switched += c.ctas_switched;
    t.switch_fallbacks += c.switch_fallbacks;
    t.ctx_save_bytes += c.ctx_save_bytes;
    t.ctx_restore_bytes += c.ctx_restore_bytes;
    t.ctx_save_cycles += c.ctx_save_cycles;
    t.ctx_restore_cycles += c.ctx_restore_cycles;
  }
  return t;
}

}  // namespace gs
