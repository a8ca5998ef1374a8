// gsched lockstep: the lockstep checker (XiangShan difftest style, Ibex cosim style errors).
//
// Contract: check() is called once per core cycle with that cycle's inputs and the outputs of
// the reference (golden C++) and the DUT (Verilated RTL). It runs one check per output record
// in a fixed order -- dispatch, preempt, quota, bypass, launch_ready -- and stops at the first
// difference. Records compare as the model consumes them: the valid bits must agree, and the
// fields only matter (and are compared) when valid. On a difference, mismatch() names the
// cycle, the signal (gs_top port), both values, and report() adds the REF/DUT history of the
// last `history` cycles that carried an input or a decision (a ring buffer; no allocation per
// cycle, so the check costs a few compares when nothing happens).
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "sched/scheduler_port.hpp"

namespace gs::lockstep {

struct Mismatch {
  uint64_t cycle = 0;
  std::string signal;   // gs_top port, e.g. "dispatch_sm_o"
  std::string ref;      // golden value
  std::string dut;      // RTL value
};

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
  uint64_t cycles_checked() const { return cycles_checked_; }
  uint64_t decisions_checked() const { return decisions_checked_; }

 private:
  struct Entry {
    uint64_t cycle;
    SchedInputs in;
    SchedOutputs ref, dut;
  };
  bool compare(uint64_t cycle, const SchedOutputs& ref, const SchedOutputs& dut);
  template <class T>
  bool field(uint64_t cycle, const char* signal, T ref, T dut);
  void remember(uint64_t cycle, const SchedInputs& in, const SchedOutputs& ref, const SchedOutputs& dut);

  std::vector<Entry> ring_;
  std::size_t ring_next_ = 0, ring_count_ = 0;
  Mismatch mismatch_;
  SchedOutputs mismatch_ref_, mismatch_dut_;
  uint64_t cycles_checked_ = 0, decisions_checked_ = 0;
};

}  // namespace gs::lockstep
