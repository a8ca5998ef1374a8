// gsched golden twin of rtl/framework/gs_quota_table.sv (per-SM per-kernel CTA quotas).
//
// One write per cycle from the policy (QuotaWr); a write that changes its entry waits (pend)
// and is reported at the next edge, naming the slot's kernel (at most one change ever waits);
// a finished kernel's column is cleared, and a waiting change of it dropped, without a report.
// A Moore block: quota_o and rep_o are registered, quota() and report(). next() keeps the
// RTL's order: report (of the waiting change), write, column clear.
#pragma once
#include <vector>

#include "sched/golden/gs_ksrt.hpp"

namespace gs::golden {

class QuotaTable {
 public:
  struct In {
    QuotaWr wr;                  // wr_i
    uint32_t slot_free = 0;      // slot_free_i
    const Ksrt* ksrt = nullptr;  // ksrt_i (kernel id of a reported slot)
  };
  struct Regs {
    std::vector<uint32_t> quota;  // quota_q [sm * slots + slot]
    QuotaWr pend;                 // pend_q: the change that waits for its report
    QuotaCmd rep;                 // rep_q
  };
  struct D {
    ArrayD<uint32_t> quota;
    QuotaWr pend;
    QuotaCmd rep;
  };

  void reset(uint32_t sms, uint32_t slots) {
    slots_ = slots;
    q = Regs{};
    q.quota.assign(sms * slots, 0);
    d.quota.reset(q.quota.size());
  }
  const std::vector<uint32_t>& quota() const { return q.quota; }
  const QuotaCmd& report() const { return q.rep; }

  const QuotaWr& pending() const { return q.pend; }

  void next(const In& in, D& n) const {
    QuotaCmd rep;
    if (q.pend.valid) {
      rep.valid = true;
      rep.sm = q.pend.sm;
      rep.kernel = in.ksrt->entry(q.pend.slot).kernel;
      rep.max_ctas = q.pend.max_ctas;
    }
    QuotaWr pend;
    if (in.wr.valid) {
      const uint32_t i = in.wr.sm * slots_ + in.wr.slot;
      if (q.quota[i] != in.wr.max_ctas) {
        pend = in.wr;
        n.quota.at(q.quota, i) = in.wr.max_ctas;
      }
    }
    if (in.slot_free != 0) {
      for (uint32_t k = 0; k < slots_; ++k)
        if (in.slot_free >> k & 1u)
          for (uint32_t i = k; i < q.quota.size(); i += slots_)
            if (n.quota.get(q.quota, i) != 0) n.quota.at(q.quota, i) = 0;
      if (pend.valid && (in.slot_free >> pend.slot & 1u)) pend.valid = false;
    }
    n.rep = rep;
    n.pend = pend;
  }
  void commit() {
    d.quota.commit(q.quota);
    q.rep = d.rep;
    q.pend = d.pend;
  }
  /// One clock edge on its own (block benches, unit tests): next() then commit().
  void clock(const In& in) {
    next(in, d);
    commit();
  }

  Regs q;  // registered state
  D d;     // next state, written by next(), committed by commit()

 private:
  uint32_t slots_ = 0;
};

}  // namespace gs::golden
