// gsched golden twin of rtl/framework/gs_active_queue.sv (Active Queue, Tanasic Sec. 3.3).
//
// comb(): the lowest free KSRT slot takes the oldest launch (alloc, pop_o). rank(k): arrival
// order of the active kernels (0 = oldest), kept dense: a freed slot's successors move down
// by one, a new kernel is ranked after every kernel still active after this cycle's free.
#pragma once
#include <vector>

#include "sched/golden/golden_types.hpp"

namespace gs::golden {

class ActiveQueue {
 public:
  struct In {
    bool head_valid = false;  // head_valid_i
    uint32_t ksrt_valid = 0;  // ksrt_valid_i (registered KSRT valid bits)
    uint32_t free_mask = 0;   // free_i (slot freed this cycle, one-hot or 0)
  };
  struct Alloc {
    bool valid = false;  // alloc_valid_o (= pop_o)
    uint32_t slot = 0;   // alloc_slot_o
  };
  using Out = Alloc;  // rank_o is the registered q.rank
  struct Regs {
    std::vector<uint32_t> rank;  // rank_q
  };
  struct D {
    ArrayD<uint32_t> rank;
  };

  void reset(uint32_t slots) {
    q.rank.assign(slots, 0);
    d.rank.reset(slots);
  }

  /// Reads head_valid and ksrt_valid only.
  Out comb(const In& in) const {
    Alloc a;
    for (uint32_t k = 0; k < q.rank.size(); ++k)
      if (!(in.ksrt_valid >> k & 1u)) {
        a.valid = in.head_valid;
        a.slot = k;
        break;
      }
    return a;
  }

  /// `out` is this cycle's comb(in).
  void next(const In& in, const Out& out, D& n) const {
    if (in.free_mask == 0 && !out.valid) return;  // no rank changes
    uint32_t freed_rank = 0;
    for (uint32_t k = 0; k < q.rank.size(); ++k)
      if (in.free_mask >> k & 1u) freed_rank = q.rank[k];
    const uint32_t active_after = popcount32(in.ksrt_valid & ~in.free_mask);
    for (uint32_t k = 0; k < q.rank.size(); ++k) {
      uint32_t r = q.rank[k];
      if (in.free_mask >> k & 1u) r = 0;
      else if (in.free_mask != 0 && (in.ksrt_valid >> k & 1u) && r > freed_rank) --r;
      if (out.valid && out.slot == k) r = active_after;
      if (r != q.rank[k]) n.rank.at(q.rank, k) = r;
    }
  }
  void commit() { d.rank.commit(q.rank); }
  /// One clock edge on its own (block benches, unit tests): comb(), next(), commit().
  void clock(const In& in) {
    next(in, comb(in), d);
    commit();
  }

  Regs q;  // registered state
  D d;     // next state, written by next(), committed by commit()
};

}  // namespace gs::golden
