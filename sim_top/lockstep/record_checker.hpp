// gsched lockstep: one checker per gs_top output record (OpenXiangShan difftest's per-probe
// checkers: each with its own counters and its own first-mismatch report).
//
// Contract: RecordChecker<R> compares one decision record (DispatchCmd, PreemptCmd, QuotaCmd,
// BypassCmd) of REF and DUT per cycle, as the model consumes it: the valid bits must agree, and
// the fields matter -- and are compared -- only when valid. On a difference it names the first
// differing field in spec order (for_each_field(), generated from rtl/spec/gs_spec.toml by
// rtl/spec/gen_spec.py), as the gs_top port that carries it: "<port>_<field>_o", e.g.
// "dispatch_cta_o". LaunchReadyChecker does the same for the launch_ready_o bit.
// The pass path is one record compare; text is built only for a mismatch.
#pragma once
#include <cstdint>
#include <string>

#include "sched/scheduler_port.hpp"

namespace gs::lockstep {

/// One difference between REF (golden) and DUT (RTL).
struct Mismatch {
  uint64_t cycle = 0;
  std::string signal;     // gs_top port ("dispatch_sm_o") or table entry field ("KSRT[2].next_cta")
  std::string ref;        // golden value
  std::string dut;        // RTL value
  bool in_state = false;  // found by the state check (a table), not on the port
};

template <class Record>
class RecordChecker {
 public:
  /// `port`: the record's gs_top port prefix, e.g. "dispatch".
  explicit RecordChecker(const char* port) : port_(port) {}

  void reset() {
    checked_ = mismatches_ = 0;
    first_ = Mismatch{};
  }

  /// Compares one cycle's records; false on a difference (first_mismatch() keeps the first).
  bool check(uint64_t cycle, const Record& ref, const Record& dut) {
    if (ref.valid) ++checked_;
    if (ref.valid == dut.valid && (!ref.valid || ref == dut)) return true;
    Mismatch m;
    m.cycle = cycle;
    for_each_field(ref, dut, [&](const char* field, const auto& r, const auto& d) {
      if (r == d) return true;
      m.signal = std::string(port_) + "_" + field + "_o";
      m.ref = field_str(r);
      m.dut = field_str(d);
      return false;
    });
    last_ = m;
    if (mismatches_++ == 0) first_ = m;
    return false;
  }

  const char* port() const { return port_; }
  /// Cycles whose REF record was valid (decisions compared field by field).
  uint64_t checked() const { return checked_; }
  uint64_t mismatches() const { return mismatches_; }
  /// The first difference since reset (meaningful when mismatches() > 0).
  const Mismatch& first_mismatch() const { return first_; }
  /// The difference of the last failing check().
  const Mismatch& last_mismatch() const { return last_; }

 private:
  const char* port_;
  uint64_t checked_ = 0, mismatches_ = 0;
  Mismatch first_, last_;
};

/// launch_ready_o: a single bit, compared every cycle.
class LaunchReadyChecker {
 public:
  void reset() {
    mismatches_ = 0;
    first_ = Mismatch{};
  }
  bool check(uint64_t cycle, bool ref, bool dut) {
    if (ref == dut) return true;
    last_ = Mismatch{cycle, "launch_ready_o", field_str(ref), field_str(dut)};
    if (mismatches_++ == 0) first_ = last_;
    return false;
  }
  uint64_t mismatches() const { return mismatches_; }
  const Mismatch& first_mismatch() const { return first_; }
  const Mismatch& last_mismatch() const { return last_; }

 private:
  uint64_t mismatches_ = 0;
  Mismatch first_, last_;
};

}  // namespace gs::lockstep
