// gsched block bench: rtl/framework/gs_quota_table.sv vs. golden QuotaTable, every cycle:
// the whole quota table, the whole report record (valid or not) and the waiting change. Each
// mutant of gs_quota_table.sv (GS_MUT_QUOTA_*) runs the random stimulus too and must differ
// from the golden (docs/rtl/mutations.md).
#include <catch2/catch.hpp>

#include <sstream>
#include <string>

#include "Vbench_gs_quota_table.h"
#include "bench_records.hpp"
#include "common/rng.hpp"
#include "gs_quota_table_mutants.hpp"  // generated: GS_BENCH_MUTANTS(X), one model per mutant
#include "sched/golden/gs_quota_table.hpp"

namespace {
using namespace gs::bench;

template <class V>
struct QuotaBench {
  Bench<V> rtl{23};
  QuotaTable gold;
  Ksrt ksrt;  // only the kernel ids are read (the report names the slot's kernel)
  QuotaBench() {
    gold.reset(MaxSms, MaxKernels);
    ksrt.reset(MaxKernels);
    for (uint32_t k = 0; k < MaxKernels; ++k) {
      ksrt.q.tbl[k].valid = true;
      ksrt.q.tbl[k].kernel = KernelId(40 + k);
    }
    drive(QuotaWr{}, 0);
    rtl.reset();
  }
  void drive(const QuotaWr& wr, uint32_t slot_free) {
    auto& d = rtl.dut();
    put_rec(d.wr_i, wr);
    d.slot_free_i = slot_free;
    for (uint32_t k = 0; k < MaxKernels; ++k) put_ksrt(d.ksrt_i, ksrt.entry(k), k * KsrtW);
  }
  /// One cycle: "" or the first difference between the RTL and the golden.
  std::string step(const QuotaWr& wr = {}, uint32_t slot_free = 0) {
    drive(wr, slot_free);
    rtl.settle();
    auto& d = rtl.dut();
    std::ostringstream os;
    for (uint32_t i = 0; i < MaxSms * MaxKernels && os.tellp() == 0; ++i)
      if (get_bits(d.quota_o, i * CtaCntW, CtaCntW) != gold.quota()[i])
        os << "quota of sm " << i / MaxKernels << " slot " << i % MaxKernels << ": "
           << get_bits(d.quota_o, i * CtaCntW, CtaCntW) << " golden " << gold.quota()[i];
    const QuotaCmd rep = get_rec<QuotaCmd>(d.rep_o);
    if (os.tellp() == 0 && rep != gold.report()) os << "report " << rep << " golden " << gold.report();
    const QuotaWr pend = get_rec<QuotaWr>(d.pend_o);
    if (os.tellp() == 0 && (pend.valid || gold.pending().valid) && pend != gold.pending())
      os << "waiting change " << pend << " golden " << gold.pending();
    if (os.tellp() != 0)
      return "cycle " + std::to_string(rtl.cycle()) + " (write " + gs::record_str(wr) + ", slot_free " +
             std::to_string(slot_free) + "): " + os.str();
    rtl.tick();
    QuotaTable::In in;
    in.wr = wr;
    in.slot_free = slot_free;
    in.ksrt = &ksrt;
    gold.clock(in);
    return rtl.errors() == 0 ? "" : "RTL assertion failed";
  }
  void cycle(const QuotaWr& wr = {}, uint32_t slot_free = 0) { REQUIRE(step(wr, slot_free) == ""); }
  static QuotaWr wr(uint32_t sm, uint32_t slot, uint32_t q) {
    QuotaWr w;
    w.valid = true;
    w.sm = SmId(sm);
    w.slot = slot;
    w.max_ctas = q;
    return w;
  }
};

}  // namespace

/// Random writes (half of them on a few SMs, so entries are rewritten, with and without a
/// change) and column clears, often of the slot whose change waits: "" or the first difference.
template <class V>
std::string random_run(uint32_t seed, int cycles) {
  QuotaBench<V> b;
  gs::Rng r(seed);
  for (int i = 0; i < cycles; ++i) {
    QuotaWr w;
    if (r.chance_permille(600)) {
      const uint32_t sm = r.chance_permille(500) ? r.below(4) : r.below(MaxSms);
      w = QuotaBench<V>::wr(sm, r.below(MaxKernels), r.below(MaxCtasPerSm + 1));
    }
    uint32_t free = r.chance_permille(30) ? 1u << r.below(MaxKernels) : 0u;
    if (w.valid && r.chance_permille(20)) free = 1u << w.slot;  // a write and a clear of its column
    const std::string diff = b.step(w, free);
    if (!diff.empty()) return diff;
  }
  return "";
}

using Model = Vbench_gs_quota_table;

TEST_CASE("gs_quota_table directed: a change is reported at the next edge, a column clears silently", "[rtl][bench]") {
  QuotaBench<Model> b;
  b.cycle(QuotaBench<Model>::wr(3, 2, 5));
  REQUIRE(b.gold.pending().valid);          // (3,2) waits ...
  b.cycle(QuotaBench<Model>::wr(1, 6, 2));  // ... and is reported now, (1,6) waiting in its place
  REQUIRE(b.gold.report().valid);
  REQUIRE(b.gold.report().sm == 3);
  REQUIRE(b.gold.pending().sm == 1);
  b.cycle(QuotaBench<Model>::wr(1, 6, 2));  // same value: nothing new waits
  REQUIRE(b.gold.report().sm == 1);
  REQUIRE(b.gold.report().kernel == 46);
  REQUIRE(b.gold.report().max_ctas == 2);
  b.cycle();
  REQUIRE_FALSE(b.gold.report().valid);
  b.cycle(QuotaBench<Model>::wr(7, 4, 3));
  b.cycle({}, 1u << 4);  // slot 4 finishes: the waiting change is reported before the clear ...
  REQUIRE(b.gold.report().valid);
  REQUIRE(b.gold.report().sm == 7);
  REQUIRE(b.gold.report().max_ctas == 3);
  REQUIRE(b.gold.quota()[7 * MaxKernels + 4] == 0);  // ... the column is 0 now, unreported
  b.cycle(QuotaBench<Model>::wr(7, 5, 1), 1u << 5);  // a write and a clear of the same column
  REQUIRE(b.gold.quota()[7 * MaxKernels + 5] == 0);
  REQUIRE_FALSE(b.gold.pending().valid);  // the clear dropped the change
  b.cycle();
  REQUIRE_FALSE(b.gold.report().valid);
}

TEST_CASE("gs_quota_table random writes and column clears", "[rtl][bench]") {
  CHECK(random_run<Model>(7, 20000) == "");
}

// One test per mutant: the same stimulus must find a difference.
#define GS_QUOTA_MUTANT_TEST(define, model)                                            \
  TEST_CASE("gs_quota_table mutant " #define " is caught", "[rtl][bench][mutation]") { \
    const std::string diff = random_run<model>(7, 20000);                              \
    INFO(diff);                                                                        \
    CHECK(diff != "");                                                                 \
    WARN(#define " caught: " << diff);                                                 \
  }
GS_BENCH_MUTANTS(GS_QUOTA_MUTANT_TEST)
