// gsched memory system: wiring and the per-cycle order of the blocks (see memory_system.hpp).
#include "gpu/mem/memory_system.hpp"

#include <string>

#include "common/error.hpp"

namespace gs {

namespace {
constexpr uint32_t kSliceInboxDepth = 32;  // L2 slice input queue (crossbar credits)

const GpuConfig& validated(const GpuConfig& cfg) {
  if (cfg.num_sms() == 0) throw InputError("memory system: the GPU has no SMs");
  if (cfg.line_bytes < 4 || (cfg.line_bytes & (cfg.line_bytes - 1)) != 0)
    throw InputError("memory system: line_bytes must be a power of two >= 4");
  if (cfg.xbar_bytes_per_cycle == 0) throw InputError("memory system: xbar_bytes_per_cycle must be > 0");
  return cfg;
}
}  // namespace

MemorySystem::MemorySystem(const GpuConfig& cfg, CounterBank& counters)
    : cfg_(validated(cfg)), ctx_(counters, cfg.num_sms()), timing_(mem::DramTiming::from_config(cfg)),
      map_(cfg.dram_channels, cfg.line_bytes, cfg.dram_row_bytes, cfg.dram_banks),
      up_(cfg.num_sms(), cfg.dram_channels, cfg.xbar_bytes_per_cycle, cfg.xbar_latency, cfg.line_bytes,
          kSliceInboxDepth),
      down_(cfg.dram_channels, cfg.num_sms(), cfg.xbar_bytes_per_cycle, cfg.xbar_latency, cfg.line_bytes, 0),
      line_mask_(uint64_t(cfg.line_bytes) - 1) {
  bypass_.assign(size_t(counters.sms()) * counters.kernels(), BypassLevel::kNone);
  for (uint32_t s = 0; s < cfg.num_sms(); ++s) {
    l1_.push_back(std::make_unique<mem::L1Cache>(s, cfg, map_, ctx_));
    ctxe_.push_back(std::make_unique<mem::ContextEngine>(s, cfg.line_bytes, map_, ctx_));
  }
  for (uint32_t c = 0; c < cfg.dram_channels; ++c) {
    l2_.push_back(std::make_unique<mem::L2Slice>(c, cfg, map_, ctx_));
    dram_.push_back(std::make_unique<mem::DramChannel>(timing_, cfg.dram_banks, cfg.dram_queue_depth));
  }
}

MemorySystem::~MemorySystem() = default;

bool MemorySystem::access(uint32_t sm, const MemAccess& a) {
  if (sm >= l1_.size() || a.kernel >= ctx_.counters.kernels() || sm >= ctx_.counters.sms())
    throw InvariantError("memory access from SM " + std::to_string(sm) + " for kernel " + std::to_string(a.kernel) +
                         " outside the counter bank");
  if (a.line_addr & line_mask_)
    throw InvariantError("memory access to unaligned line address " + std::to_string(a.line_addr));
  const BypassLevel level = bypass_[size_t(sm) * ctx_.counters.kernels() + a.kernel];
  return l1_[sm]->access(next_cycle_, a, level);
}

void MemorySystem::context_transfer(uint32_t sm, const ContextTransfer& t) {
  if (sm >= ctxe_.size() || t.kernel >= ctx_.counters.kernels())
    throw InvariantError("context transfer for SM " + std::to_string(sm) + " kernel " + std::to_string(t.kernel) +
                         " outside the counter bank");
  ctxe_[sm]->start(t);
}

void MemorySystem::take_completions(uint32_t sm, std::vector<uint64_t>& out) {
  std::vector<uint64_t>& done = ctx_.completions[sm];
  out.assign(done.begin(), done.end());
  done.clear();
}

void MemorySystem::set_bypass(uint32_t sm, KernelId kernel, BypassLevel level) {
  if (sm >= ctx_.counters.sms() || kernel >= ctx_.counters.kernels())
    throw InvariantError("cache bypass for SM " + std::to_string(sm) + " kernel " + std::to_string(kernel) +
                         " outside the counter bank");
  bypass_[size_t(sm) * ctx_.counters.kernels() + kernel] = level;
}

void MemorySystem::route_dram_done(uint32_t ch, const mem::DramRequest& r) {
  ctx_.ctr(r.charge_sm, r.charge_kernel).dram_bytes += cfg_.line_bytes;
  switch (r.source) {
    case mem::DramSource::kL2Fill:
    case mem::DramSource::kBypassLoad:
    case mem::DramSource::kCtxRestore: l2_[ch]->on_dram_read_done(r, now_); break;
    case mem::DramSource::kCtxSave: ctxe_[r.pkt.sm]->on_line_done(r.pkt.id); break;
    case mem::DramSource::kWriteback:
    case mem::DramSource::kBypassStore: ctx_.live.fetch_sub(1, std::memory_order_relaxed); break;
  }
}

void MemorySystem::tick(uint64_t cycle) {
  if (ctx_.live != 0)  // fast path: nothing anywhere
    for (uint32_t s = 0; s < uint32_t(l1_.size()); ++s) tick_sm(s, cycle);
  tick_shared(cycle);
}

// 1. SM side: responses that arrived, then L1 hits whose latency elapsed. Only SM s's inbox,
// L1 and context engine, plus the atomic job count (mem_context.hpp): safe beside other SMs.
void MemorySystem::tick_sm(uint32_t s, uint64_t cycle) {
  mem::RingFifo<mem::Packet>& in = down_.inbox(s);
  while (!in.empty() && in.front().ready <= cycle) {
    const mem::Packet& p = in.front();
    if (p.kind == mem::PacketKind::kCtxRestoreResp) ctxe_[s]->on_line_done(p.id);
    else l1_[s]->on_response(p);
    in.pop();
  }
  l1_[s]->tick(cycle);
}

void MemorySystem::tick_shared(uint64_t cycle) {
  now_ = cycle;
  next_cycle_ = cycle + 1;
  if (ctx_.live == 0) return;  // fast path: nothing anywhere
  const uint32_t sms = uint32_t(l1_.size());
  const uint32_t chans = uint32_t(dram_.size());

  // 2. DRAM results to their owners; 3. slice tag pipelines; 4. slice -> DRAM queues;
  // 5. DRAM command scheduling.
  for (uint32_t c = 0; c < chans; ++c) {
    mem::DramChannel& d = *dram_[c];
    while (d.has_done(cycle)) {
      route_dram_done(c, d.done_front());
      d.pop_done();
    }
    mem::L2Slice& l2 = *l2_[c];
    l2.tick(cycle, up_.inbox(c));
    mem::RingFifo<mem::DramRequest>& q = l2.to_dram();
    if (!q.empty() && q.front().ready <= cycle && d.can_accept()) {
      d.enqueue(q.front(), cycle);
      q.pop();
    }
    d.tick(cycle);
  }
  // 6. context engines feed their SM's output queue.
  for (uint32_t s = 0; s < sms; ++s)
    if (!ctxe_[s]->idle()) ctxe_[s]->tick(cycle, *l1_[s]);
  // 7. crossbar, both directions.
  up_.tick(
      cycle, [&](uint32_t s) { return l1_[s]->out_head(cycle); }, [&](uint32_t s) { l1_[s]->pop_out(); },
      [](const mem::Packet& p) { return uint32_t(p.channel); });
  down_.tick(
      cycle, [&](uint32_t c) { return l2_[c]->resp_head(cycle); }, [&](uint32_t c) { l2_[c]->pop_resp(); },
      [](const mem::Packet& p) { return uint32_t(p.sm); });
}

std::unique_ptr<MemoryIface> make_memory_system(const GpuConfig& cfg, CounterBank& counters) {
  return std::make_unique<MemorySystem>(cfg, counters);
}

uint64_t MemorySystem::dram_bytes_total() const {
  uint64_t n = 0;
  for (const auto& d : dram_) n += (d->stats().reads + d->stats().writes) * cfg_.line_bytes;
  return n;
}

void MemorySystem::dram_counters(std::vector<DramChannelCounters>& out) const {
  out.clear();
  for (const auto& d : dram_) {
    const mem::DramStats& s = d->stats();
    out.push_back(DramChannelCounters{s.reads, s.writes, s.activates, s.precharges, s.row_hits});
  }
}

bool MemorySystem::all_queues_empty() const {
  for (size_t s = 0; s < l1_.size(); ++s)
    if (!l1_[s]->idle() || !ctxe_[s]->idle()) return false;
  for (size_t c = 0; c < l2_.size(); ++c)
    if (!l2_[c]->idle() || !dram_[c]->idle()) return false;
  return up_.idle() && down_.idle();
}

uint64_t MemorySystem::unloaded_l2_hit_latency(uint32_t sm) const {
  const uint32_t B = cfg_.xbar_bytes_per_cycle;
  return uint64_t(cfg_.sm(sm).l1_hit_latency) + cfg_.xbar_latency + (mem::kRequestBytes + B - 1) / B +
         cfg_.l2_hit_latency + cfg_.xbar_latency + (cfg_.line_bytes + B - 1) / B;
}

uint64_t MemorySystem::unloaded_dram_latency(uint32_t sm) const {
  return unloaded_l2_hit_latency(sm) + timing_.tRCD + timing_.tCL + timing_.burst;
}

}  // namespace gs
