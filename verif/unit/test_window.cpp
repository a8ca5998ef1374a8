// gsched unit tests: the fixed-window method (Mix::window_cycles; docs/workloads.md and
// docs/metrics.md, "Fixed-window method") -- kernels relaunch until the window ends, the
// scheduler sees each relaunch only after the last event of the instance before, the metrics
// are taken over the window (alone runs too), and a malformed window is an input error.
#include <catch2/catch.hpp>

#include <map>
#include <nlohmann/json.hpp>

#include "common/error.hpp"
#include "config/gpu_config.hpp"
#include "gpu/gpu.hpp"
#include "metrics/counters_summary.hpp"
#include "metrics/metrics.hpp"
#include "metrics/mix_runner.hpp"
#include "metrics/report.hpp"
#include "sched/golden/golden_scheduler.hpp"
#include "test_support.hpp"
#include "workload/kernel_desc.hpp"

using namespace gs;
using gs::test::contains;
using gs::test::input_error_of;

namespace {

/// A golden scheduler that checks, per kernel, that a launch after the first comes only after
/// the scheduler was given a finish event for every CTA of the instance before.
class LaunchWatcher final : public SchedulerPort {
 public:
  explicit LaunchWatcher(const SchedOptions& opt) : golden_(opt) {}
  void reset(const GpuConfig& cfg, const SchedOptions& opt) override { golden_.reset(cfg, opt); }
  SchedOutputs step(const SchedInputs& in) override {
    if (in.launch.valid) {
      Kernel& k = kernels[in.launch.kernel];
      if (k.launches != 0 && k.finished_since_launch != k.grid) early_relaunches++;
      ++k.launches;
      k.grid = in.launch.grid;
      k.finished_since_launch = 0;
    }
    if (in.event.type == SmEventType::kCtaFinished) ++kernels[in.event.kernel].finished_since_launch;
    return golden_.step(in);
  }
  std::string name() const override { return "launch-watcher"; }

  struct Kernel {
    uint32_t launches = 0, grid = 0, finished_since_launch = 0;
  };
  std::map<KernelId, Kernel> kernels;
  uint32_t early_relaunches = 0;

 private:
  GoldenScheduler golden_;
};

/// test-pair (test.compute + test.memory) with small grids, so an instance is short.
Mix small_pair(const std::vector<KernelDesc>& lib, uint64_t window) {
  Mix mix = load_mix("test-pair", lib);
  for (MixEntry& e : mix.kernels) e.desc.grid_ctas = e.grid_ctas = 16;
  mix.window_cycles = window;
  return mix;
}

nlohmann::json mix_doc(const std::string& window_field) {
  return nlohmann::json::parse(
      R"({"name": "w", )" + window_field +
      R"(, "kernels": [{"kernel": "test.compute"}, {"kernel": "test.memory", "arrival_cycle": 500}]})");
}

}  // namespace

TEST_CASE("fixed window: kernels relaunch until the window ends, each instance whole", "[window]") {
  const GpuConfig cfg = load_gpu_config("warped-slicer");
  const auto lib = load_kernel_library();
  // One instance of each kernel, no window: its turnaround and instruction count.
  RunResult once;
  {
    auto sched = make_scheduler("golden", SchedOptions{});
    const Mix mix = small_pair(lib, 0);
    Gpu gpu(cfg, mix, *sched, RunOptions{});
    once = gpu.run();
  }
  REQUIRE(once.window_cycles == 0);
  const uint64_t longest = std::max(once.kernels[0].cycles(), once.kernels[1].cycles());
  const uint64_t window = 3 * longest + 1234;  // room for two relaunches of each, then a cut
  INFO("one instance: " << once.kernels[0].cycles() << " / " << once.kernels[1].cycles() << " cycles; window "
                        << window);
  REQUIRE(window < 100'000);  // a short test

  RunOptions ro;
  LaunchWatcher watch(ro.sched);
  const Mix windowed = small_pair(lib, window);
  Gpu gpu(cfg, windowed, watch, ro);
  const RunResult r = gpu.run();
  CHECK(r.cycles == window);
  CHECK(gpu.cycle() == window);
  CHECK(r.window_cycles == window);
  CHECK(watch.early_relaunches == 0);
  for (uint32_t k = 0; k < 2; ++k) {
    const KernelResult& kr = r.kernels[k];
    INFO("kernel " << kr.name);
    CHECK(kr.launches >= 3);  // relaunched at least twice
    CHECK(watch.kernels[KernelId(k)].launches == kr.launches);
    CHECK(kr.completions + 1 >= kr.launches);
    CHECK(kr.completions <= kr.launches);
    // Every finished instance re-executed the whole kernel; a cut one did part of it.
    const uint64_t per_instance = once.kernels[k].instructions;
    CHECK(kr.instructions >= kr.completions * per_instance);
    CHECK(kr.instructions <= kr.launches * per_instance);
    CHECK(kr.instructions == r.counters.kernel_total(k).insts_issued);
    CHECK(kr.end_cycle <= window);
  }
  // A group's counter window is the fixed window.
  const CountersSummary s = summarize_counters(gpu.config(), r);
  CHECK(s.kernels[1].all.cycles == window);

  // The same window again: the same figures (deterministic).
  auto sched = make_scheduler("golden", SchedOptions{});
  Gpu again(cfg, windowed, *sched, RunOptions{});
  const RunResult r2 = again.run();
  for (uint32_t k = 0; k < 2; ++k) {
    CHECK(r2.kernels[k].instructions == r.kernels[k].instructions);
    CHECK(r2.kernels[k].launches == r.kernels[k].launches);
  }
}

TEST_CASE("fixed window: IPC and ANTT over the window, alone runs over the same window", "[window][metrics]") {
  const GpuConfig cfg = load_gpu_config("warped-slicer");
  const auto lib = load_kernel_library();
  const uint64_t window = 30'000;
  const Mix mix = small_pair(lib, window);
  AloneRunCache cache;
  const MixRun run = run_mix_with_alone(cfg, mix, "golden", SchedOptions{}, RunOptions{}, cache);
  const MixMetrics& m = run.metrics;
  CHECK(m.window_cycles == window);
  CHECK(m.cycles == window);
  CHECK(run.shared.cycles == window);
  double sum = 0;
  for (uint32_t k = 0; k < 2; ++k) {
    const KernelMetrics& km = m.kernels[k];
    INFO("kernel " << km.name);
    CHECK(km.instructions == run.shared.kernels[k].instructions);
    CHECK(km.ipc == double(km.instructions) / double(window));
    CHECK(run.alone[k].launches > 1);  // the alone run relaunched over the same window
    CHECK(km.instructions_alone == run.alone[k].instructions);
    CHECK(km.ipc_alone == double(run.alone[k].instructions) / double(window));
    CHECK(km.ntt == Approx(km.ipc_alone / km.ipc));
    CHECK(km.launches == run.shared.kernels[k].launches);
    CHECK(km.completions == run.shared.kernels[k].completions);
    sum += km.ntt;
  }
  CHECK(m.antt_sbm == Approx(sum));
  CHECK(m.antt == Approx(sum / 2));
  CHECK(m.ipc == Approx(double(m.kernels[0].instructions + m.kernels[1].instructions) / double(window)));
  // The alone result of a windowed kernel is cached apart from its run-once result.
  CHECK(cache.runs() == 2);
  const KernelResult& once = cache.get(cfg, mix.kernels[0], "golden", SchedOptions{}, RunOptions{});
  CHECK(cache.runs() == 3);
  CHECK(once.launches == 1);

  RunInfo info;
  info.config = "warped-slicer";
  info.mix = "w";
  const auto j = nlohmann::json::parse(format_json(info, m));
  CHECK(j["window_cycles"] == window);
  CHECK(j.contains("antt_sbm"));
  CHECK(j["kernels"][0].contains("launches"));
  CHECK_FALSE(j["kernels"][0].contains("cycles_shared"));
  const std::string csv = format_csv(info, m);
  CHECK(csv.rfind("config,mix,policy,scheduler,preempt,sm_sharing,seed,window_cycles,kernel,", 0) == 0);
  CHECK(format_table(info, m).find("ANTT_SBM ") != std::string::npos);
}

TEST_CASE("compute_window_metrics on a worked pair", "[window][metrics]") {
  // W = 1000. A: 2000 instructions shared, 4000 alone -> IPC 2, alone 4, NTT 2.
  // B: 3000 shared and alone -> NTT 1. ANTT_SBM = 3, ANTT = 1.5, STP = 0.5 + 1.
  std::vector<KernelRuntimes> k(2);
  k[0].name = "A";
  k[0].instructions = 2000;
  k[0].instructions_alone = 4000;
  k[0].launches = 3;
  k[0].completions = 2;
  k[1].name = "B";
  k[1].instructions = 3000;
  k[1].instructions_alone = 3000;
  const MixMetrics m = compute_window_metrics(k, 1000);
  CHECK(m.kernels[0].ipc == 2.0);
  CHECK(m.kernels[0].ipc_alone == 4.0);
  CHECK(m.kernels[0].ntt == 2.0);
  CHECK(m.kernels[0].launches == 3);
  CHECK(m.kernels[0].completions == 2);
  CHECK(m.kernels[1].ntt == 1.0);
  CHECK(m.antt_sbm == 3.0);
  CHECK(m.antt == 1.5);
  CHECK(m.stp == 1.5);
  CHECK(m.strictf == 0.5);
  CHECK(m.ipc == 5.0);
  CHECK(m.cycles == 1000);
  // A kernel with no instruction in the window has no slowdown: an input error, not infinity.
  k[1].instructions = 0;
  CHECK(contains(input_error_of([&] { compute_window_metrics(k, 1000); }), "'B' issued no instruction"));
  k[1].instructions = 3000;
  k[1].instructions_alone = 0;
  CHECK(contains(input_error_of([&] { compute_window_metrics(k, 1000); }), "when run alone"));
  CHECK_THROWS_AS(compute_window_metrics(k, 0), InputError);
}

TEST_CASE("window_cycles: malformed values are input errors naming the field", "[window][workload]") {
  const auto lib = load_kernel_library();
  CHECK(parse_mix(mix_doc(R"("window_cycles": 40000)"), "w.json", lib).window_cycles == 40000);
  CHECK(parse_mix(mix_doc(R"("notes": "no window")"), "w.json", lib).window_cycles == 0);
  for (const char* bad :
       {R"("window_cycles": 0)", R"("window_cycles": -5)", R"("window_cycles": "40000")", R"("window_cycles": 1.5)",
        R"("window_cycles": true)", R"("window_cycles": null)", R"("window_cycles": 281474976710657)",
        R"("window_cycles": 500)", R"("window_cycles": 200)"}) {
    INFO(bad);
    const std::string err = input_error_of([&] { parse_mix(mix_doc(bad), "w.json", lib); });
    CHECK(contains(err, "window_cycles"));
  }
  // The second kernel arrives at 500: a window of 500 cycles ends before it.
  CHECK(contains(input_error_of([&] { parse_mix(mix_doc(R"("window_cycles": 500)"), "w.json", lib); }),
                 "kernels[1] arrives at cycle 500"));
  CHECK(contains(input_error_of([&] { parse_mix(mix_doc(R"("window_cycle": 500)"), "w.json", lib); }), "window_cycle"));

  // A window longer than the run may last is refused before the first cycle.
  const GpuConfig cfg = load_gpu_config("warped-slicer");
  Mix mix = small_pair(lib, 20'000);
  RunOptions ro;
  ro.max_cycles = 10'000;
  auto sched = make_scheduler("golden", ro.sched);
  CHECK(contains(input_error_of([&] { Gpu gpu(cfg, mix, *sched, ro); }), "--max-cycles 10000"));
}

TEST_CASE("window_start: the window opens later, earlier instructions are not counted", "[window]") {
  const GpuConfig cfg = load_gpu_config("warped-slicer");
  const auto lib = load_kernel_library();
  // The model is deterministic: a run of S + W cycles is a run of S cycles continued, so the
  // window's instructions are those of the longer run less those of the shorter one.
  const uint64_t start = 7'000, window = 13'000;
  auto insts = [&](uint64_t w, uint64_t s) {
    Mix mix = small_pair(lib, w);
    mix.window_start = s;
    auto sched = make_scheduler("golden", SchedOptions{});
    Gpu gpu(cfg, mix, *sched, RunOptions{});
    const RunResult r = gpu.run();
    CHECK(r.cycles == s + w);
    CHECK(r.window_start == s);
    return std::vector<uint64_t>{r.kernels[0].instructions, r.kernels[1].instructions};
  };
  const auto opened = insts(window, start), all = insts(start + window, 0), before = insts(start, 0);
  for (int k = 0; k < 2; ++k) {
    INFO("kernel " << k);
    CHECK(opened[k] == all[k] - before[k]);
    CHECK(opened[k] > 0);
  }
  // IPC over the window; alone runs open theirs at the same cycle
  Mix mix = small_pair(lib, window);
  mix.window_start = start;
  AloneRunCache cache;
  const MixRun run = run_mix_with_alone(cfg, mix, "golden", SchedOptions{}, RunOptions{}, cache);
  CHECK(run.metrics.window_start == start);
  CHECK(run.metrics.kernels[0].ipc == double(opened[0]) / double(window));
  Mix alone = mix;
  alone.kernels.resize(1);
  auto sched = make_scheduler("golden", SchedOptions{});
  Gpu gpu(cfg, alone, *sched, RunOptions{});
  CHECK(run.alone[0].instructions == gpu.run().kernels[0].instructions);

  // the loader: only with a window; S + W bounds the arrivals and --max-cycles
  CHECK(parse_mix(mix_doc(R"("window_cycles": 40000, "window_start": 9000)"), "w.json", lib).window_start == 9000);
  CHECK(contains(input_error_of([&] { parse_mix(mix_doc(R"("window_start": 9000)"), "w.json", lib); }),
                 "window_start"));
  CHECK(parse_mix(mix_doc(R"("window_cycles": 300, "window_start": 300)"), "w.json", lib).window_start == 300);
  RunOptions ro;
  ro.max_cycles = 19'000;
  CHECK(contains(input_error_of([&] { Gpu g(cfg, mix, *sched, ro); }), "--max-cycles 19000"));
}
