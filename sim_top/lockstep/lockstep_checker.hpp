// gsched lockstep: the lockstep checker (XiangShan difftest style, Ibex cosim style errors).
//
// Contract: check() is called once per core cycle with that cycle's inputs and the outputs of
// the reference (golden C++) and the DUT (Verilated RTL). It runs one checker per output record
// (record_checker.hpp) in a fixed order -- dispatch, preempt, quota, bypass, launch_ready -- and
// stops at the first difference. Records compare as the model consumes them: the valid bits
// must agree, and the fields only matter (and are compared) when valid. On a difference,
// mismatch() names the cycle, the signal (gs_top port), both values, and report() adds the
// REF/DUT history of the last `history` cycles that carried an input or a decision (a ring
// buffer; no allocation per cycle, so the check costs a few compares when nothing happens).
// fail_state() records a difference found outside the port (the state check,
// state_checker.hpp) so that report() gives it the same form and history.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "lockstep/record_checker.hpp"
#include "sched/scheduler_port.hpp"

namespace gs::lockstep {

class LockstepChecker {
 public:
  explicit LockstepChecker(std::size_t history = 32);

  void reset();
  /// Compares one cycle. Returns true when REF and DUT agree; false records mismatch().
  bool check(uint64_t cycle, const SchedInputs& in, const SchedOutputs& ref, const SchedOutputs& dut);

  const Mismatch& mismatch() const { return mismatch_; }
  /// Multi-line: the mismatch, the REF and DUT records of that cycle and the history.
  std::string report() const;
  /// The last non-idle cycles, oldest first: "cycle N  IN ... / REF ... / DUT ..." lines.
  std::string history() const;
  /// Records `m` (a table difference the state check found after this cycle's check(), whose
  /// outputs were `ref` and `dut`) as the run's mismatch: report() names it with the history.
  void fail_state(const Mismatch& m, const SchedOutputs& ref, const SchedOutputs& dut);
  uint64_t cycles_checked() const { return cycles_checked_; }
  /// Valid decision records compared, all four records together.
  uint64_t decisions_checked() const;
  /// Per-record counts: "dispatch 120 preempt 3 quota 0 bypass 2".
  std::string counts() const;

 private:
  struct Entry {
    uint64_t cycle;
    SchedInputs in;
    SchedOutputs ref, dut;
  };
  bool compare(uint64_t cycle, const SchedOutputs& ref, const SchedOutputs& dut);
  void remember(uint64_t cycle, const SchedInputs& in, const SchedOutputs& ref, const SchedOutputs& dut);

  RecordChecker<DispatchCmd> dispatch_{"dispatch"};
  RecordChecker<PreemptCmd> preempt_{"preempt"};
  RecordChecker<QuotaCmd> quota_{"quota"};
  RecordChecker<BypassCmd> bypass_{"bypass"};
  LaunchReadyChecker launch_ready_;

  std::vector<Entry> ring_;
  std::size_t ring_next_ = 0, ring_count_ = 0;
  Mismatch mismatch_;
  SchedOutputs mismatch_ref_, mismatch_dut_;
  uint64_t cycles_checked_ = 0;
};

}  // namespace gs::lockstep
