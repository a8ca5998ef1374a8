// gsched: Report, its checks and its two formatters (policy_report.hpp).
#include "metrics/policy_report.hpp"

#include <algorithm>
#include <cstdio>
#include <stdexcept>

#include "sched/scheduler_port.hpp"

namespace gs {

namespace report_detail {

const spec::ReportFieldInfo& find(const spec::ReportFieldInfo* list, uint32_t n, const std::string& name,
                                  const std::string& where, uint32_t& index) {
  for (uint32_t i = 0; i < n; ++i)
    if (name == list[i].name) {
      index = i;
      return list[i];
    }
  throw std::logic_error(where + " declares no field '" + name + "' (rtl/spec/gs_spec.toml, [[report]])");
}

ReportValue checked(const spec::ReportFieldInfo& f, ReportValue v, const std::string& what) {
  bool ok = false;
  switch (f.type) {
    case spec::ReportType::kInt: ok = std::holds_alternative<int64_t>(v); break;
    case spec::ReportType::kName:
      ok = std::holds_alternative<int64_t>(v) && std::get<int64_t>(v) >= 0 &&
           std::get<int64_t>(v) < static_cast<int64_t>(f.num_names);
      break;
    case spec::ReportType::kReal:
      if (std::holds_alternative<int64_t>(v)) v = static_cast<double>(std::get<int64_t>(v));
      ok = std::holds_alternative<double>(v);
      break;
    case spec::ReportType::kText:
    case spec::ReportType::kKernel: ok = std::holds_alternative<std::string>(v); break;
    case spec::ReportType::kFlag: ok = std::holds_alternative<bool>(v); break;
    case spec::ReportType::kInts: ok = std::holds_alternative<std::vector<int64_t>>(v); break;
  }
  if (!ok) throw std::logic_error("report field " + what + ": a value of another type than the spec declares");
  return v;
}

}  // namespace report_detail

ReportRow::ReportRow(const spec::ReportTableInfo& table) : table_(&table), cells_(table.num_columns) {}

const ReportValue& ReportRow::at(const std::string& column) const {
  uint32_t i = 0;
  report_detail::find(table_->columns, table_->num_columns, column, std::string("table ") + table_->name, i);
  return cells_[i];
}

Report::Report(spec::ReportKind kind) : kind_(kind), fields_(info().num_fields), tables_(info().num_tables) {}

ReportRow& Report::add_row(const std::string& table) {
  for (uint32_t t = 0; t < info().num_tables; ++t)
    if (table == info().tables[t].name) return tables_[t].emplace_back(info().tables[t]);
  throw std::logic_error(std::string("report ") + info().name + " declares no table '" + table + "'");
}

const ReportValue& Report::field(const std::string& name) const {
  uint32_t i = 0;
  report_detail::find(info().fields, info().num_fields, name, std::string("report ") + info().name, i);
  return fields_[i];
}

const std::vector<ReportRow>& Report::rows(const std::string& table) const {
  for (uint32_t t = 0; t < info().num_tables; ++t)
    if (table == info().tables[t].name) return tables_[t];
  throw std::logic_error(std::string("report ") + info().name + " declares no table '" + table + "'");
}

// ---- a policy twin's record

Report report_of(const PolicyRecord& r, const Mix& mix) {
  Report out(r.kind);
  const spec::ReportKindInfo& k = out.info();
  if (!k.per_edge) throw std::logic_error(std::string("report ") + k.name + " is not a per_edge kind");
  out.cycle = r.cycle;
  for (uint32_t f = 0; f < k.num_fields; ++f)
    if (r.fields_given >> f & 1u) out.set(k.fields[f].name, r.field[f]);
  const spec::ReportTableInfo& t = k.tables[0];  // "kernels" (the generator checks it)
  for (uint32_t slot = 0; slot < PolicyRecord::kMaxSlots; ++slot) {
    if (!(r.slots >> slot & 1u)) continue;
    const KernelId id = r.kernel[slot];
    ReportRow& row = out.add_row(t.name);
    row.set(t.columns[0].name, id < mix.kernels.size() ? mix.kernels[id].kernel : "kernel " + std::to_string(id));
    for (uint32_t c = 1; c < t.num_columns; ++c)
      if (r.columns_given >> c & 1u) row.set(t.columns[c].name, r.cell[slot][c]);
  }
  return out;
}

std::vector<Report> reports_of(const std::vector<PolicyRecord>& records, const Mix& mix) {
  std::vector<Report> out;
  out.reserve(records.size());
  for (const PolicyRecord& r : records) out.push_back(report_of(r, mix));
  return out;
}

// ---- the formatters

namespace {

std::string value_text(const spec::ReportFieldInfo& f, const ReportValue& v) {
  if (const auto* i = std::get_if<int64_t>(&v))
    return f.type == spec::ReportType::kName ? f.names[*i] : std::to_string(*i);
  if (const auto* d = std::get_if<double>(&v)) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.3f", *d);
    return buf;
  }
  if (const auto* s = std::get_if<std::string>(&v)) return *s;
  if (const auto* b = std::get_if<bool>(&v)) return *b ? "yes" : "no";
  if (const auto* l = std::get_if<std::vector<int64_t>>(&v)) {
    std::string out;
    for (int64_t x : *l) out += (out.empty() ? "" : ",") + std::to_string(x);
    return out;
  }
  return {};
}

nlohmann::ordered_json value_json(const spec::ReportFieldInfo& f, const ReportValue& v) {
  if (const auto* i = std::get_if<int64_t>(&v))
    return f.type == spec::ReportType::kName ? nlohmann::ordered_json(f.names[*i]) : nlohmann::ordered_json(*i);
  if (const auto* d = std::get_if<double>(&v)) return *d;
  if (const auto* s = std::get_if<std::string>(&v)) return *s;
  if (const auto* b = std::get_if<bool>(&v)) return *b;
  return std::get<std::vector<int64_t>>(v);
}

/// "name value name value" of the given fields (the per_edge lines; skip_first: not the kernel).
std::string inline_fields(const spec::ReportFieldInfo* info, const std::vector<ReportValue>& values, bool skip_first) {
  std::string out;
  for (size_t i = skip_first ? 1 : 0; i < values.size(); ++i) {
    if (std::holds_alternative<std::monostate>(values[i])) continue;
    out += (out.empty() ? "" : " ") + std::string(info[i].name) + " " + value_text(info[i], values[i]);
  }
  return out;
}

std::string edge_line(const Report& r) {
  const spec::ReportKindInfo& k = r.info();
  char head[48];
  std::snprintf(head, sizeof head, "  cycle %10llu  %-10s", static_cast<unsigned long long>(r.cycle.value_or(0)),
                k.name);
  std::string out = head;
  const std::string fields = inline_fields(k.fields, r.fields(), false);
  if (!fields.empty()) out += " " + fields;
  out += ":";
  const spec::ReportTableInfo& t = k.tables[0];
  bool first = true;
  for (const ReportRow& row : r.tables()[0]) {
    out += first ? " " : ", ";
    first = false;
    out += value_text(t.columns[0], row.cells()[0]);
    const std::string cells = inline_fields(t.columns, row.cells(), true);
    if (!cells.empty()) out += " " + cells;
  }
  return out + "\n";
}

std::string run_block(const Report& r) {
  const spec::ReportKindInfo& k = r.info();
  std::string out = "\n" + std::string(k.name) + ": " + k.doc + "\n";
  for (uint32_t f = 0; f < k.num_fields; ++f)
    if (!std::holds_alternative<std::monostate>(r.fields()[f]))
      out += "  " + std::string(k.fields[f].name) + ": " + value_text(k.fields[f], r.fields()[f]) + "\n";
  for (uint32_t t = 0; t < k.num_tables; ++t) {
    const spec::ReportTableInfo& ti = k.tables[t];
    const std::vector<ReportRow>& rows = r.tables()[t];
    if (rows.empty()) continue;
    out += "  " + std::string(ti.name) + (ti.doc[0] ? std::string(" (") + ti.doc + ")" : std::string()) + ":\n";
    // a column no row gives is left out; the others are as wide as their widest cell
    std::vector<size_t> width(ti.num_columns, 0);
    std::vector<std::vector<std::string>> cells(rows.size(), std::vector<std::string>(ti.num_columns));
    for (uint32_t c = 0; c < ti.num_columns; ++c)
      for (size_t i = 0; i < rows.size(); ++i)
        if (!std::holds_alternative<std::monostate>(rows[i].cells()[c])) {
          cells[i][c] = value_text(ti.columns[c], rows[i].cells()[c]);
          width[c] = std::max({width[c], cells[i][c].size(), std::string(ti.columns[c].name).size()});
        }
    const auto line = [&](const std::vector<std::string>& text) {
      std::string l = "   ";
      for (uint32_t c = 0; c < ti.num_columns; ++c)
        if (width[c]) l += " " + text[c] + std::string(width[c] - text[c].size() + (c + 1 < ti.num_columns), ' ');
      while (!l.empty() && l.back() == ' ') l.pop_back();
      return l + "\n";
    };
    std::vector<std::string> names(ti.num_columns);
    for (uint32_t c = 0; c < ti.num_columns; ++c) names[c] = ti.columns[c].name;
    out += line(names);
    for (const std::vector<std::string>& row : cells) out += line(row);
  }
  return out;
}

}  // namespace

std::string format_reports_text(const std::vector<Report>& reports, uint64_t dropped) {
  std::string edges, runs;
  for (const Report& r : reports) (r.info().per_edge ? edges : runs) += r.info().per_edge ? edge_line(r) : run_block(r);
  if (dropped)
    edges += "  ... and " + std::to_string(dropped) + " more (the scheduler keeps at most " +
             std::to_string(SchedulerPort::kMaxRecords) + ")\n";
  if (!edges.empty()) edges = "\npolicy records (docs/cli.md, \"Policy reports\"):\n" + edges;
  return edges + runs;
}

nlohmann::ordered_json report_json(const Report& r) {
  const spec::ReportKindInfo& k = r.info();
  nlohmann::ordered_json j = nlohmann::ordered_json::object();
  if (k.per_edge) j["cycle"] = r.cycle.value_or(0);
  for (uint32_t f = 0; f < k.num_fields; ++f)
    if (!std::holds_alternative<std::monostate>(r.fields()[f]))
      j[k.fields[f].name] = value_json(k.fields[f], r.fields()[f]);
  for (uint32_t t = 0; t < k.num_tables; ++t) {
    const spec::ReportTableInfo& ti = k.tables[t];
    nlohmann::ordered_json rows = nlohmann::ordered_json::array();
    for (const ReportRow& row : r.tables()[t]) {
      nlohmann::ordered_json o = nlohmann::ordered_json::object();
      for (uint32_t c = 0; c < ti.num_columns; ++c)
        if (!std::holds_alternative<std::monostate>(row.cells()[c]))
          o[ti.columns[c].name] = value_json(ti.columns[c], row.cells()[c]);
      rows.push_back(std::move(o));
    }
    j[ti.name] = std::move(rows);
  }
  return j;
}

void add_reports_json(nlohmann::ordered_json& doc, const std::vector<Report>& reports, uint64_t dropped) {
  for (const Report& r : reports) {
    const char* key = r.info().json;
    if (r.info().per_edge) {
      if (!doc.contains(key)) doc[key] = nlohmann::ordered_json::array();
      doc[key].push_back(report_json(r));
    } else {
      doc[key] = report_json(r);
    }
  }
  if (dropped) doc["records_dropped"] = dropped;
}

}  // namespace gs
