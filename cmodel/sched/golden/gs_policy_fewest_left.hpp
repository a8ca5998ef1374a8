// gsched golden twin of rtl/policy/gs_policy_fewest_left.sv (fewest CTAs left first): key =
// {pos, rank}, pos = kernels with CTAs to issue that have fewer CTAs left (grid - next_cta +
// PTBQ count), or as many and an older arrival. Every SM eligible.
// The same four registered stages as the RTL (fl_state_t): 1. the low FlLoW bits of the count
// with their carry and the high part of grid - next_cta; 2. the count; 3. the "j comes before
// k" bits; 4. the keys. out.key in cycle t is the order of the tables of cycle t-4.
#pragma once
#include <array>

#include "sched/golden/gs_policy.hpp"

namespace gs::golden {

class PolicyFewestLeft final : public PolicyTwin {
 public:
  struct Regs {
    std::array<uint32_t, MaxKernels> lo{}, cy{}, hi{};  // stage 1
    uint32_t pend1 = 0;
    std::array<uint32_t, MaxKernels> rank1{};
    std::array<uint32_t, MaxKernels> left{};  // stage 2
    uint32_t pend2 = 0;
    std::array<uint32_t, MaxKernels> rank2{};
    std::array<uint32_t, MaxKernels> ahead{};  // stage 3: bit j of ahead[k], j comes before k
    std::array<uint32_t, MaxKernels> rank3{};
    std::array<uint32_t, MaxKernels> key{};  // stage 4: out_o.key, {pos, rank} (pos above the SlotW rank bits)
  };

  void reset(const PolicyCfg&) override { q = d = Regs{}; }

  void comb(const PolicyCfg& cfg, const PolicyView&, const PolicyEvent&, PolicyOut& out) const override {
    for (uint32_t k = 0; k < cfg.slots; ++k) out.key[k] = OrderKey{q.key[k] >> SlotW, q.key[k] & width_mask(SlotW)};
    all_elig(cfg.slots, out.elig);
  }

  void next(const PolicyCfg& cfg, const PolicyView& v, const PolicyEvent&, const PolicyOut&, bool) override {
    const uint32_t slots = cfg.slots;
    Regs& n = d;
    n = q;
    n.pend1 = v.pending & width_mask(MaxKernels);
    n.pend2 = q.pend1;
    for (uint32_t k = 0; k < slots; ++k) {
      // stage 1: grid - next_cta + count = grid + ~next_cta + 1 + count (next_cta zero-extended
      // to FlLeftW bits; wraps like the RTL when next_cta > grid, never in a run)
      const KsrtEntry& e = v.ksrt->entry(k);
      const uint32_t lo_sum = (e.grid & width_mask(FlLoW)) + (~e.next_cta & width_mask(FlLoW)) + 1 + v.ptbq->count(k);
      n.lo[k] = lo_sum & width_mask(FlLoW);
      n.cy[k] = lo_sum >> FlLoW & 3u;
      n.hi[k] = ((e.grid >> FlLoW & width_mask(FlSumHiW)) +
                 (~(e.next_cta >> FlLoW & width_mask(FlSumHiW)) & width_mask(FlHiW))) &
                width_mask(FlHiW);
      n.rank1[k] = v.aq->q.rank[k];
      // stage 2
      n.left[k] = (((q.hi[k] + q.cy[k]) & width_mask(FlHiW)) << FlLoW) | q.lo[k];
      n.rank2[k] = q.rank1[k];
      // stage 3
      uint32_t a = 0;
      for (uint32_t j = 0; j < slots; ++j)
        if ((q.pend2 >> j & 1u) && (q.left[j] < q.left[k] || (q.left[j] == q.left[k] && q.rank2[j] < q.rank2[k])))
          a |= 1u << j;
      n.ahead[k] = a;
      n.rank3[k] = q.rank2[k];
      // stage 4
      n.key[k] = (static_cast<uint32_t>(__builtin_popcount(q.ahead[k])) & width_mask(PrioW)) << SlotW | q.rank3[k];
    }
  }
  void commit() override { q = d; }

  void state(PolicyState& st) const override {
    st.clear();
    spec::pack_fl_state_t(st, 0, q);
  }

  Regs q;  // registered state
  Regs d;  // next state
};

}  // namespace gs::golden
