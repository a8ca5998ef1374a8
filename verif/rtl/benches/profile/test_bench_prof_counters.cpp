// gsched block bench: rtl/profile/gs_prof_counters.sv vs. golden ProfCounters, every cycle: the
// window length, the saturation flag, the per-SM pairs and the per-kernel sums at several read
// addresses (random ones and the ones just written), plus every pair and sum every few hundred
// cycles. Directed: a pair counts only its SM's tagged kernel while the sum counts every SM, a
// tag applies from the next edge and survives a clear, a clear beats a sample of the same cycle,
// frozen counters ignore samples, a miss or an SM beyond the table is not counted, counts
// saturate and flag it. Each mutant of gs_prof_counters.sv
// (GS_MUT_PROF_*, docs/rtl/mutations.md) is built as its own model, and the random stimulus
// must find a difference: the mutation tests below.
#include <catch2/catch.hpp>

#include <sstream>

#include "Vbench_gs_prof_counters.h"
#include "bench_records.hpp"
#include "common/rng.hpp"
#include "gs_prof_counters_mutants.hpp"  // generated: GS_BENCH_MUTANTS(X), one model per GS_MUT_PROF_*
#include "sched/golden/gs_prof_counters.hpp"

namespace {
using namespace gs::bench;
using gs::golden::ProfCounters;
constexpr uint32_t N = gs::spec::MaxSms;
constexpr uint32_t K = gs::spec::MaxKernels;

ObsSample sample(uint32_t sm, uint32_t insts, uint32_t stall) {
  ObsSample o;
  o.valid = true;
  o.sm = SmId(sm);
  o.kernel = 3;  // not read: the slot comes with the sample
  o.cycle = 1234;
  o.insts = insts;
  o.mem_stall = stall;
  return o;
}

template <class V>
class ProfBench {
 public:
  explicit ProfBench(uint32_t seed) : rtl_(seed) {
    gold_.reset(N, K);
    drive({}, 0, 0);
    rtl_.reset();
  }

  /// One cycle with `in`, reading SM rd_sm's pair and slot rd_slot's sum and a few more
  /// addresses; "" or the first difference.
  std::string cycle(const ProfCounters::In& in, uint32_t rd_sm, uint32_t rd_slot, bool whole = false) {
    std::string diff = compare(in, rd_sm, rd_slot);
    if (diff.empty() && in.obs.valid) diff = compare(in, in.obs.sm, in.obs_slot);
    if (diff.empty() && whole)
      for (uint32_t s = 0; s < N && diff.empty(); ++s) diff = compare(in, s, s % K);
    if (!diff.empty()) return "cycle " + std::to_string(rtl_.cycle()) + ": " + diff;
    drive(in, rd_sm, rd_slot);
    rtl_.tick();
    gold_.clock(in);
    return rtl_.errors() == 0 ? "" : "RTL assertion failed";
  }
  const ProfCounters& gold() const { return gold_; }

 private:
  void drive(const ProfCounters::In& in, uint32_t rd_sm, uint32_t rd_slot) {
    auto& d = rtl_.dut();
    d.clear_i = in.clear;
    d.run_i = in.run;
    put_rec(d.obs_i, in.obs);
    d.obs_hit_i = in.obs_hit;
    d.obs_slot_i = in.obs_slot;
    d.tag_i = in.tag;
    d.tag_sm_i = in.tag_sm;
    d.tag_slot_i = in.tag_slot;
    d.rd_sm_i = rd_sm;
    d.rd_slot_i = rd_slot;
  }
  std::string compare(const ProfCounters::In& in, uint32_t rd_sm, uint32_t rd_slot) {
    drive(in, rd_sm, rd_slot);
    rtl_.settle();
    const auto& d = rtl_.dut();
    std::ostringstream os;
    if (d.cycles_o != gold_.cycles()) os << "cycles_o " << d.cycles_o << " golden " << gold_.cycles() << "; ";
    if (bool(d.sat_o) != gold_.sat()) os << "sat_o " << int(d.sat_o) << " golden " << gold_.sat() << "; ";
    if (d.rd_insts_o != gold_.insts(rd_sm))
      os << "insts of sm " << rd_sm << ": " << d.rd_insts_o << " golden " << gold_.insts(rd_sm) << "; ";
    if (d.rd_stall_o != gold_.stall(rd_sm))
      os << "stall of sm " << rd_sm << ": " << d.rd_stall_o << " golden " << gold_.stall(rd_sm) << "; ";
    if (d.acc_insts_o != gold_.acc(rd_slot))
      os << "sum of slot " << rd_slot << ": " << d.acc_insts_o << " golden " << gold_.acc(rd_slot) << "; ";
    return os.str();
  }

  Bench<V> rtl_;
  ProfCounters gold_;
};

/// Random control and samples: mostly running, some frozen stretches, clears, tags (most SMs
/// tagged early, some retagged later), misses, SMs beyond the table, and counts near the top so
/// saturation happens. "" or the first difference.
template <class V>
std::string random_run(uint32_t seed, int cycles) {
  ProfBench<V> b(seed);
  gs::Rng r(seed);
  bool run = true;
  for (int i = 0; i < cycles; ++i) {
    if (r.chance_permille(5)) run = !run;
    ProfCounters::In in;
    in.run = run;
    in.clear = r.chance_permille(3);
    if (i < int(N) || r.chance_permille(20)) {  // SM i first, then random retags
      in.tag = !r.chance_permille(100);
      in.tag_sm = i < int(N) ? uint32_t(i) : r.below(N + 4);
      in.tag_slot = r.below(2);
    }
    if (r.chance_permille(700)) {
      // most samples on a few entries, so that sums grow and big counts meet and saturate
      const bool hot = r.chance_permille(700);
      const uint32_t sm = r.chance_permille(20) ? N + r.below(256 - N) : hot ? r.below(4) : r.below(N);
      const bool big = r.chance_permille(30);
      in.obs = sample(sm, big ? 0xF0000000u + r.below(1u << 27) : r.below(5000),
                      big ? 0xF0000000u + r.below(1u << 27) : r.below(5000));
      in.obs_hit = !r.chance_permille(50);
      in.obs_slot = hot ? r.below(2) : r.below(K);
    }
    const std::string diff = b.cycle(in, r.below(N + 4), r.below(K), i % 500 == 0);
    if (!diff.empty()) return diff;
  }
  return "";
}

}  // namespace

TEST_CASE("gs_prof_counters directed: tags, clear, freeze, misses, saturation", "[rtl][bench]") {
  ProfBench<Vbench_gs_prof_counters> b(3);
  ProfCounters::In run;
  run.run = true;
  auto with = [](ProfCounters::In in, const ObsSample& o, bool hit, uint32_t slot) {
    in.obs = o;
    in.obs_hit = hit;
    in.obs_slot = slot;
    return in;
  };
  auto tagging = [](ProfCounters::In in, uint32_t sm, uint32_t slot) {
    in.tag = true;
    in.tag_sm = sm;
    in.tag_slot = slot;
    return in;
  };
  // SM 5 tagged with slot 2 (registered at the first edge, in the table at the second); a
  // sample staged at the second edge is added at the third, with that cycle's run, into the pair
  // and the sum
  REQUIRE(b.cycle(tagging({}, 5, 2), 5, 2) == "");
  REQUIRE(b.cycle(with({}, sample(5, 100, 7), true, 2), 5, 2) == "");
  CHECK(b.gold().insts(5) == 0);
  CHECK(b.gold().cycles() == 0);
  REQUIRE(b.cycle(with(run, sample(5, 50, 3), true, 2), 5, 2) == "");
  CHECK(b.gold().insts(5) == 100);
  CHECK(b.gold().stall(5) == 7);
  CHECK(b.gold().acc(2) == 100);
  CHECK(b.gold().cycles() == 1);
  REQUIRE(b.cycle(with(run, sample(5, 1000, 1000), true, 1), 5, 2) == "");
  CHECK(b.gold().insts(5) == 150);
  CHECK(b.gold().stall(5) == 10);
  CHECK(b.gold().acc(2) == 150);
  CHECK(b.gold().cycles() == 2);
  // another kernel on SM 5 and an untagged SM: only the sums count them
  REQUIRE(b.cycle(with(run, sample(7, 30, 30), true, 2), 5, 1) == "");
  CHECK(b.gold().insts(5) == 150);
  CHECK(b.gold().acc(1) == 1000);
  REQUIRE(b.cycle(run, 7, 2) == "");
  CHECK(b.gold().insts(7) == 0);
  CHECK(b.gold().acc(2) == 180);
  // frozen: neither the staged sample nor the cycle counts
  REQUIRE(b.cycle(with({}, sample(5, 1000, 1000), false, 2), 5, 2) == "");
  CHECK(b.gold().insts(5) == 150);
  CHECK(b.gold().cycles() == 4);
  // a kernel not in the KSRT, and an SM beyond the table: not counted
  REQUIRE(b.cycle(with(run, sample(200, 1000, 1000), true, 2), 5, 2) == "");
  REQUIRE(b.cycle(with(run, sample(5, 9, 9), true, 2), 200, 2) == "");
  CHECK(b.gold().insts(5) == 150);
  CHECK(b.gold().insts(200) == 0);
  CHECK(b.gold().acc(2) == 180);
  CHECK(b.gold().cycles() == 6);
  // a clear wins over the staged sample and keeps the tags
  ProfCounters::In clear = with(run, sample(5, 9, 9), true, 2);
  clear.clear = true;
  REQUIRE(b.cycle(clear, 5, 2) == "");
  CHECK(b.gold().insts(5) == 0);
  CHECK(b.gold().acc(2) == 0);
  CHECK(b.gold().cycles() == 0);
  REQUIRE(b.cycle(with(run, sample(5, 20, 2), true, 2), 5, 2) == "");  // adds the clear cycle's sample
  REQUIRE(b.cycle(run, 5, 2) == "");
  CHECK(b.gold().insts(5) == 29);
  CHECK(b.gold().acc(2) == 29);
  // a tag presented with a sample is in the table only after that sample was added
  REQUIRE(b.cycle(tagging(with({}, sample(N - 1, 0x10u, 1), true, K - 1), N - 1, K - 1), N - 1, K - 1) == "");
  REQUIRE(b.cycle(with(run, sample(N - 1, 0xFFFFFF00u, 1), true, K - 1), N - 1, K - 1) == "");
  CHECK(b.gold().insts(N - 1) == 0);
  CHECK(b.gold().acc(K - 1) == 0x10u);
  // saturation: held at the top, flagged until the next clear (from zero again)
  REQUIRE(b.cycle(clear, N - 1, K - 1) == "");
  REQUIRE(b.cycle(with({}, sample(N - 1, 0xFFFFFF00u, 1), true, K - 1), N - 1, K - 1) == "");
  REQUIRE(b.cycle(with(run, sample(N - 1, 0x1000u, 1), true, K - 1), N - 1, K - 1) == "");
  CHECK(b.gold().insts(N - 1) == 0xFFFFFF00u);
  REQUIRE(b.cycle(run, N - 1, K - 1) == "");
  CHECK(b.gold().insts(N - 1) == 0xFFFFFFFFu);
  CHECK(b.gold().acc(K - 1) == 0xFFFFFFFFu);
  CHECK(b.gold().sat());
  REQUIRE(b.cycle(run, N - 1, K - 1, true) == "");
  CHECK(b.gold().sat());
  clear = run;
  clear.clear = true;
  REQUIRE(b.cycle(clear, N - 1, K - 1, true) == "");
  CHECK_FALSE(b.gold().sat());
  REQUIRE(b.cycle(run, N - 1, K - 1, true) == "");
}

TEST_CASE("gs_prof_counters random samples, clears and freezes", "[rtl][bench]") {
  CHECK(random_run<Vbench_gs_prof_counters>(11, 30000) == "");
}

// One test per GS_MUT_PROF_* define: the same stimulus must find a difference.
#define GS_PROF_MUTANT_TEST(define, model)                                               \
  TEST_CASE("gs_prof_counters mutant " #define " is caught", "[rtl][bench][mutation]") { \
    const std::string diff = random_run<model>(11, 30000);                               \
    INFO(diff);                                                                          \
    CHECK(diff != "");                                                                   \
    WARN(#define " caught: " << diff);                                                   \
  }
GS_BENCH_MUTANTS(GS_PROF_MUTANT_TEST)
