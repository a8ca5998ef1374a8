// gsched golden twin of rtl/framework/gs_sm_driver.sv (SM driver, Tanasic Sec. 3.2-3.3).
//
// comb() (issue_*_o): at most one (SM, kernel) pair per cycle from registered state: SMs
// round-robin from rr, per SM the kernel with the lowest key among those with work, eligible
// on the SM (the policy's elig), under quota when quota_en and under the CTA limit when set,
// whose CTA fits every free resource; not on reserved SMs. PTBQ head before fresh CTAs.
// next() loads the dispatch record (dispatch_o, the port output of the next cycle) and rr.
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
  struct In {
    const std::vector<SmCaps>* caps = nullptr;  // cfg_sm_*_i
    uint32_t num_sms = 0;                       // cfg_num_sms_i
    const Smst* smst = nullptr;                 // smst_i, resident_i (registered tables)
    const Ksrt* ksrt = nullptr;                 // ksrt_i
    const Ptbq* ptbq = nullptr;                 // ptbq_count_i, ptbq_head_i
    DriverPolicy pol;                           // elig_i, quota_en_i, quota_i, cfg_cta_limit_i, key_i
  };
  struct Issue {
    bool valid = false;
    uint32_t sm = 0, slot = 0;
    bool resume = false;
    uint32_t cta = 0;
    CtaRes res;
  };
  using Out = Issue;  // issue_*_o; dispatch_o is the registered dispatch()
  struct Regs {
    uint32_t rr = 0;       // rr_q
    DispatchCmd dispatch;  // dispatch_q
  };
  using D = Regs;  // scalars only: next() writes all of it

  void reset() { q = d = Regs{}; }
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

  Out comb(const In& in) const { return issue(*in.caps, *in.smst, *in.ksrt, *in.ptbq, in.pol); }

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

  /// `is` is this cycle's comb(in).
  void next(const In& in, const Issue& is, D& n) const {
    DispatchCmd dc;
    n.rr = q.rr;
    if (is.valid) {
      dc.valid = true;
      dc.sm = static_cast<SmId>(is.sm);
      dc.kernel = in.ksrt->entry(is.slot).kernel;
      dc.cta = is.cta;
      dc.resume = is.resume;
      n.rr = (is.sm + 1 >= in.num_sms) ? 0 : is.sm + 1;
    }
    n.dispatch = dc;
  }
  void commit() { q = d; }
  /// One clock edge on its own (block benches): next() with a given comb(in), then commit().
  void clock(const In& in, const Issue& is) {
    next(in, is, d);
    commit();
  }

  Regs q;  // registered state
  D d;     // next state, written by next(), committed by commit()
};

}  // namespace gs::golden
