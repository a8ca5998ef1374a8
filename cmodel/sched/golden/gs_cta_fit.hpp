// gsched golden: twin of rtl/policy/gs_cta_fit.sv -- does one more CTA fit an SM: acc + cta <=
// cap per resource (threads, warps, registers, shared memory, CTA slots). The occupancy count
// of gs_policy_warped_slicer (N_k) and gs_policy_sbm (the task occupancies).
#pragma once
#include "sched/golden/golden_types.hpp"
#include "sched/golden/gs_policy.hpp"

namespace gs::golden {

/// What one CTA of the KSRT entry takes (a CTA slot included).
inline WfRes cta_res(const KsrtEntry& e) { return WfRes{e.threads, e.warps, e.regs, e.shmem, 1}; }

/// SM 0's capacity, the SM both policies size a kernel on.
inline WfRes sm0_res(const PolicyCfg& cfg) {
  const SmCaps& c = (*cfg.caps)[0];
  return WfRes{c.threads, c.warps, c.regs, c.shmem, c.ctas};
}

/// gs_cta_fit: sum = acc + cta; true when it fits cap in every resource.
inline bool cta_fit(const WfRes& acc, const WfRes& cta, const WfRes& cap, WfRes& sum) {
  sum = WfRes{acc.threads + cta.threads, acc.warps + cta.warps, acc.regs + cta.regs, acc.shmem + cta.shmem,
              acc.slots + cta.slots};
  return sum.threads <= cap.threads && sum.warps <= cap.warps && sum.regs <= cap.regs && sum.shmem <= cap.shmem &&
         sum.slots <= cap.slots;
}

}  // namespace gs::golden
