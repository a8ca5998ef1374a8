// gsched golden twin of rtl/policy/gs_policy_srtf.sv: SRTF (Pai et al., PACT 2014, Sec. 5.1.1)
// with a kernel-level Simple Slicing prediction of each kernel's remaining time. Same registers,
// the same round-robin use of the one divider (SeqDiv, gs_seq_div) and the same integer arithmetic as the RTL; the
// reading of the paper is in docs/rtl/gs_policy_srtf.md.
//
// Per cycle (comb): P = kernels with a prediction and CTAs to issue, U = kernels with CTAs to
// issue and no prediction yet. best = the kernel of P with the least predicted remaining time
// (ties: older). SM 0, the sampling SM, serves the oldest kernel of U while P and U are both
// non-empty (the sampling delay is the time its resident blocks take to leave), else best;
// every other SM serves best. With P empty every SM serves U in arrival order (a kernel is
// predicted at its first block end). No preemption, no quotas: running blocks finish (the
// hand-off delay).
// Per block end (next): t <- end - start of the block if Reslice (then cleared); res <- the
// kernel's resident blocks on that SM, the ending one included; the slot waits for the
// divider: rem = (grid - done) * t / (res * num_sms), done read from the KSRT when the division
// starts, saturated at 2**SrtfPredW - 1. A launch or a kernel end sets Reslice for every
// running kernel (Sec. 4); a launch clears its slot, and a launch or end drops the slot's
// pending or running division.
// SRTF/Adaptive (cfg.policy == kSrtfAdaptive, Sec. 5.1.2): kernel i of P in SRTF order would
// finish after S_i = the sum of rem over P up to i (slowdown S_i / rem_i, the smallest 1);
// some (S_i - rem_i) * 2**SaThrFracW > adaptive_threshold * rem_i makes `share` set in the next cycle.
// While share, the SMs other than a sampling SM 0 may issue every kernel of P, best held to
// adaptive_residency CTAs per SM, and the SM driver's key is {position in the SRTF order, rank}.
// Zero-sampling (Sec. 6.2.2, golden only, set_known()): every kernel's runtime is given, so a
// kernel in the KSRT has rem = its given runtime from its launch on, nothing is sampled and
// block ends change nothing (the divider never runs). gs_top has no port for it.
#pragma once
#include <vector>
#include <array>

#include "sched/golden/gs_policy.hpp"
#include "sched/golden/gs_seq_div.hpp"

namespace gs::golden {

class PolicySrtf final : public PolicyTwin {
 public:
  static constexpr uint32_t K = spec::MaxKernels;
  static constexpr uint32_t D = spec::SrtfDivW;
  static constexpr uint32_t kSampleSm = 0;  // Sec. 5.1.1: "we sample B on a single SM (here, SM0)"
  static constexpr uint64_t kRemMax = width_mask64(spec::SrtfPredW);
  static constexpr uint32_t kCycleMask = width_mask(spec::CycleW);
  static constexpr uint32_t kDenMask = width_mask(spec::SrtfDenW);

  static constexpr uint32_t kThrFracW = spec::SaThrFracW;
  static constexpr uint32_t kPartShared = 0, kPartAlone = 2;  // PartitionRecord::Mode (scheduler_port.hpp)
  static_assert(kPartShared == PartitionRecord::kShared && kPartAlone == PartitionRecord::kAlone,
                "srtf-adaptive's sharing records use PartitionRecord's modes");

  struct Regs {
    uint32_t pred_ok = 0, reslice = 0, pend = 0;  // bit masks over slots
    bool share = false;                           // srtf-adaptive: sharing mode
    std::array<uint32_t, K> t{};
    std::array<uint32_t, K> res{};
    std::array<uint64_t, K> rem{};
    uint32_t rr = K - 1;  // the first pick scans from slot 0
    uint32_t div_k = 0;
    bool op_valid = false, div_run = false;  // operands registered (the divider starts); it works for div_k
    uint64_t op_num = 0;
    uint32_t op_den = 0;
  };
  using Div = SeqDiv<spec::SrtfDivW, spec::SrtfDenW, spec::SrtfPredW>;

  void reset(const PolicyCfg&) override {
    q = d = Regs{};
    div.reset();
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
    const uint32_t work = v.pending;  // bits of slots below cfg.slots only
    for (uint32_t k = 0; k < K; ++k) {
      if (!(work >> k & 1u)) continue;
      const uint32_t rank = v.aq->q.rank[k];
      if (q.pred_ok >> k & 1u) {
        if (!c.has_best || q.rem[k] < q.rem[c.best] || (q.rem[k] == q.rem[c.best] && rank < v.aq->q.rank[c.best])) {
          c.has_best = true;
          c.best = k;
        }
      } else if (!c.has_samp || rank < v.aq->q.rank[c.samp]) {
        c.has_samp = true;
        c.samp = k;
      }
    }
    return c;
  }

  /// A kernel's place in the SRTF order of P (0 = best) and whether that order is unfair
  /// (Sec. 5.1.2); RTL: the `adaptive` block, evaluated only for srtf-adaptive.
  struct Order {
    std::array<uint32_t, K> pos{};  // K - 1 outside P
    bool unfair = false;
  };
  Order srtf_order(const PolicyCfg& cfg, const PolicyView& v) const {
    Order o;
    o.pos.fill(K - 1);
    const uint32_t p = v.pending & q.pred_ok;
    for (uint32_t i = 0; i < K; ++i) {
      if (!(p >> i & 1u)) continue;
      uint32_t n = 0;
      uint64_t sum_before = 0;  // < MaxKernels * 2**SrtfPredW
      for (uint32_t j = 0; j < K; ++j) {
        if (j == i || !(p >> j & 1u)) continue;
        if (q.rem[j] < q.rem[i] || (q.rem[j] == q.rem[i] && v.aq->q.rank[j] < v.aq->q.rank[i])) {
          ++n;
          sum_before += q.rem[j];
        }
      }
      o.pos[i] = n;
      // both sides < 2**60 (static_assert below)
      if ((sum_before << kThrFracW) > uint64_t(cfg.settings.srtf.adaptive_threshold) * q.rem[i]) o.unfair = true;
    }
    return o;
  }
  static_assert(spec::SrtfPredW + spec::SlotW + spec::SaThrFracW <= 64 && spec::SrtfPredW + spec::SaThrW <= 64,
                "the gap test of srtf_order() needs wider integers");

  void comb(const PolicyCfg& cfg, const PolicyView& v, const PolicyEvent&, PolicyOut& out) const override {
    const bool adaptive = cfg.policy == Policy::kSrtfAdaptive;
    order_keys(false, v, out.key);
    if (adaptive) {
      const Order o = srtf_order(cfg, v);
      for (uint32_t k = 0; k < out.key.size(); ++k) out.key[k].major = o.pos[k];
    }
    const Choice c = choose(v);
    const uint32_t unpredicted = v.pending & ~q.pred_ok & width_mask(cfg.slots);
    const uint32_t others = c.has_best ? 1u << c.best : unpredicted;
    const uint32_t sample_sm = c.has_best && c.has_samp ? 1u << c.samp : others;
    const bool sharing = q.share && c.has_best;
    for (uint32_t s = 0; s < out.elig.size(); ++s) {
      out.elig[s] = s == kSampleSm ? sample_sm : others;
      if (sharing && !(s == kSampleSm && c.has_samp)) {
        out.elig[s] = v.pending & q.pred_ok;
        if (v.smst->resident(s, c.best) >= cfg.settings.srtf.adaptive_residency) out.elig[s] &= ~(1u << c.best);
      }
    }
  }

  void next(const PolicyCfg& cfg, const PolicyView& v, const PolicyEvent& ev, const PolicyOut&, bool) override {
    d = q;
    d.share = cfg.policy == Policy::kSrtfAdaptive && srtf_order(cfg, v).unfair;
    if (d.share || q.share) {  // what a sharing record names (partition_started), not a register
      const Choice c = choose(v);
      rec_d_ = Record{d.share, d.share && c.has_best ? 1u << c.best : v.pending & q.pred_ok,
                      cfg.settings.srtf.adaptive_residency};
    }
    if (known_) {  // zero-sampling: the given runtimes, from the launch on
      d.pred_ok = 0;
      for (uint32_t k = 0; k < cfg.slots; ++k) {
        const KsrtEntry& e = v.ksrt->entry(k);
        if (!e.valid || e.kernel >= known_->size()) continue;
        d.pred_ok |= 1u << k;
        d.rem[k] = std::min((*known_)[e.kernel], kRemMax);
      }
      return;
    }
    // ---- the divider: register the next pending slot's operands after rr, start, take the result ----
    div.next(q.op_valid, q.op_num, q.op_den);
    d.op_valid = false;
    d.div_run = q.div_run || q.op_valid;
    if (!q.op_valid && !q.div_run) {
      for (uint32_t j = 0; j < K; ++j) {
        const uint32_t k = (q.rr + 1 + j) % K;
        if (!(q.pend >> k & 1u)) continue;
        const KsrtEntry& e = v.ksrt->entry(k);
        const uint64_t left = e.grid > e.done ? e.grid - e.done : 0;
        d.op_valid = true;
        d.div_k = k;
        d.rr = k;
        d.pend &= ~(1u << k);
        d.op_num = (left * q.t[k]) & width_mask64(D);
        d.op_den = (q.res[k] * cfg.num_sms) & kDenMask;
        break;
      }
    } else if (q.div_run && !div.busy()) {  // the quotient is final (saturated by the divider)
      d.div_run = false;
      d.rem[q.div_k] = div.quo();
      d.pred_ok |= 1u << q.div_k;
    }
    // ---- this cycle's events, after the divider so that they win over its write ----
    if (ev.ev_valid && ev.ev_type == SmEventType::kCtaFinished) {
      const uint32_t k = ev.ev_slot % K;
      const uint32_t bit = 1u << k;
      if (q.reslice & bit) {  // the first block to end in the slice gives t
        d.t[k] = (ev.ev_end_cycle - ev.ev_start_cycle) & kCycleMask;
        d.reslice &= ~bit;
      }
      d.res[k] = v.smst->resident(ev.ev_sm, k);  // registered: the ending block still counts
      d.pend |= bit;
    }
    uint32_t running = 0;
    for (uint32_t k = 0; k < cfg.slots; ++k)
      if (v.ksrt->entry(k).valid) running |= 1u << k;
    uint32_t cleared = ev.slot_free & width_mask(K);
    if (ev.alloc_valid) {
      cleared |= 1u << ev.alloc_slot;
      d.reslice |= running | 1u << ev.alloc_slot;  // a launch starts a slice for every running kernel
    }
    if (ev.slot_free) d.reslice |= running & ~ev.slot_free;  // so does a kernel end
    for (uint32_t k = 0; k < K; ++k) {
      if (!(cleared >> k & 1u)) continue;
      d.pred_ok &= ~(1u << k);
      d.pend &= ~(1u << k);
      d.t[k] = 0;
      d.res[k] = 0;
      d.rem[k] = 0;
      if (!(ev.alloc_valid && ev.alloc_slot == k)) d.reslice &= ~(1u << k);
      if (d.div_k == k) d.op_valid = d.div_run = false;  // its division is dropped
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
  }

  bool partition_started(uint32_t& slots, uint32_t& mode, std::array<uint32_t, 32>& ctas) const override {
    if (!part_started_) return false;
    slots = rec_q_.slots;
    mode = rec_q_.share ? kPartShared : kPartAlone;
    ctas.fill(0);
    for (uint32_t k = 0; k < K; ++k)
      if (rec_q_.share && (slots >> k & 1u)) ctas[k] = rec_q_.res;
    return true;
  }

  void state(PolicyState& st) const override {  // srtf_state_t
    namespace L = spec::layout::srtf_state_t;
    st.clear();
    st.put(L::pred_ok_lsb, L::pred_ok_width, q.pred_ok);
    st.put(L::reslice_lsb, L::reslice_width, q.reslice);
    st.put(L::pend_lsb, L::pend_width, q.pend);
    st.put(L::share_lsb, L::share_width, q.share);
    for (uint32_t k = 0; k < K; ++k) {
      st.put(L::t_lsb + k * spec::CycleW, spec::CycleW, q.t[k]);
      st.put(L::res_lsb + k * spec::CtaCntW, spec::CtaCntW, q.res[k]);
      st.put(L::rem_lsb + k * spec::SrtfPredW, spec::SrtfPredW, q.rem[k]);
    }
    st.put(L::rr_lsb, L::rr_width, q.rr);
    st.put(L::div_k_lsb, L::div_k_width, q.div_k);
    st.put(L::op_valid_lsb, L::op_valid_width, q.op_valid);
    st.put(L::div_run_lsb, L::div_run_width, q.div_run);
    st.put(L::op_num_lsb, L::op_num_width, q.op_num);
    st.put(L::op_den_lsb, L::op_den_width, q.op_den);
    static_assert(L::div_width == Div::kStateW, "srtf_div_state_t is gs_seq_div's state_o");
    div.state(st, L::div_lsb);
  }

  Regs q;   // registered state
  Regs d;   // next state
  Div div;  // u_div

 private:
  const std::vector<uint64_t>* known_ = nullptr;
  struct Record {
    bool share = false;
    uint32_t slots = 0, res = 0;  // sharing: best and its limit; SRTF again: the predicted kernels
  };
  Record rec_q_, rec_d_;
  bool part_started_ = false;
};

}  // namespace gs::golden
