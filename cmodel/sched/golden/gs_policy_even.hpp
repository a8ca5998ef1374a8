// gsched golden twin of rtl/policy/gs_policy_even.sv (Even, Warped-Slicer Sec. III, Fig. 2c).
//
// quota[s][k] = max(1, min over threads/warps/regs/shmem of floor(floor(cap/K)/per_cta)
// (0 per-CTA use = no limit), floor(cta_slots/K), kMaxCtasPerSm)), K = kernels with CTAs to
// issue. Recomputed one (SM, slot) pair per cycle when that set changes (RepartitionScan);
// changed quotas are reported one per cycle (lowest SM, then slot, first); a finished
// kernel's column is cleared.
#pragma once
#include <vector>

#include "sched/golden/gs_ksrt.hpp"
#include "sched/golden/gs_repartition_scan.hpp"

namespace gs::golden {

class PolicyEven {
 public:
  struct Regs {
    std::vector<uint32_t> quota;   // quota_q [sm * slots + slot]
    std::vector<uint8_t> dirty;    // dirty_q
    QuotaCmd rep;                  // rep_q
  };

  void reset(uint32_t sms, uint32_t slots) {
    slots_ = slots;
    q = Regs{};
    scan.reset(slots);
    q.quota.assign(sms * slots, 0);
    q.dirty.assign(sms * slots, 0);
    dirty_count_ = 0;
  }
  const std::vector<uint32_t>& quota() const { return q.quota; }
  const QuotaCmd& report() const { return q.rep; }

  /// The quota of the pair under computation (combinational in the RTL).
  static uint32_t compute(const SmCaps& c, const KsrtEntry& e, uint32_t nk) {
    if (nk == 0) return kMaxCtasPerSm;
    auto lim = [nk](uint32_t cap, uint32_t per) { return per == 0 ? kMaxCtasPerSm : (cap / nk) / per; };
    uint32_t qv = kMaxCtasPerSm;
    qv = std::min(qv, lim(c.threads, e.threads));
    qv = std::min(qv, lim(c.warps, e.warps));
    qv = std::min(qv, lim(c.regs, e.regs));
    qv = std::min(qv, lim(c.shmem, e.shmem));
    qv = std::min(qv, c.ctas / nk);
    return qv == 0 ? 1 : qv;
  }

  void clock(bool en, uint32_t pending, uint32_t num_sms, const std::vector<SmCaps>& caps, const Ksrt& ksrt,
             uint32_t slot_free) {
    // report first (reads the registered table)
    QuotaCmd rep;
    if (dirty_count_ != 0) {
      for (uint32_t i = 0; i < q.dirty.size(); ++i)
        if (q.dirty[i]) {
          q.dirty[i] = 0;
          --dirty_count_;
          rep.valid = true;
          rep.sm = static_cast<SmId>(i / slots_);
          rep.kernel = ksrt.entry(i % slots_).kernel;
          rep.max_ctas = static_cast<uint16_t>(q.quota[i]);
          break;
        }
    }
    if (scan.steps(en, pending)) {
      const uint32_t s = scan.q.s, k = scan.q.inner;
      if (scan.q.target >> k & 1u) {
        const uint32_t v = compute(caps[s], ksrt.entry(k), scan.q.nk);
        const uint32_t i = s * slots_ + k;
        if (q.quota[i] != v) mark(i);
        q.quota[i] = v;
      }
    }
    scan.clock(en, pending, num_sms);
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
  RepartitionScan scan;   // u_scan, one step per (SM, slot)

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
