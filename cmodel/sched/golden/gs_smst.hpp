// gsched golden twin of rtl/framework/gs_smst.sv (SM Status Table).
//
// Per SM: state, owner, next (reserved-for), used threads/warps/registers/shared memory/CTA
// slots, and resident CTAs per kernel slot. clock() applies the write ports in the RTL's
// order: alloc, free, unreserve (owner := next), reserve, owner write, slot free; then the
// state is derived (reserved, else running with an owner or a CTA, else idle).
#pragma once
#include <vector>

#include "sched/golden/golden_types.hpp"

namespace gs::golden {

class Smst {
 public:
  struct Regs {
    std::vector<SmstEntry> tbl;            // tbl_q
    std::vector<uint32_t> resident;        // res_q, [sm * slots + slot]
  };
  struct Writes {
    bool alloc_valid = false;
    uint32_t alloc_sm = 0, alloc_slot = 0;
    CtaRes alloc_res;
    bool free_valid = false;
    uint32_t free_sm = 0, free_slot = 0;
    CtaRes free_res;
    bool unreserve_valid = false;
    uint32_t unreserve_sm = 0;
    bool reserve_valid = false;
    uint32_t reserve_sm = 0;
    bool reserve_next_valid = false;
    uint32_t reserve_next = 0;
    OwnerWr owner_wr;
    uint32_t slot_free = 0;
  };

  void reset(uint32_t sms, uint32_t slots) {
    slots_ = slots;
    q.tbl.assign(sms, SmstEntry{});
    q.resident.assign(sms * slots, 0);
  }
  uint32_t sms() const { return static_cast<uint32_t>(q.tbl.size()); }
  const SmstEntry& entry(uint32_t s) const { return q.tbl[s]; }
  uint32_t resident(uint32_t s, uint32_t k) const { return q.resident[s * slots_ + k]; }

  void clock(const Writes& w) {
    if (w.alloc_valid) {
      SmstEntry& e = q.tbl[w.alloc_sm];
      e.threads = (e.threads + w.alloc_res.threads) & width_mask(ThreadW);
      e.warps = (e.warps + w.alloc_res.warps) & width_mask(WarpW);
      e.regs = (e.regs + w.alloc_res.regs) & width_mask(RegW);
      e.shmem = (e.shmem + w.alloc_res.shmem) & width_mask(ShmemW);
      e.ctas = (e.ctas + 1) & width_mask(CtaCntW);
      uint32_t& r = q.resident[w.alloc_sm * slots_ + w.alloc_slot];
      r = (r + 1) & width_mask(CtaCntW);
    }
    if (w.free_valid) {
      SmstEntry& e = q.tbl[w.free_sm];
      e.threads = (e.threads - w.free_res.threads) & width_mask(ThreadW);
      e.warps = (e.warps - w.free_res.warps) & width_mask(WarpW);
      e.regs = (e.regs - w.free_res.regs) & width_mask(RegW);
      e.shmem = (e.shmem - w.free_res.shmem) & width_mask(ShmemW);
      e.ctas = (e.ctas - 1) & width_mask(CtaCntW);
      uint32_t& r = q.resident[w.free_sm * slots_ + w.free_slot];
      r = (r - 1) & width_mask(CtaCntW);
    }
    // reservation state per touched SM: start from the registered one
    if (w.unreserve_valid) {
      SmstEntry& e = q.tbl[w.unreserve_sm];
      e.state = SmState::kIdle;  // not reserved any more; derived below
      e.owner_valid = e.next_valid;
      e.owner = e.next;
      e.next_valid = false;
      e.next = 0;
    }
    if (w.reserve_valid) {
      SmstEntry& e = q.tbl[w.reserve_sm];
      e.state = SmState::kReserved;
      e.next_valid = w.reserve_next_valid;
      e.next = w.reserve_next_valid ? w.reserve_next : 0;
    }
    if (w.owner_wr.valid) {
      SmstEntry& e = q.tbl[w.owner_wr.sm];
      e.owner_valid = w.owner_wr.owner_valid;
      e.owner = w.owner_wr.owner_valid ? w.owner_wr.owner : 0;
    }
    if (w.slot_free != 0) {
      for (SmstEntry& e : q.tbl) {
        if (e.owner_valid && (w.slot_free >> e.owner & 1u)) {
          e.owner_valid = false;
          e.owner = 0;
        }
        if (e.next_valid && (w.slot_free >> e.next & 1u)) {
          e.next_valid = false;
          e.next = 0;
        }
      }
      for (SmstEntry& e : q.tbl) derive_state(e);
    } else {
      // only the SMs written this cycle can change state
      if (w.alloc_valid) derive_state(q.tbl[w.alloc_sm]);
      if (w.free_valid) derive_state(q.tbl[w.free_sm]);
      if (w.unreserve_valid) derive_state(q.tbl[w.unreserve_sm]);
      if (w.owner_wr.valid) derive_state(q.tbl[w.owner_wr.sm]);
    }
  }

  Regs q;

 private:
  static void derive_state(SmstEntry& e) {
    if (e.state == SmState::kReserved) return;
    e.state = (e.owner_valid || e.ctas != 0) ? SmState::kRunning : SmState::kIdle;
  }
  uint32_t slots_ = 0;
};

}  // namespace gs::golden
