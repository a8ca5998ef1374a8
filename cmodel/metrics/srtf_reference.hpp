// gsched: Pai et al.'s Simple Slicing runtime predictor of one SM read straight (PACT 2014,
// Sec. 4: Table 1, Algorithm 1, Eq. 2), the predictor `gsim accuracy` replays CTA traces
// through (metrics/srtf_accuracy.hpp). The readings it pins: docs/srtf-accuracy.md
// ("The predictor").
//
// srtf_reference() keeps Table 1's state per KSRT slot (Active_Kernel_Cycles, Done_Blocks,
// Total_Blocks, Resident_Blocks, t, Reslice) and Block_Start per block slot of the SM, runs
// Algorithm 1's four handlers (ONLAUNCH, ONBLOCKSTART, ONBLOCKEND, ONKERNELEND) on an event
// list in absolute 64-bit cycles, and at every block end computes Eq. 2 at once in integers:
// Pred_Cycles = Active_Kernel_Cycles + floor((Total_Blocks - Done_Blocks) * t / Resident_Blocks),
// saturated at 2^SrtfPredW - 1 (spec::SrtfPredW, the width of a prediction in the RTL).
#pragma once
#include <algorithm>
#include <array>
#include <cstdint>
#include <vector>

#include "gs_spec.hpp"

namespace gs {

static_assert(spec::SrtfPredW < 64, "predictions are held in a uint64_t");

/// Algorithm 1's handlers.
enum class SrtfEvent : uint8_t {
  kLaunch = 0,      // ONLAUNCH: the kernel is launched onto the SM
  kBlockStart = 1,  // ONBLOCKSTART: one of its thread blocks starts in a block slot
  kBlockEnd = 2,    // ONBLOCKEND: the block in that slot ends
  kKernelEnd = 3,   // ONKERNELEND: the kernel is done on the SM
};

/// The largest Pred_Cycles (and Active_Kernel_Cycles): 2^SrtfPredW - 1.
constexpr uint64_t kSrtfPredMax = (uint64_t(1) << spec::SrtfPredW) - 1;

/// One block end's prediction, as srtf_reference() reports it.
struct SrtfPrediction {
  uint32_t event = 0;  // index in the event list
  uint32_t slot = 0;
  uint64_t active = 0;                         // Active_Kernel_Cycles at the end
  uint64_t t = 0;                              // 64-bit: a trace's CTA can exceed 2**32 cycles
  uint32_t done = 0, total = 0, resident = 0;  // Done_Blocks, Total_Blocks, Eq. 2's divisor
  uint64_t pred = 0;                           // Pred_Cycles (Eq. 2)
  bool operator==(const SrtfPrediction& o) const {
    return event == o.event && slot == o.slot && active == o.active && t == o.t && done == o.done && total == o.total &&
           resident == o.resident && pred == o.pred;
  }
};

/// An event with its absolute cycle: `slot` is the kernel's KSRT slot (taken modulo
/// spec::MaxKernels), `blk` the block slot l on the SM (block start and end), `total`
/// Total_Blocks (launch).
struct SrtfTimedEv {
  uint64_t cycle = 0;
  SrtfEvent kind = SrtfEvent::kLaunch;
  uint32_t slot = 0, blk = 0, total = 0;
};

/// Algorithm 1 and Eq. 2 read straight: Table 1's state per slot, Block_Start per block slot,
/// and at every block end Pred_Cycles = Active_Kernel_Cycles + (Total_Blocks - Done_Blocks) * t
/// / Resident_Blocks computed at once (floor; a negative remainder of blocks counts as 0).
/// Events on a slot not running, and block events of a block slot >= spec::MaxCtasPerSm, are
/// ignored.
inline std::vector<SrtfPrediction> srtf_reference(const std::vector<SrtfTimedEv>& evs) {
  constexpr uint32_t K = spec::MaxKernels, B = spec::MaxCtasPerSm;
  struct Slot {
    bool running = false, reslice = false;
    uint64_t active = 0, active_from = 0;
    uint32_t done = 0, total = 0, resident = 0;
    uint64_t t = 0;  // absolute 64-bit time, like the cycles: a block of 2**32 cycles or more is not wrapped
  };
  std::array<Slot, K> s{};
  std::array<uint64_t, B> block_start{};
  std::vector<SrtfPrediction> out;
  for (uint32_t i = 0; i < evs.size(); ++i) {
    const SrtfTimedEv& e = evs[i];
    Slot& k = s[e.slot % K];
    switch (e.kind) {
      case SrtfEvent::kLaunch:  // lines 1-4; Sec. 4: a launch starts a slice for all running kernels
        k = Slot{};
        k.running = true;
        k.total = e.total;
        for (Slot& o : s) o.reslice = o.reslice || o.running;
        break;
      case SrtfEvent::kKernelEnd:  // lines 5-7, and a new slice for the kernels still running
        if (!k.running) break;
        k.running = false;
        k.reslice = false;
        for (Slot& o : s) o.reslice = o.reslice || o.running;
        break;
      case SrtfEvent::kBlockStart:  // lines 8-9
        if (!k.running || e.blk >= B) break;
        block_start[e.blk] = e.cycle;
        if (k.resident == 0) k.active_from = e.cycle;
        ++k.resident;
        break;
      case SrtfEvent::kBlockEnd: {  // lines 10-13, then Eq. 2
        if (!k.running || e.blk >= B) break;
        if (k.resident > 0) k.active += e.cycle - k.active_from;
        k.active_from = e.cycle;
        ++k.done;
        if (k.reslice) k.t = e.cycle - block_start[e.blk];
        k.reslice = false;
        const uint32_t res = k.resident == 0 ? 1 : k.resident;
        if (k.resident > 0) --k.resident;
        const uint64_t left = k.total > k.done ? k.total - k.done : 0;
        SrtfPrediction p;
        p.event = i;
        p.slot = e.slot % K;
        p.active = std::min<uint64_t>(k.active, kSrtfPredMax);
        p.t = k.t;
        p.done = k.done;
        p.total = k.total;
        p.resident = res;
        // Eq. 2 in 128 bits: left * t can exceed 64 bits for long traces; the sum saturates
        const unsigned __int128 pred = static_cast<unsigned __int128>(p.active) +
                                       static_cast<unsigned __int128>(left) * k.t / res;
        p.pred = static_cast<uint64_t>(std::min<unsigned __int128>(pred, kSrtfPredMax));
        out.push_back(p);
        break;
      }
    }
  }
  return out;
}

}  // namespace gs
