// gsched memory system: a set-associative tag array with true LRU replacement.
//
// Holds tags only (the model moves no data). Used by the per-SM L1 and by every L2 slice.
// Contract:
//   * a line is identified by its full line address `line` (unique), and placed in the set
//     `set_key % sets()`; the caller chooses set_key (L1: global line index, L2: the line
//     index inside its channel, so each slice's sets are used evenly);
//   * lookup() with touch=true makes the line most recently used;
//   * insert() places a line that is not present, evicting the least recently used way of
//     its set (invalid ways first) and returning what was evicted (valid, dirty, meta);
//   * each line carries a dirty bit and a 32-bit `meta` word (L2: who dirtied it, so a
//     write-back's DRAM bytes are charged to that SM and kernel).
// Capacity can shrink and grow by whole ways (set_active_ways: the unified L1/shared-memory
// array of a config with l1_carveout "dynamic"): lookups and victims use ways [0, active) only.
// LRU is exact: every touch stamps the way with a 64-bit access counter; the victim is the
// way with the smallest stamp (assoc is small, so the linear scan is cheap).
#pragma once
#include <cstdint>
#include <vector>

namespace gs::mem {

class SetAssocCache {
 public:
  struct Victim {
    bool valid = false;
    bool dirty = false;
    uint64_t line = 0;
    uint32_t meta = 0;
  };

  /// Throws gs::InputError if size/assoc/line do not give a whole number (>= 1) of sets.
  SetAssocCache(uint32_t size_bytes, uint32_t assoc, uint32_t line_bytes, const char* what);

  uint32_t sets() const { return sets_; }
  uint32_t assoc() const { return assoc_; }
  uint32_t active_ways() const { return active_ways_; }
  /// Uses only the first `ways` ways of every set (at most assoc()); lines in ways switched off
  /// are dropped without a victim report (callers use it only for caches that are never dirty).
  void set_active_ways(uint32_t ways);

  /// True if `line` is present; touch=true also makes it most recently used.
  bool lookup(uint64_t line, uint64_t set_key, bool touch);
  /// Inserts an absent line as most recently used; returns the evicted way's contents.
  Victim insert(uint64_t line, uint64_t set_key, bool dirty, uint32_t meta);
  /// Marks a present line dirty (and sets its meta); returns false if absent.
  bool mark_dirty(uint64_t line, uint64_t set_key, uint32_t meta);
  /// Number of valid lines (tests, dumps).
  uint32_t valid_lines() const;
  /// lookup() calls so far (tests: a bypassed cache level is never looked up).
  uint64_t lookups() const { return lookups_; }

 private:
  static constexpr uint64_t kInvalid = ~uint64_t(0);
  int find_way(uint64_t line, uint32_t set) const;
  uint32_t set_of(uint64_t set_key) const {
    return sets_pow2_ ? uint32_t(set_key & (sets_ - 1)) : uint32_t(set_key % sets_);
  }

  uint32_t sets_ = 0, assoc_ = 0, active_ways_ = 0;
  bool sets_pow2_ = false;
  uint64_t stamp_ = 0;
  uint64_t lookups_ = 0;
  std::vector<uint64_t> tag_;  // sets*assoc, kInvalid = empty way
  std::vector<uint64_t> lru_;  // last-touch stamp per way
  std::vector<uint8_t> dirty_;
  std::vector<uint32_t> meta_;
};

}  // namespace gs::mem
