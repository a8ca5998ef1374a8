// gsched rtl_sched: LockstepScheduler -- RTL drives the model, golden checks it every cycle.
//
// Contract: step(in) feeds the same inputs to the reference (golden C++) and the DUT
// (RtlScheduler), compares the two outputs with lockstep::LockstepChecker and, unless
// SchedOptions::lockstep_state_check is off or the reference is not a GoldenScheduler, the two
// sets of tables with lockstep::StateChecker (gs_top's tables read through the simulation-only
// observation of GsTopDriver::tables()); it returns the DUT's outputs (the model runs on the
// RTL's decisions). On the first difference it throws gs::CheckMismatch whose message holds the
// cycle, the signal (or table entry and field), REF and DUT values, the last 32 cycles with
// inputs or decisions, and the name of an FST waveform:
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
#include "lockstep/state_checker.hpp"
#include "rtl_sched/mismatch_wave.hpp"
#include "rtl_sched/rtl_model.hpp"
#include "rtl_sched/rtl_scheduler.hpp"
#include "sched/scheduler_port.hpp"

namespace gs {

class GoldenScheduler;

class LockstepScheduler final : public SchedulerPort {
 public:
  LockstepScheduler(std::unique_ptr<SchedulerPort> ref, std::unique_ptr<RtlScheduler> dut, rtl::RtlModelMaker replay,
                    uint64_t wave_window = 64);

  void reset(const GpuConfig& cfg, const SchedOptions& opt) override;
  SchedOutputs step(const SchedInputs& in) override;
  std::string name() const override;
  std::string dump_state() const override;
  /// The golden reference's (the RTL makes the same decisions, or the run stops).
  const std::vector<PolicyRecord>* records() const override { return ref_->records(); }
  uint64_t records_dropped() const override { return ref_->records_dropped(); }
  SchedEvalStats eval_stats() const override { return dut_->eval_stats(); }

  const lockstep::LockstepChecker& checker() const { return checker_; }
  const lockstep::StateChecker& state_checker() const { return state_checker_; }
  /// Whether this run compares the tables (the option, and a golden reference to compare with).
  bool state_check() const { return state_check_; }

 private:
  [[noreturn]] void fail(const SchedInputs& in);
  /// The state check of one cycle (throws like fail() on a difference).
  void check_tables(const SchedInputs& in, const SchedOutputs& ref, const SchedOutputs& dut);
  /// Re-runs the DUT's inputs on a traced model and writes the window; returns a message line.
  std::string write_mismatch_wave(uint64_t mismatch_step);

  std::unique_ptr<SchedulerPort> ref_;
  std::unique_ptr<RtlScheduler> dut_;
  rtl::RtlModelMaker replay_;
  uint64_t wave_window_;
  lockstep::LockstepChecker checker_;
  lockstep::StateChecker state_checker_;
  const GoldenScheduler* golden_ = nullptr;  // ref_ when it is the golden scheduler
  bool state_check_ = false;
  const lockstep::SchedTables* dut_tables_ = nullptr;  // the DUT's tables as last read
  uint64_t dut_skipped_ = 0;                           // the DUT's skipped cycles at that read
  bool tables_compared_ = false;                       // since reset
  uint64_t compared_version_ = 0;                      // dut_tables_->version at the last comparison
  golden::PolicyState ref_policy_state_;               // the golden policy's registers, this cycle
  golden::PolicyState compared_policy_state_;          // ... at the last comparison
  SchedOptions opt_;
  rtl::DecisionWindow decisions_;  // REF and DUT outputs of the last wave_window cycles
  uint64_t step_ = 0;
};

/// The default "lockstep" scheduler: golden reference vs. Vgs_top, replay on Vgs_top_trace.
std::unique_ptr<LockstepScheduler> make_lockstep_scheduler(const SchedOptions& opt);

}  // namespace gs
