// gsim run: simulates a mix on a GPU config under one policy and prints the metrics table.
//
// Every kernel of the mix first runs alone (Left-Over, arrival 0; see metrics/mix_runner.hpp)
// to give T_alone, then the mix runs shared. Output: the table and the policy's reports on
// stdout, optionally the same as JSON (--json) and CSV (--csv), and the shared run's counters
// per kernel and SM type as CSV (--counters; also in the table and the JSON); schema in
// docs/cli.md. This file is the run; run_report.cpp formats its outputs, run_wave.cpp checks
// and hands off its waveform.
//
// Everything that can be checked is checked before the first simulated cycle: option values,
// the config (with --set overrides), the mix against the config (config/limits.hpp), the
// scheduler against the RTL build, and every output path (common/output_file.hpp). Results
// are written atomically once the run is complete; Ctrl-C stops the run cleanly (exit 130)
// with any waveform closed as a valid, truncated FST.
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <memory>

#include "commands.hpp"
#include "run_report.hpp"
#include "run_wave.hpp"
#include "common/error.hpp"
#include "common/output_file.hpp"
#include "common/parallel_for.hpp"
#include "config/gpu_config.hpp"
#include "config/json_reader.hpp"
#include "config/limits.hpp"
#include "gpu/gpu.hpp"
#include "metrics/counters_report.hpp"
#include "metrics/counters_summary.hpp"
#include "metrics/mix_runner.hpp"
#include "metrics/mix_strategy.hpp"
#include "metrics/report.hpp"
#include "workload/kernel_desc.hpp"


namespace gsim {

namespace {

// A waveform needs room: the FST writer's buffers go to the target's file system, and running
// out of it mid-run is what this refuses up front (docs/cli.md, --wave).
constexpr unsigned long long kWaveMinFreeBytes = 64ull << 20;

struct RunArgs {
  std::string config, mix, kernel, policy = gs::spec::kDefaultPolicyName, scheduler, preempt = "drain",
                                   sm_sharing = "shared";
  uint64_t seed = 1;
  std::string json, csv, counters, wave, ctas, timeline;
  uint32_t cta_limit = 0;
  uint64_t max_cycles = gs::RunOptions{}.max_cycles;
  uint64_t obs_interval = 0;
  unsigned threads = 1;  // --threads: SM ticks of a cycle on N threads
  uint64_t watchdog_cycles = gs::RunOptions{}.watchdog_cycles;
  uint64_t progress_every = 0;
  bool quiet = false;
  bool full_eval = false;
  bool no_state_check = false;
  uint64_t wave_from = 0, wave_to = UINT64_MAX;  // --wave-from / --wave-to (cycles, inclusive)
  uint64_t window_cycles = 0, window_start = 0;  // --window-cycles / --window-start (fixed window)
  std::vector<std::string> sets;
  std::vector<std::string> kernel_files;  // --kernels: the user's own kernel libraries
  // Options whose presence matters (an empty --json "" is an error, not "no file").
  CLI::Option *o_config = nullptr, *o_mix = nullptr, *o_kernel = nullptr, *o_scheduler = nullptr, *o_json = nullptr,
              *o_csv = nullptr, *o_counters = nullptr, *o_wave = nullptr, *o_progress = nullptr, *o_ctas = nullptr,
              *o_timeline = nullptr, *o_window_cycles = nullptr, *o_window_start = nullptr;
};

gs::PreemptMode parse_preempt(const std::string& s) {
  return s == "switch" ? gs::PreemptMode::kSwitch : gs::PreemptMode::kDrain;  // CLI11 checked the set
}

std::string base_name(const std::string& config_name) { return config_name.substr(0, config_name.find_first_of("{@")); }

int run_action(const RunArgs& a) {
  // ---- inputs
  if (a.o_mix->count() == 0 && a.o_kernel->count() == 0)
    throw gs::InputError("run: give --mix (a mix name or file) or --kernel (one kernel alone)");
  if (a.o_kernel->count() && a.o_kernel->as<std::string>().empty())
    throw gs::InputError("--kernel: the kernel name is empty ('gsim list kernels' lists them)");
  const std::vector<gs::KernelDesc> lib = gs::load_kernel_library(a.kernel_files);
  gs::Mix mix = a.o_kernel->count() ? gs::single_kernel_mix(gs::find_kernel(lib, a.kernel)) : gs::load_mix(a.mix, lib);
  if (a.o_window_cycles->count() || a.o_window_start->count()) {
    gs::WindowOverride w;
    if (a.o_window_cycles->count()) w.cycles = a.window_cycles;
    if (a.o_window_start->count()) w.start = a.window_start;
    gs::override_window(mix, w, a.o_window_cycles->count() ? "--window-cycles" : "--window-start");
  }

  std::string config = a.config;
  if (a.o_config->count() == 0) {
    if (mix.config.empty())
      throw gs::InputError("--config is required: mix " + (mix.file.empty() ? mix.name : mix.file) +
                           " names no config ('gsim list configs' lists the presets)");
    config = mix.config;
    if (!a.quiet)
      std::fprintf(stderr, "gsim: note: config %s, as named by %s\n", config.c_str(),
                   a.o_kernel->count() ? ("the suite file of kernel " + a.kernel).c_str()
                                       : ("mix " + mix.name).c_str());
  }
  const gs::GpuConfig cfg = gs::load_gpu_config(config, a.sets);
  if (!mix.config.empty() && a.o_config->count() && base_name(cfg.name) != mix.config)
    std::fprintf(stderr,
                 "gsim: warning: mix %s was written for config '%s' (its \"config\" field), running it on '%s'\n",
                 mix.name.c_str(), mix.config.c_str(), cfg.name.c_str());
  gs::limits::check_mix_fits(cfg, mix);

  // An analysis policy (oracle, sjf, ...: a registry entry with runs_under) runs the mix its own
  // way around the scheduler policy it names (metrics/mix_strategy.hpp); it decides CTA caps or
  // the SM mapping itself, so it takes neither --cta-limit nor --sm-sharing exclusive.
  const std::string policy = gs::canonical_policy_name(a.policy);
  const gs::spec::DerivedPolicyInfo* derived = gs::find_derived_policy(policy);
  std::unique_ptr<gs::MixStrategy> strategy = gs::make_mix_strategy_for(policy);
  if (derived && (a.cta_limit || (a.sm_sharing == "exclusive" && !derived->sm_sharing)))
    throw gs::InputError(std::string(a.cta_limit ? "--cta-limit" : "--sm-sharing exclusive") + ": --policy " + policy +
                         " runs under " + derived->runs_under + " and decides CTA caps and SM sharing itself (" +
                         derived->doc + ")");
  if (strategy && !mix.processes.empty())
    throw gs::InputError("--policy " + policy + ": an analysis policy runs kernel mixes; mix " + mix.name +
                         " is a process mix (docs/workloads.md, \"Processes\"): use a scheduler policy");
  if (derived && derived->golden_only && a.o_scheduler->count() && a.scheduler != "golden")
    throw gs::InputError("--scheduler " + a.scheduler + ": --policy " + policy + " is C++ only (" + derived->doc +
                         "); use --scheduler golden or leave --scheduler out");
  gs::SchedOptions sched;
  sched.policy = derived ? derived->runs_under : policy;
  sched.preempt = parse_preempt(a.preempt);
  sched.sm_sharing = a.sm_sharing == "exclusive" ? gs::SmSharing::kExclusive : gs::SmSharing::kShared;
  sched.seed = a.seed;
  sched.cta_limit = a.cta_limit;  // the shared run only: alone runs always get the whole GPU
  sched.wave_file = a.wave;
  sched.wave_from = a.wave_from;
  sched.wave_to = a.wave_to;
  sched.rtl_fixed_point_skip = !a.full_eval;
  sched.lockstep_state_check = !a.no_state_check;
  const bool want_wave = a.o_wave->count() > 0;
  if (!want_wave && (a.wave_from != 0 || a.wave_to != UINT64_MAX))
    throw gs::InputError("--wave-from/--wave-to: they select cycles of the --wave file; give --wave F.fst too");
  if (a.wave_from > a.wave_to)
    throw gs::InputError("--wave-from " + std::to_string(a.wave_from) + " is after --wave-to " +
                         std::to_string(a.wave_to) + ": the window would be empty");
  gs::limits::check_scheduler_config(cfg, sched);  // options against the policy, before any alone run
  const std::string scheduler = derived && derived->golden_only
                                    ? "golden"
                                    : choose_scheduler(a.o_scheduler->count() > 0, a.scheduler, cfg, sched, mix,
                                                       want_wave, a.quiet);
  if (want_wave && scheduler == "golden")
    throw gs::InputError("--wave: the golden scheduler has no waveform; use --scheduler rtl or lockstep");

  // ---- outputs, before anything is simulated
  std::vector<gs::NamedPath> inputs = gs::config_input_files("--config", config);  // and the configs it reads
  if (!mix.file.empty()) inputs.push_back({"--mix", mix.file});
  for (const std::string& file : gs::kernel_library_files(a.kernel_files))
    inputs.push_back({"kernel library file", file});
  std::vector<gs::NamedPath> outputs;
  bool to_stdout = false;
  if (want_wave && a.wave == "-") throw gs::InputError("--wave -: a waveform is a binary FST file; give a file name");
  for (const auto& [opt, path] : {std::pair<CLI::Option*, std::string>{a.o_json, a.json},
                                  {a.o_csv, a.csv},
                                  {a.o_counters, a.counters},
                                  {a.o_wave, a.wave},
                                  {a.o_ctas, a.ctas},
                                  {a.o_timeline, a.timeline}}) {
    if (!opt->count()) continue;
    to_stdout |= gs::is_stdout_path(path);
    gs::check_output_path(opt->get_name(), path, inputs, outputs);
    outputs.push_back({opt->get_name(), path});
  }
  if (want_wave)  // the view and its window, written beside it (run_wave.hpp)
    for (const char* ext : {".gtkw", ".tcl"}) {
      const std::string what = std::string("--wave (its ") + (ext[1] == 'g' ? "view" : "window") + ")";
      gs::check_output_path(what, wave_view_path(a.wave, ext), inputs, outputs);
      outputs.push_back({what, wave_view_path(a.wave, ext)});
    }
  if (want_wave) {
    const unsigned long long free = gs::free_bytes_for(a.wave);
    if (free < kWaveMinFreeBytes)
      throw gs::InputError("--wave " + a.wave + ": only " + std::to_string(free >> 20) +
                           " MiB free on its file system; a waveform needs at least " +
                           std::to_string(kWaveMinFreeBytes >> 20) +
                           " MiB (refusing rather than leaving a broken file)");
    set_wave_cleanup(a.wave);
  }

  gs::RunOptions run;
  run.seed = a.seed;
  run.max_cycles = a.max_cycles;
  run.obs_interval = a.obs_interval;
  run.threads = usable_threads(a.threads, a.quiet);
  run.watchdog_cycles = a.watchdog_cycles;
  run.progress_every = 0;  // progress comes from the reporter below

  ProgressOptions po;
  if (!a.quiet) {
    if (a.o_progress->count()) po.every = a.progress_every;
    else po.live = ::isatty(2) != 0;
  }
  ProgressReporter progress(po);
  if (po.every)
    std::fprintf(stderr, "gsim: %zu %s run alone under %s first, then the mix under %s (scheduler %s)\n",
                 mix.processes.empty() ? mix.kernels.size() : mix.processes.size(),
                 mix.processes.empty() ? "kernel(s)" : "process(es)", gs::kAlonePolicy, policy.c_str(),
                 scheduler.c_str());
  gs::RunPhase phase_now;  // the run a --max-cycles or watchdog stop is named after (kernel left empty)
  const gs::CycleHook hook = [&progress, &phase_now](const gs::RunPhase& p, uint64_t cycle) {
    phase_now.shared = p.shared;
    phase_now.index = p.index;
    phase_now.count = p.count;
    progress.on_cycle(p.shared, p.index, p.count, p.kernel, cycle);
  };

  gs::AloneRunCache cache;
  gs::MixRun result;
  std::vector<gs::Report> strategy_reports;
  try {
    if (want_wave)  // alone runs first, so a stop there is named as such (the waveform records the shared run)
      for (std::size_t i = 0; i < mix.processes.size(); ++i) {
        try {
          gs::RunPhase phase;
          phase.index = static_cast<uint32_t>(i + 1);
          phase.count = static_cast<uint32_t>(mix.processes.size());
          phase.kernel = mix.processes[i].name;
          cache.get_process(cfg, mix, static_cast<uint32_t>(i), scheduler, sched, run, hook, phase);
        } catch (const gs::WatchdogError& err) {
          const std::string what = err.what();
          throw gs::WatchdogError("alone run of process " + mix.processes[i].name + " (before the shared run): " +
                                  what + (what.empty() || what.back() == '\n' ? "" : "\n") +
                                  "no waveform: --wave records the shared run, which never started");
        }
      }
    if (want_wave && mix.processes.empty())
      for (std::size_t i = 0; i < mix.kernels.size(); ++i) {
        const gs::MixEntry& e = mix.kernels[i];
        try {
          gs::RunPhase phase;
          phase.index = static_cast<uint32_t>(i + 1);
          phase.count = static_cast<uint32_t>(mix.kernels.size());
          phase.kernel = e.kernel;
          cache.get(cfg, e, scheduler, sched, run, hook, phase, mix.window_cycles, mix.window_start);
        } catch (const gs::WatchdogError& err) {
          const std::string what = err.what();
          throw gs::WatchdogError("alone run of kernel " + e.kernel + " (before the shared run): " + what +
                                  (what.empty() || what.back() == '\n' ? "" : "\n") +
                                  "no waveform: --wave records the shared run, which never started");
        }
      }
    if (strategy) {
      const gs::StrategyRun r{cfg, mix, scheduler, sched, run, cache, hook, [&](const std::string& note) {
                                if (a.quiet) return;
                                progress.finish();
                                std::fprintf(stderr, "gsim: %s\n", note.c_str());
                              }};
      result = strategy->run(r, strategy_reports);
    } else {
      result = gs::run_mix_with_alone(cfg, mix, scheduler, sched, run, cache, hook);
    }
  } catch (const gs::WatchdogError& err) {
    // the shared run stopped at --max-cycles or the watchdog: the waveform is closed and kept
    progress.finish();
    const std::string what = err.what();
    if (what.rfind("alone run of kernel", 0) == 0 || what.rfind("alone run of process", 0) == 0) throw;
    if (!phase_now.shared && !mix.processes.empty() && phase_now.index >= 1 && phase_now.index <= mix.processes.size())
      throw gs::WatchdogError("alone run of process " + mix.processes[phase_now.index - 1].name + " (" +
                              std::to_string(phase_now.index) + " of " + std::to_string(phase_now.count) +
                              ", before the shared run): " + what);
    if (!phase_now.shared && phase_now.index >= 1 && phase_now.index <= mix.kernels.size())
      throw gs::WatchdogError("alone run of kernel " + mix.kernels[phase_now.index - 1].kernel + " (" +
                              std::to_string(phase_now.index) + " of " + std::to_string(phase_now.count) +
                              ", before the shared run): " + what);
    const std::string shared = "shared run of mix " + mix.name + " (" + std::to_string(mix.kernels.size()) +
                               " kernel(s) under " + policy + "): " + what;
    if (!want_wave) throw gs::WatchdogError(shared);
    throw gs::WatchdogError(shared + (what.empty() || what.back() == '\n' ? "" : "\n") + "waveform kept: " + a.wave +
                            " (closed when the run stopped; the scheduler line above gives the cycles it holds; " +
                            "1 ns = 1 cycle). Results incomplete: the shared run did not finish, so there are no " +
                            "metrics; the state above lists each kernel's progress.");
  } catch (const gs::Interrupted& e) {
    progress.finish();
    std::string msg = std::string(e.what()) + "; no results written";
    if (want_wave) {
      std::error_code ec;
      if (!std::filesystem::exists(a.wave, ec) || std::string(e.what()).find("shared run") == std::string::npos) {
        msg += "; no waveform written (it records the shared run only)";
      } else if (const std::string bad = wave_problem(a.wave); bad.empty()) {
        msg += "; waveform " + a.wave + " closed at that cycle (a valid, truncated FST)";
      } else {
        std::filesystem::remove(a.wave, ec);
        msg += "; waveform " + a.wave + " removed (" + bad + ")";
      }
    }
    throw gs::Interrupted(msg);
  } catch (const gs::InputError& e) {
    throw gs::InputError(locate_run_error(e.what(), cfg, mix));
  }
  progress.finish();
  if (want_wave && a.wave_from >= result.shared.cycles) {
    if (!a.quiet)
      std::fprintf(stderr,
                   "gsim: note: --wave-from %llu is past the shared run's last cycle (%llu): no waveform written\n",
                   static_cast<unsigned long long>(a.wave_from),
                   static_cast<unsigned long long>(result.shared.cycles ? result.shared.cycles - 1 : 0));
  } else if (want_wave) {
    const uint64_t wave_end = a.wave_to < result.shared.cycles ? a.wave_to + 1 : result.shared.cycles;
    verify_wave(a.wave, wave_end);
    hand_off_wave(a.wave, a.wave_from, wave_end - 1, sched.policy, a.quiet);
  }

  gs::RunInfo info;
  info.config = cfg.name;
  info.mix = mix.name;
  // A capped run is not the policy's own result: it is reported as POLICY{cta_limit=N}.
  info.policy = a.cta_limit ? policy + "{cta_limit=" + std::to_string(a.cta_limit) + "}" : policy;
  info.scheduler = scheduler;
  info.preempt = a.preempt;
  info.sm_sharing = a.sm_sharing;
  info.seed = a.seed;
  info.version = version_string();

  gs::CountersSummary counters = gs::summarize_counters(cfg, result.shared, &mix);
  counters.alone = result.alone_counters;
  const RunReport out{info,
                      mix,
                      result,
                      counters,
                      collect_reports(result, mix, std::move(strategy_reports)),
                      result.shared.records_dropped};
  // An output given as `-` is standard output; the table then stays off it, so what a pipe reads
  // is that document alone (--json - | jq ...).
  if (!to_stdout) {
    std::fputs(run_report_text(out).c_str(), stdout);
    std::fflush(stdout);
  }
  if (a.o_json->count()) gs::write_file_atomically("--json", a.json, run_report_json(out).dump(2) + "\n");
  if (a.o_csv->count()) gs::write_file_atomically("--csv", a.csv, gs::format_csv(info, result.metrics));
  if (a.o_counters->count())
    gs::write_file_atomically("--counters", a.counters, gs::format_counters_csv(info, counters));
  if (a.o_ctas->count()) gs::write_file_atomically("--ctas", a.ctas, format_cta_records(result.shared, mix));
  if (a.o_timeline->count())
    gs::write_file_atomically("--timeline", a.timeline, format_timeline(info, cfg, result.shared, mix));
  return 0;
}

}  // namespace

Command add_run_command(CLI::App& top) {
  auto args = std::make_shared<RunArgs>();
  args->scheduler = default_scheduler_kind();
  CLI::App* app = top.add_subcommand("run",
                                     "Run a mix: each kernel alone, then all together; print STP, ANTT, StrictF");
  args->o_config = app->add_option("--config", args->config,
                                   "GPU config: preset name (gsim list configs) or JSON file; "
                                   "optional when the mix names one");
  args->o_mix = app->add_option("--mix", args->mix, "Workload mix: name (gsim list mixes) or JSON file");
  args->o_kernel = app->add_option("--kernel", args->kernel,
                                   "Run one kernel alone instead of a mix (gsim list kernels); its config defaults to "
                                   "the preset its suite file names")
                       ->excludes(args->o_mix);
  app->add_option("--kernels", args->kernel_files,
                  "A kernel library file of your own (the format of sim_top/workloads/kernels/*.json), read beside "
                  "the shipped ones; repeatable (docs/workloads.md, \"Describe your own kernel\")")
      ->type_name("FILE.json")
      ->allow_extra_args(false);
  app->add_option("--set", args->sets,
                  "Change a config field: key=value, e.g. --set l2_assoc=16 --set sm_types[0].count=8, or a "
                  "policy's setting: --set policy.warped-slicer.sample_cycles=2000 (repeatable; the results name "
                  "the config as changed; gsim list policies --long shows the settings)")
      ->type_name("KEY=VALUE")
      ->allow_extra_args(false);
  app->add_option("--policy", args->policy, "Scheduling policy (gsim list policies)")->capture_default_str();
  args->o_scheduler = app->add_option("--scheduler", args->scheduler,
                                      "Scheduler implementation: golden (C++), rtl (Verilated), lockstep (RTL checked "
                                      "against golden); the default falls back to golden when a config exceeds the RTL "
                                      "build")
                          ->capture_default_str();
  app->add_option("--preempt", args->preempt, "Preemption mechanism")
      ->check(CLI::IsMember({"drain", "switch"}))
      ->capture_default_str();
  app->add_option("--sm-sharing", args->sm_sharing,
                  "How kernels share an SM: shared (a kernel uses what the others leave free) or exclusive (one "
                  "kernel per SM, as Kepler and Tanasic's FCFS/NPQ baselines); exclusive is for left-over, npq "
                  "and ppq")
      ->check(CLI::IsMember({"shared", "exclusive"}))
      ->capture_default_str();
  app->add_option("--seed", args->seed, "Random seed (same seed, same output bytes)")
      ->check(whole_number())
      ->capture_default_str();
  args->o_json = app->add_option("--json", args->json, "Write the results as JSON to this file");
  args->o_csv = app->add_option("--csv", args->csv, "Write one CSV row per kernel to this file");
  args->o_counters = app->add_option("--counters", args->counters,
                                     "Write the shared run's counters (IPC, L1/L2 hit rates, DRAM bytes and share of "
                                     "peak, stalls, preemptions, context traffic) as CSV to this file: one row per "
                                     "kernel and SM type, per kernel, and GPU-wide (docs/cli.md)");
  args->o_ctas = app->add_option("--ctas", args->ctas,
                                 "Write one CSV row per CTA of the shared run (kernel, cta, sm, start_cycle, "
                                 "end_cycle) to this file (docs/cli.md)");
  args->o_timeline = app->add_option("--timeline", args->timeline,
                                     "Write the shared run's SM occupancy over time (every CTA's SM, start and end, "
                                     "finished or context-saved, and every preemption) as JSON to this file; "
                                     "plot it with sim_top/plots/timeline.py (docs/cli.md)");
  app->add_option("--cta-limit", args->cta_limit,
                  "Left-Over: at most N CTAs of a kernel per SM in the shared run (0 = no limit; alone runs "
                  "never limited); the Warped-Slicer Fig. 3a and H100 sweeps")
      ->check(whole_number(0, 32))
      ->capture_default_str();
  args->o_window_cycles =
      app->add_option("--window-cycles", args->window_cycles,
                      "Fixed-window method: every kernel relaunches until the window ends and the metrics are "
                      "taken over it; replaces the mix's window_cycles (docs/workloads.md)")
          ->check(whole_number(1, uint64_t(1) << 48));
  args->o_window_start = app->add_option("--window-start", args->window_start,
                                         "Fixed-window method: the cycle the measured window opens; replaces the "
                                         "mix's window_start (a mix without a window also needs --window-cycles)")
                             ->check(whole_number(0, uint64_t(1) << 48));
  app->add_option("--max-cycles", args->max_cycles, "Stop with an error (exit 5) after this many cycles per run")
      ->check(whole_number(1))
      ->capture_default_str();
  app->add_option("--obs-interval", args->obs_interval,
                  "Observation epoch in cycles: at the end of each, the scheduler receives one counter sample per SM "
                  "and kernel (instructions, memory-stall cycles, L1/L2 misses) on its port; 0 = no samples "
                  "(docs/architecture.md)")
      ->check(whole_number())
      ->capture_default_str();
  app->add_option("--threads", args->threads,
                  "Tick the SMs of each cycle on N threads; the output is the same for every N "
                  "(docs/performance.md, \"Threads\")")
      ->check(whole_number(1, gs::ParallelFor::kMaxThreads))
      ->capture_default_str();
  app->add_option("--watchdog-cycles", args->watchdog_cycles,
                  "Stop with a state dump (exit 5) after this many cycles without progress")
      ->check(whole_number(1))
      ->capture_default_str();
  // Given without a value, --progress uses default_str (CLI11: expected(0,1)); absent, it stays 0.
  args->o_progress = app->add_option("--progress", args->progress_every,
                                     "Print a progress line to stderr every N simulated cycles (default 100000); "
                                     "without it, a live status line is shown when stderr is a terminal")
                         ->expected(0, 1)
                         ->default_str("100000")
                         ->check(whole_number(1))
                         ->option_text("[=N]");
  app->add_flag("-q,--quiet", args->quiet, "No progress and no notes on stderr (warnings and errors still)")
      ->excludes(args->o_progress);
  app->add_flag("--rtl-full-eval", args->full_eval,
                "rtl/lockstep: evaluate the RTL at every clock edge, even where it provably sits at a fixed point "
                "(same results, slower; see docs/cosim.md)");
  app->add_flag("--no-state-check", args->no_state_check,
                "lockstep: compare only gs_top's outputs, not also the scheduler's tables (KSRT, SMST, PTBQ, "
                "Active Queue, quotas) every cycle; the table check finds a corrupted entry where it happens "
                "(docs/cosim.md)");
  args->o_wave = app->add_option("--wave", args->wave,
                                 "Dump the shared run's scheduler waveform to this FST file (rtl, lockstep)");
  app->add_option("--wave-from", args->wave_from, "With --wave: first cycle to dump (default: 0)")
      ->check(whole_number());
  app->add_option("--wave-to", args->wave_to, "With --wave: last cycle to dump (default: the end of the run)")
      ->check(whole_number());
  return {app, [args] { return run_action(*args); }};
}

}  // namespace gsim
