// gsched memory system: state shared by all blocks of one MemorySystem.
//
// * the CounterBank the blocks charge (L1/L2 accesses and misses, DRAM bytes per SM/kernel);
// * the per-SM completion lists that MemorySystem::take_completions hands to the SMs;
// * `live`: the number of jobs in flight. A job is an accepted access (until its tag
//   completes), a context transfer (until its tag completes) or a DRAM write that no tag
//   waits for (an L2 write-back or a bypassed store, until its burst is done). Every queued
//   item belongs to a live job, so live == 0 means the whole memory system is empty: that is
//   MemoryIface::idle() and the fast path of tick(). It is atomic because SMs ticked on
//   several threads (gsim --threads) start jobs in their own L1s at once; every other
//   MemContext field is per SM or touched only by MemorySystem::tick, which runs on one thread.
#pragma once
#include <atomic>
#include <cstdint>
#include <vector>

#include "gpu/counters.hpp"

namespace gs::mem {

struct MemContext {
  explicit MemContext(CounterBank& c, uint32_t sms) : counters(c), completions(sms) {
    for (auto& v : completions) v.reserve(64);
  }
  KernelSmCounters& ctr(uint32_t sm, uint32_t kernel) { return counters.at(sm, kernel); }
  /// A job finished: hand `tag` to `sm`.
  void complete(uint32_t sm, uint64_t tag) {
    completions[sm].push_back(tag);
    live.fetch_sub(1, std::memory_order_relaxed);
  }

  CounterBank& counters;
  std::vector<std::vector<uint64_t>> completions;
  std::atomic<int64_t> live{0};
};

}  // namespace gs::mem
