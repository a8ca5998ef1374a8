// gsim bench: simulation speed -- simulated GPU cycles per wall-clock second and peak memory.
//
// Runs a fixed number of cycles (Gpu::step) of a shipped compute+memory pair on the 16-SM
// Warped-Slicer config. If the mix finishes early it starts again from cycle 0 (a fresh Gpu
// and scheduler), so every bench run simulates exactly --cycles cycles and the figure does
// not depend on how long the pair happens to be. The only command whose output carries
// wall-clock figures.
#include <sys/resource.h>

#include <CLI/CLI.hpp>
#include <chrono>
#include <cstdio>
#include <memory>
#include <nlohmann/json.hpp>

#include "commands.hpp"
#include "common/error.hpp"
#include "config/gpu_config.hpp"
#include "config/limits.hpp"
#include "gpu/gpu.hpp"
#include "metrics/report.hpp"
#include "workload/kernel_desc.hpp"

namespace gsim {

namespace {

// The pair benchmarked by default: the shipped `default` mix, HOT (compute non-saturating)
// with BLK (memory intensive), Warped-Slicer Table II classes, on the Table I GPU.
constexpr const char* kBenchConfig = "warped-slicer";
constexpr const char* kBenchMix = "default";
// Default length: a few seconds at the 100,000 cycles/s target.
constexpr uint64_t kBenchCycles = 1'000'000;
// Upper bound of --cycles: about three hours at the 100,000 cycles/s target.
constexpr uint64_t kMaxBenchCycles = 1'000'000'000;

struct BenchArgs {
  std::string config = kBenchConfig, mix = kBenchMix, policy = "left-over", scheduler;
  uint64_t cycles = kBenchCycles;
  uint64_t seed = 1;
  uint64_t obs_interval = 0;   // --obs-interval: observation epoch (0 = no samples)
  bool scheduler_given = false;
  bool json = false;
  bool full_eval = false;   // --rtl-full-eval: no fixed-point skip
  bool no_state_check = false;  // --no-state-check: lockstep compares the port only
};

struct BenchResult {
  uint64_t cycles = 0;
  uint32_t mix_runs = 0;   // how many times the mix was started
  gs::SchedEvalStats eval;  // summed over the mix runs
  double seconds = 0;
};

BenchResult simulate_cycles(const gs::GpuConfig& cfg, const gs::Mix& mix, const BenchArgs& a) {
  gs::SchedOptions sched;
  sched.policy = a.policy;
  sched.seed = a.seed;
  sched.rtl_fixed_point_skip = !a.full_eval;
  sched.lockstep_state_check = !a.no_state_check;
  gs::RunOptions run;
  run.seed = a.seed;
  run.sched = sched;
  run.obs_interval = a.obs_interval;

  BenchResult r;
  const auto t0 = std::chrono::steady_clock::now();
  while (r.cycles < a.cycles) {
    auto port = gs::make_scheduler(a.scheduler, sched);
    gs::Gpu gpu(cfg, mix, *port, run);
    ++r.mix_runs;
    const uint64_t left = a.cycles - r.cycles;
    while (gpu.cycle() < left && gpu.step()) {
      if ((gpu.cycle() & 1023) == 0)
        throw_if_interrupted("at simulated cycle " + std::to_string(r.cycles + gpu.cycle()) + " of the bench");
    }
    r.cycles += gpu.cycle();
    r.eval.rtl_cycles += port->eval_stats().rtl_cycles;
    r.eval.rtl_skipped += port->eval_stats().rtl_skipped;
  }
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return r;
}

double peak_rss_mb() {
  struct rusage u {};
  getrusage(RUSAGE_SELF, &u);
  return double(u.ru_maxrss) / 1024.0;   // Linux reports kilobytes
}

int bench_action(const BenchArgs& a) {
  const gs::GpuConfig cfg = gs::load_gpu_config(a.config);
  const std::vector<gs::KernelDesc> lib = gs::load_kernel_library();
  const gs::Mix mix = gs::load_mix(a.mix, lib);
  gs::limits::check_mix_fits(cfg, mix);
  gs::SchedOptions opt;
  opt.policy = a.policy;
  BenchArgs run = a;
  run.scheduler = choose_scheduler(a.scheduler_given, a.scheduler, cfg, opt, mix, false, false);

  const BenchResult r = simulate_cycles(cfg, mix, run);
  const double cps = r.seconds > 0 ? double(r.cycles) / r.seconds : 0.0;
  const double rss = peak_rss_mb();
  std::vector<std::string> kernels;
  for (const gs::MixEntry& e : mix.kernels) kernels.push_back(e.kernel);

  if (a.json) {
    nlohmann::ordered_json j;
    j["cycles_per_second"] = std::llround(cps);
    j["peak_rss_mb"] = gs::round6(rss);
    j["sms"] = cfg.num_sms();
    j["kernels"] = kernels;
    j["scheduler"] = run.scheduler;
    j["config"] = cfg.name;
    j["mix"] = mix.name;
    j["policy"] = a.policy;
    j["cycles"] = r.cycles;
    j["seconds"] = gs::round6(r.seconds);
    j["mix_runs"] = r.mix_runs;
    j["obs_interval"] = a.obs_interval;
    j["rtl_fixed_point_skip"] = run.scheduler != "golden" && !a.full_eval;
    j["rtl_cycles_skipped"] = r.eval.rtl_skipped;
    j["rtl_cycles_evaluated"] = r.eval.rtl_cycles - r.eval.rtl_skipped;
    std::printf("%s\n", j.dump(2).c_str());
    return 0;
  }
  std::string names;
  for (const auto& k : kernels) names += (names.empty() ? "" : ", ") + k;
  std::printf("bench: config %s (%u SMs), mix %s (%s), policy %s, scheduler %s\n", cfg.name.c_str(), cfg.num_sms(),
              mix.name.c_str(), names.c_str(), a.policy.c_str(), run.scheduler.c_str());
  std::printf("simulated cycles   %llu (mix started %u times)\n", (unsigned long long)r.cycles, r.mix_runs);
  std::printf("wall time          %s s\n", gs::format_fixed(r.seconds, 3).c_str());
  std::printf("cycles per second  %lld\n", std::llround(cps));
  std::printf("peak RSS           %s MB\n", gs::format_fixed(rss, 1).c_str());
  if (r.eval.rtl_cycles)
    std::printf("RTL cycles         %llu evaluated, %llu skipped at a fixed point (%s%%)\n",
                (unsigned long long)(r.eval.rtl_cycles - r.eval.rtl_skipped), (unsigned long long)r.eval.rtl_skipped,
                gs::format_fixed(100.0 * double(r.eval.rtl_skipped) / double(r.eval.rtl_cycles), 1).c_str());
  return 0;
}

}  // namespace

Command add_bench_command(CLI::App& top) {
  auto args = std::make_shared<BenchArgs>();
  args->scheduler = default_scheduler_kind();
  CLI::App* app = top.add_subcommand("bench", "Simulation speed: simulated GPU cycles per second and peak memory");
  app->add_flag("--json", args->json, "Print the result as JSON");
  app->add_flag("--rtl-full-eval", args->full_eval,
                "rtl/lockstep: evaluate the RTL at every clock edge, even where it sits at a fixed point");
  app->add_flag("--no-state-check", args->no_state_check,
                "lockstep: compare only gs_top's outputs, not also the scheduler's tables every cycle");
  app->add_option("--cycles", args->cycles, "Simulated cycles to run (the mix restarts if it finishes)")
      ->check(whole_number(1, kMaxBenchCycles))
      ->capture_default_str();
  app->add_option("--scheduler", args->scheduler, "Scheduler implementation: golden, rtl or lockstep")
      ->each([args](const std::string&) { args->scheduler_given = true; })
      ->capture_default_str();
  app->add_option("--config", args->config, "GPU config")->capture_default_str();
  app->add_option("--mix", args->mix, "Workload mix")->capture_default_str();
  app->add_option("--policy", args->policy, "Scheduling policy")->capture_default_str();
  app->add_option("--seed", args->seed, "Random seed")->check(whole_number())->capture_default_str();
  app->add_option("--obs-interval", args->obs_interval,
                  "Observation epoch in cycles (0 = no samples), as gsim run --obs-interval: measures what the "
                  "samples cost")
      ->check(whole_number())
      ->capture_default_str();
  return {app, [args] { return bench_action(*args); }};
}

}  // namespace gsim
