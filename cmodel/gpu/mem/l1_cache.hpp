// gsched memory system: one SM's L1 data cache with its MSHRs and its crossbar output queue.
//
// Contract:
//   * access() accepts at most one access per cycle (the L1 port); it returns false, with no
//     side effect, when the port was used this cycle, when a miss finds the MSHRs full or the
//     line's MSHR out of merge slots, or when a request must go out and the output queue is
//     full;
//   * loads (no bypass): a hit completes l1_hit_latency cycles later; a miss merges into the
//     MSHR of the same line if one exists (no new request), else takes an MSHR and sends one
//     kLoad packet, which may enter the crossbar l1_hit_latency cycles later (tag check);
//     on the response the line is filled (LRU victim dropped: L1 is never dirty) and every
//     merged tag completes, in merge order;
//   * stores: write-through, no-write-allocate: a store that finds the line refreshes its
//     LRU position; either way a full-line kStore packet goes to L2 (after the same
//     l1_hit_latency); it completes when the L2 slice accepts it (see L2Slice);
//   * bypass kL1 / kL1L2 (bypasses_l1): no lookup, no fill and no L1 access counted; loads
//     still take an MSHR (merging only with loads of the same bypass level) to hold their
//     tags. kL2 looks L1 up and fills it as kNone does; its packets carry the level so that
//     the L2 slice sends them on to DRAM;
//   * counters: every load or store that looks L1 up counts an L1 access; misses (including
//     merged ones and store misses) count an L1 miss; every accepted access that goes
//     around L1 counts l1_bypassed instead;
//   * context-transfer lines (ContextEngine) share the output queue, up to half of it, so
//     demand misses always find room.
#pragma once
#include <cstdint>

#include "config/gpu_config.hpp"
#include "gpu/mem/address_map.hpp"
#include "gpu/mem/mem_context.hpp"
#include "gpu/mem/mshr_table.hpp"
#include "gpu/mem/packet.hpp"
#include "gpu/mem/ring_fifo.hpp"
#include "gpu/mem/set_assoc_cache.hpp"
#include "gpu/mem_iface.hpp"

namespace gs::mem {

class L1Cache {
 public:
  static constexpr uint32_t kMergeSlots = 16;  // tags one MSHR can hold

  L1Cache(uint32_t sm, const GpuConfig& cfg, const AddressMap& map, MemContext& ctx);

  bool access(uint64_t now, const MemAccess& a, BypassLevel level);
  /// A kLoadResp for one of this L1's MSHRs arrived.
  void on_response(const Packet& p);
  /// Completes hits whose latency has elapsed (inline check: most cycles have none).
  void tick(uint64_t now) {
    if (!hits_.empty() && hits_.front().ready <= now) complete_hits(now);
  }

  /// Crossbar side: the head of the output queue if it may leave now.
  const Packet* out_head(uint64_t now) const {
    return (!out_.empty() && out_.front().ready <= now) ? &out_.front() : nullptr;
  }
  void pop_out() { out_.pop(); }
  /// Context engine side: queue a context line (ready after the L1 stage latency).
  bool can_push_ctx() const { return out_.size() < out_cap_ / 2; }
  void push_ctx(Packet p, uint64_t now);

  /// Unified L1/shared memory (l1_carveout "dynamic"): the L1 keeps whole ways of
  /// l1_size_bytes / l1_assoc bytes each, as many as fit in `bytes`; ways given to shared
  /// memory lose their lines (the L1 is never dirty). A no-op when the count is unchanged.
  void set_capacity(uint32_t bytes) { cache_.set_active_ways(bytes / way_bytes_); }

  bool idle() const { return hits_.empty() && out_.empty() && mshr_.in_use() == 0; }
  uint32_t mshrs_in_use() const { return mshr_.in_use(); }
  SetAssocCache& cache() { return cache_; }
  const SetAssocCache& cache() const { return cache_; }

 private:
  struct PendingHit {
    uint64_t ready;
    uint64_t tag;
  };
  void complete_hits(uint64_t now);
  bool load(uint64_t now, const MemAccess& a, BypassLevel level);
  bool store(uint64_t now, const MemAccess& a, BypassLevel level);
  Packet make_packet(uint64_t now, const MemAccess& a, PacketKind kind, BypassLevel level) const;

  uint32_t sm_;
  uint32_t line_bytes_, hit_latency_;
  uint32_t out_cap_;
  uint32_t way_bytes_;
  const AddressMap& map_;
  MemContext& ctx_;
  SetAssocCache cache_;
  MshrTable<uint64_t> mshr_;  // targets: the SM's tags
  RingFifo<PendingHit> hits_;
  RingFifo<Packet> out_;                  // towards the crossbar
  uint64_t port_used_at_ = ~uint64_t(0);  // cycle the port was last used
};

}  // namespace gs::mem
