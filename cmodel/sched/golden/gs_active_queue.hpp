// gsched golden twin of rtl/framework/gs_active_queue.sv (Active Queue, Tanasic Sec. 3.3).
//
// alloc(): the lowest free KSRT slot takes the oldest launch. rank(k): arrival order of the
// active kernels (0 = oldest), kept dense: a freed slot's successors move down by one, a new
// kernel is ranked after every kernel still active after this cycle's free.
#pragma once
#include <vector>

#include "sched/golden/golden_types.hpp"

namespace gs::golden {

class ActiveQueue {
 public:
  struct Regs {
    std::vector<uint32_t> rank;  // rank_q
  };
  struct Alloc {
    bool valid = false;
    uint32_t slot = 0;
  };

  void reset(uint32_t slots) { q.rank.assign(slots, 0); }

  Alloc alloc(bool head_valid, uint32_t ksrt_valid) const {
    Alloc a;
    for (uint32_t k = 0; k < q.rank.size(); ++k)
      if (!(ksrt_valid >> k & 1u)) {
        a.valid = head_valid;
        a.slot = k;
        break;
      }
    return a;
  }

  void clock(uint32_t ksrt_valid, uint32_t free_mask, const Alloc& a) {
    uint32_t freed_rank = 0;
    for (uint32_t k = 0; k < q.rank.size(); ++k)
      if (free_mask >> k & 1u) freed_rank = q.rank[k];
    const uint32_t active_after = popcount32(ksrt_valid & ~free_mask);
    for (uint32_t k = 0; k < q.rank.size(); ++k) {
      uint32_t r = q.rank[k];
      if (free_mask >> k & 1u) r = 0;
      else if (free_mask != 0 && (ksrt_valid >> k & 1u) && r > freed_rank) --r;
      if (a.valid && a.slot == k) r = active_after;
      q.rank[k] = r;
    }
  }

  Regs q;
};

}  // namespace gs::golden
