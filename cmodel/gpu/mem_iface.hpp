// gsched: the interface between an SM's load/store unit and the memory system.
//
// The SM issues one line-sized access at a time per cycle per LD/ST port; the memory system
// (L1 -> crossbar -> L2 slice -> DRAM channel) returns the access's opaque tag when its data
// is back at the SM (loads) or when the store is accepted (stores are write-through,
// no-write-allocate in L1, as in Fermi/Kepler; write-back in L2).
#pragma once
#include <cstdint>
#include <memory>
#include <vector>

#include "gpu/counters.hpp"
#include "sched/scheduler_port.hpp"

namespace gs {

struct MemAccess {
  uint64_t line_addr = 0;  // byte address aligned to GpuConfig::line_bytes
  KernelId kernel = 0;     // for per-kernel counters and the per-kernel bypass switch
  bool write = false;
  uint64_t tag = 0;  // opaque to the memory system; returned on completion
};

/// Bulk context traffic for preemption (Tanasic Sec. 3.2): `bytes` moved between an SM and
/// DRAM through the crossbar, bypassing the caches; completes with `tag`.
struct ContextTransfer {
  uint32_t bytes = 0;
  bool save = true;  // true: SM -> DRAM (write), false: DRAM -> SM (read)
  KernelId kernel = 0;
  uint64_t tag = 0;
};

class CounterBank;
struct GpuConfig;

class MemoryIface {
 public:
  virtual ~MemoryIface() = default;
  /// Try to issue an access from `sm` this cycle. False = structural stall (L1 port busy or
  /// MSHRs full); the SM retries later. Returns true once accepted.
  virtual bool access(uint32_t sm, const MemAccess& a) = 0;
  virtual void context_transfer(uint32_t sm, const ContextTransfer& t) = 0;
  /// Tags completed for `sm` since the last call, in completion order (cleared by the call).
  virtual void take_completions(uint32_t sm, std::vector<uint64_t>& out) = 0;
  /// Cache bypass of `kernel`'s accesses from `sm` (SBM; BypassCmd), from the next access on.
  virtual void set_bypass(uint32_t sm, KernelId kernel, BypassLevel level) = 0;
  /// Bytes of `sm`'s unified L1/shared-memory array left to the L1 (l1_carveout "dynamic";
  /// the SM calls it when its shared-memory carve-out changes). Models without an L1 ignore it.
  virtual void set_l1_capacity(uint32_t sm, uint32_t bytes) {
    (void)sm;
    (void)bytes;
  }
  /// Advance one core cycle: tick_sm(s, cycle) for every SM, then tick_shared(cycle).
  virtual void tick(uint64_t cycle) = 0;
  /// The two halves of tick() for a caller that ticks SMs on several threads (Gpu, gsim
  /// --threads). tick_sm touches only SM `sm`'s own blocks (the responses that reached it, its
  /// L1's hit pipeline, its context engine), so SM s may run it right after its own tick while
  /// other SMs tick; tick_shared, on one thread after every SM's tick_sm, advances the rest.
  virtual void tick_sm(uint32_t sm, uint64_t cycle) {
    (void)sm;
    (void)cycle;
  }
  virtual void tick_shared(uint64_t cycle) { tick(cycle); }
  /// True when nothing is in flight anywhere (used by the watchdog and drain checks).
  virtual bool idle() const = 0;
  /// Per-channel DRAM command counts so far, replacing `out` (none for a memory without DRAM).
  /// Read once at the end of a run, for the counter summary.
  virtual void dram_counters(std::vector<DramChannelCounters>& out) const { out.clear(); }
};

/// Builds the GPU's memory system (per-SM L1s, crossbar, L2 slices, DRAM channels) for `cfg`;
/// it updates the L1/L2/DRAM counters in `counters`. Defined in gpu/mem/.
std::unique_ptr<MemoryIface> make_memory_system(const GpuConfig& cfg, CounterBank& counters);

}  // namespace gs
