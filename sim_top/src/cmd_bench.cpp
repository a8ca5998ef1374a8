// gsim bench: simulation speed -- simulated GPU cycles per wall-clock second and peak memory.
//
// Runs a fixed number of cycles (Gpu::step) of a shipped compute+memory pair on the 16-SM
// Warped-Slicer config. If the mix finishes early it starts again from cycle 0 (a fresh Gpu
// and scheduler), so every bench run simulates exactly --cycles cycles and the figure does
// not depend on how long the pair happens to be. The only command whose output carries
// wall-clock figures.
//
// Scaling (--sms N, --kernels K): the config's SM count becomes N, its DRAM channels grow in
// proportion (same bandwidth per SM, rounded up) and it gets at least K command buffers; the
// mix becomes K processes that take the base mix's kernels in turn, each with a grid of one
// full GPU wave (N x its CTAs per SM), so every SM has work whichever way the policy splits them. --scheduler all runs golden, rtl
// and lockstep one after the other; peak memory is each run's VmHWM (/proc/self/status),
// reset between runs through /proc/self/clear_refs.
// --set changes config fields and policy settings as gsim run --set does. Each row counts the
// partitions the policy put in force; --require-partitions N makes fewer an error (exit 8), so
// a lockstep slice can show that it reached a profiling policy's first decision.
#include <CLI/CLI.hpp>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <memory>
#include <nlohmann/json.hpp>

#include "commands.hpp"
#include "common/error.hpp"
#include "common/parallel_for.hpp"
#include "config/gpu_config.hpp"
#include "config/limits.hpp"
#include "gpu/gpu.hpp"
#include "gpu/occupancy.hpp"
#include "metrics/report.hpp"
#include "sched/golden/golden_types.hpp"
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

// Bounds of the scaled bench: what the golden model can hold (SMs, KSRT slots).
constexpr uint32_t kMaxBenchSms = gs::golden::kGoldenMaxSms;
constexpr uint32_t kMaxBenchKernels = gs::golden::kGoldenMaxSlots;

struct BenchArgs {
  std::string config = kBenchConfig, mix = kBenchMix, policy = gs::spec::kDefaultPolicyName, scheduler;
  uint64_t cycles = kBenchCycles;
  uint32_t sms = 0;      // --sms: scale the config to this many SMs (0 = as it is)
  uint32_t kernels = 0;  // --kernels: a mix of this many processes (0 = the mix as it is)
  uint64_t seed = 1;
  uint64_t obs_interval = 0;  // --obs-interval: observation epoch (0 = no samples)
  unsigned threads = 1;       // --threads: SM ticks of a cycle on N threads
  bool scheduler_given = false;
  bool json = false;
  bool full_eval = false;           // --rtl-full-eval: no fixed-point skip
  bool no_state_check = false;      // --no-state-check: lockstep compares the port only
  std::vector<std::string> sets;    // --set: config fields and policy settings
  uint64_t require_partitions = 0;  // --require-partitions: fewer is exit 8
};

struct BenchResult {
  uint64_t cycles = 0;
  uint32_t mix_runs = 0;    // how many times the mix was started
  uint64_t insts = 0;       // warp instructions issued, all SMs
  gs::SchedEvalStats eval;  // summed over the mix runs
  uint64_t partitions = 0;  // partitions the policy put in force, summed over the mix runs
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
  run.threads = a.threads;

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
    for (uint32_t k = 0; k < mix.kernels.size(); ++k) r.insts += gpu.counters().kernel_total(k).insts_issued;
    r.eval.rtl_cycles += port->eval_stats().rtl_cycles;
    r.eval.rtl_skipped += port->eval_stats().rtl_skipped;
    if (const std::vector<gs::PolicyRecord>* recs = port->records())  // the kept ones (SchedulerPort::kMaxRecords)
      for (const gs::PolicyRecord& rec : *recs) r.partitions += rec.kind == gs::spec::ReportKind::kPartition;
  }
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return r;
}

/// This process's peak resident memory (VmHWM of /proc/self/status) in MB. getrusage's
/// ru_maxrss is not used: on Linux it carries the peak of the process that launched gsim.
double peak_rss_mb() {
  std::ifstream f("/proc/self/status");
  std::string line;
  while (std::getline(f, line))
    if (line.rfind("VmHWM:", 0) == 0) return double(std::strtoull(line.c_str() + 6, nullptr, 10)) / 1024.0;
  return 0.0;
}

/// Resets VmHWM to the current resident size, so the next run's peak is its own.
void reset_peak_rss() {
  std::ofstream f("/proc/self/clear_refs");
  f << "5";
}

/// The config with the user's --set changes, scaled to `sms` SMs (one SM type only) with DRAM
/// channels in proportion, and command buffers for `kernels` processes.
gs::GpuConfig scaled_config(const std::string& name, const std::vector<std::string>& sets, uint32_t sms,
                            uint32_t kernels) {
  const gs::GpuConfig base = gs::load_gpu_config(name, sets);
  std::vector<std::string> set = sets;
  if (kernels > base.max_contexts) set.push_back("max_contexts=" + std::to_string(kernels));
  if (sms != 0 && sms != base.num_sms()) {
    if (base.sm_types.size() != 1)
      throw gs::InputError("--sms", "sms",
                           "config '" + base.name + "' has " + std::to_string(base.sm_types.size()) +
                               " SM types; --sms scales a config with one SM type (e.g. warped-slicer, h100)");
    const uint32_t channels = std::max<uint32_t>(1, uint32_t((uint64_t(base.dram_channels) * sms + base.num_sms() - 1) /
                                                             base.num_sms()));
    set.push_back("sm_types[0].count=" + std::to_string(sms));
    set.push_back("dram_channels=" + std::to_string(channels));
  }
  if (set.size() == sets.size()) return base;
  gs::GpuConfig cfg = gs::load_gpu_config(name, set);
  if (cfg.num_sms() != base.num_sms()) cfg.name = base.name + "@" + std::to_string(sms) + "sms";
  return cfg;
}

/// The mix as K processes taking the base mix's kernels in turn, each with a grid of one full
/// GPU wave; K = 0 keeps the mix as it is.
gs::Mix scaled_mix(const gs::Mix& base, const gs::GpuConfig& cfg, uint32_t k) {
  if (k == 0) return base;
  gs::Mix mix;
  mix.name = base.name + "x" + std::to_string(k);
  mix.file = base.file;
  mix.config = base.config;
  for (uint32_t i = 0; i < k; ++i) {
    gs::MixEntry e = base.kernels[i % base.kernels.size()];
    e.arrival_cycle = 0;
    e.context = i;
    e.priority = 0;
    e.tokens = 0;
    const gs::Occupancy occ = gs::occupancy(e.desc, cfg, cfg.sm(0));
    e.grid_ctas = std::max<uint32_t>(1, occ.max_ctas) * cfg.num_sms();
    mix.kernels.push_back(e);
  }
  return mix;
}

struct BenchRow {
  std::string scheduler;
  BenchResult r;
  double peak_mb = 0;
  double cps() const { return r.seconds > 0 ? double(r.cycles) / r.seconds : 0.0; }
};

/// --require-partitions: exit 8 naming the first row whose policy put fewer in force, else 0.
int too_few_partitions(const std::vector<BenchRow>& rows, const BenchArgs& a) {
  for (const BenchRow& row : rows) {
    if (row.r.partitions >= a.require_partitions) continue;
    std::fprintf(stderr,
                 "gsim bench: --require-partitions %llu: the %s scheduler's policy %s put %llu partition(s) in force "
                 "in %llu cycles\n",
                 (unsigned long long)a.require_partitions, row.scheduler.c_str(), a.policy.c_str(),
                 (unsigned long long)row.r.partitions, (unsigned long long)row.r.cycles);
    return kExitTooFewPartitions;
  }
  return 0;
}

int bench_action(BenchArgs a) {
  a.threads = usable_threads(a.threads, false);
  const gs::GpuConfig cfg = scaled_config(a.config, a.sets, a.sms, a.kernels);
  const std::vector<gs::KernelDesc> lib = gs::load_kernel_library();
  const gs::Mix mix = scaled_mix(gs::load_mix(a.mix, lib), cfg, a.kernels);
  gs::limits::check_mix_fits(cfg, mix);
  gs::SchedOptions opt;
  opt.policy = a.policy;

  // --scheduler all: golden, then rtl and lockstep where this build has the RTL and it can run
  // this config and mix.
  std::vector<std::string> kinds;
  if (a.scheduler_given && a.scheduler == "all") {
    register_build_schedulers();
    check_scheduler_and_policy("golden", a.policy);
    kinds.push_back("golden");
    const std::string why = default_scheduler_kind() == "golden" ? "this gsim is built without the RTL"
                                                                 : rtl_unfit_reason(cfg, opt, mix);
    if (why.empty()) kinds.insert(kinds.end(), {"rtl", "lockstep"});
    else std::fprintf(stderr, "gsim bench: note: rtl and lockstep not run: %s\n", why.c_str());
  } else {
    kinds.push_back(choose_scheduler(a.scheduler_given, a.scheduler, cfg, opt, mix, false, false));
  }
  std::vector<BenchRow> rows;
  for (const std::string& kind : kinds) {
    BenchArgs run = a;
    run.scheduler = kind;
    reset_peak_rss();
    BenchRow row;
    row.scheduler = kind;
    row.r = simulate_cycles(cfg, mix, run);
    row.peak_mb = peak_rss_mb();
    rows.push_back(row);
  }
  std::vector<std::string> kernels;
  for (const gs::MixEntry& e : mix.kernels) kernels.push_back(e.kernel);

  if (a.json) {
    nlohmann::ordered_json out = nlohmann::ordered_json::array();
    for (const BenchRow& row : rows) {
      nlohmann::ordered_json j;
      j["cycles_per_second"] = std::llround(row.cps());
      j["sm_cycles_per_second"] = std::llround(row.cps() * cfg.num_sms());
      j["warp_insts_per_second"] = std::llround(row.r.seconds > 0 ? double(row.r.insts) / row.r.seconds : 0.0);
      j["warp_insts_per_cycle"] = gs::round6(row.r.cycles ? double(row.r.insts) / double(row.r.cycles) : 0.0);
      j["peak_rss_mb"] = gs::round6(row.peak_mb);
      j["sms"] = cfg.num_sms();
      j["kernels"] = kernels;
      j["scheduler"] = row.scheduler;
      j["config"] = cfg.name;
      j["mix"] = mix.name;
      j["policy"] = a.policy;
      j["cycles"] = row.r.cycles;
      j["seconds"] = gs::round6(row.r.seconds);
      j["mix_runs"] = row.r.mix_runs;
      j["obs_interval"] = a.obs_interval;
      j["threads"] = a.threads;
      j["rtl_fixed_point_skip"] = row.scheduler != "golden" && !a.full_eval;
      j["rtl_cycles_skipped"] = row.r.eval.rtl_skipped;
      j["rtl_cycles_evaluated"] = row.r.eval.rtl_cycles - row.r.eval.rtl_skipped;
      j["partitions"] = row.r.partitions;
      out.push_back(j);
    }
    // One scheduler: the object itself (the format scripts read); --scheduler all: an array, also
    // in a build without the RTL where it holds golden alone.
    const bool all = a.scheduler_given && a.scheduler == "all";
    std::printf("%s\n", (all ? out : out[0]).dump(2).c_str());
    return too_few_partitions(rows, a);
  }
  std::string names;
  for (const auto& k : kernels) names += (names.empty() ? "" : ", ") + k;
  std::printf("bench: config %s (%u SMs, %u DRAM channels), mix %s (%s), policy %s, %u thread%s\n", cfg.name.c_str(),
              cfg.num_sms(), cfg.dram_channels, mix.name.c_str(), names.c_str(), a.policy.c_str(), a.threads,
              a.threads == 1 ? "" : "s");
  for (const BenchRow& row : rows) {
    const BenchResult& r = row.r;
    std::printf("scheduler %s\n", row.scheduler.c_str());
    std::printf("  simulated cycles   %llu (mix started %u times)\n", (unsigned long long)r.cycles, r.mix_runs);
    std::printf("  wall time          %s s\n", gs::format_fixed(r.seconds, 3).c_str());
    std::printf("  cycles per second  %lld\n", std::llround(row.cps()));
    std::printf("  SM-cycles/second   %lld\n", std::llround(row.cps() * cfg.num_sms()));
    std::printf("  warp insts/second  %lld (%s per cycle)\n",
                std::llround(r.seconds > 0 ? double(r.insts) / r.seconds : 0.0),
                gs::format_fixed(r.cycles ? double(r.insts) / double(r.cycles) : 0.0, 1).c_str());
    std::printf("  peak RSS (VmHWM)   %s MB\n", gs::format_fixed(row.peak_mb, 1).c_str());
    if (r.eval.rtl_cycles)
      std::printf("  RTL cycles         %llu evaluated, %llu skipped at a fixed point (%s%%)\n",
                  (unsigned long long)(r.eval.rtl_cycles - r.eval.rtl_skipped), (unsigned long long)r.eval.rtl_skipped,
                  gs::format_fixed(100.0 * double(r.eval.rtl_skipped) / double(r.eval.rtl_cycles), 1).c_str());
    std::printf("  partitions         %llu put in force by the policy\n", (unsigned long long)r.partitions);
  }
  return too_few_partitions(rows, a);
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
  app->add_option("--scheduler", args->scheduler,
                  "Scheduler implementation: golden, rtl, lockstep, or all (each in turn, one row per scheduler)")
      ->each([args](const std::string&) { args->scheduler_given = true; })
      ->capture_default_str();
  app->add_option("--config", args->config, "GPU config")->capture_default_str();
  app->add_option("--mix", args->mix, "Workload mix")->capture_default_str();
  app->add_option("--policy", args->policy, "Scheduling policy")->capture_default_str();
  app->add_option("--set", args->sets,
                  "Change a config field or a policy's setting, as gsim run --set does (repeatable), e.g. "
                  "--set policy.warped-slicer.sample_cycles=2000");
  app->add_option("--require-partitions", args->require_partitions,
                  "Exit 8 when a scheduler's policy puts fewer than N partitions in force (a slice that must reach "
                  "a profiling policy's decision)")
      ->check(whole_number())
      ->capture_default_str();
  app->add_option("--sms", args->sms,
                  "Scale the config to N SMs (one SM type; DRAM channels grow in proportion); 0 = as configured")
      ->check(whole_number(0, kMaxBenchSms))
      ->capture_default_str();
  app->add_option("--kernels", args->kernels,
                  "A mix of K processes taking the mix's kernels in turn, each with one full GPU wave of CTAs; "
                  "0 = the mix as it is")
      ->check(whole_number(0, kMaxBenchKernels))
      ->capture_default_str();
  app->add_option("--seed", args->seed, "Random seed")->check(whole_number())->capture_default_str();
  app->add_option("--obs-interval", args->obs_interval,
                  "Observation epoch in cycles (0 = no samples), as gsim run --obs-interval: measures what the "
                  "samples cost")
      ->check(whole_number())
      ->capture_default_str();
  app->add_option("--threads", args->threads,
                  "Tick the SMs of each cycle on N threads, as gsim run --threads: measures what they gain")
      ->check(whole_number(1, gs::ParallelFor::kMaxThreads))
      ->capture_default_str();
  return {app, [args] { return bench_action(*args); }};
}

}  // namespace gsim
