// gsched golden twin of rtl/profile/gs_prof_counters.sv (per-SM, per-kernel-slot profiling
// counters; docs/rtl/gs_prof_counters.md).
//
// Per (SM, KSRT slot): warp instructions and memory-stall cycles summed over the observation
// samples taken while run is high, plus the window length in cycles. A sample is staged one
// edge (Regs::obs) and added at the next, with that cycle's clear and run (the owning policy
// registers them from the sample's own cycle). clear zeroes all of it in
// one edge (the RTL clears valid bits, an invalid entry reads as zero: the same values). Counts
// saturate at 2**ProfCntW-1 and set the sticky sat flag. A Moore block: reads see the registered
// state. next() keeps the RTL's order: clear wins over a sample in the same cycle.
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
  };
  struct Regs {
    std::vector<uint32_t> insts, stall;  // [sm * slots + slot]; zero where the RTL's valid bit is clear
    uint32_t cycles = 0;                 // cycles_q
    bool sat = false;                    // sat_q
    ObsSample obs;                       // obs_q: the staged sample ...
    bool obs_hit = false;                // obs_hit_q
    uint32_t obs_slot = 0;               // obs_slot_q
  };
  struct D {
    ArrayD<uint32_t> insts, stall;
    uint32_t cycles = 0;
    bool sat = false;
    bool clear = false;  // the whole table goes to zero at commit
    ObsSample obs;
    bool obs_hit = false;
    uint32_t obs_slot = 0;
  };

  void reset(uint32_t sms, uint32_t slots) {
    sms_ = sms;
    slots_ = slots;
    q = Regs{};
    q.insts.assign(size_t(sms) * slots, 0);
    q.stall.assign(size_t(sms) * slots, 0);
    d.insts.reset(q.insts.size());
    d.stall.reset(q.stall.size());
  }
  /// rd_insts_o / rd_stall_o of (sm, slot); zero beyond the table, as the RTL reads.
  uint32_t insts(uint32_t sm, uint32_t slot) const { return sm < sms_ ? q.insts[sm * slots_ + slot] : 0; }
  uint32_t stall(uint32_t sm, uint32_t slot) const { return sm < sms_ ? q.stall[sm * slots_ + slot] : 0; }
  uint32_t cycles() const { return q.cycles; }
  bool sat() const { return q.sat; }

  void next(const In& in, D& n) const {
    n.clear = in.clear;
    n.cycles = q.cycles;
    n.sat = q.sat;
    n.obs = in.obs;
    n.obs_hit = in.obs_hit;
    n.obs_slot = in.obs_slot;
    if (in.clear) {
      n.cycles = 0;
      n.sat = false;
      return;
    }
    bool over = false;
    if (in.run && q.obs.valid && q.obs_hit && q.obs.sm < sms_) {
      const uint32_t i = q.obs.sm * slots_ + q.obs_slot;
      n.insts.at(q.insts, i) = add(q.insts[i], q.obs.insts, over);
      n.stall.at(q.stall, i) = add(q.stall[i], q.obs.mem_stall, over);
    }
    if (in.run) n.cycles = add(q.cycles, 1, over);
    if (over) n.sat = true;
  }
  void commit() {
    d.insts.commit(q.insts);  // nothing is written in a clearing cycle
    d.stall.commit(q.stall);
    if (d.clear) {
      std::fill(q.insts.begin(), q.insts.end(), 0);
      std::fill(q.stall.begin(), q.stall.end(), 0);
    }
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

  uint32_t sms_ = 0, slots_ = 0;
};

}  // namespace gs::golden
