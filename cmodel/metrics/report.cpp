// gsched: run reports (contract in report.hpp).
#include "metrics/report.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <nlohmann/json.hpp>

#include "metrics/counters_report.hpp"

namespace gs {

double round6(double x) {
  const double r = std::round(x * 1e6) / 1e6;
  return r == 0 ? 0.0 : r;  // no negative zero in reports
}

std::string format_fixed(double x, int decimals) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, x);
  std::string s(buf);
  // "-0.000" reads as a sign error; a value that rounds to zero prints unsigned.
  if (s[0] == '-' && s.find_first_not_of("-0.") == std::string::npos) s.erase(0, 1);
  return s;
}

namespace {

std::string pad_left(const std::string& s, size_t width) {
  return s.size() >= width ? s : std::string(width - s.size(), ' ') + s;
}

std::string pad_right(const std::string& s, size_t width) {
  return s.size() >= width ? s : s + std::string(width - s.size(), ' ');
}

/// Right-aligned columns (the first left-aligned), two spaces apart, no trailing blanks.
std::string aligned_rows(const std::vector<std::vector<std::string>>& rows) {
  std::vector<size_t> width;
  for (const auto& r : rows)
    for (size_t c = 0; c < r.size(); ++c) {
      if (width.size() <= c) width.push_back(0);
      width[c] = std::max(width[c], r[c].size());
    }
  std::string out;
  for (const auto& r : rows) {
    std::string line;
    for (size_t c = 0; c < r.size(); ++c)
      line += (c ? "  " : "") + (c == 0 ? pad_right(r[c], width[c]) : pad_left(r[c], width[c]));
    while (!line.empty() && line.back() == ' ') line.pop_back();
    out += line + "\n";
  }
  return out;
}

std::string run_title(const RunInfo& info) {
  return "config " + info.config + ", mix " + info.mix + ", policy " + info.policy +
         (info.sm_sharing == "shared" ? "" : ", SMs " + info.sm_sharing) + ", scheduler " + info.scheduler +
         ", preempt " + info.preempt + ", seed " + std::to_string(info.seed) + "\n\n";
}

// ---- fixed-window mixes (MixMetrics::window_cycles != 0)

std::string window_table(const RunInfo& info, const MixMetrics& m) {
  std::vector<std::vector<std::string>> rows{
      {"kernel", "arrival", "launches", "completed", "warp_insts", "IPC(warp)", "IPC_alone", "IPC_alone/IPC"}};
  for (const KernelMetrics& k : m.kernels)
    rows.push_back({k.name, std::to_string(k.arrival_cycle), std::to_string(k.launches), std::to_string(k.completions),
                    std::to_string(k.instructions), format_fixed(k.ipc, 3), format_fixed(k.ipc_alone, 3),
                    format_fixed(k.ntt, 3)});
  std::string out = run_title(info) + aligned_rows(rows) + "\n";
  out += "WINDOW   " + std::to_string(m.window_cycles) + " cycles" +
         (m.window_start != 0 ? " from cycle " + std::to_string(m.window_start) : std::string()) +
         ": every kernel relaunched when it finished; figures over the window (alone: the same window)\n";
  out += "ANTT_SBM " + format_fixed(m.antt_sbm, 3) + "   (sum IPC_alone/IPC, SBM Sec. 6.2, lower is better)\n";
  out += "ANTT     " + format_fixed(m.antt, 3) + "   (mean IPC_alone/IPC, lower is better)\n";
  out += "STP      " + format_fixed(m.stp, 3) + "   (sum IPC/IPC_alone, higher is better)\n";
  out += "StrictF  " + format_fixed(m.strictf, 3) + "   (min slowdown / max slowdown, 1 = fair)\n";
  out += "IPC      " + format_fixed(m.ipc, 3) + "   (all warp instructions in the window / window cycles)\n";
  return out;
}

nlohmann::ordered_json window_kernels_json(const MixMetrics& m) {
  nlohmann::ordered_json kernels = nlohmann::ordered_json::array();
  for (const KernelMetrics& k : m.kernels) {
    nlohmann::ordered_json jk;
    jk["name"] = k.name;
    jk["arrival_cycle"] = k.arrival_cycle;
    jk["priority"] = k.priority;
    jk["launches"] = k.launches;
    jk["completions"] = k.completions;
    jk["instructions"] = k.instructions;
    jk["ipc"] = round6(k.ipc);
    jk["instructions_alone"] = k.instructions_alone;
    jk["ipc_alone"] = round6(k.ipc_alone);
    jk["ntt"] = round6(k.ntt);
    kernels.push_back(std::move(jk));
  }
  return kernels;
}

std::string window_csv(const RunInfo& info, const MixMetrics& m) {
  std::string out =
      "config,mix,policy,scheduler,preempt,sm_sharing,seed,window_cycles,kernel,arrival,priority,launches,completions,"
      "instructions,ipc,instructions_alone,ipc_alone,ntt\n";
  for (const KernelMetrics& k : m.kernels) {
    out += csv_field(info.config) + "," + csv_field(info.mix) + "," + csv_field(info.policy) + "," +
           csv_field(info.scheduler) + "," + csv_field(info.preempt) + "," + csv_field(info.sm_sharing) + "," +
           std::to_string(info.seed) + "," + std::to_string(m.window_cycles) + "," + csv_field(k.name) + "," +
           std::to_string(k.arrival_cycle) + "," + std::to_string(k.priority) + "," + std::to_string(k.launches) + "," +
           std::to_string(k.completions) + "," + std::to_string(k.instructions) + "," + format_fixed(k.ipc, 6) + "," +
           std::to_string(k.instructions_alone) + "," + format_fixed(k.ipc_alone, 6) + "," + format_fixed(k.ntt, 6) +
           "\n";
  }
  return out;
}

// ---- process mixes (MixMetrics::processes non-empty)

// The first `n` turnarounds, then how many more (all of them are in --json).
std::string join_cycles(const std::vector<uint64_t>& v, size_t n) {
  std::string out;
  for (size_t i = 0; i < v.size() && i < n; ++i) out += (out.empty() ? "" : " ") + std::to_string(v[i]);
  if (v.size() > n) out += " (+" + std::to_string(v.size() - n) + " replays)";
  return out;
}

std::string process_table(const RunInfo& info, const MixMetrics& m) {
  std::vector<std::vector<std::string>> rows{
      {"process", "prio", "runs", "completed", "mean_alone", "mean_shared", "NTT", "first turnarounds"}};
  for (const ProcessMetrics& p : m.processes)
    rows.push_back({p.name, std::to_string(p.priority), std::to_string(p.runs), std::to_string(p.turnarounds.size()),
                    format_fixed(p.mean_alone, 1), format_fixed(p.mean_shared, 1), format_fixed(p.ntt, 3),
                    join_cycles(p.turnarounds, p.runs)});
  std::vector<std::vector<std::string>> krows{{"kernel", "launches", "completed", "warp_insts", "IPC(warp)"}};
  for (const KernelMetrics& k : m.kernels)
    krows.push_back({k.name, std::to_string(k.launches), std::to_string(k.completions), std::to_string(k.instructions),
                     format_fixed(k.ipc, 3)});
  std::string out = run_title(info) + aligned_rows(rows) + "\n" + aligned_rows(krows) + "\n";
  out += "PROCESSES every process replayed until each completed its runs (Tanasic Sec. 4.1); NTT = mean turnaround "
         "of its completed runs / mean alone\n";
  out += "STP      " + format_fixed(m.stp, 3) + "   (sum over processes of 1/NTT, higher is better)\n";
  out += "ANTT     " + format_fixed(m.antt, 3) + "   (mean process NTT, lower is better)\n";
  out += "StrictF  " + format_fixed(m.strictf, 3) + "   (min slowdown / max slowdown, 1 = fair)\n";
  out += "IPC      " + format_fixed(m.ipc, 3) + "   (all warp instructions / cycles of the run)\n";
  out += "cycles   " + std::to_string(m.cycles) + "\n";
  return out;
}

nlohmann::ordered_json process_json(const MixMetrics& m) {
  nlohmann::ordered_json procs = nlohmann::ordered_json::array();
  for (const ProcessMetrics& p : m.processes) {
    nlohmann::ordered_json jp;
    jp["name"] = p.name;
    jp["priority"] = p.priority;
    jp["runs"] = p.runs;
    jp["completed"] = p.turnarounds.size();
    jp["turnarounds"] = p.turnarounds;
    jp["turnarounds_alone"] = p.turnarounds_alone;
    jp["mean_alone"] = round6(p.mean_alone);
    jp["mean_shared"] = round6(p.mean_shared);
    jp["mean_shared_first_runs"] = round6(p.mean_first);
    jp["ntt"] = round6(p.ntt);
    procs.push_back(std::move(jp));
  }
  return procs;
}

nlohmann::ordered_json process_kernels_json(const MixMetrics& m) {
  nlohmann::ordered_json kernels = nlohmann::ordered_json::array();
  for (const KernelMetrics& k : m.kernels) {
    nlohmann::ordered_json jk;
    jk["name"] = k.name;
    jk["priority"] = k.priority;
    jk["launches"] = k.launches;
    jk["completions"] = k.completions;
    jk["instructions"] = k.instructions;
    jk["ipc"] = round6(k.ipc);
    kernels.push_back(std::move(jk));
  }
  return kernels;
}

std::string process_csv(const RunInfo& info, const MixMetrics& m) {
  std::string out =
      "config,mix,policy,scheduler,preempt,sm_sharing,seed,process,priority,runs,completed,mean_alone,mean_shared,"
      "ntt\n";
  for (const ProcessMetrics& p : m.processes)
    out += csv_field(info.config) + "," + csv_field(info.mix) + "," + csv_field(info.policy) + "," +
           csv_field(info.scheduler) + "," + csv_field(info.preempt) + "," + csv_field(info.sm_sharing) + "," +
           std::to_string(info.seed) + "," + csv_field(p.name) + "," + std::to_string(p.priority) + "," +
           std::to_string(p.runs) + "," + std::to_string(p.turnarounds.size()) + "," + format_fixed(p.mean_alone, 6) +
           "," + format_fixed(p.mean_shared, 6) + "," + format_fixed(p.ntt, 6) + "\n";
  return out;
}

}  // namespace

std::string csv_field(const std::string& s) {
  if (s.find_first_of(",\"\n\r") == std::string::npos) return s;
  std::string q = "\"";  // RFC 4180: inner quotes doubled
  for (char c : s) q += (c == '"') ? std::string("\"\"") : std::string(1, c);
  return q + "\"";
}

std::string format_table(const RunInfo& info, const MixMetrics& m, const CountersSummary* counters) {
  if (m.window_cycles != 0)
    return window_table(info, m) + (counters ? "\n" + format_counters_table(*counters) : std::string());
  if (!m.processes.empty())
    return process_table(info, m) + (counters ? "\n" + format_counters_table(*counters) : std::string());
  struct Column {
    const char* title;
    bool left;
  };
  const Column cols[] = {{"kernel", true}, {"arrival", false},   {"cycles_alone", false}, {"cycles_shared", false},
                         {"NTT", false},   {"IPC(warp)", false}, {"warp_insts", false}};
  constexpr size_t kCols = sizeof cols / sizeof cols[0];

  std::vector<std::vector<std::string>> rows;
  for (const KernelMetrics& k : m.kernels) {
    rows.push_back({k.name, std::to_string(k.arrival_cycle), std::to_string(k.cycles_alone),
                    std::to_string(k.cycles_shared), format_fixed(k.ntt, 3), format_fixed(k.ipc, 3),
                    std::to_string(k.instructions)});
  }
  size_t width[kCols];
  for (size_t c = 0; c < kCols; ++c) {
    width[c] = std::string(cols[c].title).size();
    for (const auto& r : rows) width[c] = std::max(width[c], r[c].size());
  }
  auto line = [&](const std::vector<std::string>& cells) {
    std::string out;
    for (size_t c = 0; c < kCols; ++c) {
      if (c) out += "  ";
      out += cols[c].left ? pad_right(cells[c], width[c]) : pad_left(cells[c], width[c]);
    }
    while (!out.empty() && out.back() == ' ') out.pop_back();
    return out + "\n";
  };

  std::string out = "config " + info.config + ", mix " + info.mix + ", policy " + info.policy +
                    (info.sm_sharing == "shared" ? "" : ", SMs " + info.sm_sharing) + ", scheduler " + info.scheduler +
                    ", preempt " + info.preempt + ", seed " + std::to_string(info.seed) + "\n\n";
  std::vector<std::string> header;
  for (const Column& c : cols) header.emplace_back(c.title);
  out += line(header);
  for (const auto& r : rows) out += line(r);
  out += "\n";
  out += "STP      " + format_fixed(m.stp, 3) + "   (sum T_alone/T_shared, higher is better)\n";
  out += "ANTT     " + format_fixed(m.antt, 3) + "   (mean T_shared/T_alone, lower is better)\n";
  out += "StrictF  " + format_fixed(m.strictf, 3) + "   (min slowdown / max slowdown, 1 = fair)\n";
  out += "IPC      " + format_fixed(m.ipc, 3) + "   (all warp instructions / cycles until all finish)\n";
  out += "cycles   " + std::to_string(m.cycles) + "\n";
  if (counters) out += "\n" + format_counters_table(*counters);
  return out;
}

std::string format_json(const RunInfo& info, const MixMetrics& m, const CountersSummary* counters) {
  return json_report(info, m, counters).dump(2) + "\n";
}

nlohmann::ordered_json json_report(const RunInfo& info, const MixMetrics& m, const CountersSummary* counters) {
  nlohmann::ordered_json j;
  j["config"] = info.config;
  j["mix"] = info.mix;
  j["policy"] = info.policy;
  j["scheduler"] = info.scheduler;
  j["preempt"] = info.preempt;
  j["sm_sharing"] = info.sm_sharing;
  j["seed"] = info.seed;
  j["cycles"] = m.cycles;
  if (m.window_cycles != 0) {
    j["window_cycles"] = m.window_cycles;
    if (m.window_start != 0) j["window_start"] = m.window_start;
    j["ipc"] = round6(m.ipc);
  }
  j["stp"] = round6(m.stp);
  j["antt"] = round6(m.antt);
  if (m.window_cycles != 0) j["antt_sbm"] = round6(m.antt_sbm);
  j["strictf"] = round6(m.strictf);
  nlohmann::ordered_json kernels = nlohmann::ordered_json::array();
  for (const KernelMetrics& k : m.kernels) {
    nlohmann::ordered_json jk;
    jk["name"] = k.name;
    jk["arrival_cycle"] = k.arrival_cycle;
    jk["priority"] = k.priority;
    jk["instructions"] = k.instructions;
    jk["ipc"] = round6(k.ipc);
    jk["cycles_alone"] = k.cycles_alone;
    jk["cycles_shared"] = k.cycles_shared;
    jk["ntt"] = round6(k.ntt);
    kernels.push_back(std::move(jk));
  }
  if (!m.processes.empty()) j["processes"] = process_json(m);
  j["kernels"] = m.window_cycles != 0   ? window_kernels_json(m)
                 : !m.processes.empty() ? process_kernels_json(m)
                                        : std::move(kernels);
  if (counters) j["counters"] = counters_json(*counters);
  if (!info.version.empty()) j["gsim_version"] = info.version;
  return j;
}

std::string format_csv(const RunInfo& info, const MixMetrics& m) {
  if (m.window_cycles != 0) return window_csv(info, m);
  if (!m.processes.empty()) return process_csv(info, m);
  std::string out =
      "config,mix,policy,scheduler,preempt,sm_sharing,seed,kernel,arrival,priority,instructions,ipc,cycles_alone,"
      "cycles_shared,ntt\n";
  for (const KernelMetrics& k : m.kernels) {
    out += csv_field(info.config) + "," + csv_field(info.mix) + "," + csv_field(info.policy) + "," +
           csv_field(info.scheduler) + "," + csv_field(info.preempt) + "," + csv_field(info.sm_sharing) + "," +
           std::to_string(info.seed) + "," + csv_field(k.name) + "," + std::to_string(k.arrival_cycle) + "," +
           std::to_string(k.priority) + "," + std::to_string(k.instructions) + "," + format_fixed(k.ipc, 6) + "," +
           std::to_string(k.cycles_alone) + "," + std::to_string(k.cycles_shared) + "," + format_fixed(k.ntt, 6) + "\n";
  }
  return out;
}

}  // namespace gs
