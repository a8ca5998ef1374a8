// gsched memory system: address interleaving (see address_map.hpp for the formulas).
#include "gpu/mem/address_map.hpp"

#include <algorithm>
#include <string>

#include "common/error.hpp"

namespace gs::mem {

AddressMap::AddressMap(uint32_t channels, uint32_t line_bytes, uint32_t row_bytes, uint32_t banks)
    : channels_(channels), chunk_(std::max(kChunkBytes, line_bytes)), row_bytes_(row_bytes), banks_(banks) {
  if (channels == 0) throw InputError("memory system: dram_channels must be >= 1");
  if (banks == 0) throw InputError("memory system: dram_banks must be >= 1");
  if (line_bytes == 0 || chunk_ % line_bytes != 0)
    throw InputError("memory system: line_bytes must divide the 256 B interleaving chunk");
  if (row_bytes < chunk_ || row_bytes % chunk_ != 0)
    throw InputError("memory system: dram_row_bytes must be a multiple of " + std::to_string(chunk_));
}

DramCoord AddressMap::map(uint64_t addr) const {
  const uint64_t chunk = addr / chunk_;
  const uint64_t group = chunk / channels_;
  const uint64_t rot = (group * 0x9E3779B97F4A7C15ull) >> 40;
  DramCoord c;
  c.channel = uint16_t((chunk % channels_ + rot) % channels_);
  c.local = group * chunk_ + addr % chunk_;
  return c;
}

}  // namespace gs::mem
