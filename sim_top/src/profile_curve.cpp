// gsim profile's measurement and the Fig. 3a class (contracts in profile_curve.hpp).
#include "profile_curve.hpp"

#include <algorithm>

#include "commands.hpp"
#include "common/error.hpp"
#include "config/limits.hpp"
#include "gpu/counters.hpp"
#include "gpu/gpu.hpp"
#include "gpu/occupancy.hpp"
#include "sched/scheduler_port.hpp"

namespace gsim {

namespace {

double ratio(uint64_t a, uint64_t b) { return b ? double(a) / double(b) : 0.0; }

/// The kernel-total counters of the run's only kernel.
gs::KernelSmCounters totals(const gs::Gpu& gpu) { return gpu.counters().kernel_total(0); }

}  // namespace

Point measure_point(const gs::GpuConfig& cfg, const gs::KernelDesc& k, uint32_t ctas, const ProfileWindow& a) {
  gs::Mix mix = gs::single_kernel_mix(k);
  mix.name = "profile:" + k.name;
  gs::SchedOptions sched;
  sched.policy = gs::spec::kDefaultPolicyName;
  sched.cta_limit = ctas;
  sched.seed = a.seed;
  gs::limits::check_scheduler_config(cfg, sched);
  auto port = gs::make_scheduler("golden", sched);
  gs::RunOptions opt;
  opt.seed = a.seed;
  opt.sched = sched;
  gs::Gpu gpu(cfg, mix, *port, opt);

  Point p;
  p.ctas = ctas;
  bool running = true;
  while (running && gpu.cycle() < a.warmup) {
    running = gpu.step();
    throw_if_interrupted("gsim profile");
  }
  gs::KernelSmCounters start = totals(gpu);
  p.window_start = gpu.cycle();
  while (running && gpu.cycle() < a.warmup + a.sample) {
    running = gpu.step();
    throw_if_interrupted("gsim profile");
  }
  // A kernel that ends before the window does is read over its whole run: a window cut short
  // by the end would see only its last, draining CTAs.
  if (!running) {
    p.whole_run = true;
    start = gs::KernelSmCounters{};
    p.window_start = 0;
  }
  p.window_end = gpu.cycle();
  const gs::KernelSmCounters end = totals(gpu);
  const uint64_t cycles = p.window_end - p.window_start;
  if (cycles == 0) throw gs::InvariantError("gsim profile: an empty measurement window for " + k.name);
  p.instructions = end.insts_issued - start.insts_issued;
  p.ipc = ratio(p.instructions, cycles);
  const auto mem = static_cast<int>(gs::StallReason::kMemLatency);
  uint64_t scheduler_cycles = 0;  // warp-scheduler cycles of the window, over every SM
  for (const gs::SmTypeConfig& t : gpu.config().sm_types)
    scheduler_cycles += uint64_t(t.count) * t.warp_schedulers * cycles;
  p.mem_stall = ratio(end.stall_cycles[mem] - start.stall_cycles[mem], scheduler_cycles);
  p.l1_miss = ratio(end.l1_misses - start.l1_misses, end.l1_accesses - start.l1_accesses);
  p.l2_miss = ratio(end.l2_misses - start.l2_misses, end.l2_accesses - start.l2_accesses);
  return p;
}

uint32_t occupancy_of(const gs::GpuConfig& cfg, const gs::KernelDesc& k) {
  uint32_t best = 0;
  std::string why;
  for (const gs::SmTypeConfig& t : cfg.sm_types) {
    try {
      best = std::max(best, gs::occupancy(k, cfg, t).max_ctas);
    } catch (const gs::InputError& e) {
      why = e.what();
    }
  }
  if (best == 0) throw gs::InputError("kernel '" + k.name + "' fits on no SM of config '" + cfg.name + "': " + why);
  return best;
}

std::string fig3a_class(const std::vector<Point>& curve, double l2_mpki) {
  if (curve.size() < 2) return {};
  const auto peak = std::max_element(curve.begin(), curve.end(),
                                     [](const Point& a, const Point& b) { return a.ipc < b.ipc; });
  if (peak->ipc <= 0) return {};
  const double last = curve.back().ipc / peak->ipc, before_last = curve[curve.size() - 2].ipc / peak->ipc;
  if (peak != curve.end() - 1 && last <= 0.90) return "cache";
  if (peak == curve.end() - 1 && before_last <= 0.95) return "compute-nonsat";
  return l2_mpki >= 30 ? "memory" : "compute-sat";
}

}  // namespace gsim
