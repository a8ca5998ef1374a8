// gsched golden twin of rtl/lib/gs_chunk_add.sv: a running sum added in chunks whose carries
// move up a cycle later (docs/rtl/gs_chunk_add.md).
#pragma once
#include <cstdint>

namespace gs::golden {

/// One lane of gs_chunk_add: `sum` + `add` in `chunks` chunks of `chunk_w` bits, chunk i > 0
/// also taking bit i-1 of `cy_in` (the carry out of chunk i-1 of the cycle before). Returns the
/// new sum, wrapped at `width` bits (the top chunk's carry is dropped); `cy_out` gets bit i = the
/// carry out of chunk i, for i < chunks - 1. The callers' sums are narrower than 64 bits
/// (chunks x chunk_w < 64).
inline uint64_t chunk_add(uint64_t sum, uint64_t add, uint32_t cy_in, uint32_t chunks, uint32_t chunk_w, uint32_t width,
                          uint32_t& cy_out) {
  const uint64_t chunk_mask = (uint64_t{1} << chunk_w) - 1;
  uint64_t out = 0;
  cy_out = 0;
  for (uint32_t i = 0; i < chunks; ++i) {
    const uint64_t cin = i == 0 ? 0 : (cy_in >> (i - 1) & 1u);
    const uint64_t x = (sum >> (i * chunk_w) & chunk_mask) + (add >> (i * chunk_w) & chunk_mask) + cin;
    out |= (x & chunk_mask) << (i * chunk_w);
    if (i + 1 < chunks) cy_out |= uint32_t(x >> chunk_w) << i;
  }
  return out & ((uint64_t{1} << width) - 1);
}

}  // namespace gs::golden
