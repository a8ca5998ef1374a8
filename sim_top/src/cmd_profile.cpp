// gsim profile: one kernel alone with 1..N CTAs per SM (Warped-Slicer Fig. 3a as a command).
//
// For every CTA count j = 1..N (N = the kernel's resident CTAs per SM, gsim occupancy) the
// kernel runs alone on the golden scheduler under Left-Over with SchedOptions::cta_limit = j,
// and the counters are read over a window after a warm-up (over the whole run when the kernel
// ends before the window does): IPC, the memory-stall share
// (Warped-Slicer's phi_mem, Eq. 3: warp-scheduler cycles with nothing to issue because every
// warp waits on a global load, over all warp-scheduler cycles of the window), and the L1 and L2
// miss rates. Warped-Slicer Sec. III sorts kernels into four classes by these curves
// (compute-intensive saturating and non-saturating, memory-intensive, cache-sensitive).
// Output: a table on stdout; --out P writes P.csv and P.json (sim_top/plots/profile.py draws
// P.json). Formats: docs/cli.md, "gsim profile".
#include <CLI/CLI.hpp>
#include <algorithm>
#include <cstdio>
#include <memory>
#include <nlohmann/json.hpp>

#include "commands.hpp"
#include "profile_curve.hpp"
#include "common/error.hpp"
#include "common/output_file.hpp"
#include "config/gpu_config.hpp"
#include "config/json_reader.hpp"
#include "config/limits.hpp"
#include "gpu/counters.hpp"
#include "gpu/gpu.hpp"
#include "gpu/occupancy.hpp"
#include "metrics/report.hpp"
#include "sched/scheduler_port.hpp"
#include "workload/kernel_desc.hpp"

namespace gsim {

namespace {

struct ProfileArgs {
  std::string config, suite, out;
  std::vector<std::string> kernels;
  uint32_t max_ctas = 0;  // 0 = the kernel's occupancy
  uint64_t warmup = 20000, sample = 50000, seed = 1;
  bool quiet = false;
  CLI::Option* o_out = nullptr;
};

struct KernelProfile {
  std::string name, suite, behaviour;
  uint32_t occupancy = 0;  // resident CTAs per SM alone (the curve's natural end)
  std::vector<Point> points;
};

std::string format_table(const std::vector<KernelProfile>& profiles) {
  std::string out;
  for (const KernelProfile& kp : profiles) {
    out += "kernel " + kp.name + " (" + kp.suite + ", " + kp.behaviour + "), " + std::to_string(kp.occupancy) +
           " CTAs/SM alone\n";
    out += "ctas       IPC  mem_stall%  L1_miss%  L2_miss%  window\n";
    for (const Point& p : kp.points) {
      char line[160];
      std::snprintf(line, sizeof line, "%4u  %8.3f  %10.1f  %8.1f  %8.1f  %llu-%llu%s\n", p.ctas, p.ipc,
                    100.0 * p.mem_stall, 100.0 * p.l1_miss, 100.0 * p.l2_miss,
                    static_cast<unsigned long long>(p.window_start), static_cast<unsigned long long>(p.window_end),
                    p.whole_run ? " (whole run: it ends before the window)" : "");
      out += line;
    }
    out += "\n";
  }
  return out;
}

std::string format_csv(const std::string& config, const std::vector<KernelProfile>& profiles) {
  std::string out = "config,kernel,suite,behaviour,ctas,window_start,window_end,whole_run,instructions,ipc,mem_stall,"
                    "l1_miss,l2_miss\n";
  for (const KernelProfile& kp : profiles)
    for (const Point& p : kp.points)
      out += config + "," + kp.name + "," + kp.suite + "," + kp.behaviour + "," + std::to_string(p.ctas) + "," +
             std::to_string(p.window_start) + "," + std::to_string(p.window_end) + "," + (p.whole_run ? "1" : "0") +
             "," + std::to_string(p.instructions) + "," + gs::format_fixed(p.ipc, 6) + "," +
             gs::format_fixed(p.mem_stall, 6) + "," + gs::format_fixed(p.l1_miss, 6) + "," +
             gs::format_fixed(p.l2_miss, 6) + "\n";
  return out;
}

std::string format_json(const std::string& config, const ProfileArgs& a, const std::vector<KernelProfile>& profiles) {
  nlohmann::ordered_json j;
  j["format"] = "gsched-profile-1";
  j["config"] = config;
  j["warmup"] = a.warmup;
  j["sample"] = a.sample;
  j["seed"] = a.seed;
  j["kernels"] = nlohmann::ordered_json::array();
  for (const KernelProfile& kp : profiles) {
    nlohmann::ordered_json jk;
    jk["name"] = kp.name;
    jk["suite"] = kp.suite;
    jk["behaviour"] = kp.behaviour;
    jk["occupancy"] = kp.occupancy;
    jk["points"] = nlohmann::ordered_json::array();
    for (const Point& p : kp.points)
      jk["points"].push_back({{"ctas", p.ctas},
                              {"window_start", p.window_start},
                              {"window_end", p.window_end},
                              {"whole_run", p.whole_run},
                              {"instructions", p.instructions},
                              {"ipc", std::stod(gs::format_fixed(p.ipc, 6))},
                              {"mem_stall", std::stod(gs::format_fixed(p.mem_stall, 6))},
                              {"l1_miss", std::stod(gs::format_fixed(p.l1_miss, 6))},
                              {"l2_miss", std::stod(gs::format_fixed(p.l2_miss, 6))}});
    j["kernels"].push_back(std::move(jk));
  }
  j["gsim_version"] = version_string();
  return j.dump(2) + "\n";
}

int profile_action(const ProfileArgs& a) {
  if (a.kernels.empty() == a.suite.empty())
    throw gs::InputError("profile: give --kernel NAME (one or more) or --kernels SUITE|all, not both");
  const gs::GpuConfig cfg = gs::load_gpu_config(a.config);
  const std::vector<gs::KernelDesc> lib = gs::load_kernel_library();
  const std::vector<gs::KernelDesc> chosen = select_kernels(lib, a.kernels, a.suite);
  struct Planned {
    gs::KernelDesc kernel;
    uint32_t occupancy = 0;  // resident CTAs per SM alone
    uint32_t ctas = 0;       // CTA counts 1..ctas are run
  };
  std::vector<Planned> plan;
  std::vector<std::string> skipped;
  for (const gs::KernelDesc& k : chosen) {
    uint32_t occ = 0;
    try {
      occ = occupancy_of(cfg, k);
    } catch (const gs::InputError& e) {
      if (a.suite.empty()) throw;  // a kernel named on the command line must fit
      skipped.push_back(k.name);
      continue;
    }
    plan.push_back({k, occ, a.max_ctas ? std::min(a.max_ctas, occ) : occ});
  }
  if (plan.empty())
    throw gs::InputError("--kernels " + a.suite + ": no kernel of it fits an SM of config '" + cfg.name + "'");
  for (const auto& [k, occ, n] : plan)
    if (n > gs::limits::kMaxCtasPerSm)
      throw gs::InputError("kernel '" + k.name + "': " + std::to_string(n) +
                           " CTAs per SM, above the --cta-limit bound " + std::to_string(gs::limits::kMaxCtasPerSm) +
                           "; give --max-ctas " + std::to_string(gs::limits::kMaxCtasPerSm) + " or less");
  if (!skipped.empty() && !a.quiet)
    std::fprintf(stderr, "gsim: note: skipped %zu kernel(s) that fit no SM of %s: %s\n", skipped.size(),
                 cfg.name.c_str(), gs::join_names(skipped).c_str());
  // The outputs, checked before hours of simulation by the rule of common/output_file.hpp: never
  // one of the run's inputs (the config, the config it references, the kernel library), never a
  // non-regular file. "--out -" would send both files to standard output: refused by the rule.
  const bool want_out = a.o_out->count() > 0;
  if (want_out && a.out.empty()) throw gs::InputError("--out \"\": the output file name is empty");
  const std::string out_csv = gs::is_stdout_path(a.out) ? a.out : a.out + ".csv";
  const std::string out_json = gs::is_stdout_path(a.out) ? a.out : a.out + ".json";
  if (want_out) {
    std::vector<gs::NamedPath> inputs = gs::config_input_files("--config", a.config);
    for (const std::string& f : gs::kernel_library_files()) inputs.push_back({"kernel library file", f});
    gs::check_output_path("--out", out_csv, inputs, {});
    gs::check_output_path("--out", out_json, inputs, {{"--out", out_csv}});
  }

  uint32_t total = 0, done = 0;
  for (const Planned& p : plan) total += p.ctas;
  std::vector<KernelProfile> profiles;
  for (const auto& [k, occ, n] : plan) {
    KernelProfile kp;
    kp.name = k.name;
    kp.suite = k.suite;
    kp.behaviour = k.behaviour;
    kp.occupancy = occ;
    for (uint32_t j = 1; j <= n; ++j) {
      if (!a.quiet)
        std::fprintf(stderr, "\rgsim profile: %s, %u/%u CTAs per SM (%u/%u runs)   ", k.name.c_str(), j, n, ++done,
                     total);
      kp.points.push_back(measure_point(cfg, k, j, {a.warmup, a.sample, a.seed}));
    }
    profiles.push_back(std::move(kp));
  }
  if (!a.quiet) std::fprintf(stderr, "\n");
  std::fputs(format_table(profiles).c_str(), stdout);
  if (want_out) {
    gs::write_file_atomically("--out", out_csv, format_csv(cfg.name, profiles));
    gs::write_file_atomically("--out", out_json, format_json(cfg.name, a, profiles));
    if (!a.quiet)
      std::fprintf(stderr, "gsim: wrote %s.csv and %s.json (plot: python3 sim_top/plots/profile.py %s.json --out %s)\n",
                   a.out.c_str(), a.out.c_str(), a.out.c_str(), a.out.c_str());
  }
  return 0;
}

}  // namespace

Command add_profile_command(CLI::App& top) {
  auto args = std::make_shared<ProfileArgs>();
  CLI::App* app = top.add_subcommand(
      "profile", "One kernel alone with 1..N CTAs per SM: IPC, memory stalls, cache misses (Warped-Slicer Fig. 3a)");
  app->add_option("--config", args->config, "GPU config: preset name (gsim list configs) or JSON file")->required();
  app->add_option("--kernel", args->kernels, "Kernel name (gsim list kernels); may be given several times");
  app->add_option("--kernels", args->suite, "Every kernel of a suite (the first column of gsim list kernels), or all");
  app->add_option("--max-ctas", args->max_ctas, "Highest CTA count per SM (default: the kernel's occupancy)")
      ->check(whole_number(1, 1000));
  app->add_option("--warmup", args->warmup, "Cycles before the measurement window (Warped-Slicer Sec. IV-A: 20000)")
      ->check(whole_number(0, 1ull << 40));
  app->add_option("--sample", args->sample, "Cycles of the measurement window")->check(whole_number(1, 1ull << 40));
  app->add_option("--seed", args->seed, "Simulation seed")->check(whole_number());
  args->o_out = app->add_option("--out", args->out,
                                "Write OUT.csv and OUT.json (plot: sim_top/plots/profile.py OUT.json)");
  app->add_flag("-q,--quiet", args->quiet, "No progress on stderr");
  app->footer(
      "Each CTA count is one alone run (golden scheduler, Left-Over, --cta-limit j) read over cycles "
      "[warmup, warmup+sample); a kernel that ends before warmup+sample is read over its whole run. mem_stall% = warp-scheduler cycles stalled because every warp waits on a global "
      "load (phi_mem, Warped-Slicer Eq. 3), over all warp-scheduler cycles of the window. docs/cli.md, "
      "\"gsim profile\".");
  return {app, [args] { return profile_action(*args); }};
}

}  // namespace gsim
