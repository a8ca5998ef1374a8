// gsched: Sm::Impl, the private state and internal operations of one SM, shared by the
// files that implement it: gpu/sm.cpp (construction, CTA start, tick, retirement, public API),
// gpu/sm/issue.cpp (warp schedulers, issue, scoreboard, LD/ST unit, memory completions) and
// gpu/sm/preempt.cpp (drain and context-switch preemption). The model is described in
// docs/sm.md.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "gpu/mem_iface.hpp"
#include "gpu/occupancy.hpp"
#include "gpu/sm.hpp"
#include "gpu/sm/sm_state.hpp"
#include "workload/inst_stream.hpp"

namespace gs {

namespace sm_detail {
inline bool is_ldst(InstType t) { return t == InstType::kLoad || t == InstType::kStore || t == InstType::kShared; }
}  // namespace sm_detail

struct Sm::Impl {
  using Warp = sm_detail::Warp;
  using CtaSlot = sm_detail::CtaSlot;
  using MemOp = sm_detail::MemOp;
  using LdstUnit = sm_detail::LdstUnit;
  using WarpScheduler = sm_detail::WarpScheduler;
  using PreemptRec = sm_detail::PreemptRec;

  Impl(uint32_t id, const GpuConfig& cfg, MemoryIface& mem, CounterBank& counters, uint64_t seed);

  // --- configuration (copied once; read every cycle) ---
  const uint32_t id;
  const GpuConfig& cfg;
  const SmTypeConfig& t;
  MemoryIface& mem;
  CounterBank& counters;
  const uint64_t seed;
  const uint32_t alu_occupancy, sfu_occupancy, ldst_occupancy;  // cycles a warp instr holds the port
  const bool gto;

  // --- state ---
  std::vector<Warp> warps;           // max_warps slots
  std::vector<uint64_t> ring;        // kRing completion cycles per warp slot
  std::vector<uint16_t> free_warps;  // free warp slots (stack)
  std::vector<CtaSlot> ctas;         // max_ctas slots
  std::vector<MemOp> ops;            // pool of in-flight global accesses
  std::vector<uint32_t> free_ops;
  std::vector<WarpScheduler> scheds;
  LdstUnit ldst;
  std::vector<PreemptRec> preempts;
  SmUsage used;
  uint32_t shmem_config = 0;                         // current carve-out (0 = SM empty, not configured)
  uint32_t l1_carveout = ~0u;                        // l1_carveout "dynamic": shared memory taken from the unified L1
  uint32_t next_sched = 0;                           // round-robin warp -> scheduler assignment
  std::vector<uint32_t> resident;                    // per kernel id: resident CTAs (any state)
  std::vector<KernelId> resident_kernels;            // kernels with resident CTAs (active_cycles)
  std::vector<std::unique_ptr<InstStream>> streams;  // per kernel id
  std::vector<const KernelDesc*> stream_desc;
  bool dirty = false;  // a CTA may have finished / stopped; preemptions to check
  uint32_t issued_last_tick = 0;
  std::vector<uint64_t> completions;  // scratch for take_completions

  // --- output queues ---
  std::vector<SmEvent> events;
  std::vector<SavedCta> saved;
  std::vector<CtaRecord> records;

  // --- helpers ---
  KernelSmCounters& ctr(KernelId k) { return counters.at(id, k); }
  uint32_t shmem_capacity_for(uint32_t shmem) const { return used.ctas ? shmem_config : shared_mem_carveout(t, shmem); }
  bool fits(const CtaResources& r) const {
    return used.ctas + 1 <= t.max_ctas && used.threads + r.threads <= t.max_threads &&
           used.warps + r.warps <= t.max_warps && used.regs + r.regs <= t.registers &&
           used.shmem + r.shmem <= shmem_capacity_for(r.shmem) && free_warps.size() >= r.warps;
  }
  const InstStream& stream_for(KernelId k, const KernelDesc& desc);
  void start_cta(KernelId kernel, const KernelDesc& desc, const CtaResources& r, CtaId cta, uint64_t cycle,
                 const SavedCta* resume);
  /// l1_carveout "dynamic": resizes the L1 when the resident shared memory needs another carve-out.
  void follow_l1_carveout();
  void preempt(PreemptMode mode, KernelId victim, KernelId next, uint64_t cycle);
  /// A CTA of `kernel` is a victim of `p` (an all-kernel command spares the kernel it makes room for).
  static bool is_victim(const PreemptRec& p, KernelId kernel) {
    return p.victim == kNoKernel ? kernel != p.next : kernel == p.victim;
  }
  /// Resident CTAs (any state) that `p` waits for.
  uint32_t victims_resident(const PreemptRec& p) const {
    const auto of = [&](KernelId k) { return k < resident.size() ? resident[k] : 0u; };
    return p.victim == kNoKernel ? used.ctas - of(p.next) : of(p.victim);
  }
  void tick(uint64_t cycle);

  void on_completion(uint64_t tag, uint64_t cycle);
  void on_context_done(uint32_t slot, uint64_t cycle);
  void ldst_send(uint64_t cycle);
  void schedule(WarpScheduler& s, uint32_t s_index, uint64_t cycle);
  void issue(Warp& w, uint16_t wi, WarpScheduler& s, uint64_t cycle);
  void load_next(Warp& w, uint16_t wi);
  void sched_add(uint16_t wi);
  void sched_remove(uint16_t wi);
  void retire(uint64_t cycle);
  void finish_cta(uint32_t slot, uint64_t cycle);
  void save_done(uint32_t slot, uint64_t cycle);
  void free_cta(uint32_t slot);
  void release_preempt_member(CtaSlot& c);
  void check_preempts(uint64_t cycle);
  /// Queues an event for the scheduler port; stamps are cycles modulo 2**CycleW (the port's).
  void emit(SmEventType type, KernelId k, CtaId cta, uint64_t start_cycle, uint64_t end_cycle) {
    SmEvent e;
    e.type = type;
    e.sm = static_cast<SmId>(id);
    e.kernel = k;
    e.cta = cta;
    e.start_cycle = static_cast<uint32_t>(start_cycle);
    e.end_cycle = static_cast<uint32_t>(end_cycle);
    events.push_back(e);
  }
  std::string dump() const;
};

}  // namespace gs
