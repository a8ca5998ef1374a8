// gsched lockstep: the state check -- the scheduler's tables of REF (golden) and DUT (RTL),
// compared after every cycle, so that a corrupted table is caught where it is corrupted and
// not thousands of cycles later when a decision finally depends on it.
//
// Contract: check(cycle, golden, dut) compares one table checker after the other, in a fixed
// order -- KSRT, SMST (entries, then resident CTA counts), PTBQ (count, and the head where the
// queue is not empty), Active Queue ranks, quota table, the selected policy's registers, the SM
// driver's ready bitmap, dirty rows and wait count ("SMD[3].ready", "SMD[3].dirty", "SMD.waits") --
// entry by entry, and an entry field by
// field in spec order (for_each_field(), generated from rtl/spec/gs_spec.toml). It stops at the
// first difference (a free KSRT slot's fields and an empty PTBQ's head are don't-care, as the
// port's invalid records are); mismatch() names it "TABLE[index].field" ("KSRT[2].next_cta",
// "SMST[3].resident[1]" = SM 3's CTAs of slot 1, "PTBQ[0].head", "AQ[1].rank", "QUOTA[3][1]" =
// SM 3, slot 1, "POLICY.gs_policy_ppq.seen" = a field of the module's `state` record, leaf
// fields of nested records as "scan.busy") with the REF and DUT values. Only the config's SMs
// are compared (the golden holds no others). Each table keeps its own mismatch count and first
// mismatch (the difftest model).
// Cost: a few hundred integer compares per call, no allocation unless a difference is found;
// the DUT side is decoded only when its bits change (GsTopDriver::tables()), and
// LockstepScheduler calls check() only when a side changed since the last call.
#pragma once
#include <cstdint>
#include <string>

#include "lockstep/record_checker.hpp"
#include "lockstep/sched_tables.hpp"
#include "sched/golden/golden_types.hpp"

namespace gs {
class GoldenScheduler;
}

namespace gs::lockstep {

class StateChecker {
 public:
  enum Table : unsigned { kKsrt, kSmst, kPtbq, kActiveQueue, kQuota, kPolicy, kSmd, kTables };

  void reset();
  /// Compares the tables after one cycle. Returns true when REF and DUT agree; false records mismatch().
  bool check(uint64_t cycle, const GoldenScheduler& ref, const SchedTables& dut);

  const Mismatch& mismatch() const { return mismatch_; }
  uint64_t cycles_checked() const { return cycles_checked_; }
  /// Per table: mismatches since reset and the first one ("KSRT", "SMST", "PTBQ", "AQ", "QUOTA",
  /// "POLICY", "SMD").
  static const char* table_name(Table t);
  uint64_t mismatches(Table t) const { return tables_[t].mismatches; }
  const Mismatch& first_mismatch(Table t) const { return tables_[t].first; }

 private:
  struct TableCounts {
    uint64_t mismatches = 0;
    Mismatch first;
  };
  bool check_ksrt(uint64_t cycle, const GoldenScheduler& ref, const SchedTables& dut);
  bool check_smst(uint64_t cycle, const GoldenScheduler& ref, const SchedTables& dut);
  bool check_ptbq(uint64_t cycle, const GoldenScheduler& ref, const SchedTables& dut);
  bool check_active_queue(uint64_t cycle, const GoldenScheduler& ref, const SchedTables& dut);
  bool check_quota(uint64_t cycle, const GoldenScheduler& ref, const SchedTables& dut);
  bool check_policy(uint64_t cycle, const GoldenScheduler& ref, const SchedTables& dut);
  bool check_smd(uint64_t cycle, const GoldenScheduler& ref, const SchedTables& dut);
  /// One record entry: on a difference, names its first differing field.
  template <class Rec>
  bool entry(uint64_t cycle, Table t, uint32_t index, const Rec& ref, const Rec& dut);
  /// One counter; `field` is appended to "TABLE[index]" (e.g. ".count", ".resident[1]", "[1]").
  bool value(uint64_t cycle, Table t, uint32_t index, const char* field, uint32_t ref, uint32_t dut);
  void fail(uint64_t cycle, Table t, uint32_t index, const std::string& field, std::string ref, std::string dut);
  void fail_named(uint64_t cycle, Table t, std::string signal, std::string ref, std::string dut);

  TableCounts tables_[kTables];
  golden::PolicyState ref_policy_state_;  // scratch for the golden's state (no allocation per call)
  Mismatch mismatch_;
  uint64_t cycles_checked_ = 0;
};

}  // namespace gs::lockstep
