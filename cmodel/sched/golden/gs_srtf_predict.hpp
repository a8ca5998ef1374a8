// gsched golden twin of rtl/policy/gs_srtf_predict.sv: the Simple Slicing runtime predictor of
// one SM (Pai et al., PACT 2014, Sec. 4: Table 1, Algorithm 1, Eq. 2).
//
// SrtfPredictTwin has gs_srtf_predict's registers, the same update of Table 1's state on the
// four events of Algorithm 1 (ONLAUNCH, ONBLOCKSTART, ONBLOCKEND, ONKERNELEND) and the same
// restoring divider for Eq. 2, one quotient bit per cycle, with the same integer widths:
// next() is the RTL's always_comb (the divider first, then the event, which wins over a write to
// its slot), commit() the clock edge; every output is a register (busy_o from `pending` and
// `div_busy`), so there is no comb(). srtf_reference() is Algorithm 1 and Eq. 2 read straight
// (absolute 64-bit cycles, one prediction computed at once per block end, no divider, no queue):
// the twin, drained after every block end, must predict the same. The pinned readings of the
// paper: docs/rtl/gs_srtf_predict.md.
#pragma once
#include <algorithm>
#include <array>
#include <cstdint>
#include <vector>

#include "sched/golden/golden_types.hpp"

namespace gs::golden {

static_assert(spec::SrtfDivW <= 63 && spec::SrtfPredW <= 63, "the divider and predictions are held in a uint64_t");

/// One event on gs_srtf_predict's ports (valid = false: no event this cycle).
struct SrtfEv {
  bool valid = false;
  SrtfEvent kind = SrtfEvent::kLaunch;
  uint32_t slot = 0;   // KSRT slot of the kernel
  uint32_t blk = 0;    // block slot l on the SM (start, end)
  uint32_t cycle = 0;  // clock() of the event, modulo 2**CycleW
  uint32_t total = 0;  // Total_Blocks (launch)
};

class SrtfPredictTwin {
 public:
  static constexpr uint32_t K = spec::MaxKernels;
  static constexpr uint32_t B = spec::MaxCtasPerSm;
  static constexpr uint32_t D = spec::SrtfDivW;
  static constexpr uint64_t kPredMax = width_mask64(spec::SrtfPredW);
  static constexpr uint32_t kCycleMask = width_mask(spec::CycleW);
  static constexpr uint32_t kBlocksMax = width_mask(spec::CtaIdW);
  static constexpr uint32_t kResMax = width_mask(spec::CtaCntW);

  struct Regs {
    uint32_t valid = 0, reslice = 0, pending = 0, has_pred = 0;  // bit masks over slots
    std::array<uint64_t, K> active{};                            // Active_Kernel_Cycles up to `last`
    std::array<uint32_t, K> last{};
    std::array<uint32_t, K> done{};      // Done_Blocks
    std::array<uint32_t, K> total{};     // Total_Blocks
    std::array<uint32_t, K> resident{};  // Resident_Blocks
    std::array<uint32_t, K> den{};       // Resident_Blocks at the last block end (Eq. 2's divisor)
    std::array<uint32_t, K> t{};
    std::array<uint64_t, K> pred{};  // Pred_Cycles
    std::array<uint32_t, B> block_start{};
    uint32_t rr = K - 1;  // the first pick scans from slot 0
    bool div_busy = false;
    uint32_t div_k = 0, div_cnt = 0, div_rem = 0, div_den = 0;
    uint64_t div_quo = 0, div_add = 0;
  };

  Regs q, d;

  void reset() {
    q = Regs{};
    d = q;
  }
  bool busy() const { return q.div_busy || q.pending != 0; }

  /// Next state from this cycle's event, into d; q untouched.
  void next(const SrtfEv& ev) {
    d = q;
    // ---- the divider: start on the next pending slot after rr, or one quotient bit ----
    if (!q.div_busy) {
      for (uint32_t j = 0; j < K; ++j) {
        const uint32_t k = (q.rr + 1 + j) % K;
        if (!(q.pending >> k & 1u)) continue;
        const uint64_t left = q.total[k] > q.done[k] ? q.total[k] - q.done[k] : 0;
        d.div_busy = true;
        d.div_k = k;
        d.rr = k;
        d.pending &= ~(1u << k);
        d.div_cnt = D;
        d.div_rem = 0;
        d.div_quo = (left * q.t[k]) & width_mask64(D);
        d.div_den = q.den[k];
        d.div_add = q.active[k];
        break;
      }
    } else {
      const uint32_t trial = q.div_rem << 1 | static_cast<uint32_t>(q.div_quo >> (D - 1) & 1u);
      uint64_t quo = (q.div_quo << 1) & width_mask64(D);
      uint32_t rem = trial;
      if (trial >= q.div_den) {
        rem = trial - q.div_den;
        quo |= 1u;
      }
      d.div_cnt = q.div_cnt - 1;
      d.div_rem = rem & kResMax;
      d.div_quo = quo;
      if (q.div_cnt == 1) {
        d.div_busy = false;
        d.pred[q.div_k] = std::min(q.div_add + quo, kPredMax);
        d.has_pred |= 1u << q.div_k;
      }
    }
    // ---- the event (Algorithm 1) ----
    if (!ev.valid) return;
    const uint32_t k = ev.slot % K;
    const uint32_t bit = 1u << k;
    const bool run = q.valid & bit;
    const bool blk_ok = ev.blk < B;
    const uint32_t cyc = ev.cycle & kCycleMask;
    bool kill = false;
    switch (ev.kind) {
      case SrtfEvent::kLaunch:  // lines 1-4; Sec. 4: a launch starts a slice for all running kernels
        d.active[k] = 0;
        d.pred[k] = 0;
        d.last[k] = cyc;
        d.t[k] = 0;
        d.done[k] = 0;
        d.total[k] = ev.total & kBlocksMax;
        d.resident[k] = 0;
        d.den[k] = 0;
        d.valid |= bit;
        d.reslice = q.reslice | d.valid;
        d.pending &= ~bit;
        d.has_pred &= ~bit;
        kill = true;
        break;
      case SrtfEvent::kKernelEnd:  // lines 5-7
        if (!run) break;
        d.valid &= ~bit;
        d.reslice = (q.reslice | d.valid) & ~bit;
        d.pending &= ~bit;
        d.has_pred &= ~bit;
        kill = true;
        break;
      case SrtfEvent::kBlockStart:  // lines 8-9
        if (!run || !blk_ok) break;
        d.block_start[ev.blk] = cyc;
        if (q.resident[k] == 0) d.last[k] = cyc;
        if (q.resident[k] != kResMax) d.resident[k] = q.resident[k] + 1;
        break;
      case SrtfEvent::kBlockEnd: {  // lines 10-13, then Eq. 2 (queued for the divider)
        if (!run || !blk_ok) break;
        const uint32_t res = q.resident[k];
        if (res != 0) d.active[k] = std::min(q.active[k] + ((cyc - q.last[k]) & kCycleMask), kPredMax);
        d.last[k] = cyc;
        if (q.done[k] != kBlocksMax) d.done[k] = q.done[k] + 1;
        if (q.reslice & bit) d.t[k] = (cyc - q.block_start[ev.blk]) & kCycleMask;
        d.den[k] = res == 0 ? 1 : res;
        if (res != 0) d.resident[k] = res - 1;
        d.reslice &= ~bit;
        d.pending |= bit;
        break;
      }
    }
    // a launch or kernel end of the slot under division drops that division
    if (kill && d.div_busy && d.div_k == k) d.div_busy = false;
  }
  void commit() { q = d; }
};

/// One block end's prediction, as srtf_reference() and the replay runners report it.
struct SrtfPrediction {
  uint32_t event = 0;  // index in the event list
  uint32_t slot = 0;
  uint64_t active = 0;  // Active_Kernel_Cycles at the end
  uint64_t t = 0;       // the twin's is CycleW bits; srtf_reference's is 64-bit (a trace's CTA can exceed 2**32)
  uint32_t done = 0, total = 0, resident = 0;  // Done_Blocks, Total_Blocks, Eq. 2's divisor
  uint64_t pred = 0;                           // Pred_Cycles (Eq. 2)
  bool operator==(const SrtfPrediction& o) const {
    return event == o.event && slot == o.slot && active == o.active && t == o.t && done == o.done && total == o.total &&
           resident == o.resident && pred == o.pred;
  }
};

/// An event with its absolute cycle (srtf_reference; the ports see it modulo 2**CycleW).
struct SrtfTimedEv {
  uint64_t cycle = 0;
  SrtfEvent kind = SrtfEvent::kLaunch;
  uint32_t slot = 0, blk = 0, total = 0;
};

/// Algorithm 1 and Eq. 2 read straight: Table 1's state per slot, Block_Start per block slot,
/// and at every block end Pred_Cycles = Active_Kernel_Cycles + (Total_Blocks - Done_Blocks) * t
/// / Resident_Blocks computed at once (floor; a negative remainder of blocks counts as 0).
/// Events on a slot not running are ignored, as in the twin.
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
      case SrtfEvent::kLaunch:
        k = Slot{};
        k.running = true;
        k.total = e.total;
        for (Slot& o : s) o.reslice = o.reslice || o.running;
        break;
      case SrtfEvent::kKernelEnd:
        if (!k.running) break;
        k.running = false;
        k.reslice = false;
        for (Slot& o : s) o.reslice = o.reslice || o.running;
        break;
      case SrtfEvent::kBlockStart:
        if (!k.running || e.blk >= B) break;
        block_start[e.blk] = e.cycle;
        if (k.resident == 0) k.active_from = e.cycle;
        ++k.resident;
        break;
      case SrtfEvent::kBlockEnd: {
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
        p.active = std::min<uint64_t>(k.active, SrtfPredictTwin::kPredMax);
        p.t = k.t;
        p.done = k.done;
        p.total = k.total;
        p.resident = res;
        // Eq. 2 in 128 bits: left * t can exceed 64 bits for long traces; saturates as the twin does
        const unsigned __int128 pred = static_cast<unsigned __int128>(p.active) +
                                       static_cast<unsigned __int128>(left) * k.t / res;
        p.pred = static_cast<uint64_t>(std::min<unsigned __int128>(pred, SrtfPredictTwin::kPredMax));
        out.push_back(p);
        break;
      }
    }
  }
  return out;
}

}  // namespace gs::golden
