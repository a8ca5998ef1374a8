// gsched SRTF predictor streams: the directed event streams that pin the readings of Pai et
// al.'s Algorithm 1 and Eq. 2 (docs/srtf-accuracy.md, "The predictor"), each with its
// hand-worked predictions, and a random generator of one SM's events, for the unit tests of
// srtf_reference() (cmodel/metrics/srtf_reference.hpp) in test_golden_srtf.cpp.
#pragma once
#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "common/rng.hpp"
#include "metrics/srtf_reference.hpp"

namespace gs::test {

inline SrtfTimedEv srtf_launch(uint64_t c, uint32_t k, uint32_t total) { return {c, SrtfEvent::kLaunch, k, 0, total}; }
inline SrtfTimedEv srtf_start(uint64_t c, uint32_t k, uint32_t l) { return {c, SrtfEvent::kBlockStart, k, l, 0}; }
inline SrtfTimedEv srtf_end(uint64_t c, uint32_t k, uint32_t l) { return {c, SrtfEvent::kBlockEnd, k, l, 0}; }
inline SrtfTimedEv srtf_kernel_end(uint64_t c, uint32_t k) { return {c, SrtfEvent::kKernelEnd, k, 0, 0}; }

struct SrtfDirected {
  std::string name;
  std::vector<SrtfTimedEv> evs;
  std::vector<uint64_t> preds;  // Pred_Cycles after each block end, in order
};

/// The pinned readings, each with its hand-worked Pred_Cycles (Eq. 2, floor).
inline std::vector<SrtfDirected> srtf_directed() {
  constexpr uint64_t kWrap = uint64_t(1) << spec::CycleW;
  std::vector<SrtfDirected> v;
  // 8 blocks, 2 resident, 100 cycles each: t = 100 from the first end (Reslice from the launch)
  v.push_back({"one kernel alone: Eq. 1's staircase",
               {srtf_launch(0, 0, 8), srtf_start(0, 0, 0), srtf_start(0, 0, 1), srtf_end(100, 0, 0),
                srtf_start(100, 0, 0), srtf_end(100, 0, 1), srtf_start(100, 0, 1), srtf_end(200, 0, 0)},
               {100 + 7 * 100 / 2, 100 + 6 * 100 / 2, 200 + 5 * 100 / 2}});
  // (9 - 1) * 7 / 3 = 18.67: 18
  v.push_back({"Eq. 2 rounds down",
               {srtf_launch(0, 0, 9), srtf_start(0, 0, 0), srtf_start(0, 0, 1), srtf_start(0, 0, 2), srtf_end(7, 0, 1)},
               {7 + 18}});
  // the first end divides by 3 (the ending block counted), the next ones by 2 and 1
  v.push_back({"the divisor counts the ending block then drops it",
               {srtf_launch(0, 0, 6), srtf_start(0, 0, 0), srtf_start(0, 0, 1), srtf_start(0, 0, 2), srtf_end(60, 0, 0),
                srtf_end(90, 0, 1), srtf_end(120, 0, 2)},
               {60 + 5 * 60 / 3, 90 + 4 * 60 / 2, 120 + 3 * 60 / 1}});
  // kernel 1's launch starts a new slice for kernel 0 too: its next end samples t = 80
  v.push_back({"a launch reslices the running kernels",
               {srtf_launch(0, 0, 4), srtf_start(0, 0, 0), srtf_end(50, 0, 0), srtf_start(50, 0, 0),
                srtf_end(100, 0, 0), srtf_start(100, 0, 0), srtf_launch(110, 1, 4), srtf_end(190, 0, 0)},
               {50 + 3 * 50, 100 + 2 * 50, 190 + 1 * 90}});
  // kernel 1's end starts a new slice for kernel 0: t = 40
  v.push_back({"a kernel end reslices the others",
               {srtf_launch(0, 0, 10), srtf_launch(0, 1, 1), srtf_start(0, 0, 0), srtf_start(0, 1, 1),
                srtf_end(20, 0, 0), srtf_start(20, 0, 0), srtf_end(30, 1, 1), srtf_kernel_end(30, 1),
                srtf_end(60, 0, 0)},
               {20 + 9 * 20 / 1, 30 + 0, 60 + 8 * 40 / 1}});
  // Total_Blocks is an estimate: past it the remaining blocks count as 0
  v.push_back({"past Total_Blocks Pred_Cycles is Active_Kernel_Cycles",
               {srtf_launch(0, 0, 1), srtf_start(0, 0, 0), srtf_start(5, 0, 1), srtf_end(40, 0, 0), srtf_end(45, 0, 1)},
               {40, 45}});
  // no block resident from 100 to 500: those cycles are not the kernel's
  v.push_back({"Active_Kernel_Cycles skips cycles without a resident block",
               {srtf_launch(0, 0, 3), srtf_start(0, 0, 0), srtf_end(100, 0, 0), srtf_start(500, 0, 0),
                srtf_end(600, 0, 0)},
               {100 + 2 * 100, 200 + 1 * 100}});
  // stamps cross 2**CycleW (the RTL's stamp width): absolute cycles, nothing wraps
  v.push_back({"stamps cross 2**CycleW",
               {srtf_launch(kWrap - 30, 0, 2), srtf_start(kWrap - 30, 0, 3), srtf_end(kWrap + 20, 0, 3)},
               {50 + 1 * 50}});
  // the largest operands: Eq. 2's quotient passes 2**SrtfPredW and saturates
  {
    const uint32_t big = (1u << spec::CtaIdW) - 1;
    const uint64_t t = kWrap - 1;
    const uint64_t max = kSrtfPredMax;
    v.push_back({"Pred_Cycles saturates",
                 {srtf_launch(0, 0, big), srtf_start(0, 0, 0), srtf_end(t, 0, 0)},
                 {std::min<uint64_t>(t + (big - 1) * t, max)}});
  }
  return v;
}

/// One SM's random events: kernels launched, blocks started and ended in block slots, kernels
/// ended once idle, and (noise) a few events of slots not running (ignored by the predictor).
/// Stamps start anywhere (a stream may cross 2**CycleW) and no interval reaches 2**CycleW.
inline std::vector<SrtfTimedEv> srtf_random(Rng& r, uint32_t n, bool noise = true) {
  constexpr uint32_t K = spec::MaxKernels, B = spec::MaxCtasPerSm;
  std::vector<SrtfTimedEv> evs;
  std::vector<int32_t> holder(B, -1);
  std::vector<uint32_t> resident(K, 0);
  std::vector<bool> running(K, false);
  uint64_t c = r.chance_permille(300) ? (uint64_t(1) << spec::CycleW) - r.below(1u << 20) : r.below(1u << 30);
  const uint32_t nk = 1 + r.below(K);         // slots this stream uses
  const uint32_t nb = 1 + r.below(B);         // block slots this stream uses
  const bool small = r.chance_permille(500);  // small durations: many exact divisions and ties
  while (evs.size() < n) {
    const uint32_t g = r.below(100);
    c += g < 30 ? 0 : g < 90 ? r.below(small ? 16 : 5000) : r.below(1u << 22);
    const uint32_t k = r.below(nk);
    const uint32_t l = r.below(nb);
    const uint32_t act = r.below(100);
    if (!running[k]) {
      if (act < 8 && noise) {  // an event of a slot not running: ignored
        const SrtfEvent kinds[] = {SrtfEvent::kBlockStart, SrtfEvent::kBlockEnd, SrtfEvent::kKernelEnd};
        evs.push_back({c, kinds[r.below(3)], k, l, 0});
      } else if (act < 60) {
        const uint32_t total = r.chance_permille(50) ? r.below(1u << spec::CtaIdW) : r.below(64);
        evs.push_back(srtf_launch(c, k, total));
        running[k] = true;
      }
    } else if (act < 45) {
      if (holder[l] >= 0) continue;
      evs.push_back(srtf_start(c, k, l));
      holder[l] = static_cast<int32_t>(k);
      ++resident[k];
    } else if (act < 92) {
      if (holder[l] != static_cast<int32_t>(k)) continue;
      evs.push_back(srtf_end(c, k, l));
      holder[l] = -1;
      --resident[k];
    } else if (resident[k] == 0) {
      evs.push_back(srtf_kernel_end(c, k));
      running[k] = false;
    }
  }
  return evs;
}

}  // namespace gs::test
