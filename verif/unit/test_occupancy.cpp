// gsched unit tests: per-CTA resource rounding, occupancy limiters, the shared-memory
// carve-out, kernels that cannot fit, and the reproduction of Tanasic ISCA'14 Table 1
// (TBs/SM, Resour./SM and Save Time columns) on a hand-built K20c-like config.
#include <catch2/catch.hpp>

#include "common/error.hpp"
#include "gpu/occupancy.hpp"

using namespace gs;

namespace {

GpuConfig one_type(const SmTypeConfig& t, uint32_t sms = 16) {
  GpuConfig cfg;
  cfg.name = "test";
  SmTypeConfig tt = t;
  tt.count = sms;
  cfg.sm_types = {tt};
  cfg.sm_type_of.assign(sms, 0);
  return cfg;
}

// Fermi-like: 1536 threads, 48 warps, 32768 registers (64 per warp unit), 48 KB, 8 CTAs.
SmTypeConfig fermi() {
  SmTypeConfig t;
  t.max_threads = 1536;
  t.max_warps = 48;
  t.max_ctas = 8;
  t.registers = 32768;
  t.reg_alloc_unit = 64;
  t.shared_mem_bytes = 48 * 1024;
  t.shmem_alloc_unit = 128;
  return t;
}

KernelDesc kernel(const char* name, uint32_t threads, uint32_t regs, uint32_t shmem) {
  KernelDesc k;
  k.name = name;
  k.threads_per_cta = threads;
  k.regs_per_thread = regs;
  k.shmem_per_cta = shmem;
  return k;
}

}  // namespace

TEST_CASE("cta resources round warps registers and shared memory", "[occupancy]") {
  const GpuConfig cfg = one_type(fermi());
  const CtaResources r = cta_resources(kernel("k", 100, 21, 1000), cfg);
  CHECK(r.threads == 100);
  CHECK(r.warps == 4);       // ceil(100 / 32)
  CHECK(r.regs == 4 * 704);  // 21 * 32 = 672 -> 704 (unit 64), per warp
  CHECK(r.shmem == 1024);    // 1000 -> 1024 (unit 128)
  const CtaResources e = cta_resources(kernel("k", 64, 16, 0), cfg);
  CHECK(e.regs == 2 * 512);
  CHECK(e.shmem == 0);
  // Per-CTA scope: threads x registers, rounded once per CTA.
  SmTypeConfig c = fermi();
  c.reg_alloc_scope = RegAllocScope::kCta;
  c.reg_alloc_unit = 256;
  const CtaResources p = cta_resources(kernel("k", 100, 21, 1000), one_type(c));
  CHECK(p.regs == 2304);  // 2100 -> 2304
  CHECK(p.warps == 4);
}

TEST_CASE("occupancy reports each limiting resource", "[occupancy]") {
  SmTypeConfig t = fermi();
  const GpuConfig cfg = one_type(t);
  SECTION("threads") {
    const Occupancy o = occupancy(kernel("k", 512, 8, 0), cfg, t);
    CHECK(o.max_ctas == 3);
    CHECK(o.limiter == "threads");
  }
  SECTION("warps") {
    SmTypeConfig w = t;
    w.max_warps = 32;  // fewer warp slots than max_threads / 32
    const Occupancy o = occupancy(kernel("k", 256, 8, 0), one_type(w), w);
    CHECK(o.max_ctas == 4);
    CHECK(o.limiter == "warps");
  }
  SECTION("registers including rounding") {
    // 21 regs/thread: 672 per warp rounds to 704; 4 warps = 2816 per CTA; 32768 / 2816 = 11.6,
    // but without rounding 32768 / 2688 = 12.19. With 8 CTA slots, use 8-warp CTAs instead:
    // 8 * 704 = 5632 -> 5 CTAs (unrounded 5376 -> 6).
    const Occupancy o = occupancy(kernel("k", 256, 21, 0), cfg, t);
    CHECK(o.max_ctas == 5);
    CHECK(o.limiter == "registers");
    CHECK(o.per_cta.regs == 5632);
  }
  SECTION("shared memory including rounding") {
    // 12200 B rounds to 12288: exactly 4 CTAs in 48 KB (12200 alone would also give 4);
    // 12300 rounds to 12416: 3 CTAs.
    CHECK(occupancy(kernel("k", 64, 8, 12200), cfg, t).max_ctas == 4);
    const Occupancy o = occupancy(kernel("k", 64, 8, 12300), cfg, t);
    CHECK(o.max_ctas == 3);
    CHECK(o.limiter == "shared memory");
  }
  SECTION("CTA slots") {
    const Occupancy o = occupancy(kernel("k", 64, 8, 0), cfg, t);
    CHECK(o.max_ctas == 8);
    CHECK(o.limiter == "CTA slots");
  }
}

TEST_CASE("a kernel that cannot fit one CTA is an input error naming it", "[occupancy]") {
  const SmTypeConfig t = fermi();
  const GpuConfig cfg = one_type(t);
  auto message = [&](const KernelDesc& k) -> std::string {
    try {
      occupancy(k, cfg, t);
    } catch (const InputError& e) {
      return e.what();
    }
    return "";
  };
  const std::string regs = message(kernel("fat", 1024, 63, 0));  // 32 warps * 2048 = 65536 regs
  CHECK(regs.find("'fat'") != std::string::npos);
  CHECK(regs.find("registers need 65536, capacity 32768") != std::string::npos);
  const std::string shm = message(kernel("shm", 64, 8, 50000));
  CHECK(shm.find("shared memory need 50048, capacity 49152") != std::string::npos);
  const std::string thr = message(kernel("wide", 2048, 8, 0));
  CHECK(thr.find("threads need 2048, capacity 1536") != std::string::npos);
}

TEST_CASE("shared memory carve-out picks the default or the first bigger option", "[occupancy]") {
  SmTypeConfig t;
  t.shared_mem_bytes = 48 * 1024;
  t.shared_mem_options = {16 * 1024, 32 * 1024, 48 * 1024};
  CHECK(shared_mem_carveout(t, 0) == 16 * 1024);
  CHECK(shared_mem_carveout(t, 16 * 1024) == 16 * 1024);
  CHECK(shared_mem_carveout(t, 16 * 1024 + 1) == 32 * 1024);
  CHECK(shared_mem_carveout(t, 40000) == 48 * 1024);
  CHECK(max_shared_mem(t) == 48 * 1024);
  t.shared_mem_options.clear();
  CHECK(shared_mem_carveout(t, 100) == 48 * 1024);
}

// ---------------------------------------------------------------------------------------------
// Tanasic et al., ISCA'14, Table 1 on the Table 2 GPU (K20c: 13 SMs, 65536 registers, 16 TBs,
// 2048 threads, 16 KB default / 32 / 48 KB shared memory, 208 GB/s, 706 MHz).
//
// What the table's numbers imply (docs/sm.md, "Tanasic Table 1"):
//   * "# Regs/TB" is threads x registers per thread, with no allocation granularity:
//     reg_alloc_scope = cta, reg_alloc_unit = 1, shmem_alloc_unit = 1 B;
//   * Resour./SM = TBs x (4 B x regs + shmem) / (65536 x 4 B + 48 KB);
//   * Save Time = TBs x (4 B x regs + shmem) / (208 GB/s / 13 SMs).
// The per-thread split of "# Regs/TB" is not in the table; the splits below use the Parboil
// launch configurations where known (lbm 120 threads, histo.intermediates 498, sad.mbsadcalc 61)
// and otherwise thread counts consistent with the TBs/SM column.
namespace {

GpuConfig k20c(RegAllocScope scope = RegAllocScope::kCta) {
  SmTypeConfig t;
  t.name = "k20c";
  t.max_threads = 2048;
  t.max_warps = 64;
  t.max_ctas = 16;
  t.registers = 65536;
  t.reg_alloc_scope = scope;
  t.reg_alloc_unit = 1;
  t.shared_mem_bytes = 48 * 1024;
  t.shared_mem_options = {16 * 1024, 32 * 1024, 48 * 1024};
  t.shmem_alloc_unit = 1;
  GpuConfig cfg = one_type(t, 13);
  cfg.core_clock_mhz = 706;
  // 208 GB/s: 320-bit GDDR5 = 5 channels x 8 B x 4 transfers x 1300 MHz.
  cfg.dram_channels = 5;
  cfg.dram_bus_bytes = 8;
  cfg.dram_transfers_per_clock = 4;
  cfg.dram_clock_mhz = 1300;
  return cfg;
}

struct Table1Row {
  const char* kernel;
  uint32_t threads, regs_per_thread, shmem;
  uint32_t regs_per_tb;       // "# Regs /TB" column (checks our split)
  uint32_t tbs_per_sm;        // "TBs /SM"
  double resources_pct;       // "Resour. /SM (%)"
  double save_time_us;        // "Save Time (us)"
  double pct_margin = 0.005;  // the table's two-decimal rounding
};

const Table1Row kTable1[] = {
    {"lbm.StreamCollide", 120, 36, 0, 4320, 15, 83.26, 16.20},
    {"histo.final", 512, 38, 0, 19456, 3, 75.00, 14.59},
    {"histo.prescan", 512, 18, 4096, 9216, 4, 52.63, 10.24},
    {"histo.intermediates", 498, 18, 0, 8964, 4, 46.07, 8.96},
    {"histo.main", 768, 22, 24576, 16896, 1, 29.61, 5.76},
    {"tpacf.genhists", 256, 30, 13312, 7680, 1, 14.14, 2.75},
    {"spmv.spmvjds", 32, 29, 0, 928, 16, 19.08, 3.71},
    {"mri-q.ComputeQ", 256, 21, 0, 5376, 8, 55.26, 10.75},
    {"mri-q.ComputePhiMag", 512, 12, 0, 6144, 4, 31.58, 6.14},
    {"sad.largersadcalc8", 32, 104, 0, 3328, 16, 68.42, 13.31},
    {"sad.largersadcalc16", 32, 26, 0, 832, 16, 17.11, 3.33},
    {"sad.mbsadcalc", 61, 35, 2224, 2135, 7, 24.20, 4.71},
    {"sgemm.mysgemmNT", 128, 35, 512, 4480, 14, 82.89, 16.13},
    {"stencil.block2Dregtiling", 1024, 41, 0, 41984, 1, 53.95, 10.50},
    {"cutcp.lattice6overlap", 128, 26, 4116, 3328, 3, 16.80, 3.27},
    {"mri-gridding.binning", 512, 8, 0, 4096, 4, 21.05, 4.10},
    // The table prints 27.54 % where its own columns give 27.534 % (its Save Time, 5.36 us, agrees).
    {"mri-gridding.scaninter1", 51, 23, 665, 1173, 16, 27.54, 5.36, 0.011},
    {"mri-gridding.scanL1", 512, 18, 4368, 9216, 3, 39.74, 7.73},
    {"mri-gridding.uniformAdd", 512, 8, 16, 4096, 4, 21.07, 4.10},
    {"mri-gridding.reorder", 512, 16, 0, 8192, 4, 42.11, 8.19},
    {"mri-gridding.splitSort", 512, 20, 4484, 10240, 3, 43.79, 8.52},
    {"mri-gridding.griddingGPU", 96, 38, 1536, 3648, 10, 51.81, 10.08},
    {"mri-gridding.splitRearrange", 256, 23, 4160, 5888, 3, 26.71, 5.20},
    {"mri-gridding.scaninter2", 51, 23, 665, 1173, 16, 27.54, 5.36, 0.011},
};

}  // namespace

TEST_CASE("occupancy reproduces Tanasic Table 1 TBs per SM resources and save time", "[occupancy][tanasic]") {
  const GpuConfig cfg = k20c();
  REQUIRE(cfg.dram_peak_bytes_per_sec() == Approx(208e9));
  for (const Table1Row& row : kTable1) {
    INFO(row.kernel);
    const KernelDesc k = kernel(row.kernel, row.threads, row.regs_per_thread, row.shmem);
    const Occupancy o = occupancy(k, cfg, cfg.sm_types[0]);
    CHECK(o.per_cta.regs == row.regs_per_tb);
    CHECK(o.max_ctas == row.tbs_per_sm);
    CHECK(o.storage_share * 100.0 == Approx(row.resources_pct).margin(row.pct_margin));
    CHECK(o.save_time_us == Approx(row.save_time_us).margin(0.005));
  }
  // histo.main needs 24 KB per CTA: the SM switches from the 16 KB default to 32 KB.
  const Occupancy main = occupancy(kernel("histo.main", 768, 22, 24576), cfg, cfg.sm_types[0]);
  CHECK(main.shared_mem_config == 32 * 1024);
  CHECK(main.limiter == "shared memory");
  CHECK(main.sm_storage_bytes == 65536u * 4u + 48u * 1024u);
  const Occupancy lbm = occupancy(kernel("lbm", 120, 36, 0), cfg, cfg.sm_types[0]);
  CHECK(lbm.limiter == "registers");
}

TEST_CASE("occupancy with per-warp register allocation differs from Tanasic Table 1 for partial warps",
          "[occupancy][tanasic]") {
  // lbm.StreamCollide launches 120 threads x 36 registers: the table counts 4320 registers/TB
  // (15 TBs/SM); a warp-granular register file allocates 4 full warps (4608 registers) and
  // fits 14. Thread counts that are warp multiples give the same result in both scopes.
  const GpuConfig cfg = k20c(RegAllocScope::kWarp);
  const Occupancy o = occupancy(kernel("lbm.StreamCollide", 120, 36, 0), cfg, cfg.sm_types[0]);
  CHECK(o.per_cta.regs == 4608);
  CHECK(o.max_ctas == 14);
  CHECK(o.limiter == "registers");
  const Occupancy q = occupancy(kernel("mri-q.ComputeQ", 256, 21, 0), cfg, cfg.sm_types[0]);
  CHECK(q.per_cta.regs == 5376);
  CHECK(q.max_ctas == 8);
}
