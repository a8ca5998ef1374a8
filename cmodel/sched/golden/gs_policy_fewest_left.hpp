// gsched golden twin of rtl/policy/gs_policy_fewest_left.sv (fewest CTAs left first): key =
// {pos, rank}, pos = kernels with CTAs to issue that have fewer CTAs left (grid - next_cta +
// PTBQ count), or as many and an older arrival. Every SM eligible. Combinational, no state.
#pragma once
#include "sched/golden/gs_policy.hpp"

namespace gs::golden {

class PolicyFewestLeft final : public PolicyTwin {
 public:
  void reset(const PolicyCfg&) override {}

  void comb(const PolicyCfg& cfg, const PolicyView& v, const PolicyEvent&, PolicyOut& out) const override {
    const uint32_t slots = cfg.slots;
    auto left = [&](uint32_t k) {
      const KsrtEntry& e = v.ksrt->entry(k);
      // the RTL's (CtaIdW+1)-bit difference: wraps like it when next_cta > grid (never in a run)
      return ((e.grid - e.next_cta) + v.ptbq->count(k)) & width_mask(CtaIdW + 1);
    };
    for (uint32_t k = 0; k < slots; ++k) {
      uint32_t pos = 0;
      for (uint32_t j = 0; j < slots; ++j)
        if ((v.pending >> j & 1u) && (left(j) < left(k) || (left(j) == left(k) && v.aq->q.rank[j] < v.aq->q.rank[k])))
          ++pos;
      out.key[k] = OrderKey{pos & width_mask(PrioW), v.aq->q.rank[k]};
    }
    all_elig(slots, out.elig);
  }

  void next(const PolicyCfg&, const PolicyView&, const PolicyEvent&, const PolicyOut&, bool) override {}
  void commit() override {}
};

}  // namespace gs::golden
