// gsched golden twin of rtl/profile/gs_prof_counters.sv (the profiling counters the profiling
// policies read; docs/rtl/gs_prof_counters.md).
//
// Per SM, a pair (warp instructions, memory-stall cycles) counting the one kernel slot the SM is
// tagged with; per kernel slot, its warp instructions over every SM; the window length in cycles.
// A tag is registered (Regs::tag_wr) and lands in the table an edge later: presented in cycle t,
// it counts the samples added from edge t+2.
// Counted from the observation samples taken while run is high: a sample is staged one edge
// (Regs::obs) and added at the next, with that cycle's clear and run (the owning policy
// registers them from the sample's own cycle) and the tags as they were before that edge. clear
// zeroes the counts in one edge, not the tags (the RTL clears the pairs' valid bits, an invalid
// pair reads as zero: the same values). Counts saturate at 2**ProfCntW-1 and set the sticky sat
// flag. A Moore block: reads see the registered state. next() keeps the RTL's order: clear wins
// over a sample in the same cycle.
#pragma once
#include <algorithm>
#include <cstdint>
#include <vector>

#include "sched/golden/golden_types.hpp"

namespace gs::golden {

class ProfCounters {
 public:
  static_assert(spec::ProfCntW <= 32, "counters are held in uint32_t");
  static constexpr uint64_t kMax = (uint64_t{1} << spec::ProfCntW) - 1;

  struct In {
    bool clear = false;     // clear_i
    bool run = false;       // run_i: add the staged sample
    ObsSample obs;          // obs_i: staged at this edge
    bool obs_hit = false;   // obs_hit_i
    uint32_t obs_slot = 0;  // obs_slot_i
    bool tag = false;       // tag_i: SM tag_sm's pair counts slot tag_slot (registered, then in the table)
    uint32_t tag_sm = 0;    // tag_sm_i
    uint32_t tag_slot = 0;  // tag_slot_i
  };
  struct Regs {
    std::vector<uint32_t> insts, stall;       // [sm]; zero where the RTL's valid bit is clear
    std::vector<int32_t> tag;                 // [sm]: the tagged slot, -1 before the first tag
    bool tag_wr = false;                      // tg_q: a tag write, into `tag` at the next edge ...
    uint32_t tag_wr_sm = 0, tag_wr_slot = 0;  // ... of this SM and slot
    std::vector<uint32_t> acc;                // [slot]: instructions over every SM
    uint32_t cycles = 0;                      // cycles_q
    bool sat = false;                         // sat_q
    ObsSample obs;                            // obs_q: the staged sample ...
    bool obs_hit = false;                     // obs_hit_q
    uint32_t obs_slot = 0;                    // obs_slot_q
  };
  /// The next state: at most one pair, one sum and one tag written per edge.
  struct D {
    bool pair_we = false, acc_we = false;
    bool tag_wr = false;  // the registered tag write (In::tag)
    uint32_t pair_sm = 0, pair_insts = 0, pair_stall = 0;
    uint32_t acc_slot = 0, acc_val = 0;
    uint32_t tag_sm = 0, tag_slot = 0;
    uint32_t cycles = 0;
    bool sat = false;
    bool clear = false;  // every count goes to zero at commit
    ObsSample obs;
    bool obs_hit = false;
    uint32_t obs_slot = 0;
  };

  void reset(uint32_t sms, uint32_t slots) {
    q = Regs{};
    q.insts.assign(sms, 0);
    q.stall.assign(sms, 0);
    q.tag.assign(sms, -1);
    q.acc.assign(slots, 0);
    d = D{};
  }
  /// rd_insts_o / rd_stall_o of SM sm's pair; zero beyond the table, as the RTL reads.
  uint32_t insts(uint32_t sm) const { return sm < q.insts.size() ? q.insts[sm] : 0; }
  uint32_t stall(uint32_t sm) const { return sm < q.stall.size() ? q.stall[sm] : 0; }
  /// acc_insts_o: kernel slot `slot`'s instructions over every SM.
  uint32_t acc(uint32_t slot) const { return slot < q.acc.size() ? q.acc[slot] : 0; }
  uint32_t cycles() const { return q.cycles; }
  bool sat() const { return q.sat; }

  void next(const In& in, D& n) const {
    n = D{};
    n.clear = in.clear;
    n.cycles = q.cycles;
    n.sat = q.sat;
    n.obs = in.obs;
    n.obs_hit = in.obs_hit;
    n.obs_slot = in.obs_slot;
    if (in.tag && in.tag_sm < q.tag.size()) {  // registered now, in the table an edge later; kept by a clear
      n.tag_wr = true;
      n.tag_sm = in.tag_sm;
      n.tag_slot = in.tag_slot;
    }
    if (in.clear) {
      n.cycles = 0;
      n.sat = false;
      return;
    }
    bool over = false;
    const uint32_t sm = q.obs.sm;
    if (in.run && q.obs.valid && q.obs_hit && sm < q.insts.size()) {
      n.acc_we = true;
      n.acc_slot = q.obs_slot;
      n.acc_val = add(acc(q.obs_slot), q.obs.insts, over);
      if (q.tag[sm] == static_cast<int32_t>(q.obs_slot)) {
        n.pair_we = true;
        n.pair_sm = sm;
        n.pair_insts = add(q.insts[sm], q.obs.insts, over);
        n.pair_stall = add(q.stall[sm], q.obs.mem_stall, over);
      }
    }
    if (in.run) n.cycles = add(q.cycles, 1, over);
    if (over) n.sat = true;
  }
  void commit() {
    if (d.clear) {
      std::fill(q.insts.begin(), q.insts.end(), 0);
      std::fill(q.stall.begin(), q.stall.end(), 0);
      std::fill(q.acc.begin(), q.acc.end(), 0);
    }
    if (d.pair_we) q.insts[d.pair_sm] = d.pair_insts, q.stall[d.pair_sm] = d.pair_stall;
    if (d.acc_we) q.acc[d.acc_slot] = d.acc_val;
    if (q.tag_wr) q.tag[q.tag_wr_sm] = static_cast<int32_t>(q.tag_wr_slot);
    q.tag_wr = d.tag_wr;
    q.tag_wr_sm = d.tag_sm;
    q.tag_wr_slot = d.tag_slot;
    q.cycles = d.cycles;
    q.sat = d.sat;
    q.obs = d.obs;
    q.obs_hit = d.obs_hit;
    q.obs_slot = d.obs_slot;
  }
  /// One clock edge on its own (block benches, unit tests): next() then commit().
  void clock(const In& in) {
    next(in, d);
    commit();
  }

  Regs q;  // registered state
  D d;     // next state, written by next(), committed by commit()

 private:
  /// a + b held at kMax, setting `over` when it would pass it.
  static uint32_t add(uint32_t a, uint64_t b, bool& over) {
    const uint64_t sum = uint64_t{a} + b;
    if (sum > kMax) {
      over = true;
      return static_cast<uint32_t>(kMax);
    }
    return static_cast<uint32_t>(sum);
  }
};

}  // namespace gs::golden
