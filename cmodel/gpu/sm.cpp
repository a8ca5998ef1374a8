// gsched: one streaming multiprocessor (contract in gpu/sm.hpp, model in docs/sm.md).
//
// Per tick: (1) memory completions (load/store lines, context transfers), (2) the LD/ST unit
// sends the next line of its current global access, (3) each warp scheduler issues at most
// one instruction (GTO or LRR) or records one stall cycle, (4) CTAs that are done retire,
// stopped CTAs start saving, preemptions that are complete are reported.
// Hot-path rules: no allocation, flat arrays, schedulers with nothing ready sleep until the
// earliest cycle something can issue (woken early by a load completion or a list change).
#include "gpu/sm.hpp"

#include <algorithm>
#include <functional>
#include <sstream>

#include "common/error.hpp"
#include "common/rng.hpp"
#include "gpu/sm/sm_impl.hpp"

namespace gs {

using namespace sm_detail;

const char* sm_detail::cta_phase_name(CtaPhase s) {
  switch (s) {
    case CtaPhase::kFree: return "free";
    case CtaPhase::kRestoring: return "restoring";
    case CtaPhase::kRunning: return "running";
    case CtaPhase::kStopping: return "stopping";
    case CtaPhase::kSaving: return "saving";
  }
  return "?";
}

Sm::Impl::Impl(uint32_t id_, const GpuConfig& cfg_, MemoryIface& mem_, CounterBank& counters_, uint64_t seed_)
    : id(id_), cfg(cfg_), t(cfg_.sm(id_)), mem(mem_), counters(counters_), seed(seed_),
      alu_occupancy(std::max<uint32_t>(1, cfg_.warp_size / std::max<uint32_t>(1, cfg_.sm(id_).alu_lanes))),
      sfu_occupancy(std::max<uint32_t>(1, cfg_.warp_size / std::max<uint32_t>(1, cfg_.sm(id_).sfu_lanes))),
      ldst_occupancy(std::max<uint32_t>(1, cfg_.warp_size / std::max<uint32_t>(1, cfg_.sm(id_).ldst_lanes))),
      gto(cfg_.sm(id_).warp_sched_policy == WarpSchedPolicy::kGto) {
  if (t.max_warps > 0xFFFF || t.max_ctas > 0xFFFF)
    throw InputError(cfg.file, "sm_types", "max_warps and max_ctas must be below 65536");
  warps.resize(t.max_warps);
  ring.assign(size_t(t.max_warps) * kRing, 0);
  for (uint32_t w = t.max_warps; w-- > 0;) free_warps.push_back(static_cast<uint16_t>(w));
  ctas.resize(t.max_ctas);
  follow_l1_carveout();
  for (auto& c : ctas) c.warps.reserve(t.max_warps);
  scheds.resize(std::max<uint32_t>(1, t.warp_schedulers));
  for (auto& s : scheds) s.warps.reserve(t.max_warps);
  ops.reserve(256);
  free_ops.reserve(256);
  completions.reserve(256);
  preempts.reserve(8);
}

const InstStream& Sm::Impl::stream_for(KernelId k, const KernelDesc& desc) {
  if (k >= streams.size()) {
    streams.resize(size_t(k) + 1);
    stream_desc.resize(size_t(k) + 1, nullptr);
  }
  if (!streams[k] || stream_desc[k] != &desc) {
    if (streams[k] && k < resident.size() && resident[k] > 0)
      throw InvariantError("SM " + std::to_string(id) + ": kernel " + std::to_string(k) +
                           " started with a different descriptor while CTAs of it are resident");
    // The seed must not depend on the SM: a CTA resumed elsewhere continues the same stream.
    const uint64_t kseed = Rng::mix(seed, 0x4B45524E454C0000ull + k);
    const uint64_t base = (uint64_t(k) + 1) << 40;  // a private 1 TiB region per kernel
    streams[k] = std::make_unique<InstStream>(desc, kseed, base, cfg.line_bytes, cfg.warp_size);
    stream_desc[k] = &desc;
  }
  return *streams[k];
}

void Sm::Impl::start_cta(KernelId kernel, const KernelDesc& desc, const CtaResources& r, CtaId cta, uint64_t cycle,
                         const SavedCta* resume) {
  if (!fits(r)) {
    std::ostringstream m;
    m << "SM " << id << ": CTA " << cta << " of kernel " << kernel << " (threads " << r.threads << ", warps " << r.warps
      << ", regs " << r.regs << ", shmem " << r.shmem << ") does not fit; used threads " << used.threads << "/"
      << t.max_threads << ", warps " << used.warps << "/" << t.max_warps << ", regs " << used.regs << "/" << t.registers
      << ", shmem " << used.shmem << "/" << shmem_capacity_for(r.shmem) << ", CTAs " << used.ctas << "/" << t.max_ctas;
    throw InvariantError(m.str());
  }
  if (kernel >= counters.kernels())
    throw InvariantError("SM " + std::to_string(id) + ": kernel id " + std::to_string(kernel) +
                         " outside the counter bank (" + std::to_string(counters.kernels()) + " kernels)");
  const InstStream& st = stream_for(kernel, desc);
  if (r.warps != st.warps_per_cta())
    throw InvariantError("SM " + std::to_string(id) + ": CTA resources give " + std::to_string(r.warps) +
                         " warps, kernel '" + desc.name + "' has " + std::to_string(st.warps_per_cta()));
  if (resume && (resume->warp_pc.size() != r.warps || resume->kernel != kernel || resume->cta != cta))
    throw InvariantError("SM " + std::to_string(id) + ": saved context of kernel " + std::to_string(kernel) + " CTA " +
                         std::to_string(cta) + " does not match");
  const uint32_t len = st.length(cta);
  if (resume)
    for (uint32_t pc : resume->warp_pc)
      if (pc > len)
        throw InvariantError("SM " + std::to_string(id) + ": saved pc " + std::to_string(pc) + " of kernel " +
                             std::to_string(kernel) + " CTA " + std::to_string(cta) + " beyond the warp length " +
                             std::to_string(len));
  // Checks done: from here on nothing throws, so a refused CTA leaves the SM unchanged.
  uint32_t slot = 0;
  while (ctas[slot].state != CtaPhase::kFree) ++slot;  // fits() guarantees a free slot

  if (used.ctas == 0) shmem_config = shared_mem_carveout(t, r.shmem);
  used.threads += r.threads;
  used.warps += r.warps;
  used.regs += r.regs;
  used.shmem += r.shmem;
  used.ctas += 1;
  follow_l1_carveout();
  if (kernel >= resident.size()) resident.resize(size_t(kernel) + 1, 0);
  if (resident[kernel]++ == 0) resident_kernels.push_back(kernel);

  CtaSlot& c = ctas[slot];
  c.kernel = kernel;
  c.cta = cta;
  c.stream = &st;
  c.res = r;
  c.warps.clear();
  c.warps_left = 0;
  c.ops = 0;
  // A fresh CTA's warps start cta_launch_cycles after dispatch (CTA launch overhead; 0 in the
  // paper presets); its record's start is when it begins to run, as a kernel-side clock sees it.
  const uint64_t run_from = resume ? cycle : cycle + t.cta_launch_cycles;
  c.start_cycle = run_from;
  c.first_start_cycle = resume ? resume->first_start_cycle : run_from;
  c.preempt = -1;
  c.stop_after_restore = false;
  c.drain_counted = false;
  c.stop_cycle = 0;
  const uint32_t dep = std::min(desc.dep_distance, kRing);
  for (uint32_t wc = 0; wc < r.warps; ++wc) {
    const uint16_t wi = free_warps.back();
    free_warps.pop_back();
    Warp& w = warps[wi];
    w.key = st.warp_key(cta, wc);
    w.pc = resume ? resume->warp_pc[wc] : 0;
    w.accesses = w.pc ? st.accesses_before(w.key, w.pc) : 0;  // a resumed warp: rare, O(pc)
    w.len = len;
    w.warp_in_cta = wc;
    w.dep = dep;
    w.cta_slot = static_cast<uint16_t>(slot);
    w.sched = static_cast<uint16_t>(next_sched++ % scheds.size());
    w.group = t.warp_group_slots != 0 && wi >= t.warp_group_slots ? 1 : 0;
    w.kernel = kernel;
    w.in_sched = false;
    // A (re)started warp has every earlier result in its registers.
    std::fill_n(ring.begin() + size_t(wi) * kRing, kRing, 0);
    if (w.pc < w.len) {
      ++c.warps_left;
      load_next(w, wi);
      if (run_from > w.dep_ready) w.dep_ready = run_from;
    }
    c.warps.push_back(wi);
  }
  if (resume) {
    c.state = CtaPhase::kRestoring;
    ContextTransfer x;
    x.bytes = static_cast<uint32_t>(context_bytes(r));
    x.save = false;
    x.kernel = kernel;
    x.tag = kContextTag | slot;
    mem.context_transfer(id, x);
    ctr(kernel).ctx_restore_bytes += x.bytes;
  } else {
    c.state = CtaPhase::kRunning;
    ctr(kernel).ctas_started++;
    for (uint16_t wi : c.warps)
      if (warps[wi].pc < warps[wi].len) sched_add(wi);
    if (c.warps_left == 0) dirty = true;
  }
}

void Sm::Impl::tick(uint64_t cycle) {
  issued_last_tick = 0;
  if (used.ctas == 0 && !dirty) return;  // an empty SM has nothing in flight

  completions.clear();
  mem.take_completions(id, completions);
  for (uint64_t tag : completions) on_completion(tag, cycle);

  if (ldst.op >= 0) ldst_send(cycle);
  for (uint32_t i = 0; i < scheds.size(); ++i) schedule(scheds[i], i, cycle);
  // Before retire(): a CTA finishing this cycle was resident during it.
  for (KernelId k : resident_kernels) ctr(k).active_cycles++;
  if (dirty) retire(cycle);
}

void Sm::Impl::retire(uint64_t cycle) {
  dirty = false;
  for (uint32_t slot = 0; slot < ctas.size(); ++slot) {
    CtaSlot& c = ctas[slot];
    if (c.ops != 0) continue;
    if (c.state == CtaPhase::kRunning && c.warps_left == 0) {
      finish_cta(slot, cycle);
    } else if (c.state == CtaPhase::kStopping) {
      if (c.warps_left == 0) {
        finish_cta(slot, cycle);  // it completed while stopping: nothing to save
      } else {
        c.state = CtaPhase::kSaving;
        ContextTransfer x;
        x.bytes = static_cast<uint32_t>(context_bytes(c.res));
        x.save = true;
        x.kernel = c.kernel;
        x.tag = kContextTag | slot;
        mem.context_transfer(id, x);
        ctr(c.kernel).ctx_save_bytes += x.bytes;
      }
    }
  }
  if (!preempts.empty()) check_preempts(cycle);
}

void Sm::Impl::finish_cta(uint32_t slot, uint64_t cycle) {
  CtaSlot& c = ctas[slot];
  ctr(c.kernel).ctas_finished++;
  emit(SmEventType::kCtaFinished, c.kernel, c.cta, c.start_cycle, cycle);
  records.push_back(CtaRecord{c.kernel, c.cta, static_cast<uint16_t>(id), c.start_cycle, cycle});
  release_preempt_member(c);
  free_cta(slot);
}

void Sm::Impl::follow_l1_carveout() {
  if (t.l1_carveout != L1Carveout::kDynamic) return;
  const uint32_t carve = unified_l1_carveout(t, used.shmem);
  if (carve == l1_carveout) return;
  l1_carveout = carve;
  mem.set_l1_capacity(id, t.l1_size_bytes - carve);
}

void Sm::Impl::free_cta(uint32_t slot) {
  CtaSlot& c = ctas[slot];
  for (uint16_t wi : c.warps) {
    sched_remove(wi);
    if (t.warp_group_slots == 0) {
      free_warps.push_back(wi);
    } else {  // keep the lowest free slot on top, so the first group fills first (no allocation: capacity max_warps)
      free_warps.insert(std::upper_bound(free_warps.begin(), free_warps.end(), wi, std::greater<uint16_t>()), wi);
    }
  }
  c.warps.clear();
  used.threads -= c.res.threads;
  used.warps -= c.res.warps;
  used.regs -= c.res.regs;
  used.shmem -= c.res.shmem;
  used.ctas -= 1;
  if (used.ctas == 0) shmem_config = 0;
  follow_l1_carveout();
  if (--resident[c.kernel] == 0)
    resident_kernels.erase(std::find(resident_kernels.begin(), resident_kernels.end(), c.kernel));
  c.state = CtaPhase::kFree;
  c.stream = nullptr;
}

std::string Sm::Impl::dump() const {
  std::ostringstream o;
  o << "SM " << id << " (" << t.name << "): used threads " << used.threads << " warps " << used.warps << " regs "
    << used.regs << " shmem " << used.shmem << "/" << shmem_config << " ctas " << used.ctas << "; ldst op " << ldst.op
    << (ldst.blocked ? " (blocked)" : "") << " line " << ldst.next_line << "/" << ldst.lines << "\n";
  for (uint32_t slot = 0; slot < ctas.size(); ++slot) {
    const CtaSlot& c = ctas[slot];
    if (c.state == CtaPhase::kFree) continue;
    o << "  slot " << slot << ": kernel " << c.kernel << " cta " << c.cta << " " << cta_phase_name(c.state)
      << ", warps left " << c.warps_left << ", mem ops " << c.ops << ", since " << c.start_cycle << ", pcs";
    for (uint16_t wi : c.warps) {
      const Warp& w = warps[wi];
      o << " " << w.pc << "/" << w.len;
      if (w.pc < w.len && w.dep_ready == kNever) o << "(mem)";
    }
    o << "\n";
  }
  for (size_t i = 0; i < scheds.size(); ++i)
    o << "  scheduler " << i << ": " << scheds[i].warps.size() << " warps, sleeping until "
      << (scheds[i].sleep_until == kNever ? std::string("memory") : std::to_string(scheds[i].sleep_until)) << "\n";
  for (const PreemptRec& p : preempts)
    if (p.active)
      o << "  preempt " << (p.mode == PreemptMode::kSwitch ? "switch" : "drain") << " victim " << p.victim
        << " remaining " << p.remaining << "\n";
  return o.str();
}

// ----------------------------------------------------------------------------------------
// Public interface.

Sm::Sm(uint32_t id, const GpuConfig& cfg, MemoryIface& mem, CounterBank& counters, uint64_t seed)
    : impl_(std::make_unique<Impl>(id, cfg, mem, counters, seed)) {}
Sm::~Sm() = default;

uint32_t Sm::id() const { return impl_->id; }
const SmTypeConfig& Sm::type() const { return impl_->t; }
SmUsage Sm::used() const { return impl_->used; }
bool Sm::fits(const CtaResources& r) const { return impl_->fits(r); }
uint32_t Sm::resident_ctas(KernelId kernel) const {
  return kernel < impl_->resident.size() ? impl_->resident[kernel] : 0;
}
void Sm::start_cta(KernelId kernel, const KernelDesc& desc, const CtaResources& r, CtaId cta, uint64_t cycle,
                   const SavedCta* resume) {
  impl_->start_cta(kernel, desc, r, cta, cycle, resume);
}
void Sm::preempt(PreemptMode mode, KernelId victim, KernelId next, uint64_t cycle) {
  impl_->preempt(mode, victim, next, cycle);
}
void Sm::tick(uint64_t cycle) { impl_->tick(cycle); }
void Sm::take_events(std::vector<SmEvent>& events, std::vector<SavedCta>& saved, std::vector<CtaRecord>& records) {
  if (impl_->events.empty() && impl_->records.empty()) return;  // the common case, every cycle
  events.insert(events.end(), impl_->events.begin(), impl_->events.end());
  impl_->events.clear();
  for (auto& s : impl_->saved) saved.push_back(std::move(s));
  impl_->saved.clear();
  records.insert(records.end(), impl_->records.begin(), impl_->records.end());
  impl_->records.clear();
}
uint32_t Sm::issued_last_tick() const { return impl_->issued_last_tick; }
bool Sm::empty() const { return impl_->used.ctas == 0; }
std::string Sm::dump_state() const { return impl_->dump(); }

}  // namespace gs
