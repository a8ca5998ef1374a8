// gsim calibrate: every stand-in kernel alone on its suite's preset against the paper's alone
// figures (sim_top/workloads/calibration/targets.json; docs/workloads.md, "Alone targets").
//
// For each kernel of the targets file (or those --suite / --kernel select) it runs the kernel alone
// under golden Left-Over on the suite's preset (one simulation: the shared run is the alone run)
// and measures the targets whose metric it knows here: ipc_thread, l2_mpki, runtime_cycles and
// cta_mean_cycles (against value x scale where the library shortened the kernel), cta_rsd_pct,
// ctas_per_sm (on the config and SM type the target names), dominant_stall, and from the kernel's
// gsim profile curve (IPC at 1..N CTAs per SM, profile_curve.hpp) the Fig. 3a class, SBM's CI class
// and norm_ipc_at, and SBM's cache class from a second alone run with the kernel's accesses around
// L1 and L2; ipc_ratio_to from the relative_to kernel alone on the same preset; HeteroCore's TLP
// class and ratios from the kernel alone on the HeteroCore GPU the target names (at.config) -- its
// big SMs, its small SMs, all of it -- and on its hetero.baseline_config (hetero_profile in
// metrics/hetero_static.hpp, the profile hetero-class decides on). Prints one row per target (a
// class with what it was read from: the curve's peak and p(N-1), p(N), the cache ratio, the
// small-SM ratio); --check exits kExitOutOfBand naming every kernel with a measured target outside
// its band, except targets the file marks known_gap (listed, counted apart). Calibration is on
// alone behaviour only: nothing here runs a pair or a mix.
#include <CLI/CLI.hpp>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <map>
#include <memory>
#include <stdexcept>
#include <nlohmann/json.hpp>

#include "commands.hpp"
#include "common/error.hpp"
#include "common/output_file.hpp"
#include "config/gpu_config.hpp"
#include "config/json_reader.hpp"
#include "gpu/occupancy.hpp"
#include "metrics/hetero_static.hpp"
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
  std::string evidence;                // what a class was read from (the cache ratio, the curve's peak)
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

/// A target the file gives without what its metric needs (reported with the file and kernel).
struct MalformedTarget : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// A kernel's HeteroCore profile (hetero_profile: on the baseline, on its first |small| SMs, on
/// the HeteroCore GPU's big and small SMs) and its IPC alone on the whole HeteroCore GPU.
struct HeteroFigures {
  gs::HeteroProfile profile;
  double ipc_hetero = 0;
};

HeteroFigures run_hetero(const gs::GpuConfig& hetero, const gs::KernelDesc& k) {
  const std::string where = hetero.file.empty() ? hetero.name : hetero.file;
  if (hetero.settings.hetero.baseline_config.empty())
    throw gs::InputError(where, "hetero.baseline_config", "gsim calibrate compares with the conventional GPU: name it");
  const gs::GpuConfig base = gs::load_gpu_config(hetero.settings.hetero.baseline_config);
  std::vector<uint32_t> big, small;
  gs::hetero_sm_kinds(hetero, "gsim calibrate's HeteroCore ratios", big, small);
  const gs::Mix mix = gs::single_kernel_mix(k);
  HeteroFigures f;
  f.profile = gs::hetero_profile(hetero, base, mix, mix.kernels.at(0), big, small, true, gs::RunOptions{});
  f.ipc_hetero = gs::hetero_alone_ipc(gs::run_config(hetero, mix), mix, mix.kernels.at(0), {}, gs::RunOptions{});
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

std::string fmt_fixed(double v, int digits) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.*f", digits, v);
  return buf;
}

/// What the Fig. 3a rules read of a curve: where it peaks and p(N-1), p(N) (fig3a_class).
std::string curve_evidence(const std::vector<Point>& curve) {
  size_t peak = 0;
  for (size_t j = 1; j < curve.size(); ++j)
    if (curve[j].ipc > curve[peak].ipc) peak = j;
  const double best = curve[peak].ipc, n = double(curve.size());
  if (best <= 0) return "";
  return "peak " + std::to_string(peak + 1) + "/" + fmt(n) + ", p(N-1) " +
         fmt_fixed(curve[curve.size() - 2].ipc / best, 2) + ", p(N) " + fmt_fixed(curve.back().ipc / best, 2);
}

/// Measures `t` of kernel `k` from its alone figures and its profile curve (each run on demand,
/// once per kernel) and from the occupancy calculator; sets row.measured when the metric is one
/// measured here.
void measure(const Json& t, const gs::KernelDesc& k, const gs::GpuConfig& preset,
             const std::function<const AloneFigures&()>& alone, const std::function<const std::vector<Point>&()>& curve,
             const std::function<const AloneFigures&()>& bypassed,
             const std::function<const HeteroFigures&(const std::string& config)>& hetero,
             const std::function<double(const std::string& kernel)>& alone_ipc_of, Row& row) {
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
  if (m == "tlp" || m == "ipc_ratio_big" || m == "ipc_ratio_small" || m == "speedup_hetero") {
    // on the HeteroCore GPU the target names (at.config) and its hetero.baseline_config
    if (!t.contains("at") || !t.at("at").contains("config"))
      throw MalformedTarget(m + " needs at.config, the HeteroCore config it is read on");
    const HeteroFigures& h = hetero(t.at("at").at("config").get<std::string>());
    const gs::HeteroProfile& p = h.profile;
    auto ratio = [](double x, double y) { return y > 0 ? x / y : 0.0; };
    row.measured = true;
    if (m == "tlp") {  // lean when the small SMs do not lose against as many baseline SMs (3% ours)
      row.class_ours = ratio(p.ipc_small, p.ipc_base_n) >= 0.97 ? "lean" : "thick";
      row.evidence = "small/base " + fmt_fixed(ratio(p.ipc_small, p.ipc_base_n), 2);
    } else if (m == "ipc_ratio_big") {
      row.ours = ratio(p.ipc_big, p.ipc_base_n);
    } else if (m == "ipc_ratio_small") {
      row.ours = ratio(p.ipc_small, p.ipc_base_n);
    } else {
      row.ours = ratio(h.ipc_hetero, p.ipc_base);
    }
    return;
  }
  if (m == "ipc_ratio_to") {  // thread IPC alone over the relative_to kernel's, both on the preset
    if (!t.contains("relative_to")) throw MalformedTarget("ipc_ratio_to needs relative_to, the kernel it is over");
    const double other = alone_ipc_of(t.at("relative_to").get<std::string>());
    row.ours = other > 0 ? alone().run.alone_counters.at(0).thread_ipc() / other : 0.0;
    row.measured = true;
    return;
  }
  if (m == "cache") {  // thread IPC alone over the same with every access around L1 and L2: CF at >= 1.05
    const double with = alone().run.alone_counters.at(0).thread_ipc();
    const double without = bypassed().run.alone_counters.at(0).thread_ipc();
    row.class_ours = without > 0 && with / without >= 1.05 ? "CF" : "not-CF";
    row.evidence = without > 0 ? "x" + fmt_fixed(with / without, 2) : "";
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
    row.evidence = curve_evidence(c);
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
  std::map<std::string, double> alone_ipc_cache;  // a relative_to kernel's thread IPC, per kernel@preset
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
    const auto alone_ipc_of = [&](const std::string& other) -> double {
      const std::string key = other + "@" + preset_name;
      if (!alone_ipc_cache.count(key)) {
        if (!a.quiet) std::fprintf(stderr, "gsim: calibrate: %s alone on %s\n", other.c_str(), preset_name.c_str());
        throw_if_interrupted("gsim calibrate");
        alone_ipc_cache[key] = run_alone(preset, gs::find_kernel(lib, other)).run.alone_counters.at(0).thread_ipc();
      }
      return alone_ipc_cache.at(key);
    };
    std::map<std::string, HeteroFigures> hetero_figures;  // per HeteroCore config named
    const auto hetero = [&](const std::string& config) -> const HeteroFigures& {
      if (!hetero_figures.count(config)) {
        if (!a.quiet)
          std::fprintf(stderr, "gsim: calibrate: %s alone on %s's big and small SMs and on its baseline\n",
                       name.c_str(), config.c_str());
        throw_if_interrupted("gsim calibrate");
        hetero_figures.emplace(config, run_hetero(gs::load_gpu_config(config), k));
      }
      return hetero_figures.at(config);
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
        measure(t, k, preset, alone, curve, bypassed, hetero, alone_ipc_of, row);
      } catch (const Json::exception& e) {
        throw gs::InputError(file, "kernels." + name, std::string("a target is malformed: ") + e.what());
      } catch (const MalformedTarget& e) {
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
  const auto ours_of = [](const Row& r) -> std::string {
    if (!r.measured) return "-";
    if (r.numeric) return fmt(r.ours);
    return r.evidence.empty() ? r.class_ours : r.class_ours + " (" + r.evidence + ")";
  };
  size_t w = 6, wo = 14;
  for (const Row& r : rows) w = std::max(w, r.kernel.size()), wo = std::max(wo, ours_of(r).size());
  std::fprintf(table, "%-*s  %-15s  %-23s  %-*s  %-12s  %s\n", int(w), "kernel", "metric", "band (paper)", int(wo),
               "ours", "status", "source");
  size_t ok = 0, out = 0, none = 0, gaps = 0;
  std::vector<std::string> out_kernels;
  Json j = Json::array();
  for (const Row& r : rows) {
    const std::string band = r.numeric ? fmt(r.lo) + ".." + fmt(r.hi) : r.class_band;
    const std::string ours = ours_of(r);
    const std::string status = r.status + (r.status == "OUT" && r.known_gap ? " (known gap)" : "");
    std::fprintf(table, "%-*s  %-15s  %-23s  %-*s  %-12s  %s\n", int(w), r.kernel.c_str(), r.metric.c_str(),
                 band.c_str(), int(wo), ours.c_str(), status.c_str(), r.source.c_str());
    ok += r.status == "ok";
    none += !r.measured;
    if (r.status == "OUT" && r.known_gap) {
      ++gaps;
    } else if (r.status == "OUT") {
      ++out;
      if (out_kernels.empty() || out_kernels.back() != r.kernel) out_kernels.push_back(r.kernel);
    }
    Json jr = {{"kernel", r.kernel}, {"metric", r.metric}, {"status", r.status}, {"source", r.source}};
    if (r.numeric) jr["band"] = {r.lo, r.hi};
    else jr["band"] = r.class_band;
    if (r.measured) jr["ours"] = r.numeric ? Json(r.ours) : Json(r.class_ours);
    if (!r.evidence.empty()) jr["evidence"] = r.evidence;
    if (r.known_gap) jr["known_gap"] = true;
    j.push_back(jr);
  }
  std::fprintf(
      table,
      "\n%zu targets: %zu in band, %zu out of band, %zu out of band as a known gap (known_gap in the file), %zu "
      "not measured by gsim calibrate yet (%s)\n",
      rows.size(), ok, out, gaps, none, file.c_str());
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
  app->add_flag(
      "--check", args->check,
      "Exit 7 naming every kernel with a measured target outside its band (after the table); targets the file "
      "marks known_gap are listed but do not fail it");
  args->o_json = app->add_option("--json", args->json, "Write the rows as JSON to this file (- for standard output)");
  app->add_flag("-q,--quiet", args->quiet, "No progress lines on stderr");
  return {app, [args] { return calibrate_action(*args); }};
}

}  // namespace gsim
