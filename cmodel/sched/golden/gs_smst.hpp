// gsched golden twin of rtl/framework/gs_smst.sv (SM Status Table).
//
// Per SM: state, owner, next (reserved-for), used threads/warps/registers/shared memory/CTA
// slots, and resident CTAs per kernel slot. No output depends on an input (entries_o and
// resident_o are the registered table: entry(s), resident(s, k); pend_alloc_o and pend_free_o
// are pend_alloc(), pend_free()). next()
// applies the write ports in the RTL's order: alloc, free, unreserve (owner := next), reserve,
// owner write, slot free; then the state is derived (reserved, else running with an owner or a
// CTA, else idle). The alloc and free ports change the CTA count and the resident counts at
// once and the resources in use a cycle later: next() registers each request with its SM's
// resources as they are after this edge (pa, pf) and writes the last cycle's (q.pa, q.pf) into
// the table.
#pragma once
#include <vector>

#include "sched/golden/golden_types.hpp"

namespace gs::golden {

class Smst {
 public:
  struct In {
    bool alloc_valid = false;  // alloc_valid_i
    uint32_t alloc_sm = 0, alloc_slot = 0;
    CtaRes alloc_res;
    bool free_valid = false;  // free_valid_i
    uint32_t free_sm = 0, free_slot = 0;
    CtaRes free_res;
    bool unreserve_valid = false;  // unreserve_valid_i
    uint32_t unreserve_sm = 0;
    bool reserve_valid = false;  // reserve_valid_i
    uint32_t reserve_sm = 0;
    bool reserve_next_valid = false;
    uint32_t reserve_next = 0;
    OwnerWr owner_wr;        // owner_wr_i
    uint32_t slot_free = 0;  // slot_free_i
  };
  struct Regs {
    std::vector<SmstEntry> tbl;      // tbl_q
    std::vector<uint32_t> resident;  // res_q, [sm * slots + slot]
    SmstReq pa, pf;                  // pa_q, pf_q: the alloc and the free request of the last cycle
  };
  struct D {
    ArrayD<SmstEntry> tbl;
    ArrayD<uint32_t> resident;
    SmstReq pa, pf;
  };

  void reset(uint32_t sms, uint32_t slots) {
    slots_ = slots;
    q.tbl.assign(sms, SmstEntry{});
    q.resident.assign(sms * slots, 0);
    q.pa = q.pf = d.pa = d.pf = SmstReq{};
    d.tbl.reset(sms);
    d.resident.reset(sms * slots);
  }
  uint32_t sms() const { return static_cast<uint32_t>(q.tbl.size()); }
  const SmstEntry& entry(uint32_t s) const { return q.tbl[s]; }
  uint32_t resident(uint32_t s, uint32_t k) const { return q.resident[s * slots_ + k]; }
  const SmstReq& pend_alloc() const { return q.pa; }
  const SmstReq& pend_free() const { return q.pf; }

  void next(const In& w, D& n) const {
    // the resources of the last cycle's requests (the alloc's change carries a free of its SM,
    // which then writes nothing)
    if (q.pa.valid) {
      SmstEntry& e = n.tbl.at(q.tbl, q.pa.sm);
      e.threads = (e.threads + q.pa.threads) & width_mask(ThreadW);
      e.warps = (e.warps + q.pa.warps) & width_mask(WarpW);
      e.regs = (e.regs + q.pa.regs) & width_mask(RegW);
      e.shmem = (e.shmem + q.pa.shmem) & width_mask(ShmemW);
    }
    if (q.pf.valid && !(q.pa.valid && q.pa.sm == q.pf.sm)) {
      SmstEntry& e = n.tbl.at(q.tbl, q.pf.sm);
      e.threads = (e.threads - q.pf.threads) & width_mask(ThreadW);
      e.warps = (e.warps - q.pf.warps) & width_mask(WarpW);
      e.regs = (e.regs - q.pf.regs) & width_mask(RegW);
      e.shmem = (e.shmem - q.pf.shmem) & width_mask(ShmemW);
    }
    // this cycle's requests, with their SMs' resources as after this edge; the CTA count and the
    // resident counts at once
    n.pa = w.alloc_valid ? request(n, w.alloc_sm, w.alloc_res) : SmstReq{};
    n.pf = w.free_valid ? request(n, w.free_sm, w.free_res) : SmstReq{};
    if (w.alloc_valid && w.free_valid && w.alloc_sm == w.free_sm) {  // the alloc's change carries the free
      n.pa.threads = (n.pa.threads - w.free_res.threads) & width_mask(ThreadW);
      n.pa.warps = (n.pa.warps - w.free_res.warps) & width_mask(WarpW);
      n.pa.regs = (n.pa.regs - w.free_res.regs) & width_mask(RegW);
      n.pa.shmem = (n.pa.shmem - w.free_res.shmem) & width_mask(ShmemW);
    }
    if (w.alloc_valid) {
      SmstEntry& e = n.tbl.at(q.tbl, w.alloc_sm);
      e.ctas = (e.ctas + 1) & width_mask(CtaCntW);
      uint32_t& r = n.resident.at(q.resident, w.alloc_sm * slots_ + w.alloc_slot);
      r = (r + 1) & width_mask(CtaCntW);
    }
    if (w.free_valid) {
      SmstEntry& e = n.tbl.at(q.tbl, w.free_sm);
      e.ctas = (e.ctas - 1) & width_mask(CtaCntW);
      uint32_t& r = n.resident.at(q.resident, w.free_sm * slots_ + w.free_slot);
      r = (r - 1) & width_mask(CtaCntW);
    }
    // reservation state per touched SM: start from the registered one
    if (w.unreserve_valid) {
      SmstEntry& e = n.tbl.at(q.tbl, w.unreserve_sm);
      e.state = SmState::kIdle;  // not reserved any more; derived below
      e.owner_valid = e.next_valid;
      e.owner = e.next;
      e.next_valid = false;
      e.next = 0;
    }
    if (w.reserve_valid) {
      SmstEntry& e = n.tbl.at(q.tbl, w.reserve_sm);
      e.state = SmState::kReserved;
      e.next_valid = w.reserve_next_valid;
      e.next = w.reserve_next_valid ? w.reserve_next : 0;
    }
    if (w.owner_wr.valid) {
      SmstEntry& e = n.tbl.at(q.tbl, w.owner_wr.sm);
      e.owner_valid = w.owner_wr.owner_valid;
      e.owner = w.owner_wr.owner_valid ? w.owner_wr.owner : 0;
    }
    if (w.slot_free != 0) {
      for (uint32_t s = 0; s < q.tbl.size(); ++s) {
        const SmstEntry& cur = n.tbl.get(q.tbl, s);
        const bool clear_owner = cur.owner_valid && (w.slot_free >> cur.owner & 1u);
        const bool clear_next = cur.next_valid && (w.slot_free >> cur.next & 1u);
        if (clear_owner || clear_next) {
          SmstEntry& e = n.tbl.at(q.tbl, s);
          if (clear_owner) {
            e.owner_valid = false;
            e.owner = 0;
          }
          if (clear_next) {
            e.next_valid = false;
            e.next = 0;
          }
        }
        if (derived_state(n.tbl.get(q.tbl, s)) != n.tbl.get(q.tbl, s).state)
          n.tbl.at(q.tbl, s).state = derived_state(n.tbl.get(q.tbl, s));
      }
    } else {
      // only the SMs written this cycle can change state
      if (w.alloc_valid) derive_state(n.tbl.at(q.tbl, w.alloc_sm));
      if (w.free_valid) derive_state(n.tbl.at(q.tbl, w.free_sm));
      if (w.unreserve_valid) derive_state(n.tbl.at(q.tbl, w.unreserve_sm));
      if (w.owner_wr.valid) derive_state(n.tbl.at(q.tbl, w.owner_wr.sm));
    }
  }
  void commit() {
    d.tbl.commit(q.tbl);
    d.resident.commit(q.resident);
    q.pa = d.pa;
    q.pf = d.pf;
  }
  /// One clock edge on its own (block benches, unit tests): next() then commit().
  void clock(const In& in) {
    next(in, d);
    commit();
  }

  Regs q;  // registered state
  D d;     // next state, written by next(), committed by commit()

 private:
  /// A request of SM sm for a CTA of `cta`, with the SM's resources as in n (after this edge's
  /// resource writes).
  SmstReq request(const D& n, uint32_t sm, const CtaRes& cta) const {
    const SmstEntry& e = n.tbl.get(q.tbl, sm);
    SmstReq r;
    r.valid = true;
    r.sm = static_cast<SmId>(sm);
    r.threads = cta.threads;
    r.warps = cta.warps;
    r.regs = cta.regs;
    r.shmem = cta.shmem;
    r.used_threads = e.threads;
    r.used_warps = e.warps;
    r.used_regs = e.regs;
    r.used_shmem = e.shmem;
    return r;
  }
  static SmState derived_state(const SmstEntry& e) {
    if (e.state == SmState::kReserved) return e.state;
    return (e.owner_valid || e.ctas != 0) ? SmState::kRunning : SmState::kIdle;
  }
  static void derive_state(SmstEntry& e) { e.state = derived_state(e); }
  uint32_t slots_ = 0;
};

}  // namespace gs::golden
