// gsched golden: twin of rtl/policy/gs_policy_hetero.sv -- HeteroCore's dynamic TLP resource-
// aware scheduling (Zhao et al., TPDS 2019, Sec. 4.3, Algorithm 2; Sec. 6.4) with adaptive
// preemption: `--policy hetero-dynamic`.
//
// Same registers (hc_state_t), the same state machine and timing as the RTL:
//   (2..HcMaxKernels kernels in the KSRT, one not in the set) SCAN: the profiling split, one SM
//   per cycle, preempting other kernels' CTAs -> WARM -> SAMPLE -> SUM: per SM, its owner's
//   instructions -> OCC: CTAs per big, small and conventional SM -> SEL: gs_hetero_sel's unit
//   (gs_hetero_sel.hpp), started by OCC's last step, until its decision ->
//   SCAN: the selection, adaptive preemption -> IDLE (or IDLE straight from SEL: the even split).
// docs/rtl/gs_policy_hetero.md has the full specification.
#pragma once
#include <array>
#include <cstdint>

#include "sched/golden/gs_cta_fit.hpp"
#include "sched/golden/gs_hetero_sel.hpp"
#include "sched/golden/gs_policy.hpp"
#include "sched/golden/gs_prof_counters.hpp"
#include "sched/golden/gs_prof_window.hpp"

namespace gs::golden {

class PolicyHetero final : public PolicyTwin {
 public:
  enum St : uint32_t { kIdle = 0, kScan = 1, kWarm = 2, kSample = 3, kSum = 4, kOcc = 5, kSel = 6 };
  static constexpr uint32_t HK = spec::HcMaxKernels;

  struct Regs {
    uint32_t st = kIdle;
    bool chosen = false, set_valid = false, mapped = false;
    uint32_t nk = 0;
    std::array<uint32_t, HK> ids{};
    uint32_t s = 0, cb = 0, cs = 0, mb = 0, ms = 0;
    std::array<uint8_t, spec::MaxSms> grp{};
    uint32_t nbig = 0, nsmall = 0, nb0 = 0, ns0 = 0;
    bool t0_valid = false, tl_valid = false;
    uint32_t t0 = 0, t1 = 0, tl = 0;
    uint32_t fin = 0;
    std::array<uint64_t, HK> bsum{}, ssum{};
    uint32_t c = 0, ty = 0;
    WfRes acc;
    uint32_t n = 0;
    std::array<uint32_t, HK> cta_b{}, cta_s{}, cta_0{};
    uint32_t big = 0;
    bool even = false;
  };
  /// This cycle's combinational values the outputs and the next state share.
  struct Comb {
    uint32_t nact = 0;
    uint32_t pres = 0;                    // group c's kernel is in the KSRT ...
    std::array<uint32_t, HK> cur{};       // ... at this slot
    uint32_t slot_known = 0;              // slot k holds a kernel of the set ...
    std::array<uint32_t, 32> slot_grp{};  // ... of this group
    bool start = false, drop = false;
    // the scan's SM
    bool is_big = false, last_sm = false;
    uint32_t g = 0, pos_nx = 0;
    bool found = false;
    uint32_t victim = 0;
    // counters, OCC, SEL
    ProfWindow win;  // gs_prof_window: the counters' control and the window registers' next value
    WfRes acc_sum;
    bool acc_fits = false;
    bool sel_start = false;
    bool even_f = false;
    uint32_t sel_big = 0;
  };

  void reset(const PolicyCfg& cfg) override {
    q = d = Regs{};
    sms_ = cfg.num_sms;
    for (uint32_t s = 0; s < spec::MaxSms; ++s) big_[s] = is_big(cfg, s);
    prev_st_ = kIdle;
    prof.reset(cfg.num_sms, cfg.slots);
    sel.reset();
  }

  void comb(const PolicyCfg& cfg, const PolicyView& v, const PolicyEvent& ev, PolicyOut& out) const override {
    const Comb c = comb_values(cfg, v, ev);
    order_keys(false, v, out.key);
    const uint32_t all = uint32_t(width_mask(cfg.slots));
    for (uint32_t s = 0; s < cfg.num_sms; ++s) {
      uint32_t e = all;
      if (q.mapped) {
        const uint32_t go = q.grp[s];
        if (q.st == kScan && !q.chosen && s >= q.s) e = 0;  // a profiling split's SM not scanned yet
        else if (c.pres >> go & 1u) e = 1u << c.cur[go];
      }
      out.elig[s] = e;
    }
    if (!c.start && !c.drop && q.st == kScan && c.found && (c.pres >> c.g & 1u) &&
        v.smst->entry(q.s).state != SmState::kReserved) {
      out.req.valid = true;
      out.req.sm = static_cast<SmId>(q.s);
      out.req.victim = c.victim;
      out.req.mode_sel = q.chosen;
      const bool drained = q.fin >> c.slot_grp[c.victim] & 1u;  // it finished a CTA in the warm-up
      out.req.mode = drained ? PreemptMode::kDrain : PreemptMode::kSwitch;
    }
  }

  void next(const PolicyCfg& cfg, const PolicyView& v, const PolicyEvent& ev, const PolicyOut& out,
            bool accepted) override {
    (void)out, (void)accepted;
    const Comb c = comb_values(cfg, v, ev);
    ProfCounters::In pin;
    pin.clear = c.win.clear;
    pin.run = c.win.run;
    pin.obs = ev.obs;
    pin.obs_hit = ev.obs_hit;
    pin.obs_slot = ev.obs_slot;
    prof.next(pin, prof.d);
    sel.next(c.sel_start, sel_in());

    Regs& n = d;
    n = q;
    c.win.next.store(n);
    if (c.start) {
      n.ids.fill(0);
      uint32_t i = 0;
      for (uint32_t k = 0; k < cfg.slots; ++k)
        if (v.ksrt->entry(k).valid) {
          if (i < HK) n.ids[i] = v.ksrt->entry(k).kernel;
          ++i;
        }
      n.set_valid = true;
      n.nk = c.nact;
      n.mapped = true;
      n.chosen = false;
      n.st = kScan;
      n.s = n.cb = n.cs = 0;
      n.mb = n.ms = (1u << c.nact) - 1;
      n.nbig = n.nsmall = n.nb0 = n.ns0 = 0;
      n.fin = 0;
      n.t0_valid = false;
      n.big = 0;
      n.even = false;
      return;
    }
    if (c.drop) {
      n.set_valid = false;
      n.mapped = false;
      n.st = kIdle;
      return;
    }
    switch (q.st) {
      case kScan:  // one SM per cycle
        n.grp[q.s] = uint8_t(c.g);
        (c.is_big ? n.cb : n.cs) = c.pos_nx;
        if (!q.chosen) {
          if (c.is_big) {
            n.nbig = q.nbig + 1;
            if (c.g == 0) n.nb0 = q.nb0 + 1;
          } else {
            n.nsmall = q.nsmall + 1;
            if (c.g == 0) n.ns0 = q.ns0 + 1;
          }
        }
        n.s = q.s + 1;
        if (c.last_sm) {
          n.s = 0;
          if (q.chosen) {
            n.st = kIdle;
          } else {
            n.t0_valid = false;
            n.fin = 0;
            n.st = kWarm;
          }
        }
        break;
      case kWarm:
        if (ev.ev_valid && ev.ev_type == SmEventType::kCtaFinished && (c.slot_known >> ev.ev_slot & 1u))
          n.fin |= 1u << c.slot_grp[ev.ev_slot];
        if (c.win.done) n.st = kSample;
        break;
      case kSample:
        if (c.win.done) {  // an epoch past the window
          n.s = 0;
          n.bsum.fill(0);
          n.ssum.fill(0);
          n.st = kSum;
        }
        break;
      case kSum: {  // one SM per cycle: its owner's instructions
        const uint32_t g = q.grp[q.s];
        if (c.pres >> g & 1u) {
          const uint64_t insts = prof.insts(q.s, c.cur[g]);
          uint64_t& sum = is_big(cfg, q.s) ? n.bsum[g] : n.ssum[g];
          sum = (sum + insts) & kSumMask;
        }
        n.s = q.s + 1;
        if (c.last_sm) {
          n.s = 0;
          n.c = 0;
          n.ty = 0;
          n.acc = WfRes{};
          n.n = 0;
          n.st = kOcc;
        }
        break;
      }
      case kOcc:  // one CTA per cycle
        if (c.acc_fits) {
          n.acc = c.acc_sum;
          n.n = q.n + 1;
        } else {
          (q.ty == 0 ? n.cta_b : q.ty == 1 ? n.cta_s : n.cta_0)[q.c] = q.n;
          n.acc = WfRes{};
          n.n = 0;
          n.ty = q.ty + 1;
          if (q.ty == 2) {
            n.ty = 0;
            n.c = q.c + 1;
            if (q.c + 1 >= q.nk) {
              n.c = 0;
              n.st = kSel;
            }
          }
        }
        break;
      case kSel:
        if (sel.busy()) break;
        n.big = c.sel_big;
        n.even = c.even_f;
        if (c.even_f) {
          n.st = kIdle;  // the profiling split stays
        } else {
          n.chosen = true;
          n.mb = c.sel_big;
          n.ms = ((1u << q.nk) - 1) & ~c.sel_big;
          n.cb = n.cs = 0;
          n.s = 0;
          n.st = kScan;
        }
        break;
      default: break;
    }
  }

  void commit() override {
    prev_st_ = q.st;
    q = d;
    prof.commit();
    sel.commit();
  }

  void state(PolicyState& st) const override {  // hc_state_t
    namespace L = spec::layout::hc_state_t;
    st.clear();
    st.put(L::st_lsb, L::st_width, q.st);
    st.put(L::chosen_lsb, 1, q.chosen);
    st.put(L::set_valid_lsb, 1, q.set_valid);
    st.put(L::mapped_lsb, 1, q.mapped);
    st.put(L::nk_lsb, L::nk_width, q.nk);
    for (uint32_t c = 0; c < HK; ++c) st.put(L::ids_lsb + c * spec::KernelIdW, spec::KernelIdW, q.ids[c]);
    st.put(L::s_lsb, L::s_width, q.s);
    st.put(L::cb_lsb, L::cb_width, q.cb);
    st.put(L::cs_lsb, L::cs_width, q.cs);
    st.put(L::mb_lsb, L::mb_width, q.mb);
    st.put(L::ms_lsb, L::ms_width, q.ms);
    for (uint32_t s = 0; s < spec::MaxSms; ++s) st.put(L::grp_lsb + s * spec::HcGrpW, spec::HcGrpW, q.grp[s]);
    st.put(L::nbig_lsb, L::nbig_width, q.nbig);
    st.put(L::nsmall_lsb, L::nsmall_width, q.nsmall);
    st.put(L::nb0_lsb, L::nb0_width, q.nb0);
    st.put(L::ns0_lsb, L::ns0_width, q.ns0);
    st.put(L::t0_valid_lsb, 1, q.t0_valid);
    st.put(L::t0_lsb, L::t0_width, q.t0);
    st.put(L::t1_lsb, L::t1_width, q.t1);
    st.put(L::tl_valid_lsb, 1, q.tl_valid);
    st.put(L::tl_lsb, L::tl_width, q.tl);
    st.put(L::fin_lsb, L::fin_width, q.fin);
    for (uint32_t c = 0; c < HK; ++c) {
      st.put(L::bsum_lsb + c * spec::HcInstW, spec::HcInstW, q.bsum[c]);
      st.put(L::ssum_lsb + c * spec::HcInstW, spec::HcInstW, q.ssum[c]);
      st.put(L::cta_b_lsb + c * spec::CtaCntW, spec::CtaCntW, q.cta_b[c]);
      st.put(L::cta_s_lsb + c * spec::CtaCntW, spec::CtaCntW, q.cta_s[c]);
      st.put(L::cta_0_lsb + c * spec::CtaCntW, spec::CtaCntW, q.cta_0[c]);
    }
    st.put(L::c_lsb, L::c_width, q.c);
    st.put(L::ty_lsb, L::ty_width, q.ty);
    uint32_t at = L::acc_lsb + L::acc_width;  // MSB-first fields of the accumulator
    gs::pack(q.acc, [&](uint64_t val, unsigned w) {
      at -= w;
      st.put(at, w, val);
    });
    st.put(L::n_lsb, L::n_width, q.n);
    st.put(L::big_lsb, L::big_width, q.big);
    st.put(L::even_lsb, 1, q.even);
    sel.state(st, L::sel_lsb);
  }

  /// A mapping the last edge put in force: the end of a scan (the profiling split, or the
  /// selection's), or a selection that kept the split. Reported as "spatial": every kernel of
  /// the set on SMs of its own (the run's partition report names them).
  bool partition_started(uint32_t& slots, uint32_t& mode, std::array<uint32_t, 32>& ctas) const override {
    const bool scanned = prev_st_ == kScan && q.st != kScan && q.mapped;
    const bool kept = prev_st_ == kSel && q.st == kIdle;
    if (!scanned && !kept) return false;
    slots = 0;
    for (uint32_t c = 0; c < q.nk; ++c)
      if (cur_pres_ >> c & 1u) slots |= 1u << cur_[c];
    ctas.fill(0);
    mode = 1;  // PartitionRecord::kSpatial
    return slots != 0;
  }

  /// The SMs of slot's group in the mapping in force, by type.
  bool partition_sms(uint32_t slot, uint32_t& big, uint32_t& small) const override {
    for (uint32_t c = 0; c < q.nk; ++c)
      if ((cur_pres_ >> c & 1u) && cur_[c] == slot) {
        big = small = 0;
        for (uint32_t s = 0; s < sms_; ++s)
          if (q.grp[s] == c) ++(big_[s] ? big : small);
        return true;
      }
    return false;
  }

  /// The spatial profile: SUM's last read was at the last edge (q holds the final sums); each
  /// kernel's instructions on its big plus its small SMs, in the window's stamps.
  bool window_measured(uint32_t& slots, std::array<uint64_t, 32>& insts, uint32_t& from, uint32_t& to) const override {
    if (!(prev_st_ == kSum && q.st == kOcc)) return false;
    slots = 0;
    insts.fill(0);
    for (uint32_t c = 0; c < q.nk; ++c)
      if (cur_pres_ >> c & 1u) {
        slots |= 1u << cur_[c];
        insts[cur_[c]] = q.bsum[c] + q.ssum[c];
      }
    from = q.t1;
    to = q.tl;
    return slots != 0;
  }

  Regs q, d;
  // gs_policies' one gs_prof_counters, shared by every module that profiles: held by the twin of
  // the selected module (a run builds one twin), controlled by it alone, as in the RTL
  ProfCounters prof;
  HeteroSel sel;  // its gs_hetero_sel

 private:
  static constexpr uint64_t kSumMask = (uint64_t(1) << spec::HcInstW) - 1;

  /// cfg_i.sm_big[s] (no table: every SM a small one, as a GPU without big SMs)
  static bool is_big(const PolicyCfg& cfg, uint32_t s) {
    return cfg.sm_big && s < cfg.num_sms && s < cfg.sm_big->size() && (*cfg.sm_big)[s] != 0;
  }

  Comb comb_values(const PolicyCfg& cfg, const PolicyView& v, const PolicyEvent& ev) const {
    Comb c;
    bool known_all = true;
    for (uint32_t k = 0; k < cfg.slots; ++k) {
      const KsrtEntry& e = v.ksrt->entry(k);
      if (!e.valid) continue;
      ++c.nact;
      for (uint32_t g = 0; g < HK; ++g)
        if (q.set_valid && g < q.nk && e.kernel == q.ids[g]) {
          c.pres |= 1u << g;
          c.cur[g] = k;
          c.slot_known |= 1u << k;
          c.slot_grp[k] = g;
        }
      if (!(c.slot_known >> k & 1u)) known_all = false;
    }
    cur_pres_ = c.pres;
    cur_ = c.cur;
    c.start = c.nact >= 2 && c.nact <= HK && !(q.set_valid && known_all);
    c.drop = !c.start && q.set_valid && !known_all;

    // the scan's SM: the next group, round robin, of those its type goes to
    c.is_big = is_big(cfg, q.s);
    c.last_sm = q.s + 1 >= cfg.num_sms;
    const uint32_t mask = c.is_big ? q.mb : q.ms, pos = c.is_big ? q.cb : q.cs;
    uint32_t cnt = 0;
    for (uint32_t g = 0; g < HK; ++g)
      if (mask >> g & 1u) {
        if (cnt == pos) c.g = g;
        ++cnt;
      }
    c.pos_nx = pos + 1 >= cnt ? 0 : pos + 1;
    // the scanned SM's preemption: the lowest slot with CTAs there other than the new owner's
    if (q.s < cfg.num_sms)
      for (uint32_t k = 0; k < cfg.slots && !c.found; ++k) {
        const bool owner = (c.pres >> c.g & 1u) && c.cur[c.g] == k;
        if (v.ksrt->entry(k).valid && v.smst->resident(q.s, k) != 0 && !owner) c.found = true, c.victim = k;
      }

    ProfPhase phase = ProfPhase::kIdle;
    if (!c.start && !c.drop && q.st == kWarm) phase = ProfPhase::kWarm;
    if (!c.start && !c.drop && q.st == kSample) phase = ProfPhase::kSample;
    c.win = prof_window(ev.obs, phase, ProfWinRegs::of(q), cfg.settings.hetero.warmup_cycles,
                        cfg.settings.hetero.sample_cycles);

    if (q.st == kOcc) {  // group c's CTAs on one SM of type ty
      const WfRes cta = (c.pres >> q.c & 1u) ? cta_res(v.ksrt->entry(c.cur[q.c])) : WfRes{0, 0, 0, 0, 1};
      c.acc_fits = cta_fit(q.acc, cta, occ_cap(cfg), c.acc_sum);
    }
    // SEL: the unit started by OCC's last step (OCC's move to SEL), awaited in SEL
    c.sel_start = !c.start && !c.drop && q.st == kOcc && !c.acc_fits && q.ty == 2 && q.c + 1 >= q.nk;
    if (q.st == kSel) {
      c.sel_big = sel.big();
      // a group without an SM of a type has no IPC of it: keep the split
      c.even_f = sel.even() || q.nbig < q.nk || q.nsmall < q.nk;
    }
    return c;
  }

  /// gs_hetero_sel's inputs: the registers the RTL wires to its ports.
  HeteroSelIn sel_in() const {
    HeteroSelIn in;
    in.nk = q.nk;
    in.sms_big = q.nb0;
    in.sms_small = q.ns0;
    in.big_insts = q.bsum;
    in.small_insts = q.ssum;
    in.cta_big = q.cta_b;
    in.cta_small = q.cta_s;
    in.cta_base = q.cta_0;
    return in;
  }

  /// OCC's capacity: the first big SM (ty 0), the first small SM (1), or a conventional SM (2);
  /// zero when the GPU has no SM of that type.
  WfRes occ_cap(const PolicyCfg& cfg) const {
    if (q.ty == 2) return cfg.base_sm;
    for (uint32_t s = 0; s < cfg.num_sms; ++s)
      if (is_big(cfg, s) == (q.ty == 0)) {
        const SmCaps& k = (*cfg.caps)[s];
        return WfRes{k.threads, k.warps, k.regs, k.shmem, k.ctas};
      }
    return WfRes{};
  }

  // partition and window reports: the state before the last edge, the set's slots at it
  uint32_t prev_st_ = kIdle;
  mutable uint32_t cur_pres_ = 0;
  mutable std::array<uint32_t, HK> cur_{};
  uint32_t sms_ = 0;  // the partition report's SMs and their types
  std::array<bool, spec::MaxSms> big_{};
};

}  // namespace gs::golden
