// gsched golden twin of rtl/framework/gs_ptbq.sv (Preempted Thread Block Queues).
//
// One FIFO of PtbqDepth preempted CTA ids per KSRT slot; one push (kCtaSaved) and one pop
// (the SM driver resumes the head) per cycle. A Moore block: count_o/head_o are registered
// state, count(k)/head(k). The same registers as the RTL: the handles in a Ram (gs_ram_1r1w),
// a head register per slot, and the RAM's read port as the head of the slot popped at the last
// edge (fill, fill_slot) until the next edge copies it (docs/rtl/gs_ptbq.md).
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
    bool fill = false;                    // fill_q
    uint32_t fill_slot = 0;               // fill_slot_q
  };
  struct D {
    ArrayD<uint32_t> rd, cnt, head;
    bool fill = false;
    uint32_t fill_slot = 0;
    // this edge's RAM access (u_mem's ports)
    bool we = false, re = false;
    uint32_t waddr = 0, wdata = 0, raddr = 0;
  };

  void reset(uint32_t slots) {
    q.rd.assign(slots, 0);
    q.cnt.assign(slots, 0);
    q.head.assign(slots, 0);
    q.fill = false;
    q.fill_slot = 0;
    d.rd.reset(slots);
    d.cnt.reset(slots);
    d.head.reset(slots);
    mem_ = Ram(slots * PtbqDepth, CtaIdW);
  }
  uint32_t count(uint32_t k) const { return q.cnt[k]; }
  /// head_o[k]: meaningful while count(k) != 0.
  uint32_t head(uint32_t k) const {
    return q.fill && q.fill_slot == k ? static_cast<uint32_t>(mem_.rdata()) : q.head[k];
  }
  uint32_t max_count() const {
    uint32_t m = 0;
    for (uint32_t c : q.cnt) m = c > m ? c : m;
    return m;
  }

  void next(const In& in, D& n) const {
    // the word on the RAM's port lands in its slot's head register
    if (q.fill) n.head.at(q.head, q.fill_slot) = head(q.fill_slot);
    n.fill = false;
    n.fill_slot = in.pop_slot;
    n.we = n.re = false;
    if (in.push) {
      const uint32_t k = in.push_slot;
      n.we = true;
      n.waddr = k * PtbqDepth + (q.rd[k] + q.cnt[k]) % PtbqDepth;
      n.wdata = in.push_cta;
      n.cnt.at(q.cnt, k) = q.cnt[k] + 1;
      if (q.cnt[k] == 0 || (q.cnt[k] == 1 && in.pop && in.pop_slot == k)) n.head.at(q.head, k) = in.push_cta;
    }
    if (in.pop) {
      const uint32_t k = in.pop_slot;
      if (q.cnt[k] > 1) {  // the entry behind the head becomes the head
        n.re = true;
        n.raddr = k * PtbqDepth + (q.rd[k] + 1) % PtbqDepth;
        n.fill = true;
      }
      n.rd.at(q.rd, k) = (q.rd[k] + 1) % PtbqDepth;
      uint32_t& c = n.cnt.at(q.cnt, k);
      c = c - 1;
    }
  }
  void commit() {
    d.rd.commit(q.rd);
    d.cnt.commit(q.cnt);
    d.head.commit(q.head);
    q.fill = d.fill;
    q.fill_slot = d.fill_slot;
    if (d.we || d.re) mem_.clock_1r1w(d.we, d.waddr, d.wdata, d.re, d.raddr);
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
