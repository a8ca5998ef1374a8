// gsched: helpers shared by the memory-system unit tests (verif/unit/test_mem_*.cpp).
//
// Builds GpuConfigs by hand (no JSON loader) and drives a MemorySystem cycle by cycle,
// recording for every tag the cycle at which take_completions() returned it.
#pragma once
#include <cstdint>
#include <memory>
#include <vector>

#include "config/gpu_config.hpp"
#include "gpu/counters.hpp"
#include "gpu/mem/memory_system.hpp"

namespace gs::memtest {

/// Warped-Slicer-like GPU: 16 SMs, 6 GDDR5 channels at 924 MHz (4 B bus, x4), 1400 MHz core.
inline GpuConfig make_config(uint32_t sms = 16, uint32_t channels = 6) {
  GpuConfig cfg;
  cfg.name = "memtest";
  cfg.core_clock_mhz = 1400;
  cfg.line_bytes = 128;
  SmTypeConfig t;
  t.count = sms;
  t.l1_size_bytes = 16 * 1024;
  t.l1_assoc = 4;
  t.l1_mshrs = 64;
  t.l1_hit_latency = 20;
  cfg.sm_types = {t};
  cfg.sm_type_of.assign(sms, 0);
  cfg.xbar_latency = 8;
  cfg.xbar_bytes_per_cycle = 32;
  cfg.l2_slice_bytes = 128 * 1024;
  cfg.l2_assoc = 8;
  cfg.l2_mshrs = 64;
  cfg.l2_hit_latency = 30;
  cfg.dram_channels = channels;
  cfg.dram_banks = 16;
  cfg.dram_clock_mhz = 924;
  cfg.dram_bus_bytes = 4;
  cfg.dram_transfers_per_clock = 4;
  cfg.dram_row_bytes = 2048;
  cfg.dram_queue_depth = 32;
  cfg.tCL = 12;
  cfg.tRP = 12;
  cfg.tRC = 40;
  cfg.tRAS = 28;
  cfg.tRCD = 12;
  cfg.tRRD = 6;
  cfg.tCCD = 2;
  cfg.tWR = 12;
  return cfg;
}

constexpr uint64_t kNever = ~uint64_t(0);

/// A MemorySystem plus a clock. Tags passed to access() must be < max_tags.
struct Harness {
  explicit Harness(const GpuConfig& c, uint32_t kernels = 4, size_t max_tags = 1 << 16)
      : cfg(c), counters(c.num_sms(), kernels), done_at(max_tags, kNever) {
    mem = std::make_unique<MemorySystem>(cfg, counters);
  }
  bool load(uint32_t sm, uint64_t line, uint64_t tag, KernelId k = 0) {
    return mem->access(sm, MemAccess{line, k, false, tag});
  }
  bool store(uint32_t sm, uint64_t line, uint64_t tag, KernelId k = 0) {
    return mem->access(sm, MemAccess{line, k, true, tag});
  }
  /// One cycle: tick, then collect every SM's completions.
  void step() {
    mem->tick(now);
    for (uint32_t s = 0; s < cfg.num_sms(); ++s) {
      mem->take_completions(s, buf);
      for (uint64_t t : buf) {
        done_at[t] = now;
        order.push_back(t);
      }
    }
    ++now;
  }
  void run(uint64_t cycles) {
    for (uint64_t i = 0; i < cycles; ++i) step();
  }
  /// Steps until the memory system is idle (or `limit` cycles); returns cycles stepped.
  uint64_t drain(uint64_t limit = 1'000'000) {
    uint64_t n = 0;
    while (!mem->idle() && n < limit) {
      step();
      ++n;
    }
    return n;
  }
  const KernelSmCounters& ctr(uint32_t sm, uint32_t k = 0) const { return counters.at(sm, k); }

  GpuConfig cfg;
  CounterBank counters;
  std::unique_ptr<MemorySystem> mem;
  uint64_t now = 0;
  std::vector<uint64_t> buf;
  std::vector<uint64_t> done_at;
  std::vector<uint64_t> order;
};

/// Finds a line address >= `from` that maps to `channel` (and, if bank >= 0, to that bank
/// and row). Lets tests aim at one channel or bank without knowing the hash.
inline uint64_t find_line(const mem::AddressMap& map, uint32_t line_bytes, uint64_t from, uint32_t channel,
                          int bank = -1, int64_t row = -1) {
  for (uint64_t a = from - from % line_bytes;; a += line_bytes) {
    const mem::DramCoord c = map.map(a);
    if (c.channel != channel) continue;
    if (bank >= 0 && map.bank_of(c.local) != uint32_t(bank)) continue;
    if (row >= 0 && map.row_of(c.local) != uint64_t(row)) continue;
    return a;
  }
}

}  // namespace gs::memtest
