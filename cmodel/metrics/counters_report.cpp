// gsched: counter summary reports (contract in counters_report.hpp).
#include "metrics/counters_report.hpp"

#include <algorithm>

namespace gs {

namespace {

using Json = nlohmann::ordered_json;

/// `bypass`: the run bypassed a cache somewhere, so every group shows its l1/l2_bypassed (a run
/// without bypass keeps the keys out: its JSON stays what it was before they existed).
Json group_json(const CounterGroup& g, double peak, bool bypass, bool threads) {
  Json j;
  j["sms"] = g.sms;
  j["instructions"] = g.instructions;
  if (threads) j["thread_instructions"] = g.thread_instructions;
  j["cycles"] = g.cycles;
  j["ipc"] = round6(g.ipc());
  if (threads) j["thread_ipc"] = round6(g.thread_ipc());
  j["active_sm_cycles"] = g.active_sm_cycles;
  j["ipc_per_active_sm"] = round6(g.ipc_per_active_sm());
  j["l1_accesses"] = g.l1_accesses;
  j["l1_hits"] = g.l1_hits;
  j["l1_hit_rate"] = round6(g.l1_hit_rate());
  if (bypass) j["l1_bypassed"] = g.l1_bypassed;
  j["l2_accesses"] = g.l2_accesses;
  j["l2_hits"] = g.l2_hits;
  j["l2_hit_rate"] = round6(g.l2_hit_rate());
  if (bypass) j["l2_bypassed"] = g.l2_bypassed;
  j["dram_bytes"] = g.dram_bytes;
  j["dram_share_of_peak"] = round6(g.dram_share_of_peak(peak));
  const StallBreakdown& s = g.stalls;
  j["stall_cycles"] = Json{
      {"memory", s.memory}, {"dependency", s.dependency}, {"functional_unit", s.functional_unit}, {"idle", s.idle}};
  j["stall_shares"] = Json{{"memory", round6(s.share(s.memory))},
                           {"dependency", round6(s.share(s.dependency))},
                           {"functional_unit", round6(s.share(s.functional_unit))},
                           {"idle", round6(s.share(s.idle))}};
  j["ctas_started"] = g.ctas_started;
  j["ctas_finished"] = g.ctas_finished;
  j["ctas_preempted_drain"] = g.ctas_preempted_drain;
  j["ctas_preempted_switch"] = g.ctas_preempted_switch;
  j["switch_fallbacks"] = g.switch_fallbacks;
  j["context_bytes"] = Json{{"save", g.context_save_bytes}, {"restore", g.context_restore_bytes}};
  j["context_cycles"] = Json{{"save", g.context_save_cycles}, {"restore", g.context_restore_cycles}};
  return j;
}

std::string csv_row(const RunInfo& info, const std::string& kernel, const std::string& sm_type, const CounterGroup& g,
                    double peak, const std::string& row_buffer_hit_rate) {
  const StallBreakdown& s = g.stalls;
  auto u = [](uint64_t v) { return std::to_string(v); };
  auto f = [](double v) { return format_fixed(round6(v), 6); };
  const std::string fields[] = {csv_field(info.config),
                                csv_field(info.mix),
                                csv_field(info.policy),
                                csv_field(info.scheduler),
                                csv_field(info.preempt),
                                csv_field(info.sm_sharing),
                                u(info.seed),
                                csv_field(kernel),
                                csv_field(sm_type),
                                u(g.sms),
                                u(g.instructions),
                                u(g.cycles),
                                f(g.ipc()),
                                u(g.active_sm_cycles),
                                f(g.ipc_per_active_sm()),
                                u(g.l1_accesses),
                                u(g.l1_hits),
                                f(g.l1_hit_rate()),
                                u(g.l1_bypassed),
                                u(g.l2_accesses),
                                u(g.l2_hits),
                                f(g.l2_hit_rate()),
                                u(g.l2_bypassed),
                                u(g.dram_bytes),
                                f(g.dram_share_of_peak(peak)),
                                row_buffer_hit_rate,
                                u(s.memory),
                                u(s.dependency),
                                u(s.functional_unit),
                                u(s.idle),
                                f(s.share(s.memory)),
                                f(s.share(s.dependency)),
                                f(s.share(s.functional_unit)),
                                f(s.share(s.idle)),
                                u(g.ctas_started),
                                u(g.ctas_finished),
                                u(g.ctas_preempted_drain),
                                u(g.ctas_preempted_switch),
                                u(g.switch_fallbacks),
                                u(g.context_save_bytes),
                                u(g.context_restore_bytes),
                                u(g.context_save_cycles),
                                u(g.context_restore_cycles)};
  std::string out;
  for (const std::string& field : fields) out += (out.empty() ? "" : ",") + field;
  return out + "\n";
}

std::string percent(double share) { return format_fixed(100.0 * share, 1); }

}  // namespace

Json counters_json(const CountersSummary& c) {
  const DramSummary& d = c.dram;
  const double peak = d.peak_bytes_per_cycle;
  const bool bypass = c.gpu.l1_bypassed + c.gpu.l2_bypassed != 0;
  Json dram;
  dram["channels"] = d.channels;
  dram["peak_bytes_per_cycle"] = round6(peak);
  dram["cycles"] = d.cycles;
  dram["bytes"] = d.bytes();
  dram["bandwidth_share"] = round6(d.bandwidth_share());
  dram["reads"] = d.reads;
  dram["writes"] = d.writes;
  dram["activates"] = d.activates;
  dram["precharges"] = d.precharges;
  dram["row_hits"] = d.row_hits;
  dram["row_buffer_hit_rate"] = round6(d.row_buffer_hit_rate());
  dram["channel_bytes"] = d.channel_bytes;

  Json kernels = Json::array();
  for (const KernelCounters& k : c.kernels) {
    Json jk;
    jk["name"] = k.name;
    jk["all"] = group_json(k.all, peak, bypass, c.thread_counts);
    if (c.alone.size() == c.kernels.size())  // its alone run, the T_alone of the metrics
      jk["alone"] = group_json(c.alone[static_cast<size_t>(&k - c.kernels.data())], peak, bypass, c.thread_counts);
    Json types = Json::array();
    for (size_t t = 0; t < k.by_sm_type.size(); ++t) {
      Json jt;
      jt["sm_type"] = k.sm_type_names[t];
      const Json group = group_json(k.by_sm_type[t], peak, bypass,
                                    c.thread_counts);  // named: items() does not extend its life
      for (const auto& item : group.items()) jt[item.key()] = item.value();
      types.push_back(std::move(jt));
    }
    jk["sm_types"] = std::move(types);
    kernels.push_back(std::move(jk));
  }
  Json j;
  j["dram"] = std::move(dram);
  j["gpu"] = group_json(c.gpu, peak, bypass, c.thread_counts);
  j["kernels"] = std::move(kernels);
  return j;
}

std::string counters_csv_header() {
  return "config,mix,policy,scheduler,preempt,sm_sharing,seed,kernel,sm_type,sms,instructions,cycles,ipc,active_sm_cycles,"
         "ipc_per_active_sm,l1_accesses,l1_hits,l1_hit_rate,l1_bypassed,l2_accesses,l2_hits,l2_hit_rate,l2_bypassed,dram_bytes,"
         "dram_share_of_peak,row_buffer_hit_rate,stall_memory,stall_dependency,stall_functional_unit,stall_idle,"
         "stall_memory_share,stall_dependency_share,stall_functional_unit_share,stall_idle_share,ctas_started,"
         "ctas_finished,ctas_preempted_drain,ctas_preempted_switch,switch_fallbacks,context_save_bytes,context_restore_bytes,"
         "context_save_cycles,context_restore_cycles";
}

std::string format_counters_csv(const RunInfo& info, const CountersSummary& c) {
  const double peak = c.dram.peak_bytes_per_cycle;
  std::string out = counters_csv_header() + "\n";
  for (const KernelCounters& k : c.kernels) {
    for (size_t t = 0; t < k.by_sm_type.size(); ++t)
      out += csv_row(info, k.name, k.sm_type_names[t], k.by_sm_type[t], peak, "");
    out += csv_row(info, k.name, "all", k.all, peak, "");
  }
  out += csv_row(info, "all", "all", c.gpu, peak, format_fixed(round6(c.dram.row_buffer_hit_rate()), 6));
  return out;
}

std::string format_counters_table(const CountersSummary& c) {
  const char* titles[] = {"kernel",
                          "IPC(thread)",
                          "L1_hit%",
                          "L2_hit%",
                          "DRAM_MB",
                          "DRAM_%peak",
                          "stall_mem/dep/fu/idle%",
                          "preempted_drain/switch",
                          "ctx_KiB"};
  constexpr size_t kCols = sizeof titles / sizeof titles[0];
  const double peak = c.dram.peak_bytes_per_cycle;
  std::vector<std::vector<std::string>> rows;
  rows.emplace_back(std::begin(titles), std::end(titles));
  for (const KernelCounters& k : c.kernels) {
    const CounterGroup& g = k.all;
    const StallBreakdown& s = g.stalls;
    rows.push_back({k.name, c.thread_counts ? format_fixed(g.thread_ipc(), 1) : "-", percent(g.l1_hit_rate()),
                    percent(g.l2_hit_rate()), format_fixed(double(g.dram_bytes) / 1e6, 1),
                    percent(g.dram_share_of_peak(peak)),
                    format_fixed(100.0 * s.share(s.memory), 0) + "/" + format_fixed(100.0 * s.share(s.dependency), 0) +
                        "/" + format_fixed(100.0 * s.share(s.functional_unit), 0) + "/" +
                        format_fixed(100.0 * s.share(s.idle), 0),
                    std::to_string(g.ctas_preempted_drain) + "/" + std::to_string(g.ctas_preempted_switch),
                    format_fixed(double(g.context_save_bytes + g.context_restore_bytes) / 1024.0, 1)});
  }
  size_t width[kCols] = {};
  for (const auto& r : rows)
    for (size_t col = 0; col < kCols; ++col) width[col] = std::max(width[col], r[col].size());
  std::string out = "counters (all SMs of each kernel; per SM type in --json and --counters; docs/metrics.md)\n";
  for (const auto& r : rows) {
    std::string line;
    for (size_t col = 0; col < kCols; ++col) {
      const std::string& cell = r[col];
      const std::string pad(width[col] - cell.size(), ' ');
      line += (col ? "  " : "") + (col == 0 ? cell + pad : pad + cell);
    }
    while (!line.empty() && line.back() == ' ') line.pop_back();
    out += line + "\n";
  }
  const DramSummary& d = c.dram;
  out += "DRAM     " + format_fixed(double(d.bytes()) / 1e6, 1) + " MB over " + std::to_string(d.channels) +
         " channels, " + percent(d.bandwidth_share()) + "% of peak, row-buffer hits " +
         percent(d.row_buffer_hit_rate()) + "%\n";
  for (const KernelCounters& k : c.kernels)  // hit rates above are of the accesses that looked up
    if (k.all.l1_bypassed + k.all.l2_bypassed != 0)
      out += "BYPASS   " + k.name + ": " + std::to_string(k.all.l1_bypassed) + " accesses around L1, " +
             std::to_string(k.all.l2_bypassed) + " around L2\n";
  if (c.gpu.switch_fallbacks)
    out += "PREEMPT  " + std::to_string(c.gpu.switch_fallbacks) +
           " time(s) a kernel's CTAs on an SM were drained instead of switched: the PTBQ could not take "
           "them (switch_fallbacks; PtbqDepth in rtl/spec/gs_spec.toml)\n";
  return out;
}

}  // namespace gs
