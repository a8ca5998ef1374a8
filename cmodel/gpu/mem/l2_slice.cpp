// gsched memory system: L2 slice (see l2_slice.hpp for the contract).
#include "gpu/mem/l2_slice.hpp"

#include <algorithm>
#include <string>

namespace gs::mem {

L2Slice::L2Slice(uint32_t channel, const GpuConfig& cfg, const AddressMap& map, MemContext& ctx)
    : channel_(channel), line_bytes_(cfg.line_bytes), latency_(cfg.l2_hit_latency),
      dram_queue_cap_(2 * std::max<uint32_t>(cfg.l2_mshrs, 1) + 16), map_(map), ctx_(ctx),
      cache_(cfg.l2_slice_bytes, cfg.l2_assoc, cfg.line_bytes, ("L2 slice " + std::to_string(channel)).c_str()),
      mshr_(std::max<uint32_t>(cfg.l2_mshrs, 1), kMergeSlots), to_dram_(dram_queue_cap_), hit_resp_(64),
      fill_resp_(64) {}

void L2Slice::tick(uint64_t now, RingFifo<Packet>& inbox) {
  if (inbox.empty() || inbox.front().ready > now) return;
  // Room for this packet's DRAM request and a write-back, plus one write-back per fill
  // in flight: fills must never find the DRAM-bound queue full.
  if (to_dram_.size() + mshr_.in_use() + 2 > dram_queue_cap_) return;
  if (process(now, inbox.front())) inbox.pop();
}

void L2Slice::to_dram(uint64_t now, const Packet& p, DramSource src, bool write, uint16_t sm, KernelId kernel,
                      uint16_t mshr) {
  DramRequest r;
  r.local = p.local;
  r.bank = map_.bank_of(p.local);
  r.row = map_.row_of(p.local);
  r.write = write;
  r.source = src;
  r.mshr = mshr;
  r.charge_sm = sm;
  r.charge_kernel = kernel;
  r.ready = now + latency_;
  r.pkt = p;
  to_dram_.push(r);
}

void L2Slice::write_back(uint64_t now, const SetAssocCache::Victim& v) {
  Packet p;
  p.line = v.line;
  p.local = map_.map(v.line).local;
  p.channel = uint16_t(channel_);
  ctx_.live.fetch_add(1, std::memory_order_relaxed);  // a DRAM write no tag waits for
  to_dram(now, p, DramSource::kWriteback, true, uint16_t(v.meta >> 16), KernelId(v.meta & 0xFFFF), 0);
}

bool L2Slice::process(uint64_t now, const Packet& p) {
  switch (p.kind) {
    case PacketKind::kCtxSave: to_dram(now, p, DramSource::kCtxSave, true, p.sm, p.kernel, 0); return true;
    case PacketKind::kCtxRestore: to_dram(now, p, DramSource::kCtxRestore, false, p.sm, p.kernel, 0); return true;
    case PacketKind::kStore: {
      if (bypasses_l2(p.bypass)) {
        ++ctx_.ctr(p.sm, p.kernel).l2_bypassed;
        ctx_.live.fetch_add(1, std::memory_order_relaxed);  // the DRAM write outlives the store's tag
        to_dram(now, p, DramSource::kBypassStore, true, p.sm, p.kernel, 0);
      } else {
        KernelSmCounters& c = ctx_.ctr(p.sm, p.kernel);
        ++c.l2_accesses;
        const uint32_t meta = (uint32_t(p.sm) << 16) | p.kernel;
        const uint64_t key = set_key(p.local);
        if (cache_.lookup(p.line, key, true)) {
          cache_.mark_dirty(p.line, key, meta);
        } else {
          ++c.l2_misses;
          const SetAssocCache::Victim v = cache_.insert(p.line, key, true, meta);
          if (v.valid && v.dirty) write_back(now, v);
        }
      }
      ctx_.complete(p.sm, p.tag);
      return true;
    }
    case PacketKind::kLoad: {
      if (bypasses_l2(p.bypass)) {
        ++ctx_.ctr(p.sm, p.kernel).l2_bypassed;
        to_dram(now, p, DramSource::kBypassLoad, false, p.sm, p.kernel, 0);
        return true;
      }
      if (cache_.lookup(p.line, set_key(p.local), true)) {
        ++ctx_.ctr(p.sm, p.kernel).l2_accesses;
        Packet r = p;
        r.kind = PacketKind::kLoadResp;
        r.ready = now + latency_;
        hit_resp_.push(r);
        return true;
      }
      int m = mshr_.find(p.line);
      if (m >= 0) {
        if (!mshr_.can_merge(m)) return false;
      } else {
        if (mshr_.full()) return false;
        m = mshr_.allocate(p.line);
        to_dram(now, p, DramSource::kL2Fill, false, p.sm, p.kernel, uint16_t(m));
      }
      mshr_.add(m, Target{p.sm, p.id, p.kernel});
      KernelSmCounters& c = ctx_.ctr(p.sm, p.kernel);
      ++c.l2_accesses;
      ++c.l2_misses;
      return true;
    }
    default: return true;  // responses never travel towards a slice
  }
}

void L2Slice::on_dram_read_done(const DramRequest& r, uint64_t now) {
  if (r.source == DramSource::kL2Fill) {
    const int m = r.mshr;
    const uint64_t line = mshr_.key(m);
    const uint64_t key = set_key(r.local);
    // A full-line store may have allocated the line while the read was out: keep it.
    if (!cache_.lookup(line, key, true)) {
      const SetAssocCache::Victim v = cache_.insert(line, key, false, 0);
      if (v.valid && v.dirty) write_back(now, v);
    }
    Packet resp = r.pkt;
    resp.kind = PacketKind::kLoadResp;
    resp.ready = now;
    for (uint32_t k = 0; k < mshr_.count(m); ++k) {
      const Target& t = mshr_.target(m, k);
      resp.sm = t.sm;
      resp.id = t.l1_mshr;
      resp.kernel = t.kernel;
      fill_resp_.push(resp);
    }
    mshr_.release(m);
    return;
  }
  Packet resp = r.pkt;  // bypassed load or context restore: answer the requester
  resp.kind = r.source == DramSource::kCtxRestore ? PacketKind::kCtxRestoreResp : PacketKind::kLoadResp;
  resp.ready = now;
  fill_resp_.push(resp);
}

const Packet* L2Slice::resp_head(uint64_t now) {
  const Packet* h = (!hit_resp_.empty() && hit_resp_.front().ready <= now) ? &hit_resp_.front() : nullptr;
  const Packet* f = (!fill_resp_.empty() && fill_resp_.front().ready <= now) ? &fill_resp_.front() : nullptr;
  if (f && (!h || f->ready <= h->ready)) {
    resp_from_fill_ = true;
    return f;
  }
  resp_from_fill_ = false;
  return h;
}

void L2Slice::pop_resp() {
  if (resp_from_fill_) fill_resp_.pop();
  else hit_resp_.pop();
}

bool L2Slice::idle() const {
  return to_dram_.empty() && hit_resp_.empty() && fill_resp_.empty() && mshr_.in_use() == 0;
}

}  // namespace gs::mem
