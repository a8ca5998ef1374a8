// gsched: result reports of one `gsim run` -- text table, JSON and CSV (schema: docs/cli.md).
//
// Contract: output is a pure function of its arguments. No timestamps, no host names, and
// every non-integer is rounded to 6 decimals before it is printed, so the same run gives the
// same bytes on every machine. JSON keys come in a fixed order (scripts diff these files).
#pragma once
#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

#include "metrics/metrics.hpp"

namespace gs {

struct CountersSummary;  // metrics/counters_summary.hpp

/// What identifies a run in its reports.
struct RunInfo {
  std::string config;  // GPU config preset name
  std::string mix;     // mix name
  std::string policy;
  std::string scheduler;              // golden | rtl | lockstep
  std::string preempt;                // drain | switch
  std::string sm_sharing = "shared";  // shared | exclusive (gsim --sm-sharing)
  uint64_t seed = 1;
  std::string version;  // "gsim 0.1 (git abc1234)"; JSON "gsim_version" when not empty
};

/// x rounded to 6 decimals (half away from zero); the value reports print.
double round6(double x);
/// Fixed-point text with `decimals` digits after the point ("-0.000" is printed "0.000").
std::string format_fixed(double x, int decimals);
/// RFC 4180: `s` as one CSV field, quoted when it holds a comma, quote or newline.
std::string csv_field(const std::string& s);

/// A fixed-window mix (m.window_cycles != 0) gets its own columns and keys in all three formats
/// (IPC, alone IPC, slowdown, launches and completions per kernel; ANTT_SBM): docs/cli.md.

/// A process mix (m.processes non-empty) gets a process table (runs, completions, mean alone
/// and shared turnaround, NTT, every run's turnaround) and a kernel table (launches,
/// completions, instructions); JSON gains "processes" and its "kernels" rows carry launches and
/// completions; CSV has one row per process (docs/cli.md).

/// Human-readable table: header line, one row per kernel, then STP/ANTT/StrictF/IPC/cycles;
/// with `counters`, then a short counter summary (format_counters_table, counters_report.hpp).
std::string format_table(const RunInfo& info, const MixMetrics& m, const CountersSummary* counters = nullptr);
/// {"config","mix","policy","scheduler","preempt","seed","cycles","stp","antt","strictf",
///  "kernels":[{"name","arrival_cycle","instructions","ipc","cycles_alone","cycles_shared","ntt"}],
///  "counters", "gsim_version"}, indented, newline-terminated ("counters" only with `counters`
///  (counters_json, counters_report.hpp), "gsim_version" only when info.version is set).
std::string format_json(const RunInfo& info, const MixMetrics& m, const CountersSummary* counters = nullptr);
/// The same document as an object, for a caller that adds keys (partitions, a policy's report).
nlohmann::ordered_json json_report(const RunInfo& info, const MixMetrics& m, const CountersSummary* counters = nullptr);
/// Header plus one row per kernel; run-level columns repeat on each row so files from many
/// runs concatenate into one table.
std::string format_csv(const RunInfo& info, const MixMetrics& m);

}  // namespace gs
