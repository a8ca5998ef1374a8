// gsched rtl_sched: LockstepScheduler -- RTL drives the model, golden checks it every cycle.
//
// Contract: step(in) feeds the same inputs to the reference (golden C++) and the DUT
// (RtlScheduler), compares the two outputs with lockstep::LockstepChecker and returns the DUT's
// outputs (the model runs on the RTL's decisions). On the first difference it throws
// gs::CheckMismatch whose message holds the cycle, the signal, REF and DUT values, the last
// 32 cycles with inputs or decisions, and the name of an FST waveform:
//   * with --wave the whole-run file (flushed);
//   * otherwise the DUT's input log is replayed on a fresh traced model (`replay`) from reset,
//     dumping only the last `wave_window` cycles up to and including the mismatch, into
//     gsched_mismatch_<policy>_<mode>_seed<S>_cycle<C>.fst in the working directory, merged
//     with the REF and DUT decision records of those cycles, plus a .gtkw view with the marker
//     on the mismatch (mismatch_wave.hpp; without a traced model, the records alone).
//     (Replay instead of a rolling trace keeps tracing out of the normal run entirely: it
//     costs nothing until a mismatch and then a few seconds at most; docs/cosim.md.)
#pragma once
#include <memory>
#include <string>

#include "lockstep/lockstep_checker.hpp"
#include "rtl_sched/mismatch_wave.hpp"
#include "rtl_sched/rtl_model.hpp"
#include "rtl_sched/rtl_scheduler.hpp"
#include "sched/scheduler_port.hpp"

namespace gs {

class LockstepScheduler final : public SchedulerPort {
 public:
  LockstepScheduler(std::unique_ptr<SchedulerPort> ref, std::unique_ptr<RtlScheduler> dut,
                    rtl::RtlModelMaker replay, uint64_t wave_window = 64);

  void reset(const GpuConfig& cfg, const SchedOptions& opt) override;
  SchedOutputs step(const SchedInputs& in) override;
  std::string name() const override;
  std::string dump_state() const override;
  SchedEvalStats eval_stats() const override { return dut_->eval_stats(); }

  const lockstep::LockstepChecker& checker() const { return checker_; }

 private:
  [[noreturn]] void fail(const SchedInputs& in);
  /// Re-runs the DUT's inputs on a traced model and writes the window; returns a message line.
  std::string write_mismatch_wave(uint64_t mismatch_step);

  std::unique_ptr<SchedulerPort> ref_;
  std::unique_ptr<RtlScheduler> dut_;
  rtl::RtlModelMaker replay_;
  uint64_t wave_window_;
  lockstep::LockstepChecker checker_;
  SchedOptions opt_;
  rtl::DecisionWindow decisions_;  // REF and DUT outputs of the last wave_window cycles
  uint64_t step_ = 0;
};

/// The default "lockstep" scheduler: golden reference vs. Vgs_top, replay on Vgs_top_trace.
std::unique_ptr<LockstepScheduler> make_lockstep_scheduler(const SchedOptions& opt);

}  // namespace gs
