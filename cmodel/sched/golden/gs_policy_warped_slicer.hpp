// gsched golden twin of rtl/policy/gs_policy_warped_slicer.sv (Warped-Slicer, Xu et al.,
// ISCA 2016, Sec. IV): profile the kernel set on the SMs (Fig. 4), scale each sample for
// memory-bandwidth contention (Eq. 3, 4), water-fill one SM (Algorithm 1) and enforce the
// partition as per-SM CTA quotas, or fall back to spatial multitasking.
//
// The same registers, state machine, timing and integer arithmetic as the RTL; the module's
// page, docs/rtl/gs_policy_warped_slicer.md, is the specification both follow:
//   IDLE -> (set change) START: the set registered, decided on the cycle after
//   -> OCC_LD / OCC_FIT / OCC: N_k, the CTAs of kernel k that fit SM 0, one CTA per two cycles
//   -> SETUP: one SM per cycle, SM s runs kernel number s mod K with min(base + s div K + 1, N_k)
//      CTAs (owner + quota); -> AVG: CTA_avg = sum of quotas / SMs (gs_seq_div)
//   -> WARM: warm-up, measured on observation stamps -> SAMPLE: the profiling counters count
//      the epochs after the window opened while within the sample length -> DEN: the window
//      tl - t1 a chunk per cycle, then x schedulers on the one gs_seq_mul (the READs' divisor)
//   -> READ / PHI / QUO / SCALE: per profiled SM, phi_mem = stall * 2^8 / (window * schedulers),
//      then CTA_j / CTA_avg (both on the one gs_seq_div), P(k, j) = gs_wf_scale(insts, phi, j,
//      CTA_avg) (WfScaleTwin, two sequential products); another round while some N_k is beyond it
//   -> WFSTART / WFWAIT: gs_waterfill on the stored profiles -> (partition_delay_cycles != 0) DELAY: Sec. V-H's
//      algorithm delay, counted as WARM counts -> PART: per SM and kernel one
//      quota write (T_k, or unlimited for spatial / a lone kernel), the owner at its first step.
//   -> (shared partition, phase_change_pct != 0) MON_OPEN / MON_RUN / MON_SUM / MON_CARRY /
//      MON_MUL / MON_CMP: the phase monitor of Sec. IV-B: each kernel's instructions over every SM
//      per window (summed in ArithChunkW chunks, carries a cycle later), against the first
//      window after the partition, 100 x |sum - ref| > pct x ref on the multiplier and chunk
//      flags; phase_windows changed windows in a row re-profile.
// A set that only lost kernels, all profiled, goes straight to the water-filler.
#pragma once
#include <algorithm>
#include <array>
#include <vector>

#include "sched/golden/gs_cta_fit.hpp"
#include "sched/golden/gs_policy.hpp"
#include "sched/golden/gs_chunk_add.hpp"
#include "sched/golden/gs_prof_counters.hpp"
#include "sched/golden/gs_prof_window.hpp"
#include "sched/golden/gs_seq_div.hpp"
#include "sched/golden/gs_seq_mul.hpp"
#include "sched/golden/gs_waterfill.hpp"

namespace gs::golden {

class PolicyWarpedSlicer final : public PolicyTwin {
 public:
  using St = WsSt;      // gs_pkg::ws_st_e, from the spec
  using Mode = WsMode;  // gs_pkg::ws_mode_e, from the spec
  static constexpr uint32_t KW = spec::WfMaxKernels, NS = spec::WfMaxSteps;
  static constexpr uint32_t CH = spec::ArithChunkW, SC = spec::WsSumChunks, CC = spec::WsCmpChunks,
                            WC = spec::WsWinChunks;
  using Mul = SeqMul<spec::WsMulAW, spec::WsMulBW>;

  struct Regs {
    St st = St::kIdle;
    uint32_t target = 0, done = 0, nk = 0;
    Mode mode = Mode::kShared;
    uint32_t prof_ok = 0;
    uint32_t c = 0, s = 0, pos = 0, row = 0, rows = 0, base = 0, maxn = 0;
    WfRes acc;
    uint32_t n = 0;
    bool fit = false;  // OCC_FIT: one more CTA fits on top of acc
    std::array<uint32_t, spec::MaxKernels> nsteps{};
    std::array<uint32_t, KW> nsteps_c{};  // N per kernel number of target (SETUP / READ)
    uint32_t sumq = 0, avg = 0;
    uint32_t sq = 0;   // SETUP's quota of the cycle before, added into sumq at this edge
    bool dly = false;  // the window times the algorithm delay (DELAY): warmup_i is partition_delay_cycles
    uint32_t phi = 0;  // READ / PHI: phi_mem, held while the divider computes CTA_j / CTA_avg
    bool t0_valid = false;
    uint32_t t0 = 0, t1 = 0;
    bool tl_valid = false;
    uint32_t tl = 0;
    bool pc_clear = false, pc_run = false;  // prof_o.clear / run, registered (gs_prof_counters stages the sample)
    bool perf_sat = false;
    bool ref_valid = false;
    uint32_t strikes = 0;
    std::array<uint64_t, KW> ref_insts{}, sum_insts{};  // phase monitor: per kernel number, instructions per window
    std::array<uint32_t, KW> sum_cy{};                  // ... the carries out of sum's chunks, bit i of chunk i
    std::array<uint32_t, spec::MaxKernels> order{};     // per kernel number, the slot of target's c-th kernel
    uint32_t rd_insts = 0, rd_stall = 0;                // the counters' read of the cycle before
    bool rd_ok = false, rd_add = false;
    uint32_t rd_pos = 0;
    WfRes cta;                           // OCC: one CTA of the kernel counted
    uint64_t mon_diff = 0, mon_rhs = 0;  // MON_MUL: |sum - ref| (DEN: the window), pct x ref
    uint32_t mon_k = 0;                  // the step of MON_CARRY, MON_MUL or DEN
    bool mon_cy = false, mon_neg = false;
    uint32_t mon_lt = 0, mon_eq = 0;  // MON_MUL: the products' chunk flags
    bool mon_chg = false;
    bool avg_go = false;  // AVG: the divider was started
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
    bool mul_start = false;  // the multiplier: MON_MUL's two products, DEN's divisor
    uint64_t mul_a = 0, mul_b = 0;
    ProfWindow win;  // gs_prof_window: the counters' control and the window registers' next value
  };

  void reset(const PolicyCfg& cfg) override {
    q = d = Regs{};
    div.reset();
    mul.reset();
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
  bool starts(uint32_t pending) const { return q.st == St::kIdle ? pending != q.done : pending != q.target; }
  /// sumq with SETUP's last quota (sq) added: what AVG's divider takes.
  uint32_t sumq_now() const { return (q.sumq + q.sq) & width_mask(spec::SmIdW + spec::CtaCntW); }
  /// The window's phase of state st (a decode of the state register).
  static ProfPhase phase_of(St st) {
    switch (st) {
      case St::kWarm: return ProfPhase::kWarm;
      case St::kDelay: return ProfPhase::kTimer;  // DELAY counts the algorithm delay as WARM counts the warm-up
      case St::kMonOpen: return ProfPhase::kOpen;
      case St::kSample:
      case St::kMonRun: return ProfPhase::kSample;
      default: return ProfPhase::kIdle;
    }
  }
  /// gs_prof_window on this sample, in the phase of the registered state (a restart's cycle included).
  ProfWindow window(const PolicyCfg& cfg, const PolicyEvent& ev) const {
    const spec::WarpedSlicerSettings& set = cfg.settings.warped_slicer;
    return prof_window(ev.obs, phase_of(q.st), ProfWinRegs::of(q),
                       q.dly ? set.partition_delay_cycles : set.warmup_cycles, set.sample_cycles);
  }
  /// The CTA count SM (row) profiles this round, and whether that count is measured.
  uint32_t profile_j() const { return q.base + q.row + 1; }

  Comb comb_values(const PolicyCfg& cfg, const PolicyView& v, const PolicyEvent& ev) const {
    Comb c;
    c.start = starts(v.pending);
    c.win = window(cfg, ev);
    // the water-filler's start is not held back by a restart (the RTL forms it from registers)
    c.wf_start = q.st == St::kWfStart && wf.q.st == WaterfillTwin::St::kIdle && !wf.q.done;
    if (c.start) return c;
    switch (q.st) {
      case St::kAvg:
        if (!q.avg_go) {  // CTA_avg = (sum of quotas) * 2^Fa / SMs
          c.div_start = true;
          c.div_num = uint64_t(sumq_now()) << spec::WfAvgFracW;
          c.div_den = cfg.num_sms;
        }
        break;
      case St::kRead:
        if (q.rd_ok && profile_j() <= n_pos()) {  // a measured SM: phi_mem = stall * 2^Fphi / (window * schedulers)
          c.div_start = true;
          c.div_num = uint64_t(q.rd_stall) << spec::WfPhiFracW;
          c.div_den = mul.prod();  // DEN's product
        }
        break;
      case St::kMonMul:  // pct x ref at step 0, 100 x |sum - ref| at step 2 CC once pct x ref is in
        if (q.mon_k == 0) {
          c.mul_start = true;
          c.mul_a = cfg.settings.warped_slicer.phase_change_pct;
          c.mul_b = mon_ref();
        } else if (q.mon_k == 2 * CC && !mul.busy()) {
          c.mul_start = true;
          c.mul_a = 100;
          c.mul_b = q.mon_diff;
        }
        break;
      case St::kDen:  // the window's chunks subtracted: x schedulers
        if (q.mon_k == WC) {
          c.mul_start = true;
          c.mul_a = cfg.warp_scheds;
          c.mul_b = q.mon_diff;
        }
        break;
      case St::kPhi:
        if (!div_wait()) {  // phi_mem is in: CTA_j / CTA_avg in UQ.WfFactorFracW
          c.div_start = true;
          c.div_num = uint64_t(profile_j() & width_mask(spec::WfStepW)) << (spec::WfFactorFracW + spec::WfAvgFracW);
          c.div_den = q.avg;
        }
        break;
      case St::kQuo:
        if (!div_wait()) {  // the sample (held at 2^WfPerfW - 1) and CTA_j / CTA_avg (1.0 when CTA_avg = 0)
          c.scale_start = true;
          c.scale_perf = std::min<uint32_t>(q.rd_insts, width_mask(spec::WfPerfW));
          c.scale_q = q.avg == 0 ? 1u << spec::WfFactorFracW : static_cast<uint32_t>(div.quo());
        }
        break;
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
    if (q.st == St::kSetup) {
      const uint32_t k = q.order[q.pos];
      out.owner_wr = OwnerWr{true, static_cast<SmId>(q.s), true, k};
      out.quota_wr = QuotaWr{true, static_cast<SmId>(q.s), k, setup_quota()};
    } else if (q.st == St::kPart) {
      const uint32_t k = q.order[q.c];
      const uint32_t quota = q.mode == Mode::kShared ? wf.q.ctas[q.c] : MaxCtasPerSm;
      out.quota_wr = QuotaWr{true, static_cast<SmId>(q.s), k, quota};
      if (q.c == 0) out.owner_wr = OwnerWr{true, static_cast<SmId>(q.s), q.mode == Mode::kSpatial, q.order[q.pos]};
    }
  }

  void next(const PolicyCfg& cfg, const PolicyView& v, const PolicyEvent& ev, const PolicyOut&, bool) override {
    const Comb c = comb_values(cfg, v, ev);
    Regs& n = d;
    n = q;
    c.win.next.store(n);
    n.pc_clear = c.win.clear;
    n.pc_run = c.win.run;
    n.sumq = sumq_now();  // SETUP's quota of the cycle before enters the sum now
    n.sq = 0;
    bool perf_wr = false;     // SCALE: the scaled sample goes to the table (pw_*, written the edge after)
    uint32_t ok = q.prof_ok;  // slots with a complete profile after this edge

    // blocks this module holds: the divider, the water-filler (only its FILL moves), the counters
    div.next(q.div_go, q.div_num, q.div_den);
    mul.next(c.mul_start, c.mul_a, c.mul_b);
    scale.next(c.scale_start, c.scale_perf, q.phi, c.scale_q);
    // the water-filler moves only from a start until its done cycle (a run abandoned by a
    // restart finishes in the RTL too); skipping its idle cycles keeps the golden fast
    if (c.wf_start || wf.q.st != WaterfillTwin::St::kIdle || wf.q.done) wf.next(wf_inputs(cfg, v), c.wf_start);
    else wf.d = wf.q;
    ProfCounters::In pin;
    pin.clear = q.pc_clear;
    pin.run = q.pc_run;
    pin.obs = ev.obs;
    pin.obs_hit = ev.obs_hit;
    pin.obs_slot = ev.obs_slot;
    const uint32_t k_rd = q.order[q.pos];  // the kernel of SM q.s (number q.pos)
    pin.tag = q.st == St::kSetup;          // every SETUP cycle, also one that restarts
    pin.tag_sm = q.s;
    pin.tag_slot = k_rd;
    prof.next(pin, prof.d);

    // the counters' read, registered (READ: SM s's pair; MON_SUM: kernel k_rd's sum over every
    // SM); MON_SUM's read of the cycle before is added now
    n.rd_insts = q.st == St::kMonSum ? prof.acc(k_rd) : prof.insts(q.s);
    n.rd_stall = prof.stall(q.s);
    n.rd_ok = false;
    n.rd_add = false;
    for (uint32_t kc = 0; kc < KW; ++kc)  // every sum (gs_chunk_add): the read into its own, the carries
      n.sum_insts[kc] = chunk_add(q.sum_insts[kc], q.rd_add && q.rd_pos == kc ? q.rd_insts : 0, q.sum_cy[kc], SC, CH,
                                  spec::WsSumW, n.sum_cy[kc]);

    if (c.start) {
      start(v, n);
    } else {
      switch (q.st) {
        case St::kStart:  // decide on the registered set
          if (q.nk == 0) {
            n.done = q.target;
            n.st = St::kIdle;
          } else if (q.nk == 1) {
            n.mode = Mode::kAlone;
            n.st = St::kPart;
          } else if (q.nk > KW || q.nk > cfg.num_sms) {
            n.mode = Mode::kSpatial;
            n.st = St::kPart;
          } else if ((q.target & ~q.prof_ok) == 0) {
            n.st = St::kWfStart;
          } else {
            n.st = St::kOccLd;
            ok &= ~q.target;  // profiles being remeasured are not complete
          }
          break;
        case St::kOccLd:  // the kernel's CTA demand, registered
          n.cta = cta_res(v.ksrt->entry(q.order[q.c]));
          n.st = St::kOccFit;
          break;
        case St::kOccFit: {  // does one more CTA fit (u_fit), registered
          WfRes next_acc;
          n.fit = cta_fit(q.acc, q.cta, sm0_res(cfg), next_acc);
          n.st = St::kOcc;
          break;
        }
        case St::kOcc: {
          const uint32_t kc = q.order[q.c];
          WfRes next_acc;
          cta_fit(q.acc, q.cta, sm0_res(cfg), next_acc);  // u_fit's sum
          if (q.n < NS && q.fit) {
            n.acc = next_acc;
            n.n = q.n + 1;
            n.st = St::kOccFit;
          } else {
            n.nsteps[kc] = q.n;
            if (q.c < KW) n.nsteps_c[q.c] = q.n;
            n.maxn = std::max(q.maxn, q.n);
            n.acc = WfRes{};
            n.n = 0;
            n.c = q.c + 1;
            if (q.n == 0) {  // a CTA that does not fit SM 0: no profile, spatial
              n.mode = Mode::kSpatial;
              to_part(n);
            } else if (q.c + 1 == q.nk) {
              n.s = n.pos = n.row = 0;
              n.base = 0;
              n.sumq = 0;
              n.st = St::kSetup;
            } else {
              n.st = St::kOccLd;
            }
          }
          break;
        }
        case St::kSetup:
          n.sq = setup_quota();  // added into sumq at the next edge
          advance(n);
          if (q.s + 1 >= cfg.num_sms) {
            if (q.base == 0) n.rows = n.row;
            n.avg_go = false;
            n.st = St::kAvg;
          }
          break;
        case St::kAvg:
          if (!q.avg_go) {
            n.avg_go = true;  // the divider starts (div_go) at this edge
          } else if (!div_wait()) {
            n.avg = div.quo() & width_mask(spec::WfAvgW);
            n.t0_valid = false;
            to_window(n, St::kWarm);
          }
          break;
        case St::kWarm:
          if (c.win.done) n.st = St::kSample;
          break;
        case St::kSample:
        case St::kMonRun:
          if (c.win.done) {  // an epoch past the window (s, pos, row, mon_k are 0 since its start)
            if (q.st == St::kSample) {
              n.st = St::kDen;
            } else {
              n.st = St::kMonSum;
            }
          }
          break;
        case St::kMonOpen:
          if (c.win.done) n.st = St::kMonRun;  // the window opens at this stamp (the counters clear)
          break;
        case St::kMonSum:  // one kernel's sum over every SM per cycle, added at the next edge (rd_add)
          n.rd_add = true;
          n.rd_pos = q.pos;
          if (q.pos + 1 >= q.nk) {
            n.pos = 0;
            n.mon_k = 0;
            n.st = St::kMonCarry;
          } else {
            n.pos = q.pos + 1;
          }
          break;
        case St::kMonCarry:  // the last read is added, then each chunk's carry moves up (SC cycles)
          n.mon_k = q.mon_k + 1;
          if (q.mon_k == SC - 1) {  // with a reference, each kernel is compared to it first
            n.mon_k = 0;
            n.mon_chg = false;
            n.st = q.ref_valid ? St::kMonMul : St::kMonCmp;
          }
          break;
        case St::kMonMul: {  // kernel number pos: 100 x |sum - ref| > pct x ref, step mon_k
          n.mon_k = q.mon_k + 1;
          if (q.mon_k < CC) {  // chunk mon_k of sum - ref
            const Chunk sc = sub_chunk(mon_sum(), mon_ref());
            n.mon_diff = diff_chunk(q.mon_diff, q.mon_k, sc.v);
            n.mon_cy = sc.out;
            if (q.mon_k == CC - 1) n.mon_neg = sc.out;
          } else if (q.mon_k < 2 * CC) {  // sum < ref: chunk mon_k - CC negated
            if (q.mon_neg) {
              const uint32_t i = q.mon_k - CC;
              const uint64_t t = (~chunk(q.mon_diff, i) & mask64(CH)) + (i == 0 || q.mon_cy ? 1 : 0);
              n.mon_diff = diff_chunk(q.mon_diff, i, t & mask64(CH));
              n.mon_cy = t >> CH & 1u;
            }
          } else if (q.mon_k == 2 * CC) {  // pct x ref is in; 100 x |sum - ref| starts
            if (mul.busy()) n.mon_k = q.mon_k;
            else n.mon_rhs = mul.prod();
          } else if (q.mon_k == 2 * CC + 1) {  // 100 x |sum - ref| is in: the chunk flags
            if (mul.busy()) {
              n.mon_k = q.mon_k;
            } else {
              n.mon_lt = n.mon_eq = 0;
              for (uint32_t i = 0; i < CC; ++i) {
                const uint64_t r = chunk(q.mon_rhs, i), p = chunk(mul.prod(), i);
                n.mon_lt |= uint32_t(r < p) << i;
                n.mon_eq |= uint32_t(r == p) << i;
              }
            }
          } else {  // the flags combined, the top chunk deciding
            bool changed = false;
            for (uint32_t i = 0; i < CC; ++i) changed = (q.mon_lt >> i & 1u) || ((q.mon_eq >> i & 1u) && changed);
            if (changed) n.mon_chg = true;
            n.mon_k = 0;
            if (q.pos + 1 >= q.nk) {
              n.pos = 0;
              n.st = St::kMonCmp;
            } else {
              n.pos = q.pos + 1;
            }
          }
          break;
        }
        case St::kDen:  // the window tl - t1 a chunk per step, then x schedulers on the multiplier
          n.mon_k = q.mon_k + 1;
          if (q.mon_k < WC) {
            const Chunk sc = sub_chunk(q.tl, q.t1);
            n.mon_diff = diff_chunk(q.mon_k == 0 ? 0 : q.mon_diff, q.mon_k, sc.v);
            n.mon_cy = sc.out;
          } else if (q.mon_k > WC) {  // the product is the divisor of the round's READs
            n.mon_k = q.mon_k;
            if (!mul.busy()) {
              n.mon_k = 0;
              n.st = St::kRead;
            }
          }
          break;
        case St::kMonCmp: {
          const uint32_t strikes = q.mon_chg ? (q.strikes + 1) & 15u : 0;
          if (!q.ref_valid) {
            n.ref_insts = q.sum_insts;  // complete: MON_CARRY added the carries
            n.ref_valid = true;
            to_window(n, St::kMonOpen);
          } else if (strikes >= cfg.settings.warped_slicer.phase_windows) {  // a sustained phase change: profile again
            n.strikes = 0;
            n.s = n.pos = n.row = n.c = 0;
            n.acc = WfRes{};
            n.n = 0;
            n.maxn = 0;
            n.st = St::kOccLd;
            ok &= ~q.target;
          } else {
            n.strikes = strikes;
            to_window(n, St::kMonOpen);
          }
          break;
        }
        case St::kRead:
          if (!q.rd_ok) n.rd_ok = true;  // the SM's read is in rd_stall next cycle
          else if (c.div_start) n.st = St::kPhi;
          else read_advance(n, ok);
          break;
        case St::kPhi:
          if (!div_wait()) {
            n.phi = static_cast<uint32_t>(std::min<uint64_t>(div.quo(), 1u << spec::WfPhiFracW));
            n.st = St::kQuo;
          }
          break;
        case St::kQuo:
          if (!div_wait()) n.st = St::kScale;
          break;
        case St::kScale:
          if (!scale.busy()) {
            if (q.rd_insts > width_mask(spec::WfPerfW)) n.perf_sat = true;
            perf_wr = true;
            read_advance(n, ok);
          }
          break;
        case St::kWfStart:
          if (c.wf_start) n.st = St::kWfWait;
          break;
        case St::kWfWait:
          if (wf.q.done) {
            n.mode = wf.q.spatial ? Mode::kSpatial : Mode::kShared;
            if (cfg.settings.warped_slicer.partition_delay_cycles == 0) {
              to_part(n);
            } else {  // Sec. V-H's algorithm delay, counted on the epochs' stamps as the warm-up
              n.t0_valid = false;
              to_part(n);  // PART's scan registers, set now: DELAY's end moves st alone
              n.dly = true;
              n.st = St::kDelay;
            }
          }
          break;
        case St::kDelay:
          if (c.win.done) n.st = St::kPart;
          break;
        case St::kPart:
          if (q.c + 1 >= q.nk) {
            n.c = 0;
            advance(n);
            if (q.s + 1 >= cfg.num_sms) {
              n.done = q.target;
              n.ref_valid = false;
              n.strikes = 0;
              if (q.mode == Mode::kShared && cfg.settings.warped_slicer.phase_change_pct != 0)
                to_window(n, St::kMonOpen);
              else n.st = St::kIdle;
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
    part_started_ = d.st == St::kPart && q.st != St::kPart;
    // the performance table takes the write registered at the edge before (the old q.pw_*)
    if (q.pw_valid && q.pw_step >= 1 && q.pw_step <= NS) perf[q.pw_slot][q.pw_step - 1] = q.pw_data;
    q = d;
    div.commit();
    mul.commit();
    wf.commit();
    scale.commit();
    prof.commit();
  }

  /// The partition the last edge put in force (state PART ended): its mode, slots and, shared,
  /// each kernel's CTAs per SM.
  void report(PolicyRecordSink& sink) const override {
    if (!part_started_) return;
    using R = spec::PartitionReport;
    PolicyRecord& r = sink.add(R::kKind);
    r.set(R::kMode, q.mode == Mode::kShared    ? R::kModeShared
                    : q.mode == Mode::kSpatial ? R::kModeSpatial
                                               : R::kModeAlone);
    for (uint32_t k = 0; k < PolicyRecord::kMaxSlots; ++k)
      if (q.target >> k & 1u) r.cover(k);
    if (q.mode == Mode::kShared)
      for (uint32_t c = 0; c < q.nk && c < KW; ++c) r.set(q.order[c], R::kCtasPerSm, wf.q.ctas[c]);
  }

  void state(PolicyState& st) const override {
    st.clear();
    spec::pack_ws_state_t(st, 0, q, div, wf, scale, mul);
  }

  /// P(k, j) as stored (the performance table, a memory outside the state record).
  uint32_t perf_at(uint32_t slot, uint32_t j) const { return perf[slot][j - 1]; }

  Regs q, d;
  SeqDiv<spec::DivNW, spec::DivDW, spec::DivQW> div;  // u_div
  Mul mul;                                            // u_mul
  WaterfillTwin wf;                                   // u_wf
  WfScaleTwin scale;                                  // u_scale
  // gs_policies' one gs_prof_counters, shared by every module that profiles: held by the twin of
  // the selected module (a run builds one twin), controlled by it alone, as in the RTL
  ProfCounters prof;

 private:
  /// The divider's result is not ready: it runs, or its start is in the operand register.
  bool div_wait() const { return div.busy() || q.div_go; }
  /// N of the kernel of SM q.s (kernel number pos).
  uint32_t n_pos() const { return q.pos < KW ? q.nsteps_c[q.pos] : 0; }
  /// SETUP: the quota SM q.s gets for its kernel: min(j, N).
  uint32_t setup_quota() const { return std::min(profile_j(), n_pos()); }
  /// MON_MUL: kernel number pos's window sum and reference.
  uint64_t mon_sum() const { return q.pos < KW ? q.sum_insts[q.pos] : 0; }
  uint64_t mon_ref() const { return q.pos < KW ? q.ref_insts[q.pos] : 0; }
  /// Chunk i of x (ArithChunkW bits; 0 past the WsCmpChunks chunks).
  static uint64_t chunk(uint64_t x, uint32_t i) { return i < CC ? x >> (i * CH) & mask64(CH) : 0; }
  /// mon_diff with chunk i replaced by v (the register is WsMulBW bits).
  static uint64_t diff_chunk(uint64_t from, uint32_t i, uint64_t v) {
    if (i >= CC) return from;
    const uint64_t m = mask64(CH) << (i * CH);
    return ((from & ~m) | v << (i * CH)) & mask64(spec::WsMulBW);
  }
  struct Chunk {
    uint64_t v = 0;
    bool out = false;  // the borrow out
  };
  /// Chunk mon_k of a - b with the borrow of the chunk before (mon_cy; none at step 0).
  Chunk sub_chunk(uint64_t a, uint64_t b) const {
    const uint64_t bin = q.mon_cy && q.mon_k != 0 ? 1 : 0;
    const uint64_t ca = chunk(a, q.mon_k), cb = chunk(b, q.mon_k);
    return Chunk{(ca - cb - bin) & mask64(CH), ca < cb + bin};
  }

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
    n.st = St::kRead;
    if (n.row < q.rows) return;
    const uint32_t next_base = q.base + q.rows;
    if (next_base < q.maxn) {
      n.base = next_base;
      n.s = n.pos = n.row = 0;
      n.sumq = 0;
      n.st = St::kSetup;
    } else {
      ok |= q.target;
      n.st = St::kWfStart;
    }
  }
  static constexpr uint64_t mask64(uint32_t w) { return w >= 64 ? ~0ull : (1ull << w) - 1; }
  static void to_part(Regs& n) {
    n.s = n.pos = n.c = 0;
    n.st = St::kPart;
  }
  /// Into a window (WARM, MON_OPEN): the scan after it starts from zero and the monitor's sums
  /// are cleared, set now (not when the window ends: no field but st waits on the window's done).
  static void to_window(Regs& n, St st) {
    n.s = n.pos = n.row = 0;
    n.mon_k = 0;
    n.sum_insts.fill(0);
    n.sum_cy.fill(0);
    n.dly = false;
    n.st = st;
  }
  /// A restart: the set registered (START decides on it the cycle after).
  static void start(const PolicyView& v, Regs& n) {
    n.target = v.pending;
    for (uint32_t c = 0; c < spec::MaxKernels; ++c) n.order[c] = nth_slot(v.pending, c);
    n.nk = popcount32(v.pending);
    n.s = n.pos = n.row = n.c = 0;
    n.acc = WfRes{};
    n.n = 0;
    n.maxn = 0;
    n.st = St::kStart;
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
