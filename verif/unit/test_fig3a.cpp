// Warped-Slicer Fig. 3a: the four scalability behaviours of the kernel library
// (issue 2 item 6). Each kernel runs alone on the warped-slicer preset with its CTAs per SM
// capped at 1..max (golden Left-Over with SchedOptions::cta_limit); IPC is all warp
// instructions over the cycles until the kernel finished. The grid is sized so each SM runs
// several waves of CTAs at every cap, so the IPC is a steady-state figure.
#include <catch2/catch.hpp>

#include <algorithm>
#include <sstream>

#include "config/gpu_config.hpp"
#include "gpu/gpu.hpp"
#include "gpu/occupancy.hpp"
#include "sched/scheduler_port.hpp"
#include "workload/kernel_desc.hpp"

using namespace gs;

namespace {

constexpr uint32_t kWaves = 3;   // CTAs per SM slot over the run

std::vector<double> ipc_curve(const std::string& kernel_name) {
  const GpuConfig cfg = load_gpu_config("warped-slicer");
  const auto lib = load_kernel_library();
  const KernelDesc& k = find_kernel(lib, kernel_name);
  const uint32_t max_ctas = occupancy(k, cfg, cfg.sm_types[0]).max_ctas;
  std::vector<double> ipc;
  for (uint32_t n = 1; n <= max_ctas; ++n) {
    Mix mix;
    mix.name = "fig3a";
    MixEntry e;
    e.kernel = kernel_name;
    e.desc = k;
    e.grid_ctas = cfg.num_sms() * n * kWaves;
    mix.kernels.push_back(e);
    RunOptions ro;
    ro.sched.policy = "left-over";
    ro.sched.cta_limit = n;
    auto sched = make_scheduler("golden", ro.sched);
    Gpu gpu(cfg, mix, *sched, ro);
    const RunResult r = gpu.run();
    ipc.push_back(double(r.kernels[0].instructions) / double(r.kernels[0].cycles()));
  }
  std::ostringstream os;
  os << kernel_name << " IPC at 1.." << max_ctas << " CTAs/SM:";
  for (double v : ipc) os << " " << v;
  WARN(os.str());
  return ipc;
}

size_t argmax(const std::vector<double>& v) { return size_t(std::max_element(v.begin(), v.end()) - v.begin()); }

}  // namespace

TEST_CASE("Fig3a compute non-saturating kernel HOT keeps scaling with CTAs", "[fig3a]") {
  const auto ipc = ipc_curve("HOT");
  REQUIRE(ipc.size() >= 3);
  // Rises all the way: the best point is the last (or within 3% of it) and it is far above 1 CTA.
  CHECK(ipc.back() >= 0.97 * ipc[argmax(ipc)]);
  CHECK(ipc.back() >= 1.25 * ipc[ipc.size() / 2 - (ipc.size() % 2 == 0 ? 1 : 0)]);
  CHECK(ipc.back() >= 2.0 * ipc.front());
}

TEST_CASE("Fig3a compute saturating kernel IMG rises then flattens", "[fig3a]") {
  const auto ipc = ipc_curve("IMG");
  REQUIRE(ipc.size() >= 4);
  const double peak = ipc[argmax(ipc)];
  CHECK(ipc.front() <= 0.6 * peak);              // strong rise at first
  const size_t half = ipc.size() / 2;
  for (size_t i = half; i < ipc.size(); ++i) CHECK(ipc[i] >= 0.93 * peak);   // flat second half
}

TEST_CASE("Fig3a memory intensive kernel BLK saturates early at low IPC", "[fig3a]") {
  const auto ipc = ipc_curve("BLK");
  const auto hot = ipc_curve("HOT");
  REQUIRE(ipc.size() >= 3);
  const double peak = ipc[argmax(ipc)];
  CHECK(ipc[1] >= 0.8 * peak);                   // bandwidth-bound from 2 CTAs on
  CHECK(peak <= 0.5 * hot[argmax(hot)]);         // low IPC compared with a compute kernel
}

TEST_CASE("Fig3a L1 cache sensitive kernel NN peaks before the maximum CTA count", "[fig3a]") {
  const auto ipc = ipc_curve("NN");
  REQUIRE(ipc.size() >= 3);
  const size_t best = argmax(ipc);
  CHECK(best + 1 < ipc.size());                  // the peak is not at max CTAs
  CHECK(ipc.back() <= 0.9 * ipc[best]);          // and IPC drops after it
}
