// gsched block bench: rtl/mem/gs_ram_1r1w.sv (Depth 40, Width 37) against its golden twin
// gs::golden::Ram, every cycle, on random reads and writes (a quarter of the reads at the
// address written at the same edge). Each GS_MUT_RAM_* mutant runs the same stimulus and must
// differ (docs/rtl/mutations.md).
#include <catch2/catch.hpp>

#include "Vbench_gs_ram_1r1w.h"
#include "gs_ram_1r1w_mutants.hpp"  // generated: GS_BENCH_MUTANTS(X), one model per GS_MUT_RAM_*
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
  bool rdw = false, read = false;
  for (int i = 0; i < cycles; ++i) {
    auto& d = rtl.dut();
    const bool we = r.chance_permille(500);
    const uint32_t waddr = r.below(kRamDepth);
    const uint64_t wdata = r.next() & mask;
    const bool re = r.chance_permille(700);
    const uint32_t raddr = r.chance_permille(250) ? waddr : r.below(kRamDepth);
    d.we_i = we;
    d.waddr_i = waddr;
    d.wdata_i = wdata;
    d.re_i = re;
    d.raddr_i = raddr;
    rtl.settle();
    if (!ram_compare(run, rtl.cycle(), d.rdata_o, gold, rdw, !read, ports)) return run;
    rtl.tick();
    gold.clock_1r1w(we, waddr, wdata, re, raddr);
    rdw = re && we && raddr == waddr;
    read = re;
    ports = "we " + std::to_string(we) + " waddr " + std::to_string(waddr) + " wdata " + std::to_string(wdata) +
            " re " + std::to_string(re) + " raddr " + std::to_string(raddr);
    if (!ram_assertions_ok(run, rtl.errors(), rtl.cycle())) return run;
  }
  return run;
}

}  // namespace

TEST_CASE("gs_ram_1r1w directed: registered read, old data on a read during a write, hold without re", "[rtl][bench]") {
  Bench<Vbench_gs_ram_1r1w> b(3);
  auto& d = b.dut();
  auto edge = [&](bool we, uint32_t wa, uint64_t wd, bool re, uint32_t ra) {
    d.we_i = we;
    d.waddr_i = wa;
    d.wdata_i = wd;
    d.re_i = re;
    d.raddr_i = ra;
    b.tick();
    b.settle();
  };
  edge(true, 39, 0x1234, false, 0);  // the last word (Depth 40)
  edge(true, 5, 0xaaaa, true, 39);   // reads 39 ...
  REQUIRE(d.rdata_o == 0x1234);      // ... the edge after
  edge(true, 5, 0xbbbb, true, 5);    // read during a write of 5: the old word
  REQUIRE(d.rdata_o == 0xaaaa);
  edge(false, 0, 0, false, 39);  // no read: rdata_o holds
  REQUIRE(d.rdata_o == 0xaaaa);
  edge(false, 0, 0, true, 5);
  REQUIRE(d.rdata_o == 0xbbbb);
  REQUIRE(b.errors() == 0);
}

TEST_CASE("gs_ram_1r1w random reads and writes", "[rtl][bench]") {
  const RamRun run = random_run<Vbench_gs_ram_1r1w>(11, 20000);
  CHECK(run.diff == "");
  // the bench compared: most cycles, reads during a write of the same address, holds
  CHECK(run.compared > 15000);
  CHECK(run.read_during_write > 1000);
  CHECK(run.held > 3000);
}

// One test per mutant: the same stimulus must find a difference.
#define GS_RAM_MUTANT_TEST(define, model)                                           \
  TEST_CASE("gs_ram_1r1w mutant " #define " is caught", "[rtl][bench][mutation]") { \
    const std::string diff = random_run<model>(11, 20000).diff;                     \
    INFO(diff);                                                                     \
    CHECK(diff != "");                                                              \
    WARN(#define " caught: " << diff);                                              \
  }
GS_BENCH_MUTANTS(GS_RAM_MUTANT_TEST)
