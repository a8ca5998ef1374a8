// gsched golden twin of rtl/policy/gs_policy_even.sv (Even, Warped-Slicer Sec. III, Fig. 2c).
//
// quota[s][k] = max(1, min over threads/warps/regs/shmem of floor(floor(cap/K)/per_cta)
// (0 per-CTA use = no limit), floor(cta_slots/K), MaxCtasPerSm)), K = kernels with CTAs to
// issue. Recomputed one (SM, slot) pair per cycle when that set changes (RepartitionScan),
// each written into the framework's quota table (QuotaTable), which reports changes.
#pragma once
#include <algorithm>
#include <vector>

#include "sched/golden/gs_policy.hpp"
#include "sched/golden/gs_repartition_scan.hpp"

namespace gs::golden {

class PolicyEven final : public PolicyTwin {
 public:
  void reset(const PolicyCfg& cfg) override { scan.reset(cfg.slots); }

  /// The quota of the pair under computation (combinational in the RTL).
  static uint32_t compute(const SmCaps& c, const KsrtEntry& e, uint32_t nk) {
    if (nk == 0) return MaxCtasPerSm;
    auto lim = [nk](uint32_t cap, uint32_t per) { return per == 0 ? MaxCtasPerSm : (cap / nk) / per; };
    uint32_t qv = MaxCtasPerSm;
    qv = std::min(qv, lim(c.threads, e.threads));
    qv = std::min(qv, lim(c.warps, e.warps));
    qv = std::min(qv, lim(c.regs, e.regs));
    qv = std::min(qv, lim(c.shmem, e.shmem));
    qv = std::min(qv, c.ctas / nk);
    return qv == 0 ? 1 : qv;
  }

  void comb(const PolicyCfg& cfg, const PolicyView& v, const PolicyEvent&, PolicyOut& out) const override {
    order_keys(false, v, out.key);
    all_elig(cfg.slots, out.elig);
    out.quota_en = true;
    if (scan.steps(true, v.pending)) {
      const uint32_t s = scan.q.s, k = scan.q.inner;
      if (scan.q.target >> k & 1u) {
        out.quota_wr.valid = true;
        out.quota_wr.sm = static_cast<SmId>(s);
        out.quota_wr.slot = k;
        out.quota_wr.max_ctas = compute((*cfg.caps)[s], v.ksrt->entry(k), scan.q.nk);
      }
    }
  }

  void next(const PolicyCfg& cfg, const PolicyView& v, const PolicyEvent&, const PolicyOut&, bool) override {
    scan.next(true, v.pending, cfg.num_sms, scan.d);
  }
  void commit() override { scan.commit(); }
  void state(PolicyState& st) const override {  // scan_state_t
    st.clear();
    scan.state(st, 0);
  }

  RepartitionScan scan;  // u_scan, one step per (SM, slot)
};

}  // namespace gs::golden
