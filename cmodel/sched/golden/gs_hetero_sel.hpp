// gsched golden: twin of rtl/policy/gs_hetero_sel.sv -- HeteroCore's big/small-SM mapping
// decision (Zhao et al., TPDS 2019, Sec. 4.3, Algorithm 2; Sec. 6.4 for four kernels), with
// the RTL's integer arithmetic (docs/rtl/gs_hetero_sel.md). hetero_sel(): the decision's
// integer definition in one call (and the values behind it, for `gsim unit hetero`);
// HeteroSel: the RTL's sequential unit register for register, cycle for cycle, which must
// reach hetero_sel()'s outputs (the block bench checks both).
#pragma once
#include <array>
#include <cstdint>

#include "sched/golden/golden_types.hpp"
#include "sched/golden/gs_seq_mul.hpp"

namespace gs::golden {

constexpr uint32_t kHcKernels = spec::HcMaxKernels;

/// gs_hetero_sel's inputs: kernel c's instructions on its big and small SMs in the window, its
/// CTAs per big, small and conventional SM; the SMs of each type every kernel profiled on.
struct HeteroSelIn {
  uint32_t nk = 0;
  uint32_t sms_big = 0, sms_small = 0;
  std::array<uint64_t, kHcKernels> big_insts{}, small_insts{};
  std::array<uint32_t, kHcKernels> cta_big{}, cta_small{}, cta_base{};
};

/// Its outputs, and the fixed-point values behind them (docs, gsim unit hetero).
struct HeteroSelOut {
  uint32_t thick = 0;                         // thick_o
  uint32_t big = 0;                           // big_o: the kernels mapped on the big SMs
  bool even = false;                          // even_o: every kernel keeps its profiling share of both types
  uint32_t shift = 0;                         // the rates' common right shift
  std::array<uint64_t, kHcKernels> b{}, s{};  // the shifted rates
  std::array<int64_t, kHcKernels> n{}, g{};   // N_c = IPC^base x D_c, G_c = (b - s) D_c
  std::array<uint32_t, kHcKernels> rank{};    // kernels whose gain beats c's
};

inline HeteroSelOut hetero_sel(const HeteroSelIn& in) {
  static_assert(spec::HcRateW <= 64 && spec::HcSigW + spec::CtaCntW + 3 <= 31, "the twin's integers hold the RTL's");
  constexpr uint32_t K = kHcKernels;
  const uint64_t inst_mask = width_mask64(spec::HcInstW), rate_mask = width_mask64(spec::HcRateW);
  const uint32_t cta_mask = width_mask(spec::CtaCntW), sm_mask = width_mask(spec::SmIdW);
  const uint32_t nk = in.nk & width_mask(spec::HcKW);
  HeteroSelOut o;
  std::array<uint64_t, K> rb{}, rs{};
  uint64_t any = 0;
  for (uint32_t c = 0; c < K; ++c) {
    rb[c] = ((in.big_insts[c] & inst_mask) * (in.sms_small & sm_mask)) & rate_mask;
    rs[c] = ((in.small_insts[c] & inst_mask) * (in.sms_big & sm_mask)) & rate_mask;
    if (c < nk) {
      if (rb[c] > rs[c]) o.thick |= 1u << c;
      any |= rb[c] | rs[c];
    }
  }
  uint32_t len = 0;
  for (uint32_t i = 0; i < spec::HcRateW; ++i)
    if (any >> i & 1) len = i + 1;
  o.shift = len > spec::HcSigW ? len - spec::HcSigW : 0;
  const uint64_t sig_mask = width_mask64(spec::HcSigW);
  for (uint32_t c = 0; c < K; ++c) {
    const int64_t b = int64_t((rb[c] >> o.shift) & sig_mask), s = int64_t((rs[c] >> o.shift) & sig_mask);
    o.b[c] = uint64_t(b);
    o.s[c] = uint64_t(s);
    const int64_t dlt = b - s;
    int64_t dcta = int64_t(in.cta_big[c] & cta_mask) - int64_t(in.cta_small[c] & cta_mask);
    const int64_t dbase = int64_t(in.cta_base[c] & cta_mask) - int64_t(in.cta_small[c] & cta_mask);
    int64_t n = 0;
    if (dcta <= 0) {  // IPC_scaled undefined: IPC^base = b, D = 1
      n = b;
      dcta = 1;
    } else {
      n = dbase * dlt + s * dcta;
    }
    o.n[c] = n < 1 ? 1 : n;
    o.g[c] = dlt * dcta;
  }
  for (uint32_t i = 0; i < K; ++i)
    for (uint32_t j = i + 1; j < K; ++j) {
      if (i >= nk || j >= nk) continue;
      const int64_t p_ij = o.g[i] * o.n[j], p_ji = o.g[j] * o.n[i];  // |p| < 2**(2 HcSigW + 2 CtaCntW + 4)
      if (p_ji >= p_ij) ++o.rank[i];  // the later kernel wins a tie (Algorithm 2's else branch)
      else ++o.rank[j];
    }
  const uint32_t in_set = (1u << nk) - 1;
  o.even = nk < 2 || o.thick == in_set;
  if (!o.even)
    for (uint32_t c = 0; c < nk; ++c)
      if (o.rank[c] < nk / 2) o.big |= 1u << c;
  return o;
}

/// gs_hetero_sel's sequential unit: one gs_seq_mul, the state machine of the RTL (the states'
/// numbers are hc_sel_state_t's st). next(start, in) computes d from q and the inputs;
/// commit() is the edge.
class HeteroSel {
 public:
  using St = HcSelSt;  // gs_pkg::hc_sel_st_e, from the spec
  static constexpr uint32_t K = kHcKernels;
  static constexpr uint32_t CH = spec::ArithChunkW, NC = spec::HcCmpChunks;
  using Mul = SeqMul<spec::HcGW, spec::HcMulBW>;
  struct Regs {
    St st = St::kIdle;
    uint32_t nk = 0, i = 0, j = 0;
    std::array<uint64_t, K> rb{}, rs{};
    uint32_t thick = 0, gt = 0, eq = 0, sh = 0;
    uint32_t b = 0, s = 0, dlt = 0, dcta = 0, dbase = 0, p1 = 0;
    bool dlt_neg = false, flat = false, dbase_neg = false;
    std::array<uint32_t, K> n{}, g{}, rank{};
    uint32_t g_neg = 0;
    uint64_t x = 0;
    uint32_t big = 0;
    bool even = false;
  };

  void reset() {
    q = d = Regs{};
    mul.reset();
  }
  bool busy() const { return q.st != St::kIdle; }
  uint32_t thick() const { return q.thick; }
  uint32_t big() const { return q.big; }
  bool even() const { return q.even; }

  void next(bool start, const HeteroSelIn& in) {
    const uint32_t nk_in = in.nk & width_mask(spec::HcKW), nk = q.nk;  // nk_i, and as taken at the start
    const uint32_t in_set = (1u << nk) - 1;
    const uint64_t prod = mul.q.prod;
    const bool mul_busy = mul.busy();
    const uint32_t ki = start ? 0 : q.st == St::kThick ? q.i + 1 : q.i;  // the input kernel read
    const uint64_t big_k = ki < K ? in.big_insts[ki] & width_mask64(spec::HcInstW) : 0;
    const uint64_t small_k = ki < K ? in.small_insts[ki] & width_mask64(spec::HcInstW) : 0;
    const uint32_t cta_mask = width_mask(spec::CtaCntW);
    const uint32_t ctab = ki < K ? in.cta_big[ki] & cta_mask : 0, ctas = ki < K ? in.cta_small[ki] & cta_mask : 0,
                   ctao = ki < K ? in.cta_base[ki] & cta_mask : 0;
    const uint32_t sms_big = in.sms_big & width_mask(spec::SmIdW), sms_small = in.sms_small & width_mask(spec::SmIdW);
    bool mstart = false;
    uint64_t ma = 0, mb = 0;
    auto run = [&](uint64_t a, uint64_t b) { mstart = true, ma = a, mb = b; };
    // chunk flags of l against r (l greater, equal), as the RTL's registered gt / eq
    auto compare = [&](uint64_t l, uint64_t r) {
      d.gt = d.eq = 0;
      for (uint32_t c = 0; c < NC; ++c) {
        const uint64_t lc = l >> (c * CH) & width_mask64(CH), rc = r >> (c * CH) & width_mask64(CH);
        if (lc > rc) d.gt |= 1u << c;
        if (lc == rc) d.eq |= 1u << c;
      }
    };
    bool gt_all = false;
    for (uint32_t c = 0; c < NC; ++c) gt_all = (q.gt >> c & 1u) || ((q.eq >> c & 1u) && gt_all);
    const bool eq_all = q.eq == width_mask(NC);
    d = q;
    if (start) {
      d.nk = nk_in;
      d.i = 0;
      d.thick = d.big = 0;
      d.even = nk_in == 0;
      d.st = St::kIdle;
      if (nk_in != 0) {
        run(sms_small, big_k);
        d.st = St::kRateB;
      }
    } else {
      switch (q.st) {
        case St::kRateB:
          if (!mul_busy) {
            d.rb[q.i] = prod & width_mask64(spec::HcRateW);
            run(sms_big, small_k);
            d.st = St::kRateS;
          }
          break;
        case St::kRateS:
          if (!mul_busy) {
            d.rs[q.i] = prod & width_mask64(spec::HcRateW);
            compare(q.rb[q.i], d.rs[q.i]);
            d.st = St::kThick;
          }
          break;
        case St::kThick:
          if (gt_all) d.thick |= 1u << q.i;
          if (q.i + 1 < nk) {
            d.i = q.i + 1;
            run(sms_small, big_k);
            d.st = St::kRateB;
          } else {
            d.st = St::kShift;
          }
          break;
        case St::kShift: {
          if (nk < 2 || q.thick == in_set) {  // Algorithm 2 line 9: the profiling split stays
            d.even = true;
            d.st = St::kIdle;
          } else {
            uint64_t any = 0;
            for (uint32_t c = 0; c < nk; ++c) any |= q.rb[c] | q.rs[c];
            uint32_t len = 0;
            while (len < spec::HcRateW && (any >> len) != 0) ++len;
            d.sh = len > spec::HcSigW ? len - spec::HcSigW : 0;
            d.i = 0;
            d.rank.fill(0);
            d.st = St::kLoad;
          }
          break;
        }
        case St::kLoad:
          d.b = uint32_t(q.rb[q.i] >> q.sh & width_mask64(spec::HcSigW));
          d.s = uint32_t(q.rs[q.i] >> q.sh & width_mask64(spec::HcSigW));
          d.st = St::kDiff;
          break;
        case St::kDiff:
          d.dlt_neg = q.b < q.s;
          d.dlt = q.b < q.s ? q.s - q.b : q.b - q.s;
          d.flat = ctab <= ctas;
          d.dcta = (ctab - ctas) & cta_mask;
          d.dbase_neg = ctao < ctas;
          d.dbase = ctao < ctas ? ctas - ctao : ctao - ctas;
          d.st = St::kNStart;
          break;
        case St::kNStart:
          if (q.flat) {  // IPC_scaled undefined: IPC^base = b, D = 1
            d.n[q.i] = q.b == 0 ? 1 : q.b;
            d.g[q.i] = q.dlt;
            d.g_neg = (q.g_neg & ~(1u << q.i)) | uint32_t(q.dlt_neg) << q.i;
          } else {
            run(q.dbase, q.dlt);
            d.st = St::kP1;
          }
          break;
        case St::kP1:
          if (!mul_busy) {
            d.p1 = uint32_t(prod & width_mask64(spec::HcGW));
            run(q.dcta, q.s);
            d.st = St::kP2;
          }
          break;
        case St::kP2:
          if (!mul_busy) {
            const int64_t p2 = int64_t(prod & width_mask64(spec::HcGW));
            const int64_t sum = q.dbase_neg != q.dlt_neg ? p2 - int64_t(q.p1) : p2 + int64_t(q.p1);
            d.n[q.i] = sum <= 0 ? 1 : uint32_t(sum);  // an estimate of zero or below is held at 1
            run(q.dcta, q.dlt);
            d.st = St::kG;
          }
          break;
        case St::kG:
          if (!mul_busy) {
            d.g[q.i] = uint32_t(prod & width_mask64(spec::HcGW));
            d.g_neg = (q.g_neg & ~(1u << q.i)) | uint32_t(q.dlt_neg) << q.i;
          }
          break;
        case St::kPair:  // |G_i| N_j, then |G_j| N_i
          run(q.g[q.i], q.n[q.j]);
          d.st = St::kX;
          break;
        case St::kX:
          if (!mul_busy) {
            d.x = prod & width_mask64(spec::HcPairW);
            run(q.g[q.j], q.n[q.i]);
            d.st = St::kY;
          }
          break;
        case St::kY:
          if (!mul_busy) {
            compare(prod & width_mask64(spec::HcPairW), q.x);
            d.st = St::kRank;
          }
          break;
        case St::kRank: {  // p_ji >= p_ij, p_ij = G_i N_j signed (N > 0: the sign is G_i's)
          const bool neg_i = q.g_neg >> q.i & 1u, neg_j = q.g_neg >> q.j & 1u;
          const bool j_wins = neg_i != neg_j ? neg_i : !neg_i ? (gt_all || eq_all) : !gt_all;
          ++d.rank[j_wins ? q.i : q.j];
          d.rank[j_wins ? q.i : q.j] &= width_mask(spec::HcKW);
          if (q.j + 1 < nk) {
            d.j = q.j + 1;
            d.st = St::kPair;
          } else if (q.i + 2 < nk) {
            d.i = q.i + 1;
            d.j = q.i + 2;
            d.st = St::kPair;
          } else {  // the nk / 2 largest gains take the big SMs
            for (uint32_t c = 0; c < K; ++c)
              if ((in_set >> c & 1u) && d.rank[c] < nk / 2) d.big |= 1u << c;
            d.st = St::kIdle;
          }
          break;
        }
        default: break;
      }
      // the next kernel after its N_c and G_c (flat: at once; else after G), or the first pair
      if ((q.st == St::kNStart && q.flat) || (q.st == St::kG && !mul_busy)) {
        if (q.i + 1 < nk) {
          d.i = q.i + 1;
          d.st = St::kLoad;
        } else {
          d.i = 0;
          d.j = 1;
          d.st = St::kPair;
        }
      }
    }
    mul.next(mstart, ma, mb);
  }
  void commit() {
    q = d;
    mul.commit();
  }

  /// q as the RTL's state_o (hc_sel_state_t) at bit `lsb` of `st`.
  void state(PolicyState& st, uint32_t lsb) const { spec::pack_hc_sel_state_t(st, lsb, q, mul); }

  Regs q, d;
  Mul mul;
};

}  // namespace gs::golden
