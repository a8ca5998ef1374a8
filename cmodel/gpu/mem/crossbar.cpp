// gsched memory system: crossbar construction and idle check (arbitration is in the header).
#include "gpu/mem/crossbar.hpp"

#include "common/error.hpp"

namespace gs::mem {

Crossbar::Crossbar(uint32_t sources, uint32_t dests, uint32_t bytes_per_cycle, uint32_t latency, uint32_t line_bytes,
                   uint32_t dest_capacity)
    : n_src_(sources), n_dst_(dests), bpc_(bytes_per_cycle), latency_(latency), line_bytes_(line_bytes),
      dest_cap_(dest_capacity), src_busy_(sources, 0), dst_busy_(dests, 0), rr_(dests, 0), want_(sources, -1),
      wanted_(dests, 0) {
  if (bytes_per_cycle == 0) throw InputError("memory system: xbar_bytes_per_cycle must be > 0");
  inbox_.reserve(dests);
  for (uint32_t d = 0; d < dests; ++d) inbox_.emplace_back(dest_capacity ? dest_capacity : 64);
}

bool Crossbar::idle() const {
  for (const auto& q : inbox_)
    if (!q.empty()) return false;
  return true;
}

}  // namespace gs::mem
