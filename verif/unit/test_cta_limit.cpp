// SchedOptions::cta_limit: Left-Over with at most N CTAs of a kernel per SM (the knob of the
// Warped-Slicer Fig. 3a sweeps and of profiling with 1..N CTAs). Checked on the CTA records the
// model keeps: no SM ever holds more than N CTAs at once, and N is reached.
#include <catch2/catch.hpp>

#include <algorithm>
#include <map>

#include "config/gpu_config.hpp"
#include "gpu/gpu.hpp"
#include "sched/scheduler_port.hpp"
#include "workload/kernel_desc.hpp"

using namespace gs;

namespace {

/// Most CTAs resident at once on any SM, from the start/end cycles of every CTA.
uint32_t peak_resident_per_sm(const RunResult& r) {
  std::map<uint16_t, std::vector<std::pair<uint64_t, int>>> edges;
  for (const auto& c : r.ctas) {
    edges[c.sm].push_back({c.start_cycle, +1});
    edges[c.sm].push_back({c.end_cycle, -1});  // ends sort before starts of the same cycle
  }
  int peak = 0;
  for (auto& [sm, ev] : edges) {
    std::sort(ev.begin(), ev.end());
    int live = 0;
    for (const auto& e : ev) peak = std::max(peak, live += e.second);
  }
  return static_cast<uint32_t>(peak);
}

}  // namespace

TEST_CASE("cta_limit caps resident CTAs of a kernel per SM", "[sched][cta_limit]") {
  const GpuConfig cfg = load_gpu_config("warped-slicer");
  const auto lib = load_kernel_library();
  for (uint32_t limit : {1u, 2u, 5u}) {
    Mix mix;
    mix.name = "cta-limit";
    MixEntry e;
    e.kernel = "IMG";
    e.desc = find_kernel(lib, "IMG");  // 8 CTAs per SM when unlimited
    e.desc.insts_per_warp = 200;
    e.grid_ctas = cfg.num_sms() * limit * 2;
    mix.kernels.push_back(e);
    RunOptions ro;
    ro.sched.policy = "left-over";
    ro.sched.cta_limit = limit;
    auto sched = make_scheduler("golden", ro.sched);
    Gpu gpu(cfg, mix, *sched, ro);
    const RunResult r = gpu.run();
    INFO("limit " << limit);
    CHECK(r.ctas.size() == e.grid_ctas);
    CHECK(peak_resident_per_sm(r) == limit);
  }
}
