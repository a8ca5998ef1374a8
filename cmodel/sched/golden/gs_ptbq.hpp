// gsched golden twin of rtl/framework/gs_ptbq.sv (Preempted Thread Block Queues).
//
// One FIFO of PtbqDepth preempted CTA ids per KSRT slot; one push (kCtaSaved) and one pop
// (the SM driver resumes the head, only of a slot whose head is ready) per cycle. A Moore
// block: count/head/ready are registered state. The same registers as the RTL: the handles in
// a Ram (gs_ram_1r1w, ReadCycles 2), a head register and its valid bit per slot, and the fill
// unit that fetches an empty head register's entry, one read every other edge
// (docs/rtl/gs_ptbq.md).
#pragma once
#include <vector>

#include "sched/golden/golden_types.hpp"
#include "sched/golden/gs_ram.hpp"

namespace gs::golden {

class Ptbq {
 public:
  struct In {
    bool push = false;       // push_valid_i
    uint32_t push_slot = 0;  // push_slot_i
    uint32_t push_cta = 0;   // push_cta_i
    bool pop = false;        // pop_valid_i
    uint32_t pop_slot = 0;   // pop_slot_i
  };
  struct Regs {
    std::vector<uint32_t> rd, cnt, head;  // rd_q, cnt_q, head_q
    uint32_t hv = 0;                      // hv_q (ready_o), bit k
    bool frd = false, fdat = false;       // frd_q, fdat_q
    uint32_t fslot = 0;                   // fslot_q
  };
  struct D {
    ArrayD<uint32_t> rd, cnt, head;
    uint32_t hv = 0;
    bool frd = false, fdat = false;
    uint32_t fslot = 0;
    // this edge's RAM access (u_mem's ports)
    bool we = false, re = false;
    uint32_t waddr = 0, wdata = 0, raddr = 0;
  };

  void reset(uint32_t slots) {
    q.rd.assign(slots, 0);
    q.cnt.assign(slots, 0);
    q.head.assign(slots, 0);
    q.hv = 0;
    q.frd = q.fdat = false;
    q.fslot = 0;
    d.rd.reset(slots);
    d.cnt.reset(slots);
    d.head.reset(slots);
    mem_ = Ram(slots * PtbqDepth, CtaIdW, 2);
  }
  uint32_t count(uint32_t k) const { return q.cnt[k]; }
  /// head_o[k]: meaningful while ready(k).
  uint32_t head(uint32_t k) const { return q.head[k]; }
  /// ready_o[k]: the head register holds slot k's head (a pop is allowed).
  bool ready(uint32_t k) const { return (q.hv >> k & 1u) != 0; }
  /// fill_o: {rd, data, slot}
  uint32_t fill() const { return (q.frd ? 2u << SlotW : 0u) | (q.fdat ? 1u << SlotW : 0u) | q.fslot; }
  uint32_t max_count() const {
    uint32_t m = 0;
    for (uint32_t c : q.cnt) m = c > m ? c : m;
    return m;
  }

  /// Slots with handles queued, their head register empty and no fill under way (the RTL's `need`).
  uint32_t need() const {
    uint32_t m = 0;
    for (uint32_t k = 0; k < q.cnt.size(); ++k)
      if (q.cnt[k] != 0 && !ready(k) && !((q.frd || q.fdat) && q.fslot == k)) m |= 1u << k;
    return m;
  }
  /// The fill unit moves registers at the coming edge without a push or a pop.
  bool busy() const { return q.frd || q.fdat || need() != 0; }

  void next(const In& in, D& n) const {
    n.hv = q.hv;
    // the fill: the lowest slot with handles queued, its head register empty, not under way
    const uint32_t need = this->need();
    n.re = need != 0 && !q.frd;
    n.raddr = 0;
    n.frd = n.re;
    n.fdat = q.frd;
    n.fslot = q.fslot;
    if (n.re) {
      n.fslot = static_cast<uint32_t>(__builtin_ctz(need));
      n.raddr = n.fslot * PtbqDepth + q.rd[n.fslot];
    }
    if (q.fdat) {  // the fill's word lands in its slot's head register
      n.head.at(q.head, q.fslot) = static_cast<uint32_t>(mem_.rdata());
      n.hv |= 1u << q.fslot;
    }
    n.we = false;
    if (in.push) {
      const uint32_t k = in.push_slot;
      n.we = true;
      n.waddr = k * PtbqDepth + (q.rd[k] + q.cnt[k]) % PtbqDepth;
      n.wdata = in.push_cta;
      n.cnt.at(q.cnt, k) = q.cnt[k] + 1;
    }
    if (in.pop) n.hv &= ~(1u << in.pop_slot);
    if (in.push) {
      const uint32_t k = in.push_slot;
      if (q.cnt[k] == 0 || (q.cnt[k] == 1 && in.pop && in.pop_slot == k)) {
        n.head.at(q.head, k) = in.push_cta;
        n.hv |= 1u << k;
      }
    }
    if (in.pop) {
      const uint32_t k = in.pop_slot;
      n.rd.at(q.rd, k) = (q.rd[k] + 1) % PtbqDepth;
      uint32_t& c = n.cnt.at(q.cnt, k);
      c = c - 1;
    }
  }
  void commit() {
    d.rd.commit(q.rd);
    d.cnt.commit(q.cnt);
    d.head.commit(q.head);
    q.hv = d.hv;
    q.frd = d.frd;
    q.fdat = d.fdat;
    q.fslot = d.fslot;
    if (d.we || d.re || q.fdat) mem_.clock_1r1w(d.we, d.waddr, d.wdata, d.re, d.raddr);
  }
  /// One clock edge on its own (block benches, unit tests): next() then commit().
  void clock(const In& in) {
    next(in, d);
    commit();
  }

  Regs q;  // registered state (the handle memory is mem_)
  D d;     // next state, written by next(), committed by commit()

 private:
  Ram mem_{1, 1};
};

}  // namespace gs::golden
