// gsched memory system: per-SM L1 (see l1_cache.hpp for the contract).
#include "gpu/mem/l1_cache.hpp"

#include <algorithm>
#include <string>

namespace gs::mem {

L1Cache::L1Cache(uint32_t sm, const GpuConfig& cfg, const AddressMap& map, MemContext& ctx)
    : sm_(sm), line_bytes_(cfg.line_bytes), hit_latency_(cfg.sm(sm).l1_hit_latency),
      out_cap_(std::max<uint32_t>(cfg.sm(sm).l1_mshrs, 32)),
      way_bytes_(cfg.sm(sm).l1_size_bytes / std::max<uint32_t>(cfg.sm(sm).l1_assoc, 1)), map_(map), ctx_(ctx),
      cache_(cfg.sm(sm).l1_size_bytes, cfg.sm(sm).l1_assoc, cfg.line_bytes, ("L1 of SM " + std::to_string(sm)).c_str()),
      mshr_(std::max<uint32_t>(cfg.sm(sm).l1_mshrs, 1), kMergeSlots), hits_(64), out_(out_cap_) {}

Packet L1Cache::make_packet(uint64_t now, const MemAccess& a, PacketKind kind, BypassLevel level) const {
  Packet p;
  const DramCoord c = map_.map(a.line_addr);
  p.ready = now + hit_latency_;
  p.line = a.line_addr;
  p.local = c.local;
  p.channel = c.channel;
  p.tag = a.tag;
  p.sm = uint16_t(sm_);
  p.kernel = a.kernel;
  p.kind = kind;
  p.bypass = level;
  return p;
}

bool L1Cache::access(uint64_t now, const MemAccess& a, BypassLevel level) {
  if (port_used_at_ == now) return false;
  const bool ok = a.write ? store(now, a, level) : load(now, a, level);
  if (ok) {
    port_used_at_ = now;
    ctx_.live.fetch_add(1, std::memory_order_relaxed);
  }
  return ok;
}

bool L1Cache::load(uint64_t now, const MemAccess& a, BypassLevel level) {
  const bool cached = !bypasses_l1(level);
  const uint64_t line_index = a.line_addr / line_bytes_;
  if (cached && cache_.lookup(a.line_addr, line_index, true)) {
    ++ctx_.ctr(sm_, a.kernel).l1_accesses;
    hits_.push({now + hit_latency_, a.tag});
    return true;
  }
  // Bypassed loads merge only with loads of the same level: the low (offset) bits of the
  // key hold the level, so a bypassed MSHR never fills L1 for a cached one.
  const uint64_t key = a.line_addr | uint64_t(level);
  int m = mshr_.find(key);
  if (m >= 0) {
    if (!mshr_.can_merge(m)) return false;
  } else {
    if (mshr_.full() || out_.size() >= out_cap_) return false;
    m = mshr_.allocate(key);
    Packet p = make_packet(now, a, PacketKind::kLoad, level);
    p.id = uint16_t(m);
    out_.push(p);
  }
  mshr_.add(m, a.tag);
  KernelSmCounters& c = ctx_.ctr(sm_, a.kernel);
  if (cached) {
    ++c.l1_accesses;
    ++c.l1_misses;
  } else {
    ++c.l1_bypassed;
  }
  return true;
}

bool L1Cache::store(uint64_t now, const MemAccess& a, BypassLevel level) {
  if (out_.size() >= out_cap_) return false;
  KernelSmCounters& c = ctx_.ctr(sm_, a.kernel);
  if (bypasses_l1(level)) {
    ++c.l1_bypassed;
  } else {
    ++c.l1_accesses;
    if (!cache_.lookup(a.line_addr, a.line_addr / line_bytes_, true)) ++c.l1_misses;
  }
  out_.push(make_packet(now, a, PacketKind::kStore, level));
  return true;
}

void L1Cache::on_response(const Packet& p) {
  const int m = p.id;
  const uint64_t key = mshr_.key(m);
  const uint64_t line = key & ~uint64_t(3);
  const BypassLevel level = static_cast<BypassLevel>(key & 3);
  if (!bypasses_l1(level) && !cache_.lookup(line, line / line_bytes_, true))
    cache_.insert(line, line / line_bytes_, false, 0);
  for (uint32_t k = 0; k < mshr_.count(m); ++k) ctx_.complete(sm_, mshr_.target(m, k));
  mshr_.release(m);
}

void L1Cache::complete_hits(uint64_t now) {
  while (!hits_.empty() && hits_.front().ready <= now) {
    ctx_.complete(sm_, hits_.front().tag);
    hits_.pop();
  }
}

void L1Cache::push_ctx(Packet p, uint64_t now) {
  p.ready = now + hit_latency_;
  out_.push(p);
}

}  // namespace gs::mem
