// gsched tests: ParallelFor (common/parallel_for.hpp) and the Gpu run on several threads
// (RunOptions::threads, gsim --threads): every thread count gives the same run.
#include <catch2/catch.hpp>

#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#include "common/error.hpp"
#include "common/parallel_for.hpp"
#include "config/gpu_config.hpp"
#include "gpu/gpu.hpp"
#include "sched/golden/golden_scheduler.hpp"
#include "workload/kernel_desc.hpp"

using namespace gs;

TEST_CASE("ParallelFor runs every index exactly once, for any n and thread count", "[parallel]") {
  for (unsigned threads : {1u, 2u, 3u, 5u}) {
    ParallelFor pool(threads);
    REQUIRE(pool.threads() == threads);
    for (uint32_t n : {0u, 1u, 2u, 4u, 7u, 100u}) {
      std::vector<int> hits(n, 0);
      auto body = [&](uint32_t i) { ++hits[i]; };
      for (int rep = 0; rep < 200; ++rep) pool.run(n, body);  // reused: no state leaks between calls
      for (uint32_t i = 0; i < n; ++i) CHECK(hits[i] == 200);
    }
  }
}

TEST_CASE("ParallelFor rethrows the exception a one-thread loop would throw", "[parallel]") {
  // Iterations 3 and 10 throw. One thread stops at 3; with three threads, 3 is in the first
  // thread's block [0, 4) and 10 in the third's [8, 12): the first thread's exception wins.
  auto body = [](uint32_t i) {
    if (i == 3 || i == 10) throw std::runtime_error("iteration " + std::to_string(i));
  };
  for (unsigned threads : {1u, 3u}) {
    ParallelFor pool(threads);
    CHECK_THROWS_WITH(pool.run(12, body), "iteration 3");
    // ...and the pool still works afterwards.
    std::vector<int> hits(12, 0);
    auto count = [&](uint32_t i) { ++hits[i]; };
    pool.run(12, count);
    for (int h : hits) CHECK(h == 1);
  }
}

namespace {

RunResult run_with_threads(const char* config, const char* mix_name, unsigned threads, const SchedOptions& sched) {
  const GpuConfig cfg = load_gpu_config(config);
  const auto lib = load_kernel_library();
  const Mix mix = load_mix(mix_name, lib);
  RunOptions ro;
  ro.sched = sched;
  ro.threads = threads;
  GoldenScheduler golden(sched);
  Gpu gpu(cfg, mix, golden, ro);
  return gpu.run();
}

void require_same_run(const RunResult& a, const RunResult& b) {
  REQUIRE(a.cycles == b.cycles);
  REQUIRE(a.kernels.size() == b.kernels.size());
  for (size_t k = 0; k < a.kernels.size(); ++k) {
    CHECK(a.kernels[k].end_cycle == b.kernels[k].end_cycle);
    CHECK(a.kernels[k].instructions == b.kernels[k].instructions);
    CHECK(a.kernels[k].preemptions == b.kernels[k].preemptions);
  }
  REQUIRE(a.ctas.size() == b.ctas.size());
  for (size_t i = 0; i < a.ctas.size(); ++i) {
    CHECK(a.ctas[i].kernel == b.ctas[i].kernel);
    CHECK(a.ctas[i].cta == b.ctas[i].cta);
    CHECK(a.ctas[i].sm == b.ctas[i].sm);
    CHECK(a.ctas[i].start_cycle == b.ctas[i].start_cycle);
    CHECK(a.ctas[i].end_cycle == b.ctas[i].end_cycle);
  }
  // Every counter of every SM and kernel (all uint64_t fields, so bytes compare exactly).
  for (uint32_t s = 0; s < a.counters.sms(); ++s)
    for (uint32_t k = 0; k < a.counters.kernels(); ++k)
      CHECK(std::memcmp(&a.counters.at(s, k), &b.counters.at(s, k), sizeof(KernelSmCounters)) == 0);
  REQUIRE(a.dram.size() == b.dram.size());
  for (size_t c = 0; c < a.dram.size(); ++c)
    CHECK(std::memcmp(&a.dram[c], &b.dram[c], sizeof(DramChannelCounters)) == 0);
}

}  // namespace

TEST_CASE("a run on 2 or 3 threads is the run on one thread", "[parallel]") {
  SchedOptions sched;
  const RunResult one = run_with_threads("warped-slicer", "test-staggered", 1, sched);
  REQUIRE(one.cycles > 0);
  require_same_run(one, run_with_threads("warped-slicer", "test-staggered", 2, sched));
  require_same_run(one, run_with_threads("warped-slicer", "test-staggered", 3, sched));  // 16 SMs: blocks of 5, 5, 6
}

TEST_CASE("a context-switch run on 2 threads is the run on one thread", "[parallel]") {
  SchedOptions sched;
  sched.policy = "ppq-excl";
  sched.preempt = PreemptMode::kSwitch;
  const RunResult one = run_with_threads("tanasic-k20c", "ppq-priority", 1, sched);
  uint64_t switched = 0;
  for (uint32_t s = 0; s < one.counters.sms(); ++s)
    for (uint32_t k = 0; k < one.counters.kernels(); ++k) switched += one.counters.at(s, k).ctas_switched;
  REQUIRE(switched > 0);  // the context engines ran
  require_same_run(one, run_with_threads("tanasic-k20c", "ppq-priority", 2, sched));
}

TEST_CASE("RunOptions::threads outside 1..kMaxThreads is an input error", "[parallel]") {
  const GpuConfig cfg = load_gpu_config("warped-slicer");
  const auto lib = load_kernel_library();
  const Mix mix = load_mix("test-pair", lib);
  SchedOptions sched;
  GoldenScheduler golden(sched);
  for (unsigned bad : {0u, ParallelFor::kMaxThreads + 1}) {
    RunOptions ro;
    ro.threads = bad;
    CHECK_THROWS_AS(Gpu(cfg, mix, golden, ro), InputError);
  }
}
