// gsched golden twin of rtl/policy/gs_waterfill.sv (Warped-Slicer's water-filling partition,
// Sec. IV, Algorithm 1) and of rtl/policy/gs_wf_scale.sv (its scaling factor, Eq. 3 and 4).
//
// WaterfillTwin has gs_waterfill's registers, state machine and integer arithmetic: IDLE takes
// the start (every kernel present gets 1 CTA, R_L = R_tot - sum R_i), SCAN marks one sample j of
// every kernel per cycle as a step when it is a strict running maximum, FILL runs one iteration
// of Algorithm 1's while loop per cycle, CHECK decides the spatial fallback; done is high the
// cycle after CHECK. run_waterfill() clocks it from a start to done and counts the cycles.
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
  enum class St : uint8_t { kIdle = 0, kScan = 1, kFill = 2, kCheck = 3 };
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
  };
  /// The combinational values of one cycle (gs_waterfill's always_comb).
  struct Comb {
    uint32_t present = 0, cand = 0;  // bit masks over kernels
    uint32_t nk = 0;                 // kernels present
    std::array<uint32_t, K> cur{};   // Q_i(g_i) = P(i,T_i)
    std::array<uint32_t, K> nxt{};   // M_i(g_i+1)
    bool found = false, take = false, lossy = false;
    uint32_t sel = 0, dt = 0;
    WfRes need;  // R_S * dT
  };

  Regs q, d;

  void reset() {
    q = Regs{};
    d = q;
  }
  bool busy() const { return q.st != St::kIdle; }

  static uint32_t perf_at(const WfKernel& k, uint32_t j0) { return j0 < N ? k.perf[j0] : 0; }

  Comb comb(const WfInputs& in) const {
    Comb c;
    for (uint32_t i = 0; i < K; ++i) {
      const bool present = (in.k[i].nsteps & width_mask(spec::WfStepW)) != 0;
      if (!present) continue;
      c.present |= 1u << i;
      ++c.nk;
      c.cur[i] = perf_at(in.k[i], q.ctas[i] - 1);
      for (uint32_t j = q.ctas[i]; j < N; ++j) {  // lowest step above T_i (bit j <-> j+1 CTAs)
        if (q.step[i] >> j & 1u) {
          c.nxt[i] = j + 1;
          if (!(q.full >> i & 1u) && !q.nofit) c.cand |= 1u << i;
          break;
        }
      }
    }
    // S: lowest cur_i / peak_i, cross-multiplied; ties keep the lower index
    uint64_t sel_cur = 0, sel_peak = 0;
    for (uint32_t i = 0; i < K; ++i) {
      if (!(c.cand >> i & 1u)) continue;
      if (!c.found || uint64_t(c.cur[i]) * sel_peak < sel_cur * uint64_t(q.peak[i])) {
        c.found = true;
        c.sel = i;
        sel_cur = c.cur[i];
        sel_peak = q.peak[i];
      }
    }
    if (c.found) {
      const WfRes& r = in.k[c.sel].cta;
      c.dt = c.nxt[c.sel] - q.ctas[c.sel];
      c.need = WfRes{r.threads * c.dt, r.warps * c.dt, r.regs * c.dt, r.shmem * c.dt, r.slots * c.dt};
      c.take = fits(c.need, q.left);
    }
    // CHECK: some kernel loses more than WfLossPct/100 / K of its peak
    for (uint32_t i = 0; i < K; ++i) {
      if (!(c.present >> i & 1u)) continue;
      const uint64_t gap = q.peak[i] - c.cur[i];
      if (gap * (100ull * c.nk) > uint64_t(q.peak[i]) * spec::WfLossPct) c.lossy = true;
    }
    return c;
  }

  /// Next state from this cycle's inputs (the RTL's _d), into d; q untouched.
  void next(const WfInputs& in, bool start) {
    const Comb c = comb(in);
    d = q;
    d.done = false;
    switch (q.st) {
      case St::kIdle:
        if (start) {
          d.st = St::kScan;
          d.j = 0;
          d.step.fill(0);
          d.peak.fill(0);
          d.full = 0;
          WfRes sum;
          for (uint32_t i = 0; i < K; ++i) {
            const bool present = c.present >> i & 1u;
            d.ctas[i] = present ? 1 : 0;
            if (!present) continue;
            const WfRes& r = in.k[i].cta;
            sum = WfRes{sum.threads + r.threads, sum.warps + r.warps, sum.regs + r.regs, sum.shmem + r.shmem,
                        sum.slots + r.slots};
          }
          d.nofit = !fits(sum, in.avail);
          d.left = d.nofit ? WfRes{} : sub(in.avail, sum);
          d.spatial = false;
        }
        break;
      case St::kScan:
        for (uint32_t i = 0; i < K; ++i) {
          const uint32_t p = perf_at(in.k[i], q.j);
          if (q.j < (in.k[i].nsteps & width_mask(spec::WfStepW)) && (q.j == 0 || p > q.peak[i])) {
            d.step[i] |= uint64_t(1) << q.j;
            d.peak[i] = p;
          }
        }
        d.j = (q.j + 1) & width_mask(spec::WfStepW);
        if (q.j == N - 1) d.st = St::kFill;
        break;
      case St::kFill:
        if (!c.found) {
          d.st = St::kCheck;
        } else if (c.take) {
          d.ctas[c.sel] = q.ctas[c.sel] + c.dt;
          d.left = sub(q.left, c.need);
        } else {
          d.full |= 1u << c.sel;
        }
        break;
      case St::kCheck:
        d.spatial = q.nofit || c.lossy;
        d.done = true;
        d.st = St::kIdle;
        break;
    }
  }
  void commit() { q = d; }

  /// q as gs_waterfill's state_o (wf_state_t) at bit `lsb` of `st` (a policy that holds the
  /// unit reports its registers inside its own state record).
  void state(PolicyState& st, uint32_t lsb) const {
    namespace L = spec::layout::wf_state_t;
    constexpr uint32_t PW = spec::WfPerfW, SW = spec::WfStepW;
    st.put(lsb + L::st_lsb, L::st_width, static_cast<uint32_t>(q.st));
    st.put(lsb + L::j_lsb, L::j_width, q.j);
    for (uint32_t i = 0; i < K; ++i) {
      st.put(lsb + L::step_lsb + i * N, N, q.step[i]);
      st.put(lsb + L::peak_lsb + i * PW, PW, q.peak[i]);
      st.put(lsb + L::ctas_lsb + i * SW, SW, q.ctas[i]);
    }
    st.put(lsb + L::full_lsb, L::full_width, q.full);
    uint32_t at = lsb + L::left_lsb + L::left_width;  // MSB-first fields of R_L
    gs::pack(q.left, [&](uint64_t v, unsigned w) {
      at -= w;
      st.put(at, w, v);
    });
    st.put(lsb + L::nofit_lsb, 1, q.nofit);
    st.put(lsb + L::spatial_lsb, 1, q.spatial);
    st.put(lsb + L::done_lsb, 1, q.done);
  }

 private:
  static bool fits(const WfRes& need, const WfRes& have) {
    return need.threads <= have.threads && need.warps <= have.warps && need.regs <= have.regs &&
           need.shmem <= have.shmem && need.slots <= have.slots;
  }
  static WfRes sub(const WfRes& a, const WfRes& b) {
    return WfRes{a.threads - b.threads, a.warps - b.warps, a.regs - b.regs, a.shmem - b.shmem, a.slots - b.slots};
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
  enum St : uint32_t { kIdle = 0, kPsi = 1, kPerf = 2 };
  using Mul = SeqMul<spec::WfFactorW, spec::WfPerfW>;  // u_mul: a the narrow operand
  static constexpr uint32_t FF = spec::WfFactorFracW, FP = spec::WfPhiFracW, PW = spec::WfPerfW;
  static constexpr uint32_t kStateW = 2 + 1 + PW + spec::WfFactorW + Mul::kStateW;  // wfs_state_t
  struct Regs {
    uint32_t st = kIdle;
    bool neg = false;     // psi < 0
    uint32_t perf = 0;    // the sample, held for PERF
    uint32_t factor = 0;  // factor_o
  };

  void reset() {
    q = d = Regs{};
    mul.reset();
  }
  bool busy() const { return q.st != kIdle; }
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
      d.st = kPsi;
    } else if (q.st == kPsi && !mul.busy()) {
      const uint64_t p = mul.prod();
      uint64_t m = (p >> FP) + (q.neg && (p & width_mask64(FP)) != 0 ? 1 : 0);  // psi < 0: the ceiling
      m &= width_mask64(spec::WfFactorW);
      const uint64_t f = (q.neg ? one - m : one + m) & width_mask64(spec::WfFactorW);
      mul_start = true;
      a = f;
      b = q.perf;
      d.factor = static_cast<uint32_t>(f);
      d.st = kPerf;
    } else if (q.st == kPerf && !mul.busy()) {
      d.st = kIdle;
    }
    mul.next(mul_start, a, b);
  }
  void commit() {
    q = d;
    mul.commit();
  }

  /// q as gs_wf_scale's state_o (wfs_state_t) at bit `lsb` of `st`.
  void state(PolicyState& st, uint32_t lsb) const {
    namespace L = spec::layout::wfs_state_t;
    static_assert(L::mul_width == Mul::kStateW, "wfs_mul_state_t is gs_seq_mul's state_o");
    st.put(lsb + L::st_lsb, L::st_width, q.st);
    st.put(lsb + L::neg_lsb, 1, q.neg);
    st.put(lsb + L::perf_lsb, L::perf_width, q.perf);
    st.put(lsb + L::factor_lsb, L::factor_width, q.factor);
    mul.state(st, lsb + L::mul_lsb);
  }

  Regs q, d;
  Mul mul;
};

}  // namespace gs::golden
