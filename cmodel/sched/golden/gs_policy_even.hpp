// gsched golden twin of rtl/policy/gs_policy_even.sv (Even, Warped-Slicer Sec. III, Fig. 2c).
//
// quota[s][k] = max(1, min over threads/warps/regs/shmem of floor(cap / (K per_cta)) (0
// per-CTA use = no limit), floor(cta_slots/K), MaxCtasPerSm)), K = kernels with CTAs to issue
// (compute(), the integer definition). When that set changes, RepartitionScan writes one (SM,
// slot) pair per cycle into the framework's quota table (QuotaTable), registered (a step's
// write is on out_o the cycle after); the quota unit computes
// the K quotas for the first SM's capacities and again where the next SM's differ, holding the
// scan meanwhile: per kernel and resource K x use (SeqMul) then cap / that (SeqDiv, saturating).
// Same registers, cycle for cycle (even_state_t). Contract: docs/rtl/gs_policy_even.md.
#pragma once
#include <algorithm>
#include <array>
#include <vector>

#include "sched/golden/gs_policy.hpp"
#include "sched/golden/gs_repartition_scan.hpp"
#include "sched/golden/gs_seq_div.hpp"
#include "sched/golden/gs_seq_mul.hpp"

namespace gs::golden {

class PolicyEven final : public PolicyTwin {
 public:
  using St = EvenSt;                                                  // gs_pkg::even_st_e, from the spec
  using Mul = SeqMul<spec::EvenCapW, spec::SlotW + 1>;                // use added, K one bit per cycle
  using Div = SeqDiv<spec::EvenCapW, spec::EvenDenW, spec::CtaCntW>;  // a quota, saturating
  struct Regs {
    St st = St::kIdle;
    uint32_t pf = 0;        // the SM whose capacities capsel reads
    SmCaps capsel, cap;     // SM pf's capacities (a cycle late); those the quotas are for
    uint32_t j = 0, r = 0;  // slot and resource under computation
    uint32_t qcta = 0, qmin = 0;
    std::array<uint32_t, MaxKernels> quota{};
    QuotaWr wr;  // the write of the last scan step, on out_o
  };

  void reset(const PolicyCfg& cfg) override {
    slots_ = cfg.slots;
    scan.reset(cfg.slots);
    q = d = Regs{};
    mul.reset();
    div.reset();
  }

  /// The quota of kernel entry e on an SM with capacities c among nk kernels: the integer
  /// definition the unit computes sequentially (the mutation bench checks every write against it).
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
    out.quota_wr = q.wr;
  }

  void next(const PolicyCfg& cfg, const PolicyView& v, const PolicyEvent&, const PolicyOut&, bool) override {
    const bool start = scan.starts(true, v.pending);
    const bool step = scan.steps(true, v.pending, hold());
    const uint32_t nk = scan.q.nk;
    d = q;
    d.capsel = q.pf < cfg.caps->size() ? (*cfg.caps)[q.pf] : SmCaps{};
    d.wr = QuotaWr{};
    if (step && (scan.q.target >> scan.q.inner & 1u)) {
      d.wr.valid = true;
      d.wr.sm = static_cast<SmId>(scan.q.s);
      d.wr.slot = scan.q.inner;
      d.wr.max_ctas = q.quota[scan.q.inner];
    }
    bool mul_start = false, div_start = false;
    uint64_t mul_a = 0, div_num = 0, div_den = 0;
    if (start) {
      d.st = St::kLoad;
      d.pf = 0;
    } else {
      const KsrtEntry& e = v.ksrt->entry(q.j);
      const uint32_t use = resource(e.threads, e.warps, e.regs, e.shmem);
      const uint32_t cap = resource(q.cap.threads, q.cap.warps, q.cap.regs, q.cap.shmem);
      bool skip = false, res_done = false;
      uint32_t qv = q.qmin;
      switch (q.st) {
        case St::kIdle:
          if (step && q_inner_last()) {
            if (scan.q.s + 1 < cfg.num_sms && differs()) d.st = St::kStart;
            else d.pf = sm_wrap(q.pf + 1);
          }
          break;
        case St::kLoad: d.st = St::kStart; break;
        case St::kStart:
          d.cap = q.capsel;
          d.pf = sm_wrap(q.pf + 1);
          div_start = true, div_num = q.capsel.ctas, div_den = nk;
          d.j = 0;
          d.st = St::kCta;
          break;
        case St::kCta:
          if (!div.busy()) {
            d.qcta = std::min<uint32_t>(static_cast<uint32_t>(div.quo()), MaxCtasPerSm);
            d.qmin = d.qcta;
            d.r = 0;
            d.st = St::kRes;
          }
          break;
        case St::kRes:
          if (!(scan.q.target >> q.j & 1u)) skip = true;
          else if (use == 0) res_done = true;
          else mul_start = true, mul_a = use, d.st = St::kMul;
          break;
        case St::kMul:
          if (!mul.busy()) div_start = true, div_num = cap, div_den = mul.prod(), d.st = St::kDiv;
          break;
        case St::kDiv:
          if (!div.busy()) res_done = true, qv = std::min<uint32_t>(static_cast<uint32_t>(div.quo()), q.qmin);
          break;
        default: d.st = St::kIdle; break;
      }
      const bool slot_done = skip || (res_done && q.r == 3);
      if (res_done && !slot_done) d.r = q.r + 1, d.qmin = qv, d.st = St::kRes;
      if (res_done && slot_done) d.quota[q.j] = qv == 0 ? 1 : qv;
      if (slot_done) {
        d.r = 0;
        d.qmin = q.qcta;
        if (q.j + 1 == slots_) d.st = St::kIdle;
        else d.j = q.j + 1, d.st = St::kRes;
      }
    }
    mul.next(mul_start, mul_a, nk);
    div.next(div_start, div_num, div_den);
    scan.next(true, v.pending, cfg.num_sms, scan.d, hold());
  }

  void commit() override {
    scan.commit();
    q = d;
    mul.commit();
    div.commit();
  }

  void state(PolicyState& st) const override {
    st.clear();
    spec::pack_even_state_t(st, 0, q, scan, mul, div);
  }

  RepartitionScan scan;  // u_scan, one step per (SM, slot)
  Regs q, d;
  Mul mul;  // u_mul
  Div div;  // u_div

 private:
  bool hold() const { return q.st != St::kIdle; }
  bool q_inner_last() const { return scan.q.inner + 1 == slots_; }
  bool differs() const {
    const SmCaps& a = q.capsel;
    const SmCaps& b = q.cap;
    return a.threads != b.threads || a.warps != b.warps || a.regs != b.regs || a.shmem != b.shmem || a.ctas != b.ctas;
  }
  /// Resource r_q of four (threads, warps, registers, shared memory).
  uint32_t resource(uint32_t t, uint32_t w, uint32_t rg, uint32_t sh) const {
    return q.r == 0 ? t : q.r == 1 ? w : q.r == 2 ? rg : sh;
  }
  static uint32_t sm_wrap(uint32_t v) { return v & width_mask(SmIdW); }
  uint32_t slots_ = MaxKernels;  // Inner of the scan and the quota unit's slots (MaxKernels in the RTL)
};

}  // namespace gs::golden
