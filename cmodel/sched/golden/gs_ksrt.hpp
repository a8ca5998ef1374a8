// gsched golden twin of rtl/framework/gs_ksrt.sv (Kernel Status Register Table).
//
// Per slot: kernel id, context, priority, DSS tokens, per-CTA resources, grid, next fresh CTA
// id, CTAs done. comb(): the lookup of an event's kernel, the valid bits and free_o (the slot
// whose last CTA finishes this cycle). next() applies, per slot and in the RTL's order: issue
// (next_cta + 1), done (+1; the slot frees when done reaches grid), token +1/-1, admission
// (overrides). CTA counters are CtaIdW bits wide and tokens TokenW-bit two's complement, as
// in the RTL. entries_o is the registered table: entry(k).
#pragma once
#include <vector>

#include "sched/golden/golden_types.hpp"

namespace gs::golden {

class Ksrt {
 public:
  struct In {
    bool alloc_valid = false;     // alloc_valid_i
    uint32_t alloc_slot = 0;      // alloc_slot_i
    Launch launch;                // alloc_launch_i
    bool issue_valid = false;     // issue_valid_i
    uint32_t issue_slot = 0;      // issue_slot_i
    bool done_valid = false;      // done_valid_i
    uint32_t done_slot = 0;       // done_slot_i
    TokenUpd tok;                 // tok_i
    KernelId lookup = kNoKernel;  // lookup_kernel_i
  };
  struct Lookup {
    bool hit = false;
    uint32_t slot = 0;
  };
  struct Out {
    Lookup lookup;           // lookup_hit_o, lookup_slot_o
    uint32_t valid = 0;      // valid_o
    uint32_t free_mask = 0;  // free_o
  };
  struct Regs {
    std::vector<KsrtEntry> tbl;  // tbl_q
  };
  struct D {
    ArrayD<KsrtEntry> tbl;
  };

  void reset(uint32_t slots) {
    q.tbl.assign(slots, KsrtEntry{});
    d.tbl.reset(slots);
  }
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
  /// Reads lookup, done_valid and done_slot only.
  Out comb(const In& in) const { return Out{lookup(in.lookup), valid_mask(), free_mask(in.done_valid, in.done_slot)}; }

  void next(const In& in, D& n) const {
    if (in.issue_valid) {
      KsrtEntry& e = n.tbl.at(q.tbl, in.issue_slot);
      e.next_cta = (e.next_cta + 1) & width_mask(CtaIdW);
    }
    if (in.done_valid) {
      KsrtEntry& e = n.tbl.at(q.tbl, in.done_slot);
      e.done = (e.done + 1) & width_mask(CtaIdW);
      if (e.done == e.grid) e.valid = false;
    }
    if (in.tok.inc_valid) {
      KsrtEntry& e = n.tbl.at(q.tbl, in.tok.inc);
      e.tokens = static_cast<int16_t>(static_cast<uint16_t>(e.tokens) + 1u);
    }
    if (in.tok.dec_valid) {
      KsrtEntry& e = n.tbl.at(q.tbl, in.tok.dec);
      e.tokens = static_cast<int16_t>(static_cast<uint16_t>(e.tokens) - 1u);
    }
    if (in.alloc_valid) {
      KsrtEntry& e = n.tbl.at(q.tbl, in.alloc_slot);
      const Launch& l = in.launch;
      e.valid = true;
      e.kernel = l.kernel;
      e.ctx = l.ctx;
      e.prio = l.prio;
      e.tokens = l.tokens;
      e.threads = l.threads;
      e.warps = l.warps;
      e.regs = l.regs;
      e.shmem = l.shmem;
      e.grid = l.grid;
      e.next_cta = 0;
      e.done = 0;
    }
  }
  void commit() { d.tbl.commit(q.tbl); }
  /// One clock edge on its own (block benches, unit tests): next() then commit().
  void clock(const In& in) {
    next(in, d);
    commit();
  }

  Regs q;  // registered state
  D d;     // next state, written by next(), committed by commit()
};

}  // namespace gs::golden
