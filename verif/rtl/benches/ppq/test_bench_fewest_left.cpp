// gsched block bench: rtl/policy/gs_policy_fewest_left.sv against its golden twin through the
// policy contract (policy_bench.hpp: random tables, out_o and state_o compared every cycle),
// and its GS_MUT_FL_* mutants on the same stimulus: each must differ (docs/rtl/mutations.md).
// The generated policy bench (gs_policy_benches.cpp) runs the unmutated module at 1, 5 and
// MaxSms SMs.
#include <catch2/catch.hpp>
#include <string>

#include "Vbench_gs_policy_fewest_left.h"
#include "gs_policy_fewest_left_mutants.hpp"  // generated: GS_BENCH_MUTANTS(X), one model per GS_MUT_FL_*
#include "policy_bench.hpp"

namespace {

constexpr uint64_t kSeed = 7;
constexpr uint32_t kSms = 4;  // every SM eligible: the SM count does not matter
constexpr int kCycles = 2000;

template <class V>
std::string first_difference() {
  gs::bench::PolicyBench<V> b(gs::Policy::kFewestLeft, kSeed, kSms, false);
  b.set_soft(true);
  b.run(kCycles);
  return b.first_difference();
}

}  // namespace

TEST_CASE("gs_policy_fewest_left: the mutation stimulus against the twin", "[rtl][bench][policy]") {
  gs::bench::PolicyBench<Vbench_gs_policy_fewest_left> b(gs::Policy::kFewestLeft, kSeed, kSms, false);
  b.run(kCycles);
  CHECK(first_difference<Vbench_gs_policy_fewest_left>() == "");
}

#define GS_FL_MUTANT_CASE(def, model)                                                              \
  TEST_CASE("gs_policy_fewest_left mutant " #def " is caught", "[rtl][bench][policy][mutation]") { \
    const std::string at = first_difference<model>();                                              \
    WARN(#def ": first difference at bench " << at);                                               \
    CHECK(at != "");                                                                               \
  }
GS_BENCH_MUTANTS(GS_FL_MUTANT_CASE)
