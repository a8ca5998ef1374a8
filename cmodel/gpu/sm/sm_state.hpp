// gsched: the state records of one SM (private to gpu/sm.cpp; documented in docs/sm.md).
//
// Everything lives in flat, preallocated arrays indexed by slot numbers, so the per-cycle
// path never allocates: warps (max_warps slots), CTAs (max_ctas slots), one scoreboard ring
// of kRing completion cycles per warp slot, a pool of in-flight global memory operations,
// and one record per warp scheduler.
#pragma once
#include <cstdint>
#include <vector>

#include "gpu/gpu.hpp"
#include "sched/scheduler_port.hpp"
#include "workload/inst_stream.hpp"

namespace gs {
namespace sm_detail {

/// "Not known yet": a pending load's result, an unknown unit-free time.
constexpr uint64_t kNever = ~uint64_t(0);
/// Scoreboard depth: completion cycles of a warp's last kRing instructions. dep_distance is
/// clamped to it (a producer further back than 64 instructions is always complete in practice).
constexpr uint32_t kRing = 64;
constexpr uint64_t kContextTag = uint64_t(1) << 63;  // memory tags of context transfers

/// One resident warp. `next`/`dep_ready` describe the instruction at `pc`, computed once when
/// the warp reaches it, so a scheduler tests readiness with two compares.
struct Warp {
  uint64_t key = 0;        // InstStream::warp_key(cta, warp_in_cta)
  uint64_t dep_ready = 0;  // cycle the producer of instruction pc is complete; kNever: pending load
  uint32_t pc = 0;         // next instruction index
  uint32_t accesses = 0;   // global loads and stores issued before pc (InstStream::line_addr's n)
  uint32_t len = 0;        // instructions this warp executes
  uint32_t warp_in_cta = 0;
  uint32_t dep = 0;  // dependency distance (0 = independent instructions)
  uint16_t cta_slot = 0;
  uint16_t sched = 0;  // warp scheduler it is assigned to
  KernelId kernel = 0;
  InstType next = InstType::kAlu;
  bool in_sched = false;  // in its scheduler's issue list (running, not finished)
  uint8_t group = 0;      // warp-slot group (SmTypeConfig::warp_group_slots): 1 = the slot is at or above it
  uint16_t pos = 0;       // position in that list (valid while in_sched)
};

enum class CtaPhase : uint8_t {
  kFree,
  kRestoring,  // context being read back (resume); warps wait
  kRunning,
  kStopping,  // context switch requested: warps stopped, waiting for in-flight memory ops
  kSaving,    // context being written out
};
const char* cta_phase_name(CtaPhase s);

struct CtaSlot {
  CtaPhase state = CtaPhase::kFree;
  KernelId kernel = 0;
  CtaId cta = 0;
  const InstStream* stream = nullptr;
  CtaResources res;
  std::vector<uint16_t> warps;  // warp slots, in warp-in-CTA order (capacity reserved)
  uint32_t warps_left = 0;      // warps that have not issued their last instruction
  uint32_t ops = 0;             // global loads/stores not yet completed by the memory system
  uint64_t start_cycle = 0;     // start (or resume) of this residency
  uint64_t first_start_cycle = 0;
  int32_t preempt = -1;  // switch-preemption record this CTA belongs to, -1 = none
  bool stop_after_restore = false;
  bool drain_counted = false;  // counted in ctas_drained (once per residency)
  uint64_t stop_cycle = 0;     // cycle a switch preemption stopped it (ctx_save_cycles)
};

/// One in-flight global load or store (a warp access of lines_per_access lines).
struct MemOp {
  uint32_t pc = 0;          // instruction index (the scoreboard slot a load completes)
  uint32_t access = 0;      // the warp's global-access ordinal (streaming addresses)
  uint32_t lines_left = 0;  // lines not yet completed by the memory system
  uint16_t warp = 0;
  uint16_t cta_slot = 0;
  bool store = false;
  bool active = false;
};

/// The SM's load/store unit: sends one line of the current global op per cycle; shared-memory
/// ops hold it for warp_size / ldst_lanes cycles.
struct LdstUnit {
  int32_t op = -1;  // MemOp being sent, -1 = none
  uint32_t next_line = 0;
  uint32_t lines = 0;
  uint64_t busy_until = 0;  // shared-memory occupancy
  bool blocked = false;     // the last access() was refused (MSHRs full / L1 port busy)
};

struct WarpScheduler {
  std::vector<uint16_t> warps;  // issue list, oldest first (capacity reserved)
  int32_t greedy = -1;          // GTO: warp slot issued last
  uint32_t rr = 0;              // LRR: list position to start the next search at
  uint64_t alu_free = 0;        // ALU issue port free at this cycle
  uint64_t sfu_free = 0;
  // Nothing can issue before sleep_until unless a wake-up (load completion, list change)
  // resets it; meanwhile each cycle counts as a stall of `sleep_reason` for `sleep_kernel`.
  uint64_t sleep_until = 0;
  StallReason sleep_reason = StallReason::kIdle;
  KernelId sleep_kernel = 0;
  bool sleep_on_ldst = false;  // the reason is the sending LD/ST unit: MSHR-full or exec-busy
  // GTO: list positions [0, skip) cannot issue before skip_until (see schedule()).
  uint32_t skip = 0;
  uint64_t skip_until = 0;
  // Warp-slot groups (SmTypeConfig::warp_group_slots): the group searched, warps per group.
  uint8_t group = 0;
  uint32_t in_group[2] = {0, 0};

  /// The issue list changed: search again from scratch.
  void wake() {
    sleep_until = 0;
    skip = 0;
  }
  /// The warp at list position `pos` may issue earlier than computed (its load completed).
  void wake_at(uint32_t pos) {
    sleep_until = 0;
    if (pos < skip) skip = pos;
  }
};

/// A preemption in progress.
struct PreemptRec {
  PreemptMode mode = PreemptMode::kDrain;
  KernelId victim = kNoKernel;
  KernelId next = kNoKernel;  // the kernel the SM is handed to: never a victim of an all-kernel command
  uint32_t remaining = 0;     // switch: CTAs still to save (or finish)
  bool active = false;
};

}  // namespace sm_detail
}  // namespace gs
