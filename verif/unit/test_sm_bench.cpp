// gsched benchmark (not in the default run: [.][bench]): simulated SM-cycles per second of
// the SM model alone, on a fixed-latency fake memory, with the SMs kept full of CTAs.
// Target: >= 1.6 M SM-cycles/s, i.e. 16 SMs at 100k GPU cycles/s on one core.
// Run: gs_unit_tests "[bench]"
#include <catch2/catch.hpp>

#include <chrono>
#include <cstdio>
#include <ctime>

#include "test_sm_fake_memory.hpp"

using namespace gs;
using gs_test::make_config;
using gs_test::SmHarness;

namespace {

double sm_cycles_per_second(const KernelDesc& k, const char* label) {
  SmTypeConfig t;  // Warped-Slicer-like: 48 warps, 8 CTAs, 2 GTO schedulers
  t.warp_schedulers = 2;
  const uint32_t sms = 16;
  SmHarness h(make_config(t, sms), 300, /*mshrs=*/64);
  const CtaResources r = cta_resources(k, h.cfg);
  CtaId next = 0;
  auto fill = [&] {
    for (uint32_t s = 0; s < sms; ++s)
      while (h.sm(s).fits(r)) h.sm(s).start_cta(0, k, r, next++, h.cycle, nullptr);
  };
  fill();
  const uint64_t cycles = 60000;
  // CPU time as well as wall time: on a loaded machine the CPU-time rate is the stable figure.
  const auto t0 = std::chrono::steady_clock::now();
  const std::clock_t c0 = std::clock();
  for (uint64_t c = 0; c < cycles; ++c) {
    h.step();
    if (!h.events.empty()) {
      h.events.clear();
      h.records.clear();
      fill();
    }
  }
  const double cpu = double(std::clock() - c0) / CLOCKS_PER_SEC;
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  const double rate = double(cycles) * sms / cpu;
  std::printf("sm bench %-8s: %.2f M SM-cycles per CPU second (%.2f M per wall second; %u SMs, "
              "%llu cycles, IPC/SM %.2f, %u CTAs)\n",
              label, rate / 1e6, double(cycles) * sms / secs / 1e6, sms, static_cast<unsigned long long>(cycles),
              double(h.insts(0)) / double(cycles) / sms, next);
  return rate;
}

}  // namespace

TEST_CASE("sm bench compute and memory kernels", "[.][bench]") {
  KernelDesc compute;
  compute.name = "compute";
  compute.threads_per_cta = 256;
  compute.regs_per_thread = 16;
  compute.grid_ctas = 1 << 20;
  compute.insts_per_warp = 4000;
  compute.sfu_permille = 50;
  compute.ldst_permille = 20;
  compute.shmem_permille = 80;
  compute.dep_distance = 4;
  compute.cta_spread_pct = 10;
  KernelDesc memory = compute;
  memory.name = "memory";
  memory.ldst_permille = 300;
  memory.store_permille = 200;
  memory.lines_per_access = 4;
  memory.dep_distance = 2;
  memory.pattern = MemPattern::kStreaming;
  const double c = sm_cycles_per_second(compute, "compute");
  const double m = sm_cycles_per_second(memory, "memory");
  CHECK(c > 0);
  CHECK(m > 0);
}
