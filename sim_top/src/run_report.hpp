// gsim run: what it writes about a finished run -- the metrics table and the policy's records on
// stdout, --json, --ctas and --timeline (docs/cli.md). The policies' records go through the one
// report channel (cmodel/metrics/policy_report.hpp); nothing here knows a policy.
#pragma once
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "config/gpu_config.hpp"
#include "gpu/gpu.hpp"
#include "metrics/counters_summary.hpp"
#include "metrics/mix_runner.hpp"
#include "metrics/policy_report.hpp"
#include "metrics/report.hpp"

namespace gsim {

/// One finished gsim run, as its outputs present it.
struct RunReport {
  const gs::RunInfo& info;
  const gs::Mix& mix;
  const gs::MixRun& result;
  const gs::CountersSummary& counters;
  /// The shared run's policy records, then what an analysis policy decided.
  std::vector<gs::Report> reports;
  uint64_t records_dropped = 0;
};

/// The policy's records of the shared run and an analysis policy's reports, in that order.
std::vector<gs::Report> collect_reports(const gs::MixRun& result, const gs::Mix& mix,
                                        std::vector<gs::Report> strategy_reports);

/// stdout: the metrics table, then the reports.
std::string run_report_text(const RunReport& r);
/// --json: the metrics (metrics/report.hpp's json_report) with the reports.
nlohmann::ordered_json run_report_json(const RunReport& r);
/// --ctas: one CSV row per CTA the shared run finished or preempted, in the order the SMs
/// reported them (deterministic): kernel name, CTA index, SM, start and end cycle.
std::string format_cta_records(const gs::RunResult& r, const gs::Mix& mix);
/// --timeline: the shared run's SM occupancy over time, for sim_top/plots/timeline.py
/// (docs/cli.md, "--timeline"): every CTA interval on its SM, whether it finished or was
/// context-saved, and every preemption command.
std::string format_timeline(const gs::RunInfo& info, const gs::GpuConfig& cfg, const gs::RunResult& r,
                            const gs::Mix& mix);

}  // namespace gsim
