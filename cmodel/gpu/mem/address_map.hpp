// gsched memory system: physical address -> (channel, address inside the channel, bank, row).
//
// Interleaving (docs/memory.md, "Address mapping"):
//   * the address space is cut into chunks of kChunkBytes (256 B = two 128 B lines, or one
//     line if lines are larger); consecutive chunks go to different channels;
//   * chunk c belongs to group g = c / C (C = channels); inside a group the C chunks take the
//     C channels in a rotation that depends on a hash of g:
//         channel = (c % C + H(g)) % C,   H(g) = (g * 0x9E3779B97F4A7C15) >> 40
//     so every group covers all channels once (a sequential stream is spread perfectly) and
//     a stride that would always land on the same channel under plain modulo (C chunks, or
//     any multiple) is scattered by H;
//   * the address inside the channel is local = g * kChunkBytes + (addr % kChunkBytes): the
//     map (channel, local) is a bijection, and a stream is contiguous inside each channel;
//   * inside a channel: column = local % row_bytes, r = local / row_bytes, row = r / banks,
//         bank = (r % banks + H2(row)) % banks,   H2(x) = (x * 0xC2B2AE3D27D4EB4F) >> 40
//     Consecutive row-sized pieces go to consecutive banks, and the hashed rotation per row
//     keeps streams whose bases are far apart (power-of-two distances especially) from all
//     landing in the same bank.
#pragma once
#include <cstdint>

namespace gs::mem {

struct DramCoord {
  uint16_t channel = 0;
  uint64_t local = 0;  // byte address inside the channel
};

class AddressMap {
 public:
  static constexpr uint32_t kChunkBytes = 256;

  AddressMap(uint32_t channels, uint32_t line_bytes, uint32_t row_bytes, uint32_t banks);

  DramCoord map(uint64_t addr) const;
  uint32_t bank_of(uint64_t local) const {
    const uint64_t r = local / row_bytes_;
    return uint32_t((r % banks_ + (((r / banks_) * 0xC2B2AE3D27D4EB4Full) >> 40)) % banks_);
  }
  uint64_t row_of(uint64_t local) const { return local / row_bytes_ / banks_; }
  uint32_t chunk_bytes() const { return chunk_; }

 private:
  uint32_t channels_, chunk_, row_bytes_, banks_;
};

}  // namespace gs::mem
