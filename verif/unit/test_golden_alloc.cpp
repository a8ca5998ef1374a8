// gsched tests: the golden scheduler's per-cycle path allocates nothing (docs/verification.md
// "Golden twins": register arrays are written through ArrayD, sized at reset()).
//
// This file replaces the global operator new / delete of gs_unit_tests with counting
// versions (malloc and free underneath); only the counter's difference across the measured
// cycles matters, so the rest of the binary is unaffected.
#include <catch2/catch.hpp>

#include <array>
#include <atomic>
#include <cstdlib>
#include <new>
#include <string>

#include "golden_harness.hpp"

namespace {
std::atomic<uint64_t> g_news{0};
}  // namespace

void* operator new(std::size_t n) {
  ++g_news;
  if (void* p = std::malloc(n ? n : 1)) return p;
  throw std::bad_alloc();
}
void* operator new[](std::size_t n) { return operator new(n); }
// The nothrow forms too: std::stable_sort's temporary buffer takes memory from
// operator new(size_t, nothrow_t) and gives it back through operator delete; with only the
// throwing forms replaced, the two halves come from different allocators (ASan reports the
// mismatch).
void* operator new(std::size_t n, const std::nothrow_t&) noexcept {
  ++g_news;
  return std::malloc(n ? n : 1);
}
void* operator new[](std::size_t n, const std::nothrow_t& t) noexcept { return operator new(n, t); }
void operator delete(void* p) noexcept { std::free(p); }
void operator delete(void* p, const std::nothrow_t&) noexcept { std::free(p); }
void operator delete[](void* p, const std::nothrow_t&) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t) noexcept { std::free(p); }

namespace {

using namespace gs;

/// Runs two kernels on `policy` for `cycles` cycles after admission, finishing every
/// dispatched CTA a fixed delay later (a preempted SM drains) through a fixed ring;
/// returns the allocations counted over those cycles; `dispatched` counts the CTAs issued then.
uint64_t allocations_in_steady_state(const std::string& policy, PreemptMode mode, uint32_t cycles,
                                     uint32_t& dispatched) {
  dispatched = 0;
  const GpuConfig cfg = test::small_gpu(4);
  SchedOptions opt;
  opt.policy = policy;
  opt.preempt = mode;
  GoldenScheduler g(opt);
  g.reset(cfg, opt);
  constexpr uint32_t kRing = 256, kDelay = 40;
  std::array<SmEvent, kRing> due{};
  std::array<uint64_t, kRing> when{};
  uint32_t head = 0, tail = 0;
  std::array<LaunchCmd, 2> launches = {test::launch_cmd(0, 4000, 256, 256 * 16, 0, 3, 60, 0),
                                       test::launch_cmd(1, 4000, 128, 128 * 16, 0, 1, 20, 1)};
  uint64_t before = 0;
  bool ready = true;
  uint32_t next_launch = 0;
  const uint32_t warmup = 64;
  for (uint64_t c = 0; c < warmup + cycles; ++c) {
    if (c == warmup) before = g_news.load();
    SchedInputs in;
    in.cycle = c;
    if (ready && next_launch < launches.size()) in.launch = launches[next_launch++];
    if (head != tail && when[head % kRing] <= c) in.event = due[head++ % kRing];
    const SchedOutputs out = g.step(in);
    ready = out.launch_ready;
    dispatched += c >= warmup && out.dispatch.valid;
    if (out.dispatch.valid && tail - head < kRing) {
      due[tail % kRing] = SmEvent{SmEventType::kCtaFinished, out.dispatch.sm, out.dispatch.kernel, out.dispatch.cta};
      when[tail++ % kRing] = c + kDelay;
    }
    // a drained SM reports kPreemptDone after the CTAs it holds (all dispatched earlier) finished
    if (out.preempt.valid && tail - head < kRing) {
      due[tail % kRing] = SmEvent{SmEventType::kPreemptDone, out.preempt.sm, kNoKernel, 0};
      when[tail++ % kRing] = c + kDelay + 1;
    }
  }
  return g_news.load() - before;
}

}  // namespace

TEST_CASE("the golden scheduler allocates nothing per cycle", "[golden][alloc]") {
  const uint64_t n = g_news.load();
  int* volatile p = new int(1);  // the counter sees allocations
  delete p;
  REQUIRE(g_news.load() == n + 1);
  for (const char* policy : {"left-over", "even", "spatial", "npq", "ppq-excl", "dss", "fewest-left"}) {
    INFO("policy " << policy);
    uint32_t dispatched = 0;
    CHECK(allocations_in_steady_state(policy, PreemptMode::kDrain, 3000, dispatched) == 0);
    CHECK(dispatched > 1000);  // the measured cycles issued and retired CTAs
  }
}
