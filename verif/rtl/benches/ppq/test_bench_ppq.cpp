// gsched block bench: rtl/policy/gs_policy_ppq.sv against its golden twin through the policy
// contract (policy_bench.hpp: random tables, out_o and state_o compared every cycle), at 16 SMs
// so that the preemption scans come round often, and its GS_MUT_PPQ_* mutants on the same
// stimulus: each must differ (docs/rtl/mutations.md). The generated policy bench
// (gs_policy_benches.cpp) runs the unmutated module at 1, 5 and MaxSms SMs.
#include <catch2/catch.hpp>
#include <string>

#include "Vbench_gs_policy_ppq.h"
#include "gs_policy_ppq_mutants.hpp"  // generated: GS_BENCH_MUTANTS(X), one model per GS_MUT_PPQ_*
#include "policy_bench.hpp"

namespace {

constexpr uint64_t kSeed = 7;
constexpr uint32_t kSms = 16;
constexpr int kCycles = 3000;

/// The bench cycle of the first difference of one model from the twin under the shared
/// stimulus (ppq-excl, SMs shared), or "".
template <class V>
std::string first_difference() {
  gs::bench::PolicyBench<V> b(gs::Policy::kPpqExcl, kSeed, kSms, false);
  b.set_soft(true);
  b.run(kCycles);
  return b.first_difference();
}

}  // namespace

TEST_CASE("gs_policy_ppq: the mutation stimulus against the twin, both modes, SMs shared or exclusive",
          "[rtl][bench][policy]") {
  for (gs::Policy p : {gs::Policy::kPpqExcl, gs::Policy::kPpqShared})
    for (bool excl : {false, true}) {
      gs::bench::PolicyBench<Vbench_gs_policy_ppq> b(p, kSeed, kSms, excl);
      b.run(kCycles);
      WARN((p == gs::Policy::kPpqExcl ? "ppq-excl" : "ppq-shared")
           << (excl ? " (SMs exclusive)" : "") << ": " << b.requests() << " preemption requests in " << kCycles
           << " cycles");
      if (p == gs::Policy::kPpqExcl && !excl) CHECK(b.requests() > 0);
    }
  CHECK(first_difference<Vbench_gs_policy_ppq>() == "");
}

#define GS_PPQ_MUTANT_CASE(def, model)                                                     \
  TEST_CASE("gs_policy_ppq mutant " #def " is caught", "[rtl][bench][policy][mutation]") { \
    const std::string at = first_difference<model>();                                      \
    WARN(#def ": first difference at bench " << at);                                       \
    CHECK(at != "");                                                                       \
  }
GS_BENCH_MUTANTS(GS_PPQ_MUTANT_CASE)
