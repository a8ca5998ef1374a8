// gsched golden twin of rtl/policy/gs_policy_npq.sv (non-preemptive priority queues, Tanasic
// Sec. 4.2): highest priority first, ties by arrival ({~prio, rank}); every SM eligible (one
// kernel per SM with cfg.sm_exclusive: excl_elig).
// Combinational, no state.
#pragma once
#include "sched/golden/gs_policy.hpp"

namespace gs::golden {

class PolicyNpq final : public PolicyTwin {
 public:
  void reset(const PolicyCfg&) override {}
  void comb(const PolicyCfg& cfg, const PolicyView& v, const PolicyEvent&, PolicyOut& out) const override {
    order_keys(true, v, out.key);
    all_elig(cfg.slots, out.elig);
    excl_elig(cfg, v, out.elig);
  }
  void next(const PolicyCfg&, const PolicyView&, const PolicyEvent&, const PolicyOut&, bool) override {}
  void commit() override {}
};

}  // namespace gs::golden
