// gsched golden: twin of rtl/profile/gs_prof_window.sv -- where an observation sample falls in
// a profiling phase's window (Warped-Slicer's and SBM's warm-up and sample phases, timed on the
// observation channel's epoch stamps; the registers t0, t1, tl are the calling policy's).
#pragma once
#include <cstdint>

#include "sched/golden/golden_types.hpp"

namespace gs::golden {

struct ProfWindow {
  bool warm_done = false;   // warm_done_o: obs ends the warm-up (clear, open the window at obs.cycle)
  bool count = false;       // count_o: obs belongs to the open window
};

/// gs_prof_window: the warm-up runs `warmup` cycles from the first stamp seen (t0; obs itself
/// when none was), the window `sample` cycles from t1, the epoch straddling its end counted
/// whole (a sample stamped tl, the last counted stamp, still counts). Stamps modulo 2**CycleW.
inline ProfWindow prof_window(const ObsSample& obs, bool t0_valid, uint32_t t0, uint32_t t1, bool tl_valid,
                              uint32_t tl, uint32_t warmup, uint32_t sample) {
  const uint32_t mask = static_cast<uint32_t>(width_mask(spec::CycleW));
  const uint32_t t_warm = t0_valid ? t0 : obs.cycle;
  const uint32_t age = (obs.cycle - t1) & mask;
  ProfWindow w;
  w.warm_done = obs.valid && ((obs.cycle - t_warm) & mask) >= warmup;
  w.count = obs.valid && obs.cycle != t1 && (age <= sample || !tl_valid || obs.cycle == tl);
  return w;
}

}  // namespace gs::golden
