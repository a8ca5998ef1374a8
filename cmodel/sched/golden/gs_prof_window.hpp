// gsched golden: twin of rtl/profile/gs_prof_window.sv -- a profiling phase's window on the
// observation channel's epoch stamps (Warped-Slicer's, SBM's and HeteroCore's warm-up and sample
// phases) and the next value of the window registers (t0, t1, tl: the calling policy's own state
// fields, in prof_win_t's order).
#pragma once
#include <cstdint>

#include "sched/golden/golden_types.hpp"

namespace gs::golden {

/// prof_win_t: the window registers as a policy's state holds them (fields t0_valid, t0, t1,
/// tl_valid, tl of its state struct).
struct ProfWinRegs {
  bool t0_valid = false;
  uint32_t t0 = 0, t1 = 0;
  bool tl_valid = false;
  uint32_t tl = 0;

  template <class State>
  static ProfWinRegs of(const State& s) {
    return ProfWinRegs{s.t0_valid, s.t0, s.t1, s.tl_valid, s.tl};
  }
  template <class State>
  void store(State& s) const {
    s.t0_valid = t0_valid;
    s.t0 = t0;
    s.t1 = t1;
    s.tl_valid = tl_valid;
    s.tl = tl;
  }
};

struct ProfWindow {
  ProfWinRegs next;    // win_o: the registers' next value
  bool clear = false;  // clear_o: the counters clear, the window opens at obs.cycle
  bool run = false;    // run_o: the counters add obs
  bool done = false;   // done_o: the phase ends at obs
};

/// gs_prof_window: PW_WARM runs `warmup` cycles from the first stamp seen (t0; obs itself when
/// none was), then clears the counters and opens the window (t1); PW_TIMER counts the same
/// without a window; PW_OPEN opens it at once; PW_SAMPLE counts the samples of the window,
/// `sample` cycles from t1 with the epoch straddling its end counted whole (a sample stamped tl,
/// the last counted stamp, still counts), and ends at a sample of a later epoch (one stamped t1
/// does neither). Stamps modulo 2**CycleW.
inline ProfWindow prof_window(const ObsSample& obs, ProfPhase phase, const ProfWinRegs& q, uint32_t warmup,
                              uint32_t sample) {
  ProfWindow w;
  w.next = q;
  if (!obs.valid || phase == ProfPhase::kIdle) return w;  // most cycles: nothing to compute
  const uint32_t mask = static_cast<uint32_t>(width_mask(spec::CycleW));
  const uint32_t t_warm = q.t0_valid ? q.t0 : obs.cycle;
  const uint32_t age = (obs.cycle - q.t1) & mask;
  const bool warm_done = ((obs.cycle - t_warm) & mask) >= warmup;
  const bool in_window = obs.cycle != q.t1 && (age <= sample || !q.tl_valid || obs.cycle == q.tl);
  switch (phase) {
    case ProfPhase::kWarm:
    case ProfPhase::kTimer:
      if (warm_done) {
        w.done = true;
        w.clear = phase == ProfPhase::kWarm;
      } else if (!q.t0_valid) {
        w.next.t0 = obs.cycle;
        w.next.t0_valid = true;
      }
      break;
    case ProfPhase::kOpen: w.done = w.clear = true; break;
    case ProfPhase::kSample:
      if (in_window) {
        w.run = true;
        w.next.tl = obs.cycle;
        w.next.tl_valid = true;
      } else if (obs.cycle != q.t1) {  // an epoch past the window
        w.done = true;
      }
      break;
    default: break;
  }
  if (w.clear) {
    w.next.t1 = obs.cycle;
    w.next.tl_valid = false;
  }
  return w;
}

}  // namespace gs::golden
