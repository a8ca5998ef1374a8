// gsim run: simulates a mix on a GPU config under one policy and prints the metrics table.
//
// Every kernel of the mix first runs alone (Left-Over, arrival 0; see metrics/mix_runner.hpp)
// to give T_alone, then the mix runs shared. Output: the table on stdout, optionally the same
// figures as JSON (--json) and CSV (--csv); schema in docs/cli.md.
#include <CLI/CLI.hpp>
#include <cstdint>
#include <cstdio>
#include <memory>

#include "commands.hpp"
#include "common/error.hpp"
#include "config/gpu_config.hpp"
#include "gpu/gpu.hpp"
#include "metrics/mix_runner.hpp"
#include "metrics/report.hpp"
#include "workload/kernel_desc.hpp"

namespace gsim {

namespace {

struct RunArgs {
  std::string config, mix, policy = "left-over", scheduler, preempt = "drain";
  uint64_t seed = 1;
  std::string json, csv, wave;
  uint64_t max_cycles = gs::RunOptions{}.max_cycles;
  uint64_t watchdog_cycles = gs::RunOptions{}.watchdog_cycles;
  uint64_t progress_every = 0;
  bool full_eval = false;
  uint64_t wave_from = 0, wave_to = UINT64_MAX;   // --wave-from / --wave-to (cycles, inclusive)
};

gs::PreemptMode parse_preempt(const std::string& s) {
  return s == "switch" ? gs::PreemptMode::kSwitch : gs::PreemptMode::kDrain;   // CLI11 checked the set
}

/// Runs `run`; when the shared run stops at --max-cycles or the watchdog with --wave, the
/// waveform is already closed (the scheduler is gone) and kept: the message says so.
template <class F>
gs::MixRun run_keeping_wave(const RunArgs& a, F run) {
  try {
    return run();
  } catch (const gs::WatchdogError& err) {
    const std::string what = err.what();
    if (a.wave.empty() || what.rfind("alone run of kernel", 0) == 0) throw;
    throw gs::WatchdogError(what + (what.empty() || what.back() == '\n' ? "" : "\n") + "waveform kept: " + a.wave +
                            " (closed when the run stopped; the scheduler line above gives the cycles it holds; " +
                            "1 ns = 1 cycle). Results incomplete: the shared run did not finish, so there are no " +
                            "metrics; the state above lists each kernel's progress.");
  }
}

int run_action(const RunArgs& a) {
  register_build_schedulers();
  check_scheduler_and_policy(a.scheduler, a.policy);
  if (!a.wave.empty() && a.scheduler == "golden")
    throw gs::InputError("--wave: the golden scheduler has no waveform; use --scheduler rtl or lockstep");
  if (a.wave.empty() && (a.wave_from != 0 || a.wave_to != UINT64_MAX))
    throw gs::InputError("--wave-from/--wave-to: they select cycles of the --wave file; give --wave F.fst too");
  if (a.wave_from > a.wave_to)
    throw gs::InputError("--wave-from " + std::to_string(a.wave_from) + " is after --wave-to " +
                         std::to_string(a.wave_to) + ": the window would be empty");

  const gs::GpuConfig cfg = gs::load_gpu_config(a.config);
  const std::vector<gs::KernelDesc> lib = gs::load_kernel_library();
  const gs::Mix mix = gs::load_mix(a.mix, lib);

  gs::SchedOptions sched;
  sched.policy = a.policy;
  sched.preempt = parse_preempt(a.preempt);
  sched.seed = a.seed;
  sched.wave_file = a.wave;
  sched.wave_from = a.wave_from;
  sched.wave_to = a.wave_to;
  sched.rtl_fixed_point_skip = !a.full_eval;

  gs::RunOptions run;
  run.seed = a.seed;
  run.max_cycles = a.max_cycles;
  run.watchdog_cycles = a.watchdog_cycles;
  run.progress_every = a.progress_every;

  if (run.progress_every)   // progress lines of the alone runs come first; say so
    std::fprintf(stderr, "gsim: %zu kernel(s) run alone under %s first, then the mix under %s\n", mix.kernels.size(),
                 gs::kAlonePolicy, a.policy.c_str());
  gs::AloneRunCache cache;
  const gs::MixRun result = run_keeping_wave(a, [&] {
    if (!a.wave.empty())  // alone runs first, so a stop there is named as such
      for (const gs::MixEntry& e : mix.kernels) {
        try {
          cache.get(cfg, e, a.scheduler, sched, run);
        } catch (const gs::WatchdogError& err) {
          const std::string what = err.what();
          throw gs::WatchdogError("alone run of kernel " + e.kernel + " (before the shared run): " + what +
                                  (what.empty() || what.back() == '\n' ? "" : "\n") +
                                  "no waveform: --wave records the shared run, which never started");
        }
      }
    return gs::run_mix_with_alone(cfg, mix, a.scheduler, sched, run, cache);
  });

  if (!a.wave.empty() && a.wave_from >= result.shared.cycles)
    std::fprintf(stderr, "gsim: note: --wave-from %llu is past the shared run's last cycle (%llu): no waveform written\n",
                 static_cast<unsigned long long>(a.wave_from),
                 static_cast<unsigned long long>(result.shared.cycles ? result.shared.cycles - 1 : 0));

  gs::RunInfo info;
  info.config = cfg.name;
  info.mix = mix.name;
  info.policy = a.policy;
  info.scheduler = a.scheduler;
  info.preempt = a.preempt;
  info.seed = a.seed;

  std::fputs(gs::format_table(info, result.metrics).c_str(), stdout);
  if (!a.json.empty()) write_text_file(a.json, gs::format_json(info, result.metrics), "--json");
  if (!a.csv.empty()) write_text_file(a.csv, gs::format_csv(info, result.metrics), "--csv");
  return 0;
}

}  // namespace

Command add_run_command(CLI::App& top) {
  auto args = std::make_shared<RunArgs>();
  args->scheduler = default_scheduler_kind();
  CLI::App* app = top.add_subcommand("run", "Run a mix: each kernel alone, then all together; print STP, ANTT, StrictF");
  app->add_option("--config", args->config, "GPU config: preset name (gsim list configs) or JSON file")->required();
  app->add_option("--mix", args->mix, "Workload mix: name (gsim list mixes) or JSON file")->required();
  app->add_option("--policy", args->policy, "Scheduling policy (gsim list policies)")->capture_default_str();
  app->add_option("--scheduler", args->scheduler,
                  "Scheduler implementation: golden (C++), rtl (Verilated), lockstep (RTL checked against golden)")
      ->capture_default_str();
  app->add_option("--preempt", args->preempt, "Preemption mechanism")
      ->check(CLI::IsMember({"drain", "switch"}))
      ->capture_default_str();
  app->add_option("--seed", args->seed, "Random seed (same seed, same output bytes)")->capture_default_str();
  app->add_option("--json", args->json, "Write the results as JSON to this file");
  app->add_option("--csv", args->csv, "Write one CSV row per kernel to this file");
  app->add_option("--max-cycles", args->max_cycles, "Stop with an error (exit 5) after this many cycles per run")
      ->capture_default_str();
  app->add_option("--watchdog-cycles", args->watchdog_cycles,
                  "Stop with a state dump (exit 5) after this many cycles without progress")
      ->capture_default_str();
  // Given without a value, --progress uses default_str (CLI11: expected(0,1)); absent, it stays 0.
  app->add_option("--progress", args->progress_every,
                  "Print a progress line to stderr every N cycles (N defaults to 100000)")
      ->expected(0, 1)
      ->default_str("100000")
      ->option_text("[=N]");
  app->add_flag("--rtl-full-eval", args->full_eval,
                "rtl/lockstep: evaluate the RTL at every clock edge, even where it provably sits at a fixed point "
                "(same results, slower; see docs/cosim.md)");
  app->add_option("--wave", args->wave, "Dump the shared run's scheduler waveform to this FST file (rtl, lockstep)");
  app->add_option("--wave-from", args->wave_from, "With --wave: first cycle to dump (default: 0)");
  app->add_option("--wave-to", args->wave_to, "With --wave: last cycle to dump (default: the end of the run)");
  return {app, [args] { return run_action(*args); }};
}

}  // namespace gsim
