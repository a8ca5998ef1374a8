// gsched block bench: rtl/mem/gs_ram_1rw.sv (Depth 40, Width 37) against its golden twin
// gs::golden::Ram, every cycle, on random reads and writes of the one port (a write right after
// a read, so a write that wrongly loads rdata_o shows). Each GS_MUT_RAM_1RW_* mutant runs the
// same stimulus and must differ (docs/rtl/mutations.md).
#include <catch2/catch.hpp>

#include "Vbench_gs_ram_1rw.h"
#include "gs_ram_1rw_mutants.hpp"  // generated: GS_BENCH_MUTANTS(X), one model per GS_MUT_RAM_1RW_*
#include "mem/ram_bench.hpp"

namespace {
using namespace gs::bench;

template <class V>
RamRun random_run(uint32_t seed, int cycles) {
  Bench<V> rtl(seed);
  gs::golden::Ram gold(kRamDepth, kRamWidth);
  gs::Rng r(seed);
  RamRun run;
  const uint64_t mask = (uint64_t{1} << kRamWidth) - 1;
  std::string ports = "none";
  bool read = false;
  for (int i = 0; i < cycles; ++i) {
    auto& d = rtl.dut();
    const bool en = r.chance_permille(800);
    const bool we = r.chance_permille(450);
    const uint32_t addr = r.below(kRamDepth);
    const uint64_t wdata = r.next() & mask;
    d.en_i = en;
    d.we_i = we;
    d.addr_i = addr;
    d.wdata_i = wdata;
    rtl.settle();
    if (!ram_compare(run, rtl.cycle(), d.rdata_o, gold, false, !read, ports)) return run;
    rtl.tick();
    gold.clock_1rw(en, we, addr, wdata);
    read = en && !we;
    ports = "en " + std::to_string(en) + " we " + std::to_string(we) + " addr " + std::to_string(addr) + " wdata " +
            std::to_string(wdata);
    if (!ram_assertions_ok(run, rtl.errors(), rtl.cycle())) return run;
  }
  return run;
}

}  // namespace

TEST_CASE("gs_ram_1rw directed: registered read, a write holds rdata_o", "[rtl][bench]") {
  Bench<Vbench_gs_ram_1rw> b(5);
  auto& d = b.dut();
  auto edge = [&](bool en, bool we, uint32_t a, uint64_t wd) {
    d.en_i = en;
    d.we_i = we;
    d.addr_i = a;
    d.wdata_i = wd;
    b.tick();
    b.settle();
  };
  edge(true, true, 39, 0x1234);
  edge(true, false, 39, 0);
  REQUIRE(d.rdata_o == 0x1234);
  edge(true, true, 39, 0x5678);  // a write: rdata_o holds the word read before
  REQUIRE(d.rdata_o == 0x1234);
  edge(false, false, 39, 0);
  REQUIRE(d.rdata_o == 0x1234);
  edge(true, false, 39, 0);
  REQUIRE(d.rdata_o == 0x5678);
  REQUIRE(b.errors() == 0);
}

TEST_CASE("gs_ram_1rw random reads and writes", "[rtl][bench]") {
  const RamRun run = random_run<Vbench_gs_ram_1rw>(13, 20000);
  CHECK(run.diff == "");
  CHECK(run.compared > 15000);
  CHECK(run.held > 8000);
}

#define GS_RAM_1RW_MUTANT_TEST(define, model)                                      \
  TEST_CASE("gs_ram_1rw mutant " #define " is caught", "[rtl][bench][mutation]") { \
    const std::string diff = random_run<model>(13, 20000).diff;                    \
    INFO(diff);                                                                    \
    CHECK(diff != "");                                                             \
    WARN(#define " caught: " << diff);                                             \
  }
GS_BENCH_MUTANTS(GS_RAM_1RW_MUTANT_TEST)
