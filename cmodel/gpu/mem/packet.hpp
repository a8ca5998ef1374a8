// gsched memory system: the message that travels between the SM side and the L2 slices.
//
// One Packet is one line-sized transaction on the crossbar. Its size on the wire (and so the
// cycles it occupies a crossbar port) follows from its kind: a read request is a header
// (kRequestBytes), a store, a context save and every response carry a full line.
#pragma once
#include <cstdint>

#include "sched/scheduler_port.hpp"

namespace gs::mem {

enum class PacketKind : uint8_t {
  kLoad,            // SM -> slice: read a line (id = L1 MSHR index)
  kStore,           // SM -> slice: write a full line (tag completes when the slice accepts it)
  kCtxSave,         // SM -> slice -> DRAM write, caches bypassed (id = context slot)
  kCtxRestore,      // SM -> slice -> DRAM read, caches bypassed (id = context slot)
  kLoadResp,        // slice -> SM: line data for L1 MSHR `id`
  kCtxRestoreResp,  // slice -> SM: one line of a context restore for slot `id`
};

/// Whether a bypass level goes around the L1 / the L2 (bypass_level_e, rtl/spec/gs_spec.toml).
/// A request goes around a bypassed level to the next one: around L1 to the L2 slice, around
/// L2 to DRAM, around both to DRAM.
constexpr bool bypasses_l1(BypassLevel l) { return l == BypassLevel::kL1 || l == BypassLevel::kL1L2; }
constexpr bool bypasses_l2(BypassLevel l) { return l == BypassLevel::kL2 || l == BypassLevel::kL1L2; }

/// Header-only packets (read requests) are this many bytes on the crossbar.
constexpr uint32_t kRequestBytes = 8;

struct Packet {
  uint64_t ready = 0;  // cycle from which the packet may move on (set by each stage)
  uint64_t line = 0;   // global line address
  uint64_t local = 0;  // byte address inside its channel (AddressMap::local)
  uint64_t tag = 0;    // store: the SM's tag
  uint16_t sm = 0;
  KernelId kernel = 0;
  uint16_t id = 0;       // L1 MSHR index or context slot
  uint16_t channel = 0;  // channel == L2 slice
  PacketKind kind = PacketKind::kLoad;
  BypassLevel bypass = BypassLevel::kNone;

  bool carries_line() const { return kind != PacketKind::kLoad && kind != PacketKind::kCtxRestore; }
  uint32_t wire_bytes(uint32_t line_bytes) const { return carries_line() ? line_bytes : kRequestBytes; }
};

}  // namespace gs::mem
