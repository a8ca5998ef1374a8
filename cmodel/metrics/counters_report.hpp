// gsched: the counter summary of one `gsim run` as JSON, CSV and a short table
// (schema: docs/cli.md, "Counters"; definitions: docs/metrics.md, "Counters").
//
// Same contract as report.hpp: a pure function of the arguments, non-integers rounded to 6
// decimals (3 in the table), keys and rows in a fixed order, so equal runs give equal bytes.
#pragma once
#include <string>

#include <nlohmann/json.hpp>

#include "metrics/counters_summary.hpp"
#include "metrics/report.hpp"

namespace gs {

/// The "counters" object of the --json report: {"dram", "gpu", "kernels": [{"name", "all",
/// "sm_types": [{"sm_type", ...}]}]}.
nlohmann::ordered_json counters_json(const CountersSummary& c);
/// The --counters file: header (counters_csv_header()), then per kernel one row per SM type and
/// one row for all SMs (sm_type "all"), then one GPU-wide row (kernel "all", sm_type "all").
std::string format_counters_csv(const RunInfo& info, const CountersSummary& c);
/// The CSV header line of format_counters_csv (without the newline).
std::string counters_csv_header();
/// A few lines for the `gsim run` table: per kernel on all SMs, then DRAM GPU-wide.
std::string format_counters_table(const CountersSummary& c);

}  // namespace gs
