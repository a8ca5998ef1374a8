// gsched golden twin of rtl/policy/gs_policy_spatial.sv (Spatial multitasking, Adriaens).
//
// When the set of kernels with CTAs to issue changes, SMs 0..num_sms-1 are reassigned one per
// cycle: SM s goes to the kernel numbered (s mod K) in arrival order among that set.
#pragma once
#include <vector>

#include "sched/golden/gs_active_queue.hpp"

namespace gs::golden {

class PolicySpatial {
 public:
  struct Regs {
    bool busy = false;               // busy_q
    uint32_t s = 0, pos = 0, nk = 0; // s_q, pos_q, nk_q
    uint32_t target = 0, done = 0;   // target_q, done_q
  };

  void reset() { q = Regs{}; }

  /// owner_wr_o (combinational from registers; written while busy and not restarting).
  OwnerWr owner_wr(bool en, uint32_t pending, const ActiveQueue& aq) const {
    OwnerWr w;
    if (!en || starts(en, pending) || !q.busy) return w;
    w.valid = true;
    w.sm = q.s;
    const uint32_t slots = static_cast<uint32_t>(aq.q.rank.size());
    for (uint32_t k = 0; k < slots; ++k) {
      if (!(q.target >> k & 1u)) continue;
      uint32_t p = 0;
      for (uint32_t j = 0; j < slots; ++j)
        if ((q.target >> j & 1u) && aq.q.rank[j] < aq.q.rank[k]) ++p;
      if (p == q.pos) {
        w.owner_valid = true;
        w.owner = k;
      }
    }
    return w;
  }

  void clock(bool en, uint32_t pending, uint32_t num_sms) {
    if (!en) {
      q.busy = false;
    } else if (starts(en, pending)) {
      q.busy = true;
      q.s = 0;
      q.pos = 0;
      q.target = pending;
      q.nk = popcount32(pending);
    } else if (q.busy) {
      q.pos = q.pos + 1 >= q.nk ? 0 : q.pos + 1;
      if (q.s + 1 >= num_sms) {
        q.busy = false;
        q.done = q.target;
      }
      q.s = q.s + 1;
    }
  }

  Regs q;

 private:
  bool starts(bool en, uint32_t pending) const {
    return en && pending != q.done && (!q.busy || pending != q.target);
  }
};

}  // namespace gs::golden
