// gsched golden: twin of rtl/policy/gs_policy_sbm.sv -- SBM (Bitalebi et al., Sec. 3-4) and
// its baselines BASE (sbm-base) and MWG (Sec. 6.2): two tasks mapped and bypassed by one
// SBM_REG (gs_sbm_smc.hpp), which sbm profiles at run time (gs_sbm_ctrl.hpp).
//
// Same registers (sbm_state_t), the same state machine and timing as the RTL:
//   IDLE -> (exactly two kernels in the KSRT, not the known pair) OCC: each task's
//   workgroups that fit SM 0 -> BYP: per SM, a bypass write for task 1 then task 2 ->
//   (sbm, profiling) WARM -> SAMPLE -> SUM: per SM, task 1 then task 2 -> RES: the window's
//   instructions to the controller, held until it has decided (ack) -> BYP (the next phase's
//   levels) ... -> IDLE.
// docs/rtl/gs_policy_sbm.md has the full specification.
#pragma once
#include <cstdint>

#include "sched/golden/gs_cta_fit.hpp"
#include "sched/golden/gs_policy.hpp"
#include "sched/golden/gs_prof_counters.hpp"
#include "sched/golden/gs_prof_window.hpp"
#include "sched/golden/gs_sbm_ctrl.hpp"
#include "sched/golden/gs_sbm_smc.hpp"

namespace gs::golden {

class PolicySbm : public PolicyTwin {
 public:
  enum St : uint32_t { kIdle = 0, kOcc = 1, kByp = 2, kWarm = 3, kSample = 4, kSum = 5, kRes = 6 };

  struct Regs {
    uint32_t st = kIdle;
    bool pair_valid = false;
    uint32_t id1 = 0, id2 = 0, slot1 = 0, slot2 = 0;
    bool mapped = false;
    bool c = false;
    uint32_t s = 0;
    WfRes acc;
    uint32_t n = 0, occ1 = 0, occ2 = 0;
    bool t0_valid = false, tl_valid = false;
    uint32_t t0 = 0, t1 = 0, tl = 0;
    uint64_t sum1 = 0, sum2 = 0;
  };
  /// This cycle's combinational values the outputs and the next state share.
  struct Comb {
    uint32_t nact = 0;  // kernels in the KSRT
    bool pres1 = false, pres2 = false;
    uint32_t cur1 = 0, cur2 = 0;  // the tasks' slots now
    uint32_t lo = 0, hi = 0;      // the two kernels' ids, in order (when nact == 2)
    bool start = false, on = false;
    SbmReg reg;  // the configuration in force
    bool ctrl_start = false, res_valid = false;
    ProfWindow win;  // gs_prof_window: the counters' control and the window registers' next value
    WfRes acc_sum;
    bool acc_fits = false;
  };

  void reset(const PolicyCfg& cfg) override {
    q = d = Regs{};
    prev_st_ = kIdle;
    ctrl.reset();
    prof.reset(cfg.num_sms, cfg.slots);
  }

  void comb(const PolicyCfg& cfg, const PolicyView& v, const PolicyEvent& ev, PolicyOut& out) const override {
    const Comb c = comb_values(cfg, v, ev);
    order_keys(false, v, out.key);
    sbm_map(c.reg, c.on, c.cur1, c.cur2, q.occ1, q.occ2, cfg.num_sms, cfg.slots, *v.smst, out.elig);
    if (c.nact == 2 && !c.on)  // a new pair's OCC scan: neither task issues until it is mapped
      for (auto& e : out.elig) e = 0;
    if (!c.start && q.st == kByp && c.on) {
      out.bypass.valid = true;
      out.bypass.sm = q.s;
      out.bypass.slot = q.c ? c.cur2 : c.cur1;
      out.bypass.level = sbm_level(c.reg, q.c ? 1 : 0);
    }
  }

  void next(const PolicyCfg& cfg, const PolicyView& v, const PolicyEvent& ev, const PolicyOut& out,
            bool accepted) override {
    (void)out, (void)accepted;
    const Comb c = comb_values(cfg, v, ev);
    reg_now_ = c.reg;
    ctrl.next(c.ctrl_start, q.occ1, q.occ2, c.res_valid, q.sum1, q.sum2);
    ProfCounters::In pin;
    pin.clear = c.win.clear;
    pin.run = c.win.run;
    pin.obs = ev.obs;
    pin.obs_hit = ev.obs_hit;
    pin.obs_slot = ev.obs_slot;
    prof.next(pin, prof.d);

    Regs& n = d;
    n = q;
    c.win.next.store(n);
    if (c.pres1) n.slot1 = c.cur1;
    if (c.pres2) n.slot2 = c.cur2;
    if (c.start) {
      n.pair_valid = true;
      n.id1 = c.lo;
      n.id2 = c.hi;
      for (uint32_t k = 0; k < cfg.slots; ++k) {
        const KsrtEntry& e = v.ksrt->entry(k);
        if (e.valid && e.kernel == c.lo) n.slot1 = k;
        if (e.valid && e.kernel == c.hi) n.slot2 = k;
      }
      n.mapped = false;
      n.t0_valid = false;
      n.c = false;
      n.s = 0;
      n.acc = WfRes{};
      n.n = 0;
      n.st = kOcc;
      return;
    }
    switch (q.st) {
      case kOcc:
        if (c.acc_fits) {
          n.acc = c.acc_sum;
          n.n = q.n + 1;
        } else {
          (q.c ? n.occ2 : n.occ1) = q.n;
          n.acc = WfRes{};
          n.n = 0;
          n.c = !q.c;
          if (q.c) {
            n.mapped = true;
            n.s = 0;
            n.st = kByp;
          }
        }
        break;
      case kByp:
        if (c.on) step(cfg, n, cfg.policy == Policy::kSbm && ctrl.busy() ? kWarm : kIdle);
        break;
      case kWarm:
        if (c.win.done) n.st = kSample;
        break;
      case kSample:
        if (c.win.done) {  // an epoch past the window
          n.s = 0;
          n.c = false;
          n.sum1 = n.sum2 = 0;
          n.st = kSum;
        }
        break;
      case kSum: {  // one (SM, task) counter per cycle
        const uint64_t insts = prof.insts(q.s, q.c ? q.slot2 : q.slot1);
        if (q.c) n.sum2 = (q.sum2 + insts) & kSumMask;
        else n.sum1 = (q.sum1 + insts) & kSumMask;
        step(cfg, n, kRes);
        break;
      }
      case kRes:  // the controller takes the result, then decides (ack): the next configuration's bypass
        if (ctrl.ack()) {
          n.s = 0;
          n.c = false;
          n.t0_valid = false;
          n.st = kByp;
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
    prof.commit();
  }

  void state(PolicyState& st) const override {  // sbm_state_t
    namespace L = spec::layout::sbm_state_t;
    st.clear();
    st.put(L::st_lsb, L::st_width, q.st);
    st.put(L::pair_valid_lsb, 1, q.pair_valid);
    st.put(L::id1_lsb, L::id1_width, q.id1);
    st.put(L::id2_lsb, L::id2_width, q.id2);
    st.put(L::slot1_lsb, L::slot1_width, q.slot1);
    st.put(L::slot2_lsb, L::slot2_width, q.slot2);
    st.put(L::mapped_lsb, 1, q.mapped);
    st.put(L::c_lsb, 1, q.c);
    st.put(L::s_lsb, L::s_width, q.s);
    uint32_t at = L::acc_lsb + L::acc_width;  // MSB-first fields of the accumulator
    gs::pack(q.acc, [&](uint64_t val, unsigned w) {
      at -= w;
      st.put(at, w, val);
    });
    st.put(L::n_lsb, L::n_width, q.n);
    st.put(L::occ1_lsb, L::occ1_width, q.occ1);
    st.put(L::occ2_lsb, L::occ2_width, q.occ2);
    st.put(L::t0_valid_lsb, 1, q.t0_valid);
    st.put(L::t0_lsb, L::t0_width, q.t0);
    st.put(L::t1_lsb, L::t1_width, q.t1);
    st.put(L::tl_valid_lsb, 1, q.tl_valid);
    st.put(L::tl_lsb, L::tl_width, q.tl);
    st.put(L::sum1_lsb, L::sum1_width, q.sum1);
    st.put(L::sum2_lsb, L::sum2_width, q.sum2);
    ctrl.state(st, L::ctrl_lsb);
  }

  /// A partition the last edge put in force: the configuration of a finished BYP scan, as
  /// "shared" (MWG, MWGB: per-SM quotas) or "spatial" (separate halves); the run's report.
  bool partition_started(uint32_t& slots, uint32_t& mode, std::array<uint32_t, 32>& ctas) const override {
    if (!(prev_st_ == kByp && q.st != kByp && q.mapped)) return false;
    const SbmReg r = prev_reg_;
    slots = (1u << q.slot1) | (1u << q.slot2);
    ctas.fill(0);
    if (sbm_shared(r)) {
      mode = 0;  // PartitionRecord::kShared
      ctas[q.slot1] = sbm_quota(r, 0, q.occ1);
      ctas[q.slot2] = sbm_quota(r, 1, q.occ2);
    } else {
      mode = 1;  // PartitionRecord::kSpatial
    }
    return true;
  }

  /// The phase's window: SUM's last read was at the last edge (q holds the final sums).
  bool window_measured(uint32_t& slots, std::array<uint64_t, 32>& insts, uint32_t& from, uint32_t& to) const override {
    if (!(prev_st_ == kSum && q.st == kRes)) return false;
    slots = (1u << q.slot1) | (1u << q.slot2);
    insts.fill(0);
    insts[q.slot1] = q.sum1;
    insts[q.slot2] = q.sum2;
    from = q.t1;
    to = q.tl;
    return true;
  }

  /// mwg only, SBM's EWM baseline (SchedOptions::sbm_fixed_reg): this SBM_REG instead of MWG's.
  /// Not a register: gs_policy_sbm has no port for it. `r` must outlive the run.
  void set_fixed(const SbmReg* r) { fixed_ = r; }
  void take_options(const SchedOptions& opt) override {
    if (opt.sbm_fixed_reg) set_fixed(&*opt.sbm_fixed_reg);
  }

  Regs q, d;
  SbmCtrl ctrl;  // u_ctrl
  // gs_policies' one gs_prof_counters, shared by every module that profiles: held by the twin of
  // the selected module (a run builds one twin), controlled by it alone, as in the RTL
  ProfCounters prof;

 private:
  static constexpr uint64_t kSumMask = (uint64_t(1) << spec::SbmInstW) - 1;

  /// The scans' next step: task 1 then task 2 of SM s, then SM s + 1; after the last SM, `after`.
  void step(const PolicyCfg& cfg, Regs& n, uint32_t after) const {
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
    uint32_t ida = 0, idb = 0;
    for (uint32_t k = 0; k < cfg.slots; ++k) {
      const KsrtEntry& e = v.ksrt->entry(k);
      if (!e.valid) continue;
      if (c.nact == 0) ida = e.kernel;
      else if (c.nact == 1) idb = e.kernel;
      ++c.nact;
      if (q.pair_valid && e.kernel == q.id1) c.pres1 = true, c.cur1 = k;
      if (q.pair_valid && e.kernel == q.id2) c.pres2 = true, c.cur2 = k;
    }
    c.lo = std::min(ida, idb);
    c.hi = std::max(ida, idb);
    c.start = c.nact == 2 && !(q.pair_valid && c.lo == q.id1 && c.hi == q.id2);
    c.on = !c.start && c.nact == 2 && c.pres1 && c.pres2 && q.mapped;
    switch (cfg.policy) {
      case Policy::kSbm: c.reg = ctrl.cfg(); break;
      case Policy::kMwg: c.reg = fixed_ ? *fixed_ : SbmReg{SbmArch::kMwg, false, false, 0}; break;
      default: c.reg = SbmReg{}; break;  // sbm-base
    }
    ProfPhase phase = ProfPhase::kIdle;
    if (!c.start && q.st == kWarm) phase = ProfPhase::kWarm;
    if (!c.start && q.st == kSample) phase = ProfPhase::kSample;
    c.win = prof_window(ev.obs, phase, ProfWinRegs::of(q), cfg.settings.sbm.warmup_cycles,
                        cfg.settings.sbm.sample_cycles);
    if (c.start) return c;
    const WfRes cta = cta_res(v.ksrt->entry(q.c ? q.slot2 : q.slot1));
    c.acc_fits = cta_fit(q.acc, cta, sm0_res(cfg), c.acc_sum);
    c.ctrl_start = q.st == kOcc && !c.acc_fits && q.c && cfg.policy == Policy::kSbm;
    c.res_valid = q.st == kRes;
    return c;
  }

  // partition reports (partition_started): the state and configuration before the last edge
  uint32_t prev_st_ = kIdle;
  SbmReg prev_reg_, reg_now_;
  const SbmReg* fixed_ = nullptr;
};

}  // namespace gs::golden
