// gsched golden twin of rtl/framework/gs_quota_table.sv (per-SM per-kernel CTA quotas).
//
// One write per cycle from the policy (QuotaWr); a changed entry is marked and reported, one
// report per cycle, lowest (SM, slot) first, naming the slot's kernel; a finished kernel's
// column is cleared without a report. clock() keeps the RTL's order: report (from the
// registered marks), write, column clear.
#pragma once
#include <vector>

#include "sched/golden/gs_ksrt.hpp"

namespace gs::golden {

class QuotaTable {
 public:
  struct Regs {
    std::vector<uint32_t> quota;   // quota_q [sm * slots + slot]
    std::vector<uint8_t> dirty;    // dirty_q
    QuotaCmd rep;                  // rep_q
  };

  void reset(uint32_t sms, uint32_t slots) {
    slots_ = slots;
    q = Regs{};
    q.quota.assign(sms * slots, 0);
    q.dirty.assign(sms * slots, 0);
    dirty_count_ = 0;
  }
  const std::vector<uint32_t>& quota() const { return q.quota; }
  const QuotaCmd& report() const { return q.rep; }

  void clock(const QuotaWr& wr, uint32_t slot_free, const Ksrt& ksrt) {
    QuotaCmd rep;
    if (dirty_count_ != 0) {
      for (uint32_t i = 0; i < q.dirty.size(); ++i)
        if (q.dirty[i]) {
          q.dirty[i] = 0;
          --dirty_count_;
          rep.valid = true;
          rep.sm = static_cast<SmId>(i / slots_);
          rep.kernel = ksrt.entry(i % slots_).kernel;
          rep.max_ctas = q.quota[i];
          break;
        }
    }
    if (wr.valid) {
      const uint32_t i = wr.sm * slots_ + wr.slot;
      if (q.quota[i] != wr.max_ctas) mark(i);
      q.quota[i] = wr.max_ctas;
    }
    if (slot_free != 0) {
      for (uint32_t k = 0; k < slots_; ++k)
        if (slot_free >> k & 1u)
          for (uint32_t i = k; i < q.quota.size(); i += slots_) {
            q.quota[i] = 0;
            if (q.dirty[i]) {
              q.dirty[i] = 0;
              --dirty_count_;
            }
          }
    }
    q.rep = rep;
  }

  Regs q;

 private:
  void mark(uint32_t i) {
    if (!q.dirty[i]) {
      q.dirty[i] = 1;
      ++dirty_count_;
    }
  }
  uint32_t slots_ = 0;
  uint32_t dirty_count_ = 0;  // cached popcount of dirty (speed only)
};

}  // namespace gs::golden
