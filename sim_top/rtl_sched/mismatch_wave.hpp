// gsched rtl_sched: the lockstep mismatch waveform -- REF and DUT decision records side by side.
//
// A lockstep mismatch (LockstepScheduler) leaves three things for GTKWave, all named after the
// mismatch (gsched_mismatch_<policy>_<mode>_seed<S>_cycle<C>):
//   <base>.fst   the window of cycles before the mismatch: the DUT's internal signals replayed
//                on the traced model (TOP.gs_top.*, when the DUT build has one) merged with two
//                scopes written here, `ref` and `dut`, holding the golden's and the RTL's
//                decision records cycle by cycle under the gs_top port names
//                (ref.dispatch_sm_o beside dut.dispatch_sm_o), and `lockstep.cycle` /
//                `lockstep.mismatch`. Kernel fields carry an FST enum table (K<n>, `none` for
//                the all-ones code), preempt_mode_o and bypass_level_o their policy enum names;
//                the DUT's own kernel-id signals get the same kernel table.
//   <base>.gtkw  a GTKWave save file: the marker on the mismatch cycle, the differing signal's
//                REF and DUT rows first, then every record field as REF/DUT pairs, then the
//                DUT's inputs and SM states.
// Time axis: 1 core cycle = 1 ns (FST time unit 100 ps, cycle c at 10*c), as in every gsim
// waveform (gs_top_driver.hpp).
//
// DecisionWindow is the recorder: LockstepScheduler copies each cycle's REF and DUT outputs
// into a preallocated ring (two PODs per cycle, no allocation).
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "sched/scheduler_port.hpp"

namespace gs::rtl {

class DecisionWindow {
 public:
  struct Entry {
    uint64_t step = 0;
    SchedOutputs ref, dut;
  };
  explicit DecisionWindow(std::size_t cycles = 64) : ring_(cycles == 0 ? 1 : cycles) {}
  void reset() { next_ = count_ = 0; }
  void record(uint64_t step, const SchedOutputs& ref, const SchedOutputs& dut) {
    Entry& e = ring_[next_];
    e.step = step;
    e.ref = ref;
    e.dut = dut;
    next_ = next_ + 1 == ring_.size() ? 0 : next_ + 1;
    if (count_ < ring_.size()) ++count_;
  }
  /// The recorded cycles, oldest first.
  std::vector<Entry> entries() const;

 private:
  std::vector<Entry> ring_;
  std::size_t next_ = 0, count_ = 0;
};

struct MismatchWaveSpec {
  std::string base;       // file name without extension (in the working directory)
  uint64_t first = 0;     // first cycle of the window
  uint64_t mismatch = 0;  // the cycle whose outputs differed
  std::string signal;     // the differing gs_top port, e.g. "dispatch_cta_o"
  std::string ref_value, dut_value;
  std::string dut_fst;   // FST of the DUT replay over the window ("" = none); consumed
  uint32_t num_sms = 0;  // SM state rows in the view
};

/// Writes <base>.fst and <base>.gtkw (see above); returns the message lines for the mismatch
/// report (file names, what they hold, the exact gtkwave command). Never throws: a failure
/// is reported in the returned text.
std::string write_mismatch_wave(const MismatchWaveSpec& spec, const std::vector<DecisionWindow::Entry>& records);

}  // namespace gs::rtl
