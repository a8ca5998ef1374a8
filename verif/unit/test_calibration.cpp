// gsched unit tests: the presets' calibration against the papers (docs/fidelity.md,
// docs/presets.md). Whole runs of the model on the golden scheduler:
//   * a coalesced stream (test.stream) reaches at least 85% of the DRAM peak on every shipped
//     preset under the preset's own warp scheduler;
//   * the simulated context save of each of Tanasic Table 1's 24 kernels, on tanasic-k20c under
//     ppq-excl with --preempt switch (every SM switches, none drains): from the switch command
//     to the last SM's last CTA saved, within 20% of the table's Save Time.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdio>
#include <map>

#include "config/gpu_config.hpp"
#include "gpu/gpu.hpp"
#include "gpu/occupancy.hpp"
#include "metrics/counters_summary.hpp"
#include "sched/scheduler_port.hpp"
#include "workload/kernel_desc.hpp"

using namespace gs;

namespace {

RunResult run_golden(const GpuConfig& cfg, const Mix& mix, const std::string& policy, PreemptMode mode) {
  RunOptions ro;
  ro.sched.policy = policy;
  ro.sched.preempt = mode;
  auto sched = make_scheduler("golden", ro.sched);
  Gpu gpu(cfg, mix, *sched, ro);
  return gpu.run();
}

Mix one_kernel(const std::vector<KernelDesc>& lib, const std::string& name) {
  Mix m;
  m.name = "kernel:" + name;
  MixEntry e;
  e.kernel = name;
  e.desc = find_kernel(lib, name);
  m.kernels.push_back(e);
  return m;
}

}  // namespace

TEST_CASE("a coalesced stream reaches 85% of DRAM peak on every preset under its own warp scheduler",
          "[calibration][dram]") {
  const auto lib = load_kernel_library();
  for (const std::string& preset : list_gpu_configs()) {
    const GpuConfig cfg = load_gpu_config(preset);
    // The share is over the whole run, ramp-up and tail included: the grid must give every SM
    // a few waves. The descriptor's 640 CTAs do on the presets up to 32 SMs; h100's 132 SMs
    // hold 1056 at once, so the grid grows to 20 per SM there (2640, 2.5 waves).
    Mix mix = one_kernel(lib, "test.stream");
    mix.kernels[0].grid_ctas = std::max<uint32_t>(mix.kernels[0].desc.grid_ctas, 20 * cfg.num_sms());
    mix.kernels[0].desc.grid_ctas = mix.kernels[0].grid_ctas;
    const RunResult r = run_golden(cfg, mix, "left-over", PreemptMode::kDrain);
    const CountersSummary c = summarize_counters(cfg, r);
    std::printf("[calibration] %-20s stream %.1f%% of DRAM peak, row-buffer hits %.1f%%, %llu cycles\n", preset.c_str(),
                100.0 * c.dram.bandwidth_share(), 100.0 * c.dram.row_buffer_hit_rate(), (unsigned long long)r.cycles);
    INFO(preset << ": " << c.dram.bandwidth_share() << " of peak");
    CHECK(c.dram.bandwidth_share() >= 0.85);
    CHECK(c.dram.bandwidth_share() <= 1.0);
  }
}

namespace {

struct SaveTimes {
  uint32_t sms_switched = 0, sms_drained = 0;
  uint32_t sms_full = 0;                   // switched SMs that saved a full SM (TBs/SM CTAs)
  double min_ratio = 1e30, max_ratio = 0;  // simulated / Table 1 scaled to the CTAs saved
  double full_max_us = 0;                  // slowest save of a full SM
  double max_us = 0;                       // slowest save of any SM: when the last SM is free
};

/// Runs `victim` alone until every SM holds its CTAs, then a high-priority kernel that needs every
/// SM (ppq-excl, context switch). Per switched SM, the save time is from the switch command
/// reaching the SM to its last CTA saved: max(saved cycle) - stop, where the stop cycle (common to
/// the SM's CTAs) follows from ctx_save_cycles = sum over its saved CTAs of (saved - stop).
SaveTimes simulated_save(const GpuConfig& cfg, const std::vector<KernelDesc>& lib, const std::string& victim,
                         uint64_t arrival, const Occupancy& table1) {
  Mix m = one_kernel(lib, victim);
  // Eight waves of CTAs: every SM is still full of the victim at the arrival (Table 1's save
  // time is that of a full SM, TBs/SM CTAs), and no more (the run lasts until the victim ends).
  MixEntry& v = m.kernels[0];
  v.desc.grid_ctas = 8 * cfg.num_sms() * occupancy(v.desc, cfg, cfg.sm(0)).max_ctas;
  v.grid_ctas = v.desc.grid_ctas;
  // The high-priority kernel: ALU only (it adds no memory traffic to the saves) and long enough
  // that it is still dispatching CTAs when the slowest save ends.
  MixEntry hp;
  hp.kernel = "test.compute";
  hp.desc = find_kernel(lib, hp.kernel);
  hp.desc.grid_ctas = 32 * cfg.num_sms();
  hp.grid_ctas = hp.desc.grid_ctas;
  hp.arrival_cycle = arrival;
  hp.context = 1;
  hp.priority = 1;
  m.kernels.push_back(hp);
  const RunResult r = run_golden(cfg, m, "ppq-excl", PreemptMode::kSwitch);
  SaveTimes s;
  const double us_per_cycle = 1.0 / cfg.core_clock_mhz;
  for (uint32_t sm = 0; sm < cfg.num_sms(); ++sm) {
    const KernelSmCounters& k = r.counters.at(sm, 0);
    if (k.ctas_drained) ++s.sms_drained;
    if (k.ctas_switched == 0) continue;
    ++s.sms_switched;
    // The victim resumes only once the high-priority kernel has dispatched its last CTA, so the
    // SM's saves are the last ctas_switched victim records that end between the arrival and
    // then (before them: victim CTAs that finished on their own while the command was on its
    // way), and they share one stop cycle: sum(saved) - ctx_save_cycles = n x stop.
    uint64_t hp_last_start = 0;
    for (const CtaRecord& c : r.ctas)
      if (c.kernel == 1) hp_last_start = std::max(hp_last_start, c.start_cycle);
    std::vector<uint64_t> ends;
    for (const CtaRecord& c : r.ctas)
      if (c.sm == sm && c.kernel == 0 && c.end_cycle >= arrival && c.end_cycle <= hp_last_start)
        ends.push_back(c.end_cycle);
    std::sort(ends.begin(), ends.end());
    const size_t n = k.ctas_switched;
    INFO("SM " << sm << ": " << n << " saved CTAs, ctx_save_cycles " << k.ctx_save_cycles);
    REQUIRE(ends.size() >= n);
    uint64_t sum = 0;
    for (size_t i = ends.size() - n; i < ends.size(); ++i) sum += ends[i];
    REQUIRE(sum >= k.ctx_save_cycles);
    // (A CTA dispatched just before the command reached the SM may stop later than the rest:
    // the mean stop cycle is then taken, which can only lengthen the measured save.)
    const uint64_t stop = (sum - k.ctx_save_cycles) / n;
    const uint64_t last = ends.back();
    REQUIRE(stop <= ends[ends.size() - n]);
    const double us = double(last - stop) * us_per_cycle;
    // Table 1's Save Time is that of TBs/SM CTAs; an SM where some CTAs finished on their own
    // while the switch command was on its way saves fewer.
    const double expect_us = table1.save_time_us * double(n) / double(table1.max_ctas);
    s.min_ratio = std::min(s.min_ratio, us / expect_us);
    s.max_ratio = std::max(s.max_ratio, us / expect_us);
    s.max_us = std::max(s.max_us, us);
    if (n == table1.max_ctas) {
      ++s.sms_full;
      s.full_max_us = std::max(s.full_max_us, us);
    }
  }
  return s;
}

}  // namespace

TEST_CASE("simulated context saves of Tanasic Table 1's kernels take Table 1's save time within 20%",
          "[calibration][tanasic]") {
  const auto lib = load_kernel_library();
  const GpuConfig cfg = load_gpu_config("tanasic-k20c");
  uint32_t rows = 0;
  for (const KernelDesc& k : lib) {
    if (k.suite != "tanasic") continue;
    ++rows;
    const Occupancy o = occupancy(k, cfg, cfg.sm(0));
    // The victim fills every SM first: all its resident CTAs are dispatched within a few
    // thousand cycles; short grids (fewer CTAs than slots) arrive early so they are still running.
    const SaveTimes s = simulated_save(cfg, lib, k.name, 3000, o);
    const double ratio = s.max_us / o.save_time_us;
    std::printf("[calibration] %-24s Table 1 %6.2f us, simulated %6.2f us (%.2fx); per SM, against Table 1 scaled to "
                "the CTAs it saved: %.2f-%.2fx; full SMs %2u; switched %u drained %u\n",
                k.name.c_str(), o.save_time_us, s.max_us, ratio, s.min_ratio, s.max_ratio, s.sms_full, s.sms_switched,
                s.sms_drained);
    INFO(k.name << ": Table 1 " << o.save_time_us << " us, simulated " << s.max_us << " us");
    CHECK(s.sms_drained == 0);
    CHECK(s.sms_switched == cfg.num_sms());
    CHECK(ratio <= 1.2);
    CHECK(ratio >= 0.8);
  }
  CHECK(rows == 24);
}

namespace {

/// IPC per SM of kernel `k` alone with at most n CTAs per SM, n = 1..its occupancy (the
/// Warped-Slicer Fig. 3a x-axis), two waves of full-length CTAs.
std::vector<double> ipc_per_cta_count(const GpuConfig& base, const KernelDesc& k) {
  const uint32_t max_ctas = occupancy(k, base, base.sm(0)).max_ctas;
  std::vector<double> ipc;
  for (uint32_t n = 1; n <= max_ctas; ++n) {
    GpuConfig cfg = base;
    for (auto& t : cfg.sm_types) t.max_ctas = n;
    Mix mix;
    mix.name = "fig3a";
    MixEntry e;
    e.kernel = k.name;
    e.desc = k;
    e.desc.grid_ctas = 2 * n * cfg.num_sms();
    mix.kernels.push_back(e);
    const RunResult r = run_golden(cfg, mix, "left-over", PreemptMode::kDrain);
    ipc.push_back(double(r.kernels[0].instructions) / double(r.kernels[0].cycles()) / cfg.num_sms());
  }
  return ipc;
}

}  // namespace

// Prints the Warped-Slicer Fig. 3a curves and the alone IPC against Table II's (Inst. / 2M
// cycles / 32 threads per warp instruction) for docs/fidelity.md. Hidden (slow):
//   gs_unit_tests "[fidelity]"
TEST_CASE("Warped-Slicer kernels: IPC per CTA count and IPC against Table II", "[.][fidelity]") {
  const auto lib = load_kernel_library();
  const GpuConfig cfg = load_gpu_config("warped-slicer");
  const std::map<std::string, double> table2_inst = {{"BLK", 0.9e9}, {"BFS", 0.6e9}, {"DXT", 1.2e9}, {"HOT", 0.7e9},
                                                     {"IMG", 1.7e9}, {"KNN", 0.4e9}, {"LBM", 0.2e9}, {"MM", 0.6e9},
                                                     {"MVP", 0.2e9}, {"NN", 0.9e9}};
  for (const auto& [name, inst] : table2_inst) {
    const KernelDesc& k = find_kernel(lib, name);
    const std::vector<double> v = ipc_per_cta_count(cfg, k);
    const double best = *std::max_element(v.begin(), v.end());
    std::printf("[fidelity] %-4s IPC/SM by CTAs:", name.c_str());
    for (double x : v) std::printf(" %.2f", x);
    std::printf("  | normalized:");
    for (double x : v) std::printf(" %.2f", x / best);
    const RunResult r = run_golden(cfg, one_kernel(lib, name), "left-over", PreemptMode::kDrain);
    const double ipc = double(r.kernels[0].instructions) / double(r.kernels[0].cycles());
    const double paper = inst / 2e6 / 32;
    std::printf("  | alone IPC %.2f, Table II %.2f, ratio %.2f\n", ipc, paper, ipc / paper);
  }
}

TEST_CASE("Warped-Slicer compute kernels run within 25% of the IPC Table II implies", "[calibration][ws]") {
  // Table II's Inst. column over its two-million-cycle runs, in warp instructions (32 threads).
  const auto lib = load_kernel_library();
  const GpuConfig cfg = load_gpu_config("warped-slicer");
  for (const auto& [name, inst] :
       std::map<std::string, double>{{"DXT", 1.2e9}, {"HOT", 0.7e9}, {"IMG", 1.7e9}, {"MM", 0.6e9}}) {
    const RunResult r = run_golden(cfg, one_kernel(lib, name), "left-over", PreemptMode::kDrain);
    const double ipc = double(r.kernels[0].instructions) / double(r.kernels[0].cycles());
    const double paper = inst / 2e6 / 32;
    std::printf("[calibration] %-4s alone IPC %.2f, Table II %.2f (%.2fx)\n", name.c_str(), ipc, paper, ipc / paper);
    INFO(name << ": IPC " << ipc << ", Table II " << paper);
    CHECK(ipc >= 0.75 * paper);
    CHECK(ipc <= 1.25 * paper);
  }
}
