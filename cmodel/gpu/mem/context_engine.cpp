// gsched memory system: context save/restore engine (see context_engine.hpp).
#include "gpu/mem/context_engine.hpp"

namespace gs::mem {

ContextEngine::ContextEngine(uint32_t sm, uint32_t line_bytes, const AddressMap& map, MemContext& ctx)
    : sm_(sm), line_bytes_(line_bytes), map_(map), ctx_(ctx), pending_(16), issue_order_(kSlots) {}

void ContextEngine::start(const ContextTransfer& t) {
  ctx_.live.fetch_add(1, std::memory_order_relaxed);
  pending_.push(t);
}

void ContextEngine::tick(uint64_t now, L1Cache& l1) {
  // Move queued transfers into free slots, in order.
  while (!pending_.empty() && active_ < kSlots) {
    const ContextTransfer& t = pending_.front();
    const uint32_t lines = (t.bytes + line_bytes_ - 1) / line_bytes_;
    if (lines == 0) {
      ctx_.complete(sm_, t.tag);
      pending_.pop();
      continue;
    }
    uint32_t s = 0;
    while (slots_[s].busy) ++s;
    slots_[s] = Slot{true, t.save, t.kernel, t.tag, lines, 0};
    issue_order_.push(uint8_t(s));
    ++active_;
    pending_.pop();
  }
  if (issue_order_.empty() || in_flight_ >= kMaxOutstanding || !l1.can_push_ctx()) return;

  const uint8_t s = issue_order_.front();
  Slot& slot = slots_[s];
  const uint64_t addr = kSaveBase + uint64_t(sm_) * kSaveSpan + cursor_;
  cursor_ = (cursor_ + line_bytes_) % kSaveSpan;
  const DramCoord c = map_.map(addr);
  Packet p;
  p.line = addr;
  p.local = c.local;
  p.channel = c.channel;
  p.sm = uint16_t(sm_);
  p.kernel = slot.kernel;
  p.id = s;
  p.kind = slot.save ? PacketKind::kCtxSave : PacketKind::kCtxRestore;
  p.bypass = BypassLevel::kL1L2;
  l1.push_ctx(p, now);
  ++slot.outstanding;
  ++in_flight_;
  if (--slot.lines_left == 0) issue_order_.pop();
}

void ContextEngine::on_line_done(uint16_t s) {
  Slot& slot = slots_[s];
  --slot.outstanding;
  --in_flight_;
  if (slot.lines_left == 0 && slot.outstanding == 0) {
    ctx_.complete(sm_, slot.tag);
    slot.busy = false;
    --active_;
  }
}

}  // namespace gs::mem
