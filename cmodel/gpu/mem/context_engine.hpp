// gsched memory system: one SM's context save/restore engine (Tanasic Sec. 3.2 traffic).
//
// Contract:
//   * start() queues a ContextTransfer; transfers are served in arrival order, up to kSlots
//     at a time (a later one starts issuing once the earlier ones have issued all lines);
//   * a transfer of B bytes is ceil(B / line_bytes) line requests (B = 0 completes at once):
//     a save is kCtxSave packets (a full line each on the crossbar, then a DRAM write), a
//     restore is kCtxRestore packets (a request header up, a full line back). Caches are
//     bypassed both ways; the lines go to a per-SM save area, so they interleave over all
//     channels like any stream;
//   * at most one line enters the SM's output queue per cycle, only while that queue is at
//     most half full (demand misses keep their room), and at most kMaxOutstanding lines are
//     in flight per SM (this also bounds the responses the SM's inbox can receive);
//   * a line is done when its DRAM write burst ends (save) or its data reaches the SM
//     (restore); the transfer's tag completes when its last line is done.
#pragma once
#include <cstdint>
#include <vector>

#include "gpu/mem/address_map.hpp"
#include "gpu/mem/l1_cache.hpp"
#include "gpu/mem/mem_context.hpp"
#include "gpu/mem/ring_fifo.hpp"
#include "gpu/mem_iface.hpp"

namespace gs::mem {

class ContextEngine {
 public:
  static constexpr uint32_t kSlots = 8;
  static constexpr uint32_t kMaxOutstanding = 64;
  /// Save areas: SM s uses [kSaveBase + s * kSaveSpan, + kSaveSpan), reused cyclically.
  static constexpr uint64_t kSaveBase = uint64_t(1) << 44;
  static constexpr uint64_t kSaveSpan = uint64_t(1) << 30;

  ContextEngine(uint32_t sm, uint32_t line_bytes, const AddressMap& map, MemContext& ctx);

  void start(const ContextTransfer& t);
  /// Starts queued transfers into free slots and issues at most one line into `l1`'s queue.
  void tick(uint64_t now, L1Cache& l1);
  /// One line of slot `slot` is done.
  void on_line_done(uint16_t slot);
  bool idle() const { return pending_.empty() && active_ == 0; }

 private:
  struct Slot {
    bool busy = false;
    bool save = true;
    KernelId kernel = 0;
    uint64_t tag = 0;
    uint32_t lines_left = 0;   // not yet issued
    uint32_t outstanding = 0;  // issued, not done
  };

  uint32_t sm_, line_bytes_;
  const AddressMap& map_;
  MemContext& ctx_;
  RingFifo<ContextTransfer> pending_;
  RingFifo<uint8_t> issue_order_;  // slots with lines left, oldest first
  Slot slots_[kSlots];
  uint32_t active_ = 0;     // busy slots
  uint32_t in_flight_ = 0;  // lines issued and not done, all slots
  uint64_t cursor_ = 0;     // next offset in the save area
};

}  // namespace gs::mem
