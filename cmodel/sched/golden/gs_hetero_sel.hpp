// gsched golden: twin of rtl/policy/gs_hetero_sel.sv -- HeteroCore's big/small-SM mapping
// decision (Zhao et al., TPDS 2019, Sec. 4.3, Algorithm 2; Sec. 6.4 for four kernels), with
// the RTL's integer arithmetic step for step (docs/rtl/gs_hetero_sel.md).
#pragma once
#include <array>
#include <cstdint>

#include "sched/golden/golden_types.hpp"

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

}  // namespace gs::golden
