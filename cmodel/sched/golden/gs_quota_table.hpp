// gsched golden twin of rtl/framework/gs_quota_table.sv (per-SM per-kernel CTA quotas).
//
// One write per cycle from the policy (QuotaWr); a changed entry is marked and reported, one
// report per cycle, lowest (SM, slot) first, naming the slot's kernel; a finished kernel's
// column is cleared without a report. A Moore block: quota_o and rep_o are registered,
// quota() and report(). next() keeps the RTL's order: report (from the registered marks),
// write, column clear.
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
    std::vector<uint8_t> dirty;   // dirty_q
    QuotaCmd rep;                 // rep_q
    uint32_t dirty_count = 0;     // popcount of dirty_q, kept for speed (no RTL register)
  };
  struct D {
    ArrayD<uint32_t> quota;
    ArrayD<uint8_t> dirty;
    QuotaCmd rep;
    uint32_t dirty_count = 0;
  };

  void reset(uint32_t sms, uint32_t slots) {
    slots_ = slots;
    q = Regs{};
    q.quota.assign(sms * slots, 0);
    q.dirty.assign(sms * slots, 0);
    d.quota.reset(q.quota.size());
    d.dirty.reset(q.dirty.size());
  }
  const std::vector<uint32_t>& quota() const { return q.quota; }
  const QuotaCmd& report() const { return q.rep; }

  void next(const In& in, D& n) const {
    QuotaCmd rep;
    uint32_t dirty_count = q.dirty_count;
    if (q.dirty_count != 0) {
      for (uint32_t i = 0; i < q.dirty.size(); ++i)
        if (q.dirty[i]) {
          n.dirty.at(q.dirty, i) = 0;
          --dirty_count;
          rep.valid = true;
          rep.sm = static_cast<SmId>(i / slots_);
          rep.kernel = in.ksrt->entry(i % slots_).kernel;
          rep.max_ctas = q.quota[i];
          break;
        }
    }
    if (in.wr.valid) {
      const uint32_t i = in.wr.sm * slots_ + in.wr.slot;
      if (q.quota[i] != in.wr.max_ctas) {
        if (!n.dirty.get(q.dirty, i)) {
          n.dirty.at(q.dirty, i) = 1;
          ++dirty_count;
        }
        n.quota.at(q.quota, i) = in.wr.max_ctas;
      }
    }
    if (in.slot_free != 0) {
      for (uint32_t k = 0; k < slots_; ++k)
        if (in.slot_free >> k & 1u)
          for (uint32_t i = k; i < q.quota.size(); i += slots_) {
            if (n.quota.get(q.quota, i) != 0) n.quota.at(q.quota, i) = 0;
            if (n.dirty.get(q.dirty, i)) {
              n.dirty.at(q.dirty, i) = 0;
              --dirty_count;
            }
          }
    }
    n.rep = rep;
    n.dirty_count = dirty_count;
  }
  void commit() {
    d.quota.commit(q.quota);
    d.dirty.commit(q.dirty);
    q.rep = d.rep;
    q.dirty_count = d.dirty_count;
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
