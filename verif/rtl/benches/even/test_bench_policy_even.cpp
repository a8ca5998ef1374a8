// gs_policy_even's quota unit (rtl/policy/gs_policy_even.sv) with tables that hold still long
// enough for whole scans on two SM types (policy_bench.hpp): every write equals the integer
// definition (PolicyEven::compute), the unit runs once per SM type, and each GS_MUT_EVEN_*
// mutant differs from the golden twin under the same stimulus.
#include <catch2/catch.hpp>
#include <string>

#include "Vbench_gs_policy_even.h"
#include "gs_policy_even_mutants.hpp"  // generated: GS_BENCH_MUTANTS(X), one model per GS_MUT_EVEN_*
#include "policy_bench.hpp"
#include "sched/golden/gs_policy_even.hpp"

using gs::bench::PolicyBench;

namespace {
/// Stimulus: random tables for a while, then still tables long enough for a whole scan (with
/// the quota unit's two runs) between changes; `soft` records the first difference instead
/// of failing. Returns the first difference ("" when none).
template <class V>
std::string run_quiet_phases(uint32_t sms, bool soft, int phases) {
  PolicyBench<V> b(gs::Policy::kEven, 41 + sms, sms);
  b.set_soft(soft);
  b.set_slot_free_permille(0);
  for (int p = 0; p < phases && b.first_difference().empty(); ++p) {
    b.run(60, 300);                               // new kernel sets, per-CTA uses and restarts
    b.run(sms * gs::spec::MaxKernels + 1200, 0);  // still: the scan completes
  }
  return b.first_difference();
}
}  // namespace

TEST_CASE("gs_policy_even: every quota written equals the integer definition, on both SM types",
          "[rtl][bench][policy]") {
  for (uint32_t sms : {5u, 16u, gs::spec::MaxSms}) {
    PolicyBench<Vbench_gs_policy_even> b(gs::Policy::kEven, 7 + sms, sms);
    b.set_slot_free_permille(0);
    for (int phase = 0; phase < 4; ++phase) {
      b.run(60, 300);
      b.run(sms * gs::spec::MaxKernels + 1200, 0);
      const uint32_t pending = b.pending();
      const uint32_t nk = static_cast<uint32_t>(__builtin_popcount(pending));
      INFO(sms << " SMs, phase " << phase << ", kernel set " << pending);
      for (uint32_t s = 0; s < sms; ++s)
        for (uint32_t k = 0; k < gs::spec::MaxKernels; ++k) {
          if (!(pending >> k & 1u)) continue;
          INFO("SM " << s << " slot " << k);
          CHECK(b.last_quota(s, k) == gs::golden::PolicyEven::compute(b.caps()[s], b.ksrt().entry(k), nk));
        }
    }
  }
}

TEST_CASE("gs_policy_even unmutated: the mutation stimulus finds no difference", "[rtl][bench]") {
  CHECK(run_quiet_phases<Vbench_gs_policy_even>(16, true, 6) == "");
}

// One test per GS_MUT_EVEN_* define of gs_policy_even.sv: the same stimulus must find a difference.
#define GS_EVEN_MUTANT_TEST(define, model)                                             \
  TEST_CASE("gs_policy_even mutant " #define " is caught", "[rtl][bench][mutation]") { \
    const std::string diff = run_quiet_phases<model>(16, true, 6);                     \
    INFO(diff);                                                                        \
    CHECK(diff != "");                                                                 \
    WARN(#define " caught: " << diff);                                                 \
  }
GS_BENCH_MUTANTS(GS_EVEN_MUTANT_TEST)

TEST_CASE("gs_policy_even: quota unit latency (docs/rtl/gs_policy_even.md)", "[rtl][bench][policy]") {
  // the twin alone (the benches above hold it to the RTL cycle for cycle): two kernels that use
  // every resource, 8 SMs of which the last 3 are another type
  using gs::golden::PolicyEven;
  const uint32_t sms = 8;
  std::vector<gs::golden::SmCaps> caps(sms, gs::golden::SmCaps{2048, 64, 65536, 49152, 16});
  for (uint32_t s = 5; s < sms; ++s) caps[s] = gs::golden::SmCaps{1536, 48, 65536, 65536, 24};
  std::vector<uint8_t> big(sms, 0);
  gs::golden::PolicyCfg cfg;
  cfg.policy = gs::Policy::kEven;
  cfg.num_sms = sms;
  cfg.slots = gs::spec::MaxKernels;
  cfg.caps = &caps;
  cfg.sm_big = &big;
  gs::golden::Ksrt ksrt;
  gs::golden::Smst smst;
  gs::golden::Ptbq ptbq;
  gs::golden::ActiveQueue aq;
  ksrt.reset(gs::spec::MaxKernels);
  smst.reset(sms, gs::spec::MaxKernels);
  ptbq.reset(gs::spec::MaxKernels);
  aq.reset(gs::spec::MaxKernels);
  for (uint32_t k : {1u, 4u}) {
    gs::golden::KsrtEntry& e = ksrt.q.tbl[k];
    e.valid = true;
    e.threads = 256, e.warps = 8, e.regs = 8192, e.shmem = 4096, e.grid = 100;
  }
  PolicyEven twin;
  twin.reset(cfg);
  const gs::golden::PolicyView view{&ksrt, &smst, &ptbq, &aq, 0b10010};
  gs::golden::PolicyOut out;
  out.size(sms, gs::spec::MaxKernels);
  std::vector<int> write_cycle(sms, -1);
  for (int c = 0; c < 2000; ++c) {  // the set changes at cycle 0 (done is empty after reset)
    out.clear();
    twin.comb(cfg, view, gs::golden::PolicyEvent{}, out);
    if (out.quota_wr.valid && write_cycle[out.quota_wr.sm] < 0) write_cycle[out.quota_wr.sm] = c;
    twin.next(cfg, view, gs::golden::PolicyEvent{}, out, false);
    twin.commit();
  }
  const int K = static_cast<int>(gs::spec::MaxKernels);
  const int run = 1 + 7 + 2 * 4 * 13 + (K - 2);  // start, cta, two kernels x four resources, skips
  CHECK(write_cycle[0] == 1 + run + 3);          // load first; SM 0's slot 0 (not in the set), slot 1, registered
  CHECK(write_cycle[4] == write_cycle[0] + 4 * K);
  CHECK(write_cycle[5] == write_cycle[4] + K + run);  // the second type: the unit runs again
  CHECK(write_cycle[7] == write_cycle[5] + 2 * K);
}
