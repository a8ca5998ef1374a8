// gsched: a record a policy twin makes at a clock edge for the run's report -- a partition it
// put in force, a profiling window it closed -- of a `per_edge` kind of the spec's [[report]]
// entries (rtl/spec/gs_spec.toml). Fixed size, so the golden scheduler keeps them in capacity
// reserved at reset and the cycle path allocates nothing. The formatters of
// cmodel/metrics/policy_report.hpp print them; docs/cli.md ("Policy reports") lists the kinds.
#pragma once
#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "gs_spec.hpp"

namespace gs {

struct PolicyRecord {
  static constexpr uint32_t kMaxSlots = 32;
  static_assert(spec::MaxKernels <= kMaxSlots, "a record covers every KSRT slot");

  spec::ReportKind kind{};
  uint64_t cycle = 0;          // the framework's: the cycle whose clock edge made it
  uint32_t fields_given = 0;   // bit f: field f was set
  uint32_t columns_given = 0;  // bit c: column c was set for some slot
  std::array<int64_t, spec::kReportEdgeFields> field{};
  /// The KSRT slots the record covers (its "kernels" rows, in slot order), and each one's
  /// kernel (the framework's, from the KSRT when it keeps the record).
  uint32_t slots = 0;
  std::array<KernelId, kMaxSlots> kernel{};
  std::array<std::array<int64_t, spec::kReportEdgeColumns>, kMaxSlots> cell{};

  /// Field `f` of the kind (spec::<Kind>Report::k<Field>).
  void set(uint32_t f, int64_t v) {
    field[f] = v;
    fields_given |= 1u << f;
  }
  /// The record covers `slot` (a row even with no column set).
  void cover(uint32_t slot) { slots |= 1u << slot; }
  /// Column `c` of slot's row (spec::<Kind>Report::k<Column>); covers the slot.
  void set(uint32_t slot, uint32_t c, int64_t v) {
    cover(slot);
    cell[slot][c] = v;
    columns_given |= 1u << c;
  }
};

/// Where a policy twin puts the records a clock edge made (PolicyTwin::report): add() hands out
/// a cleared record of `kind`; the framework fills its cycle and kernels. A full store counts
/// the record as dropped and hands out scratch space.
class PolicyRecordSink {
 public:
  virtual ~PolicyRecordSink() = default;
  virtual PolicyRecord& add(spec::ReportKind kind) = 0;
};

/// The store a scheduler keeps its policy's records in: capacity for
/// SchedulerPort::kMaxRecords reserved at reset() (the records past it are counted, not kept).
class PolicyRecordStore final : public PolicyRecordSink {
 public:
  explicit PolicyRecordStore(size_t capacity) : capacity_(capacity) {}
  void reset() {
    list_.clear();
    list_.reserve(capacity_);
    dropped_ = 0;
  }
  PolicyRecord& add(spec::ReportKind kind) override {
    PolicyRecord& r = list_.size() < capacity_ ? list_.emplace_back() : (++dropped_, scratch_ = PolicyRecord{});
    r.kind = kind;
    return r;
  }
  const std::vector<PolicyRecord>& list() const { return list_; }
  std::vector<PolicyRecord>& list() { return list_; }
  uint64_t dropped() const { return dropped_; }

 private:
  size_t capacity_;
  std::vector<PolicyRecord> list_;
  uint64_t dropped_ = 0;
  PolicyRecord scratch_;
};

}  // namespace gs
