// gsched unit tests: process mixes (Mix::processes; docs/workloads.md, "Processes") -- the
// loader's format and errors, the model's launch sequencing (step order, host gaps to the
// cycle, runs counted, replay, the run's end), the per-process metrics and the reports.
#include <catch2/catch.hpp>

#include <map>
#include <nlohmann/json.hpp>

#include "common/error.hpp"
#include "config/gpu_config.hpp"
#include "config/limits.hpp"
#include "gpu/gpu.hpp"
#include "metrics/metrics.hpp"
#include "metrics/mix_runner.hpp"
#include "metrics/report.hpp"
#include "sched/golden/golden_scheduler.hpp"
#include "test_support.hpp"
#include "workload/kernel_desc.hpp"

using namespace gs;
using gs::test::contains;
using gs::test::input_error_of;
using gs::test::TempDir;

namespace {

/// A golden scheduler that records every launch (cycle, kernel, context) and, per kernel, the
/// cycle it was given the finish event of the instance's last CTA; it counts launches that come
/// before the instance before them has been given all its finish events.
class LaunchRecorder final : public SchedulerPort {
 public:
  explicit LaunchRecorder(const SchedOptions& opt) : golden_(opt) {}
  void reset(const GpuConfig& cfg, const SchedOptions& opt) override { golden_.reset(cfg, opt); }
  SchedOutputs step(const SchedInputs& in) override {
    if (in.launch.valid) {
      Kernel& k = kernels[in.launch.kernel];
      if (k.launches != 0 && k.finished != k.grid) ++early_launches;
      ++k.launches;
      k.grid = in.launch.grid;
      k.finished = 0;
      launches.push_back({in.cycle, in.launch.kernel, in.launch.ctx});
    }
    if (in.event.type == SmEventType::kCtaFinished) {
      Kernel& k = kernels[in.event.kernel];
      if (++k.finished == k.grid) k.last_event_cycles.push_back(in.cycle);
    }
    return golden_.step(in);
  }
  std::string name() const override { return "launch-recorder"; }

  struct Launch {
    uint64_t cycle;
    KernelId kernel;
    uint32_t ctx;
  };
  struct Kernel {
    uint32_t launches = 0, grid = 0, finished = 0;
    std::vector<uint64_t> last_event_cycles;
  };
  std::vector<Launch> launches;
  std::map<KernelId, Kernel> kernels;
  uint32_t early_launches = 0;

 private:
  GoldenScheduler golden_;
};

Mix process_mix(const std::string& processes_json) {
  static const std::vector<KernelDesc> lib = load_kernel_library();
  return parse_mix(nlohmann::json::parse(R"({"name": "p", "processes": )" + processes_json + "}"), "p.json", lib);
}

// Two processes on warped-slicer: A = test.compute(8) -> gap 3000 -> test.memory(8), 2 runs;
// B = test.tiny, 1 run, from cycle 100 after a gap of 50 (short, so it replays).
const char* kTwoProcesses = R"([
  {"name": "A", "runs": 2, "kernels": [
     {"kernel": "test.compute", "grid_ctas": 8, "host_gap_cycles": 0},
     {"kernel": "test.memory", "grid_ctas": 8, "host_gap_cycles": 3000}]},
  {"name": "B", "priority": 2, "tokens": 4, "start_cycle": 100,
   "kernels": [{"kernel": "test.tiny", "host_gap_cycles": 50}]}])";

struct Ran {
  RunResult result;
  std::vector<LaunchRecorder::Launch> launches;
  std::map<KernelId, LaunchRecorder::Kernel> kernels;
  uint32_t early_launches = 0;
};

Ran run_recorded(const Mix& mix) {
  const GpuConfig cfg = load_gpu_config("warped-slicer");
  LaunchRecorder sched(SchedOptions{});
  Gpu gpu(cfg, mix, sched, RunOptions{});
  Ran r;
  r.result = gpu.run();
  r.launches = sched.launches;
  r.kernels = sched.kernels;
  r.early_launches = sched.early_launches;
  return r;
}

}  // namespace

TEST_CASE("process mix: the loader expands processes into their steps", "[process][workload]") {
  const Mix m = process_mix(kTwoProcesses);
  REQUIRE(m.processes.size() == 2);
  REQUIRE(m.kernels.size() == 3);
  const MixProcess& a = m.processes[0];
  const MixProcess& b = m.processes[1];
  CHECK(a.name == "A");
  CHECK(a.context == 0);
  CHECK(b.context == 1);  // each process its own context by default
  CHECK(a.runs == 2);
  CHECK(b.runs == 1);  // default
  CHECK(a.start_cycle == 0);
  CHECK(b.start_cycle == 100);
  CHECK(a.steps == std::vector<uint32_t>{0, 1});
  CHECK(b.steps == std::vector<uint32_t>{2});
  CHECK(a.host_gap_cycles == std::vector<uint64_t>{0, 3000});
  CHECK(b.host_gap_cycles == std::vector<uint64_t>{50});
  CHECK(m.kernels[1].kernel == "test.memory");
  CHECK(m.kernels[1].desc.grid_ctas == 8);
  CHECK(m.kernels[1].context == 0);
  CHECK(m.kernels[2].context == 1);
  CHECK(m.kernels[2].priority == 2);
  CHECK(m.kernels[2].tokens == 4);
  CHECK(m.process_of(1) == 0);
  CHECK(m.process_of(2) == 1);
}

TEST_CASE("process mix: malformed processes are input errors naming the file and field",
          "[process][workload][errors]") {
  TempDir dir("gsched_proc_test");
  const auto lib = load_kernel_library();
  auto err = [&](const std::string& text) {
    const std::string path = dir.write("bad_proc.json", text);
    return input_error_of([&] { load_mix(path, lib); });
  };
  const std::string ok_step = R"({"kernel": "test.tiny"})";
  auto procs = [&](const std::string& p) { return R"({"processes": [)" + p + "]}"; };
  SECTION("a negative host gap names processes[2].kernels[1].host_gap_cycles") {
    const std::string m = err(procs(R"({"name": "a", "kernels": [)" + ok_step + R"(]},
        {"name": "b", "kernels": [)" +
                                    ok_step + R"(]},
        {"name": "c", "kernels": [)" +
                                    ok_step + R"(, {"kernel": "test.tiny", "host_gap_cycles": -3}]})"));
    CHECK(contains(m, "bad_proc.json"));
    CHECK(contains(m, "processes[2].kernels[1].host_gap_cycles"));
    CHECK(contains(m, "negative"));
  }
  SECTION("kernels and processes together") {
    const std::string m = err(
        R"({"kernels": [{"kernel": "HOT"}], "processes": [{"name": "a", "kernels": [{"kernel": "HOT"}]}]})");
    CHECK(contains(m, "processes"));
    CHECK(contains(m, "not both"));
  }
  SECTION("runs of zero") {
    const std::string m = err(procs(R"({"name": "a", "runs": 0, "kernels": [)" + ok_step + "]}"));
    CHECK(contains(m, "processes[0].runs"));
  }
  SECTION("a missing name, an empty sequence, an empty list") {
    CHECK(contains(err(procs(R"({"kernels": [)" + ok_step + "]}")), "processes[0].name"));
    CHECK(contains(err(procs(R"({"name": "a", "kernels": []})")), "at least one kernel"));
    CHECK(contains(err(R"({"processes": []})"), "at least one process"));
  }
  SECTION("two processes with one name or one context") {
    const std::string same_name = err(procs(R"({"name": "a", "kernels": [)" + ok_step +
                                            R"(]}, {"name": "a", "kernels": [)" + ok_step + "]}"));
    CHECK(contains(same_name, "processes[1].name"));
    CHECK(contains(same_name, "two processes named 'a'"));
    const std::string same_ctx = err(procs(R"({"name": "a", "context": 3, "kernels": [)" + ok_step +
                                           R"(]}, {"name": "b", "context": 3, "kernels": [)" + ok_step + "]}"));
    CHECK(contains(same_ctx, "processes[1].context"));
    CHECK(contains(same_ctx, "own command buffer"));
  }
  SECTION("a step with a kernel-mix key gets a hint") {
    const std::string m = err(procs(R"({"name": "a", "kernels": [{"kernel": "test.tiny", "arrival_cycle": 10}]})"));
    CHECK(contains(m, "processes[0].kernels[0].arrival_cycle"));
    CHECK(contains(m, "host_gap_cycles"));
    CHECK(contains(err(procs(R"({"name": "a", "kernels": [{"kernel": "test.tiny", "priority": 1}]})")),
                   "set on the process"));
  }
  SECTION("an unknown kernel in a step") {
    const std::string m = err(procs(R"({"name": "a", "kernels": [)" + ok_step + R"(, {"kernel": "HTO"}]})"));
    CHECK(contains(m, "processes[0].kernels[1].kernel"));
    CHECK(contains(m, "HOT"));
  }
  SECTION("a context beyond the config's command buffers names the process's field") {
    const Mix mix = process_mix(R"([{"name": "a", "kernels": [{"kernel": "test.tiny"}]},
                                    {"name": "b", "context": 9, "kernels": [{"kernel": "test.tiny"}]}])");
    const std::string m = input_error_of([&] { limits::check_mix_fits(load_gpu_config("warped-slicer"), mix); });
    CHECK(contains(m, "processes[1].context"));
    CHECK(contains(m, "max_contexts"));
  }
  SECTION("a fixed window does not go with processes") {
    const std::string m = err(R"({"window_cycles": 1000, "processes": [{"name": "a", "kernels": [)" + ok_step + "]}]}");
    CHECK(contains(m, "window_cycles"));
    CHECK(contains(m, "process mix"));
    Mix mix = process_mix(kTwoProcesses);
    WindowOverride w;
    w.cycles = 5000;
    const std::string why = input_error_of([&] { override_window(mix, w, "--window-cycles"); });
    CHECK(contains(why, "--window-cycles"));
    CHECK(contains(why, "process mix"));
    CHECK(mix.window_cycles == 0);
  }
}

TEST_CASE("process mix: steps in order, host gaps to the cycle, runs counted, replays, the run's end", "[process]") {
  const Mix mix = process_mix(kTwoProcesses);
  const Ran ran = run_recorded(mix);
  const RunResult& r = ran.result;
  REQUIRE(r.processes.size() == 2);
  const ProcessResult& a = r.processes[0];
  const ProcessResult& b = r.processes[1];

  // A: exactly its 2 runs (it ends the run: B is far shorter), each step after the one before.
  REQUIRE(a.completed() == 2);
  REQUIRE(a.steps.size() == 4);
  for (size_t i = 0; i < a.steps.size(); ++i) {
    INFO("A step record " << i);
    CHECK(a.steps[i].run == i / 2);
    CHECK(a.steps[i].step == i % 2);
    CHECK(a.steps[i].kernel == (i % 2 == 0 ? 0 : 1));
  }
  // Step 0 of run 0 at the start (gap 0), step 1 exactly 3000 cycles after step 0 finished;
  // run 1 starts where run 0 ended and its step 0 (gap 0) arrives once the scheduler has the last
  // event (a cycle or so later, never before the end).
  CHECK(a.steps[0].arrival_cycle == 0);
  CHECK(a.steps[1].arrival_cycle == a.steps[0].end_cycle + 3000);
  CHECK(a.steps[3].arrival_cycle == a.steps[2].end_cycle + 3000);
  CHECK(a.run_start[0] == 0);
  CHECK(a.run_end[0] == a.steps[1].end_cycle);
  CHECK(a.run_start[1] == a.run_end[0]);
  CHECK(a.run_end[1] == a.steps[3].end_cycle);
  const auto& k0_events = ran.kernels.at(0).last_event_cycles;
  REQUIRE(k0_events.size() == 2);
  CHECK(a.steps[2].arrival_cycle >= a.steps[1].end_cycle);
  CHECK(a.steps[2].arrival_cycle == std::max(a.steps[1].end_cycle, ran.kernels.at(1).last_event_cycles[0] + 1));
  CHECK(a.turnaround(0) == a.run_end[0] - a.run_start[0]);
  CHECK(a.turnaround(0) > 3000);

  // B: first arrival at start_cycle + gap; it replays (completed > runs) while A still runs, each
  // run's step arriving 50 cycles after the run before ended.
  REQUIRE(b.completed() > 1);
  CHECK(b.steps[0].arrival_cycle == 150);
  CHECK(b.run_start[0] == 100);
  for (size_t i = 1; i < b.completed(); ++i) {
    INFO("B run " << i);
    CHECK(b.run_start[i] == b.run_end[i - 1]);
    CHECK(b.steps[i].arrival_cycle == b.run_end[i - 1] + 50);
  }

  // The run ends when the last process completes its runs: A's second run, not a cycle later.
  CHECK(r.cycles == a.run_end[1]);
  CHECK(b.run_end.back() <= r.cycles);

  // Launches on the port: ordinary launches, A's in context 0 in step order, B's in context 1;
  // no relaunch of a kernel id before the scheduler had every finish event of its instance before.
  CHECK(ran.early_launches == 0);
  std::vector<KernelId> a_order;
  for (const auto& l : ran.launches) {
    CHECK(l.ctx == (l.kernel == 2 ? 1u : 0u));
    if (l.kernel != 2) a_order.push_back(l.kernel);
  }
  CHECK(a_order == std::vector<KernelId>{0, 1, 0, 1});
  // Nothing else queues on A's launches here: each goes out the cycle it arrives.
  size_t ai = 0;
  for (const auto& l : ran.launches)
    if (l.kernel != 2 && ai < a.steps.size()) CHECK(l.cycle == a.steps[ai++].arrival_cycle);
  CHECK(r.kernels[0].launches == 2);
  CHECK(r.kernels[0].completions == 2);
  // B's kernel: one launch per completed run, and at most one more, the replay that A's end cut
  // short, launched 50 cycles after B's last run ended
  CHECK(r.kernels[2].completions == b.completed());
  REQUIRE(r.kernels[2].launches >= b.completed());
  REQUIRE(r.kernels[2].launches <= b.completed() + 1);
  if (r.kernels[2].launches > b.completed()) {
    uint64_t last_b = 0;
    for (const auto& l : ran.launches)
      if (l.kernel == 2) last_b = std::max<uint64_t>(last_b, l.cycle);
    CHECK(last_b == b.run_end.back() + 50);
  }
}

TEST_CASE("process mix: a one-step process relaunches its kernel only after its last event", "[process]") {
  const Mix mix = process_mix(
      R"([{"name": "solo", "runs": 3, "kernels": [{"kernel": "test.compute", "grid_ctas": 4}]}])");
  const Ran ran = run_recorded(mix);
  const ProcessResult& p = ran.result.processes.at(0);
  REQUIRE(p.completed() == 3);  // alone: no replay beyond its runs
  CHECK(ran.early_launches == 0);
  // The run ends the cycle the third instance's last CTA finishes: its event never reaches the port.
  const auto& ev = ran.kernels.at(0).last_event_cycles;
  REQUIRE(ev.size() == 2);
  for (size_t i = 1; i < 3; ++i) CHECK(p.steps[i].arrival_cycle == std::max(p.run_end[i - 1], ev[i - 1] + 1));
  CHECK(ran.result.cycles == p.run_end[2]);
}

TEST_CASE("process mix: runs are deterministic", "[process]") {
  const Mix mix = process_mix(kTwoProcesses);
  const Ran x = run_recorded(mix), y = run_recorded(mix);
  CHECK(x.result.cycles == y.result.cycles);
  for (size_t p = 0; p < 2; ++p) {
    CHECK(x.result.processes[p].run_end == y.result.processes[p].run_end);
    CHECK(x.result.processes[p].run_start == y.result.processes[p].run_start);
  }
  CHECK(x.launches.size() == y.launches.size());
}

TEST_CASE("compute_process_metrics on a worked example", "[process][metrics]") {
  ProcessRuntimes a{"a", 0, 2, {200, 300, 400}, {100, 100}};
  ProcessRuntimes b{"b", 1, 1, {150}, {100}};
  KernelRuntimes k;
  k.name = "k";
  k.instructions = 1000;
  k.launches = 3;
  k.completions = 3;
  const MixMetrics m = compute_process_metrics({a, b}, {k}, 500);
  REQUIRE(m.processes.size() == 2);
  CHECK(m.processes[0].mean_shared == Approx(300));  // every completed run (Tanasic Sec. 4.1)
  CHECK(m.processes[0].mean_first == Approx(250));   // the first `runs`, reported only
  CHECK(m.processes[0].mean_alone == Approx(100));
  CHECK(m.processes[0].ntt == Approx(3.0));
  CHECK(m.processes[1].ntt == Approx(1.5));
  CHECK(m.antt == Approx(2.25));
  CHECK(m.stp == Approx(1.0 / 3 + 1.0 / 1.5));
  CHECK(m.strictf == Approx(0.5));
  CHECK(m.ipc == Approx(2.0));
  REQUIRE(m.kernels.size() == 1);
  CHECK(m.kernels[0].launches == 3);
  ProcessRuntimes none{"none", 0, 1, {}, {100}};
  CHECK(contains(input_error_of([&] { compute_process_metrics({none}, {}, 10); }), "completed no run"));
}

TEST_CASE("process mix: run_mix_with_alone gives per-process NTT against each process alone", "[process][metrics]") {
  const GpuConfig cfg = load_gpu_config("warped-slicer");
  const Mix mix = process_mix(kTwoProcesses);
  AloneRunCache cache;
  SchedOptions opt;
  const MixRun run = run_mix_with_alone(cfg, mix, "golden", opt, RunOptions{}, cache);
  REQUIRE(run.alone_processes.size() == 2);
  CHECK(cache.runs() == 2);  // one alone run per process
  // Alone, a process completes exactly its runs (nothing else keeps the run going).
  CHECK(run.alone_processes[0].completed() == 2);
  CHECK(run.alone_processes[1].completed() == 1);
  // The alone run is the process by itself from cycle 0 in context 0.
  {
    const Mix alone = alone_process_mix(mix, 1);
    REQUIRE(alone.processes.size() == 1);
    CHECK(alone.processes[0].start_cycle == 0);
    CHECK(alone.kernels[0].context == 0);
    auto sched = make_scheduler("golden", alone_sched_options(opt));
    Gpu gpu(cfg, alone, *sched, RunOptions{});
    const RunResult r = gpu.run();
    CHECK(r.processes[0].turnaround(0) == run.alone_processes[1].turnaround(0));
    CHECK(r.processes[0].turnaround(0) == 50 + run.alone[2].cycles());  // host gap + the kernel
  }
  const MixMetrics& m = run.metrics;
  REQUIRE(m.processes.size() == 2);
  for (const ProcessMetrics& p : m.processes) {
    INFO(p.name);
    CHECK(p.ntt == Approx(p.mean_shared / p.mean_alone));
    CHECK(p.ntt >= 0.99);  // sharing never makes these much faster
  }
  CHECK(m.processes[1].turnarounds.size() == run.shared.processes[1].completed());
  CHECK(m.antt == Approx((m.processes[0].ntt + m.processes[1].ntt) / 2));
  CHECK(m.stp == Approx(1 / m.processes[0].ntt + 1 / m.processes[1].ntt));
  CHECK(m.cycles == run.shared.cycles);

  // The reports carry the process rows.
  RunInfo info;
  info.config = "warped-slicer";
  info.mix = "p";
  info.policy = "left-over";
  info.scheduler = "golden";
  info.preempt = "drain";
  const std::string table = format_table(info, m);
  CHECK(contains(table, "process"));
  CHECK(contains(table, "mean_shared"));
  CHECK(contains(table, "Tanasic Sec. 4.1"));
  const nlohmann::ordered_json j = json_report(info, m);
  REQUIRE(j.contains("processes"));
  CHECK(j["processes"].size() == 2);
  CHECK(j["processes"][0]["name"] == "A");
  CHECK(j["processes"][0]["runs"] == 2);
  CHECK(j["processes"][0]["completed"] == 2);
  CHECK(j["kernels"][0].contains("launches"));
  CHECK(contains(format_csv(info, m), "process,priority,runs,completed"));
}
