// Warped-Slicer's Oracle (cmodel/metrics/oracle.hpp): the CTA combinations it searches, the
// per-kernel caps its runs hold (SchedOptions::fixed_ctas in the golden scheduler), and that it
// returns the best of them.
#include <catch2/catch.hpp>

#include <algorithm>

#include "common/error.hpp"
#include "config/gpu_config.hpp"
#include "gpu/gpu.hpp"
#include "gpu/occupancy.hpp"
#include "metrics/oracle.hpp"
#include "sched/golden/golden_scheduler.hpp"
#include "workload/kernel_desc.hpp"

using namespace gs;

namespace {

Mix oracle_mix(const std::vector<std::string>& names, uint32_t grid, uint32_t insts_per_warp = 0) {
  const auto lib = load_kernel_library();
  Mix mix;
  mix.name = "oracle-test";
  for (const auto& n : names) {
    MixEntry e;
    e.kernel = n;
    e.desc = find_kernel(lib, n);
    if (insts_per_warp) e.desc.insts_per_warp = std::min(e.desc.insts_per_warp, insts_per_warp);
    e.grid_ctas = grid;
    mix.kernels.push_back(e);
  }
  return mix;
}

/// Whether c[i] CTAs of every kernel fit one SM of cfg together (the search's rule, read again).
bool fits_one_sm(const GpuConfig& cfg, const Mix& mix, const std::vector<uint32_t>& c) {
  const GpuConfig rc = run_config(cfg, mix);
  const SmTypeConfig& t = rc.sm(0);
  uint64_t th = 0, wa = 0, rg = 0, sh = 0, n = 0;
  for (size_t i = 0; i < c.size(); ++i) {
    const CtaResources r = cta_resources(mix.kernels[i].desc, rc);
    th += c[i] * uint64_t(r.threads), wa += c[i] * uint64_t(r.warps), rg += c[i] * uint64_t(r.regs);
    sh += c[i] * uint64_t(r.shmem), n += c[i];
  }
  return th <= t.max_threads && wa <= t.max_warps && rg <= t.registers && sh <= t.shared_mem_bytes && n <= t.max_ctas;
}

}  // namespace

TEST_CASE("oracle: every CTA combination that fits one SM, each once, in lexicographic order", "[oracle]") {
  const GpuConfig cfg = load_gpu_config("warped-slicer");
  for (const auto& names :
       std::vector<std::vector<std::string>>{{"IMG", "HOT"}, {"IMG", "NN"}, {"IMG", "DXT", "BLK"}}) {
    const Mix mix = oracle_mix(names, 64);
    INFO(mix.kernels.size() << " kernels, first " << names[0]);
    const auto cands = oracle_candidates(cfg, mix);
    // brute force over [1, N_i]^K, N_i the kernel's occupancy alone
    std::vector<uint32_t> top;
    for (const auto& e : mix.kernels) top.push_back(occupancy(e.desc, run_config(cfg, mix), cfg.sm(0)).max_ctas);
    std::vector<std::vector<uint32_t>> expect;
    std::vector<uint32_t> c(top.size(), 1);
    while (true) {
      if (fits_one_sm(cfg, mix, c)) expect.push_back(c);
      size_t i = c.size();
      while (i > 0 && c[i - 1] == top[i - 1]) c[--i] = 1;
      if (i == 0) break;
      ++c[i - 1];
    }
    CHECK(cands == expect);
    CHECK(cands.front() == std::vector<uint32_t>(top.size(), 1));
    CHECK(std::is_sorted(cands.begin(), cands.end()));
  }
}

TEST_CASE("oracle: the golden scheduler holds fixed_ctas while two kernels have CTAs to issue", "[oracle]") {
  const GpuConfig cfg = load_gpu_config("warped-slicer");
  const Mix mix = oracle_mix({"IMG", "NN"}, 400, 60);
  RunOptions ro;
  ro.sched.policy = "left-over";
  ro.sched.fixed_ctas = {3, 2};
  auto sched = make_scheduler("golden", ro.sched);
  Gpu gpu(cfg, mix, *sched, ro);
  const auto& g = dynamic_cast<const GoldenScheduler&>(*sched);
  const uint32_t slots = cfg.max_active_kernels;
  std::vector<uint32_t> last(size_t(cfg.num_sms()) * slots, 0), peak(2, 0), alone_peak(2, 0);
  bool was_shared = false;
  while (gpu.step()) {
    // an issue is decided on the last cycle's tables: was_shared is the state it saw
    for (uint32_t k = 0; k < slots; ++k) {
      const auto& e = g.ksrt().entry(k);
      for (uint32_t s = 0; s < cfg.num_sms(); ++s) {
        const uint32_t r = g.smst().resident(s, k);
        uint32_t& l = last[size_t(s) * slots + k];
        if (e.valid && r > l) {
          if (was_shared && r > ro.sched.fixed_ctas[e.kernel])
            FAIL("cycle " << gpu.cycle() << ": SM " << s << " issued kernel " << e.kernel << " its CTA number " << r);
          (was_shared ? peak : alone_peak)[e.kernel] = std::max((was_shared ? peak : alone_peak)[e.kernel], r);
        }
        l = r;
      }
    }
    was_shared = __builtin_popcount(golden::SmDriver::work_mask(g.ksrt(), g.ptbq())) >= 2;
  }
  CHECK(peak[0] == 3);  // the caps are reached, not only respected
  CHECK(peak[1] == 2);
  CHECK(std::max(alone_peak[0], alone_peak[1]) > 3);  // the last kernel with CTAs to issue is not capped
}

TEST_CASE("oracle: the search returns its best candidate and runs the alone runs once", "[oracle]") {
  const GpuConfig cfg = load_gpu_config("warped-slicer");
  const Mix mix = oracle_mix({"IMG", "HOT"}, 96, 40);
  SchedOptions so;
  RunOptions ro;
  AloneRunCache cache;
  size_t seen = 0;
  const OracleRun o = run_oracle(cfg, mix, so, ro, cache, {}, [&](size_t i, size_t n, const std::vector<uint32_t>&) {
    CHECK(i == seen++);
    CHECK(n == oracle_candidates(cfg, mix).size());
  });
  REQUIRE(o.candidates.size() == seen);
  CHECK(cache.runs() == 2);  // the alone runs, once for all candidates
  double best = 0;
  for (const auto& c : o.candidates) best = std::max(best, c.ipc);
  CHECK(o.best.metrics.ipc == best);
  const auto it = std::find_if(o.candidates.begin(), o.candidates.end(), [&](const auto& c) { return c.ipc == best; });
  CHECK(o.best_ctas == it->ctas);  // the first of equals
  CHECK(o.best.metrics.cycles == it->cycles);
}

TEST_CASE("oracle: bad requests are refused with the reason", "[oracle]") {
  const GpuConfig cfg = load_gpu_config("warped-slicer");
  SchedOptions so;
  so.policy = "even";
  so.fixed_ctas = {2, 2};
  CHECK_THROWS_WITH(make_scheduler("golden", so)->reset(cfg, so), Catch::Contains("go with policy left-over"));
  so.policy = "left-over";
  so.fixed_ctas = {0, 2};
  CHECK_THROWS_WITH(make_scheduler("golden", so)->reset(cfg, so), Catch::Contains("fixed_ctas[0]"));
  CHECK_THROWS_AS(oracle_candidates(cfg, Mix{}), InputError);
}
