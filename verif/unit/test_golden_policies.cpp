// gsched tests: each policy of the golden scheduler on hand-worked cases (Warped-Slicer
// Sec. III for Even and Spatial, Tanasic Sec. 3.4 / 4.2 for DSS, NPQ and PPQ, Pai Sec. 5.1.2 for SRTF/Adaptive,
// SBM Sec. 6.2 for its BASE and MWG).
#include <catch2/catch.hpp>

#include <algorithm>

#include "golden_harness.hpp"
#include "sched/golden/gs_policy_even.hpp"

using namespace gs;
using namespace gs::golden;
using gs::test::Harness;
using gs::test::launch_cmd;
using gs::test::small_gpu;

namespace {
// Warped-Slicer Table I SM: 1536 threads, 48 warps, 32768 registers, 48 KB shared memory, 8 CTAs.
const SmCaps kWsSm{1536, 48, 32768, 48 * 1024, 8};
KsrtEntry cta(uint32_t threads, uint32_t regs, uint32_t shmem) {
  KsrtEntry e;
  e.valid = true;
  e.threads = threads;
  e.warps = (threads + 31) / 32;
  e.regs = regs;
  e.shmem = shmem;
  return e;
}
}  // namespace

TEST_CASE("even quota is the integer share of every resource", "[golden][even]") {
  const KsrtEntry a = cta(256, 256 * 20, 0);          // A: 256 threads, 20 regs/thread
  const KsrtEntry b = cta(128, 128 * 32, 12 * 1024);  // B: 128 threads, 32 regs/thread, 12 KB
  const KsrtEntry c = cta(64, 64 * 16, 0);            // C: 64 threads, 16 regs/thread
  // alone: 1536/256 = 6 threads-wise, 32768/5120 = 6 regs-wise, 8 slots -> 6
  CHECK(PolicyEven::compute(kWsSm, a, 1) == 6);
  // two kernels: A min(768/256, 24/8, 16384/5120, 4) = 3; B min(6, 6, 4, 24576/12288 = 2, 4) = 2
  CHECK(PolicyEven::compute(kWsSm, a, 2) == 3);
  CHECK(PolicyEven::compute(kWsSm, b, 2) == 2);
  // three kernels: A min(2, 2, 10922/5120 = 2, 8/3 = 2) = 2; B min(4, 4, 2, 16384/12288 = 1, 2) = 1;
  // C min(8, 8, 10, 2) = 2
  CHECK(PolicyEven::compute(kWsSm, a, 3) == 2);
  CHECK(PolicyEven::compute(kWsSm, b, 3) == 1);
  CHECK(PolicyEven::compute(kWsSm, c, 3) == 2);
  // a CTA larger than its share still gets one CTA (no starvation)
  CHECK(PolicyEven::compute(kWsSm, cta(1024, 1024, 0), 2) == 1);
}

TEST_CASE("even splits one SM between two kernels and reports the quotas", "[golden][even]") {
  Harness h(small_gpu(1), "even");
  h.launches.push_back(launch_cmd(0, 100, 256, 256 * 20, 0));
  h.launches.push_back(launch_cmd(1, 100, 128, 128 * 32, 12 * 1024));
  h.run(200);
  const auto& q = h.g.quota_table().quota();
  CHECK(q[0] == 3);
  CHECK(q[1] == 2);
  CHECK(h.g.smst().resident(0, 0) == 3);
  CHECK(h.g.smst().resident(0, 1) == 2);
  // the last report of each kernel carries its final quota
  uint32_t last0 = 99, last1 = 99;
  for (const auto& r : h.quotas) (r.kernel == 0 ? last0 : last1) = r.max_ctas;
  CHECK(last0 == 3);
  CHECK(last1 == 2);
}

TEST_CASE("spatial gives every other SM to each of two kernels", "[golden][spatial]") {
  Harness h(small_gpu(4), "spatial");
  h.launches.push_back(launch_cmd(0, 100, 256, 256 * 8, 0));
  h.launches.push_back(launch_cmd(1, 100, 256, 256 * 8, 0));
  h.run(100);
  for (uint32_t s = 0; s < 4; ++s) {
    const SmstEntry& m = h.g.smst().entry(s);
    INFO("SM " << s);
    CHECK(m.owner_valid);
    CHECK(m.owner == s % 2);
  }
  // kernel 1 only ever ran on SMs 1 and 3
  CHECK(h.count_on(1, 0) == 0);
  CHECK(h.count_on(1, 2) == 0);
  CHECK(h.count_on(1, 1) > 0);
  CHECK(h.count_on(1, 3) > 0);
}

TEST_CASE("npq issues the most important waiting kernel first", "[golden][npq]") {
  Harness h(small_gpu(1, 1536, 32768, 48 * 1024, 1), "npq");  // one CTA at a time
  h.launches.push_back(launch_cmd(0, 2, 64, 64, 0, /*prio*/ 0));
  h.run(8);
  REQUIRE(h.dispatches.size() == 1);
  h.launches.push_back(launch_cmd(1, 1, 64, 64, 0, /*prio*/ 3));
  h.launches.push_back(launch_cmd(2, 1, 64, 64, 0, /*prio*/ 1));
  h.run(8);
  CHECK(h.preempts.empty());  // non-preemptive
  std::vector<KernelId> order;
  for (int i = 0; i < 3; ++i) {
    h.finish(h.dispatches.back());
    h.run(8);
  }
  for (const auto& d : h.dispatches) order.push_back(d.kernel);
  CHECK(order == std::vector<KernelId>{0, 1, 2, 0});
}

TEST_CASE("ppq preempts the SMs held by less important kernels", "[golden][ppq]") {
  Harness h(small_gpu(2), "ppq-excl", PreemptMode::kDrain);
  h.launches.push_back(launch_cmd(0, 100, 512, 512 * 8, 0, /*prio*/ 0));
  h.run(20);
  REQUIRE(h.dispatches.size() == 6);
  h.launches.push_back(launch_cmd(1, 4, 512, 512 * 8, 0, /*prio*/ 2));
  h.run(20);
  REQUIRE(h.preempts.size() == 2);
  for (uint32_t s = 0; s < 2; ++s) {
    CHECK(h.preempts[s].sm == s);
    CHECK(h.preempts[s].mode == PreemptMode::kDrain);
    CHECK(h.preempts[s].victim == kNoKernel);
    CHECK(h.preempts[s].next == 1);
    CHECK(h.g.smst().entry(s).state == SmState::kReserved);
  }
  CHECK(h.dispatches.size() == 6);
  // drain SM 0: its three CTAs finish, then the SM reports the preemption done
  for (const auto& d : std::vector<DispatchCmd>(h.dispatches))
    if (d.sm == 0) h.finish(d);
  h.events.push_back(SmEvent{SmEventType::kPreemptDone, 0, kNoKernel, 0});
  h.run(20);
  REQUIRE(h.dispatches.size() == 9);
  for (size_t i = 6; i < 9; ++i) {
    CHECK(h.dispatches[i].kernel == 1);  // exclusive: only the important kernel
    CHECK(h.dispatches[i].sm == 0);      // SM 1 is still being drained
  }
}

TEST_CASE("ppq shared lets a less important kernel use the leftover", "[golden][ppq]") {
  Harness h(small_gpu(1), "ppq-shared");
  h.launches.push_back(launch_cmd(1, 1, 512, 512 * 8, 0, /*prio*/ 2));
  h.launches.push_back(launch_cmd(0, 10, 512, 512 * 8, 0, /*prio*/ 0));
  h.run(30);
  REQUIRE(h.dispatches.size() == 3);
  CHECK(h.dispatches[0].kernel == 1);
  CHECK(h.dispatches[1].kernel == 0);
  CHECK(h.preempts.empty());
  Harness x(small_gpu(1), "ppq-excl");
  x.launches.push_back(launch_cmd(1, 1, 512, 512 * 8, 0, /*prio*/ 2));
  x.launches.push_back(launch_cmd(0, 10, 512, 512 * 8, 0, /*prio*/ 0));
  x.run(30);
  // exclusive: kernel 1 issued its only CTA, so kernel 0 may follow (no pending top kernel)
  REQUIRE(x.dispatches.size() == 3);
  CHECK(x.dispatches[0].kernel == 1);
}

TEST_CASE("sm-sharing exclusive keeps one kernel per SM (Tanasic Sec. 2.3)", "[golden][left-over][npq]") {
  // Two SMs of 1536 threads; A (oldest) fills three 256-thread CTAs per SM and has 6 CTAs in
  // all, so both SMs keep room for B. Shared: B takes the leftovers at once. Exclusive: B
  // waits until an SM has no CTA of A left, then takes that SM alone.
  for (const char* policy : {"left-over", "npq"}) {
    INFO(policy);
    Harness shared(small_gpu(2), policy);
    shared.launches.push_back(launch_cmd(0, 6, 256, 256 * 8, 0));
    shared.launches.push_back(launch_cmd(1, 4, 256, 256 * 8, 0));
    shared.run(40);
    CHECK(shared.count_on(1, 0) + shared.count_on(1, 1) == 4);

    Harness h(small_gpu(2), policy, PreemptMode::kDrain, SmSharing::kExclusive);
    h.launches.push_back(launch_cmd(0, 6, 256, 256 * 8, 0));
    h.launches.push_back(launch_cmd(1, 4, 256, 256 * 8, 0));
    h.run(40);
    REQUIRE(h.dispatches.size() == 6);
    for (const auto& d : h.dispatches) CHECK(d.kernel == 0);
    // A's CTAs on SM 1 finish: SM 1 is free, B takes it (all four CTAs fit); SM 0 stays A's
    for (const auto& d : std::vector<DispatchCmd>(h.dispatches))
      if (d.sm == 1) h.finish(d);
    h.run(40);
    REQUIRE(h.dispatches.size() == 10);
    for (size_t i = 6; i < 10; ++i) {
      CHECK(h.dispatches[i].kernel == 1);
      CHECK(h.dispatches[i].sm == 1);
    }
    CHECK(h.g.smst().resident(0, 1) == 0);
  }
}

TEST_CASE("sm-sharing exclusive is refused by policies that share SMs by design", "[golden][hardening]") {
  SchedOptions o;
  o.sm_sharing = SmSharing::kExclusive;
  for (const char* policy : {"even", "spatial", "dss", "fewest-left"}) {
    INFO(policy);
    o.policy = policy;
    GoldenScheduler g(o);
    CHECK_THROWS_WITH(g.reset(small_gpu(2), o),
                      Catch::Contains("--sm-sharing exclusive: policy") &&
                          Catch::Contains("exclusive applies to left-over, npq, ppq-excl, ppq-shared"));
    CHECK_FALSE(policy_takes_sm_sharing(policy));
  }
  for (const char* policy : {"left-over", "npq", "ppq", "ppq-shared"}) {
    o.policy = policy;
    GoldenScheduler g(o);
    CHECK_NOTHROW(g.reset(small_gpu(2), o));
    CHECK(policy_takes_sm_sharing(policy));
  }
}

TEST_CASE("dss token accounting follows Algorithm 1", "[golden][dss]") {
  // 4 SMs. Kernel A (2 tokens) arrives alone and takes all four idle SMs: 2 - 4 = -2.
  Harness h(small_gpu(4), "dss", PreemptMode::kDrain);
  h.launches.push_back(launch_cmd(0, 1000, 256, 256 * 8, 0, 0, /*tokens*/ 2));
  h.run(60);
  CHECK(h.g.ksrt().entry(0).tokens == -2);
  for (uint32_t s = 0; s < 4; ++s) CHECK(h.g.smst().entry(s).owner == 0);
  // Kernel B (2 tokens) arrives: no idle SM; kmax = B (2), kmin = A (-2): 2 > -2 + 1 ->
  // reserve an SM of A for B (A -1, B 1); again 1 > -1 + 1 -> (A 0, B 1 - 1 = 0); then
  // 0 > 0 + 1 fails: steady state after exactly two preemptions.
  h.launches.push_back(launch_cmd(1, 1000, 256, 256 * 8, 0, 0, /*tokens*/ 2));
  h.run(60);
  REQUIRE(h.preempts.size() == 2);
  CHECK(h.g.ksrt().entry(0).tokens == 0);
  CHECK(h.g.ksrt().entry(1).tokens == 0);
  for (const auto& p : h.preempts) {
    CHECK(p.victim == 0);
    CHECK(p.next == 1);
    CHECK(h.g.smst().entry(p.sm).state == SmState::kReserved);
    CHECK(h.g.smst().entry(p.sm).next == 1);
  }
  CHECK(h.preempts[0].sm != h.preempts[1].sm);
  // the drained SMs become B's
  const SmId s0 = h.preempts[0].sm, s1 = h.preempts[1].sm;
  for (const auto& d : std::vector<DispatchCmd>(h.dispatches))
    if (d.sm == s0 || d.sm == s1) h.finish(d);
  h.events.push_back(SmEvent{SmEventType::kPreemptDone, s0, 0, 0});
  h.events.push_back(SmEvent{SmEventType::kPreemptDone, s1, 0, 0});
  h.run(60);
  CHECK(h.g.smst().entry(s0).owner == 1);
  CHECK(h.g.smst().entry(s1).owner == 1);
  CHECK(h.count_on(1, s0) > 0);
  CHECK(h.count_on(1, s1) > 0);
  CHECK(h.preempts.size() == 2);  // steady: no further repartitioning
}

TEST_CASE("dss returns a token when a finished kernel's SM is released", "[golden][dss]") {
  Harness h(small_gpu(2), "dss");
  h.launches.push_back(launch_cmd(0, 1, 64, 64, 0, 0, /*tokens*/ 1));
  h.launches.push_back(launch_cmd(1, 1000, 64, 64, 0, 0, /*tokens*/ 1));
  h.run(60);
  // A took one SM (0 tokens), B took the other (0 tokens); A's only CTA is issued
  REQUIRE(h.dispatches.size() >= 2);
  const DispatchCmd a = h.dispatches[0].kernel == 0 ? h.dispatches[0] : h.dispatches[1];
  REQUIRE(a.kernel == 0);
  h.finish(a);
  h.run(60);
  // A finished: its SM went idle and was handed to B (tokens 0 - 1 = -1)
  CHECK(h.g.ksrt().entry(1).tokens == -1);
  CHECK(h.g.smst().entry(a.sm).owner == 1);
}

TEST_CASE("srtf-adaptive holds the shortest kernel to its residency while the order is unfair", "[golden][srtf]") {
  // Two SMs of 8 CTA slots; A and B (grid 40, 64 threads) launch together and A fills both SMs.
  // An A block of 100 cycles ends on SM 1: A is predicted and SM 1 refills with A. An A block
  // ends on SM 0, which then samples B: a 10-cycle B block makes B best, with rem_B far below
  // rem_A, and A's slowdown behind B, (rem_B + rem_A) / rem_A, over 1.5: unfair. Six A blocks
  // then end on SM 1 one at a time: under srtf every freed slot goes to B; srtf-adaptive holds
  // B to adaptive_residency (3) CTAs there and gives the rest back to A.
  // The waits follow the latency contract (docs/rtl/gs_policy_srtf.md): a block end is a
  // prediction after kPredict cycles, and every kernel's place in the order kOrder cycles later.
  constexpr uint32_t kPredict = gs::spec::CycleW + gs::spec::SrtfPredW + 6;
  constexpr uint32_t kOrder = (gs::spec::MaxKernels + 1) * (gs::spec::SrtfSweepLast + 1);
  const auto run = [](const std::string& policy) {
    Harness h(small_gpu(2, 1536, 32768, 48 * 1024, 8), policy);
    h.launches.push_back(launch_cmd(0, 40, 64, 64, 0));
    h.launches.push_back(launch_cmd(1, 40, 64, 64, 0));
    h.run(40);
    REQUIRE(h.dispatches.size() == 16);  // A everywhere, B waits
    std::vector<uint32_t> ended;         // A's CTAs already ended
    const auto end_one = [&](KernelId k, SmId sm, uint32_t start, uint32_t end) {
      for (const auto& d : h.dispatches)
        if (d.kernel == k && d.sm == sm && std::find(ended.begin(), ended.end(), d.cta * 2 + k) == ended.end()) {
          ended.push_back(d.cta * 2 + k);
          h.events.push_back(SmEvent{SmEventType::kCtaFinished, sm, k, d.cta, start, end});
          return;
        }
      FAIL("no running CTA of kernel " << k << " on SM " << sm);
    };
    end_one(0, 1, 100, 200);  // A's t = 100; SM 1 refills with A
    h.run(kPredict + 20);     // A is predicted
    end_one(0, 0, 100, 300);  // SM 0 samples B in the freed slot
    h.run(20);
    REQUIRE(h.count_on(1, 0) == 1);
    end_one(1, 0, 400, 410);        // B's t = 10
    h.run(kPredict + kOrder + 20);  // B is predicted, first in the order, and the order unfair
    const size_t before = h.dispatches.size();
    for (uint32_t i = 0; i < 6; ++i) {
      end_one(0, 1, 500, 600 + i);
      h.run(20);
    }
    uint32_t b = 0, a = 0;
    for (size_t j = before; j < h.dispatches.size(); ++j)
      if (h.dispatches[j].sm == 1) ++(h.dispatches[j].kernel == 1 ? b : a);
    return std::pair<uint32_t, uint32_t>{b, a};
  };
  const auto srtf = run("srtf");
  const auto adaptive = run("srtf-adaptive");
  CHECK(srtf.first == 6);  // SRTF: every freed slot of SM 1 goes to B
  CHECK(srtf.second == 0);
  CHECK(adaptive.first == 3);  // sharing: B up to 3 CTAs on SM 1, the rest back to A
  CHECK(adaptive.second == 3);
}

TEST_CASE("sbm-base puts two tasks on separate halves of the SMs (SBM Sec. 6.2)", "[golden][sbm]") {
  Harness h(small_gpu(5), "sbm-base");
  h.launches.push_back(launch_cmd(0, 400, 256, 256 * 8, 0));
  h.launches.push_back(launch_cmd(1, 400, 256, 256 * 8, 0));
  h.run(300);
  // h = (5 + 1) / 2 = 3: task 1 (kernel 0) on SMs 0..2, task 2 on 3..4; each fills its half
  for (uint32_t s = 0; s < 5; ++s) {
    INFO("SM " << s);
    CHECK(h.count_on(0, s) == (s < 3 ? 6u : 0u));  // 1536 / 256 = 6 CTAs fit an SM
    CHECK(h.count_on(1, s) == (s < 3 ? 0u : 6u));
  }
}

TEST_CASE("mwg gives each of two tasks half of every SM, sbm-base none of the other's", "[golden][sbm]") {
  Harness h(small_gpu(2), "mwg");
  h.launches.push_back(launch_cmd(0, 400, 256, 256 * 8, 0));  // 6 fit an SM alone: quota 3
  h.launches.push_back(launch_cmd(1, 400, 128, 128 * 8, 0));  // 8 fit (CTA slots): quota 4
  h.run(300);
  for (uint32_t s = 0; s < 2; ++s) {
    INFO("SM " << s);
    CHECK(h.g.smst().resident(s, 0) == 3);
    CHECK(h.g.smst().resident(s, 1) == 4);
  }
}
