// gsched golden: twin of rtl/policy/gs_sbm_smc.sv -- SBM's Selective Mapping Controller
// (Bitalebi et al., Sec. 4, Fig. 6): the workgroup mapping and the bypass level of two tasks
// under one SBM_REG; the mapping's half and quotas registered a cycle after their inputs. docs/rtl/gs_policy_sbm.md, "The Selective Mapping Controller".
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

/// gs_sbm_smc's registers (sbm_smc_state_t) and mapping: the half, the quotas and the kind of
/// mapping registered from SBM_REG, the occupancies and num_sms a cycle after them; the
/// mapping applies while `on` has been high two cycles running (on()).
class SbmSmc {
 public:
  struct Regs {
    bool on = false, shared = false;
    uint32_t half = 0, q1 = 0, q2 = 0;
  };

  void reset() { q = d = Regs{}; }

  /// on_o: the mapping applies this cycle.
  bool on(bool on_now) const { return on_now && q.on; }

  /// elig_o (per SM, bit k = slot k may issue there): every slot everywhere unless on(on_now);
  /// then task 1 (slot1) and task 2 (slot2) on separate halves or held to their quotas.
  void map(bool on_now, uint32_t slot1, uint32_t slot2, uint32_t slots, const Smst& smst,
           std::vector<uint32_t>& elig) const {
    const uint32_t all = slots >= 32 ? ~0u : (1u << slots) - 1u;
    for (auto& e : elig) e = all;
    if (!on(on_now)) return;
    for (uint32_t s = 0; s < elig.size(); ++s) {
      const bool e1 = q.shared ? smst.resident(s, slot1) < q.q1 : s < q.half;
      const bool e2 = q.shared ? smst.resident(s, slot2) < q.q2 : s >= q.half;
      elig[s] = (elig[s] & ~(1u << slot1) & ~(1u << slot2)) | (e1 ? 1u << slot1 : 0u) | (e2 ? 1u << slot2 : 0u);
    }
  }

  void next(const SbmReg& r, bool on_now, uint32_t occ1, uint32_t occ2, uint32_t num_sms) {
    d.on = on_now;
    d.shared = sbm_shared(r);
    d.half = (num_sms + 1) >> 1;
    d.q1 = sbm_quota(r, 0, occ1);
    d.q2 = sbm_quota(r, 1, occ2);
  }
  void commit() { q = d; }

  /// The registers as state_o carries them, at bit `lsb` of a policy state record.
  void state(PolicyState& st, uint32_t lsb) const { spec::pack_sbm_smc_state_t(st, lsb, q); }

  Regs q, d;
};

}  // namespace gs::golden
