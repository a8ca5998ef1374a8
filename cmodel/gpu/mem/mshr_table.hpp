// gsched memory system: miss status holding registers with request merging.
//
// Contract:
//   * `entries` MSHRs, each keyed by a 64-bit key (a line address, possibly with flag bits in
//     its low, always-zero offset bits) and holding up to `merge_slots` targets (the requests
//     waiting for that line, in arrival order);
//   * find(key) returns the entry waiting for that key or -1, through a small open-addressing
//     index (linear probing, at most 1/4 full, backward-shift deletion): O(1) per miss, which
//     matters because every L1 miss of every SM looks here each cycle;
//   * allocate() takes a free entry (caller checks full() first), release() frees it;
//   * all storage is allocated at construction; nothing allocates afterwards.
// The first target of an entry is the one that caused the miss (its SM/kernel are charged
// for the traffic below); the others merged into it.
#pragma once
#include <cstdint>
#include <vector>

namespace gs::mem {

template <class Target>
class MshrTable {
 public:
  static constexpr uint64_t kFree = ~uint64_t(0);

  MshrTable(uint32_t entries, uint32_t merge_slots)
      : slots_(merge_slots), key_(entries, kFree), count_(entries, 0), targets_(size_t(entries) * merge_slots) {
    uint32_t bits = 2;
    while ((1u << bits) < 4 * entries) ++bits;
    shift_ = 64 - bits;
    mask_ = (1u << bits) - 1;
    index_.assign(size_t(mask_) + 1, -1);
    free_.reserve(entries);
    for (uint32_t i = entries; i-- > 0;) free_.push_back(i);
  }

  uint32_t entries() const { return uint32_t(key_.size()); }
  uint32_t merge_slots() const { return slots_; }
  uint32_t in_use() const { return entries() - uint32_t(free_.size()); }
  bool full() const { return free_.empty(); }

  int find(uint64_t key) const {
    for (uint32_t h = home(key);; h = (h + 1) & mask_) {
      const int32_t e = index_[h];
      if (e < 0) return -1;
      if (key_[e] == key) return e;
    }
  }
  int allocate(uint64_t key) {
    const uint32_t i = free_.back();
    free_.pop_back();
    key_[i] = key;
    count_[i] = 0;
    uint32_t h = home(key);
    while (index_[h] >= 0) h = (h + 1) & mask_;
    index_[h] = int32_t(i);
    return int(i);
  }
  bool can_merge(int i) const { return count_[i] < slots_; }
  void add(int i, const Target& t) { targets_[size_t(i) * slots_ + count_[i]++] = t; }
  uint32_t count(int i) const { return count_[i]; }
  const Target& target(int i, uint32_t k) const { return targets_[size_t(i) * slots_ + k]; }
  uint64_t key(int i) const { return key_[i]; }
  void release(int i) {
    unindex(i);
    key_[i] = kFree;
    count_[i] = 0;
    free_.push_back(uint32_t(i));
  }

 private:
  uint32_t home(uint64_t key) const { return uint32_t((key * 0x9E3779B97F4A7C15ull) >> shift_); }
  /// Removes entry i from the index, shifting later probes back (no tombstones).
  void unindex(int i) {
    uint32_t h = home(key_[i]);
    while (index_[h] != i) h = (h + 1) & mask_;
    uint32_t hole = h;
    for (uint32_t j = (hole + 1) & mask_; index_[j] >= 0; j = (j + 1) & mask_) {
      const uint32_t want = home(key_[index_[j]]);
      // Entry at j may move into the hole if its home is not in (hole, j] (cyclically).
      const bool in_between = hole <= j ? (want > hole && want <= j) : (want > hole || want <= j);
      if (!in_between) {
        index_[hole] = index_[j];
        hole = j;
      }
    }
    index_[hole] = -1;
  }

  uint32_t slots_;
  uint32_t shift_ = 62, mask_ = 3;
  std::vector<int32_t> index_;  // open-addressing index: key hash -> entry, -1 = empty
  std::vector<uint64_t> key_;
  std::vector<uint32_t> count_;
  std::vector<Target> targets_;
  std::vector<uint32_t> free_;
};

}  // namespace gs::mem
