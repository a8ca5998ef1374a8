// gsim accuracy: how well Pai et al.'s Simple Slicing predictor (Algorithm 1, Eq. 2) predicts
// runtimes on CTA traces -- the paper's Sec. 4.2 and Fig. 11 (reference: docs/srtf-accuracy.md).
//
// Traces come from (any mix of):
//   --kernel K / --kernels SUITE   each kernel alone on --config (golden scheduler, --policy),
//                                  group single-sim;
//   --mix M                        the mix on its config (group multi-sim; `--policy mpmax`: Pai et
//                                  al.'s Just-in-Time MPMax, metrics/pai_baselines.hpp, as the
//                                  paper's mpmax group);
//   --ctas F.csv                   a `gsim run --ctas` file: the kernels named in it from the
//                                  kernel library, arriving at their first CTA's start, or
//                                  those of --mix M (arrivals, grid sizes) when one --mix is given
//                                  with it (then nothing is simulated);
//   --h100-traces DIR              the real H100 traces, DIR/alone.csv or DIR/alone.csv.gz
//                                  (group single-gpu); skipped with a note when absent.
// Each trace is replayed by gs::srtf_accuracy() (cmodel/metrics/srtf_accuracy.hpp). Output: the
// summary per group, kernel and mode on stdout; --csv F one row per prediction (for
// sim_top/plots/srtf_accuracy.py). Progress on stderr.
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <memory>

#include "commands.hpp"
#include "common/error.hpp"
#include "common/output_file.hpp"
#include "config/gpu_config.hpp"
#include "config/json_reader.hpp"
#include "config/limits.hpp"
#include "gpu/gpu.hpp"
#include "metrics/mix_strategy.hpp"
#include "metrics/srtf_accuracy.hpp"
#include "sched/scheduler_port.hpp"
#include "workload/kernel_desc.hpp"

namespace gsim {

namespace {

struct AccuracyArgs {
  std::string config, suite, policy = gs::spec::kDefaultPolicyName, group, actual = "sm-active", csv, h100;
  std::vector<std::string> kernels, mixes, ctas;
  uint64_t seed = 1;
  uint64_t max_cycles = gs::RunOptions{}.max_cycles;
  bool last_slice = false, quiet = false;
  CLI::Option *o_group = nullptr, *o_csv = nullptr, *o_h100 = nullptr, *o_config = nullptr;
};

/// A run to simulate: a mix (one kernel alone is a one-entry mix).
struct Planned {
  gs::Mix mix;
  std::string group;
};

/// The text of DIR/alone.csv, or of DIR/alone.csv.gz through `gzip -dc`; "" when neither exists.
std::string read_h100_alone(const std::string& dir, std::string& path) {
  std::error_code ec;
  path = dir + "/alone.csv";
  if (std::filesystem::is_regular_file(path, ec)) return read_text_file(path, "--h100-traces");
  path = dir + "/alone.csv.gz";
  if (!std::filesystem::is_regular_file(path, ec)) return {};
  std::string quoted = "'";
  for (char c : path) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
  quoted += "'";
  FILE* p = ::popen(("gzip -dc -- " + quoted).c_str(), "r");
  if (!p) throw gs::InputError("--h100-traces " + path + ": cannot start gzip to read it");
  std::string text;
  char buf[1 << 16];
  size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, p)) > 0) {
    text.append(buf, n);
    if (text.size() > (256ull << 20)) {
      ::pclose(p);
      throw gs::InputError("--h100-traces " + path + ": more than 256 MiB uncompressed");
    }
  }
  if (::pclose(p) != 0)
    throw gs::InputError("--h100-traces " + path + ": gzip -dc failed (is it a gzip file? is gzip installed?)");
  return text;
}

/// Runs `mix` on `cfg` under the golden scheduler and returns the run's CTA records.
gs::RunResult simulate(const gs::GpuConfig& cfg, const gs::Mix& mix, const AccuracyArgs& a, size_t index,
                       size_t count) {
  gs::SchedOptions sched;
  sched.policy = a.policy;
  sched.seed = a.seed;
  // an analysis policy whose shared run follows from the config and mix (mpmax): that run
  if (const auto strategy = gs::make_mix_strategy_for(a.policy)) sched = *strategy->shared_options(cfg, mix, sched);
  gs::limits::check_scheduler_config(cfg, sched);
  auto port = gs::make_scheduler("golden", sched);
  gs::RunOptions opt;
  opt.seed = a.seed;
  opt.sched = sched;
  opt.max_cycles = a.max_cycles;
  using Clock = std::chrono::steady_clock;
  const Clock::time_point start = Clock::now();
  Clock::time_point last = start;
  const std::string label = "run " + std::to_string(index + 1) + "/" + std::to_string(count) + " (" + mix.name + ")";
  if (!a.quiet)
    std::fprintf(stderr, "gsim accuracy: %s on %s under %s\n", label.c_str(), cfg.name.c_str(), a.policy.c_str());
  opt.on_cycle = [&](uint64_t cycle) {
    if ((cycle & 0xffff) != 0) return;
    throw_if_interrupted("gsim accuracy, " + label + " at cycle " + std::to_string(cycle));
    if (a.quiet) return;
    const Clock::time_point now = Clock::now();
    if (now - last < std::chrono::seconds(5)) return;
    last = now;
    std::fprintf(stderr, "gsim accuracy:   ... cycle %llu\n", static_cast<unsigned long long>(cycle));
  };
  gs::Gpu gpu(cfg, mix, *port, opt);
  gs::RunResult r = gpu.run();
  if (!a.quiet)
    std::fprintf(stderr, "gsim accuracy:   %llu cycles, %zu CTAs, %.1f s\n", static_cast<unsigned long long>(r.cycles),
                 r.ctas.size(), std::chrono::duration<double>(Clock::now() - start).count());
  return r;
}

int accuracy_action(const AccuracyArgs& a) {
  const bool runs = !a.kernels.empty() || !a.suite.empty() || (!a.mixes.empty() && a.ctas.empty());
  if (!runs && a.ctas.empty() && a.h100.empty())
    throw gs::InputError("accuracy: give --kernel, --kernels, --mix, --ctas or --h100-traces (gsim accuracy --help)");
  if (!a.ctas.empty() && (!a.kernels.empty() || !a.suite.empty()))
    throw gs::InputError("--ctas: the kernels of a CTA file come from the file (or from one --mix); "
                         "--kernel/--kernels cannot be given with it");
  if (!a.ctas.empty() && a.mixes.size() > 1)
    throw gs::InputError("--ctas: at most one --mix may describe the CTA files (arrivals, grid sizes), got " +
                         std::to_string(a.mixes.size()));
  if (a.o_group->count() && a.group.empty()) throw gs::InputError("--group: the group name is empty");
  if (a.o_csv->count() && a.csv.empty()) throw gs::InputError("--csv: the file name is empty");

  const std::vector<gs::KernelDesc> lib = gs::load_kernel_library();
  std::vector<gs::Mix> mixes;
  for (const std::string& m : a.mixes) {
    gs::Mix mix = gs::load_mix(m, lib);
    if (mix.window_cycles)
      throw gs::InputError("--mix " + m +
                           ": a fixed-window mix relaunches its kernels; the accuracy replay needs each "
                           "kernel to run once");
    mixes.push_back(std::move(mix));
  }
  // the config: --config, else the one the mix names
  std::string config = a.config;
  if (a.o_config->count() == 0)
    for (const gs::Mix& m : mixes)
      if (!m.config.empty()) {
        config = m.config;
        if (!a.quiet)
          std::fprintf(stderr, "gsim: note: config %s, as named by mix %s\n", config.c_str(), m.name.c_str());
        break;
      }
  const bool need_config = runs || !a.ctas.empty();
  if (need_config && config.empty())
    throw gs::InputError(
        "--config is required for --kernel, --kernels, --mix and --ctas ('gsim list configs' lists the presets)");
  gs::GpuConfig cfg;
  if (need_config) cfg = gs::load_gpu_config(config);

  // ---- what to simulate
  std::vector<Planned> plan;
  if (runs) {
    const gs::spec::DerivedPolicyInfo* derived = gs::find_derived_policy(a.policy);
    if (!derived) check_scheduler_and_policy("golden", a.policy);
    const std::vector<gs::KernelDesc> chosen = select_kernels(lib, a.kernels, a.suite);
    for (const gs::KernelDesc& k : chosen)
      plan.push_back({gs::single_kernel_mix(k), a.o_group->count() ? a.group : "single-sim"});
    for (const gs::Mix& m : mixes)
      plan.push_back({m, a.o_group->count() ? a.group : derived ? derived->name : "multi-sim"});
    for (const Planned& p : plan) {
      gs::limits::check_mix_fits(cfg, p.mix);
      // an analysis policy runs here only when its shared run needs no other run (mpmax)
      if (derived && !gs::make_mix_strategy_for(a.policy)->shared_options(cfg, p.mix, gs::SchedOptions{}))
        throw gs::InputError("--policy " + a.policy + ": gsim accuracy simulates one run per mix, and " +
                             derived->name + " decides its shared run from other runs (gsim run runs it)");
    }
  }

  // ---- outputs, checked before anything is simulated
  // every file the run reads (common/output_file.hpp's rule): never overwritten by --csv
  std::vector<gs::NamedPath> inputs;
  for (const std::string& f : a.ctas) inputs.push_back({"--ctas", f});
  for (const gs::Mix& m : mixes)
    if (!m.file.empty()) inputs.push_back({"--mix", m.file});
  if (need_config)
    for (const gs::NamedPath& f : gs::config_input_files(a.o_config->count() ? "--config" : "the mix's config", config))
      inputs.push_back(f);
  for (const std::string& f : gs::kernel_library_files()) inputs.push_back({"kernel library file", f});
  if (!a.h100.empty())
    for (const char* name : {"/alone.csv", "/alone.csv.gz"}) inputs.push_back({"--h100-traces", a.h100 + name});
  if (a.o_csv->count()) gs::check_output_path("--csv", a.csv, inputs, {});
  // --csv -: the CSV alone on standard output, the summary goes to stderr
  FILE* summary_out = a.o_csv->count() && gs::is_stdout_path(a.csv) ? stderr : stdout;

  gs::AccuracyOptions opt;
  opt.actual = a.actual == "turnaround" ? gs::ActualRuntime::kTurnaround : gs::ActualRuntime::kSmActive;
  opt.last_slice_only = a.last_slice;
  std::vector<gs::AccuracyPoint> points;
  auto add = [&](const gs::AccuracyTrace& tr) {
    const std::vector<gs::AccuracyPoint> p = gs::srtf_accuracy(tr, opt);
    points.insert(points.end(), p.begin(), p.end());
  };

  // ---- the real GPU
  if (!a.h100.empty()) {
    std::string path;
    const std::string text = read_h100_alone(a.h100, path);
    if (text.empty() && !std::filesystem::is_regular_file(path)) {
      std::fprintf(stderr,
                   "gsim: note: --h100-traces %s: no alone.csv or alone.csv.gz there; the single-gpu group is "
                   "skipped\n",
                   a.h100.c_str());
    } else {
      const std::vector<gs::AccuracyTrace> traces = gs::parse_h100_alone_csv(text, path, "single-gpu");
      if (!a.quiet) std::fprintf(stderr, "gsim accuracy: %s: %zu runs\n", path.c_str(), traces.size());
      for (const gs::AccuracyTrace& tr : traces) add(tr);
    }
  }

  // ---- CTA files
  for (const std::string& f : a.ctas) {
    const std::string text = read_text_file(f, "--ctas");
    std::vector<gs::AccuracyKernel> ks;
    bool from_mix = !mixes.empty();
    if (from_mix) {
      for (const gs::MixEntry& e : mixes.front().kernels) {
        for (const gs::AccuracyKernel& k : ks)
          if (k.name == e.kernel)
            throw gs::InputError("--mix " + mixes.front().name + ": kernel " + e.kernel +
                                 " appears twice; the rows of a --ctas file cannot tell the two apart");
        ks.push_back({e.kernel, e.arrival_cycle, e.grid_ctas ? e.grid_ctas : e.desc.grid_ctas});
      }
    } else {
      // the kernels the file names, in order of first appearance, arriving at their first CTA start
      size_t pos = text.find('\n');
      while (pos != std::string::npos && pos + 1 < text.size()) {
        const size_t comma = text.find(',', pos + 1), nl = text.find('\n', pos + 1);
        if (comma != std::string::npos && comma < nl) {
          const std::string name = text.substr(pos + 1, comma - pos - 1);
          if (std::none_of(ks.begin(), ks.end(), [&](const gs::AccuracyKernel& k) { return k.name == name; })) {
            const gs::KernelDesc* d = nullptr;
            try {
              d = &gs::find_kernel(lib, name);
            } catch (const gs::InputError& e) {
              throw gs::InputError("--ctas " + f + ": " + e.what() + " (give the --mix the file was written for)");
            }
            ks.push_back({name, UINT64_MAX, d->grid_ctas});
          }
        }
        pos = nl;
      }
    }
    const std::string group = a.o_group->count() ? a.group : ks.size() > 1 ? "multi-sim" : "single-sim";
    gs::AccuracyTrace tr = gs::parse_cta_csv(text, f, ks, cfg.num_sms(), group);
    if (!from_mix) {
      for (gs::AccuracyKernel& k : tr.kernels) k.arrival_cycle = UINT64_MAX;
      for (const gs::AccuracyCta& c : tr.ctas)
        tr.kernels[c.kernel].arrival_cycle = std::min(tr.kernels[c.kernel].arrival_cycle, c.start_cycle);
      if (!a.quiet)
        std::fprintf(stderr,
                     "gsim: note: --ctas %s: kernels arrive at their first CTA's start, grid sizes from the "
                     "kernel library (give --mix for the mix's arrivals)\n",
                     f.c_str());
    }
    add(tr);
  }

  // ---- simulations
  for (size_t i = 0; i < plan.size(); ++i) {
    const gs::RunResult r = simulate(cfg, plan[i].mix, a, i, plan.size());
    add(gs::trace_from_run(r, plan[i].mix, cfg.num_sms(), plan[i].group, plan[i].mix.name));
  }

  std::fprintf(summary_out, "Simple Slicing predictor accuracy: predicted / actual runtime (actual: %s)%s\n",
               opt.actual == gs::ActualRuntime::kSmActive ? "the kernel's active cycles on the SM"
                                                          : "kernel turnaround",
               opt.last_slice_only ? "; SS: last slice only" : "");
  std::fputs(gs::format_accuracy_summary(gs::summarize_accuracy(points)).c_str(), summary_out);
  std::fflush(summary_out);
  if (a.o_csv->count()) {
    gs::write_file_atomically("--csv", a.csv, gs::format_accuracy_csv(points));
    if (!a.quiet) std::fprintf(stderr, "gsim accuracy: wrote %zu predictions to %s\n", points.size(), a.csv.c_str());
  }
  return 0;
}

}  // namespace

Command add_accuracy_command(CLI::App& top) {
  auto args = std::make_shared<AccuracyArgs>();
  CLI::App* app = top.add_subcommand(
      "accuracy", "Accuracy of SRTF's Simple Slicing runtime predictor on CTA traces (Pai et al. Fig. 11)");
  args->o_config = app->add_option("--config", args->config,
                                   "GPU config: preset name (gsim list configs) or JSON file; optional when a --mix "
                                   "names one");
  app->add_option("--kernel", args->kernels, "Run this kernel alone (gsim list kernels); may be given several times");
  app->add_option("--kernels", args->suite, "Run every kernel of a suite alone (e.g. pai), or all");
  app->add_option("--mix", args->mixes,
                  "Run this mix (gsim list mixes); may be given several times. With --ctas: the one mix the CTA "
                  "files were written for (arrivals, grid sizes), nothing is run");
  app->add_option("--ctas", args->ctas,
                  "Read a `gsim run --ctas` file instead of simulating; may be given several times");
  args->o_h100 = app->add_option("--h100-traces", args->h100,
                                 "Directory with the real H100 traces (alone.csv or alone.csv.gz, e.g. "
                                 "../shared/traces/h100): the single-gpu group; skipped with a note when absent");
  app->add_option("--policy", args->policy,
                  "Policy of the simulated runs (gsim list policies; mpmax: Pai et al.'s Just-in-Time MPMax, the "
                  "paper's mpmax group)")
      ->capture_default_str();
  app->add_option("--seed", args->seed, "Simulation seed")->check(whole_number())->capture_default_str();
  app->add_option("--max-cycles", args->max_cycles, "Stop with an error (exit 5) after this many cycles per run")
      ->check(whole_number(1))
      ->capture_default_str();
  args->o_group = app->add_option("--group", args->group,
                                  "Group name of every simulated or --ctas trace (default: single-sim for one kernel, "
                                  "multi-sim for several, mpmax for a mix under --policy mpmax)");
  app->add_option("--actual", args->actual,
                  "What a prediction is compared with: sm-active (the kernel's active cycles on that SM at its last "
                  "block end there, what Pred_Cycles predicts) or turnaround (last CTA end - arrival)")
      ->check(CLI::IsMember({"sm-active", "turnaround"}))
      ->capture_default_str();
  app->add_flag("--last-slice", args->last_slice,
                "SS: keep only the predictions of each kernel's last slice on each SM (the paper's mpmax group); the "
                "one slice-unaware prediction per kernel and SM is kept");
  args->o_csv = app->add_option("--csv", args->csv,
                                "Write one row per prediction (group,trace,kernel,sm,cycle,mode,ratio,...) to this "
                                "file; plot with sim_top/plots/srtf_accuracy.py");
  app->add_flag("-q,--quiet", args->quiet, "No progress and no notes on stderr");
  app->footer(
      "Each trace's CTAs become the event stream of every SM's predictor (launch with Total_Blocks = "
      "ceil(grid/N_SM), block start/end on the lowest free block slot, kernel end) replayed through the golden "
      "predictor (Algorithm 1, Eq. 2). Modes: SS = every block end's prediction; unaware = the first prediction of "
      "each kernel on each SM. Summary columns: n predictions, min, quartiles, max of predicted/actual, and the "
      "share within 0.5x..2x. docs/srtf-accuracy.md.");
  return {app, [args] { return accuracy_action(*args); }};
}

}  // namespace gsim
