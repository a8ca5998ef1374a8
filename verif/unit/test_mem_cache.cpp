// gsched: memory system unit tests -- L1/L2 tag arrays, LRU, hits and misses, MSHR merging
// and the structural stalls of the L1 port and MSHRs.
#include <catch2/catch.hpp>

#include <algorithm>

#include "common/error.hpp"
#include "common/rng.hpp"
#include "gpu/mem/mshr_table.hpp"
#include "gpu/mem/set_assoc_cache.hpp"
#include "test_mem_common.hpp"

using namespace gs;
using gs::memtest::Harness;
using gs::memtest::kNever;
using gs::memtest::make_config;

TEST_CASE("set-associative cache evicts the least recently used way", "[mem][cache]") {
  // 4 sets x 4 ways of 128 B lines; set_key = line index.
  mem::SetAssocCache c(4 * 4 * 128, 4, 128, "test cache");
  REQUIRE(c.sets() == 4);
  auto line = [](uint64_t i) { return i * 4 * 128; };  // indices 0,4,8,.. all in set 0
  for (uint64_t i = 0; i < 4; ++i) {
    const auto v = c.insert(line(i), i * 4, false, 0);
    REQUIRE_FALSE(v.valid);  // invalid ways are used first
  }
  REQUIRE(c.lookup(line(0), 0, true));  // line 0 becomes most recent: order 1,2,3,0
  auto v = c.insert(line(4), 16, false, 0);
  REQUIRE(v.valid);
  CHECK(v.line == line(1));
  v = c.insert(line(5), 20, false, 0);
  CHECK(v.line == line(2));
  REQUIRE(c.lookup(line(3), 12, false));  // lookup without touch keeps its age
  v = c.insert(line(6), 24, false, 0);
  CHECK(v.line == line(3));
  v = c.insert(line(7), 28, true, 0x00020001);
  CHECK(v.line == line(0));
  // The dirty bit and meta word travel with the line to its eviction.
  c.insert(line(8), 32, false, 0);   // evicts 4
  c.insert(line(9), 36, false, 0);   // evicts 5
  c.insert(line(10), 40, false, 0);  // evicts 6
  v = c.insert(line(11), 44, false, 0);
  CHECK(v.line == line(7));
  CHECK(v.dirty);
  CHECK(v.meta == 0x00020001u);
  // Other sets were untouched.
  CHECK(c.valid_lines() == 4);
}

TEST_CASE("cache geometry that is not a whole number of sets is an input error", "[mem][cache]") {
  CHECK_THROWS_AS(mem::SetAssocCache(1000, 4, 128, "bad"), InputError);
  CHECK_THROWS_AS(mem::SetAssocCache(128, 4, 128, "bad"), InputError);
}

TEST_CASE("repeated loads of a line hit L1 after the first miss", "[mem][cache]") {
  Harness h(make_config(2));
  const uint64_t line = 0x10000;
  REQUIRE(h.load(0, line, 1));
  h.drain();
  REQUIRE(h.done_at[1] != kNever);
  CHECK(h.ctr(0).l1_accesses == 1);
  CHECK(h.ctr(0).l1_misses == 1);
  CHECK(h.ctr(0).l2_accesses == 1);
  CHECK(h.ctr(0).l2_misses == 1);
  CHECK(h.ctr(0).dram_bytes == 128);

  const uint64_t t0 = h.now;
  REQUIRE(h.load(0, line, 2));
  h.drain();
  CHECK(h.done_at[2] - t0 == h.cfg.sm(0).l1_hit_latency);  // hit latency exactly
  for (int i = 0; i < 5; ++i) {
    REQUIRE(h.load(0, line, 3 + i));
    h.step();
  }
  h.drain();
  CHECK(h.ctr(0).l1_accesses == 7);
  CHECK(h.ctr(0).l1_misses == 1);
  CHECK(h.ctr(0).l2_accesses == 1);  // hits never leave the SM
  CHECK(h.mem->all_queues_empty());
}

TEST_CASE("L1 evicts in LRU order within a set", "[mem][cache]") {
  Harness h(make_config(1));
  // L1: 16 KB, 4-way, 128 B lines -> 32 sets; lines 32*128 B apart share a set.
  const uint64_t stride = 32 * 128;
  auto load_and_wait = [&](uint64_t line, uint64_t tag) {
    REQUIRE(h.load(0, line, tag));
    h.drain();
  };
  uint64_t tag = 1;
  for (uint64_t i = 0; i < 4; ++i) load_and_wait(i * stride, tag++);  // A B C D
  load_and_wait(0, tag++);                                            // touch A
  REQUIRE(h.ctr(0).l1_misses == 4);
  load_and_wait(4 * stride, tag++);  // E evicts B
  REQUIRE(h.ctr(0).l1_misses == 5);
  load_and_wait(0, tag++);           // A still there
  load_and_wait(2 * stride, tag++);  // C still there
  load_and_wait(3 * stride, tag++);  // D still there
  CHECK(h.ctr(0).l1_misses == 5);
  load_and_wait(1 * stride, tag++);  // B was evicted
  CHECK(h.ctr(0).l1_misses == 6);
}

TEST_CASE("an L1 miss that hits L2 takes the unloaded L2 hit latency", "[mem][cache]") {
  Harness h(make_config(2));
  const uint64_t line = 0x40000;
  REQUIRE(h.load(1, line, 1));  // SM 1 brings the line into L2
  h.drain();
  const uint64_t t0 = h.now;
  REQUIRE(h.load(0, line, 2));  // SM 0: L1 miss, L2 hit
  h.drain();
  const auto& c = h.cfg;
  const uint64_t expect = c.sm(0).l1_hit_latency + (c.xbar_latency + 1) + c.l2_hit_latency +
                          (c.xbar_latency + 128 / c.xbar_bytes_per_cycle);
  CHECK(expect == 71);
  CHECK(h.mem->unloaded_l2_hit_latency(0) == expect);
  CHECK(h.done_at[2] - t0 == expect);
  CHECK(h.ctr(0).l2_accesses == 1);
  CHECK(h.ctr(0).l2_misses == 0);
  CHECK(h.ctr(0).dram_bytes == 0);
}

TEST_CASE("loads to one missing line merge in one MSHR", "[mem][mshr]") {
  Harness h(make_config(2));
  const uint64_t line = 0x80000;
  const int n = 10;
  for (int i = 0; i < n; ++i) {
    REQUIRE(h.load(0, line, 100 + i));
    h.step();
  }
  h.drain();
  for (int i = 0; i < n; ++i) REQUIRE(h.done_at[100 + i] != kNever);
  // One request left the SM, one L2 lookup, one DRAM read; every tag completed in the
  // same cycle (when the line came back), in issue order.
  CHECK(h.mem->xbar_up().stats().packets == 1);
  CHECK(h.ctr(0).l2_accesses == 1);
  CHECK(h.ctr(0).dram_bytes == 128);
  CHECK(h.ctr(0).l1_accesses == n);
  CHECK(h.ctr(0).l1_misses == n);
  for (int i = 1; i < n; ++i) CHECK(h.done_at[100 + i] == h.done_at[100]);
  REQUIRE(h.order.size() == size_t(n));
  for (int i = 0; i < n; ++i) CHECK(h.order[i] == uint64_t(100 + i));
}

TEST_CASE("L2 MSHRs merge misses of different SMs to one DRAM read", "[mem][mshr]") {
  Harness h(make_config(4));
  const uint64_t line = 0xC0000;
  for (uint32_t s = 0; s < 4; ++s) REQUIRE(h.load(s, line, s + 1));
  h.drain();
  uint64_t l2_acc = 0, l2_miss = 0, dram = 0;
  for (uint32_t s = 0; s < 4; ++s) {
    REQUIRE(h.done_at[s + 1] != kNever);
    l2_acc += h.ctr(s).l2_accesses;
    l2_miss += h.ctr(s).l2_misses;
    dram += h.ctr(s).dram_bytes;
  }
  CHECK(l2_acc == 4);
  CHECK(l2_miss == 4);  // merged misses still count as misses
  CHECK(dram == 128);   // but only one DRAM read, charged to the first
  CHECK(h.mem->dram_bytes_total() == 128);
}

TEST_CASE("full MSHRs and exhausted merge slots stall the L1", "[mem][mshr]") {
  GpuConfig cfg = make_config(1);
  cfg.sm_types[0].l1_mshrs = 4;
  Harness h(cfg);
  uint64_t tag = 1;
  for (uint64_t i = 0; i < 4; ++i) {
    REQUIRE(h.load(0, 0x1000 * (i + 1), tag++));
    h.step();
  }
  // A fifth distinct line finds every MSHR busy: rejected, and nothing was counted.
  CHECK_FALSE(h.load(0, 0x9000, 99));
  CHECK(h.ctr(0).l1_accesses == 4);
  // A load to a line already missing merges instead (up to the merge slots).
  uint32_t merged = 0;
  while (h.load(0, 0x1000, tag)) {
    ++tag;
    ++merged;
    h.step();
  }
  CHECK(merged == mem::L1Cache::kMergeSlots - 1);  // the first slot holds the original miss
  CHECK(h.ctr(0).l1_accesses == 4 + merged);
  h.drain();
  // Everything came back; now the fifth line is accepted.
  for (uint64_t t = 1; t < tag; ++t) REQUIRE(h.done_at[t] != kNever);
  CHECK(h.load(0, 0x9000, 99));
  h.drain();
  CHECK(h.done_at[99] != kNever);
}

TEST_CASE("the L1 port accepts one access per cycle", "[mem][mshr]") {
  Harness h(make_config(2));
  REQUIRE(h.load(0, 0x100, 1));
  CHECK_FALSE(h.load(0, 0x200, 2));  // same SM, same cycle
  CHECK(h.load(1, 0x200, 3));        // another SM has its own port
  h.step();
  CHECK(h.load(0, 0x200, 2));  // next cycle
  h.drain();
  CHECK(h.done_at[1] != kNever);
  CHECK(h.done_at[2] != kNever);
  CHECK(h.done_at[3] != kNever);
}

TEST_CASE("misaligned or out-of-range accesses are invariant errors", "[mem]") {
  Harness h(make_config(2), 2);
  CHECK_THROWS_AS(h.load(0, 0x101, 1), InvariantError);
  CHECK_THROWS_AS(h.load(0, 0x100, 1, 2), InvariantError);  // kernel 2 of 2
  CHECK_THROWS_AS(h.load(2, 0x100, 1), InvariantError);     // SM 2 of 2
}

TEST_CASE("MSHR index finds, merges and frees entries like a linear search", "[mem][mshr]") {
  // Random allocate/release against a plain reference list, with keys chosen to collide.
  mem::MshrTable<uint32_t> t(16, 4);
  std::vector<std::pair<uint64_t, int>> ref;  // key -> entry
  Rng rng(3);
  for (int step = 0; step < 20000; ++step) {
    const uint64_t key = (rng.next() % 40) * 128;
    const int found = t.find(key);
    auto it = std::find_if(ref.begin(), ref.end(), [&](const auto& p) { return p.first == key; });
    REQUIRE((found >= 0) == (it != ref.end()));
    if (found >= 0) {
      REQUIRE(found == it->second);
      if (rng.next() % 2) {
        t.release(found);
        ref.erase(it);
      } else if (t.can_merge(found)) {
        t.add(found, uint32_t(step));
      }
    } else if (!t.full()) {
      const int e = t.allocate(key);
      t.add(e, uint32_t(step));
      ref.emplace_back(key, e);
    }
    REQUIRE(t.in_use() == ref.size());
  }
}
