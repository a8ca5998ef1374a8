// gsched block benches: the random-start loop shared by the benches of the policies' sequential
// arithmetic units (gs_seq_div, gs_seq_mul): one Verilated unit and its golden twin from reset,
// a start at random (also while an operation runs: it is abandoned), every cycle the unit's
// outputs and registers against the twin, and every operation that runs to its end against the
// result read straight.
#pragma once
#include <cstdint>
#include <string>

#include "bench_harness.hpp"
#include "common/rng.hpp"

namespace gs::bench {

/// Unit: the unit's own pieces --
///   void draw(Rng&, uint64_t& x, uint64_t& y)          operands of a start (corners included)
///   void drive(V&, bool start, uint64_t x, uint64_t y) its ports
///   std::string compare(const V&, const Twin&)          "" or the registers and outputs that differ
///   std::string result(const Twin&, uint64_t x, uint64_t y)  "" or a finished result that is wrong
/// Twin: next(start, x, y), commit(), q.busy. A start comes one cycle in `abandon_one_in` while an
/// operation runs, one in three otherwise. Returns "" or the first difference; fails when fewer
/// than `min_finished` operations ended (the stimulus must reach the results).
template <class V, class Twin, class Unit>
std::string random_starts(Unit& unit, uint32_t seed, uint32_t cycles, uint32_t abandon_one_in, uint64_t min_finished,
                          const char* what) {
  Bench<V> b(seed);
  Twin t;
  t.reset();
  V& d = b.dut();
  unit.drive(d, false, 0, 0);
  b.reset();
  Rng r(seed);
  uint64_t x = 0, y = 0, finished = 0;
  bool running = false;  // an operation started by the bench and not abandoned
  for (uint32_t c = 0; c < cycles; ++c) {
    const bool start = running ? r.below(abandon_one_in) == 0 : r.below(3) == 0;
    uint64_t nx = 0, ny = 0;
    if (start) unit.draw(r, nx, ny);
    unit.drive(d, start, nx, ny);
    b.settle();
    const std::string at = "cycle " + std::to_string(c) + ": ";
    std::string diff = unit.compare(d, t);
    if (!diff.empty()) return at + diff;
    if (running && !t.q.busy) {
      diff = unit.result(t, x, y);
      if (!diff.empty()) return at + diff;
      running = false;
      ++finished;
    }
    if (b.errors() != 0) return at + "an RTL assertion failed";
    t.next(start, nx, ny);
    t.commit();
    b.tick();
    if (start) {
      running = true;
      x = nx;
      y = ny;
    }
  }
  if (finished < min_finished) return "only " + std::to_string(finished) + " " + what + " ended";
  return "";
}

}  // namespace gs::bench
