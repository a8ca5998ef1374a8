// gsim calibrate: every stand-in kernel alone on its suite's preset against the paper's alone
// figures (sim_top/workloads/calibration/targets.json; docs/workloads.md, "Alone targets").
//
// For each kernel of the targets file (or those --suite / --kernel select) it runs the kernel
// alone under golden Left-Over on the suite's preset (one simulation: the shared run is the
// alone run) and measures the targets whose metric it knows here: ipc_thread, l2_mpki,
// runtime_cycles and cta_mean_cycles (against value x scale where the library shortened the
// kernel), cta_rsd_pct, ctas_per_sm (on the config and SM type the target names),
// dominant_stall, and from the kernel's gsim profile curve (IPC at 1..N CTAs per SM,
// profile_curve.hpp) the Fig. 3a class, SBM's CI class and norm_ipc_at, and SBM's cache class
// from a second alone run with the kernel's accesses around L1 and L2. HeteroCore's TLP class
// and ratios (runs on parts of other configs) are listed as not measured. Prints one row per target; --check exits kExitOutOfBand naming every kernel with a
// measured target outside its band. Calibration is on alone behaviour only: nothing here runs
// a pair or a mix.
#include <CLI/CLI.hpp>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>

#include "commands.hpp"
#include "common/error.hpp"
#include "common/output_file.hpp"
#include "config/gpu_config.hpp"
#include "config/json_reader.hpp"
#include "gpu/occupancy.hpp"
#include "metrics/mix_runner.hpp"
#include "profile_curve.hpp"
#include "workload/kernel_desc.hpp"

namespace gsim {

namespace {

using Json = nlohmann::json;

struct CalibrateArgs {
  std::string targets, json;
  std::vector<std::string> suites, kernels;
  bool check = false, quiet = false;
  CLI::Option* o_json = nullptr;
};

/// One target's outcome.
struct Row {
  std::string kernel, metric, source, status;  // status: "ok", "OUT", "not measured"
  double lo = 0, hi = 0, ours = 0;
  std::string class_band, class_ours;  // class metrics
  bool numeric = true, measured = false, known_gap = false;
};

/// What one alone run of a kernel gives (measured once, read by every target of the kernel).
struct AloneFigures {
  gs::MixRun run;
  std::vector<double> cta_cycles;  // finished CTAs' durations
};

AloneFigures run_alone(const gs::GpuConfig& cfg, const gs::KernelDesc& k,
                       gs::BypassLevel bypass = gs::BypassLevel::kNone) {
  gs::Mix mix = gs::single_kernel_mix(k);
  mix.kernels[0].bypass = bypass;
  gs::SchedOptions sched;
  sched.policy = gs::kAlonePolicy;
  gs::AloneRunCache cache;
  AloneFigures f;
  f.run = gs::run_mix_with_alone(cfg, mix, "golden", sched, gs::RunOptions{}, cache);
  for (const gs::CtaRecord& c : f.run.shared.ctas)
    if (!c.saved) f.cta_cycles.push_back(double(c.end_cycle - c.start_cycle));
  return f;
}

std::string fmt(double v) {
  char buf[32];
  if (v != 0 && (std::fabs(v) >= 1e6 || std::fabs(v) < 1e-2)) std::snprintf(buf, sizeof buf, "%.4g", v);
  else std::snprintf(buf, sizeof buf, "%.3f", v);
  std::string s = buf;
  if (s.find('.') != std::string::npos && s.find('e') == std::string::npos) {
    while (s.back() == '0') s.pop_back();
    if (s.back() == '.') s.pop_back();
  }
  return s;
}

/// p(j) of the curve at j = frac x N CTAs per SM, linearly between the integer counts (p(0) = 0).
double norm_ipc_at(const std::vector<Point>& curve, double frac) {
  double peak = 0;
  for (const Point& p : curve) peak = std::max(peak, p.ipc);
  const double j = frac * double(curve.size());
  if (peak <= 0 || j <= 0) return 0;
  const size_t lo = std::min(curve.size(), size_t(std::floor(j)));
  const double at_lo = lo == 0 ? 0.0 : curve[lo - 1].ipc, at_hi = curve[std::min(curve.size(), lo + 1) - 1].ipc;
  return (at_lo + (j - double(lo)) * (at_hi - at_lo)) / peak;
}

/// Measures `t` of kernel `k` from its alone figures and its profile curve (each run on demand,
/// once per kernel) and from the occupancy calculator; sets row.measured when the metric is one
/// measured here.
void measure(const Json& t, const gs::KernelDesc& k, const gs::GpuConfig& preset,
             const std::function<const AloneFigures&()>& alone, const std::function<const std::vector<Point>&()>& curve,
             const std::function<const AloneFigures&()>& bypassed, Row& row) {
  const std::string& m = row.metric;
  const double scale = t.contains("scale") ? t.at("scale").get<double>() : 1.0;
  const Json& band = t.at("band");
  if (!band.at(0).is_string()) {  // numbers; null: open on that side
    row.lo = band.at(0).is_null() ? -HUGE_VAL : band.at(0).get<double>() * scale;
    row.hi = band.at(1).is_null() ? HUGE_VAL : band.at(1).get<double>() * scale;
  } else {
    row.numeric = false;
    for (const Json& c : band) row.class_band += (row.class_band.empty() ? "" : "|") + c.get<std::string>();
  }
  if (m == "ctas_per_sm") {
    std::string config = preset.name, type;
    if (t.contains("at")) {
      config = t.at("at").value("config", config);
      type = t.at("at").value("sm_type", "");
    }
    const gs::GpuConfig cfg = config == preset.name ? preset : gs::load_gpu_config(config);
    const gs::SmTypeConfig* st = &cfg.sm_types.front();
    for (const gs::SmTypeConfig& s : cfg.sm_types)
      if (s.name == type) st = &s;
    row.ours = gs::occupancy(k, cfg, *st).max_ctas;
    row.measured = true;
    return;
  }
  if (m == "cache") {  // thread IPC alone over the same with every access around L1 and L2: CF at >= 1.05
    const double with = alone().run.alone_counters.at(0).thread_ipc();
    const double without = bypassed().run.alone_counters.at(0).thread_ipc();
    row.class_ours = without > 0 && with / without >= 1.05 ? "CF" : "not-CF";
    row.measured = true;
    return;
  }
  if (m == "class" || m == "ci" || m == "norm_ipc_at") {
    const std::vector<Point>& c = curve();
    if (c.size() < 2) return;  // one CTA per SM: no curve to classify
    row.measured = true;
    if (m == "norm_ipc_at") {
      row.ours = norm_ipc_at(c, t.at("at").at("ctas_frac").get<double>());
      return;
    }
    const gs::CounterGroup& g = alone().run.alone_counters.at(0);
    const double mpki = g.instructions ? 1000.0 * double(g.l2_accesses - g.l2_hits) / double(g.instructions) : 0.0;
    const std::string cls = fig3a_class(c, mpki);
    // SBM Table 2: CNS = non-saturating, CUF = IPC falling at high TLP (the cache rule), CS = the rest
    row.class_ours = m == "class" ? cls : cls == "compute-nonsat" ? "CNS" : cls == "cache" ? "CUF" : "CS";
    return;
  }
  static const char* const kAloneMetrics[] = {"ipc_thread",      "l2_mpki",     "runtime_cycles",
                                              "cta_mean_cycles", "cta_rsd_pct", "dominant_stall"};
  if (std::find(std::begin(kAloneMetrics), std::end(kAloneMetrics), m) == std::end(kAloneMetrics)) return;
  const AloneFigures& f = alone();
  const gs::CounterGroup& g = f.run.alone_counters.at(0);
  row.measured = true;
  if (m == "ipc_thread") {
    row.ours = g.thread_ipc();
  } else if (m == "l2_mpki") {
    row.ours = g.instructions ? 1000.0 * double(g.l2_accesses - g.l2_hits) / double(g.instructions) : 0.0;
  } else if (m == "runtime_cycles") {
    row.ours = double(f.run.alone.at(0).cycles());
  } else if (m == "dominant_stall") {
    const gs::StallBreakdown& s = g.stalls;
    const std::pair<uint64_t, const char*> parts[] = {
        {s.memory, "memory"}, {s.dependency, "dependency"}, {s.functional_unit, "functional_unit"}, {s.idle, "idle"}};
    row.class_ours = std::max_element(std::begin(parts), std::end(parts), [](const auto& a, const auto& b) {
                       return a.first < b.first;
                     })->second;
  } else {  // cta_mean_cycles, cta_rsd_pct
    double mean = 0, var = 0;
    for (double c : f.cta_cycles) mean += c;
    mean = f.cta_cycles.empty() ? 0 : mean / double(f.cta_cycles.size());
    for (double c : f.cta_cycles) var += (c - mean) * (c - mean);
    var = f.cta_cycles.empty() ? 0 : var / double(f.cta_cycles.size());
    row.ours = m == "cta_mean_cycles" ? mean : (mean > 0 ? 100.0 * std::sqrt(var) / mean : 0.0);
  }
}

int calibrate_action(const CalibrateArgs& a) {
  const std::string file = a.targets.empty() ? gs::data_dir() + "/workloads/calibration/targets.json" : a.targets;
  const Json doc = gs::parse_json_strict(read_text_file(file, "--targets"), file);
  if (!doc.is_object() || !doc.contains("kernels") || !doc.at("kernels").is_object() || !doc.contains("suites"))
    throw gs::InputError(file, "kernels", "expected the targets format (scripts/check_targets.py validates it)");
  if (a.o_json->count()) gs::check_output_path("--json", a.json, {{"--targets", file}});
  const std::vector<gs::KernelDesc> lib = gs::load_kernel_library();
  for (const std::string& k : a.kernels)
    if (!doc.at("kernels").contains(k)) throw gs::InputError("--kernel " + k + ": no targets for it in " + file);
  for (const std::string& s : a.suites)
    if (!doc.at("suites").contains(s)) throw gs::InputError("--suite " + s + ": no such suite in " + file);

  std::vector<Row> rows;
  std::map<std::string, gs::GpuConfig> presets;
  for (const auto& [name, entry] : doc.at("kernels").items()) {
    const std::string suite = entry.value("suite", "");
    if (!a.suites.empty() && std::find(a.suites.begin(), a.suites.end(), suite) == a.suites.end()) continue;
    if (!a.kernels.empty() && std::find(a.kernels.begin(), a.kernels.end(), name) == a.kernels.end()) continue;
    const gs::KernelDesc& k = gs::find_kernel(lib, name);
    const std::string preset_name = doc.at("suites").at(suite).at("preset").get<std::string>();
    if (!presets.count(preset_name)) presets.emplace(preset_name, gs::load_gpu_config(preset_name));
    const gs::GpuConfig& preset = presets.at(preset_name);
    std::unique_ptr<AloneFigures> figures;
    std::unique_ptr<std::vector<Point>> points;
    std::unique_ptr<AloneFigures> bypass_figures;
    const auto bypassed = [&]() -> const AloneFigures& {
      if (!bypass_figures) {
        if (!a.quiet)
          std::fprintf(stderr, "gsim: calibrate: %s alone around L1 and L2 on %s\n", name.c_str(), preset_name.c_str());
        throw_if_interrupted("gsim calibrate");
        bypass_figures = std::make_unique<AloneFigures>(run_alone(preset, k, gs::BypassLevel::kL1L2));
      }
      return *bypass_figures;
    };
    const auto curve = [&]() -> const std::vector<Point>& {
      if (!points) {
        const uint32_t n = occupancy_of(preset, k);
        if (!a.quiet)
          std::fprintf(stderr, "gsim: calibrate: %s at 1..%u CTAs per SM on %s\n", name.c_str(), n,
                       preset_name.c_str());
        points = std::make_unique<std::vector<Point>>();
        for (uint32_t j = 1; j <= n; ++j) {
          throw_if_interrupted("gsim calibrate");
          points->push_back(measure_point(preset, k, j, ProfileWindow{}));
        }
      }
      return *points;
    };
    const auto alone = [&]() -> const AloneFigures& {
      if (!figures) {
        if (!a.quiet) std::fprintf(stderr, "gsim: calibrate: %s alone on %s\n", name.c_str(), preset_name.c_str());
        throw_if_interrupted("gsim calibrate");
        figures = std::make_unique<AloneFigures>(run_alone(preset, k));
      }
      return *figures;
    };
    for (const Json& t : entry.at("targets")) {
      Row row;
      row.kernel = name;
      row.metric = t.at("metric").get<std::string>();
      row.source = t.value("source", "");
      row.known_gap = t.contains("known_gap");
      try {
        measure(t, k, preset, alone, curve, bypassed, row);
      } catch (const Json::exception& e) {
        throw gs::InputError(file, "kernels." + name, std::string("a target is malformed: ") + e.what());
      }
      if (!row.measured) row.status = "not measured";
      else if (row.numeric) row.status = row.ours >= row.lo && row.ours <= row.hi ? "ok" : "OUT";
      else
        row.status = ("|" + row.class_band + "|").find("|" + row.class_ours + "|") != std::string::npos ? "ok" : "OUT";
      rows.push_back(row);
    }
  }

  // --json -: the document alone on standard output, the table on stderr
  FILE* table = a.o_json->count() && gs::is_stdout_path(a.json) ? stderr : stdout;
  size_t w = 6;
  for (const Row& r : rows) w = std::max(w, r.kernel.size());
  std::fprintf(table, "%-*s  %-15s  %-23s  %-14s  %-12s  %s\n", int(w), "kernel", "metric", "band (paper)", "ours",
               "status", "source");
  size_t ok = 0, out = 0, none = 0;
  std::vector<std::string> out_kernels;
  Json j = Json::array();
  for (const Row& r : rows) {
    const std::string band = r.numeric ? fmt(r.lo) + ".." + fmt(r.hi) : r.class_band;
    const std::string ours = !r.measured ? "-" : r.numeric ? fmt(r.ours) : r.class_ours;
    const std::string status = r.status + (r.status == "OUT" && r.known_gap ? " (known gap)" : "");
    std::fprintf(table, "%-*s  %-15s  %-23s  %-14s  %-12s  %s\n", int(w), r.kernel.c_str(), r.metric.c_str(),
                 band.c_str(), ours.c_str(), status.c_str(), r.source.c_str());
    ok += r.status == "ok";
    none += !r.measured;
    if (r.status == "OUT") {
      ++out;
      if (out_kernels.empty() || out_kernels.back() != r.kernel) out_kernels.push_back(r.kernel);
    }
    Json jr = {{"kernel", r.kernel}, {"metric", r.metric}, {"status", r.status}, {"source", r.source}};
    if (r.numeric) jr["band"] = {r.lo, r.hi};
    else jr["band"] = r.class_band;
    if (r.measured) jr["ours"] = r.numeric ? Json(r.ours) : Json(r.class_ours);
    if (r.known_gap) jr["known_gap"] = true;
    j.push_back(jr);
  }
  std::fprintf(table, "\n%zu targets: %zu in band, %zu out of band, %zu not measured by gsim calibrate yet (%s)\n",
               rows.size(), ok, out, none, file.c_str());
  if (a.o_json->count()) gs::write_file_atomically("--json", a.json, j.dump(1) + "\n");
  if (a.check && out) {
    std::string names;
    for (const std::string& k : out_kernels) names += (names.empty() ? "" : ", ") + k;
    std::fprintf(stderr, "gsim: calibrate --check: %zu kernel(s) out of band: %s\n", out_kernels.size(), names.c_str());
    return kExitOutOfBand;
  }
  return 0;
}

}  // namespace

Command add_calibrate_command(CLI::App& top) {
  auto args = std::make_shared<CalibrateArgs>();
  CLI::App* app = top.add_subcommand(
      "calibrate", "Each stand-in kernel alone on its suite's preset against the paper's alone figures");
  app->add_option("--targets", args->targets,
                  "Targets file (default: <data dir>/workloads/calibration/targets.json; docs/workloads.md)");
  app->add_option("--suite", args->suites, "Only this suite's kernels (repeatable)")->allow_extra_args(false);
  app->add_option("--kernel", args->kernels, "Only this kernel (repeatable)")->allow_extra_args(false);
  app->add_flag("--check", args->check,
                "Exit 7 naming every kernel with a measured target outside its band (after the table)");
  args->o_json = app->add_option("--json", args->json, "Write the rows as JSON to this file (- for standard output)");
  app->add_flag("-q,--quiet", args->quiet, "No progress lines on stderr");
  return {app, [args] { return calibrate_action(*args); }};
}

}  // namespace gsim
