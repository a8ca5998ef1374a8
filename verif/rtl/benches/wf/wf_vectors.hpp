// gsched water-filling vectors: the directed cases the reading of Algorithm 1 pins
// down (docs/rtl/gs_waterfill.md) and a random generator, shared by the block bench
// (test_bench_waterfill.cpp) and its mutation tests.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "common/rng.hpp"
#include "sched/golden/gs_waterfill.hpp"

namespace gs::bench {

using golden::WfInputs;
using golden::WfKernel;

/// A kernel with `perf` = P(i,1..N) and a CTA of `threads`/`smem`, 1 warp per 32 threads, 1 slot.
inline WfKernel wf_kernel(std::vector<uint32_t> perf, uint32_t threads, uint32_t smem, uint32_t regs = 0) {
  WfKernel k;
  k.cta = WfRes{threads, (threads + 31) / 32, regs, smem, 1};
  k.nsteps = static_cast<uint32_t>(perf.size());
  for (size_t j = 0; j < perf.size() && j < spec::WfMaxSteps; ++j) k.perf[j] = perf[j];
  return k;
}
/// An SM with room to spare in every component but shared memory and slots.
inline WfRes wf_sm(uint32_t smem, uint32_t slots) { return WfRes{2048, 64, 65536, smem, slots}; }

struct WfDirected {
  std::string name;
  WfInputs in;
  std::vector<uint32_t> ctas;  // expected T_i of the kernels present, in slot order
  bool spatial;
  uint32_t cycles;  // 0: not pinned
};

/// gs_waterfill's cycles from the start cycle to done_o (docs/rtl/gs_waterfill.md, "Latency
/// contract"): the start, INIT K, SCAN N + 1, `iters` iterations that found a candidate and the
/// last one that found none (K visits each), `mults` cross-product compares (WfPerfW + 2 cycles
/// each beyond the visit), `tries` cycles of TRY and COMMIT (dT + 1 per iteration), and the loss
/// check over `checked` present kernels (K visits, WfPerfW + 3 more each; none after nofit).
inline uint32_t wf_cycles(uint32_t iters, uint32_t mults, uint32_t tries, uint32_t checked, bool nofit = false) {
  constexpr uint32_t K = spec::WfMaxKernels, N = spec::WfMaxSteps, PW = spec::WfPerfW;
  return 2 + K + N + (iters + 1) * K + mults * (PW + 2) + tries + (nofit ? 0 : K + checked * (PW + 3));
}

/// The pinned readings, each with its hand-worked result.
inline std::vector<WfDirected> wf_directed() {
  constexpr uint32_t N = spec::WfMaxSteps;
  std::vector<WfDirected> v;
  {  // equal normalized performance: the lower kernel index takes the CTA
    // iteration 1: kernel 1 compared (10*20 vs 10*20, a tie), S = 0 takes 1 CTA; iteration 2: S = 1
    // does not fit the last slot (Full); 2 kernels checked
    WfDirected d{"tie goes to the lowest kernel index", {}, {2, 1}, false, wf_cycles(2, 1, 2 + 2, 2)};
    d.in.avail = wf_sm(1000, 3);
    d.in.k[0] = wf_kernel({10, 20}, 32, 0);
    d.in.k[1] = wf_kernel({10, 20}, 32, 0);
    v.push_back(d);
  }
  {  // P = 10, 10, 20: the equal sample is no step, so the next step is 3 CTAs (dT = 2), which does not fit
    // one iteration: dT = 2, TRY 2 cycles (the second borrows), Full
    WfDirected d{"non-strict maxima are skipped", {}, {1}, false, wf_cycles(1, 0, 2 + 1, 1)};
    d.in.avail = wf_sm(1000, 2);
    d.in.k[0] = wf_kernel({10, 10, 20}, 32, 0);
    v.push_back(d);
  }
  {  // kernel 0 is marked Full on shared memory while kernel 1 goes on to its last step
    // 5 iterations (k1, k0, k1, k0 Full, k1), the first 4 with both kernels candidates (1 compare each)
    WfDirected d{"Full marking", {}, {2, 4}, false, wf_cycles(5, 4, 5 * 2, 2)};
    d.in.avail = wf_sm(24, 32);
    d.in.k[0] = wf_kernel({10, 20, 30}, 32, 10);
    d.in.k[1] = wf_kernel({10, 20, 30, 40}, 32, 1);
    v.push_back(d);
  }
  {  // loss exactly 1.2/K (K = 2: 0.6): co-location stays
    WfDirected d{"loss exactly 1.2/K stays intra-SM", {}, {1, 1}, false, wf_cycles(1, 0, 2, 2)};
    d.in.avail = wf_sm(25, 32);
    d.in.k[0] = wf_kernel({4, 10}, 32, 10);
    d.in.k[1] = wf_kernel({10}, 32, 10);
    v.push_back(d);
  }
  {  // loss 0.601 > 0.6: spatial
    WfDirected d{"loss just over 1.2/K falls back to spatial", {}, {1, 1}, true, wf_cycles(1, 0, 2, 2)};
    d.in.avail = wf_sm(25, 32);
    d.in.k[0] = wf_kernel({399, 1000}, 32, 10);
    d.in.k[1] = wf_kernel({10}, 32, 10);
    v.push_back(d);
  }
  {  // K = 3: threshold 0.4; kernel 0 loses exactly 0.4 (3 of 5)
    WfDirected d{"K = 3, loss exactly 0.4 stays intra-SM", {}, {1, 1, 1}, false, wf_cycles(1, 0, 2, 3)};
    d.in.avail = wf_sm(35, 32);
    d.in.k[0] = wf_kernel({3, 5}, 32, 10);
    d.in.k[1] = wf_kernel({7}, 32, 10);
    d.in.k[3] = wf_kernel({7}, 32, 10);  // slot 2 empty: kernels need not be contiguous
    v.push_back(d);
  }
  {  // the first CTAs do not fit together: no loop, spatial
    WfDirected d{"first CTAs do not fit together", {}, {1, 1}, true, wf_cycles(0, 0, 0, 0, true)};
    d.in.avail = wf_sm(100, 32);
    d.in.k[0] = wf_kernel({1, 2}, 32, 60);
    d.in.k[1] = wf_kernel({1, 2}, 32, 60);
    v.push_back(d);
  }
  {  // the longest run without Full: 4 kernels, 32 strictly increasing samples each, room for
     // all (a CTA of one thread and nothing else): 4 x 31 iterations, in rounds k1 (the larger
     // peak: lowest at equal T), k0, k2, k3; kernel k is a candidate until it takes its last step
     // in iteration 4 (N-1) - 3 + its place in the round, so sum(candidates - 1) compares
    constexpr uint32_t I = 4 * (N - 1);
    WfDirected d{"four kernels to their last step",
                 {},
                 {N, N, N, N},
                 false,
                 wf_cycles(I, (I - 3) + (I - 2) + (I - 1) + I - I, 2 * I, 4)};
    d.in.avail = WfRes{4095, 127, 131071, 0, 63};
    std::vector<uint32_t> up(N);
    for (uint32_t j = 0; j < N; ++j) up[j] = 100 * (j + 1);
    for (uint32_t i = 0; i < spec::WfMaxKernels; ++i) {
      d.in.k[i] = wf_kernel(up, 1, 0);
      d.in.k[i].cta = WfRes{1, 0, 0, 0, 0};
    }
    d.in.k[1].perf[N - 1] += 7;  // different peaks: different normalized values
    v.push_back(d);
  }
  return v;
}

/// A random vector: 1..WfMaxKernels kernels in random slots, N_i in 1..WfMaxSteps (now and then
/// above it), performance curves of Fig. 3a's shapes with plateaus and repeated values (ties,
/// non-strict maxima), CTAs that each fit the SM alone (a tenth of the vectors: tiny CTAs that
/// take no CTA slot, so runs reach the long end of the latency bound).
inline WfInputs wf_random(Rng& r) {
  constexpr uint32_t N = spec::WfMaxSteps;
  WfInputs in;
  const uint32_t scale = r.chance_permille(300) ? 4 : 1;
  // now and then CTAs far smaller than the SM and taking no slot: up to K x (N-1) iterations
  const bool tiny = r.chance_permille(100);
  in.avail = WfRes{256 * (1 + r.below(8)), 8 * (1 + r.below(8)), 8192 * (1 + r.below(8)), 1024 * r.below(97),
                   1 + r.below(32)};
  const uint32_t mask = 1 + r.below((1u << spec::WfMaxKernels) - 1);
  for (uint32_t i = 0; i < spec::WfMaxKernels; ++i) {
    if (!(mask >> i & 1u)) continue;
    WfKernel& k = in.k[i];
    k.nsteps = r.chance_permille(50) ? N + 1 + r.below(63 - N) : 1 + r.below(N);
    const uint32_t threads = 32 * (1 + r.below(in.avail.threads / 32));
    k.cta = WfRes{threads, std::min(in.avail.warps, (threads + 31) / 32), r.below(in.avail.regs + 1),
                  in.avail.shmem == 0 ? 0 : r.below(in.avail.shmem + 1) / scale, 1};
    if (tiny) k.cta = WfRes{1 + r.below(16), r.below(2), r.below(256), r.below(64), 0};  // long runs
    const uint32_t shape = r.below(5);
    const uint32_t knee = 1 + r.below(N);
    uint32_t p = r.below(50) * scale;
    for (uint32_t j = 0; j < N; ++j) {
      switch (shape) {
        case 0: p += r.below(30); break;                                               // non-saturating (plateaus: +0)
        case 1: p += j < knee ? r.below(40) : r.below(2); break;                       // saturating
        case 2: p = j < knee ? p + r.below(60) : p - std::min(p, r.below(20)); break;  // cache sensitive
        case 3: p = r.below(11); break;  // small values: equal ratios, losses of exactly 1.2/K (2/5, 3/5, 7/10)
        default: p = r.below(1u << spec::WfPerfW); break;  // anything
      }
      k.perf[j] = std::min(p, (1u << spec::WfPerfW) - 1);
    }
    // now and then the curve of an earlier kernel, scaled: equal normalized performance (ties)
    for (uint32_t e = 0; e < i; ++e) {
      if (in.k[e].nsteps == 0 || !r.chance_permille(150)) continue;
      const uint32_t m = 1 + r.below(3);
      for (uint32_t j = 0; j < N; ++j) k.perf[j] = std::min(in.k[e].perf[j] * m, (1u << spec::WfPerfW) - 1);
      break;
    }
  }
  return in;
}

}  // namespace gs::bench
