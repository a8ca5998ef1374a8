// gsched: the one report channel of the policies (docs/cli.md, "Policy reports").
//
// Every record a policy reports -- a policy twin's partitions and profiling windows, an
// analysis policy's decision (the oracle's search, SJF's priorities, EWM's SBM_REG, a static
// HeteroCore mapping) -- is a Report of a kind the spec declares ([[report]] in
// rtl/spec/gs_spec.toml: its fields and tables, each with a type and a doc). A Report refuses a
// field its kind does not declare or a value of another type (std::logic_error: a bug in the
// policy, not bad input), so what the formatters print is what docs/cli.md lists. One text
// formatter (after gsim run's metrics table) and one JSON formatter (gsim run --json) print
// every kind; no policy has formatting code of its own.
#pragma once
#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <type_traits>
#include <variant>
#include <vector>

#include "gs_spec.hpp"
#include "sched/policy_record.hpp"
#include "workload/kernel_desc.hpp"

namespace gs {

/// One value: int (also kName's index), real, text (also a kernel's name), flag, ints.
using ReportValue = std::variant<std::monostate, int64_t, double, std::string, bool, std::vector<int64_t>>;

/// A row of a report's table: cells in the table's column order (monostate: not given).
class ReportRow {
 public:
  explicit ReportRow(const spec::ReportTableInfo& table);
  /// Column `column`; throws std::logic_error when the table has none or `v` has another type.
  template <class T>
  ReportRow& set(const std::string& column, T v);
  const std::vector<ReportValue>& cells() const { return cells_; }
  const ReportValue& at(const std::string& column) const;

 private:
  const spec::ReportTableInfo* table_;
  std::vector<ReportValue> cells_;
};

class Report {
 public:
  explicit Report(spec::ReportKind kind);
  spec::ReportKind kind() const { return kind_; }
  const spec::ReportKindInfo& info() const { return spec::report_kind(kind_); }
  /// A per_edge record's cycle (the clock edge that made it).
  std::optional<uint64_t> cycle;

  /// Field `field`; throws std::logic_error when the kind has none or `v` has another type.
  template <class T>
  Report& set(const std::string& field, T v);
  /// A new row of table `table` (std::logic_error when the kind has none).
  ReportRow& add_row(const std::string& table);

  const std::vector<ReportValue>& fields() const { return fields_; }
  const ReportValue& field(const std::string& name) const;
  const std::vector<ReportRow>& rows(const std::string& table) const;
  const std::vector<std::vector<ReportRow>>& tables() const { return tables_; }

 private:
  spec::ReportKind kind_;
  std::vector<ReportValue> fields_;
  std::vector<std::vector<ReportRow>> tables_;
};

/// A policy twin's record as a Report: its slots' rows become the kernels of the mix (by name).
Report report_of(const PolicyRecord& r, const Mix& mix);
/// report_of() every record, in order.
std::vector<Report> reports_of(const std::vector<PolicyRecord>& records, const Mix& mix);

/// The text after gsim run's metrics table: per_edge records one line each under one heading,
/// then each per-run record as a block with its tables aligned; "" for none. `dropped`: the
/// per_edge records the scheduler had no room for (named on the last line).
std::string format_reports_text(const std::vector<Report>& reports, uint64_t dropped = 0);
/// --json: each per_edge kind as a list under its `json` key, each per-run record as an object
/// under its key; `dropped` as "records_dropped" when non-zero.
void add_reports_json(nlohmann::ordered_json& doc, const std::vector<Report>& reports, uint64_t dropped = 0);
/// One record as a JSON object (per_edge: its "cycle" first).
nlohmann::ordered_json report_json(const Report& r);

// ---- implementation of the typed setters
namespace report_detail {
/// `v` as the ReportValue of type `t`, or throws std::logic_error naming `what`.
ReportValue checked(const spec::ReportFieldInfo& f, ReportValue v, const std::string& what);
template <class T>
ReportValue to_value(T v) {
  if constexpr (std::is_same_v<T, bool>) {
    return v;
  } else if constexpr (std::is_integral_v<T> || std::is_enum_v<T>) {
    return static_cast<int64_t>(v);
  } else if constexpr (std::is_floating_point_v<T>) {
    return static_cast<double>(v);
  } else if constexpr (std::is_convertible_v<T, std::string>) {
    return std::string(v);
  } else {  // a list of integers
    std::vector<int64_t> out;
    for (const auto& x : v) out.push_back(static_cast<int64_t>(x));
    return out;
  }
}
const spec::ReportFieldInfo& find(const spec::ReportFieldInfo* list, uint32_t n, const std::string& name,
                                  const std::string& where, uint32_t& index);
}  // namespace report_detail

template <class T>
ReportRow& ReportRow::set(const std::string& column, T v) {
  uint32_t i = 0;
  const spec::ReportFieldInfo& f = report_detail::find(table_->columns, table_->num_columns, column,
                                                       std::string("table ") + table_->name, i);
  cells_[i] = report_detail::checked(f, report_detail::to_value(v), std::string(table_->name) + "." + column);
  return *this;
}

template <class T>
Report& Report::set(const std::string& field, T v) {
  uint32_t i = 0;
  const spec::ReportFieldInfo& f = report_detail::find(info().fields, info().num_fields, field,
                                                       std::string("report ") + info().name, i);
  fields_[i] = report_detail::checked(f, report_detail::to_value(v), std::string(info().name) + "." + field);
  return *this;
}

}  // namespace gs
