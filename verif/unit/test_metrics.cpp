// gsched: metrics (NTT, ANTT, STP, StrictF, mix IPC) and the run reports, on hand-worked numbers.
//
// Worked example used throughout (two kernels):
//   A: alone 100 cycles, shared 150 cycles, 3000 instructions -> NTT 1.5, IPC 20
//   B: alone 200 cycles, shared 500 cycles, 7000 instructions -> NTT 2.5, IPC 14
//   ANTT    = (1.5 + 2.5) / 2           = 2.0
//   STP     = 100/150 + 200/500         = 0.666667 + 0.4 = 1.066667
//   StrictF = 1.5 / 2.5                 = 0.6
//   mix IPC = (3000 + 7000) / 520 cycles = 19.230769 (B arrived at 20, so the run ends at 520)
#include <iterator>
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include "common/error.hpp"
#include "metrics/metrics.hpp"
#include "metrics/mix_runner.hpp"
#include "metrics/report.hpp"

using gs::KernelRuntimes;

namespace {

std::vector<KernelRuntimes> worked_pair() { return {{"A", 0, 3000, 100, 150, 0}, {"B", 20, 7000, 200, 500, 1}}; }

gs::RunInfo worked_info() {
  gs::RunInfo info;
  info.config = "warped-slicer";
  info.mix = "pair";
  info.policy = "left-over";
  info.scheduler = "golden";
  info.preempt = "drain";
  info.seed = 7;
  return info;
}

}  // namespace

TEST_CASE("NTT is shared over alone turnaround", "[metrics]") {
  CHECK(gs::normalized_turnaround(150, 100) == Approx(1.5));
  CHECK(gs::normalized_turnaround(100, 100) == Approx(1.0));
  // A kernel can run faster in the mix than alone only through noise; the ratio must still hold.
  CHECK(gs::normalized_turnaround(90, 100) == Approx(0.9));
}

TEST_CASE("ANTT STP and StrictF on the worked pair", "[metrics]") {
  const std::vector<double> ntts = {1.5, 2.5};
  CHECK(gs::antt(ntts) == Approx(2.0));
  CHECK(gs::stp(ntts) == Approx(1.0 / 1.5 + 1.0 / 2.5));
  CHECK(gs::stp(ntts) == Approx(1.066667).epsilon(1e-6));
  CHECK(gs::strict_fairness(ntts) == Approx(0.6));
}

TEST_CASE("metrics of an unslowed mix are ideal", "[metrics]") {
  // Three kernels that do not disturb each other: STP = n, ANTT = 1, perfectly fair.
  const std::vector<double> ntts = {1.0, 1.0, 1.0};
  CHECK(gs::stp(ntts) == Approx(3.0));
  CHECK(gs::antt(ntts) == Approx(1.0));
  CHECK(gs::strict_fairness(ntts) == Approx(1.0));
}

TEST_CASE("Pai SRTF example slowdowns give the expected fairness", "[metrics]") {
  // Pai et al. Sec. 5.1.2, Fig. 13: with SRTF, B waits for A, so B's slowdown is (T1+T2)/T2 while
  // A runs undisturbed. T1 = 40, T2 = 60 -> slowdowns 1 and 100/60; StrictF = 0.6.
  const double ntt_a = gs::normalized_turnaround(40, 40);
  const double ntt_b = gs::normalized_turnaround(40 + 60, 60);
  CHECK(ntt_b == Approx(100.0 / 60.0));
  CHECK(gs::strict_fairness({ntt_a, ntt_b}) == Approx(0.6));
  CHECK(gs::antt({ntt_a, ntt_b}) == Approx((1.0 + 100.0 / 60.0) / 2));
  CHECK(gs::stp({ntt_a, ntt_b}) == Approx(1.6));
}

TEST_CASE("Warped-Slicer mix IPC is all instructions over total cycles", "[metrics]") {
  CHECK(gs::mix_ipc(10000, 520) == Approx(19.230769).epsilon(1e-6));
  CHECK(gs::mix_ipc(0, 10) == Approx(0.0));
}

TEST_CASE("compute_mix_metrics on the worked pair", "[metrics]") {
  const gs::MixMetrics m = gs::compute_mix_metrics(worked_pair(), 520);
  REQUIRE(m.kernels.size() == 2);
  CHECK(m.kernels[0].name == "A");
  CHECK(m.kernels[0].ntt == Approx(1.5));
  CHECK(m.kernels[0].ipc == Approx(20.0));
  CHECK(m.kernels[1].name == "B");
  CHECK(m.kernels[1].arrival_cycle == 20);
  CHECK(m.kernels[1].ntt == Approx(2.5));
  CHECK(m.kernels[1].ipc == Approx(14.0));
  CHECK(m.instructions == 10000);
  CHECK(m.cycles == 520);
  CHECK(m.antt == Approx(2.0));
  CHECK(m.stp == Approx(1.066667).epsilon(1e-6));
  CHECK(m.strictf == Approx(0.6));
  CHECK(m.ipc == Approx(19.230769).epsilon(1e-6));
}

TEST_CASE("metrics reject empty mixes and zero runtimes", "[metrics]") {
  CHECK_THROWS_AS(gs::antt({}), gs::InputError);
  CHECK_THROWS_AS(gs::stp({}), gs::InputError);
  CHECK_THROWS_AS(gs::strict_fairness({}), gs::InputError);
  CHECK_THROWS_AS(gs::normalized_turnaround(10, 0), gs::InputError);
  CHECK_THROWS_AS(gs::normalized_turnaround(0, 10), gs::InputError);
  CHECK_THROWS_AS(gs::mix_ipc(5, 0), gs::InputError);
  CHECK_THROWS_AS(gs::compute_mix_metrics({{"A", 0, 10, 0, 5}}, 5), gs::InputError);
}

TEST_CASE("report numbers are rounded deterministically", "[metrics][report]") {
  CHECK(gs::format_fixed(1.0665, 3) == "1.067");
  CHECK(gs::format_fixed(2.0, 3) == "2.000");
  CHECK(gs::format_fixed(-0.0001, 3) == "0.000");
  CHECK(gs::format_fixed(-1.5, 1) == "-1.5");
  CHECK(gs::round6(1.0 / 3.0) == 0.333333);
  CHECK(gs::round6(2.0 / 3.0) == 0.666667);
}

TEST_CASE("JSON report has the documented keys in order", "[metrics][report]") {
  const gs::MixMetrics m = gs::compute_mix_metrics(worked_pair(), 520);
  const std::string text = gs::format_json(worked_info(), m);
  const auto j = nlohmann::ordered_json::parse(text);
  std::vector<std::string> keys;
  for (auto it = j.begin(); it != j.end(); ++it) keys.push_back(it.key());
  CHECK(keys == std::vector<std::string>{"config", "mix", "policy", "scheduler", "preempt", "sm_sharing", "seed",
                                         "cycles", "stp", "antt", "strictf", "kernels"});
  CHECK(j["config"] == "warped-slicer");
  CHECK(j["seed"] == 7);
  CHECK(j["cycles"] == 520);
  CHECK(j["stp"].get<double>() == 1.066667);
  CHECK(j["antt"].get<double>() == 2.0);
  CHECK(j["strictf"].get<double>() == 0.6);
  REQUIRE(j["kernels"].size() == 2);
  std::vector<std::string> kkeys;
  for (auto it = j["kernels"][1].begin(); it != j["kernels"][1].end(); ++it) kkeys.push_back(it.key());
  CHECK(kkeys == std::vector<std::string>{"name", "arrival_cycle", "priority", "instructions", "ipc", "cycles_alone",
                                          "cycles_shared", "ntt"});
  CHECK(j["kernels"][1]["name"] == "B");
  CHECK(j["kernels"][1]["arrival_cycle"] == 20);
  CHECK(j["kernels"][1]["priority"] == 1);
  CHECK(j["kernels"][1]["instructions"] == 7000);
  CHECK(j["kernels"][1]["cycles_alone"] == 200);
  CHECK(j["kernels"][1]["cycles_shared"] == 500);
  CHECK(j["kernels"][1]["ntt"].get<double>() == 2.5);
  // Byte-stable: the same input formats to the same text.
  CHECK(text == gs::format_json(worked_info(), m));
  // The version stamp goes last, when the caller gives one.
  gs::RunInfo stamped = worked_info();
  stamped.version = "gsim 0.1 (git abc)";
  const auto js = nlohmann::ordered_json::parse(gs::format_json(stamped, m));
  CHECK(std::prev(js.end()).key() == "gsim_version");
  CHECK(js["gsim_version"] == "gsim 0.1 (git abc)");
  CHECK(text.back() == '\n');
}

TEST_CASE("CSV report has a header and one row per kernel", "[metrics][report]") {
  const gs::MixMetrics m = gs::compute_mix_metrics(worked_pair(), 520);
  const std::string csv = gs::format_csv(worked_info(), m);
  CHECK(
      csv ==
      "config,mix,policy,scheduler,preempt,sm_sharing,seed,kernel,arrival,priority,instructions,ipc,cycles_alone,cycles_shared,ntt\n"
      "warped-slicer,pair,left-over,golden,drain,shared,7,A,0,0,3000,20.000000,100,150,1.500000\n"
      "warped-slicer,pair,left-over,golden,drain,shared,7,B,20,1,7000,14.000000,200,500,2.500000\n");
}

TEST_CASE("CSV quotes names holding commas or quotes", "[metrics][report]") {
  gs::RunInfo info = worked_info();
  info.mix = "a,b";
  const gs::MixMetrics m = gs::compute_mix_metrics({{"k\"1", 0, 10, 10, 10}}, 10);
  const std::string csv = gs::format_csv(info, m);
  CHECK(csv.find(",\"a,b\",") != std::string::npos);
  CHECK(csv.find(",\"k\"\"1\",") != std::string::npos);
}

TEST_CASE("table report lists every kernel and the mix figures", "[metrics][report]") {
  const gs::MixMetrics m = gs::compute_mix_metrics(worked_pair(), 520);
  const std::string t = gs::format_table(worked_info(), m);
  CHECK(t.find("config warped-slicer, mix pair, policy left-over, scheduler golden, preempt drain, seed 7") == 0);
  CHECK(t.find("kernel  arrival  cycles_alone  cycles_shared    NTT  IPC(warp)  warp_insts\n") != std::string::npos);
  CHECK(t.find("A             0           100            150  1.500     20.000        3000\n") != std::string::npos);
  CHECK(t.find("B            20           200            500  2.500     14.000        7000\n") != std::string::npos);
  CHECK(t.find("STP      1.067") != std::string::npos);
  CHECK(t.find("ANTT     2.000") != std::string::npos);
  CHECK(t.find("StrictF  0.600") != std::string::npos);
  CHECK(t.find("IPC      19.231") != std::string::npos);
  CHECK(t.find("cycles   520\n") != std::string::npos);
}

TEST_CASE("alone runs put the kernel at cycle 0 under left-over", "[metrics]") {
  gs::Mix mix;
  mix.name = "pair";
  gs::MixEntry e;
  e.kernel = "HOT";
  e.arrival_cycle = 5000;
  e.context = 3;
  e.priority = 2;
  const gs::Mix alone = gs::alone_mix(mix, e);
  REQUIRE(alone.kernels.size() == 1);
  CHECK(alone.kernels[0].kernel == "HOT");
  CHECK(alone.kernels[0].arrival_cycle == 0);
  CHECK(alone.kernels[0].context == 0);
  CHECK(alone.kernels[0].priority == 2);

  gs::SchedOptions shared;
  shared.policy = "dss";
  shared.preempt = gs::PreemptMode::kSwitch;
  shared.seed = 9;
  shared.wave_file = "x.fst";
  const gs::SchedOptions a = gs::alone_sched_options(shared);
  CHECK(a.policy == "left-over");
  CHECK(a.preempt == gs::PreemptMode::kSwitch);
  CHECK(a.seed == 9);
  CHECK(a.wave_file.empty());
}

namespace {

/// A small kernel that finishes in a few thousand cycles on the 16-SM Warped-Slicer GPU.
gs::MixEntry small_kernel_entry(uint64_t arrival) {
  gs::MixEntry e;
  e.kernel = "metrics-test-small";
  e.arrival_cycle = arrival;
  e.desc.name = e.kernel;
  e.desc.suite = "test";
  e.desc.threads_per_cta = 128;
  e.desc.regs_per_thread = 16;
  e.desc.grid_ctas = 48;
  e.desc.insts_per_warp = 200;
  e.desc.ldst_permille = 100;
  e.desc.footprint_bytes = 1 << 20;
  return e;
}

gs::SchedOptions golden_left_over(uint64_t seed) {
  gs::SchedOptions o;
  o.policy = "left-over";
  o.seed = seed;
  return o;
}

}  // namespace

TEST_CASE("a kernel alone in its own mix has NTT 1", "[metrics][mix_runner]") {
  const gs::GpuConfig cfg = gs::load_gpu_config("warped-slicer");
  gs::Mix mix;
  mix.name = "one";
  mix.kernels.push_back(small_kernel_entry(0));
  gs::AloneRunCache cache;
  const gs::MixRun r = gs::run_mix_with_alone(cfg, mix, "golden", golden_left_over(1), gs::RunOptions{}, cache);
  CHECK(cache.runs() == 0);  // simulated once: its shared run is its alone run (same_as_alone_run)
  CHECK(gs::same_as_alone_run(mix, golden_left_over(1)));
  REQUIRE(r.alone_counters.size() == 1);
  CHECK(r.alone_counters[0].instructions == r.alone[0].instructions);
  REQUIRE(r.metrics.kernels.size() == 1);
  const gs::KernelMetrics& k = r.metrics.kernels[0];
  CHECK(k.cycles_alone > 0);
  CHECK(k.cycles_alone == k.cycles_shared);  // under left-over from cycle 0 the shared run is the alone run
  CHECK(k.instructions == 48u * 4u * 200u);  // 48 CTAs x 4 warps x 200 warp instructions
  CHECK(k.ntt == 1.0);
  CHECK(r.metrics.stp == 1.0);
  CHECK(r.metrics.antt == 1.0);
  CHECK(r.metrics.strictf == 1.0);
  CHECK(r.metrics.cycles == r.shared.cycles);
  CHECK(r.metrics.ipc == Approx(double(k.instructions) / double(r.shared.cycles)));
}

TEST_CASE("alone runs are cached within one process", "[metrics][mix_runner]") {
  const gs::GpuConfig cfg = gs::load_gpu_config("warped-slicer");
  gs::Mix mix;
  mix.name = "twice";
  mix.kernels.push_back(small_kernel_entry(0));
  mix.kernels.push_back(small_kernel_entry(300));  // the same kernel again, arriving later
  gs::AloneRunCache cache;
  const gs::MixRun r1 = gs::run_mix_with_alone(cfg, mix, "golden", golden_left_over(1), gs::RunOptions{}, cache);
  CHECK(cache.runs() == 1);  // one alone run serves both entries
  REQUIRE(r1.metrics.kernels.size() == 2);
  CHECK(r1.metrics.kernels[0].cycles_alone == r1.metrics.kernels[1].cycles_alone);
  CHECK(r1.metrics.kernels[1].arrival_cycle == 300);
  CHECK(r1.metrics.kernels[1].cycles_shared == r1.shared.kernels[1].end_cycle - 300);
  // Sharing the GPU with its twin can only delay the later copy.
  CHECK(r1.metrics.kernels[1].ntt >= 1.0);

  const gs::MixRun r2 = gs::run_mix_with_alone(cfg, mix, "golden", golden_left_over(1), gs::RunOptions{}, cache);
  CHECK(cache.runs() == 1);                       // a second run of the same mix reuses it
  CHECK(r2.metrics.cycles == r1.metrics.cycles);  // and the simulation is deterministic

  gs::run_mix_with_alone(cfg, mix, "golden", golden_left_over(2), gs::RunOptions{}, cache);
  CHECK(cache.runs() == 2);  // another seed is another alone run
}
