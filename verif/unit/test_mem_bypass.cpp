// gsched: memory system unit tests -- per-kernel cache bypass, write-through L1 and
// write-back / write-allocate L2 with dirty evictions.
#include <catch2/catch.hpp>

#include "common/error.hpp"
#include "test_mem_common.hpp"

using namespace gs;
using gs::memtest::Harness;
using gs::memtest::kNever;
using gs::memtest::make_config;

TEST_CASE("kL1 bypass: loads never hit or fill L1 but use L2", "[mem][bypass]") {
  Harness h(make_config(2), 2);
  for (uint32_t s = 0; s < h.cfg.num_sms(); ++s) h.mem->set_bypass(s, 1, BypassLevel::kL1);
  const uint64_t line = 0x7000;
  uint64_t tag = 1;
  for (int i = 0; i < 4; ++i) {
    REQUIRE(h.load(0, line, tag++, 1));
    h.drain();
  }
  CHECK(h.ctr(0, 1).l1_accesses == 0);
  CHECK(h.ctr(0, 1).l1_misses == 0);
  CHECK(h.ctr(0, 1).l2_accesses == 4);
  CHECK(h.ctr(0, 1).l2_misses == 1);  // the line stays in L2
  CHECK(h.ctr(0, 1).dram_bytes == 128);
  // Every one went through the crossbar (no L1 hit), and L1 was not filled: kernel 0 (not
  // bypassed) misses L1 on the same line, then hits.
  CHECK(h.mem->xbar_up().stats().packets == 4);
  REQUIRE(h.load(0, line, tag++, 0));
  h.drain();
  REQUIRE(h.load(0, line, tag++, 0));
  h.drain();
  CHECK(h.ctr(0, 0).l1_accesses == 2);
  CHECK(h.ctr(0, 0).l1_misses == 1);
  // Bypassed loads still merge with each other in the MSHRs.
  const uint64_t packets = h.mem->xbar_up().stats().packets;
  for (int i = 0; i < 3; ++i) {
    REQUIRE(h.load(0, 0x9000, tag++, 1));
    h.step();
  }
  h.drain();
  CHECK(h.mem->xbar_up().stats().packets == packets + 1);
  for (uint64_t t = 1; t < tag; ++t) CHECK(h.done_at[t] != kNever);
}

TEST_CASE("kL1L2 bypass: accesses never touch L1 or L2 counters and go to DRAM", "[mem][bypass]") {
  Harness h(make_config(2), 2);
  for (uint32_t s = 0; s < h.cfg.num_sms(); ++s) h.mem->set_bypass(s, 1, BypassLevel::kL1L2);
  const uint64_t line = 0x7000;
  uint64_t tag = 1;
  for (int i = 0; i < 3; ++i) {
    REQUIRE(h.load(0, line, tag++, 1));
    h.drain();
  }
  REQUIRE(h.store(0, 0x8000, tag++, 1));
  h.drain();
  const auto& c = h.ctr(0, 1);
  CHECK(c.l1_accesses == 0);
  CHECK(c.l2_accesses == 0);
  CHECK(c.l2_misses == 0);
  CHECK(c.dram_bytes == 4 * 128);  // three reads and one write, all in DRAM
  CHECK(h.mem->dram_bytes_total() == 4 * 128);
  for (uint64_t t = 1; t < tag; ++t) CHECK(h.done_at[t] != kNever);
  // The line did not land in L2: a cached kernel misses L2 on it.
  REQUIRE(h.load(1, line, tag++, 0));
  h.drain();
  CHECK(h.ctr(1, 0).l2_misses == 1);
  // Turning the bypass off again restores normal caching for kernel 1.
  for (uint32_t s = 0; s < h.cfg.num_sms(); ++s) h.mem->set_bypass(s, 1, BypassLevel::kNone);
  REQUIRE(h.load(0, line, tag++, 1));
  h.drain();
  CHECK(h.ctr(0, 1).l1_accesses == 1);
  CHECK(h.ctr(0, 1).l2_accesses == 1);
  CHECK(h.ctr(0, 1).l2_misses == 0);  // kernel 0 brought it into L2
  CHECK(h.mem->all_queues_empty());
}

namespace {

/// Tag-array lookups so far: every SM's L1, and every L2 slice.
uint64_t l1_lookups(const Harness& h) {
  uint64_t n = 0;
  for (uint32_t s = 0; s < h.cfg.num_sms(); ++s) n += h.mem->l1(s).cache().lookups();
  return n;
}
uint64_t l2_lookups(const Harness& h) {
  uint64_t n = 0;
  for (uint32_t c = 0; c < h.mem->channels(); ++c) n += h.mem->l2(c).cache().lookups();
  return n;
}

/// What one kernel's three loads of one line and one store of another (each drained before
/// the next) leave in the counters and the tag arrays, under `level` on every SM.
struct LevelRun {
  KernelSmCounters c;
  uint64_t l1_lookups = 0, l2_lookups = 0, dram_bytes = 0;
  bool all_done = true;
};
LevelRun run_level(BypassLevel level) {
  Harness h(make_config(2), 2);
  for (uint32_t s = 0; s < h.cfg.num_sms(); ++s) h.mem->set_bypass(s, 1, level);
  uint64_t tag = 1;
  for (int i = 0; i < 3; ++i) {
    REQUIRE(h.load(0, 0x7000, tag++, 1));
    h.drain();
  }
  REQUIRE(h.store(0, 0x8000, tag++, 1));
  h.drain();
  LevelRun r;
  r.c = h.ctr(0, 1);
  r.l1_lookups = l1_lookups(h);
  r.l2_lookups = l2_lookups(h);
  r.dram_bytes = h.mem->dram_bytes_total();
  for (uint64_t t = 1; t < tag; ++t) r.all_done &= h.done_at[t] != kNever;
  CHECK(h.mem->all_queues_empty());
  return r;
}

}  // namespace

TEST_CASE("each bypass level: a bypassed level is never looked up and counts the bypass", "[mem][bypass]") {
  SECTION("kNone: L1 and L2 looked up, nothing bypassed") {
    const LevelRun r = run_level(BypassLevel::kNone);
    CHECK(r.all_done);
    CHECK(r.l1_lookups > 0);
    CHECK(r.l2_lookups > 0);
    CHECK(r.c.l1_accesses == 4);  // 3 loads + 1 store
    CHECK(r.c.l1_misses == 2);    // the first load, the store (no-write-allocate)
    CHECK(r.c.l2_accesses == 2);  // the load miss, the store
    CHECK(r.c.l2_misses == 2);
    CHECK(r.c.l1_bypassed == 0);
    CHECK(r.c.l2_bypassed == 0);
    CHECK(r.dram_bytes == 128);  // one fill; the dirty store line stays in L2
  }
  SECTION("kL1: L1 never looked up, every access counted as an L1 bypass, L2 as usual") {
    const LevelRun r = run_level(BypassLevel::kL1);
    CHECK(r.all_done);
    CHECK(r.l1_lookups == 0);
    CHECK(r.l2_lookups > 0);
    CHECK(r.c.l1_accesses == 0);
    CHECK(r.c.l1_misses == 0);
    CHECK(r.c.l1_bypassed == 4);
    CHECK(r.c.l2_accesses == 4);  // no L1 hit: every access reaches L2
    CHECK(r.c.l2_misses == 2);
    CHECK(r.c.l2_bypassed == 0);
    CHECK(r.dram_bytes == 128);
  }
  SECTION("kL2: L1 as usual, L2 never looked up, L1 misses and stores go to DRAM") {
    const LevelRun r = run_level(BypassLevel::kL2);
    CHECK(r.all_done);
    CHECK(r.l1_lookups > 0);
    CHECK(r.l2_lookups == 0);
    CHECK(r.c.l1_accesses == 4);
    CHECK(r.c.l1_misses == 2);  // L1 was filled by the bypassed load: loads 2 and 3 hit
    CHECK(r.c.l1_bypassed == 0);
    CHECK(r.c.l2_accesses == 0);
    CHECK(r.c.l2_misses == 0);
    CHECK(r.c.l2_bypassed == 2);     // the load miss and the store
    CHECK(r.dram_bytes == 2 * 128);  // one read, one write straight to DRAM
    CHECK(r.c.dram_bytes == 2 * 128);
  }
  SECTION("kL1L2: neither level looked up, both count every access as bypassed") {
    const LevelRun r = run_level(BypassLevel::kL1L2);
    CHECK(r.all_done);
    CHECK(r.l1_lookups == 0);
    CHECK(r.l2_lookups == 0);
    CHECK(r.c.l1_accesses == 0);
    CHECK(r.c.l2_accesses == 0);
    CHECK(r.c.l1_bypassed == 4);
    CHECK(r.c.l2_bypassed == 4);
    CHECK(r.dram_bytes == 4 * 128);  // three reads and one write
  }
}

TEST_CASE("kL2 bypass: L1 fills, L2 never allocates, stores complete before DRAM is written", "[mem][bypass]") {
  Harness h(make_config(2), 2);
  for (uint32_t s = 0; s < h.cfg.num_sms(); ++s) h.mem->set_bypass(s, 1, BypassLevel::kL2);
  uint64_t tag = 1;
  REQUIRE(h.load(0, 0x7000, tag++, 1));
  h.drain();
  // The line is in SM 0's L1 but not in L2: kernel 0 on SM 1 (no bypass) misses L2 on it.
  REQUIRE(h.load(1, 0x7000, tag++, 0));
  h.drain();
  CHECK(h.ctr(1, 0).l2_misses == 1);
  // A bypassed store is written to DRAM directly; its tag completes when the slice accepts it
  // (SBM Sec. 3.2: the L2 write buffer hides the DRAM write), before the write has finished.
  const uint64_t writes_before = h.mem->dram_bytes_total();
  const uint64_t store_tag = tag++;
  REQUIRE(h.store(0, 0x9000, store_tag, 1));
  while (h.done_at[store_tag] == kNever) h.step();
  CHECK(h.mem->dram_bytes_total() == writes_before);  // not yet written
  h.drain();
  CHECK(h.mem->dram_bytes_total() == writes_before + 128);
  CHECK(h.ctr(0, 1).l2_bypassed == 2);
  CHECK(h.ctr(0, 1).l2_accesses == 0);
  // Bypassed loads merge only with loads of their own level (the MSHR key holds it): a kL2
  // load and a cached load of the same line from one SM make two requests.
  const uint64_t packets = h.mem->xbar_up().stats().packets;
  REQUIRE(h.load(0, 0xA000, tag++, 1));
  h.step();
  REQUIRE(h.load(0, 0xA000, tag++, 0));
  h.drain();
  CHECK(h.mem->xbar_up().stats().packets == packets + 2);
  for (uint64_t t = 1; t < tag; ++t) CHECK(h.done_at[t] != kNever);
}

TEST_CASE("bypass is per SM: another SM's accesses of the kernel still use L1", "[mem][bypass]") {
  Harness h(make_config(2), 2);
  h.mem->set_bypass(0, 1, BypassLevel::kL1);
  const uint64_t line = 0x9000;
  uint64_t tag = 1;
  for (uint32_t sm : {0u, 1u}) {
    for (int i = 0; i < 2; ++i) {
      REQUIRE(h.load(sm, line, tag++, 1));
      h.drain();
    }
  }
  CHECK(h.ctr(0, 1).l1_accesses == 0);  // SM 0: bypassed
  CHECK(h.ctr(1, 1).l1_accesses == 2);  // SM 1: cached, the second load hits
  CHECK(h.ctr(1, 1).l1_misses == 1);
  CHECK_THROWS_AS(h.mem->set_bypass(2, 1, BypassLevel::kL1), InvariantError);
}

TEST_CASE("L1 is write-through no-write-allocate, L2 write-back write-allocate", "[mem][bypass]") {
  Harness h(make_config(2));
  const uint64_t line = 0x20000;
  REQUIRE(h.store(0, line, 1));
  h.drain();
  REQUIRE(h.load(0, line, 2));  // L1 miss (store did not allocate), L2 hit
  h.drain();
  CHECK(h.ctr(0).l1_accesses == 2);
  CHECK(h.ctr(0).l1_misses == 2);
  CHECK(h.ctr(0).l2_accesses == 2);
  CHECK(h.ctr(0).l2_misses == 1);
  CHECK(h.ctr(0).dram_bytes == 0);
  // A store to a line present in L1 is an L1 hit and still goes to L2.
  REQUIRE(h.store(0, line, 3));
  h.drain();
  CHECK(h.ctr(0).l1_accesses == 3);
  CHECK(h.ctr(0).l1_misses == 2);
  CHECK(h.ctr(0).l2_accesses == 3);
  CHECK(h.mem->xbar_up().stats().packets == 3);
}

TEST_CASE("dirty L2 victims are written back and charged to their writer", "[mem][bypass]") {
  Harness h(make_config(2), 2);
  const auto& map = h.mem->address_map();
  // L2 slice: 128 KB, 8-way -> 128 sets. Lines of channel 0 whose local line index is equal
  // mod 128 share a set: find 9 of them.
  std::vector<uint64_t> lines;
  const uint64_t first = memtest::find_line(map, 128, 0, 0);
  const uint64_t set0 = (map.map(first).local / 128) % 128;
  for (uint64_t a = first; lines.size() < 9; a += 128) {
    const auto c = map.map(a);
    if (c.channel == 0 && (c.local / 128) % 128 == set0) lines.push_back(a);
  }
  uint64_t tag = 1;
  for (int i = 0; i < 8; ++i) {  // kernel 1 on SM 1 dirties 8 lines: the set is full
    REQUIRE(h.store(1, lines[i], tag++, 1));
    h.drain();
  }
  CHECK(h.mem->dram_bytes_total() == 0);
  REQUIRE(h.load(0, lines[8], tag++, 0));  // kernel 0's miss evicts the LRU dirty line
  h.drain();
  CHECK(h.mem->dram(0).stats().writes == 1);
  CHECK(h.mem->dram(0).stats().reads == 1);
  CHECK(h.ctr(0, 0).dram_bytes == 128);  // its own fill
  CHECK(h.ctr(1, 1).dram_bytes == 128);  // the write-back, charged to the writer
  // The evicted line was the least recently written one: reading it misses L2 again.
  REQUIRE(h.load(0, lines[0], tag++, 0));
  h.drain();
  CHECK(h.ctr(0, 0).l2_misses == 2);
  REQUIRE(h.load(0, lines[7], tag++, 0));
  h.drain();
  CHECK(h.ctr(0, 0).l2_misses == 2);  // the most recent one is still there
  CHECK(h.mem->all_queues_empty());
}
