// gsched memory system: the GPU's memory hierarchy behind MemoryIface (docs/memory.md).
//
//   SM s -- L1Cache[s] (+ ContextEngine[s]) --up crossbar--> L2Slice[c] -- DramChannel[c]
//   SM s <------------------------------- down crossbar ---- L2Slice[c] <-----'
//
// One L2 slice per DRAM channel; addresses are interleaved over channels by AddressMap.
// Everything is cycle-level with one tick() per core cycle; docs/memory.md describes each
// block, its storage, queues and latencies, and the unloaded-latency formulas below.
//
// Contract beyond MemoryIface:
//   * constructed from a GpuConfig (validated here: bad sizes raise gs::InputError) and the
//     CounterBank it charges; the bank must have (num_sms x kernels) entries and every
//     access's kernel must be < kernels() (else gs::InvariantError);
//   * MemAccess::line_addr must be line aligned (else gs::InvariantError);
//   * an access made before tick(t) (the Gpu ticks SMs, then memory) belongs to cycle t;
//     its tag is returned by take_completions() after tick(t + latency), so an SM that
//     ticks before the memory system sees it in its own tick of cycle t + latency + 1;
//   * take_completions() replaces the contents of `out` (no allocation once `out` has grown);
//   * tick() returns at once when nothing is in flight; deterministic, no heap allocation
//     per cycle once queues have reached their working size;
//   * tick(t) == tick_sm(s, t) for every SM, then tick_shared(t); tick_sm(s, t) may run on
//     several threads at once for different SMs (and beside those SMs' accesses).
#pragma once
#include <cstdint>
#include <memory>
#include <vector>

#include "config/gpu_config.hpp"
#include "gpu/counters.hpp"
#include "gpu/mem/address_map.hpp"
#include "gpu/mem/context_engine.hpp"
#include "gpu/mem/crossbar.hpp"
#include "gpu/mem/dram_channel.hpp"
#include "gpu/mem/dram_timing.hpp"
#include "gpu/mem/l1_cache.hpp"
#include "gpu/mem/l2_slice.hpp"
#include "gpu/mem/mem_context.hpp"
#include "gpu/mem_iface.hpp"

namespace gs {

class MemorySystem : public MemoryIface {
 public:
  MemorySystem(const GpuConfig& cfg, CounterBank& counters);
  ~MemorySystem() override;

  bool access(uint32_t sm, const MemAccess& a) override;
  void context_transfer(uint32_t sm, const ContextTransfer& t) override;
  void take_completions(uint32_t sm, std::vector<uint64_t>& out) override;
  void set_bypass(uint32_t sm, KernelId kernel, BypassLevel level) override;
  void set_l1_capacity(uint32_t sm, uint32_t bytes) override { l1_.at(sm)->set_capacity(bytes); }
  void tick(uint64_t cycle) override;
  void tick_sm(uint32_t sm, uint64_t cycle) override;
  void tick_shared(uint64_t cycle) override;
  bool idle() const override { return ctx_.live == 0; }
  void dram_counters(std::vector<DramChannelCounters>& out) const override;

  // ---- introspection (tests, docs, dumps) ----
  const mem::DramTiming& dram_timing() const { return timing_; }
  const mem::AddressMap& address_map() const { return map_; }
  const mem::DramChannel& dram(uint32_t ch) const { return *dram_[ch]; }
  const mem::L1Cache& l1(uint32_t sm) const { return *l1_.at(sm); }
  const mem::L2Slice& l2(uint32_t channel) const { return *l2_.at(channel); }
  const mem::Crossbar& xbar_up() const { return up_; }
  const mem::Crossbar& xbar_down() const { return down_; }
  uint32_t channels() const { return uint32_t(dram_.size()); }
  /// Total DRAM data-bus bytes moved so far, all channels.
  uint64_t dram_bytes_total() const;
  /// Jobs in flight (see mem_context.hpp).
  int64_t live_jobs() const { return ctx_.live; }
  /// Structural check: true when every queue, MSHR and engine is empty. Must hold whenever
  /// idle() does (tests assert it to catch leaked work).
  bool all_queues_empty() const;

  /// Unloaded load latency (cycles from access to completion) of an L1 miss that hits L2:
  ///   l1_hit_latency + (xbar_latency + ceil(8/xbar_B)) + l2_hit_latency
  ///   + (xbar_latency + ceil(line/xbar_B))
  uint64_t unloaded_l2_hit_latency(uint32_t sm) const;
  /// ... that misses L2 and finds its DRAM bank closed: the above + tRCD + tCL + burst
  /// (all in core cycles, DramTiming).
  uint64_t unloaded_dram_latency(uint32_t sm) const;

 private:
  void route_dram_done(uint32_t ch, const mem::DramRequest& r);

  const GpuConfig& cfg_;
  mem::MemContext ctx_;
  mem::DramTiming timing_;
  mem::AddressMap map_;
  std::vector<std::unique_ptr<mem::L1Cache>> l1_;
  std::vector<std::unique_ptr<mem::ContextEngine>> ctxe_;
  std::vector<std::unique_ptr<mem::L2Slice>> l2_;
  std::vector<std::unique_ptr<mem::DramChannel>> dram_;
  mem::Crossbar up_;                 // SMs -> slices
  mem::Crossbar down_;               // slices -> SMs
  std::vector<BypassLevel> bypass_;  // [sm][kernel], sized as the counter bank
  uint64_t line_mask_;
  uint64_t now_ = 0;         // cycle of the last tick()
  uint64_t next_cycle_ = 0;  // cycle an access() made now belongs to (the next tick)
};

}  // namespace gs
