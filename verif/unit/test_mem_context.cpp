// gsched: memory system unit tests -- context save/restore transfers, idle tracking and
// determinism under a random load.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdio>

#include "common/rng.hpp"
#include "test_mem_common.hpp"

using namespace gs;
using gs::memtest::Harness;
using gs::memtest::kNever;
using gs::memtest::make_config;

namespace {

uint64_t transfer_cycles(Harness& h, uint32_t sm, uint32_t bytes, bool save, uint64_t tag) {
  const uint64_t t0 = h.now;
  h.mem->context_transfer(sm, ContextTransfer{bytes, save, 0, tag});
  h.drain();
  REQUIRE(h.done_at[tag] != kNever);
  return h.done_at[tag] - t0;
}

}  // namespace

TEST_CASE("a context save from one SM runs at its crossbar port bandwidth", "[mem][context]") {
  Harness h(make_config(4));
  const uint32_t bytes = 64 * 1024;
  const uint64_t cycles = transfer_cycles(h, 0, bytes, true, 1);
  // One SM port moves 32 B/cycle, below the 63 B/cycle of DRAM: ~bytes/32 plus a latency.
  const double ideal = double(bytes) / h.cfg.xbar_bytes_per_cycle;
  std::printf("[mem] context save %u B: %llu cycles (bytes/port bandwidth = %.0f)\n", bytes, (unsigned long long)cycles,
              ideal);
  CHECK(cycles >= ideal);
  CHECK(cycles <= ideal * 1.05 + h.mem->unloaded_dram_latency(0));
  CHECK(h.ctr(0).dram_bytes == bytes);
  CHECK(h.ctr(0).l1_accesses == 0);
  CHECK(h.ctr(0).l2_accesses == 0);
  CHECK(h.mem->dram_bytes_total() == bytes);
  CHECK(h.mem->all_queues_empty());
}

TEST_CASE("a context restore runs at the SM's port bandwidth too", "[mem][context]") {
  Harness h(make_config(4));
  const uint32_t bytes = 48 * 1024;
  const uint64_t cycles = transfer_cycles(h, 2, bytes, false, 7);
  const double ideal = double(bytes) / h.cfg.xbar_bytes_per_cycle;
  std::printf("[mem] context restore %u B: %llu cycles (bytes/port bandwidth = %.0f)\n", bytes,
              (unsigned long long)cycles, ideal);
  CHECK(cycles >= ideal);
  CHECK(cycles <= ideal * 1.05 + h.mem->unloaded_dram_latency(2));
  CHECK(h.ctr(2).dram_bytes == bytes);
}

TEST_CASE("context saves from all SMs are limited by DRAM bandwidth", "[mem][context]") {
  Harness h(make_config(16));
  const uint32_t bytes = 32 * 1024;
  for (uint32_t s = 0; s < 16; ++s) h.mem->context_transfer(s, ContextTransfer{bytes, true, 0, s + 1});
  const uint64_t cycles = h.drain();
  const double ideal = 16.0 * bytes / h.cfg.dram_peak_bytes_per_core_cycle();
  std::printf("[mem] 16 context saves of %u B: %llu cycles (bytes/DRAM peak = %.0f)\n", bytes,
              (unsigned long long)cycles, ideal);
  for (uint32_t s = 0; s < 16; ++s) CHECK(h.done_at[s + 1] != kNever);
  CHECK(cycles >= ideal);
  CHECK(cycles <= ideal * 1.15 + h.mem->unloaded_dram_latency(0));
}

TEST_CASE("context transfers complete in order, including empty ones", "[mem][context]") {
  Harness h(make_config(2));
  h.mem->context_transfer(0, ContextTransfer{0, true, 0, 1});
  h.step();
  CHECK(h.done_at[1] == 0);  // nothing to move: done in the cycle it was requested
  h.mem->context_transfer(0, ContextTransfer{4096, true, 0, 2});
  h.mem->context_transfer(0, ContextTransfer{4096 + 1, false, 0, 3});  // 33 lines
  h.drain();
  REQUIRE(h.done_at[2] != kNever);
  REQUIRE(h.done_at[3] != kNever);
  CHECK(h.done_at[2] < h.done_at[3]);
  CHECK(h.ctr(0).dram_bytes == 128 * (32 + 33));
  CHECK(h.mem->idle());
}

namespace {

/// Random mixed load (loads, stores, three kernels with different bypass levels, context
/// traffic) over 8 SMs; returns every (tag, completion cycle) in completion order.
std::vector<std::pair<uint64_t, uint64_t>> random_run(uint64_t seed, Harness& h) {
  Rng rng(seed);
  for (uint32_t s = 0; s < h.cfg.num_sms(); ++s) h.mem->set_bypass(s, 1, BypassLevel::kL1);
  for (uint32_t s = 0; s < h.cfg.num_sms(); ++s) h.mem->set_bypass(s, 2, BypassLevel::kL1L2);
  uint64_t tag = 1;
  for (uint64_t cyc = 0; cyc < 20000; ++cyc) {
    for (uint32_t s = 0; s < h.cfg.num_sms(); ++s) {
      if (rng.next() % 4 != 0) continue;
      const uint64_t line = (rng.next() % 4096) * 128;  // 512 KB footprint: some reuse
      const bool write = rng.next() % 5 == 0;
      const KernelId k = KernelId(rng.next() % 3);
      if (h.mem->access(s, MemAccess{line, k, write, tag})) ++tag;
    }
    if (rng.next() % 2000 == 0)
      h.mem->context_transfer(uint32_t(rng.next() % h.cfg.num_sms()),
                              ContextTransfer{uint32_t(rng.next() % 8192), rng.next() % 2 == 0, 0, tag++});
    h.step();
  }
  h.drain();
  REQUIRE(h.mem->idle());
  REQUIRE(h.mem->all_queues_empty());
  std::vector<std::pair<uint64_t, uint64_t>> out;
  for (uint64_t t : h.order) out.emplace_back(t, h.done_at[t]);
  // Every accepted access and transfer completed exactly once.
  std::vector<uint64_t> tags = h.order;
  std::sort(tags.begin(), tags.end());
  REQUIRE(tags.size() == tag - 1);
  for (uint64_t i = 0; i < tags.size(); ++i) REQUIRE(tags[i] == i + 1);
  return out;
}

}  // namespace

TEST_CASE("the memory system is deterministic and loses no request", "[mem][determinism]") {
  Harness a(make_config(8), 3, 1 << 20);
  Harness b(make_config(8), 3, 1 << 20);
  const auto ra = random_run(42, a);
  const auto rb = random_run(42, b);
  CHECK(ra == rb);
  CHECK(ra.size() > 10000);
  for (uint32_t s = 0; s < 8; ++s)
    for (uint32_t k = 0; k < 3; ++k) {
      CHECK(a.ctr(s, k).l1_accesses == b.ctr(s, k).l1_accesses);
      CHECK(a.ctr(s, k).l2_misses == b.ctr(s, k).l2_misses);
      CHECK(a.ctr(s, k).dram_bytes == b.ctr(s, k).dram_bytes);
    }
  // Bypass levels show in the counters: kernel 1 never touches L1, kernel 2 neither cache.
  uint64_t k1_l1 = 0, k2_l2 = 0, k0_l1 = 0;
  for (uint32_t s = 0; s < 8; ++s) {
    k0_l1 += a.ctr(s, 0).l1_accesses;
    k1_l1 += a.ctr(s, 1).l1_accesses;
    k2_l2 += a.ctr(s, 2).l2_accesses;
  }
  CHECK(k0_l1 > 0);
  CHECK(k1_l1 == 0);
  CHECK(k2_l2 == 0);
}

TEST_CASE("an idle memory system stays idle and cheap", "[mem]") {
  Harness h(make_config(16));
  CHECK(h.mem->idle());
  h.run(1000);
  CHECK(h.mem->idle());
  CHECK(h.order.empty());
}
