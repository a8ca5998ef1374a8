// The h100 preset (docs/presets.md "h100"): the H100 figures it is built from, the unified
// L1 / shared-memory carve-out (l1_carveout "dynamic", docs/config_schema.md), the trace
// kernels' occupancy (../shared/traces/h100 summary.json) and a short deterministic run.
#include <catch2/catch.hpp>

#include <vector>

#include "common/error.hpp"
#include "config/gpu_config.hpp"
#include "gpu/counters.hpp"
#include "gpu/gpu.hpp"
#include "gpu/mem/memory_system.hpp"
#include "gpu/occupancy.hpp"
#include "sched/scheduler_port.hpp"
#include "test_sm_fake_memory.hpp"
#include "workload/inst_stream.hpp"
#include "workload/kernel_desc.hpp"

using namespace gs;

namespace {

constexpr uint32_t KiB = 1024;

/// FakeMemory that records every L1 capacity the SM asks for.
class CarveoutMemory : public gs_test::FakeMemory {
 public:
  using FakeMemory::FakeMemory;
  void set_l1_capacity(uint32_t, uint32_t bytes) override { l1_bytes.push_back(bytes); }
  std::vector<uint32_t> l1_bytes;
};

}  // namespace

TEST_CASE("h100 preset carries the H100 figures", "[h100][config]") {
  const GpuConfig cfg = load_gpu_config("h100");
  const SmTypeConfig& t = cfg.sm(0);
  CHECK(cfg.num_sms() == 132);
  CHECK(cfg.core_clock_mhz == 1980);
  CHECK(t.max_threads == 2048);
  CHECK(t.max_warps == 64);
  CHECK(t.max_ctas == 32);
  CHECK(t.registers == 65536);
  CHECK(t.shared_mem_bytes == 228 * KiB);
  CHECK(t.l1_size_bytes == 256 * KiB);
  CHECK(t.l1_carveout == L1Carveout::kDynamic);
  CHECK(uint64_t(cfg.l2_slice_bytes) * cfg.dram_channels == 50ull << 20);
  // 2619 MHz x 5120 bit x 2 (DDR) = 3.352 TB/s.
  CHECK(cfg.dram_peak_bytes_per_sec() == Approx(2619e6 * 5120 / 8 * 2));
  // The default RTL build holds all 132 SMs, so the preset runs in lockstep (MaxSms, gs_spec.toml).
  CHECK(cfg.num_sms() <= gs::spec::MaxSms);
}

TEST_CASE("h100 trace kernels reach the occupancy the CUDA occupancy API reported", "[h100][workload]") {
  const GpuConfig cfg = load_gpu_config("h100");
  const auto lib = load_kernel_library();
  // summary.json "occupancy_blocks_per_sm".
  const std::pair<const char*, uint32_t> want[] = {
      {"h100.compute", 3}, {"h100.sfu", 8}, {"h100.stream", 4}, {"h100.cache", 8}, {"h100.uneven", 5}};
  for (const auto& [name, ctas] : want) {
    INFO(name);
    CHECK(occupancy(find_kernel(lib, name), cfg, cfg.sm(0)).max_ctas == ctas);
  }
  // The uneven kernel's CTA c runs (c mod 7 + 1) units of work.
  const KernelDesc& u = find_kernel(lib, "h100.uneven");
  InstStream st(u, 1, 0, cfg.line_bytes, cfg.warp_size);
  for (uint32_t c = 0; c < 15; ++c) CHECK(st.length(c) == u.insts_per_warp * (c % 7 + 1));
}

TEST_CASE("unified L1: the carve-out follows the resident CTAs' shared memory", "[h100][carveout]") {
  const GpuConfig cfg = load_gpu_config("h100");
  const SmTypeConfig& t = cfg.sm(0);
  CHECK(unified_l1_carveout(t, 0) == 0);
  CHECK(unified_l1_carveout(t, 1) == 8 * KiB);
  CHECK(unified_l1_carveout(t, 40 * KiB) == 64 * KiB);
  CHECK(unified_l1_carveout(t, 200 * KiB) == 228 * KiB);
  CHECK(unified_l1_bytes(t, 120 * KiB) == 124 * KiB);

  // An SM with 40 KiB CTAs: the L1 shrinks as CTAs arrive and grows back as they finish; the
  // scheduler's view (fits) is the 228 KiB capacity throughout.
  CarveoutMemory mem(1, 5);
  CounterBank counters(1, 1);
  Sm sm(0, cfg, mem, counters, 1);
  REQUIRE(mem.l1_bytes == std::vector<uint32_t>{256 * KiB});  // empty SM: no carve-out
  KernelDesc k = find_kernel(load_kernel_library(), "h100.uneven");
  k.insts_per_warp = 20;
  k.cta_work_cycle = 0;
  const CtaResources r = cta_resources(k, cfg);
  for (uint32_t c = 0; c < 5; ++c) {
    REQUIRE(sm.fits(r));
    sm.start_cta(0, k, r, c, 0, nullptr);
  }
  CHECK_FALSE(sm.fits(r));  // 6 x 40 KiB > 228 KiB
  // 40, 80, 120, 160, 200 KiB -> carve-outs 64, 100, 132, 164, 228 KiB.
  CHECK(mem.l1_bytes == std::vector<uint32_t>{256 * KiB, 192 * KiB, 156 * KiB, 124 * KiB, 92 * KiB, 28 * KiB});
  std::vector<SmEvent> ev;
  std::vector<SavedCta> saved;
  std::vector<CtaRecord> rec;
  for (uint64_t cyc = 0; cyc < 100000 && !sm.empty(); ++cyc) {
    mem.tick(cyc);
    sm.tick(cyc);
    sm.take_events(ev, saved, rec);
  }
  REQUIRE(sm.empty());
  CHECK(mem.l1_bytes.back() == 256 * KiB);  // all shared memory given back to the L1

  // The memory system's L1 keeps whole 4 KiB ways of what the carve-out leaves.
  const GpuConfig two = load_gpu_config("h100", {"sm_types[0].count=2"});
  CounterBank c2(2, 1);
  MemorySystem ms(two, c2);
  CHECK(ms.l1(0).cache().active_ways() == 64);
  ms.set_l1_capacity(0, 28 * KiB);
  CHECK(ms.l1(0).cache().active_ways() == 7);
  CHECK(ms.l1(1).cache().active_ways() == 64);
}

TEST_CASE("unified L1 needs a consistent carve-out menu", "[h100][config][errors]") {
  auto err = [](std::vector<std::string> sets) {
    try {
      load_gpu_config("h100", sets);
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  CHECK(err({"sm_types[0].shared_mem_bytes=200704"}).find("largest carve-out") != std::string::npos);
  CHECK(err({"sm_types[0].l1_size_bytes=131072"}).find("exceeds the unified array") != std::string::npos);
  CHECK(err({"sm_types[0].l1_carveout=sometimes"}).find("l1_carveout") != std::string::npos);
}

TEST_CASE("a short h100 run completes and repeats bit for bit", "[h100][determinism]") {
  const GpuConfig cfg = load_gpu_config("h100");
  const auto lib = load_kernel_library();
  auto run = [&] {
    Mix mix;
    mix.name = "h100-short";
    for (const char* n : {"h100.uneven", "h100.cache"}) {
      MixEntry e;
      e.kernel = n;
      e.desc = find_kernel(lib, n);
      e.desc.insts_per_warp = 60;
      e.grid_ctas = 200;
      e.context = uint32_t(mix.kernels.size());
      mix.kernels.push_back(e);
    }
    RunOptions ro;
    auto sched = make_scheduler("golden", ro.sched);
    Gpu gpu(cfg, mix, *sched, ro);
    return gpu.run();
  };
  const RunResult a = run(), b = run();
  REQUIRE(a.ctas.size() == 400);
  CHECK(a.cycles == b.cycles);
  REQUIRE(a.ctas.size() == b.ctas.size());
  for (size_t i = 0; i < a.ctas.size(); ++i) {
    CHECK(a.ctas[i].sm == b.ctas[i].sm);
    CHECK(a.ctas[i].start_cycle == b.ctas[i].start_cycle);
    CHECK(a.ctas[i].end_cycle == b.ctas[i].end_cycle);
  }
}
