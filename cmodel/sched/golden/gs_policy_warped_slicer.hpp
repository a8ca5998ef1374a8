// gsched golden twin of rtl/policy/gs_policy_warped_slicer.sv (Warped-Slicer, Xu et al.,
// ISCA 2016, Sec. IV): profile the kernel set on the SMs (Fig. 4), scale each sample for
// memory-bandwidth contention (Eq. 3, 4), water-fill one SM (Algorithm 1) and enforce the
// partition as per-SM CTA quotas, or fall back to spatial multitasking.
//
// The same registers, state machine, timing and integer arithmetic as the RTL; the module's
// page, docs/rtl/gs_policy_warped_slicer.md, is the specification both follow:
//   IDLE -> (set change) OCC: N_k, the CTAs of kernel k that fit SM 0, one CTA per cycle
//   -> SETUP: one SM per cycle, SM s runs kernel number s mod K with min(base + s div K + 1, N_k)
//      CTAs (owner + quota); -> AVG: CTA_avg = sum of quotas / SMs (gs_seq_div)
//   -> WARM: warm-up, measured on observation stamps -> SAMPLE: the profiling counters count
//      the epochs after the window opened while within the sample length
//   -> READ / PHI / QUO / SCALE: per profiled SM, phi_mem = stall * 2^8 / (window * schedulers),
//      then CTA_j / CTA_avg (both on the one gs_seq_div), P(k, j) = gs_wf_scale(insts, phi, j,
//      CTA_avg) (WfScaleTwin, two sequential products); another round while some N_k is beyond it
//   -> WFSTART / WFWAIT: gs_waterfill on the stored profiles -> (partition_delay_cycles != 0) DELAY: Sec. V-H's
//      algorithm delay, counted as WARM counts -> PART: per SM and kernel one
//      quota write (T_k, or unlimited for spatial / a lone kernel), the owner at its first step.
//   -> (shared partition, phase_change_pct != 0) MON_OPEN / MON_RUN / MON_SUM / MON_CMP: the phase
//      monitor of Sec. IV-B: each kernel's instructions over every SM per window, against the
//      first window after the partition; phase_windows changed windows in a row re-profile.
// A set that only lost kernels, all profiled, goes straight to the water-filler.
#pragma once
#include <algorithm>
#include <array>
#include <vector>

#include "sched/golden/gs_cta_fit.hpp"
#include "sched/golden/gs_policy.hpp"
#include "sched/golden/gs_prof_counters.hpp"
#include "sched/golden/gs_prof_window.hpp"
#include "sched/golden/gs_seq_div.hpp"
#include "sched/golden/gs_waterfill.hpp"

namespace gs::golden {

class PolicyWarpedSlicer final : public PolicyTwin {
 public:
  enum St : uint32_t {
    kIdle = 0,
    kOcc = 1,
    kSetup = 2,
    kAvg = 3,
    kWarm = 4,
    kSample = 5,
    kRead = 6,
    kPhi = 7,
    kWfStart = 8,
    kWfWait = 9,
    kPart = 10,
    kMonOpen = 11,
    kMonRun = 12,
    kMonSum = 13,
    kMonCmp = 14,
    kDelay = 15,
    kQuo = 16,
    kScale = 17,
    kOccLd = 18,
    kMonMul = 19,
  };
  enum Mode : uint32_t { kShared = 0, kSpatial = 1, kAlone = 2 };
  static constexpr uint32_t KW = spec::WfMaxKernels, NS = spec::WfMaxSteps;

  struct Regs {
    uint32_t st = kIdle;
    uint32_t target = 0, done = 0, nk = 0, mode = kShared, prof_ok = 0;
    uint32_t c = 0, s = 0, pos = 0, row = 0, rows = 0, base = 0, maxn = 0;
    WfRes acc;
    uint32_t n = 0;
    std::array<uint32_t, spec::MaxKernels> nsteps{};
    uint32_t sumq = 0, avg = 0;
    uint32_t phi = 0;  // READ / PHI: phi_mem, held while the divider computes CTA_j / CTA_avg
    bool t0_valid = false;
    uint32_t t0 = 0, t1 = 0;
    bool tl_valid = false;
    uint32_t tl = 0;
    bool perf_sat = false;
    bool ref_valid = false;
    uint32_t strikes = 0;
    std::array<uint64_t, KW> ref{}, sum{};           // phase monitor: per kernel number, instructions per window
    std::array<uint32_t, spec::MaxKernels> order{};  // per kernel number, the slot of target's c-th kernel
    uint32_t rd_insts = 0, rd_stall = 0;             // the counters' read of the cycle before
    bool rd_ok = false, rd_add = false;
    uint32_t rd_pos = 0;
    WfRes cta;                           // OCC: one CTA of the kernel counted
    uint64_t mon_diff = 0, mon_rhs = 0;  // MON_MUL: |sum - ref|, pct x ref so far
    uint32_t mon_bit = 0;
    bool mon_chg = false;
    bool div_go = false;  // the divider's operands, registered
    uint64_t div_num = 0, div_den = 0;
    bool pw_valid = false;  // the performance table's write, registered
    uint32_t pw_slot = 0, pw_step = 0, pw_data = 0;
  };
  /// This cycle's combinational values the outputs and the next state share.
  struct Comb {
    bool start = false;  // a (re)start: the set of kernels with CTAs to issue changed
    bool wf_start = false, div_start = false;
    uint64_t div_num = 0, div_den = 0;
    bool scale_start = false;  // QUO: gs_wf_scale on the sample of SM q.s
    uint32_t scale_perf = 0, scale_q = 0;
    ProfWindow win;  // gs_prof_window: the counters' control and the window registers' next value
  };

  void reset(const PolicyCfg& cfg) override {
    q = d = Regs{};
    div.reset();
    wf.reset();
    scale.reset();
    prof.reset(cfg.num_sms, cfg.slots);
    for (auto& row : perf) row.fill(0);
    part_started_ = false;
  }

  /// The slot of the c-th kernel (0-based) of `mask`, in slot order; 0 when there is none.
  static uint32_t nth_slot(uint32_t mask, uint32_t c) {
    for (uint32_t k = 0; k < 32; ++k) {
      if (!(mask >> k & 1u)) continue;
      if (c == 0) return k;
      --c;
    }
    return 0;
  }
  /// A (re)start: idle, the set differs from the partitioned one; busy, from the one being
  /// worked on (a set that returns to the partitioned one while busy restarts too).
  bool starts(uint32_t pending) const { return q.st == kIdle ? pending != q.done : pending != q.target; }
  /// gs_prof_window on this sample: DELAY counts the algorithm delay as WARM counts the warm-up.
  ProfWindow window(const PolicyCfg& cfg, const PolicyEvent& ev, bool start) const {
    ProfPhase phase = ProfPhase::kIdle;
    if (!start) {
      switch (q.st) {
        case kWarm: phase = ProfPhase::kWarm; break;
        case kDelay: phase = ProfPhase::kTimer; break;
        case kMonOpen: phase = ProfPhase::kOpen; break;
        case kSample:
        case kMonRun: phase = ProfPhase::kSample; break;
        default: break;
      }
    }
    const spec::WarpedSlicerSettings& set = cfg.settings.warped_slicer;
    return prof_window(ev.obs, phase, ProfWinRegs::of(q),
                       q.st == kDelay ? set.partition_delay_cycles : set.warmup_cycles, set.sample_cycles);
  }
  /// The CTA count SM (row) profiles this round, and whether that count is measured.
  uint32_t profile_j() const { return q.base + q.row + 1; }

  Comb comb_values(const PolicyCfg& cfg, const PolicyView& v, const PolicyEvent& ev) const {
    Comb c;
    c.start = starts(v.pending);
    c.win = window(cfg, ev, c.start);
    if (c.start) return c;
    const uint32_t k = q.order[q.pos];
    switch (q.st) {
      case kSetup:
        if (q.s + 1 >= cfg.num_sms) {  // the last SM: CTA_avg = (sum of quotas) * 2^Fa / SMs
          c.div_start = true;
          c.div_num = uint64_t(q.sumq + setup_quota(k)) << spec::WfAvgFracW;
          c.div_den = cfg.num_sms;
        }
        break;
      case kRead:
        if (q.rd_ok && profile_j() <= q.nsteps[k]) {  // a measured SM: phi_mem = stall * 2^Fphi / (window * schedulers)
          c.div_start = true;
          c.div_num = uint64_t(q.rd_stall) << spec::WfPhiFracW;
          c.div_den = uint64_t((q.tl - q.t1) & width_mask(spec::CycleW)) * cfg.warp_scheds;
        }
        break;
      case kPhi:
        if (!div_wait()) {  // phi_mem is in: CTA_j / CTA_avg in UQ.WfFactorFracW
          c.div_start = true;
          c.div_num = uint64_t(profile_j() & width_mask(spec::WfStepW)) << (spec::WfFactorFracW + spec::WfAvgFracW);
          c.div_den = q.avg;
        }
        break;
      case kQuo:
        if (!div_wait()) {  // the sample (held at 2^WfPerfW - 1) and CTA_j / CTA_avg (1.0 when CTA_avg = 0)
          c.scale_start = true;
          c.scale_perf = std::min<uint32_t>(q.rd_insts, width_mask(spec::WfPerfW));
          c.scale_q = q.avg == 0 ? 1u << spec::WfFactorFracW : static_cast<uint32_t>(div.quo());
        }
        break;
      case kWfStart: c.wf_start = wf.q.st == WaterfillTwin::St::kIdle && !wf.q.done; break;
      default: break;
    }
    return c;
  }

  void comb(const PolicyCfg& cfg, const PolicyView& v, const PolicyEvent&, PolicyOut& out) const override {
    order_keys(false, v, out.key);
    // an owned SM issues its owner's CTAs only; an SM without owner any kernel's, within quotas
    const uint32_t all = cfg.slots >= 32 ? ~0u : (1u << cfg.slots) - 1u;
    for (uint32_t s = 0; s < out.elig.size(); ++s) {
      const SmstEntry& m = v.smst->entry(s);
      out.elig[s] = m.owner_valid ? 1u << m.owner : all;
    }
    out.quota_en = true;
    if (starts(v.pending)) return;
    if (q.st == kSetup) {
      const uint32_t k = q.order[q.pos];
      out.owner_wr = OwnerWr{true, static_cast<SmId>(q.s), true, k};
      out.quota_wr = QuotaWr{true, static_cast<SmId>(q.s), k, setup_quota(k)};
    } else if (q.st == kPart) {
      const uint32_t k = q.order[q.c];
      const uint32_t quota = q.mode == kShared ? wf.q.ctas[q.c] : MaxCtasPerSm;
      out.quota_wr = QuotaWr{true, static_cast<SmId>(q.s), k, quota};
      if (q.c == 0) out.owner_wr = OwnerWr{true, static_cast<SmId>(q.s), q.mode == kSpatial, q.order[q.pos]};
    }
  }

  void next(const PolicyCfg& cfg, const PolicyView& v, const PolicyEvent& ev, const PolicyOut&, bool) override {
    const Comb c = comb_values(cfg, v, ev);
    Regs& n = d;
    n = q;
    c.win.next.store(n);
    bool perf_wr = false;     // SCALE: the scaled sample goes to the table (pw_*, written the edge after)
    uint32_t ok = q.prof_ok;  // slots with a complete profile after this edge

    // blocks this module holds: the divider, the water-filler (only its FILL moves), the counters
    div.next(q.div_go, q.div_num, q.div_den);
    scale.next(c.scale_start, c.scale_perf, q.phi, c.scale_q);
    // the water-filler moves only from a start until its done cycle (a run abandoned by a
    // restart finishes in the RTL too); skipping its idle cycles keeps the golden fast
    if (c.wf_start || wf.q.st != WaterfillTwin::St::kIdle || wf.q.done) wf.next(wf_inputs(cfg, v), c.wf_start);
    else wf.d = wf.q;
    ProfCounters::In pin;
    pin.clear = c.win.clear;
    pin.run = c.win.run;
    pin.obs = ev.obs;
    pin.obs_hit = ev.obs_hit;
    pin.obs_slot = ev.obs_slot;
    prof.next(pin, prof.d);

    // the counters' read, registered; MON_SUM's read of the cycle before is added now
    const uint32_t k_rd = q.order[q.pos];
    n.rd_insts = prof.insts(q.s, k_rd);
    n.rd_stall = prof.stall(q.s, k_rd);
    n.rd_ok = false;
    n.rd_add = false;
    if (q.rd_add) n.sum[q.rd_pos] = (q.sum[q.rd_pos] + q.rd_insts) & mask64(spec::WsSumW);

    if (c.start) {
      start(cfg, v, n);
      if (n.st == kOccLd) ok &= ~v.pending;  // profiles being remeasured are not complete
    } else {
      const uint32_t k = q.order[q.pos];
      switch (q.st) {
        case kOccLd:  // the kernel's CTA demand, registered
          n.cta = cta_res(v.ksrt->entry(q.order[q.c]));
          n.st = kOcc;
          break;
        case kOcc: {
          const uint32_t kc = q.order[q.c];
          WfRes next_acc;
          const bool fits = cta_fit(q.acc, q.cta, sm0_res(cfg), next_acc);  // u_fit
          if (q.n < NS && fits) {
            n.acc = next_acc;
            n.n = q.n + 1;
          } else {
            n.nsteps[kc] = q.n;
            n.maxn = std::max(q.maxn, q.n);
            n.acc = WfRes{};
            n.n = 0;
            n.c = q.c + 1;
            if (q.n == 0) {  // a CTA that does not fit SM 0: no profile, spatial
              n.mode = kSpatial;
              to_part(n);
            } else if (q.c + 1 == q.nk) {
              n.s = n.pos = n.row = 0;
              n.base = 0;
              n.sumq = 0;
              n.st = kSetup;
            } else {
              n.st = kOccLd;
            }
          }
          break;
        }
        case kSetup:
          n.sumq = (q.sumq + setup_quota(k)) & width_mask(spec::SmIdW + spec::CtaCntW);
          advance(n);
          if (q.s + 1 >= cfg.num_sms) {
            if (q.base == 0) n.rows = n.row;
            n.st = kAvg;
          }
          break;
        case kAvg:
          if (!div_wait()) {
            n.avg = div.quo() & width_mask(spec::WfAvgW);
            n.t0_valid = false;
            n.st = kWarm;
          }
          break;
        case kWarm:
          if (c.win.done) n.st = kSample;
          break;
        case kSample:
        case kMonRun:
          if (c.win.done) {  // an epoch past the window
            n.s = n.pos = n.row = 0;
            if (q.st == kSample) {
              n.st = kRead;
            } else {
              n.sum.fill(0);
              n.st = kMonSum;
            }
          }
          break;
        case kMonOpen:
          if (c.win.done) n.st = kMonRun;  // the window opens at this stamp (the counters clear)
          break;
        case kMonSum:  // one (SM, kernel) counter per cycle, added at the next edge (rd_add)
          n.rd_add = true;
          n.rd_pos = q.pos;
          if (q.pos + 1 >= q.nk) {
            n.pos = 0;
            n.s = q.s + 1;
            if (q.s + 1 >= cfg.num_sms) {  // with a reference, each kernel is compared to it first
              n.st = q.ref_valid ? kMonMul : kMonCmp;
              n.mon_bit = 0;
              n.mon_rhs = 0;
              n.mon_chg = false;
            }
          } else {
            n.pos = q.pos + 1;
          }
          break;
        case kMonMul: {  // kernel number pos: |sum - ref| * 100 > pct * ref, pct * ref MSB first
          const uint64_t sum = q.sum[q.pos], ref = q.ref[q.pos];
          if (q.mon_bit < 8) {
            const uint32_t pct = cfg.settings.warped_slicer.phase_change_pct;
            n.mon_diff = sum > ref ? sum - ref : ref - sum;
            n.mon_rhs = ((q.mon_rhs << 1) + ((pct >> (7 - q.mon_bit)) & 1u ? ref : 0)) & mask64(spec::WsSumW + 8);
            n.mon_bit = q.mon_bit + 1;
          } else {
            if (q.mon_diff * 100 > q.mon_rhs) n.mon_chg = true;
            n.mon_bit = 0;
            n.mon_rhs = 0;
            if (q.pos + 1 >= q.nk) {
              n.pos = 0;
              n.st = kMonCmp;
            } else {
              n.pos = q.pos + 1;
            }
          }
          break;
        }
        case kMonCmp: {
          const uint32_t strikes = q.mon_chg ? (q.strikes + 1) & 15u : 0;
          if (!q.ref_valid) {
            n.ref = n.sum;  // with MON_SUM's last read, added at this edge
            n.ref_valid = true;
            n.st = kMonOpen;
          } else if (strikes >= cfg.settings.warped_slicer.phase_windows) {  // a sustained phase change: profile again
            n.strikes = 0;
            n.s = n.pos = n.row = n.c = 0;
            n.acc = WfRes{};
            n.n = 0;
            n.maxn = 0;
            n.st = kOccLd;
            ok &= ~q.target;
          } else {
            n.strikes = strikes;
            n.st = kMonOpen;
          }
          break;
        }
        case kRead:
          if (!q.rd_ok) n.rd_ok = true;  // the SM's read is in rd_stall next cycle
          else if (c.div_start) n.st = kPhi;
          else read_advance(n, ok);
          break;
        case kPhi:
          if (!div_wait()) {
            n.phi = static_cast<uint32_t>(std::min<uint64_t>(div.quo(), 1u << spec::WfPhiFracW));
            n.st = kQuo;
          }
          break;
        case kQuo:
          if (!div_wait()) n.st = kScale;
          break;
        case kScale:
          if (!scale.busy()) {
            if (q.rd_insts > width_mask(spec::WfPerfW)) n.perf_sat = true;
            perf_wr = true;
            read_advance(n, ok);
          }
          break;
        case kWfStart:
          if (c.wf_start) n.st = kWfWait;
          break;
        case kWfWait:
          if (wf.q.done) {
            n.mode = wf.q.spatial ? kSpatial : kShared;
            if (cfg.settings.warped_slicer.partition_delay_cycles == 0) {
              to_part(n);
            } else {  // Sec. V-H's algorithm delay, counted on the epochs' stamps as the warm-up
              n.t0_valid = false;
              n.st = kDelay;
            }
          }
          break;
        case kDelay:
          if (c.win.done) to_part(n);
          break;
        case kPart:
          if (q.c + 1 >= q.nk) {
            n.c = 0;
            advance(n);
            if (q.s + 1 >= cfg.num_sms) {
              n.done = q.target;
              n.ref_valid = false;
              n.strikes = 0;
              n.st = q.mode == kShared && cfg.settings.warped_slicer.phase_change_pct != 0 ? kMonOpen : kIdle;
            }
          } else {
            n.c = q.c + 1;
          }
          break;
        default: break;
      }
    }
    n.prof_ok = ok & ~ev.slot_free;
    // registered in front of the divider and the performance table
    n.div_go = c.div_start;
    if (c.div_start) {  // the operands load only with their start, the write only with a write
      n.div_num = c.div_num & mask64(spec::DivNW);
      n.div_den = c.div_den & mask64(spec::DivDW);
    }
    n.pw_valid = perf_wr;
    if (perf_wr) {
      n.pw_slot = q.order[q.pos];
      n.pw_step = profile_j() & width_mask(spec::WfStepW);
      n.pw_data = scale.perf();
    }
  }

  void commit() override {
    part_started_ = d.st == kPart && q.st != kPart;
    // the performance table takes the write registered at the edge before (the old q.pw_*)
    if (q.pw_valid && q.pw_step >= 1 && q.pw_step <= NS) perf[q.pw_slot][q.pw_step - 1] = q.pw_data;
    q = d;
    div.commit();
    wf.commit();
    scale.commit();
    prof.commit();
  }

  bool partition_started(uint32_t& slots, uint32_t& mode, std::array<uint32_t, 32>& ctas) const override {
    if (!part_started_) return false;
    slots = q.target;
    mode = q.mode;
    ctas.fill(0);
    if (q.mode == kShared)
      for (uint32_t c = 0; c < q.nk && c < KW; ++c) ctas[q.order[c]] = wf.q.ctas[c];
    return true;
  }

  void state(PolicyState& st) const override {  // ws_state_t
    namespace L = spec::layout::ws_state_t;
    st.clear();
    st.put(L::st_lsb, L::st_width, q.st);
    st.put(L::target_lsb, L::target_width, q.target);
    st.put(L::done_lsb, L::done_width, q.done);
    st.put(L::nk_lsb, L::nk_width, q.nk);
    st.put(L::mode_lsb, L::mode_width, q.mode);
    st.put(L::prof_ok_lsb, L::prof_ok_width, q.prof_ok);
    st.put(L::c_lsb, L::c_width, q.c);
    st.put(L::s_lsb, L::s_width, q.s);
    st.put(L::pos_lsb, L::pos_width, q.pos);
    st.put(L::row_lsb, L::row_width, q.row);
    st.put(L::rows_lsb, L::rows_width, q.rows);
    st.put(L::base_lsb, L::base_width, q.base);
    st.put(L::maxn_lsb, L::maxn_width, q.maxn);
    uint32_t at = L::acc_lsb + L::acc_width;  // MSB-first fields of the accumulator
    gs::pack(q.acc, [&](uint64_t val, unsigned w) {
      at -= w;
      st.put(at, w, val);
    });
    st.put(L::n_lsb, L::n_width, q.n);
    for (uint32_t k = 0; k < spec::MaxKernels; ++k)
      st.put(L::nsteps_lsb + k * spec::WfStepW, spec::WfStepW, q.nsteps[k]);
    st.put(L::sumq_lsb, L::sumq_width, q.sumq);
    st.put(L::avg_lsb, L::avg_width, q.avg);
    st.put(L::phi_lsb, L::phi_width, q.phi);
    st.put(L::t0_valid_lsb, 1, q.t0_valid);
    st.put(L::t0_lsb, L::t0_width, q.t0);
    st.put(L::t1_lsb, L::t1_width, q.t1);
    st.put(L::tl_valid_lsb, 1, q.tl_valid);
    st.put(L::tl_lsb, L::tl_width, q.tl);
    st.put(L::perf_sat_lsb, 1, q.perf_sat);
    st.put(L::ref_valid_lsb, 1, q.ref_valid);
    st.put(L::strikes_lsb, L::strikes_width, q.strikes);
    for (uint32_t i = 0; i < KW; ++i) {
      st.put(L::ref_insts_lsb + i * spec::WsSumW, spec::WsSumW, q.ref[i]);
      st.put(L::sum_insts_lsb + i * spec::WsSumW, spec::WsSumW, q.sum[i]);
    }
    for (uint32_t k = 0; k < spec::MaxKernels; ++k) st.put(L::order_lsb + k * spec::SlotW, spec::SlotW, q.order[k]);
    st.put(L::rd_insts_lsb, L::rd_insts_width, q.rd_insts);
    st.put(L::rd_stall_lsb, L::rd_stall_width, q.rd_stall);
    st.put(L::rd_ok_lsb, 1, q.rd_ok);
    st.put(L::rd_add_lsb, 1, q.rd_add);
    st.put(L::rd_pos_lsb, L::rd_pos_width, q.rd_pos);
    at = L::cta_lsb + L::cta_width;
    gs::pack(q.cta, [&](uint64_t val, unsigned w) {
      at -= w;
      st.put(at, w, val);
    });
    st.put(L::mon_diff_lsb, L::mon_diff_width, q.mon_diff);
    st.put(L::mon_rhs_lsb, L::mon_rhs_width, q.mon_rhs);
    st.put(L::mon_bit_lsb, L::mon_bit_width, q.mon_bit);
    st.put(L::mon_chg_lsb, 1, q.mon_chg);
    st.put(L::div_go_lsb, 1, q.div_go);
    st.put(L::div_num_lsb, L::div_num_width, q.div_num);
    st.put(L::div_den_lsb, L::div_den_width, q.div_den);
    st.put(L::pw_valid_lsb, 1, q.pw_valid);
    st.put(L::pw_slot_lsb, L::pw_slot_width, q.pw_slot);
    st.put(L::pw_step_lsb, L::pw_step_width, q.pw_step);
    st.put(L::pw_data_lsb, L::pw_data_width, q.pw_data);
    static_assert(L::div_width == decltype(div)::kStateW, "div_state_t is gs_seq_div's state_o");
    div.state(st, L::div_lsb);
    wf.state(st, L::wf_lsb);
    static_assert(L::scale_width == WfScaleTwin::kStateW, "wfs_state_t is gs_wf_scale's state_o");
    scale.state(st, L::scale_lsb);
  }

  /// P(k, j) as stored (the performance table, a memory outside the state record).
  uint32_t perf_at(uint32_t slot, uint32_t j) const { return perf[slot][j - 1]; }

  Regs q, d;
  SeqDiv<spec::DivNW, spec::DivDW, spec::DivQW> div;  // u_div
  WaterfillTwin wf;                                   // u_wf
  WfScaleTwin scale;                                  // u_scale
  // gs_policies' one gs_prof_counters, shared by every module that profiles: held by the twin of
  // the selected module (a run builds one twin), controlled by it alone, as in the RTL
  ProfCounters prof;

 private:
  /// The divider's result is not ready: it runs, or its start is in the operand register.
  bool div_wait() const { return div.busy() || q.div_go; }
  /// SETUP: the quota SM q.s gets for its kernel (slot k): min(j, N_k).
  uint32_t setup_quota(uint32_t k) const { return std::min(profile_j(), q.nsteps[k]); }

  /// The scan's next SM: pos = s mod nk, row = s div nk.
  void advance(Regs& n) const {
    n.s = q.s + 1;
    if (q.pos + 1 >= q.nk) {
      n.pos = 0;
      n.row = q.row + 1;
    } else {
      n.pos = q.pos + 1;
    }
  }
  /// READ / PHI: the next profiled SM; at the end of the round's rows, the next round or the fill.
  void read_advance(Regs& n, uint32_t& ok) const {
    advance(n);
    n.st = kRead;
    if (n.row < q.rows) return;
    const uint32_t next_base = q.base + q.rows;
    if (next_base < q.maxn) {
      n.base = next_base;
      n.s = n.pos = n.row = 0;
      n.sumq = 0;
      n.st = kSetup;
    } else {
      ok |= q.target;
      n.st = kWfStart;
    }
  }
  static constexpr uint64_t mask64(uint32_t w) { return w >= 64 ? ~0ull : (1ull << w) - 1; }
  static void to_part(Regs& n) {
    n.s = n.pos = n.c = 0;
    n.st = kPart;
  }
  void start(const PolicyCfg& cfg, const PolicyView& v, Regs& n) const {
    n.target = v.pending;
    for (uint32_t c = 0; c < spec::MaxKernels; ++c) n.order[c] = nth_slot(v.pending, c);
    n.nk = popcount32(v.pending);
    n.s = n.pos = n.row = n.c = 0;
    n.acc = WfRes{};
    n.n = 0;
    n.maxn = 0;
    if (n.nk == 0) {
      n.done = v.pending;
      n.st = kIdle;
    } else if (n.nk == 1) {
      n.mode = kAlone;
      n.st = kPart;
    } else if (n.nk > KW || n.nk > cfg.num_sms) {
      n.mode = kSpatial;
      n.st = kPart;
    } else if ((v.pending & ~q.prof_ok) == 0) {
      n.st = kWfStart;
    } else {
      n.st = kOccLd;
    }
  }
  WfInputs wf_inputs(const PolicyCfg& cfg, const PolicyView& v) const {
    WfInputs in;
    in.avail = sm0_res(cfg);
    for (uint32_t c = 0; c < KW; ++c) {
      if (c >= q.nk) continue;
      const uint32_t k = q.order[c];
      in.k[c].cta = cta_res(v.ksrt->entry(k));
      in.k[c].nsteps = q.nsteps[k];
      in.k[c].perf = perf[k];
    }
    return in;
  }

  std::array<std::array<uint32_t, NS>, spec::MaxKernels> perf{};  // P(k, j) per slot (a memory)
  bool part_started_ = false;                                     // the last edge entered PART (not state)
};

}  // namespace gs::golden
