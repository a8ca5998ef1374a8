// gsched block bench: rtl/framework/gs_smst.sv vs. golden Smst, every cycle (the entries, the
// resident counts and the pending resource writes), and each GS_MUT_SMST_* mutant on the same
// stimulus. Stimulus: CTA allocs and frees (a free only where a CTA of that slot is resident),
// reserve / unreserve, owner writes and kernel-slot frees, in random combinations per cycle.
#include <catch2/catch.hpp>

#include <sstream>
#include <string>

#include "Vbench_gs_smst.h"
#include "bench_records.hpp"
#include "common/rng.hpp"
#include "gs_smst_mutants.hpp"  // generated: GS_BENCH_MUTANTS(X), one model per mutant
#include "sched/golden/gs_smst.hpp"

namespace {
using namespace gs::bench;

template <class V>
struct SmstBench {
  Bench<V> rtl{31};
  Smst gold;
  SmstBench() {
    gold.reset(MaxSms, MaxKernels);
    drive(Smst::In{});
    rtl.reset();
  }
  void drive(const Smst::In& w) {
    auto& d = rtl.dut();
    d.alloc_valid_i = w.alloc_valid;
    d.alloc_sm_i = w.alloc_sm;
    d.alloc_slot_i = w.alloc_slot;
    put_cta_res(d.alloc_res_i, w.alloc_res);
    d.free_valid_i = w.free_valid;
    d.free_sm_i = w.free_sm;
    d.free_slot_i = w.free_slot;
    put_cta_res(d.free_res_i, w.free_res);
    d.unreserve_valid_i = w.unreserve_valid;
    d.unreserve_sm_i = w.unreserve_sm;
    d.reserve_valid_i = w.reserve_valid;
    d.reserve_sm_i = w.reserve_sm;
    d.reserve_next_valid_i = w.reserve_next_valid;
    d.reserve_next_i = w.reserve_next;
    put_rec(d.owner_wr_i, w.owner_wr);
    d.slot_free_i = w.slot_free;
  }
  /// One cycle: "" or the first difference between the RTL and the golden (before the edge).
  std::string step(const Smst::In& w) {
    drive(w);
    rtl.settle();
    auto& d = rtl.dut();
    std::ostringstream os;
    for (uint32_t s = 0; s < MaxSms && os.tellp() == 0; ++s) {
      const SmstEntry r = get_smst(d.entries_o, s * SmstW);
      if (!same(r, gold.entry(s))) os << "SM " << s << " RTL " << str(r) << " golden " << str(gold.entry(s));
      for (uint32_t k = 0; k < MaxKernels && os.tellp() == 0; ++k)
        if (get_bits(d.resident_o, (s * MaxKernels + k) * CtaCntW, CtaCntW) != gold.resident(s, k))
          os << "SM " << s << " resident[" << k << "]";
    }
    if (os.tellp() == 0 && get_rec<SmstReq>(d.pend_alloc_o) != gold.pend_alloc()) os << "pend_alloc_o";
    if (os.tellp() == 0 && get_rec<SmstReq>(d.pend_free_o) != gold.pend_free()) os << "pend_free_o";
    if (os.tellp() != 0) return "cycle " + std::to_string(rtl.cycle()) + ": " + os.str();
    rtl.tick();
    gold.clock(w);  // next(w, d) then commit()
    if (rtl.errors() != 0) return "cycle " + std::to_string(rtl.cycle()) + ": RTL assertion";
    return "";
  }
  void cycle(const Smst::In& w) { REQUIRE(step(w) == ""); }
};

using Model = Vbench_gs_smst;

CtaRes random_res(gs::Rng& r) { return {32 * (1 + r.below(8)), 1 + r.below(8), 256 * r.below(32), 128 * r.below(64)}; }

}  // namespace

TEST_CASE("gs_smst directed: reserve then unreserve hands the SM to next", "[rtl][bench]") {
  SmstBench<Model> b;
  gs::Rng r(5);
  Smst::In a;
  a.alloc_valid = true;
  a.alloc_sm = 3;
  a.alloc_slot = 1;
  a.alloc_res = random_res(r);
  b.cycle(a);  // SM 3 running
  Smst::In res;
  res.reserve_valid = true;
  res.reserve_sm = 3;
  res.reserve_next_valid = true;
  res.reserve_next = 4;
  b.cycle(res);  // reserved for slot 4
  Smst::In fr;
  fr.free_valid = true;
  fr.free_sm = 3;
  fr.free_slot = 1;
  fr.free_res = a.alloc_res;
  fr.unreserve_valid = true;  // same cycle as the last CTA leaving
  fr.unreserve_sm = 3;
  b.cycle(fr);
  b.cycle({});
  REQUIRE(b.gold.entry(3).owner_valid);
  REQUIRE(b.gold.entry(3).owner == 4);
  Smst::In sf;
  sf.slot_free = 1u << 4;  // kernel in slot 4 finished: ownership cleared
  b.cycle(sf);
  b.cycle({});
  REQUIRE(b.gold.entry(3).state == SmState::kIdle);
}

TEST_CASE("gs_smst directed: the resources land a cycle after the CTA count", "[rtl][bench]") {
  SmstBench<Model> b;
  const CtaRes cta{64, 2, 1024, 512};
  Smst::In a;
  a.alloc_valid = true;
  a.alloc_sm = 7;
  a.alloc_slot = 2;
  a.alloc_res = cta;
  b.cycle(a);
  REQUIRE(b.gold.entry(7).ctas == 1);  // the count at once ...
  REQUIRE(b.gold.entry(7).threads == 0);
  REQUIRE(b.gold.pend_alloc().valid);
  Smst::In f;  // ... and a free of the same SM while its alloc's resources are still pending
  f.free_valid = true;
  f.free_sm = 7;
  f.free_slot = 2;
  f.free_res = cta;
  b.cycle(f);
  REQUIRE(b.gold.entry(7).threads == 64);  // ... the resources a cycle later
  REQUIRE(b.gold.entry(7).ctas == 0);
  REQUIRE(b.gold.pend_free().used_threads == 64);  // read with the alloc's write forwarded
  b.cycle({});
  REQUIRE(b.gold.entry(7).threads == 0);
  b.cycle({});
}

/// Random writes on every port: "" or the first difference.
template <class V>
std::string random_run(uint64_t seed, int cycles) {
  SmstBench<V> b;
  gs::Rng r(seed);
  std::vector<CtaRes> last_res(MaxSms * MaxKernels);
  for (int i = 0; i < cycles; ++i) {
    Smst::In w;
    // few SMs, so that requests often hit an SM whose write is still pending
    const uint32_t span = (i / 2000) % 2 ? 4 : MaxSms;
    const uint32_t s = r.below(span), k = r.below(MaxKernels);
    if (r.chance_permille(500) && b.gold.entry(s).ctas < MaxCtasPerSm - 1) {
      w.alloc_valid = true;
      w.alloc_sm = s;
      w.alloc_slot = k;
      w.alloc_res = last_res[s * MaxKernels + k] = random_res(r);
    }
    const uint32_t fs = r.below(span), fk = r.below(MaxKernels);
    if (r.chance_permille(450) && b.gold.resident(fs, fk) != 0) {
      w.free_valid = true;
      w.free_sm = fs;
      w.free_slot = fk;
      w.free_res = last_res[fs * MaxKernels + fk];
    }
    const uint32_t rs = r.below(MaxSms);
    if (r.chance_permille(60)) {
      w.reserve_valid = true;
      w.reserve_sm = rs;
      w.reserve_next_valid = r.chance_permille(700);
      w.reserve_next = r.below(MaxKernels);
    }
    const uint32_t us = r.below(MaxSms);
    if (r.chance_permille(200) && reserved(b.gold.entry(us)) && !(w.reserve_valid && w.reserve_sm == us)) {
      w.unreserve_valid = true;
      w.unreserve_sm = us;
    }
    if (r.chance_permille(80)) {
      w.owner_wr.valid = true;
      w.owner_wr.sm = r.below(MaxSms);
      w.owner_wr.owner_valid = r.chance_permille(700);
      w.owner_wr.owner = r.below(MaxKernels);
    }
    if (r.chance_permille(30)) w.slot_free = 1u << r.below(MaxKernels);
    const std::string diff = b.step(w);
    if (!diff.empty()) return diff;
  }
  return "";
}

TEST_CASE("gs_smst random writes on every port", "[rtl][bench]") { CHECK(random_run<Model>(777, 20000) == ""); }

// One test per mutant: the same stimulus must find a difference (or fail an RTL assertion).
#define GS_SMST_MUTANT_TEST(define, model)                                      \
  TEST_CASE("gs_smst mutant " #define " is caught", "[rtl][bench][mutation]") { \
    const std::string diff = random_run<model>(777, 20000);                     \
    INFO(diff);                                                                 \
    CHECK(diff != "");                                                          \
    WARN(#define " caught: " << diff);                                          \
  }
GS_BENCH_MUTANTS(GS_SMST_MUTANT_TEST)
