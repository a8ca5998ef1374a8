// gsched golden twin of rtl/policy/gs_policy_srtf.sv: SRTF (Pai et al., PACT 2014, Sec. 5.1.1)
// with a kernel-level Simple Slicing prediction of each kernel's remaining time. Same registers,
// the same sequential datapath (two SeqMul, one SeqDiv, gs_seq_mul / gs_seq_div), the same order
// sweep and the same integer arithmetic, chunk by chunk, as the RTL; the reading of the paper is
// in docs/rtl/gs_policy_srtf.md.
//
// Per cycle (comb): P = kernels with a prediction and CTAs to issue, U = kernels with CTAs to
// issue and no prediction yet. best = the kernel of P first by {ord, rank, slot} (ord: its
// place in the SRTF order at its last visit of the order sweep), samp = the kernel of U first
// by {rank, slot}, both from pairwise orders registered the cycle before (ahead, older). SM 0, the sampling SM, serves
// the oldest kernel of U while P and U are both non-empty (the sampling delay is the time its
// resident blocks take to leave), else best; every other SM serves best. With P empty every SM
// serves U in arrival order (a kernel is predicted at its first block end). No preemption, no
// quotas: running blocks finish (the hand-off delay).
// Per block end (next), in two stages: in its cycle Reslice is cleared, res <- the kernel's
// resident blocks on that SM (the ending one included) and end - start's low ArithChunkW bits
// are registered; in the next cycle the high part completes t (if Reslice was set) and the slot
// waits for the datapath: a pick (grid and done read from the KSRT), then (grid - done) * t and
// res * num_sms by two SeqMul, then the SeqDiv quotient, saturated at
// 2**SrtfPredW - 1. A launch or a kernel end sets Reslice for every running kernel (Sec. 4); a
// launch clears its slot, and a launch or end drops the slot's pending or running work.
// Order sweep (both policies; while sw_left > 0): kernel sw_k is visited for SrtfSweepLast + 1
// cycles: step 0 reads its rem and rank and starts adaptive_threshold * rem (SeqMul); steps 1..K
// read kernel j = step - 1 and compare its rem with the visited one in ArithChunkW-bit chunks
// (rd_lt, rd_eq); the step after counts and adds it if it is in P and ahead (acc_cnt; acc_sum
// in chunks whose carries go to the next chunk a step later); step Last - 1 compares
// acc_sum * 2**SaThrFracW with the product in chunks (gap_gt, gap_eq); step Last writes
// ord[sw_k] (K - 1 outside P) and unfair[sw_k], then visits sw_k + 1. A new prediction, a
// launch or end, or a change of P sets sw_left to K + 1 visits.
// SRTF/Adaptive (cfg.policy == kSrtfAdaptive, Sec. 5.1.2): `share` is set in the cycle after
// some kernel of P has its unfair bit. While share, the SMs other than a sampling SM 0 may issue
// every kernel of P, best held to adaptive_residency CTAs per SM, and the SM driver's key is
// {ord, rank}.
// Zero-sampling (Sec. 6.2.2, golden only, set_known()): every kernel's runtime is given, so a
// kernel in the KSRT has rem = its given runtime from its launch on, nothing is sampled and
// block ends change nothing (the datapath never runs). gs_top has no port for it.
#pragma once
#include <array>
#include <vector>

#include "sched/golden/gs_policy.hpp"
#include "sched/golden/gs_seq_div.hpp"
#include "sched/golden/gs_seq_mul.hpp"

namespace gs::golden {

class PolicySrtf final : public PolicyTwin {
 public:
  static constexpr uint32_t K = spec::MaxKernels;
  static constexpr uint32_t kSampleSm = 0;  // Sec. 5.1.1: "we sample B on a single SM (here, SM0)"
  static constexpr uint64_t kRemMax = width_mask64(spec::SrtfPredW);
  static constexpr uint32_t kCycleMask = width_mask(spec::CycleW);
  static constexpr uint32_t kCh = spec::ArithChunkW;  // the widest carry chain of one cycle
  static constexpr uint32_t kLast = spec::SrtfSweepLast;
  static constexpr uint32_t kThrFracW = spec::SaThrFracW;

  struct Regs {
    uint32_t pred_ok = 0, reslice = 0, pend = 0;  // bit masks over slots
    bool share = false;                           // srtf-adaptive: sharing mode
    std::array<uint32_t, K> t{};
    std::array<uint32_t, K> res{};
    std::array<uint64_t, K> rem{};
    uint32_t rr = K - 1;  // the first pick scans from slot 0
    uint32_t div_k = 0;
    uint32_t op_grid = 0, op_done = 0;  // the picked slot's KSRT counts, read at the pick
    // a block end's second stage
    bool tsub_valid = false, tsub_sample = false, tsub_borrow = false;
    uint32_t tsub_k = 0, tsub_lo = 0, tsub_end_hi = 0, tsub_start_hi = 0;
    bool pick_run = false, mul_run = false, div_run = false;  // the datapath works for div_k
    // the order sweep
    uint32_t sw_k = 0, sw_step = 0, sw_left = 0, last_p = 0, cur_rank = 0, acc_cnt = 0;
    uint64_t cur_rem = 0, rd_rem = 0, acc_sum = 0;
    bool rd_in = false, rd_rank_lt = false;
    uint32_t rd_lt = 0, rd_eq = 0, acc_cy = 0, gap_gt = 0, gap_eq = 0;  // one bit per chunk
    std::array<uint32_t, K> ord = filled(K - 1);
    uint32_t unfair = 0;
    // the choice's pairwise orders: bit j of [k] = kernel j comes before k
    std::array<uint32_t, K> ahead{};  // by {ord, rank, slot}
    std::array<uint32_t, K> older{};  // by {rank, slot}
  };
  static constexpr std::array<uint32_t, K> filled(uint32_t v) {
    std::array<uint32_t, K> a{};
    for (auto& x : a) x = v;
    return a;
  }
  using Div = SeqDiv<spec::SrtfDivW, spec::SrtfDenW, spec::SrtfPredW>;
  using MulNum = SeqMul<spec::CtaIdW, spec::CycleW>;     // (grid - done) added, t one bit per cycle
  using MulDen = SeqMul<spec::CtaCntW, spec::SmIdW>;     // res added, num_sms one bit per cycle
  using MulThr = SeqMul<spec::SaThrW, spec::SrtfPredW>;  // adaptive_threshold added, rem one bit per cycle
  static_assert(MulNum::kProdW == spec::SrtfDivW && MulDen::kProdW == spec::SrtfDenW && MulThr::kProdW == spec::SaProdW,
                "the products are the divider's operands and the gap test's right side");
  static_assert(spec::SaGapChunks * kCh <= 64 && spec::SrtfSumChunks * kCh <= 64,
                "the chunked gap test and sum fit uint64_t");
  static_assert(spec::CycleW > kCh && spec::SrtfTHiW <= kCh, "end - start is subtracted in two chunks");
  static_assert(kLast >= spec::SrtfPredW + 2 && kLast >= K + spec::SrtfSumChunks + 2,
                "a visit writes after the threshold product and the sum's last carry");

  void reset(const PolicyCfg&) override {
    q = d = Regs{};
    div.reset();
    mul_num.reset();
    mul_den.reset();
    thr_mul.reset();
    rec_q_ = rec_d_ = Record{};
    part_started_ = false;
  }

  /// Zero-sampling SRTF (Sec. 6.2.2: "we provided the runtimes to the SRTF scheduler directly as
  /// in SJF"): runtime of the kernel with id i (mix index) = (*cycles)[i]. nullptr = predict.
  /// `cycles` must outlive the run (SchedOptions::srtf_known_cycles).
  void set_known(const std::vector<uint64_t>* cycles) { known_ = cycles; }
  void take_options(const SchedOptions& opt) override {
    if (!opt.srtf_known_cycles.empty()) set_known(&opt.srtf_known_cycles);
  }

  /// The kernel numbers comb() serves: best (valid if has_best) and the sampled one.
  struct Choice {
    bool has_best = false, has_samp = false;
    uint32_t best = 0, samp = 0;
  };
  Choice choose(const PolicyView& v) const {
    Choice c;
    const uint32_t in_p = v.pending & q.pred_ok, unpred = v.pending & ~q.pred_ok;  // pending: slots below cfg.slots
    for (uint32_t k = 0; k < K; ++k) {  // the registered orders are strict: one first of each set
      if ((in_p >> k & 1u) && (q.ahead[k] & in_p) == 0) {
        c.has_best = true;
        c.best = k;
      }
      if ((unpred >> k & 1u) && (q.older[k] & unpred) == 0) {
        c.has_samp = true;
        c.samp = k;
      }
    }
    return c;
  }

  void comb(const PolicyCfg& cfg, const PolicyView& v, const PolicyEvent&, PolicyOut& out) const override {
    const bool adaptive = cfg.policy == Policy::kSrtfAdaptive;
    const uint32_t in_p = v.pending & q.pred_ok;
    order_keys(false, v, out.key);
    if (adaptive)
      for (uint32_t k = 0; k < out.key.size(); ++k) out.key[k].major = in_p >> k & 1u ? q.ord[k] : K - 1;
    const Choice c = choose(v);
    const uint32_t unpredicted = v.pending & ~q.pred_ok & width_mask(cfg.slots);
    const uint32_t others = c.has_best ? 1u << c.best : unpredicted;
    const uint32_t sample_sm = c.has_best && c.has_samp ? 1u << c.samp : others;
    const bool sharing = q.share && c.has_best;
    for (uint32_t s = 0; s < out.elig.size(); ++s) {
      out.elig[s] = s == kSampleSm ? sample_sm : others;
      if (sharing && !(s == kSampleSm && c.has_samp)) {
        out.elig[s] = in_p;
        if (v.smst->resident(s, c.best) >= cfg.settings.srtf.adaptive_residency) out.elig[s] &= ~(1u << c.best);
      }
    }
  }

  void next(const PolicyCfg& cfg, const PolicyView& v, const PolicyEvent& ev, const PolicyOut&, bool) override {
    d = q;
    const uint32_t in_p = v.pending & q.pred_ok;
    d.share = cfg.policy == Policy::kSrtfAdaptive && (q.unfair & in_p) != 0;
    if (d.share || q.share) {  // what a sharing record names (report()), not a register
      const Choice c = choose(v);
      rec_d_ = Record{d.share, d.share && c.has_best ? 1u << c.best : in_p, cfg.settings.srtf.adaptive_residency};
    }
    sweep(cfg, v, in_p);
    d.last_p = in_p;
    uint32_t cleared = ev.slot_free & width_mask(K);  // a kernel end or a launch: the slot starts afresh
    if (ev.alloc_valid) cleared |= 1u << ev.alloc_slot;
    bool take = false;
    if (known_) {  // zero-sampling: the given runtimes, from the launch on
      d.pred_ok = 0;
      for (uint32_t k = 0; k < cfg.slots; ++k) {
        const KsrtEntry& e = v.ksrt->entry(k);
        if (!e.valid || e.kernel >= known_->size()) continue;
        d.pred_ok |= 1u << k;
        d.rem[k] = std::min((*known_)[e.kernel], kRemMax);
        take = take || d.rem[k] != q.rem[k];
      }
      mul_num.next(false, 0, 0);
      mul_den.next(false, 0, 0);
      div.next(false, 0, 0);
    } else {
      take = datapath(cfg, v, ev, cleared);
    }
    for (uint32_t k = 0; k < K; ++k) {
      if (!(cleared >> k & 1u)) continue;
      d.ord[k] = K - 1;  // the sweep's registers: last in the order, no gap
      d.unfair &= ~(1u << k);
    }
    if (take || cleared != 0 || in_p != q.last_p) d.sw_left = K + 1;
    for (uint32_t k = 0; k < K; ++k) {  // the choice's orders, with the next ord and this cycle's ranks
      d.ahead[k] = d.older[k] = 0;
      for (uint32_t j = 0; j < K; ++j) {
        if (j == k) continue;
        const uint32_t rj = v.aq->q.rank[j], rk = v.aq->q.rank[k];
        if (d.ord[j] < d.ord[k] || (d.ord[j] == d.ord[k] && (rj < rk || (rj == rk && j < k)))) d.ahead[k] |= 1u << j;
        if (rj < rk || (rj == rk && j < k)) d.older[k] |= 1u << j;
      }
    }
  }

  void commit() override {
    // srtf-adaptive's sharing, reported as partitions: "shared" naming the shortest kernel and
    // the CTAs per SM it is held to when sharing starts or the limit moves to another kernel,
    // "alone" naming the kernels when SRTF takes over again (no limit)
    part_started_ = (d.share != q.share || (d.share && rec_d_.slots != rec_q_.slots));
    if (d.share || q.share) rec_q_ = rec_d_;
    q = d;
    div.commit();
    mul_num.commit();
    mul_den.commit();
    thr_mul.commit();
  }

  /// Sharing started, moved to another kernel or ended at the last edge: "shared" with the
  /// kernel held to adaptive_residency CTAs per SM, or "alone" with the kernels SRTF runs.
  void report(PolicyRecordSink& sink) const override {
    if (!part_started_) return;
    using R = spec::PartitionReport;
    PolicyRecord& r = sink.add(R::kKind);
    r.set(R::kMode, rec_q_.share ? R::kModeShared : R::kModeAlone);
    for (uint32_t k = 0; k < K; ++k) {
      if (!(rec_q_.slots >> k & 1u)) continue;
      if (rec_q_.share) r.set(k, R::kCtasPerSm, rec_q_.res);
      else r.cover(k);
    }
  }

  void state(PolicyState& st) const override {
    st.clear();
    spec::pack_srtf_state_t(st, 0, q, mul_num, mul_den, div, thr_mul);
  }

  Regs q;          // registered state
  Regs d;          // next state
  Div div;         // u_div
  MulNum mul_num;  // u_mul_num
  MulDen mul_den;  // u_mul_den
  MulThr thr_mul;  // u_mul_thr

 private:
  /// Chunk c (ArithChunkW bits) of x.
  static uint64_t chunk(uint64_t x, uint32_t c) { return c * kCh >= 64 ? 0 : x >> (c * kCh) & width_mask64(kCh); }

  /// One cycle of the prediction's datapath and the block ends' two stages (RTL: "next state");
  /// returns whether a prediction was taken (the sweep restarts).
  bool datapath(const PolicyCfg& cfg, const PolicyView& v, const PolicyEvent& ev, uint32_t cleared) {
    // ---- pick, products, division, result ----
    const bool idle = !q.pick_run && !q.mul_run && !q.div_run;
    uint32_t pick = K;
    for (uint32_t j = 0; j < K && pick == K; ++j)
      if (q.pend >> ((q.rr + 1 + j) % K) & 1u) pick = (q.rr + 1 + j) % K;
    const uint64_t left = q.op_grid > q.op_done ? q.op_grid - q.op_done : 0;  // counts read at the pick
    const bool div_start = q.mul_run && !mul_num.busy() && !mul_den.busy();
    const bool take = q.div_run && !div.busy();
    mul_num.next(q.pick_run, left, q.t[q.div_k]);
    mul_den.next(q.pick_run, q.res[q.div_k], cfg.num_sms);
    div.next(div_start, mul_num.prod(), mul_den.prod());
    d.tsub_valid = false;
    if (idle) {
      if (pick < K) {
        d.pick_run = true;
        d.div_k = pick;
        d.op_grid = v.ksrt->entry(pick).grid & width_mask(spec::CtaIdW);
        d.op_done = v.ksrt->entry(pick).done & width_mask(spec::CtaIdW);
        d.rr = pick;
        d.pend &= ~(1u << pick);
      }
    } else if (q.pick_run) {  // the multipliers take the operands
      d.pick_run = false;
      d.mul_run = true;
    } else if (div_start) {  // the products are final: the divider takes them
      d.mul_run = false;
      d.div_run = true;
    } else if (take) {  // the quotient is final (saturated by the divider)
      d.div_run = false;
      d.rem[q.div_k] = div.quo();
      d.pred_ok |= 1u << q.div_k;
    }
    // ---- a block end, first stage: Reslice, res, end - start's low ArithChunkW bits ----
    if (ev.ev_valid && ev.ev_type == SmEventType::kCtaFinished) {
      const uint32_t k = ev.ev_slot % K;
      const uint64_t lo = (uint64_t(ev.ev_end_cycle) & width_mask64(kCh)) - (ev.ev_start_cycle & width_mask64(kCh));
      d.tsub_valid = !(cleared >> k & 1u);
      d.tsub_k = k;
      d.tsub_sample = q.reslice >> k & 1u;  // the first block to end in the slice gives t
      d.tsub_lo = lo & width_mask64(kCh);
      d.tsub_borrow = lo >> 63 & 1u;
      d.tsub_end_hi = (ev.ev_end_cycle & kCycleMask) >> kCh;
      d.tsub_start_hi = (ev.ev_start_cycle & kCycleMask) >> kCh;
      d.reslice &= ~(1u << k);
      d.res[k] = v.smst->resident(ev.ev_sm, k);  // registered: the ending block still counts
    }
    // ---- its second stage (after the datapath, so that it wins over the pick): t, pend ----
    if (q.tsub_valid) {
      const uint32_t hi = (q.tsub_end_hi - q.tsub_start_hi - (q.tsub_borrow ? 1 : 0)) & width_mask(spec::SrtfTHiW);
      if (q.tsub_sample) d.t[q.tsub_k] = (hi << kCh | q.tsub_lo) & kCycleMask;
      d.pend |= 1u << q.tsub_k;
    }
    // ---- a launch or a kernel end: a new slice for every running kernel; the slot starts afresh ----
    uint32_t running = 0;
    for (uint32_t k = 0; k < cfg.slots; ++k)
      if (v.ksrt->entry(k).valid) running |= 1u << k;
    if (ev.alloc_valid) d.reslice |= running | 1u << ev.alloc_slot;  // a launch starts a slice for every running kernel
    if (ev.slot_free) d.reslice |= running & ~ev.slot_free;          // so does a kernel end
    for (uint32_t k = 0; k < K; ++k) {
      if (!(cleared >> k & 1u)) continue;
      d.pred_ok &= ~(1u << k);
      d.pend &= ~(1u << k);
      d.t[k] = 0;
      d.res[k] = 0;
      d.rem[k] = 0;
      if (!(ev.alloc_valid && ev.alloc_slot == k)) d.reslice &= ~(1u << k);
      if (d.div_k == k) d.pick_run = d.mul_run = d.div_run = false;  // its work is dropped
    }
    return take;
  }

  /// One cycle of the order sweep (RTL: "the order sweep"); d holds q's values on entry.
  void sweep(const PolicyCfg& cfg, const PolicyView& v, uint32_t in_p) {
    const bool run = q.sw_left != 0;
    const uint32_t j = (q.sw_step - 1) & width_mask(spec::SlotW);  // the RTL's SlotW-bit rd_j
    const uint64_t rem_j = j < K ? q.rem[j] : 0;                   // its AND-OR reads
    const uint32_t rank_j = j < K ? v.aq->q.rank[j] : 0;
    thr_mul.next(run && q.sw_step == 0, cfg.settings.srtf.adaptive_threshold, q.rem[q.sw_k]);
    if (!run) return;
    d.sw_step = (q.sw_step + 1) & width_mask(spec::SrtfStepW);
    // read kernel j (steps 1..K): chunk compares against cur_rem
    d.rd_in = q.sw_step >= 1 && q.sw_step <= K && j != q.sw_k && (in_p >> j & 1u);
    d.rd_rank_lt = rank_j < q.cur_rank;
    d.rd_rem = rem_j;
    d.rd_lt = d.rd_eq = 0;
    for (uint32_t c = 0; c < spec::SrtfCmpChunks; ++c) {
      d.rd_lt |= uint32_t(chunk(rem_j, c) < chunk(q.cur_rem, c)) << c;
      d.rd_eq |= uint32_t(chunk(rem_j, c) == chunk(q.cur_rem, c)) << c;
    }
    // add the kernel read in the step before: the top chunk decides first, the rank last
    bool lt = q.rd_rank_lt;
    for (uint32_t c = 0; c < spec::SrtfCmpChunks; ++c) lt = (q.rd_lt >> c & 1u) || ((q.rd_eq >> c & 1u) && lt);
    const bool ahead = q.rd_in && lt;
    d.acc_cnt = (q.acc_cnt + (ahead ? 1 : 0)) & width_mask(spec::SlotW);
    const uint64_t y = ahead ? q.rd_rem : 0;
    d.acc_sum = 0;
    d.acc_cy = 0;
    for (uint32_t c = 0; c < spec::SrtfSumChunks; ++c) {  // carries into the next chunk, a step later
      const uint64_t s = chunk(q.acc_sum, c) + chunk(y, c) + (c > 0 ? (q.acc_cy >> (c - 1) & 1u) : 0);
      d.acc_sum |= (s & width_mask64(kCh)) << (c * kCh);
      if (c + 1 < spec::SrtfSumChunks) d.acc_cy |= uint32_t(s >> kCh & 1u) << c;
    }
    d.acc_sum &= width_mask64(spec::SrtfSumW);
    if (q.sw_step == kLast - 1) {  // the gap test's sides, chunk by chunk
      const uint64_t l = q.acc_sum << kThrFracW, r = thr_mul.prod();
      d.gap_gt = d.gap_eq = 0;
      for (uint32_t c = 0; c < spec::SaGapChunks; ++c) {
        d.gap_gt |= uint32_t(chunk(l, c) > chunk(r, c)) << c;
        d.gap_eq |= uint32_t(chunk(l, c) == chunk(r, c)) << c;
      }
    }
    if (q.sw_step == 0) {  // load the visited kernel; its threshold product starts
      d.cur_rem = q.rem[q.sw_k];
      d.cur_rank = v.aq->q.rank[q.sw_k];
      d.acc_cnt = 0;
      d.acc_sum = 0;
      d.acc_cy = 0;
    } else if (q.sw_step == kLast) {  // write its place and gap test, visit the next
      bool gt = false;
      for (uint32_t c = 0; c < spec::SaGapChunks; ++c) gt = (q.gap_gt >> c & 1u) || ((q.gap_eq >> c & 1u) && gt);
      const bool in = in_p >> q.sw_k & 1u;
      d.ord[q.sw_k] = in ? q.acc_cnt : K - 1;
      d.unfair = (q.unfair & ~(1u << q.sw_k)) | (in && gt ? 1u << q.sw_k : 0u);
      d.sw_k = q.sw_k == K - 1 ? 0 : q.sw_k + 1;
      d.sw_step = 0;
      d.sw_left = q.sw_left - 1;
    }
  }

  const std::vector<uint64_t>* known_ = nullptr;
  struct Record {
    bool share = false;
    uint32_t slots = 0, res = 0;  // sharing: best and its limit; SRTF again: the predicted kernels
  };
  Record rec_q_, rec_d_;
  bool part_started_ = false;
};

}  // namespace gs::golden
