// gsched golden: twin of rtl/policy/gs_policy_hetero.sv -- HeteroCore's dynamic TLP resource-
// aware scheduling (Zhao et al., TPDS 2019, Sec. 4.3, Algorithm 2; Sec. 6.4) with adaptive
// preemption: `--policy hetero-dynamic`.
//
// Same registers (hc_state_t), the same state machine and timing as the RTL:
//   (2..HcMaxKernels kernels in the KSRT, one not in the set: seen in one cycle, taken in the
//   next) SCAN: the profiling split, one SM per cycle, preempting other kernels' CTAs -> WARM ->
//   SAMPLE -> SUM: per SM, its owner's instructions (read, then summed in chunks) -> SUM_CARRY
//   -> OCC_LOAD / OCC_FIT / OCC: CTAs per big, small and conventional SM -> SEL: gs_hetero_sel's
//   unit (gs_hetero_sel.hpp), started by OCC's last step, until its decision ->
//   SCAN: the selection, adaptive preemption -> IDLE (or IDLE straight from SEL: the even split).
// docs/rtl/gs_policy_hetero.md has the full specification.
#pragma once
#include <array>
#include <cstdint>

#include "sched/golden/gs_chunk_add.hpp"
#include "sched/golden/gs_cta_fit.hpp"
#include "sched/golden/gs_hetero_sel.hpp"
#include "sched/golden/gs_policy.hpp"
#include "sched/golden/gs_prof_counters.hpp"
#include "sched/golden/gs_prof_window.hpp"

namespace gs::golden {

class PolicyHetero final : public PolicyTwin {
 public:
  using St = HcSt;  // gs_pkg::hc_st_e, from the spec
  static constexpr uint32_t HK = spec::HcMaxKernels;
  static constexpr uint32_t SC = spec::HcSumChunks;  // chunks of ArithChunkW bits of a sum

  struct Regs {
    St st = St::kIdle;
    bool chosen = false, set_valid = false, mapped = false;
    bool new_set = false, drop_q = false;  // what the KSRT showed last cycle, acted on now
    std::array<uint32_t, HK> new_ids{};
    uint32_t new_nk = 0;
    // the set's slots in last cycle's KSRT, against this cycle's set: group c there, at slot
    // m_cur[c]; slot k holds a kernel of the set, of group m_grp[k]
    uint32_t m_pres = 0, m_known = 0;
    std::array<uint32_t, HK> m_cur{};
    std::array<uint32_t, spec::MaxKernels> m_grp{};
    uint32_t nk = 0;
    std::array<uint32_t, HK> ids{};
    uint32_t s = 0, cb = 0, cs = 0, mb = 0, ms = 0;
    bool sb = false;  // SM s is a big one (registered with s)
    std::array<uint8_t, spec::MaxSms> grp{};
    uint32_t nbig = 0, nsmall = 0, nb0 = 0, ns0 = 0;
    bool t0_valid = false, tl_valid = false;
    uint32_t t0 = 0, t1 = 0, tl = 0;
    bool pc_clear = false, pc_run = false;  // prof_o.clear / run, registered (gs_prof_counters stages the sample)
    uint32_t fin = 0;
    // SCAN's first stage of a preemption request, made the cycle after
    bool pq_valid = false, pq_sel = false;
    uint32_t pq_sm = 0, pq_cand = 0, pq_fin = 0;
    std::array<uint64_t, HK> bsum{}, ssum{};
    std::array<uint32_t, 2 * HK> sum_cy{};  // sum t (bsum of group t, then ssum): chunk i's carry at bit i
    uint32_t rd_insts = 0, rd_grp = 0;      // SUM's read of the cycle before
    bool rd_big = false, rd_add = false;
    bool has_b = false, has_s = false;  // SUM: the first big and small SM seen
    uint32_t fb = 0, fs = 0;
    uint32_t c = 0, ty = 0;
    WfRes cap, cta;
    bool fit = false;
    bool sel_go = false;  // gs_hetero_sel's start, OCC's last step registered
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
    std::array<uint32_t, HK> ids_now{};  // the KSRT's kernels in slot order
    // the scan's SM
    bool is_big = false, last_sm = false;
    uint32_t g = 0, pos_nx = 0;
    uint32_t cand = 0;   // slots with CTAs on SM s other than its new owner's
    uint32_t fin_k = 0;  // slot k's group finished a CTA in the warm-up
    // counters, OCC, SEL
    ProfWindow win;  // gs_prof_window: the counters' control and the window registers' next value
    WfRes cta, cap, acc_sum;
    bool acc_fits = false;
    bool sel_start = false;
    bool even_f = false;
    uint32_t sel_big = 0;
  };

  void reset(const PolicyCfg& cfg) override {
    q = d = Regs{};
    sms_ = cfg.num_sms;
    for (uint32_t s = 0; s < spec::MaxSms; ++s) big_[s] = is_big(cfg, s);
    prev_st_ = St::kIdle;
    prof.reset(cfg.num_sms, cfg.slots);
    sel.reset();
  }

  void comb(const PolicyCfg& cfg, const PolicyView& v, const PolicyEvent& ev, PolicyOut& out) const override {
    (void)ev;  // the outputs are registers' (the set's slots, the request's first stage)
    order_keys(false, v, out.key);
    const uint32_t all = uint32_t(width_mask(cfg.slots));
    for (uint32_t s = 0; s < cfg.num_sms; ++s) {
      uint32_t e = all;
      if (q.mapped) {
        const uint32_t go = q.grp[s];
        if (q.st == St::kScan && !q.chosen && s >= q.s) e = 0;  // a profiling split's SM not scanned yet
        else if (q.m_pres >> go & 1u) e = 1u << q.m_cur[go];
      }
      out.elig[s] = e;
    }
    if (q.pq_valid && q.pq_cand != 0) {  // SCAN's second stage: the SM scanned the cycle before
      const uint32_t victim = uint32_t(__builtin_ctz(q.pq_cand));
      out.req.valid = true;
      out.req.sm = static_cast<SmId>(q.pq_sm);
      out.req.victim = victim;
      out.req.mode_sel = q.pq_sel;
      const bool drained = q.pq_fin >> victim & 1u;  // it finished a CTA in the warm-up
      out.req.mode = drained ? PreemptMode::kDrain : PreemptMode::kSwitch;
    }
  }

  void next(const PolicyCfg& cfg, const PolicyView& v, const PolicyEvent& ev, const PolicyOut& out,
            bool accepted) override {
    (void)out, (void)accepted;
    const Comb c = comb_values(cfg, v, ev);
    ProfCounters::In pin;
    pin.clear = q.pc_clear;
    pin.run = q.pc_run;
    pin.obs = ev.obs;
    pin.obs_hit = ev.obs_hit;
    pin.obs_slot = ev.obs_slot;
    pin.tag = !q.new_set && !q.drop_q && q.st == St::kScan && !q.chosen;  // the profiling split
    pin.tag_sm = q.s;
    pin.tag_slot = q.m_cur[c.g];
    prof.next(pin, prof.d);
    sel.next(q.sel_go, sel_in());

    Regs& n = d;
    n = q;
    c.win.next.store(n);
    n.pc_clear = c.win.clear;
    n.pc_run = c.win.run;
    add_sums(n);
    n.rd_add = false;  // SUM's read, set by SUM alone
    // SCAN's first stage of a preemption request
    n.pq_valid = !q.new_set && !q.drop_q && q.st == St::kScan && (q.m_pres >> c.g & 1u) &&
                 v.smst->entry(q.s).state != SmState::kReserved;
    n.pq_sm = q.s;
    n.pq_cand = c.cand;
    n.pq_fin = c.fin_k;
    n.pq_sel = q.chosen;
    // the set's slots in this cycle's KSRT, for the set of the next cycle
    set_map(cfg, v, q.new_set || (!q.drop_q && q.set_valid), q.new_set ? q.new_nk : q.nk, q.new_set ? q.new_ids : q.ids,
            n);
    n.sel_go = c.sel_start;  // gs_hetero_sel starts the cycle after OCC's last step
    // what the KSRT shows this cycle, acted on in the next
    n.new_set = c.start;
    n.drop_q = c.drop;
    if (c.start) {
      n.new_ids = c.ids_now;
      n.new_nk = c.nact;
    }
    if (q.new_set) {
      n.ids = q.new_ids;
      n.set_valid = true;
      n.nk = q.new_nk;
      n.mapped = true;
      n.chosen = false;
      n.st = St::kScan;
      n.s = n.cb = n.cs = 0;
      n.mb = n.ms = (1u << q.new_nk) - 1;
      n.nbig = n.nsmall = n.nb0 = n.ns0 = 0;
      n.fin = 0;
      n.t0_valid = false;
      n.big = 0;
      n.even = false;
    } else if (q.drop_q) {
      n.set_valid = false;
      n.mapped = false;
      n.st = St::kIdle;
    } else {
      step(ev, c, n);
    }
    n.sb = is_big(cfg, n.s);
  }

  void commit() override {
    prev_st_ = q.st;
    q = d;
    prof.commit();
    sel.commit();
  }

  void state(PolicyState& st) const override {
    st.clear();
    spec::pack_hc_state_t(st, 0, q, sel);
  }

  /// The last edge's records. A mapping put in force -- the end of a scan (the profiling
  /// split, or the selection's), or a selection that kept the split -- as "spatial": every kernel
  /// of the set on SMs of its own, counted by type. The spatial profile's window (SUM_CARRY's
  /// last carry: q holds the final sums): each kernel's instructions on its big plus its small SMs.
  void report(PolicyRecordSink& sink) const override {
    const bool scanned = prev_st_ == St::kScan && q.st != St::kScan && q.mapped;
    const bool kept = prev_st_ == St::kSel && q.st == St::kIdle;
    const bool window = prev_st_ == St::kSumCarry && q.st == St::kOccLoad;
    if (!(scanned || kept || window) || (cur_pres_ & width_mask(q.nk)) == 0) return;
    if (scanned || kept) {
      using R = spec::PartitionReport;
      PolicyRecord& r = sink.add(R::kKind);
      r.set(R::kMode, R::kModeSpatial);
      for (uint32_t c = 0; c < q.nk; ++c) {
        if (!(cur_pres_ >> c & 1u)) continue;
        uint32_t big = 0, small = 0;
        for (uint32_t s = 0; s < sms_; ++s)
          if (q.grp[s] == c) ++(big_[s] ? big : small);
        r.set(cur_[c], R::kBigSms, big);
        r.set(cur_[c], R::kSmallSms, small);
      }
    }
    if (window) {
      using W = spec::WindowReport;
      PolicyRecord& r = sink.add(W::kKind);
      r.set(W::kFrom, q.t1);
      r.set(W::kTo, q.tl);
      for (uint32_t c = 0; c < q.nk; ++c)
        if (cur_pres_ >> c & 1u) r.set(cur_[c], W::kInsts, static_cast<int64_t>(q.bsum[c] + q.ssum[c]));
    }
  }

  Regs q, d;
  // gs_policies' one gs_prof_counters, shared by every module that profiles: held by the twin of
  // the selected module (a run builds one twin), controlled by it alone, as in the RTL
  ProfCounters prof;
  HeteroSel sel;  // its gs_hetero_sel

 private:
  /// SM s is big: cfg_i.type_big of its cfg_i.sm_type (no table: every SM a small one, as a GPU without big SMs)
  static bool is_big(const PolicyCfg& cfg, uint32_t s) {
    return cfg.sm_big && s < cfg.num_sms && s < cfg.sm_big->size() && (*cfg.sm_big)[s] != 0;
  }

  Comb comb_values(const PolicyCfg& cfg, const PolicyView& v, const PolicyEvent& ev) const {
    Comb c;
    bool known_all = true;
    for (uint32_t k = 0; k < cfg.slots; ++k) {
      const KsrtEntry& e = v.ksrt->entry(k);
      if (!e.valid) continue;
      if (c.nact < HK) c.ids_now[c.nact] = e.kernel;
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
    // seen here, taken next cycle (not seen again while a new set is taken)
    c.start = !q.new_set && c.nact >= 2 && c.nact <= HK && !(q.set_valid && known_all);
    c.drop = !q.new_set && !c.start && q.set_valid && !known_all;

    // the scan's SM: the next group, round robin, of those its type goes to
    c.is_big = q.sb;
    c.last_sm = q.s + 1 >= cfg.num_sms;
    const uint32_t mask = c.is_big ? q.mb : q.ms, pos = c.is_big ? q.cb : q.cs;
    uint32_t cnt = 0;
    for (uint32_t g = 0; g < HK; ++g)
      if (mask >> g & 1u) {
        if (cnt == pos) c.g = g;
        ++cnt;
      }
    c.pos_nx = pos + 1 >= cnt ? 0 : pos + 1;
    // the scanned SM's preemption: the slots with CTAs there other than the new owner's
    for (uint32_t k = 0; k < spec::MaxKernels; ++k) {
      const bool owner = (q.m_pres >> c.g & 1u) && q.m_cur[c.g] == k;
      if (q.s < cfg.num_sms && k < cfg.slots && v.ksrt->entry(k).valid && v.smst->resident(q.s, k) != 0 && !owner)
        c.cand |= 1u << k;
      c.fin_k |= (q.fin >> q.m_grp[k] & 1u) << k;
    }

    ProfPhase phase = ProfPhase::kIdle;
    if (q.st == St::kWarm) phase = ProfPhase::kWarm;
    if (q.st == St::kSample) phase = ProfPhase::kSample;
    c.win = prof_window(ev.obs, phase, ProfWinRegs::of(q), cfg.settings.hetero.warmup_cycles,
                        cfg.settings.hetero.sample_cycles);

    if (q.st == St::kOccLoad) {  // group c's CTA and one SM of type ty
      c.cta = (q.m_pres >> q.c & 1u) ? cta_res(v.ksrt->entry(q.m_cur[q.c])) : WfRes{0, 0, 0, 0, 1};
      c.cap = occ_cap(cfg);
    }
    if (q.st == St::kOccFit || q.st == St::kOcc) c.acc_fits = cta_fit(q.acc, q.cta, q.cap, c.acc_sum);
    // SEL: the unit started by OCC's last step (OCC's move to SEL), awaited in SEL
    c.sel_start = !q.new_set && !q.drop_q && q.st == St::kOcc && !q.fit && q.ty == 2 && q.c + 1 >= q.nk;
    if (q.st == St::kSel) {
      c.sel_big = sel.big();
      // a group without an SM of a type has no IPC of it: keep the split
      c.even_f = sel.even() || q.nbig < q.nk || q.nsmall < q.nk;
    }
    return c;
  }

  /// The state machine's step (no new set, no drop).
  void step(const PolicyEvent& ev, const Comb& c, Regs& n) const {
    switch (q.st) {
      case St::kScan:  // one SM per cycle
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
            n.st = St::kIdle;
          } else {
            n.t0_valid = false;
            n.fin = 0;
            n.has_b = n.has_s = false;  // SUM finds the first big and small SM
            n.fb = n.fs = 0;
            n.st = St::kWarm;
          }
        }
        break;
      case St::kWarm:
        if (ev.ev_valid && ev.ev_type == SmEventType::kCtaFinished && (q.m_known >> ev.ev_slot & 1u))
          n.fin |= 1u << q.m_grp[ev.ev_slot];
        if (c.win.done) n.st = St::kSample;
        break;
      case St::kSample:
        if (c.win.done) {  // an epoch past the window (s is 0 since SCAN)
          n.bsum.fill(0);
          n.ssum.fill(0);
          n.sum_cy.fill(0);
          n.st = St::kSum;
        }
        break;
      case St::kSum: {  // one SM per cycle: its pair (its group's kernel), registered, summed the cycle after
        const uint32_t g = q.grp[q.s];
        n.rd_insts = prof.insts(q.s);
        n.rd_grp = g;
        n.rd_big = q.sb;
        n.rd_add = q.m_pres >> g & 1u;
        if (q.sb && !q.has_b) n.has_b = true, n.fb = q.s;
        if (!q.sb && !q.has_s) n.has_s = true, n.fs = q.s;
        n.s = q.s + 1;
        if (c.last_sm) {
          n.s = 0;
          n.st = St::kSumCarry;
        }
        break;
      }
      case St::kSumCarry:  // the last read added, then its carries through the chunks
        n.s = q.s + 1;
        if (q.s + 1 >= SC) {
          n.s = 0;
          n.c = 0;
          n.ty = 0;
          n.st = St::kOccLoad;
        }
        break;
      case St::kOccLoad:  // group c, SM type ty: the capacities and one CTA's resources
        n.cap = c.cap;
        n.cta = c.cta;
        n.acc = WfRes{};
        n.n = 0;
        n.st = St::kOccFit;
        break;
      case St::kOccFit:  // does one more CTA fit (registered: OCC acts on it)
        n.fit = c.acc_fits;
        n.st = St::kOcc;
        break;
      case St::kOcc:  // one CTA counted, or the count stored
        if (q.fit) {
          n.acc = c.acc_sum;
          n.n = q.n + 1;
          n.st = St::kOccFit;
        } else {
          (q.ty == 0 ? n.cta_b : q.ty == 1 ? n.cta_s : n.cta_0)[q.c] = q.n;
          n.ty = q.ty + 1;
          n.st = St::kOccLoad;
          if (q.ty == 2) {
            n.ty = 0;
            n.c = q.c + 1;
            if (q.c + 1 >= q.nk) {
              n.c = 0;
              n.st = St::kSel;
            }
          }
        }
        break;
      case St::kSel:
        if (sel.busy() || q.sel_go) break;  // started this cycle: busy from the next
        n.big = c.sel_big;
        n.even = c.even_f;
        if (c.even_f) {
          n.st = St::kIdle;  // the profiling split stays
        } else {
          n.chosen = true;
          n.mb = c.sel_big;
          n.ms = ((1u << q.nk) - 1) & ~c.sel_big;
          n.cb = n.cs = 0;
          n.s = 0;
          n.st = St::kScan;
        }
        break;
      default: break;
    }
  }

  /// The set's slots in the KSRT (valid, ids[c] for c < nk while sv) into n's m_* registers.
  static void set_map(const PolicyCfg& cfg, const PolicyView& v, bool sv, uint32_t nk,
                      const std::array<uint32_t, HK>& ids, Regs& n) {
    n.m_pres = n.m_known = 0;
    n.m_cur.fill(0);
    n.m_grp.fill(0);
    for (uint32_t k = 0; k < cfg.slots; ++k) {
      const KsrtEntry& e = v.ksrt->entry(k);
      for (uint32_t g = 0; g < HK; ++g)
        if (e.valid && sv && g < nk && e.kernel == ids[g]) {
          n.m_pres |= 1u << g;
          n.m_cur[g] = k;
          n.m_known |= 1u << k;
          n.m_grp[k] = g;
        }
    }
  }

  /// The sums, every one every cycle: chunk i adds its part of SUM's read of the cycle before and
  /// the carry out of chunk i-1 of the cycle before; the top chunk's carry leaves the sum.
  void add_sums(Regs& n) const {
    for (uint32_t t = 0; t < 2 * HK; ++t) {
      const uint32_t grp = t < HK ? t : t - HK;
      const bool hit = q.rd_add && q.rd_big == (t < HK) && q.rd_grp == grp;
      (t < HK ? n.bsum[grp] : n.ssum[grp]) = chunk_add(t < HK ? q.bsum[grp] : q.ssum[grp], hit ? q.rd_insts : 0,
                                                       q.sum_cy[t], SC, spec::ArithChunkW, spec::HcInstW, n.sum_cy[t]);
    }
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

  /// OCC's capacity: the first big SM (ty 0), the first small SM (1), both found by SUM, or a
  /// conventional SM (2); zero when the GPU has no SM of that type.
  WfRes occ_cap(const PolicyCfg& cfg) const {
    if (q.ty == 2) return cfg.base_sm;
    if (!(q.ty == 0 ? q.has_b : q.has_s)) return WfRes{};
    const SmCaps& k = (*cfg.caps)[q.ty == 0 ? q.fb : q.fs];
    return WfRes{k.threads, k.warps, k.regs, k.shmem, k.ctas};
  }

  // partition and window reports: the state before the last edge, the set's slots at it
  St prev_st_ = St::kIdle;
  mutable uint32_t cur_pres_ = 0;
  mutable std::array<uint32_t, HK> cur_{};
  uint32_t sms_ = 0;  // the partition report's SMs and their types
  std::array<bool, spec::MaxSms> big_{};
};

}  // namespace gs::golden
