// gsched golden twin of rtl/framework/gs_ksrt.sv (Kernel Status Register Table).
//
// Per slot: kernel id, context, priority, DSS tokens, per-CTA resources, grid, next fresh CTA
// id, CTAs done. clock() applies, per slot and in the RTL's order: issue (next_cta + 1),
// done (+1; the slot frees when done reaches grid), token +1/-1, admission (overrides).
// CTA counters are CtaIdW bits wide and tokens TokenW-bit two's complement, as in the RTL.
#pragma once
#include <vector>

#include "sched/golden/golden_types.hpp"

namespace gs::golden {

class Ksrt {
 public:
  struct Regs {
    std::vector<KsrtEntry> tbl;  // tbl_q
  };
  struct Lookup {
    bool hit = false;
    uint32_t slot = 0;
  };

  void reset(uint32_t slots) { q.tbl.assign(slots, KsrtEntry{}); }
  uint32_t slots() const { return static_cast<uint32_t>(q.tbl.size()); }
  const KsrtEntry& entry(uint32_t k) const { return q.tbl[k]; }

  uint32_t valid_mask() const {
    uint32_t m = 0;
    for (uint32_t k = 0; k < q.tbl.size(); ++k)
      if (q.tbl[k].valid) m |= 1u << k;
    return m;
  }
  Lookup lookup(KernelId kernel) const {
    Lookup l;
    for (uint32_t k = 0; k < q.tbl.size(); ++k)
      if (q.tbl[k].valid && q.tbl[k].kernel == kernel) {
        l.hit = true;
        l.slot = k;
      }
    return l;
  }
  /// free_o: the slot whose last CTA finishes this cycle.
  uint32_t free_mask(bool done_valid, uint32_t done_slot) const {
    if (!done_valid) return 0;
    const KsrtEntry& e = q.tbl[done_slot];
    return ((e.done + 1) & width_mask(CtaIdW)) == e.grid ? (1u << done_slot) : 0u;
  }

  void clock(bool alloc_valid, uint32_t alloc_slot, const Launch& launch, bool issue_valid, uint32_t issue_slot,
             bool done_valid, uint32_t done_slot, const TokenUpd& tok) {
    if (issue_valid) {
      KsrtEntry& e = q.tbl[issue_slot];
      e.next_cta = (e.next_cta + 1) & width_mask(CtaIdW);
    }
    if (done_valid) {
      KsrtEntry& e = q.tbl[done_slot];
      e.done = (e.done + 1) & width_mask(CtaIdW);
      if (e.done == e.grid) e.valid = false;
    }
    if (tok.inc_valid) q.tbl[tok.inc].tokens = static_cast<int16_t>(static_cast<uint16_t>(q.tbl[tok.inc].tokens) + 1u);
    if (tok.dec_valid) q.tbl[tok.dec].tokens = static_cast<int16_t>(static_cast<uint16_t>(q.tbl[tok.dec].tokens) - 1u);
    if (alloc_valid) {
      KsrtEntry& e = q.tbl[alloc_slot];
      e.valid = true;
      e.kernel = launch.kernel;
      e.ctx = launch.ctx;
      e.prio = launch.prio;
      e.tokens = launch.tokens;
      e.threads = launch.threads;
      e.warps = launch.warps;
      e.regs = launch.regs;
      e.shmem = launch.shmem;
      e.grid = launch.grid;
      e.next_cta = 0;
      e.done = 0;
    }
  }

  Regs q;
};

}  // namespace gs::golden
