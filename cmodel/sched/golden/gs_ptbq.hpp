// gsched golden twin of rtl/framework/gs_ptbq.sv (Preempted Thread Block Queues).
//
// One FIFO of PtbqDepth preempted CTA ids per KSRT slot; one push (kCtaSaved) and one pop
// (the SM driver resumes the head) per cycle. count()/head() are registered state.
#pragma once
#include <vector>

#include "sched/golden/golden_types.hpp"

namespace gs::golden {

class Ptbq {
 public:
  struct Regs {
    std::vector<std::array<uint32_t, PtbqDepth>> mem;  // mem_q
    std::vector<uint32_t> rd, cnt;                        // rd_q, cnt_q
  };

  void reset(uint32_t slots) {
    q.mem.assign(slots, {});
    q.rd.assign(slots, 0);
    q.cnt.assign(slots, 0);
  }
  uint32_t count(uint32_t k) const { return q.cnt[k]; }
  uint32_t head(uint32_t k) const { return q.mem[k][q.rd[k]]; }
  uint32_t max_count() const {
    uint32_t m = 0;
    for (uint32_t c : q.cnt) m = c > m ? c : m;
    return m;
  }

  void clock(bool push, uint32_t push_slot, uint32_t push_cta, bool pop, uint32_t pop_slot) {
    if (push) {
      q.mem[push_slot][(q.rd[push_slot] + q.cnt[push_slot]) % PtbqDepth] = push_cta;
      ++q.cnt[push_slot];
    }
    if (pop) {
      q.rd[pop_slot] = (q.rd[pop_slot] + 1) % PtbqDepth;
      --q.cnt[pop_slot];
    }
  }

  Regs q;
};

}  // namespace gs::golden
