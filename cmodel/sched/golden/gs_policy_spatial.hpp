// gsched golden twin of rtl/policy/gs_policy_spatial.sv (Spatial multitasking, Adriaens).
//
// When the set of kernels with CTAs to issue changes, SMs 0..num_sms-1 are reassigned one per
// cycle (RepartitionScan, one step per SM): SM s goes to the kernel numbered (s mod K) in
// arrival order among that set. A step's owner write is registered (wr, on out the cycle after).
#pragma once
#include <vector>

#include "sched/golden/gs_policy.hpp"
#include "sched/golden/gs_repartition_scan.hpp"

namespace gs::golden {

class PolicySpatial final : public PolicyTwin {
 public:
  struct Regs {
    uint32_t pos = 0;  // pos_q: the next SM's owner, by number among the target kernels
    OwnerWr wr;        // wr_q: the last step's owner write, on out
  };

  void reset(const PolicyCfg&) override {
    q = d = Regs{};
    scan.reset(1);
  }

  void comb(const PolicyCfg&, const PolicyView& v, const PolicyEvent&, PolicyOut& out) const override {
    order_keys(false, v, out.key);
    owner_elig(v, out.elig);
    out.owner_wr = q.wr;
  }
  void next(const PolicyCfg& cfg, const PolicyView& v, const PolicyEvent&, const PolicyOut&, bool) override {
    next(true, v.pending, cfg.num_sms, d);
    d.wr = owner_wr(true, v.pending, *v.aq);
  }
  void commit() override {
    q = d;
    scan.commit();
  }
  void state(PolicyState& st) const override {
    st.clear();
    spec::pack_spatial_state_t(st, 0, q, scan);
  }

  /// wr_d: the owner write of this cycle's scan step (registered into wr).
  OwnerWr owner_wr(bool en, uint32_t pending, const ActiveQueue& aq) const {
    OwnerWr w;
    if (!scan.steps(en, pending)) return w;
    w.valid = true;
    w.sm = static_cast<SmId>(scan.q.s);
    const uint32_t target = scan.q.target;
    const uint32_t slots = static_cast<uint32_t>(aq.q.rank.size());
    for (uint32_t k = 0; k < slots; ++k) {
      if (!(target >> k & 1u)) continue;
      uint32_t p = 0;
      for (uint32_t j = 0; j < slots; ++j)
        if ((target >> j & 1u) && aq.q.rank[j] < aq.q.rank[k]) ++p;
      if (p == q.pos) {
        w.owner_valid = true;
        w.owner = k;
      }
    }
    return w;
  }

  void next(bool en, uint32_t pending, uint32_t num_sms, Regs& n) {
    n = q;
    if (scan.starts(en, pending)) n.pos = 0;
    else if (scan.steps(en, pending)) n.pos = q.pos + 1 >= scan.q.nk ? 0 : q.pos + 1;
    scan.next(en, pending, num_sms, scan.d);
  }

  Regs q;                // registered state
  Regs d;                // next state
  RepartitionScan scan;  // u_scan, one step per SM
};

}  // namespace gs::golden
