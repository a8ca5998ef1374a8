// gsched golden twin of rtl/framework/gs_sm_driver.sv (SM driver, Tanasic Sec. 3.2-3.3).
//
// issue(): at most one (SM, kernel) pair per cycle from registered state: SMs round-robin
// from rr, per SM the kernel with the lowest key among those with work, allowed by the
// policy, owning the SM when owner_strict, under quota when quota_en, whose CTA fits every
// free resource; not on reserved SMs. PTBQ head before fresh CTAs. clock() loads the
// dispatch record (the port output of the next cycle) and the rr pointer.
#pragma once
#include <vector>

#include "sched/golden/golden_types.hpp"
#include "sched/golden/gs_ksrt.hpp"
#include "sched/golden/gs_ptbq.hpp"
#include "sched/golden/gs_smst.hpp"

namespace gs::golden {

/// The policy's view handed to the SM driver (gs_top's muxed policy outputs).
struct DriverPolicy {
  bool owner_strict = false;
  uint32_t allow = ~0u;
  bool quota_en = false;
  const std::vector<uint32_t>* quota = nullptr;  // [sm * slots + slot]
  const std::vector<OrderKey>* key = nullptr;    // per slot
};

class SmDriver {
 public:
  struct Regs {
    uint32_t rr = 0;       // rr_q
    DispatchCmd dispatch;  // dispatch_q
  };
  struct Issue {
    bool valid = false;
    uint32_t sm = 0, slot = 0;
    bool resume = false;
    uint32_t cta = 0;
    CtaRes res;
  };

  void reset() { q = Regs{}; }
  const DispatchCmd& dispatch() const { return q.dispatch; }

  /// Kernels with CTAs to issue that the policy allows (the RTL's `work` vector).
  static uint32_t work_mask(const Ksrt& ksrt, const Ptbq& ptbq, uint32_t allow) {
    uint32_t w = 0;
    for (uint32_t k = 0; k < ksrt.slots(); ++k) {
      const KsrtEntry& e = ksrt.entry(k);
      if (e.valid && (allow >> k & 1u) && (ptbq.count(k) != 0 || e.next_cta != e.grid)) w |= 1u << k;
    }
    return w;
  }

  Issue issue(const std::vector<SmCaps>& caps, const Smst& smst, const Ksrt& ksrt, const Ptbq& ptbq,
              const DriverPolicy& pol) const {
    Issue is;
    const uint32_t work = work_mask(ksrt, ptbq, pol.allow);
    if (work == 0) return is;
    const uint32_t n = smst.sms();
    const uint32_t slots = ksrt.slots();
    for (uint32_t i = 0; i < n; ++i) {
      const uint32_t s = (q.rr + i) % n;
      const SmstEntry& m = smst.entry(s);
      if (m.reserved()) continue;
      const SmCaps& c = caps[s];
      bool has = false;
      uint32_t best = 0;
      OrderKey best_key;
      for (uint32_t k = 0; k < slots; ++k) {
        if (!(work >> k & 1u)) continue;
        if (pol.owner_strict && !(m.owner_valid && m.owner == k)) continue;
        if (pol.quota_en && !(smst.resident(s, k) < (*pol.quota)[s * slots + k])) continue;
        const KsrtEntry& e = ksrt.entry(k);
        const bool fits = m.threads + e.threads <= c.threads && m.warps + e.warps <= c.warps &&
                          m.regs + e.regs <= c.regs && m.shmem + e.shmem <= c.shmem && m.ctas < c.ctas;
        if (!fits) continue;
        const OrderKey& key = (*pol.key)[k];
        if (!has || key < best_key) {
          has = true;
          best = k;
          best_key = key;
        }
      }
      if (has) {
        const KsrtEntry& e = ksrt.entry(best);
        is.valid = true;
        is.sm = s;
        is.slot = best;
        is.resume = ptbq.count(best) != 0;
        is.cta = is.resume ? ptbq.head(best) : e.next_cta;
        is.res = CtaRes{e.threads, e.warps, e.regs, e.shmem};
        return is;
      }
    }
    return is;
  }

  void clock(const Issue& is, const Ksrt& ksrt, uint32_t num_sms) {
    DispatchCmd d;
    if (is.valid) {
      d.valid = true;
      d.sm = static_cast<SmId>(is.sm);
      d.kernel = ksrt.entry(is.slot).kernel;
      d.cta = is.cta;
      d.resume = is.resume;
      q.rr = (is.sm + 1 >= num_sms) ? 0 : is.sm + 1;
    }
    q.dispatch = d;
  }

  Regs q;
};

}  // namespace gs::golden
