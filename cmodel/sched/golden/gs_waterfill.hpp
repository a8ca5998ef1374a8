// gsched golden twin of rtl/policy/gs_waterfill.sv (Warped-Slicer's water-filling partition,
// Sec. IV, Algorithm 1) and of rtl/policy/gs_wf_scale.sv (its scaling factor, Eq. 3 and 4).
//
// WaterfillTwin has gs_waterfill's registers, state machine and integer arithmetic: IDLE takes
// the start (every kernel present gets 1 CTA, R_L = R_tot), INIT subtracts one kernel's R_i per
// cycle, SCAN marks one sample j of every kernel per cycle as a step when it is a strict running
// maximum, each FILL iteration of Algorithm 1's while loop visits the kernels one per cycle
// (a cross-product compare on two shift-add multipliers per candidate after the first), then
// tries R_S dT times against R_L; the loss check visits the kernels on the same multipliers;
// done is high the cycle after the last visit. run_waterfill() clocks it from a start to done and counts the cycles.
// waterfill_reference() is Algorithm 1 read straight (vectors Q_i, M_i, no timing): the twin's
// step bits and peaks are its storage-saving form, and a unit test holds the two equal.
// The pinned reading of the pseudo-code: docs/rtl/gs_waterfill.md.
#pragma once
#include <array>
#include <cstdint>

#include <algorithm>

#include "sched/golden/golden_types.hpp"
#include "sched/golden/gs_seq_mul.hpp"

namespace gs::golden {

static_assert(spec::WfMaxSteps <= 64, "step bits of one kernel are held in a uint64_t");

/// One kernel of a water-filling run; nsteps = 0: no kernel in this slot.
struct WfKernel {
  WfRes cta;                                      // R_i: what one CTA takes
  uint32_t nsteps = 0;                            // N_i: P(i,1..N_i) are valid
  std::array<uint32_t, spec::WfMaxSteps> perf{};  // perf[j-1] = P(i,j)
};
/// The unit's inputs, as on gs_waterfill's ports.
struct WfInputs {
  WfRes avail;  // R_tot
  std::array<WfKernel, spec::WfMaxKernels> k{};
};
/// What the unit reports: T_i, the fallback, and cycles from the start cycle to done_o.
struct WfResult {
  std::array<uint32_t, spec::WfMaxKernels> ctas{};
  bool spatial = false;
  uint32_t cycles = 0;
};

class WaterfillTwin {
 public:
  static constexpr uint32_t K = spec::WfMaxKernels;
  static constexpr uint32_t N = spec::WfMaxSteps;
  static constexpr uint32_t PW = spec::WfPerfW;
  static constexpr uint32_t SW = spec::WfStepW;
  static constexpr uint32_t CH = spec::WfCmpChunks, AC = spec::ArithChunkW;
  static_assert(2 * PW <= 64, "a cross product is held in a uint64_t");
  static_assert(100u * K < (1u << PW) && spec::WfLossPct < (1u << PW), "the loss check's multipliers fit WfPerfW");
  /// The latency bound, start cycle to done_o (docs/rtl/gs_waterfill.md): the start, INIT K, SCAN N + 1,
  /// at most K*N iterations plus the last one, each K visits, a candidate after the first one
  /// WfPerfW + 2 more cycles, TRY dT (at most 2 K (N-1) over a run) and COMMIT 1; the loss
  /// check K visits, WfPerfW + 3 more per kernel present; done_o the cycle after.
  static constexpr uint32_t kMaxCycles = 2 + 2 * K + N + K * (K * N + 1) + K * N * ((K - 1) * (PW + 2) + 1) +
                                         2 * K * (N - 1) + K * (PW + 3);
  using St = WfSt;  // gs_pkg::wf_st_e, from the spec
  struct Regs {
    St st = St::kIdle;               // st_q
    uint32_t j = 0;                  // j_q
    std::array<uint64_t, K> step{};  // step_q: bit j-1 of kernel i <-> j is in M_i
    std::array<uint32_t, K> peak{};  // peak_q
    std::array<uint32_t, K> ctas{};  // ctas_q (T_i)
    uint32_t full = 0;               // full_q
    WfRes left;                      // left_q (R_L)
    bool nofit = false;              // nofit_q
    bool spatial = false;            // spatial_q
    bool done = false;               // done_q
    uint32_t ki = 0;                 // ki_q: the kernel visited
    uint32_t cnt = 0;                // cnt_q
    uint32_t pres = 0;               // pres_q: kernels present
    std::array<uint32_t, K> nst{};   // nst_q: N_i as taken at the start (SCAN's bound)
    std::array<uint32_t, K> smp{};   // smp_q: SCAN's loaded samples
    bool found = false;              // found_q
    uint32_t sel = 0;                // sel_q (S)
    uint32_t sel_cur = 0;            // sel_cur_q (Q_S(g_S))
    uint32_t dt = 0;                 // dt_q
    WfRes res;                       // res_q: R_ki (INIT) or R_S (FILL)
    WfRes tl;                        // tl_q: TRY's R_L copy
    bool brw = false;                // brw_q
    bool chk = false;                // chk_q: the loss check's visits
    bool lossy = false;              // lossy_q
    uint32_t ma = 0, na = 0;         // the multiplicands
    uint64_t mp = 0, np = 0;         // the products (multiplier bits below)
    uint32_t lt = 0, eq = 0;         // CMP's chunk flags
  };

  Regs q, d;

  void reset() {
    q = Regs{};
    d = q;
  }
  bool busy() const { return q.st != St::kIdle; }

  /// P(i,T) with T the CTA count (0 reads 0)
  static uint32_t perf_t(const WfKernel& k, uint32_t t) { return t >= 1 && t <= N ? k.perf[t - 1] : 0; }

  /// Next state from this cycle's inputs (the RTL's _d), into d; q untouched.
  void next(const WfInputs& in, bool start) {
    constexpr uint64_t PM = width_mask64(2 * PW);
    const uint32_t ki = q.ki;
    const WfKernel& kk = in.k[ki];
    const uint32_t ctas_k = q.ctas[ki];
    const uint32_t cur_k = perf_t(kk, ctas_k);
    // lowest step at or above T (bit j <-> j+1 CTAs); dT = that count - T
    bool has_next = false;
    uint32_t nxt_idx = 0;
    for (uint32_t j = ctas_k; j < N; ++j) {
      if (q.step[ki] >> j & 1u) {
        has_next = true;
        nxt_idx = j;
        break;
      }
    }
    const uint32_t dt_k = (nxt_idx + 1 - ctas_k) & width_mask(SW);
    uint32_t nk = 0;
    for (uint32_t i = 0; i < K; ++i) nk += q.pres >> i & 1u;
    const bool cand = (q.pres >> ki & 1u) && !(q.full >> ki & 1u) && !q.nofit && has_next;
    // INIT / TRY: (left or tl) - res, every component
    const WfRes& sa = q.st == St::kInit ? q.left : q.tl;
    const WfRes diff = sub(sa, q.res);
    const bool borrow = !fits(q.res, sa);
    // the chunk flags combined: mp < np, mp == np
    bool less = false, equal = true;
    for (uint32_t c = 0; c < CH; ++c) {
      less = (q.lt >> c & 1u) || ((q.eq >> c & 1u) && less);
      equal = equal && (q.eq >> c & 1u);
    }

    d = q;
    d.done = false;
    bool adv = false, win = false;
    switch (q.st) {
      case St::kIdle:
        if (start) {
          d.st = St::kInit;
          d.j = 0;
          d.ki = 0;
          d.step.fill(0);
          d.peak.fill(0);
          d.full = 0;
          d.pres = 0;
          for (uint32_t i = 0; i < K; ++i) {
            const bool present = (in.k[i].nsteps & width_mask(SW)) != 0;
            d.pres |= uint32_t(present) << i;
            d.nst[i] = in.k[i].nsteps & width_mask(SW);
            d.ctas[i] = present ? 1 : 0;
          }
          d.left = in.avail;
          d.res = (d.pres & 1u) ? in.k[0].cta : WfRes{};
          d.nofit = false;
          d.lossy = false;
          d.spatial = false;
        }
        break;
      case St::kInit:
        d.left = diff;
        d.nofit = q.nofit || borrow;
        d.res = (ki + 1 < K && (q.pres >> (ki + 1) & 1u)) ? in.k[ki + 1].cta : WfRes{};
        d.ki = ki + 1;
        if (ki == K - 1) {
          d.ki = 0;
          d.st = St::kScan;
        }
        break;
      case St::kScan:
        if (q.j == 0 && q.nofit) d.left = WfRes{};
        for (uint32_t i = 0; i < K; ++i) {
          const uint32_t p = q.smp[i];
          if (q.j != 0 && q.j <= q.nst[i] && (q.j == 1 || p > q.peak[i])) {
            d.step[i] |= uint64_t(1) << (q.j - 1);
            d.peak[i] = p;
          }
          if (q.j < N) d.smp[i] = q.j < q.nst[i] ? in.k[i].perf[q.j] : 0;
        }
        d.j = (q.j + 1) & width_mask(SW);
        if (q.j == N) {
          d.st = St::kLoad;
          d.ki = 0;
          d.found = false;
          d.chk = false;
        }
        break;
      case St::kLoad:
        if (!q.chk) {
          if (!cand) {
            adv = true;
          } else if (!q.found) {
            win = true;
            adv = true;
          } else {
            d.ma = cur_k;
            d.mp = q.peak[q.sel];
            d.na = q.sel_cur;
            d.np = q.peak[ki];
            d.cnt = PW;
            d.st = St::kMul;
          }
        } else if (!(q.pres >> ki & 1u)) {
          adv = true;
        } else {
          d.ma = q.peak[ki];
          d.na = cur_k;
          d.st = St::kGap;
        }
        break;
      case St::kGap:
        d.na = (q.ma - q.na) & width_mask(PW);
        d.mp = spec::WfLossPct;
        d.np = uint64_t(nk) * 100;
        d.cnt = PW;
        d.st = St::kMul;
        break;
      case St::kMul: {
        const uint64_t sm = (q.mp >> PW) + ((q.mp & 1u) ? q.ma : 0);
        const uint64_t sn = (q.np >> PW) + ((q.np & 1u) ? q.na : 0);
        d.mp = ((sm << PW | (q.mp & width_mask64(PW))) >> 1) & PM;
        d.np = ((sn << PW | (q.np & width_mask64(PW))) >> 1) & PM;
        d.cnt = (q.cnt - 1) & width_mask(spec::WfCntW);
        if (q.cnt == 1) d.st = St::kCmp;
        break;
      }
      case St::kCmp:
        d.lt = 0;
        d.eq = 0;
        for (uint32_t c = 0; c < CH; ++c) {
          const uint64_t a = c * AC < 64 ? (q.mp >> (c * AC)) & width_mask64(AC) : 0;
          const uint64_t b = c * AC < 64 ? (q.np >> (c * AC)) & width_mask64(AC) : 0;
          d.lt |= uint32_t(a < b) << c;
          d.eq |= uint32_t(a == b) << c;
        }
        d.st = St::kDec;
        break;
      case St::kDec:
        adv = true;
        if (!q.chk) win = less;          // strictly lower normalized performance: ties keep the lower index
        else d.lossy = q.lossy || less;  // 100 * K * gap > WfLossPct * peak
        break;
      case St::kTry:
        d.tl = diff;
        d.brw = q.brw || borrow;
        d.cnt = (q.cnt + 1) & width_mask(spec::WfCntW);
        if (((q.cnt + 1) & width_mask(spec::WfCntW)) == q.dt) d.st = St::kCommit;
        break;
      case St::kCommit:
        if (!q.brw) {
          d.ctas[q.sel] = (q.ctas[q.sel] + q.dt) & width_mask(SW);
          d.left = q.tl;
        } else {
          d.full |= 1u << q.sel;
        }
        d.st = St::kLoad;
        d.ki = 0;
        d.found = false;
        break;
    }
    if (win) {
      d.found = true;
      d.sel = ki;
      d.sel_cur = q.st == St::kLoad ? cur_k : q.ma;
      d.dt = dt_k;
      d.res = kk.cta;
    }
    // TRY's copy of R_L, taken in every cycle that may end a pick
    if ((q.st == St::kLoad || q.st == St::kDec) && !q.chk && ki == K - 1) {
      d.tl = q.left;
      d.brw = false;
    }
    if (adv) {
      d.ki = ki + 1;
      d.st = St::kLoad;
      if (ki == K - 1) {
        d.ki = 0;
        if (!q.chk && d.found) {
          d.st = St::kTry;
          d.cnt = 0;
        } else if (!q.chk && !q.nofit) {
          d.chk = true;
        } else {
          d.st = St::kIdle;
          d.spatial = q.nofit || d.lossy;
          d.done = true;
        }
      }
    }
  }
  void commit() { q = d; }

  /// q as gs_waterfill's state_o (wf_state_t) at bit `lsb` of `st` (a policy that holds the
  /// unit reports its registers inside its own state record).
  void state(PolicyState& st, uint32_t lsb) const { spec::pack_wf_state_t(st, lsb, q); }

 private:
  static bool fits(const WfRes& need, const WfRes& have) {
    return need.threads <= have.threads && need.warps <= have.warps && need.regs <= have.regs &&
           need.shmem <= have.shmem && need.slots <= have.slots;
  }
  /// a - b in each field's width (the RTL's modular subtraction)
  static WfRes sub(const WfRes& a, const WfRes& b) {
    return WfRes{(a.threads - b.threads) & width_mask(spec::ThreadW), (a.warps - b.warps) & width_mask(spec::WarpW),
                 (a.regs - b.regs) & width_mask(spec::RegW), (a.shmem - b.shmem) & width_mask(spec::ShmemW),
                 (a.slots - b.slots) & width_mask(spec::CtaCntW)};
  }
};

/// Runs `wf` from a start pulse (cycle 0) until done; cycles = start cycle to done_o.
inline WfResult run_waterfill(WaterfillTwin& wf, const WfInputs& in) {
  WfResult r;
  wf.next(in, true);
  wf.commit();
  r.cycles = 1;
  while (!wf.q.done) {
    wf.next(in, false);
    wf.commit();
    ++r.cycles;
  }
  r.ctas = wf.q.ctas;
  r.spatial = wf.q.spatial;
  return r;
}

/// Algorithm 1 read straight: Q_i / M_i as vectors, the while loop, the loss check. No timing
/// (cycles = 0). The twin must give the same ctas and spatial for every input.
inline WfResult waterfill_reference(const WfInputs& in) {
  constexpr uint32_t K = spec::WfMaxKernels, N = spec::WfMaxSteps;
  WfResult out;
  std::array<std::array<uint32_t, N>, K> Q{}, M{};
  std::array<uint32_t, K> len{}, g{}, peak{};
  std::array<bool, K> full{};
  uint64_t left[5] = {in.avail.threads, in.avail.warps, in.avail.regs, in.avail.shmem, in.avail.slots};
  uint32_t nk = 0;
  bool fit = true;
  for (uint32_t i = 0; i < K; ++i) {
    const uint32_t n = std::min<uint32_t>(in.k[i].nsteps & width_mask(spec::WfStepW), N);
    if (n == 0) continue;
    ++nk;
    for (uint32_t j = 1; j <= n; ++j) {  // strict running maxima; j = 1 always
      const uint32_t p = in.k[i].perf[j - 1];
      if (len[i] == 0 || p > Q[i][len[i] - 1]) {
        Q[i][len[i]] = p;
        M[i][len[i]] = j;
        ++len[i];
      }
    }
    peak[i] = Q[i][len[i] - 1];
    out.ctas[i] = 1;
    const WfRes& r = in.k[i].cta;
    const uint64_t one[5] = {r.threads, r.warps, r.regs, r.shmem, r.slots};
    for (int c = 0; c < 5; ++c) {
      if (left[c] < one[c]) fit = false;
      left[c] -= std::min(left[c], one[c]);
    }
  }
  while (fit) {
    bool find = false;
    uint32_t s = 0;
    for (uint32_t i = 0; i < K; ++i) {
      if (len[i] == 0 || full[i] || g[i] + 1 >= len[i]) continue;
      if (!find || uint64_t(Q[i][g[i]]) * peak[s] < uint64_t(Q[s][g[s]]) * peak[i]) {
        find = true;
        s = i;
      }
    }
    if (!find) break;
    const uint64_t dt = M[s][g[s] + 1] - M[s][g[s]];
    const WfRes& r = in.k[s].cta;
    const uint64_t need[5] = {r.threads * dt, r.warps * dt, r.regs * dt, r.shmem * dt, r.slots * dt};
    bool ok = true;
    for (int c = 0; c < 5; ++c) ok = ok && need[c] <= left[c];
    if (ok) {
      for (int c = 0; c < 5; ++c) left[c] -= need[c];
      ++g[s];
      out.ctas[s] = M[s][g[s]];
    } else {
      full[s] = true;
    }
  }
  out.spatial = !fit;
  for (uint32_t i = 0; i < K; ++i) {
    if (len[i] == 0) continue;
    if (uint64_t(peak[i] - Q[i][g[i]]) * 100 * nk > uint64_t(peak[i]) * spec::WfLossPct) out.spatial = true;
  }
  return out;
}

/// gs_wf_scale's result read straight: Eq. 4's psi and Eq. 3's factor in fixed point, and the
/// scaled performance, from q = CTA_i / CTA_avg in UQ.WfFactorFracW (the exact formulas the
/// sequential unit and its twin WfScaleTwin must give).
struct WfScale {
  uint32_t factor = 0;  // UQ.WfFactorFracW
  uint32_t perf = 0;    // saturated to WfPerfW bits
};
inline WfScale wf_scale_q(uint32_t perf, uint32_t phi, uint64_t q) {
  constexpr uint32_t FF = spec::WfFactorFracW, FP = spec::WfPhiFracW;
  constexpr uint64_t one = uint64_t(1) << FF;
  perf &= width_mask(spec::WfPerfW);
  phi &= width_mask(spec::WfPhiW);
  const uint64_t ph = std::min<uint64_t>(phi, uint64_t(1) << FP);
  WfScale s;
  if (q >= one) s.factor = static_cast<uint32_t>(one + (((q - one) * ph) >> FP));
  else s.factor = static_cast<uint32_t>(one - (((one - q) * ph + (uint64_t(1) << FP) - 1) >> FP));
  const uint64_t scaled = (uint64_t(perf) * s.factor) >> FF;
  s.perf = static_cast<uint32_t>(std::min<uint64_t>(scaled, width_mask(spec::WfPerfW)));
  return s;
}
/// q = floor(cta * 2^(Ff+Fa) / avg), 2^Ff when avg = 0: what the caller divides (CTA_i / CTA_avg).
inline uint64_t wf_scale_quotient(uint32_t cta, uint32_t avg) {
  constexpr uint32_t FF = spec::WfFactorFracW, FA = spec::WfAvgFracW;
  cta &= width_mask(spec::WfStepW);
  avg &= width_mask(spec::WfAvgW);
  return avg == 0 ? uint64_t(1) << FF : (uint64_t(cta) << (FF + FA)) / avg;
}
inline WfScale wf_scale(uint32_t perf, uint32_t phi, uint32_t cta, uint32_t avg) {
  return wf_scale_q(perf, phi, wf_scale_quotient(cta, avg));
}

/// gs_wf_scale's registers, state machine and arithmetic: start loads the operands (a running
/// scaling is abandoned); PSI multiplies phi by |q - 2^Ff| on the SeqMul, then takes the factor
/// from it (the floor, or the ceiling of phi * |psi| when psi < 0); PERF multiplies the factor
/// by the held sample; the result is final in the first cycle busy() is low.
class WfScaleTwin {
 public:
  using St = WfsSt;                                    // gs_pkg::wfs_st_e, from the spec
  using Mul = SeqMul<spec::WfFactorW, spec::WfPerfW>;  // u_mul: a the narrow operand
  static constexpr uint32_t FF = spec::WfFactorFracW, FP = spec::WfPhiFracW, PW = spec::WfPerfW;
  static constexpr uint32_t kStateW = 2 + 1 + PW + spec::WfFactorW + Mul::kStateW;  // wfs_state_t
  struct Regs {
    St st = St::kIdle;
    bool neg = false;     // psi < 0
    uint32_t perf = 0;    // the sample, held for PERF
    uint32_t factor = 0;  // factor_o
  };

  void reset() {
    q = d = Regs{};
    mul.reset();
  }
  bool busy() const { return q.st != St::kIdle; }
  uint32_t factor() const { return q.factor; }
  /// perf_o: the product over 2^Ff, saturated (its bits above WfPerfW + Ff set)
  uint32_t perf() const {
    const uint64_t p = mul.prod();
    return (p >> (PW + FF)) != 0 ? width_mask(PW) : static_cast<uint32_t>((p >> FF) & width_mask(PW));
  }

  /// The next state into d (start_i, perf_i, phi_i, q_i).
  void next(bool start, uint32_t perf_in, uint32_t phi_in, uint32_t q_in) {
    constexpr uint64_t one = uint64_t(1) << FF;
    d = q;
    bool mul_start = false;
    uint64_t a = 0, b = 0;
    if (start) {
      const uint64_t qv = q_in & width_mask(spec::WfFactorW);
      const uint64_t phi = std::min<uint64_t>(phi_in & width_mask(spec::WfPhiW), uint64_t(1) << FP);
      mul_start = true;
      a = phi;
      b = qv >= one ? qv - one : one - qv;
      d.neg = qv < one;
      d.perf = perf_in & width_mask(PW);
      d.st = St::kPsi;
    } else if (q.st == St::kPsi && !mul.busy()) {
      const uint64_t p = mul.prod();
      uint64_t m = (p >> FP) + (q.neg && (p & width_mask64(FP)) != 0 ? 1 : 0);  // psi < 0: the ceiling
      m &= width_mask64(spec::WfFactorW);
      const uint64_t f = (q.neg ? one - m : one + m) & width_mask64(spec::WfFactorW);
      mul_start = true;
      a = f;
      b = q.perf;
      d.factor = static_cast<uint32_t>(f);
      d.st = St::kPerf;
    } else if (q.st == St::kPerf && !mul.busy()) {
      d.st = St::kIdle;
    }
    mul.next(mul_start, a, b);
  }
  void commit() {
    q = d;
    mul.commit();
  }

  /// q as gs_wf_scale's state_o (wfs_state_t) at bit `lsb` of `st`.
  void state(PolicyState& st, uint32_t lsb) const { spec::pack_wfs_state_t(st, lsb, q, mul); }

  Regs q, d;
  Mul mul;
};

}  // namespace gs::golden
