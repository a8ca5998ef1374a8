// gsched memory system: one L2 slice, in front of one DRAM channel.
//
// Contract (one tick() per core cycle):
//   * the tag pipeline accepts one packet per cycle from the slice's crossbar inbox; every
//     lookup result leaves the pipeline l2_hit_latency cycles later;
//   * kLoad hit: a kLoadResp is sent back l2_hit_latency later. kLoad miss: merges into the
//     MSHR of the line (no DRAM traffic) or takes a free MSHR and sends one DRAM read; when
//     the read is done the line is filled (LRU victim, written back if dirty) and every merged
//     request gets its kLoadResp at once;
//   * kStore (write-back, write-allocate): a full-line write, so a miss allocates the line
//     without reading DRAM; the line becomes dirty and remembers its writer (SM, kernel),
//     who is charged for its write-back. The store's tag completes when the pipeline accepts
//     it (the acknowledgement is not modelled as crossbar traffic);
//   * bypassed traffic (kL2 and kL1L2 loads and stores, context lines) passes the pipeline
//     without lookup, straight to DRAM; a bypassed store is written to DRAM directly and
//     completes on acceptance (the slice's DRAM-bound queue is the write buffer SBM Sec. 3.2
//     relies on: "the adverse impact on latency from bypassing L2 (write directly to memory)
//     can be alleviated by L2 write buffer"); a bypassed load / context restore is answered
//     when DRAM is done. A bypassed access neither allocates nor updates an L2 line;
//   * the head of the inbox waits (head-of-line, like a real input queue) while its miss
//     finds no MSHR / merge slot, or while the DRAM-bound queue could not also hold the
//     write-backs of every fill in flight (so a fill never has to stall);
//   * counters: each non-bypassed load/store counts an L2 access for its (SM, kernel); each
//     miss (merged or not) an L2 miss; each bypassed load/store an l2_bypassed (context lines
//     are no kernel's demand accesses: not counted). DRAM bytes are charged when DRAM finishes.
#pragma once
#include <cstdint>

#include "config/gpu_config.hpp"
#include "gpu/mem/address_map.hpp"
#include "gpu/mem/dram_channel.hpp"
#include "gpu/mem/mem_context.hpp"
#include "gpu/mem/mshr_table.hpp"
#include "gpu/mem/packet.hpp"
#include "gpu/mem/ring_fifo.hpp"
#include "gpu/mem/set_assoc_cache.hpp"

namespace gs::mem {

class L2Slice {
 public:
  static constexpr uint32_t kMergeSlots = 16;

  /// One requester waiting on an L2 MSHR.
  struct Target {
    uint16_t sm = 0;
    uint16_t l1_mshr = 0;
    KernelId kernel = 0;
  };

  L2Slice(uint32_t channel, const GpuConfig& cfg, const AddressMap& map, MemContext& ctx);

  /// Accepts at most one packet from `inbox` into the tag pipeline.
  void tick(uint64_t now, RingFifo<Packet>& inbox);
  /// A DRAM read of this slice finished (fill, bypassed load or context restore).
  void on_dram_read_done(const DramRequest& r, uint64_t now);

  /// DRAM-bound queue (fills, write-backs, bypassed traffic), in pipeline order.
  RingFifo<DramRequest>& to_dram() { return to_dram_; }
  /// Crossbar side: the response to send now (earliest ready of hits and fills), or nullptr.
  const Packet* resp_head(uint64_t now);
  void pop_resp();

  bool idle() const;
  uint32_t mshrs_in_use() const { return mshr_.in_use(); }
  SetAssocCache& cache() { return cache_; }
  const SetAssocCache& cache() const { return cache_; }

 private:
  bool process(uint64_t now, const Packet& p);
  void to_dram(uint64_t now, const Packet& p, DramSource src, bool write, uint16_t sm, KernelId kernel, uint16_t mshr);
  void write_back(uint64_t now, const SetAssocCache::Victim& v);
  uint64_t set_key(uint64_t local) const { return local / line_bytes_; }

  uint32_t channel_, line_bytes_, latency_;
  uint32_t dram_queue_cap_;
  const AddressMap& map_;
  MemContext& ctx_;
  SetAssocCache cache_;
  MshrTable<Target> mshr_;
  RingFifo<DramRequest> to_dram_;
  RingFifo<Packet> hit_resp_;    // ready = accept + latency (monotone)
  RingFifo<Packet> fill_resp_;   // ready = DRAM done (monotone)
  bool resp_from_fill_ = false;  // which queue resp_head() chose
};

}  // namespace gs::mem
