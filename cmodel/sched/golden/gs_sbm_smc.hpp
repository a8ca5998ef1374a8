// gsched golden: twin of rtl/policy/gs_sbm_smc.sv -- SBM's Selective Mapping Controller
// (Bitalebi et al., Sec. 4, Fig. 6): the workgroup mapping and the bypass level of two tasks
// under one SBM_REG. docs/rtl/gs_policy_sbm.md, "The Selective Mapping Controller".
#pragma once
#include <algorithm>
#include <vector>

#include "sched/golden/golden_types.hpp"
#include "sched/golden/gs_smst.hpp"

namespace gs::golden {

/// Both tasks on every SM (MWG, MWGB) rather than on separate halves.
inline bool sbm_shared(const SbmReg& r) { return r.arch == SbmArch::kMwg || r.arch == SbmArch::kMwgb; }

/// The shared mapping's quota of task x (0: task 1): half its occupancy, plus occ_th for CI and
/// minus occ_th for the other task, at least one workgroup.
inline uint32_t sbm_quota(const SbmReg& r, uint32_t x, uint32_t occ) {
  const uint32_t base = occ >> 1;
  const uint32_t q = (r.ci == (x == 1)) ? base + r.occ_th : (base > r.occ_th ? base - r.occ_th : 0);
  return std::max(q, 1u);
}

/// The bypass level of task x: the task that is not $F bypasses in B_L2 (the L2), B_L12 and
/// MWGB (L1 and L2).
inline BypassLevel sbm_level(const SbmReg& r, uint32_t x) {
  if (r.fcache == (x == 1)) return BypassLevel::kNone;
  if (r.arch == SbmArch::kBL2) return BypassLevel::kL2;
  if (r.arch == SbmArch::kBL12 || r.arch == SbmArch::kMwgb) return BypassLevel::kL1L2;
  return BypassLevel::kNone;
}

/// elig (per SM, bit k = slot k may issue there) under r: every slot everywhere unless `on`;
/// with `on`, task 1 (slot1) and task 2 (slot2) on separate halves or held to their quotas.
inline void sbm_map(const SbmReg& r, bool on, uint32_t slot1, uint32_t slot2, uint32_t occ1, uint32_t occ2,
                    uint32_t num_sms, uint32_t slots, const Smst& smst, std::vector<uint32_t>& elig) {
  const uint32_t all = slots >= 32 ? ~0u : (1u << slots) - 1u;
  for (auto& e : elig) e = all;
  if (!on) return;
  const bool shared = sbm_shared(r);
  const uint32_t half = (num_sms + 1) >> 1;
  const uint32_t q1 = sbm_quota(r, 0, occ1), q2 = sbm_quota(r, 1, occ2);
  for (uint32_t s = 0; s < elig.size(); ++s) {
    const bool e1 = shared ? smst.resident(s, slot1) < q1 : s < half;
    const bool e2 = shared ? smst.resident(s, slot2) < q2 : s >= half;
    elig[s] = (elig[s] & ~(1u << slot1) & ~(1u << slot2)) | (e1 ? 1u << slot1 : 0u) | (e2 ? 1u << slot2 : 0u);
  }
}

}  // namespace gs::golden
