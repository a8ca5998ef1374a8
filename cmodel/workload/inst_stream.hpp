// gsched: synthetic per-warp instruction streams.
//
// Contract: instruction i of warp w of CTA c of a kernel is a PURE FUNCTION of (kernel seed,
// c, w, i) and the KernelDesc -- no state, no history. Its type follows the descriptor's
// per-mille mix; a global access's line addresses follow its MemPattern. Purity is what makes
// a context switch cheap to model: a resumed warp simply continues at its saved index, on any
// SM. The kernel seed must not depend on the SM (the Sm derives it from the run seed and the
// kernel id).
//
// Address patterns (all lines inside the kernel's own address region `addr_base`):
//   streaming   grid-stride walk: the n-th global access of warp g (global warp number; n counts
//               the warp's loads and stores before it, a pure function of (c, w, i) too) touches
//               lines (n * total_warps + g) * lines_per_access + j, wrapped into footprint_bytes
//               -- neighbouring warps' n-th accesses are adjacent, so the warps that run together
//               cover whole DRAM rows (a coalesced stream), and nothing is touched twice;
//   tiled       the warps of a CTA sweep the CTA's tile of tile_bytes in order, repeatedly;
//   random      uniformly random lines over footprint_bytes (shared by all CTAs);
//   per-CTA ws  uniformly random lines over the CTA's private ws_bytes working set.
// A warp access touches lines_per_access consecutive distinct lines (coalescing degree).
#pragma once
#include <cstdint>

#include "common/rng.hpp"
#include "workload/kernel_desc.hpp"

namespace gs {

enum class InstType : uint8_t {
  kAlu = 0,
  kSfu,
  kLoad,    // global load
  kStore,   // global store
  kShared,  // shared-memory op
  kCount
};
const char* inst_type_name(InstType t);

class InstStream {
 public:
  /// `kernel_seed` selects the stream; `addr_base` is the first byte of the kernel's address
  /// region (line-aligned); `line_bytes` and `warp_size` come from the GpuConfig.
  InstStream(const KernelDesc& k, uint64_t kernel_seed, uint64_t addr_base, uint32_t line_bytes, uint32_t warp_size);

  /// Instructions each warp of CTA `cta` executes: insts_per_warp, times (cta mod
  /// cta_work_cycle + 1) when cta_work_cycle is set, varied per CTA by up to
  /// +-cta_spread_pct percent (deterministic in the seed and cta), at least 1.
  uint32_t length(uint32_t cta) const;

  /// Per-warp hash key; computing it once per warp makes type()/line() cheap per instruction.
  uint64_t warp_key(uint32_t cta, uint32_t warp) const { return Rng::mix(Rng::mix(seed_, 0x100000000ull + cta), warp); }
  InstType type(uint64_t warp_key, uint32_t i) const {
    const uint64_t h = hash(warp_key, i);
    const uint32_t r = static_cast<uint32_t>((h & 0xFFFFFFFFu) % 1000);
    if (r < sfu_end_) return InstType::kSfu;
    if (r < ldst_end_) {
      const uint32_t s = static_cast<uint32_t>((h >> 32) % 1000);
      return s < store_permille_ ? InstType::kStore : InstType::kLoad;
    }
    if (r < shared_end_) return InstType::kShared;
    return InstType::kAlu;
  }
  InstType type(uint32_t cta, uint32_t warp, uint32_t i) const { return type(warp_key(cta, warp), i); }

  /// Byte address of line j (0 <= j < lines_per_access()) of the global access at index i,
  /// which is the warp's n-th global access (n = accesses_before(warp_key, i); the SM keeps n
  /// per warp so the per-cycle path never scans).
  uint64_t line_addr(uint64_t warp_key, uint32_t cta, uint32_t warp, uint32_t i, uint32_t n, uint32_t j) const;
  uint64_t line_addr(uint32_t cta, uint32_t warp, uint32_t i, uint32_t j) const {
    const uint64_t key = warp_key(cta, warp);
    return line_addr(key, cta, warp, i, accesses_before(key, i), j);
  }
  /// Global accesses (loads and stores) among instructions [0, i) of a warp: O(i), used when a
  /// saved warp resumes at instruction i.
  uint32_t accesses_before(uint64_t warp_key, uint32_t i) const {
    uint32_t n = 0;
    for (uint32_t x = 0; x < i; ++x) {
      const InstType t = type(warp_key, x);
      n += (t == InstType::kLoad || t == InstType::kStore) ? 1 : 0;
    }
    return n;
  }

  uint32_t lines_per_access() const { return lines_per_access_; }
  uint32_t warps_per_cta() const { return warps_per_cta_; }
  const KernelDesc& desc() const { return *desc_; }

 private:
  static uint64_t hash(uint64_t key, uint64_t i) { return Rng::mix(key, i); }

  const KernelDesc* desc_;
  uint64_t seed_;
  uint64_t addr_base_;
  uint32_t line_bytes_;
  uint32_t warps_per_cta_;
  uint32_t lines_per_access_;
  uint32_t sfu_end_, ldst_end_, shared_end_, store_permille_;
  uint64_t footprint_lines_, tile_lines_, ws_lines_;
  uint64_t total_warps_;
};

}  // namespace gs
