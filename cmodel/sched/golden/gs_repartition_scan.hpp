// gsched golden twin of rtl/policy/gs_repartition_scan.sv: the sequencer gs_policy_even and
// gs_policy_spatial share.
//
// A scan starts when the set of kernels with CTAs to issue differs from the set of the last
// completed scan (done) and from the set a running scan is for (target); it then takes
// `inner` steps per SM over SMs 0..num_sms-1, one step per cycle, and sets done := target
// after the last. A further change restarts it; `hold` (gs_policy_even's quota unit not ready)
// makes a running scan wait. next() writes d from q; commit() is the edge.
#pragma once
#include <cstdint>

#include "sched/golden/golden_types.hpp"

namespace gs::golden {

class RepartitionScan {
 public:
  struct Regs {
    bool busy = false;              // busy_q
    uint32_t s = 0, inner = 0;      // s_q, i_q
    uint32_t target = 0, done = 0;  // target_q, done_q
    uint32_t nk = 0;                // nk_q
  };

  /// `inner_steps` steps per SM (RTL parameter Inner).
  void reset(uint32_t inner_steps) {
    inner_steps_ = inner_steps;
    q = d = Regs{};
  }
  /// start_o: this cycle (re)starts the scan.
  bool starts(bool en, uint32_t pending) const { return en && pending != q.done && (!q.busy || pending != q.target); }
  /// step_o: this cycle takes step (q.s, q.inner) of a running scan (hold_i low).
  bool steps(bool en, uint32_t pending, bool hold = false) const {
    return en && !starts(en, pending) && q.busy && !hold;
  }

  void next(bool en, uint32_t pending, uint32_t num_sms, Regs& n, bool hold = false) const {
    n = q;
    if (!en) {
      n.busy = false;
    } else if (starts(en, pending)) {
      n.busy = true;
      n.s = 0;
      n.inner = 0;
      n.target = pending;
      n.nk = popcount32(pending);
    } else if (q.busy && !hold) {
      if (q.inner + 1 == inner_steps_) {
        n.inner = 0;
        if (q.s + 1 >= num_sms) {
          n.busy = false;
          n.done = q.target;
        }
        n.s = q.s + 1;
      } else {
        n.inner = q.inner + 1;
      }
    }
  }
  void commit() { q = d; }
  /// q as gs_repartition_scan's state_o (scan_state_t) at bit `lsb` of `st`.
  void state(PolicyState& st, uint32_t lsb) const { spec::pack_scan_state_t(st, lsb, q); }
  /// One clock edge on its own (block bench): next() then commit().
  void clock(bool en, uint32_t pending, uint32_t num_sms, bool hold = false) {
    next(en, pending, num_sms, d, hold);
    commit();
  }

  Regs q;  // registered state
  Regs d;  // next state

 private:
  uint32_t inner_steps_ = 1;
};

}  // namespace gs::golden
