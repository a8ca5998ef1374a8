// gsched golden twin of rtl/policy/gs_policy_left_over.sv (Left-Over / FIFO, Warped-Slicer
// Sec. III, Fig. 2b): kernels in arrival order, every SM eligible (one kernel per SM with
// cfg.sm_exclusive: excl_elig), no quota (the framework's cta_limit still applies).
// Combinational, no state.
#pragma once
#include "sched/golden/gs_policy.hpp"

namespace gs::golden {

class PolicyLeftOver final : public PolicyTwin {
 public:
  void reset(const PolicyCfg&) override {}
  void comb(const PolicyCfg& cfg, const PolicyView& v, const PolicyEvent&, PolicyOut& out) const override {
    order_keys(false, v, out.key);
    all_elig(cfg.slots, out.elig);
    excl_elig(cfg, v, out.elig);
  }
  void next(const PolicyCfg&, const PolicyView&, const PolicyEvent&, const PolicyOut&, bool) override {}
  void commit() override {}
};

}  // namespace gs::golden
