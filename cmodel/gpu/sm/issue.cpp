// gsched: SM issue path (part of Sm::Impl, see gpu/sm/sm_impl.hpp and docs/sm.md): the warp
// schedulers (GTO / loose round robin, sleeping until the earliest possible issue), instruction
// issue into the ALU / SFU / LD-ST pipelines, the per-warp scoreboard, the LD/ST unit sending
// one line request per cycle, and memory completions. This is the hottest code of the model:
// no allocation, flat arrays, no virtual calls except MemoryIface.
#include <algorithm>
#include <sstream>

#include "common/error.hpp"
#include "common/rng.hpp"
#include "gpu/sm/sm_impl.hpp"

namespace gs {

using namespace sm_detail;

void Sm::Impl::load_next(Warp& w, uint16_t wi) {
  w.next = ctas[w.cta_slot].stream->type(w.key, w.pc);
  if (w.dep == 0 || w.pc < w.dep) {
    w.dep_ready = 0;
  } else {
    w.dep_ready = ring[size_t(wi) * kRing + ((w.pc - w.dep) & (kRing - 1))];
  }
}

void Sm::Impl::sched_add(uint16_t wi) {
  Warp& w = warps[wi];
  WarpScheduler& s = scheds[w.sched];
  w.pos = static_cast<uint16_t>(s.warps.size());
  s.warps.push_back(wi);  // youngest
  ++s.in_group[w.group];
  w.in_sched = true;
  s.wake();
}

void Sm::Impl::sched_remove(uint16_t wi) {
  Warp& w = warps[wi];
  if (!w.in_sched) return;
  WarpScheduler& s = scheds[w.sched];
  const uint32_t pos = w.pos;
  s.warps.erase(s.warps.begin() + pos);
  for (uint32_t p = pos; p < s.warps.size(); ++p) warps[s.warps[p]].pos = static_cast<uint16_t>(p);
  if (s.rr > pos) --s.rr;
  if (s.greedy == wi) s.greedy = -1;
  --s.in_group[w.group];
  w.in_sched = false;
  s.wake();
}

void Sm::Impl::on_completion(uint64_t tag, uint64_t cycle) {
  if (tag & kContextTag) {
    on_context_done(static_cast<uint32_t>(tag & 0xFFFF), cycle);
    return;
  }
  if (tag >= ops.size() || !ops[tag].active)
    throw InvariantError("SM " + std::to_string(id) + ": completion of unknown memory tag " + std::to_string(tag));
  MemOp& op = ops[tag];
  if (--op.lines_left > 0) return;
  Warp& w = warps[op.warp];
  CtaSlot& c = ctas[op.cta_slot];
  if (!op.store) {
    // The slot of instruction op.pc is reused by instruction op.pc + kRing; until that one
    // issues (never before this load completes when dep <= kRing) it is ours to complete.
    if (w.pc <= op.pc + kRing) ring[size_t(op.warp) * kRing + (op.pc & (kRing - 1))] = cycle;
    if (w.dep_ready == kNever && w.pc >= w.dep && w.pc - w.dep == op.pc) {
      w.dep_ready = cycle;
      if (w.in_sched) scheds[w.sched].wake_at(w.pos);
    }
  }
  op.active = false;
  free_ops.push_back(static_cast<uint32_t>(tag));
  if (--c.ops == 0 && (c.warps_left == 0 || c.state == CtaPhase::kStopping)) dirty = true;
}

void Sm::Impl::ldst_send(uint64_t cycle) {
  (void)cycle;
  MemOp& op = ops[ldst.op];
  const Warp& w = warps[op.warp];
  const CtaSlot& c = ctas[op.cta_slot];
  MemAccess a;
  a.line_addr = c.stream->line_addr(w.key, c.cta, w.warp_in_cta, op.pc, op.access, ldst.next_line);
  a.kernel = c.kernel;
  a.write = op.store;
  a.tag = static_cast<uint64_t>(ldst.op);
  if (!mem.access(id, a)) {
    ldst.blocked = true;
    return;
  }
  ldst.blocked = false;
  if (++ldst.next_line == ldst.lines) {
    ldst.op = -1;
    // Warps waiting for the LD/ST unit sleep without a wake-up time (unit_free kNever).
    for (WarpScheduler& s : scheds) s.wake();
  }
}

void Sm::Impl::issue(Warp& w, uint16_t wi, WarpScheduler& s, uint64_t cycle) {
  uint64_t& done = ring[size_t(wi) * kRing + (w.pc & (kRing - 1))];
  switch (w.next) {
    case InstType::kAlu:
      s.alu_free = cycle + alu_occupancy;
      done = cycle + t.alu_latency;
      break;
    case InstType::kSfu:
      s.sfu_free = cycle + sfu_occupancy;
      done = cycle + t.sfu_latency;
      break;
    case InstType::kShared: {
      // A bank-conflicted access replays: it holds the LD/ST unit `ways` times as long and its
      // result comes that much later (shmem_conflict_ways, 1 = conflict-free).
      const uint32_t replay = ldst_occupancy * (ctas[w.cta_slot].stream->desc().shmem_conflict_ways - 1);
      ldst.busy_until = cycle + ldst_occupancy + replay;
      done = cycle + t.shmem_latency + replay;
      break;
    }
    case InstType::kLoad:
    case InstType::kStore: {
      uint32_t oi;
      if (!free_ops.empty()) {
        oi = free_ops.back();
        free_ops.pop_back();
      } else {
        oi = static_cast<uint32_t>(ops.size());
        ops.emplace_back();  // pool grows to the peak number of in-flight accesses, then stays
      }
      MemOp& op = ops[oi];
      const CtaSlot& c = ctas[w.cta_slot];
      op.pc = w.pc;
      op.access = w.accesses++;
      op.lines_left = c.stream->lines_per_access();
      op.warp = wi;
      op.cta_slot = w.cta_slot;
      op.store = w.next == InstType::kStore;
      op.active = true;
      ctas[w.cta_slot].ops++;
      // Stores are fire-and-forget for dependents; a load's result is pending until all lines return.
      done = op.store ? cycle + 1 : kNever;
      ldst.op = static_cast<int32_t>(oi);
      ldst.next_line = 0;
      ldst.lines = op.lines_left;
      ldst_send(cycle);
      break;
    }
    default: break;
  }
  ctr(w.kernel).insts_issued++;
  ++issued_last_tick;
  if (++w.pc == w.len) {
    sched_remove(wi);
    if (--ctas[w.cta_slot].warps_left == 0) dirty = true;
  } else {
    load_next(w, wi);
  }
}

void Sm::Impl::schedule(WarpScheduler& s, uint32_t s_index, uint64_t cycle) {
  (void)s_index;
  const uint32_t n = static_cast<uint32_t>(s.warps.size());
  if (n == 0) {
    // Nothing to issue here: an idle cycle, charged to a kernel resident on the SM (if any).
    if (!resident_kernels.empty()) ctr(resident_kernels.front()).stall_cycles[int(StallReason::kIdle)]++;
    return;
  }
  if (s.sleep_until > cycle) {
    // A stall on the sending LD/ST unit is an MSHR-full stall while its access is refused.
    const StallReason r = s.sleep_on_ldst ? (ldst.blocked ? StallReason::kMshrFull : StallReason::kExecBusy)
                                          : s.sleep_reason;
    ctr(s.sleep_kernel).stall_cycles[int(r)]++;
    return;
  }
  // When each unit can accept a new warp instruction. While the LD/ST unit is still sending an
  // access its free cycle is unknown (refused accesses are retried): kNever, and ldst_send()
  // wakes every scheduler when the access is out.
  const bool ldst_sending = ldst.op >= 0;
  const uint64_t ldst_free = ldst_sending ? kNever : ldst.busy_until;
  uint64_t unit_free[int(InstType::kCount)];
  unit_free[int(InstType::kAlu)] = s.alu_free;
  unit_free[int(InstType::kSfu)] = s.sfu_free;
  unit_free[int(InstType::kLoad)] = ldst_free;
  unit_free[int(InstType::kStore)] = ldst_free;
  unit_free[int(InstType::kShared)] = ldst_free;
  // Earliest cycle warp w could issue; it is ready now if that is <= cycle. The minimum over
  // the warps passed by a search is where the scheduler sleeps to if none is ready.
  auto issue_at = [&](const Warp& w) { return std::max(w.dep_ready, unit_free[int(w.next)]); };
  // Why nothing issues, from the oldest warp that does not wait on a global load (kMemLatency
  // if every warp does: Warped-Slicer phi_mem); `wake` is lowered to a RAW stall's end so that
  // the counted reason stays exact. Only warps of group `g` count (g = 2: every warp).
  auto stall_reason = [&](uint32_t g, uint64_t& wake, bool& on_ldst) {
    on_ldst = false;
    for (uint32_t q = 0; q < n; ++q) {
      const Warp& w = warps[s.warps[q]];
      if (w.dep_ready == kNever || (g < 2 && w.group != g)) continue;
      if (w.dep_ready > cycle) {
        wake = std::min(wake, w.dep_ready);
        return StallReason::kRaw;
      }
      if (is_ldst(w.next) && ldst_sending) {
        on_ldst = true;
        return ldst.blocked ? StallReason::kMshrFull : StallReason::kExecBusy;
      }
      return StallReason::kExecBusy;
    }
    return StallReason::kMemLatency;
  };

  if (t.warp_group_slots != 0 && s.in_group[s.group ^ 1] != 0) {
    // HeteroCore Sec. 3.2, both warp-slot groups in use: search the current group only (GTO
    // oldest first, LRR after the last issuer); if none of its warps is ready, consider the
    // other group from the next cycle: this cycle is lost. The GTO skip bound is list-wide,
    // so it restarts; no sleeping (the group alternates every cycle until a warp is ready).
    if (gto && s.greedy >= 0 && warps[s.greedy].group == s.group && issue_at(warps[s.greedy]) <= cycle) {
      issue(warps[s.greedy], static_cast<uint16_t>(s.greedy), s, cycle);
      return;
    }
    uint32_t p = gto ? 0 : (s.rr < n ? s.rr : 0);
    for (uint32_t k = 0; k < n; ++k, p = (p + 1 == n ? 0 : p + 1)) {
      const uint16_t wi = s.warps[p];
      if (warps[wi].group != s.group || issue_at(warps[wi]) > cycle) continue;
      s.greedy = wi;
      s.rr = p + 1;
      s.skip = 0;
      issue(warps[wi], wi, s, cycle);
      return;
    }
    uint64_t unused = kNever;
    bool on_ldst = false;
    const uint32_t searched = s.group;
    s.group ^= 1;
    s.skip = 0;
    KernelId k = warps[s.warps[0]].kernel;
    for (uint32_t q = 0; q < n; ++q)
      if (warps[s.warps[q]].group == searched) {
        k = warps[s.warps[q]].kernel;
        break;
      }
    ctr(k).stall_cycles[int(stall_reason(searched, unused, on_ldst))]++;
    return;
  }

  if (gto && s.greedy >= 0 && issue_at(warps[s.greedy]) <= cycle) {
    issue(warps[s.greedy], static_cast<uint16_t>(s.greedy), s, cycle);
    return;
  }
  // GTO searches oldest first; the warps before list position `skip` are known not to be ready
  // before skip_until (a lower bound: unit-free times only grow, and a load completion, the
  // only event that brings a warp's readiness forward, moves `skip` back to that warp), so the
  // search resumes there. LRR searches from the position after the last issuer, wrapping.
  uint64_t wake = kNever;
  uint32_t p = 0, count = n;
  if (gto) {
    if (s.skip > 0 && cycle < s.skip_until) {
      p = s.skip;
      count = n - p;
      wake = s.skip_until;
    }
  } else {
    p = s.rr < n ? s.rr : 0;
  }
  for (uint32_t k = 0; k < count; ++k, p = (p + 1 == n ? 0 : p + 1)) {
    const uint16_t wi = s.warps[p];
    const uint64_t at = issue_at(warps[wi]);
    if (at <= cycle) {
      s.greedy = wi;
      s.rr = p + 1;
      s.skip = p;
      s.skip_until = wake;
      issue(warps[wi], wi, s, cycle);
      return;
    }
    wake = std::min(wake, at);
  }
  // Nothing before the end of the list can issue before `wake`.
  s.skip = n;
  s.skip_until = wake;

  // No issue: sleep until `wake` and classify the stall.
  bool on_ldst = false;
  const StallReason reason = stall_reason(2, wake, on_ldst);
  s.sleep_until = wake;
  s.sleep_reason = reason;
  s.sleep_on_ldst = on_ldst;
  s.sleep_kernel = warps[s.warps[0]].kernel;
  ctr(s.sleep_kernel).stall_cycles[int(reason)]++;
}

}  // namespace gs
