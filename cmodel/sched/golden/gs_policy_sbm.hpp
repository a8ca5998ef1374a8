// gsched golden: twin of rtl/policy/gs_policy_sbm.sv -- SBM (Bitalebi et al., Sec. 3-4) and
// its baselines BASE (sbm-base) and MWG (Sec. 6.2): two tasks mapped and bypassed by one
// SBM_REG (gs_sbm_smc.hpp), which sbm profiles at run time (gs_sbm_ctrl.hpp).
//
// Same registers (sbm_state_t), the same state machine and timing as the RTL:
//   IDLE -> (exactly two kernels in the KSRT, not the known pair: seen in one cycle, taken in
//   the next) OCC_LOAD / OCC_FIT / OCC: each task's workgroups that fit SM 0 -> BYP: per SM, a
//   bypass write for task 1 then task 2 -> (sbm, profiling) WARM -> SAMPLE -> SUM: task 1's
//   then task 2's sum over every SM (read, then added in chunks) -> SUM_CARRY -> RES: the window's
//   instructions to the controller, held until it has decided (ack) -> BYP (the next phase's
//   levels) ... -> IDLE.
// docs/rtl/gs_policy_sbm.md has the full specification.
#pragma once
#include <algorithm>
#include <array>
#include <cstdint>

#include "sched/golden/gs_chunk_add.hpp"
#include "sched/golden/gs_cta_fit.hpp"
#include "sched/golden/gs_policy.hpp"
#include "sched/golden/gs_prof_counters.hpp"
#include "sched/golden/gs_prof_window.hpp"
#include "sched/golden/gs_sbm_ctrl.hpp"
#include "sched/golden/gs_sbm_smc.hpp"

namespace gs::golden {

class PolicySbm : public PolicyTwin {
 public:
  using St = SbmSt;                                   // gs_pkg::sbm_st_e, from the spec
  static constexpr uint32_t SC = spec::SbmSumChunks;  // chunks of ArithChunkW bits of a sum

  struct Regs {
    St st = St::kIdle;
    bool pair_valid = false;
    uint32_t id1 = 0, id2 = 0, slot1 = 0, slot2 = 0;
    // a new pair seen last cycle, taken now: the first two kernels in slot order, their slots
    bool new_pair = false;
    uint32_t pa_id = 0, pb_id = 0, pa_slot = 0, pb_slot = 0;
    // the pair's slots in last cycle's KSRT against this cycle's pair (two kernels there)
    bool m_two = false, m_pres1 = false, m_pres2 = false;
    uint32_t m_cur1 = 0, m_cur2 = 0;
    bool mapped = false;
    bool c = false;
    uint32_t s = 0;
    WfRes cta;  // OCC_LOAD: task c's CTA
    bool fit = false, ctrl_go = false;
    WfRes acc;
    uint32_t n = 0, occ1 = 0, occ2 = 0;
    bool t0_valid = false, tl_valid = false;
    uint32_t t0 = 0, t1 = 0, tl = 0;
    bool pc_clear = false, pc_run = false;  // prof_o.clear / run, registered (gs_prof_counters stages the sample)
    uint64_t sum1 = 0, sum2 = 0;
    std::array<uint32_t, 2> sum_cy{};  // sum t's chunk i carry at bit i
    uint32_t rd_insts = 0;             // SUM's read of the cycle before
    bool rd_c = false, rd_add = false;
  };
  /// This cycle's combinational values the outputs and the next state share.
  struct Comb {
    uint32_t nact = 0;          // kernels in the KSRT
    uint32_t ida = 0, idb = 0;  // the first two in slot order ...
    uint32_t sla = 0, slb = 0;  // ... at these slots
    uint32_t lo = 0, hi = 0;    // the registered pair's ids, in order
    uint32_t lo_slot = 0, hi_slot = 0;
    bool start = false, on = false;
    SbmReg reg;  // the configuration in force
    bool ctrl_start = false, res_valid = false;
    ProfWindow win;  // gs_prof_window: the counters' control and the window registers' next value
    WfRes cta, acc_sum;
    bool acc_fits = false;
  };

  void reset(const PolicyCfg& cfg) override {
    q = d = Regs{};
    prev_st_ = St::kIdle;
    ctrl.reset();
    smc.reset();
    prof.reset(cfg.num_sms, cfg.slots);
  }

  void comb(const PolicyCfg& cfg, const PolicyView& v, const PolicyEvent& ev, PolicyOut& out) const override {
    const Comb c = comb_values(cfg, v, ev);
    order_keys(false, v, out.key);
    smc.map(c.on, q.m_cur1, q.m_cur2, cfg.slots, *v.smst, out.elig);
    if (q.m_two &&
        !smc.on(c.on))  // a new pair's OCC scan (and the SMC's cycle): neither task issues until it is mapped
      for (auto& e : out.elig) e = 0;
    if (q.st == St::kByp && c.on) {
      out.bypass.valid = true;
      out.bypass.sm = q.s;
      out.bypass.slot = q.c ? q.m_cur2 : q.m_cur1;
      out.bypass.level = sbm_level(c.reg, q.c ? 1 : 0);
    }
  }

  void next(const PolicyCfg& cfg, const PolicyView& v, const PolicyEvent& ev, const PolicyOut& out,
            bool accepted) override {
    (void)out, (void)accepted;
    const Comb c = comb_values(cfg, v, ev);
    reg_now_ = c.reg;
    ctrl.next(q.ctrl_go, q.occ1, q.occ2, c.res_valid, q.sum1, q.sum2);
    smc.next(c.reg, c.on, q.occ1, q.occ2, cfg.num_sms);
    ProfCounters::In pin;
    pin.clear = q.pc_clear;
    pin.run = q.pc_run;
    pin.obs = ev.obs;
    pin.obs_hit = ev.obs_hit;
    pin.obs_slot = ev.obs_slot;
    prof.next(pin, prof.d);

    Regs& n = d;
    n = q;
    c.win.next.store(n);
    n.pc_clear = c.win.clear;
    n.pc_run = c.win.run;
    add_sums(n);
    n.rd_add = false;  // SUM's read, set by SUM alone
    // the pair's slots in this cycle's KSRT, for the pair of the next cycle
    n.m_two = c.nact == 2;
    n.m_pres1 = n.m_pres2 = false;
    n.m_cur1 = n.m_cur2 = 0;
    const bool pv = q.new_pair || q.pair_valid;
    const uint32_t i1 = q.new_pair ? c.lo : q.id1, i2 = q.new_pair ? c.hi : q.id2;
    for (uint32_t k = 0; k < cfg.slots; ++k) {
      const KsrtEntry& e = v.ksrt->entry(k);
      if (e.valid && pv && e.kernel == i1) n.m_pres1 = true, n.m_cur1 = k;
      if (e.valid && pv && e.kernel == i2) n.m_pres2 = true, n.m_cur2 = k;
    }
    n.ctrl_go = c.ctrl_start;  // gs_sbm_ctrl starts the cycle after OCC's last step
    n.new_pair = c.start;      // a new pair seen this cycle, taken in the next
    if (c.start) {
      n.pa_id = c.ida;
      n.pb_id = c.idb;
      n.pa_slot = c.sla;
      n.pb_slot = c.slb;
    }
    if (q.m_pres1) n.slot1 = q.m_cur1;
    if (q.m_pres2) n.slot2 = q.m_cur2;
    if (q.new_pair) {
      n.pair_valid = true;
      n.id1 = c.lo;
      n.id2 = c.hi;
      n.slot1 = c.lo_slot;  // lo and hi were the only two kernels in the KSRT
      n.slot2 = c.hi_slot;
      n.mapped = false;
      n.t0_valid = false;
      n.c = false;
      n.s = 0;
      n.st = St::kOccLoad;
      return;
    }
    switch (q.st) {
      case St::kOccLoad:  // task c's CTA
        n.cta = c.cta;
        n.acc = WfRes{};
        n.n = 0;
        n.st = St::kOccFit;
        break;
      case St::kOccFit:  // does one more CTA fit (registered: OCC acts on it)
        n.fit = c.acc_fits;
        n.st = St::kOcc;
        break;
      case St::kOcc:
        if (q.fit) {
          n.acc = c.acc_sum;
          n.n = q.n + 1;
          n.st = St::kOccFit;
        } else {
          (q.c ? n.occ2 : n.occ1) = q.n;
          n.c = !q.c;
          n.st = St::kOccLoad;
          if (q.c) {
            n.mapped = true;
            n.s = 0;
            n.st = St::kByp;
          }
        }
        break;
      case St::kByp:
        if (c.on) step(cfg, n, cfg.policy == Policy::kSbm && ctrl.busy() ? St::kWarm : St::kIdle);
        break;
      case St::kWarm:
        if (c.win.done) n.st = St::kSample;
        break;
      case St::kSample:
        if (c.win.done) {  // an epoch past the window (s and c are 0 since BYP)
          n.sum1 = n.sum2 = 0;
          n.sum_cy.fill(0);
          n.st = St::kSum;
        }
        break;
      case St::kSum:  // task 1's then task 2's sum over every SM, registered, added the cycle after
        n.rd_insts = prof.acc(q.c ? q.slot2 : q.slot1);
        n.rd_c = q.c;
        n.rd_add = true;
        n.c = !q.c;
        if (q.c) n.st = St::kSumCarry;  // s stays 0
        break;
      case St::kSumCarry:  // the last read added, then its carries through the chunks
        n.s = q.s + 1;
        if (q.s + 1 >= SC) {
          n.s = 0;
          n.st = St::kRes;
        }
        break;
      case St::kRes:  // the controller takes the result, then decides (ack): the next configuration's bypass
        if (ctrl.ack()) {
          n.s = 0;
          n.c = false;
          n.t0_valid = false;
          n.st = St::kByp;
        }
        break;
      default: break;
    }
  }

  void commit() override {
    prev_st_ = q.st;
    prev_reg_ = reg_now_;
    q = d;
    ctrl.commit();
    smc.commit();
    prof.commit();
  }

  void state(PolicyState& st) const override {
    st.clear();
    spec::pack_sbm_state_t(st, 0, q, ctrl, smc);
  }

  /// The last edge's records: the configuration of a finished BYP scan as a partition,
  /// "shared" (MWG, MWGB: per-SM quotas) or "spatial" (separate halves), with each task's bypass
  /// level; or a phase's window (SUM_CARRY's last carry: q holds the final sums).
  void report(PolicyRecordSink& sink) const override {
    if (prev_st_ == St::kByp && q.st != St::kByp && q.mapped) {
      using R = spec::PartitionReport;
      const SbmReg reg = prev_reg_;
      PolicyRecord& r = sink.add(R::kKind);
      r.set(R::kMode, sbm_shared(reg) ? R::kModeShared : R::kModeSpatial);
      for (uint32_t t = 0; t < 2; ++t) {
        const uint32_t slot = t ? q.slot2 : q.slot1;
        r.set(slot, R::kBypass, static_cast<int64_t>(sbm_level(reg, t)));
        if (sbm_shared(reg)) r.set(slot, R::kCtasPerSm, sbm_quota(reg, t, t ? q.occ2 : q.occ1));
      }
    }
    if (prev_st_ == St::kSumCarry && q.st == St::kRes) {
      using W = spec::WindowReport;
      PolicyRecord& r = sink.add(W::kKind);
      r.set(W::kFrom, q.t1);
      r.set(W::kTo, q.tl);
      r.set(q.slot1, W::kInsts, static_cast<int64_t>(q.sum1));
      r.set(q.slot2, W::kInsts, static_cast<int64_t>(q.sum2));
    }
  }

  /// mwg only, SBM's EWM baseline (SchedOptions::sbm_fixed_reg): this SBM_REG instead of MWG's.
  /// Not a register: gs_policy_sbm has no port for it. `r` must outlive the run.
  void set_fixed(const SbmReg* r) { fixed_ = r; }
  void take_options(const SchedOptions& opt) override {
    if (opt.sbm_fixed_reg) set_fixed(&*opt.sbm_fixed_reg);
  }

  Regs q, d;
  SbmCtrl ctrl;  // u_ctrl
  SbmSmc smc;    // u_smc
  // gs_policies' one gs_prof_counters, shared by every module that profiles: held by the twin of
  // the selected module (a run builds one twin), controlled by it alone, as in the RTL
  ProfCounters prof;

 private:
  /// The scans' next step: task 1 then task 2 of SM s, then SM s + 1; after the last SM, `after`.
  void step(const PolicyCfg& cfg, Regs& n, St after) const {
    n.c = !q.c;
    if (q.c) {
      n.s = q.s + 1;
      if (q.s + 1 >= cfg.num_sms) {
        n.s = 0;
        n.st = after;
      }
    }
  }

  Comb comb_values(const PolicyCfg& cfg, const PolicyView& v, const PolicyEvent& ev) const {
    Comb c;
    for (uint32_t k = 0; k < cfg.slots; ++k) {
      const KsrtEntry& e = v.ksrt->entry(k);
      if (!e.valid) continue;
      if (c.nact == 0) c.ida = e.kernel, c.sla = k;
      else if (c.nact == 1) c.idb = e.kernel, c.slb = k;
      ++c.nact;
    }
    // two kernels, not the known pair (as a set), not seen again while the registered one is taken
    const bool known = q.pair_valid && ((c.ida == q.id1 && c.idb == q.id2) || (c.ida == q.id2 && c.idb == q.id1));
    c.start = !q.new_pair && c.nact == 2 && !known;
    c.on = !q.new_pair && q.m_two && q.m_pres1 && q.m_pres2 && q.mapped;
    // the registered pair in order: task 1 is the lower id; a slot is the last of its id
    c.lo = std::min(q.pa_id, q.pb_id);
    c.hi = std::max(q.pa_id, q.pb_id);
    c.lo_slot = q.pa_id < q.pb_id ? q.pa_slot : q.pb_slot;
    c.hi_slot = q.pa_id > q.pb_id ? q.pa_slot : q.pb_slot;
    switch (cfg.policy) {
      case Policy::kSbm: c.reg = ctrl.cfg(); break;
      case Policy::kMwg: c.reg = fixed_ ? *fixed_ : SbmReg{SbmArch::kMwg, false, false, 0}; break;
      default: c.reg = SbmReg{}; break;  // sbm-base
    }
    ProfPhase phase = ProfPhase::kIdle;
    if (q.st == St::kWarm) phase = ProfPhase::kWarm;
    if (q.st == St::kSample) phase = ProfPhase::kSample;
    c.win = prof_window(ev.obs, phase, ProfWinRegs::of(q), cfg.settings.sbm.warmup_cycles,
                        cfg.settings.sbm.sample_cycles);
    c.cta = cta_res(v.ksrt->entry(q.c ? q.slot2 : q.slot1));
    c.acc_fits = cta_fit(q.acc, q.cta, sm0_res(cfg), c.acc_sum);
    c.ctrl_start = !q.new_pair && q.st == St::kOcc && !q.fit && q.c && cfg.policy == Policy::kSbm;
    c.res_valid = !q.new_pair && q.st == St::kRes;
    return c;
  }

  /// Both sums every cycle (gs_chunk_add): SUM's read of the cycle before into its task's sum,
  /// and the carries of the cycle before.
  void add_sums(Regs& n) const {
    for (uint32_t t = 0; t < 2; ++t)
      (t ? n.sum2 : n.sum1) = chunk_add(t ? q.sum2 : q.sum1, q.rd_add && q.rd_c == (t == 1) ? q.rd_insts : 0,
                                        q.sum_cy[t], SC, spec::ArithChunkW, spec::SbmInstW, n.sum_cy[t]);
  }

  // the records (report()): the state and configuration before the last edge
  St prev_st_ = St::kIdle;
  SbmReg prev_reg_, reg_now_;
  const SbmReg* fixed_ = nullptr;
};

}  // namespace gs::golden
