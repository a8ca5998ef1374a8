// gsched golden twin of rtl/framework/gs_sm_driver.sv (SM driver, Tanasic Sec. 3.2-3.3).
//
// issue(): at most one (SM, kernel) pair per cycle from registered state: SMs round-robin
// from rr, per SM the kernel with the lowest key among those with work, eligible on the SM
// (the policy's elig), under quota when quota_en and under the CTA limit when set, whose CTA
// fits every free resource; not on reserved SMs. PTBQ head before fresh CTAs. clock() loads the
// dispatch record (the port output of the next cycle) and the rr pointer.
#pragma once
#include <vector>

#include "sched/golden/golden_types.hpp"
#include "sched/golden/gs_ksrt.hpp"
#include "sched/golden/gs_ptbq.hpp"
#include "sched/golden/gs_smst.hpp"

namespace gs::golden {

/// What the SM driver reads besides the tables: the selected policy's outputs (gs_top's
/// policy_out_t), the quota table and the configured CTA limit.
struct DriverPolicy {
  const std::vector<uint32_t>* elig = nullptr;   // elig_i: per SM, bit k = slot k may issue
  bool quota_en = false;                         // quota_en_i
  const std::vector<uint32_t>* quota = nullptr;  // quota_i [sm * slots + slot]
  uint32_t cta_limit = 0;                        // cfg_cta_limit_i (0 = none)
  const std::vector<OrderKey>* key = nullptr;    // key_i, per slot
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

  /// Kernels with CTAs to issue (the RTL's `work` vector).
  static uint32_t work_mask(const Ksrt& ksrt, const Ptbq& ptbq) {
    uint32_t w = 0;
    for (uint32_t k = 0; k < ksrt.slots(); ++k) {
      const KsrtEntry& e = ksrt.entry(k);
      if (e.valid && (ptbq.count(k) != 0 || e.next_cta != e.grid)) w |= 1u << k;
    }
    return w;
  }

  Issue issue(const std::vector<SmCaps>& caps, const Smst& smst, const Ksrt& ksrt, const Ptbq& ptbq,
              const DriverPolicy& pol) const {
    Issue is;
    const uint32_t work = work_mask(ksrt, ptbq);
    if (work == 0) return is;
    const uint32_t n = smst.sms();
    const uint32_t slots = ksrt.slots();
    for (uint32_t i = 0; i < n; ++i) {
      const uint32_t s = (q.rr + i) % n;
      const SmstEntry& m = smst.entry(s);
      if (reserved(m)) continue;
      const SmCaps& c = caps[s];
      bool has = false;
      uint32_t best = 0;
      OrderKey best_key;
      const uint32_t elig = work & (*pol.elig)[s];
      for (uint32_t k = 0; k < slots; ++k) {
        if (!(elig >> k & 1u)) continue;
        const uint32_t resid = smst.resident(s, k);
        if (pol.quota_en && !(resid < (*pol.quota)[s * slots + k])) continue;
        if (pol.cta_limit != 0 && !(resid < pol.cta_limit)) continue;
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
