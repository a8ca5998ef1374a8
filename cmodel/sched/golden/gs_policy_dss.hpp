// gsched golden twin of rtl/policy/gs_policy_dss.sv (Dynamic Spatial Sharing, Tanasic
// Sec. 3.4, Algorithm 1, on the policy contract): the decisions are DssUnitTwin's
// (gs_dss_unit); the unit wakes on any event, an SM issues only CTAs of its owner, kernels
// are ordered by arrival, and the token move of a preemption is output before acceptance
// (the framework applies it only if the request is accepted).
#pragma once
#include "sched/golden/gs_dss_unit.hpp"
#include "sched/golden/gs_policy.hpp"

namespace gs::golden {

class PolicyDss final : public PolicyTwin {
 public:
  void reset(const PolicyCfg& cfg) override { unit.reset(cfg.slots); }

  void comb(const PolicyCfg&, const PolicyView& v, const PolicyEvent&, PolicyOut& out) const override {
    order_keys(false, v, out.key);
    owner_elig(v, out.elig);
    const DssUnitTwin::Out o = unit.comb(true, v.pending, *v.ksrt, *v.aq, *v.smst);
    out.owner_wr = o.owner_wr;
    out.tok = o.tok_pre;
    out.req = o.req;
  }

  void next(const PolicyCfg& cfg, const PolicyView& v, const PolicyEvent& ev, const PolicyOut&, bool) override {
    // the unit's next state reads its combinational signals (changed, the SM it acts on)
    const DssUnitTwin::Out o = unit.comb(true, v.pending, *v.ksrt, *v.aq, *v.smst);
    const bool trigger = ev.ev_valid || ev.alloc_valid || ev.slot_free != 0;
    unit.next(true, trigger, o, v.pending, *v.ksrt, *v.aq, *v.smst, cfg.num_sms, unit.d);
  }
  void commit() override { unit.commit(); }
  void state(PolicyState& st) const override { unit.state(st); }  // dss_state_t

  DssUnitTwin unit;  // u_unit
};

}  // namespace gs::golden
