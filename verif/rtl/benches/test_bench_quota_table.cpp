// gsched block bench: rtl/framework/gs_quota_table.sv vs. golden QuotaTable, every cycle:
// the whole quota table and the whole report record (valid or not).
#include <catch2/catch.hpp>

#include "Vbench_gs_quota_table.h"
#include "bench_records.hpp"
#include "common/rng.hpp"
#include "sched/golden/gs_quota_table.hpp"

namespace {
using namespace gs::bench;

struct QuotaBench {
  Bench<Vbench_gs_quota_table> rtl{23};
  QuotaTable gold;
  Ksrt ksrt;   // only the kernel ids are read (the report names the slot's kernel)
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
  void cycle(const QuotaWr& wr = {}, uint32_t slot_free = 0) {
    drive(wr, slot_free);
    rtl.settle();
    auto& d = rtl.dut();
    INFO("cycle " << rtl.cycle() << " write " << wr << " slot_free " << slot_free);
    for (uint32_t i = 0; i < MaxSms * MaxKernels; ++i) {
      INFO("entry sm " << i / MaxKernels << " slot " << i % MaxKernels);
      REQUIRE(get_bits(d.quota_o, i * CtaCntW, CtaCntW) == gold.quota()[i]);
    }
    const QuotaCmd rep = get_rec<QuotaCmd>(d.rep_o);
    INFO("RTL report " << rep << " golden " << gold.report());
    REQUIRE(rep == gold.report());
    rtl.tick();
    QuotaTable::In in;
    in.wr = wr;
    in.slot_free = slot_free;
    in.ksrt = &ksrt;
    gold.clock(in);
    REQUIRE(rtl.errors() == 0);
  }
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

TEST_CASE("gs_quota_table directed: changes are reported lowest first, a column clears silently", "[rtl][bench]") {
  QuotaBench b;
  b.cycle(QuotaBench::wr(3, 2, 5));
  b.cycle(QuotaBench::wr(1, 6, 2));   // report of (3,2) is due now: lower (1,6) comes first next
  REQUIRE(b.gold.report().valid);
  REQUIRE(b.gold.report().sm == 3);
  b.cycle(QuotaBench::wr(1, 6, 2));   // same value: no new mark
  REQUIRE(b.gold.report().sm == 1);
  REQUIRE(b.gold.report().kernel == 46);
  REQUIRE(b.gold.report().max_ctas == 2);
  b.cycle();
  REQUIRE_FALSE(b.gold.report().valid);
  b.cycle(QuotaBench::wr(7, 4, 3));
  b.cycle({}, 1u << 4);   // slot 4 finishes: the report read the marks before the clear ...
  REQUIRE(b.gold.report().valid);
  REQUIRE(b.gold.report().sm == 7);
  REQUIRE(b.gold.report().max_ctas == 3);
  REQUIRE(b.gold.quota()[7 * MaxKernels + 4] == 0);   // ... the column is 0 now, unreported
  b.cycle(QuotaBench::wr(7, 5, 1), 1u << 5);            // a write and a clear of the same column
  REQUIRE(b.gold.quota()[7 * MaxKernels + 5] == 0);
  b.cycle();
  REQUIRE_FALSE(b.gold.report().valid);
}

TEST_CASE("gs_quota_table random writes and column clears", "[rtl][bench]") {
  QuotaBench b;
  gs::Rng r(7);
  for (int i = 0; i < 20000; ++i) {
    QuotaWr w;
    if (r.chance_permille(600))
      w = QuotaBench::wr(r.below(MaxSms), r.below(MaxKernels), r.below(MaxCtasPerSm + 1));
    const uint32_t free = r.chance_permille(30) ? 1u << r.below(MaxKernels) : 0u;
    b.cycle(w, free);
  }
}
