// gsched: synthetic per-warp instruction streams (contract in inst_stream.hpp).
#include "workload/inst_stream.hpp"

#include <algorithm>

#include "common/error.hpp"

namespace gs {

const char* inst_type_name(InstType t) {
  switch (t) {
    case InstType::kAlu: return "alu";
    case InstType::kSfu: return "sfu";
    case InstType::kLoad: return "load";
    case InstType::kStore: return "store";
    case InstType::kShared: return "shared";
    default: return "?";
  }
}

namespace {
uint64_t lines_in(uint64_t bytes, uint32_t line_bytes) { return std::max<uint64_t>(1, bytes / line_bytes); }
}  // namespace

InstStream::InstStream(const KernelDesc& k, uint64_t kernel_seed, uint64_t addr_base, uint32_t line_bytes,
                       uint32_t warp_size)
    : desc_(&k), seed_(kernel_seed), addr_base_(addr_base), line_bytes_(line_bytes) {
  if (k.sfu_permille + k.ldst_permille + k.shmem_permille > 1000)
    throw InputError("kernel '" + k.name + "': sfu + ldst + shmem per-mille exceeds 1000");
  warps_per_cta_ = k.warps_per_cta(warp_size);
  lines_per_access_ = std::max<uint32_t>(1, std::min<uint32_t>(k.lines_per_access, warp_size));
  sfu_end_ = k.sfu_permille;
  ldst_end_ = sfu_end_ + k.ldst_permille;
  shared_end_ = ldst_end_ + k.shmem_permille;
  store_permille_ = k.store_permille;
  footprint_lines_ = lines_in(k.footprint_bytes, line_bytes);
  tile_lines_ = lines_in(k.tile_bytes, line_bytes);
  ws_lines_ = lines_in(k.ws_bytes, line_bytes);
  total_warps_ = uint64_t(std::max<uint32_t>(1, k.grid_ctas)) * warps_per_cta_;
}

uint32_t InstStream::length(uint32_t cta) const {
  const KernelDesc& k = *desc_;
  // cta_work_cycle: CTA c does (c mod cycle + 1) units of insts_per_warp (a deterministic,
  // index-driven imbalance such as the H100 trace's "uneven" kernel).
  const int64_t base = int64_t(k.insts_per_warp) * (k.cta_work_cycle ? cta % k.cta_work_cycle + 1 : 1);
  if (k.cta_spread_pct == 0) return static_cast<uint32_t>(std::max<int64_t>(1, base));
  // Offset in per-mille of the base length, uniform in [-10*spread, +10*spread].
  const int64_t span = int64_t(k.cta_spread_pct) * 10;
  const int64_t off = int64_t(Rng::mix(seed_, cta) % uint64_t(2 * span + 1)) - span;
  const int64_t len = base * (1000 + off) / 1000;
  return static_cast<uint32_t>(std::max<int64_t>(1, len));
}

uint64_t InstStream::line_addr(uint64_t warp_key, uint32_t cta, uint32_t warp, uint32_t i, uint32_t n,
                               uint32_t j) const {
  const KernelDesc& k = *desc_;
  uint64_t line = 0;
  switch (k.pattern) {
    case MemPattern::kStreaming: {
      const uint64_t g = uint64_t(cta) * warps_per_cta_ + warp;
      line = ((uint64_t(n) * total_warps_ + g) * lines_per_access_ + j) % footprint_lines_;
      break;
    }
    case MemPattern::kTiled: {
      // The CTA's warps sweep its tile together, in order, over and over (reuse within a CTA).
      const uint64_t pos = (uint64_t(i) * warps_per_cta_ + warp) * lines_per_access_ + j;
      line = uint64_t(cta) * tile_lines_ + pos % tile_lines_;
      break;
    }
    case MemPattern::kRandom: line = (Rng::mix(warp_key ^ 0xA5A5A5A5ull, i) + j) % footprint_lines_; break;
    case MemPattern::kPerCtaWs:
      line = uint64_t(cta) * ws_lines_ + (Rng::mix(warp_key ^ 0x5A5A5A5Aull, i) + j) % ws_lines_;
      break;
  }
  return addr_base_ + line * line_bytes_;
}

}  // namespace gs
