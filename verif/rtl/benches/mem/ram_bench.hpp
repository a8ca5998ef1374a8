// gsched block benches of rtl/mem (gs_ram_1r1w, gs_ram_1rw): the shared compare loop. The RTL
// and the golden twin (cmodel/sched/golden/gs_ram.hpp) see the same random ports every cycle;
// rdata_o is compared every cycle the twin knows the read register (the memory has no reset).
#pragma once
#include <cstdint>
#include <string>

#include "bench_harness.hpp"
#include "common/rng.hpp"
#include "sched/golden/gs_ram.hpp"

namespace gs::bench {

constexpr uint32_t kRamDepth = 40;  // -GDepth=40 in verif/rtl/benches/CMakeLists.txt: not a power of two
constexpr uint32_t kRamWidth = 37;  // -GWidth=37: wider than 32 bits (a 64-bit Verilator port)

/// What a run compared: a bench that compares nothing cannot fail.
struct RamRun {
  std::string diff;                // "" or the first difference
  uint64_t compared = 0;           // cycles with rdata_o compared
  uint64_t read_during_write = 0;  // of them: the read before was of the address written at its edge
  uint64_t held = 0;               // of them: rdata_o held (no read at the edge before)
};

inline std::string ram_diff(uint64_t cycle, uint64_t rtl, uint64_t gold, const std::string& ports) {
  return "cycle " + std::to_string(cycle) + ": rdata_o " + std::to_string(rtl) + " golden " + std::to_string(gold) +
         " (ports at the edge before: " + ports + ")";
}

/// One cycle's check, before the edge: rdata_o against the twin's read register when the twin
/// knows it (counted in `run`), then nothing else. False with run.diff set on a difference.
/// `rdw` / `held`: the read at the edge before was of the word written there / there was none.
inline bool ram_compare(RamRun& run, uint64_t cycle, uint64_t rtl_rdata, const golden::Ram& gold, bool rdw, bool held,
                        const std::string& ports) {
  if (!gold.rdata_known()) return true;
  ++run.compared;
  run.read_during_write += rdw;
  run.held += held;
  if (rtl_rdata == gold.rdata()) return true;
  run.diff = ram_diff(cycle, rtl_rdata, gold.rdata(), ports);
  return false;
}

/// After the edge: false with run.diff set when an RTL assertion fired.
inline bool ram_assertions_ok(RamRun& run, uint64_t errors, uint64_t cycle) {
  if (errors == 0) return true;
  run.diff = "RTL assertion failed at cycle " + std::to_string(cycle);
  return false;
}

}  // namespace gs::bench
