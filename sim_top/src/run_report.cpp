// gsim run's outputs about a finished run (run_report.hpp).
#include "run_report.hpp"

#include <utility>

namespace gsim {

std::vector<gs::Report> collect_reports(const gs::MixRun& result, const gs::Mix& mix,
                                        std::vector<gs::Report> strategy_reports) {
  std::vector<gs::Report> out = gs::reports_of(result.shared.records, mix);
  for (gs::Report& r : strategy_reports) out.push_back(std::move(r));
  return out;
}

std::string run_report_text(const RunReport& r) {
  return gs::format_table(r.info, r.result.metrics, &r.counters) +
         gs::format_reports_text(r.reports, r.records_dropped);
}

nlohmann::ordered_json run_report_json(const RunReport& r) {
  nlohmann::ordered_json json = gs::json_report(r.info, r.result.metrics, &r.counters);
  gs::add_reports_json(json, r.reports, r.records_dropped);
  return json;
}

std::string format_cta_records(const gs::RunResult& r, const gs::Mix& mix) {
  std::string out = "kernel,cta,sm,start_cycle,end_cycle\n";
  for (const gs::CtaRecord& c : r.ctas) {
    out += mix.kernels.at(c.kernel).kernel + "," + std::to_string(c.cta) + "," + std::to_string(c.sm) + "," +
           std::to_string(c.start_cycle) + "," + std::to_string(c.end_cycle) + "\n";
  }
  return out;
}

std::string format_timeline(const gs::RunInfo& info, const gs::GpuConfig& cfg, const gs::RunResult& r,
                            const gs::Mix& mix) {
  nlohmann::json j;
  j["format"] = "gsched-timeline-1";
  j["config"] = info.config;
  j["mix"] = info.mix;
  j["policy"] = info.policy;
  j["preempt"] = info.preempt;
  j["sm_sharing"] = info.sm_sharing;
  j["seed"] = info.seed;
  j["sms"] = cfg.num_sms();
  j["cycles"] = r.cycles;
  nlohmann::json kernels = nlohmann::json::array();
  for (const gs::KernelResult& k : r.kernels)
    kernels.push_back({{"id", k.id},
                       {"name", k.name},
                       {"priority", mix.kernels.at(k.id).priority},
                       {"arrival_cycle", k.arrival_cycle},
                       {"end_cycle", k.end_cycle},
                       {"ctas", k.ctas}});
  j["kernels"] = std::move(kernels);
  // Columns, not objects: a 132-SM run has tens of thousands of CTAs.
  j["cta_columns"] = {"kernel", "cta", "sm", "start_cycle", "end_cycle", "saved"};
  nlohmann::json ctas = nlohmann::json::array();
  for (const gs::CtaRecord& c : r.ctas)
    ctas.push_back({c.kernel, c.cta, c.sm, c.start_cycle, c.end_cycle, c.saved ? 1 : 0});
  j["ctas"] = std::move(ctas);
  nlohmann::json pre = nlohmann::json::array();
  for (const gs::PreemptRecord& p : r.preempts)
    pre.push_back({{"cycle", p.cycle},
                   {"sm", p.sm},
                   {"mode", p.mode == gs::PreemptMode::kSwitch ? "switch" : "drain"},
                   {"victim", p.victim == gs::kNoKernel ? nlohmann::json(nullptr) : nlohmann::json(p.victim)}});
  j["preemptions"] = std::move(pre);
  return j.dump(1) + "\n";
}

}  // namespace gsim
