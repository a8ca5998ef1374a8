// gsched memory system: set-associative tag array with true LRU (see set_assoc_cache.hpp).
#include "gpu/mem/set_assoc_cache.hpp"

#include <string>

#include "common/error.hpp"

namespace gs::mem {

SetAssocCache::SetAssocCache(uint32_t size_bytes, uint32_t assoc, uint32_t line_bytes, const char* what) {
  if (assoc == 0 || line_bytes == 0 || size_bytes % (uint64_t(assoc) * line_bytes) != 0 ||
      size_bytes / (uint64_t(assoc) * line_bytes) == 0)
    throw InputError(std::string(what) + ": size " + std::to_string(size_bytes) +
                     " B is not a whole number (>= 1) of sets of " + std::to_string(assoc) + " x " +
                     std::to_string(line_bytes) + " B lines");
  assoc_ = assoc;
  active_ways_ = assoc;
  sets_ = uint32_t(size_bytes / (uint64_t(assoc) * line_bytes));
  sets_pow2_ = (sets_ & (sets_ - 1)) == 0;
  const size_t ways = size_t(sets_) * assoc_;
  tag_.assign(ways, kInvalid);
  lru_.assign(ways, 0);
  dirty_.assign(ways, 0);
  meta_.assign(ways, 0);
}

int SetAssocCache::find_way(uint64_t line, uint32_t set) const {
  const uint64_t* t = &tag_[size_t(set) * assoc_];
  for (uint32_t w = 0; w < active_ways_; ++w)
    if (t[w] == line) return int(w);
  return -1;
}

bool SetAssocCache::lookup(uint64_t line, uint64_t set_key, bool touch) {
  ++lookups_;
  const uint32_t set = set_of(set_key);
  const int w = find_way(line, set);
  if (w < 0) return false;
  if (touch) lru_[size_t(set) * assoc_ + w] = ++stamp_;
  return true;
}

SetAssocCache::Victim SetAssocCache::insert(uint64_t line, uint64_t set_key, bool dirty, uint32_t meta) {
  if (active_ways_ == 0) return Victim{};  // no capacity: the line is not kept
  const uint32_t set = set_of(set_key);
  const size_t base = size_t(set) * assoc_;
  size_t victim = base;
  for (uint32_t w = 0; w < active_ways_; ++w) {
    const size_t i = base + w;
    if (tag_[i] == kInvalid) {
      victim = i;
      break;
    }
    if (lru_[i] < lru_[victim]) victim = i;
  }
  Victim out;
  if (tag_[victim] != kInvalid) {
    out.valid = true;
    out.dirty = dirty_[victim] != 0;
    out.line = tag_[victim];
    out.meta = meta_[victim];
  }
  tag_[victim] = line;
  lru_[victim] = ++stamp_;
  dirty_[victim] = dirty ? 1 : 0;
  meta_[victim] = meta;
  return out;
}

bool SetAssocCache::mark_dirty(uint64_t line, uint64_t set_key, uint32_t meta) {
  const uint32_t set = set_of(set_key);
  const int w = find_way(line, set);
  if (w < 0) return false;
  const size_t i = size_t(set) * assoc_ + w;
  dirty_[i] = 1;
  meta_[i] = meta;
  return true;
}

void SetAssocCache::set_active_ways(uint32_t ways) {
  if (ways > assoc_) ways = assoc_;
  // Ways switched off lose their lines (only the L1 shrinks, and it is never dirty).
  for (uint32_t set = 0; set < sets_ && ways < active_ways_; ++set)
    for (uint32_t w = ways; w < active_ways_; ++w) tag_[size_t(set) * assoc_ + w] = kInvalid;
  active_ways_ = ways;
}

uint32_t SetAssocCache::valid_lines() const {
  uint32_t n = 0;
  for (uint64_t t : tag_) n += (t != kInvalid);
  return n;
}

}  // namespace gs::mem
