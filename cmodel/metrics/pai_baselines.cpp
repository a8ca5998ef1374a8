// gsched: Pai et al.'s SJF and Just-in-Time MPMax baselines (contract in pai_baselines.hpp).
#include "metrics/pai_baselines.hpp"
#include "metrics/mix_strategy.hpp"

#include <cstdio>

#include <algorithm>
#include <string>

#include "common/error.hpp"
#include "gpu/occupancy.hpp"
#include "sched/golden/golden_types.hpp"

namespace gs {

std::vector<uint32_t> sjf_priorities(const std::vector<uint64_t>& alone_cycles) {
  std::vector<uint64_t> distinct = alone_cycles;
  std::sort(distinct.begin(), distinct.end());
  distinct.erase(std::unique(distinct.begin(), distinct.end()), distinct.end());
  const uint32_t top = (1u << spec::PrioW) - 1;
  std::vector<uint32_t> prio;
  for (uint64_t c : alone_cycles) {
    const auto below = static_cast<uint32_t>(std::lower_bound(distinct.begin(), distinct.end(), c) - distinct.begin());
    prio.push_back(below >= top ? 0 : top - below);
  }
  return prio;
}

namespace {

/// The alone runs the metrics use (cached), before the shared run, so an oracle knows them first.
std::vector<uint64_t> alone_turnarounds(const GpuConfig& cfg, const Mix& mix, const std::string& scheduler_kind,
                                        const SchedOptions& sched_opt, const RunOptions& run_opt, AloneRunCache& cache,
                                        const CycleHook& hook) {
  std::vector<uint64_t> alone;
  const uint32_t n = static_cast<uint32_t>(mix.kernels.size());
  for (uint32_t i = 0; i < n; ++i) {
    const RunPhase phase{false, i + 1, n, mix.kernels[i].kernel};
    alone.push_back(cache.get(cfg, mix.kernels[i], scheduler_kind, sched_opt, run_opt, hook, phase).cycles());
  }
  return alone;
}

void require_run_to_completion(const Mix& mix, const char* policy) {
  if (mix.window_cycles != 0)
    throw InputError(mix.file.empty() ? mix.name : mix.file, "window_cycles",
                     std::string("policy ") + policy +
                         " ranks kernels by their alone turnaround, which a fixed-window mix does not have");
}

}  // namespace

MixRun run_sjf(const GpuConfig& cfg, const Mix& mix, const std::string& scheduler_kind, const SchedOptions& sched_opt,
               const RunOptions& run_opt, AloneRunCache& cache, const CycleHook& hook,
               std::vector<uint32_t>* priorities) {
  require_run_to_completion(mix, kSjfPolicy);
  const std::vector<uint64_t> alone = alone_turnarounds(cfg, mix, scheduler_kind, sched_opt, run_opt, cache, hook);
  const uint32_t n = static_cast<uint32_t>(mix.kernels.size());
  const std::vector<uint32_t> prio = sjf_priorities(alone);
  Mix ranked = mix;  // outlives the shared run (Gpu keeps pointers into its entries)
  for (uint32_t i = 0; i < n; ++i) ranked.kernels[i].priority = prio[i];
  SchedOptions opt = sched_opt;
  opt.policy = kSjfRunsUnder;
  if (priorities) *priorities = prio;
  return run_mix_with_alone(cfg, ranked, scheduler_kind, opt, run_opt, cache, hook);
}

std::vector<uint32_t> mpmax_caps(const GpuConfig& cfg, const Mix& mix) {
  const std::string where = mix.file.empty() ? mix.name : mix.file;
  if (mix.kernels.empty()) throw InputError(where, "kernels", "the mix is empty");
  const GpuConfig rc = run_config(cfg, mix);
  const size_t nk = mix.kernels.size();
  std::vector<CtaResources> res(nk);
  uint32_t slots = 0;
  for (size_t i = 0; i < nk; ++i) res[i] = cta_resources(mix.kernels[i].desc, rc);
  for (const SmTypeConfig& t : rc.sm_types) slots = std::max(slots, t.max_ctas);
  std::vector<uint32_t> caps(nk, 0);
  std::vector<uint32_t> c(nk, 1);
  for (size_t i = 0; i < nk; ++i) {
    // the most CTAs of kernel i beside one CTA of every other kernel (sums only grow with c[i])
    for (uint32_t v = 1; v <= slots; ++v) {
      c[i] = v;
      if (!ctas_fit_together(rc, res, c)) break;
      caps[i] = v;
    }
    c[i] = 1;
    if (caps[i] == 0)
      throw InputError(where, "kernels[" + std::to_string(i) + "]",
                       "one CTA of kernel " + mix.kernels[i].kernel + " and one of every other kernel of the mix do " +
                           "not fit one SM of config " + cfg.name + " together: MPMax sets aside nothing to share");
  }
  return caps;
}

SchedOptions mpmax_options(const GpuConfig& cfg, const Mix& mix, const SchedOptions& sched_opt) {
  SchedOptions opt = sched_opt;
  opt.policy = kAlonePolicy;  // FIFO issue order, with the caps
  opt.cta_limit = 0;
  opt.sm_sharing = SmSharing::kShared;
  opt.fixed_ctas = mpmax_caps(cfg, mix);
  return opt;
}

MixRun run_mpmax(const GpuConfig& cfg, const Mix& mix, const SchedOptions& sched_opt, const RunOptions& run_opt,
                 AloneRunCache& cache, const CycleHook& hook) {
  return run_mix_with_alone(cfg, mix, "golden", mpmax_options(cfg, mix, sched_opt), run_opt, cache, hook);
}

MixRun run_srtf_zs(const GpuConfig& cfg, const Mix& mix, const SchedOptions& sched_opt, const RunOptions& run_opt,
                   AloneRunCache& cache, const CycleHook& hook) {
  require_run_to_completion(mix, kSrtfZsPolicy);
  SchedOptions opt = sched_opt;
  opt.policy = "srtf";
  opt.srtf_known_cycles = alone_turnarounds(cfg, mix, "golden", opt, run_opt, cache, hook);
  return run_mix_with_alone(cfg, mix, "golden", opt, run_opt, cache, hook);
}

}  // namespace gs

// ---- the analysis policies `sjf`, `mpmax` and `srtf-zs` (metrics/mix_strategy.hpp)
namespace gs {
namespace {

class SjfStrategy final : public MixStrategy {
 public:
  MixRun run(const StrategyRun& r, std::vector<Report>& reports) override {
    std::vector<uint32_t> priorities;
    MixRun result = run_sjf(r.cfg, r.mix, r.scheduler, r.sched, r.run, r.cache, r.hook, &priorities);
    Report& rep = reports.emplace_back(spec::ReportKind::kSjf);
    for (size_t i = 0; i < r.mix.kernels.size(); ++i)
      rep.add_row("kernels")
          .set("kernel", r.mix.kernels[i].kernel)
          .set("priority", priorities[i])
          .set("alone_cycles", result.alone[i].cycles());
    return result;
  }
};

class MpmaxStrategy final : public MixStrategy {
 public:
  MixRun run(const StrategyRun& r, std::vector<Report>& reports) override {
    MixRun result = run_mpmax(r.cfg, r.mix, r.sched, r.run, r.cache, r.hook);
    const std::vector<uint32_t> caps = mpmax_caps(r.cfg, r.mix);
    Report& rep = reports.emplace_back(spec::ReportKind::kMpmax);
    for (size_t i = 0; i < r.mix.kernels.size(); ++i)
      rep.add_row("kernels").set("kernel", r.mix.kernels[i].kernel).set("ctas_per_sm", caps[i]);
    return result;
  }
  std::optional<SchedOptions> shared_options(const GpuConfig& cfg, const Mix& mix,
                                             const SchedOptions& sched) const override {
    return mpmax_options(cfg, mix, sched);
  }
};

class SrtfZsStrategy final : public MixStrategy {
 public:
  MixRun run(const StrategyRun& r, std::vector<Report>&) override {
    return run_srtf_zs(r.cfg, r.mix, r.sched, r.run, r.cache, r.hook);
  }
};

}  // namespace

std::unique_ptr<MixStrategy> make_mix_strategy_sjf(const std::string&) { return std::make_unique<SjfStrategy>(); }
std::unique_ptr<MixStrategy> make_mix_strategy_mpmax(const std::string&) { return std::make_unique<MpmaxStrategy>(); }
std::unique_ptr<MixStrategy> make_mix_strategy_srtf_zs(const std::string&) {
  return std::make_unique<SrtfZsStrategy>();
}

}  // namespace gs
