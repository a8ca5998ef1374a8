// gsched golden twin of rtl/framework/gs_ptbq.sv (Preempted Thread Block Queues).
//
// One FIFO of PtbqDepth preempted CTA ids per KSRT slot; one push (kCtaSaved) and one pop
// (the SM driver resumes the head) per cycle. A Moore block: count_o/head_o are registered
// state, count(k)/head(k).
#pragma once
#include <vector>

#include "sched/golden/golden_types.hpp"

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
    std::vector<uint32_t> mem;      // mem_q [slot * PtbqDepth + entry]
    std::vector<uint32_t> rd, cnt;  // rd_q, cnt_q
  };
  struct D {
    ArrayD<uint32_t> mem, rd, cnt;
  };

  void reset(uint32_t slots) {
    q.mem.assign(slots * PtbqDepth, 0);
    q.rd.assign(slots, 0);
    q.cnt.assign(slots, 0);
    d.mem.reset(q.mem.size());
    d.rd.reset(slots);
    d.cnt.reset(slots);
  }
  uint32_t count(uint32_t k) const { return q.cnt[k]; }
  uint32_t head(uint32_t k) const { return q.mem[k * PtbqDepth + q.rd[k]]; }
  uint32_t max_count() const {
    uint32_t m = 0;
    for (uint32_t c : q.cnt) m = c > m ? c : m;
    return m;
  }

  void next(const In& in, D& n) const {
    if (in.push) {
      const uint32_t k = in.push_slot;
      n.mem.at(q.mem, k * PtbqDepth + (q.rd[k] + q.cnt[k]) % PtbqDepth) = in.push_cta;
      n.cnt.at(q.cnt, k) = q.cnt[k] + 1;
    }
    if (in.pop) {
      const uint32_t k = in.pop_slot;
      n.rd.at(q.rd, k) = (q.rd[k] + 1) % PtbqDepth;
      uint32_t& c = n.cnt.at(q.cnt, k);
      c = c - 1;
    }
  }
  void commit() {
    d.mem.commit(q.mem);
    d.rd.commit(q.rd);
    d.cnt.commit(q.cnt);
  }
  /// One clock edge on its own (block benches, unit tests): next() then commit().
  void clock(const In& in) {
    next(in, d);
    commit();
  }

  Regs q;  // registered state
  D d;     // next state, written by next(), committed by commit()
};

}  // namespace gs::golden
