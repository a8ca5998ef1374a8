// gsched block bench: rtl/framework/gs_ptbq.sv (handles in a two-cycle gs_ram_1r1w, heads in
// registers filled by the fill unit) vs. golden Ptbq, every cycle: every slot's count, ready bit
// and head (while the count is not 0) and the fill unit. A pop is only driven for a ready slot,
// as the SM driver does. Every GS_MUT_PTBQ_HEAD_* mutant of gs_ptbq.sv runs the random stimulus
// too and must differ from the golden or fail an RTL assertion (docs/rtl/mutations.md);
// GS_MUT_PTBQ_DROP stays a gs_top lockstep mutant.
#include <catch2/catch.hpp>

#include <sstream>
#include <string>

#include "Vbench_gs_ptbq.h"
#include "bench_records.hpp"
#include "common/rng.hpp"
#include "gs_ptbq_mutants.hpp"  // generated: GS_BENCH_MUTANTS(X), one model per mutant
#include "sched/golden/gs_ptbq.hpp"

namespace {
using namespace gs::bench;

template <class V>
struct PtbqBench {
  Bench<V> rtl{11};
  Ptbq gold;
  PtbqBench() {
    gold.reset(MaxKernels);
    rtl.dut().push_valid_i = 0;
    rtl.dut().pop_valid_i = 0;
    rtl.reset();
  }
  /// One cycle: "" or the first difference between the RTL and the golden.
  std::string step(bool push, uint32_t push_slot, uint32_t cta, bool pop, uint32_t pop_slot) {
    auto& d = rtl.dut();
    d.push_valid_i = push;
    d.push_slot_i = push_slot;
    d.push_cta_i = cta;
    d.pop_valid_i = pop;
    d.pop_slot_i = pop_slot;
    rtl.settle();
    std::ostringstream os;
    for (uint32_t k = 0; k < MaxKernels && os.tellp() == 0; ++k) {
      const uint32_t count = get_bits(d.count_o, k * PtbqCntW, PtbqCntW);
      // The head is only meaningful below the count (the handle memory has no reset).
      const uint32_t head = get_bits(d.head_o, k * CtaIdW, CtaIdW);
      const bool ready = (d.ready_o >> k & 1u) != 0;
      if (count != gold.count(k)) os << "count of slot " << k << ": " << count << " golden " << gold.count(k);
      else if (ready != gold.ready(k)) os << "ready of slot " << k << ": " << ready << " golden " << gold.ready(k);
      else if (count != 0 && head != gold.head(k))
        os << "head of slot " << k << ": " << head << " golden " << gold.head(k);
    }
    if (os.tellp() == 0 && d.fill_o != gold.fill()) os << "fill " << uint32_t(d.fill_o) << " golden " << gold.fill();
    if (os.tellp() != 0) return "cycle " + std::to_string(rtl.cycle()) + ": " + os.str();
    rtl.tick();
    gold.clock(Ptbq::In{push, push_slot, cta, pop, pop_slot});
    return rtl.errors() == 0 ? "" : "RTL assertion failed";
  }
  void cycle(bool push, uint32_t push_slot, uint32_t cta, bool pop, uint32_t pop_slot) {
    REQUIRE(step(push, push_slot, cta, pop, pop_slot) == "");
  }
  /// Idle cycles until slot k's head is ready (at most 8: a fill waits for the port at most one
  /// other fill); returns the cycles waited.
  int wait_ready(uint32_t k) {
    int n = 0;
    for (; !gold.ready(k) && n < 8; ++n) cycle(false, 0, 0, false, 0);
    REQUIRE(gold.ready(k));
    return n;
  }
};

/// Random pushes and pops (of ready slots), half of them on two slots so queues stay short and the
/// corners recur (a push into an empty queue, a push behind the only entry a pop removes, pops of
/// two slots whose fills queue for the port): "" or the first difference.
template <class V>
std::string random_run(uint32_t seed, int cycles) {
  PtbqBench<V> b;
  gs::Rng r(seed);
  for (int i = 0; i < cycles; ++i) {
    const bool few = r.chance_permille(500);
    const uint32_t ps = few ? r.below(2) : r.below(MaxKernels), qs = few ? r.below(2) : r.below(MaxKernels);
    const bool push = r.chance_permille(500) && b.gold.count(ps) < PtbqDepth - 1;
    const bool pop = r.chance_permille(450) && b.gold.ready(qs);
    const std::string diff = b.step(push, ps, r.below(1u << CtaIdW), pop, qs);
    if (!diff.empty()) return diff;
  }
  return "";
}

using Model = Vbench_gs_ptbq;

}  // namespace

TEST_CASE("gs_ptbq directed: a queue fills to its depth and wraps", "[rtl][bench]") {
  PtbqBench<Model> b;
  for (uint32_t i = 0; i < PtbqDepth; ++i) b.cycle(true, 5, 1000 + i, false, 0);
  REQUIRE(b.gold.count(5) == PtbqDepth);
  for (uint32_t i = 0; i < PtbqDepth / 2; ++i) {
    b.wait_ready(5);
    REQUIRE(b.gold.head(5) == 1000 + i);
    b.cycle(false, 0, 0, true, 5);
  }
  // push and pop of the same slot in one cycle, across the wrap of the read pointer
  for (uint32_t i = 0; i < 2 * PtbqDepth; ++i) {
    b.wait_ready(5);
    b.cycle(true, 5, 5000 + i, true, 5);
  }
  while (b.gold.count(5) != 0) {
    b.wait_ready(5);
    b.cycle(false, 0, 0, true, 5);
  }
}

TEST_CASE("gs_ptbq directed: the head registers and the fill unit", "[rtl][bench]") {
  PtbqBench<Model> b;
  b.cycle(true, 2, 21, false, 0);  // into an empty queue: the head register at once
  REQUIRE(b.gold.ready(2));
  REQUIRE(b.gold.head(2) == 21);
  b.cycle(true, 2, 22, true, 2);  // behind the only entry, which a pop removes: the new head
  REQUIRE(b.gold.ready(2));
  REQUIRE(b.gold.head(2) == 22);
  b.cycle(true, 2, 23, false, 0);
  b.cycle(true, 3, 31, false, 0);
  b.cycle(true, 3, 32, false, 0);
  b.cycle(false, 0, 0, true, 2);  // slot 2's head leaves; its next entry is in the RAM
  b.cycle(false, 0, 0, true, 3);  // the fill reads slot 2's entry at this edge; slot 3 waits
  REQUIRE_FALSE(b.gold.ready(2));
  REQUIRE_FALSE(b.gold.ready(3));
  // slot 2: read at the second pop's edge, on the port two edges later, in its register at that
  // edge: ready three cycles after its pop
  REQUIRE(b.wait_ready(2) == 2);
  REQUIRE(b.gold.head(2) == 23);
  // slot 3's read waited for the port (no read at the edge after a read): two cycles behind
  REQUIRE(b.wait_ready(3) == 2);
  REQUIRE(b.gold.head(3) == 32);
  REQUIRE(b.gold.head(2) == 23);
}

TEST_CASE("gs_ptbq random pushes and pops", "[rtl][bench]") { CHECK(random_run<Model>(99, 20000) == ""); }

// One test per mutant: the same stimulus must find a difference (or fail an RTL assertion).
#define GS_PTBQ_MUTANT_TEST(define, model)                                      \
  TEST_CASE("gs_ptbq mutant " #define " is caught", "[rtl][bench][mutation]") { \
    const std::string diff = random_run<model>(99, 20000);                      \
    INFO(diff);                                                                 \
    CHECK(diff != "");                                                          \
    WARN(#define " caught: " << diff);                                          \
  }
GS_BENCH_MUTANTS(GS_PTBQ_MUTANT_TEST)
