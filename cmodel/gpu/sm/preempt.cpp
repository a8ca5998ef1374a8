// gsched: SM preemption (part of Sm::Impl, see gpu/sm/sm_impl.hpp), Tanasic ISCA'14 Sec. 3.2:
// draining (report when the victim's CTAs are gone) and context switch (stop the victim's warps,
// wait for their memory ops, save each CTA's registers and shared memory through the memory
// system, report kCtaSaved per CTA and kPreemptDone), plus the restore side of a resumed CTA.
#include <algorithm>
#include <sstream>

#include "common/error.hpp"
#include "common/rng.hpp"
#include "gpu/sm/sm_impl.hpp"

namespace gs {

using namespace sm_detail;

void Sm::Impl::preempt(PreemptMode mode, KernelId victim, KernelId next, uint64_t cycle) {
  PreemptRec rec;
  rec.mode = mode;
  rec.victim = victim;
  rec.next = next;
  rec.active = true;
  if (mode == PreemptMode::kSwitch) {
    int32_t idx = -1;
    for (size_t i = 0; i < preempts.size(); ++i)
      if (!preempts[i].active) {
        idx = int32_t(i);
        break;
      }
    if (idx < 0) {
      idx = int32_t(preempts.size());
      preempts.push_back(rec);
    }
    for (uint32_t slot = 0; slot < ctas.size(); ++slot) {
      CtaSlot& c = ctas[slot];
      if (c.state == CtaPhase::kFree || !is_victim(rec, c.kernel)) continue;
      if (c.state == CtaPhase::kRunning) {
        c.state = CtaPhase::kStopping;
        for (uint16_t wi : c.warps) sched_remove(wi);
      } else if (c.state == CtaPhase::kRestoring) {
        c.stop_after_restore = true;  // save again as soon as the restore is complete
      } else {
        continue;  // free, or already stopping/saving for an earlier preemption
      }
      c.stop_cycle = cycle;
      c.preempt = idx;
      ++rec.remaining;
    }
    preempts[idx] = rec;
    if (rec.remaining == 0) {
      preempts[idx].active = false;
      emit(SmEventType::kPreemptDone, victim, 0, 0, cycle);
      return;
    }
  } else {
    if (victims_resident(rec) == 0) {
      emit(SmEventType::kPreemptDone, victim, 0, 0, cycle);
      return;
    }
    // The victim's resident CTAs run on to completion; each counts once however many drain
    // commands name it.
    for (CtaSlot& c : ctas) {
      if (c.state == CtaPhase::kFree || c.drain_counted || !is_victim(rec, c.kernel)) continue;
      c.drain_counted = true;
      ++ctr(c.kernel).ctas_drained;
    }
    preempts.push_back(rec);
  }
  dirty = true;
}

void Sm::Impl::on_context_done(uint32_t slot, uint64_t cycle) {
  if (slot >= ctas.size()) throw InvariantError("SM " + std::to_string(id) + ": context transfer for unknown CTA slot");
  CtaSlot& c = ctas[slot];
  if (c.state == CtaPhase::kRestoring) {
    ctr(c.kernel).ctx_restore_cycles += cycle - c.start_cycle;
    if (c.stop_after_restore) {
      c.state = CtaPhase::kStopping;  // no memory op can be in flight: saving starts in retire()
    } else {
      c.state = CtaPhase::kRunning;
      for (uint16_t wi : c.warps)
        if (warps[wi].pc < warps[wi].len) sched_add(wi);
    }
    dirty = true;
  } else if (c.state == CtaPhase::kSaving) {
    save_done(slot, cycle);
  } else {
    throw InvariantError("SM " + std::to_string(id) + ": context transfer completed for CTA slot " +
                         std::to_string(slot) + " in state " + cta_phase_name(c.state));
  }
}

void Sm::Impl::save_done(uint32_t slot, uint64_t cycle) {
  CtaSlot& c = ctas[slot];
  SavedCta s;
  s.kernel = c.kernel;
  s.cta = c.cta;
  s.first_start_cycle = c.first_start_cycle;
  s.warp_pc.reserve(c.warps.size());
  for (uint16_t wi : c.warps) s.warp_pc.push_back(warps[wi].pc);
  saved.push_back(std::move(s));
  KernelSmCounters& k = ctr(c.kernel);
  ++k.ctas_switched;
  k.ctx_save_cycles += cycle - c.stop_cycle;
  emit(SmEventType::kCtaSaved, c.kernel, c.cta, c.start_cycle, cycle);
  records.push_back(CtaRecord{c.kernel, c.cta, static_cast<uint16_t>(id), c.start_cycle, cycle, true});
  release_preempt_member(c);
  free_cta(slot);
  dirty = true;  // check_preempts
}

void Sm::Impl::release_preempt_member(CtaSlot& c) {
  if (c.preempt < 0) return;
  PreemptRec& p = preempts[c.preempt];
  if (p.remaining > 0) --p.remaining;
  c.preempt = -1;
}

void Sm::Impl::check_preempts(uint64_t cycle) {
  (void)cycle;
  for (PreemptRec& p : preempts) {
    if (!p.active) continue;
    bool done;
    if (p.mode == PreemptMode::kSwitch) {
      done = p.remaining == 0;
    } else {
      done = victims_resident(p) == 0;
    }
    if (done) {
      p.active = false;
      emit(SmEventType::kPreemptDone, p.victim, 0, 0, cycle);
    }
  }
  while (!preempts.empty() && !preempts.back().active) preempts.pop_back();
}

}  // namespace gs
