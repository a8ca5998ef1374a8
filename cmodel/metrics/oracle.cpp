// gsched: Warped-Slicer's Oracle (contract in oracle.hpp).
#include "metrics/oracle.hpp"
#include "metrics/mix_strategy.hpp"

#include <cstdio>

#include <algorithm>
#include <functional>
#include <string>

#include "common/error.hpp"
#include "gpu/occupancy.hpp"

namespace gs {

std::vector<std::vector<uint32_t>> oracle_candidates(const GpuConfig& cfg, const Mix& mix) {
  const std::string where = mix.file.empty() ? mix.name : mix.file;
  if (mix.kernels.empty()) throw InputError(where, "kernels", "the mix is empty");
  const GpuConfig rc = run_config(cfg, mix);
  const size_t nk = mix.kernels.size();
  std::vector<CtaResources> res(nk);
  std::vector<uint32_t> top(nk, UINT32_MAX);
  for (size_t i = 0; i < nk; ++i) {
    const KernelDesc& d = mix.kernels[i].desc;
    res[i] = cta_resources(d, rc);
    for (const SmTypeConfig& t : rc.sm_types) top[i] = std::min(top[i], occupancy(d, rc, t).max_ctas);
    if (top[i] == 0)
      throw InputError(where, "kernels[" + std::to_string(i) + "]",
                       "kernel " + mix.kernels[i].kernel + " fits no SM of config " + cfg.name + ": no partition");
  }
  const auto fits = [&](const std::vector<uint32_t>& c) { return ctas_fit_together(rc, res, c); };
  std::vector<std::vector<uint32_t>> out;
  std::vector<uint32_t> c(nk, 1);
  if (!fits(c))
    throw InputError(where, "kernels",
                     "one CTA of each of its " + std::to_string(nk) + " kernels does not fit one SM of config " +
                         cfg.name + " together: no intra-SM partition (the Oracle needs one)");
  // Lexicographic odometer. Resource sums only grow with c, so when c_i = v does not fit with
  // every later kernel at 1, no larger v does: the loop over v stops there.
  std::function<void(size_t)> walk = [&](size_t i) {
    if (i == nk) {
      if (out.size() == kMaxOracleCandidates)
        throw InputError(where, "kernels",
                         "more than " + std::to_string(kMaxOracleCandidates) +
                             " CTA combinations fit one SM (kMaxOracleCandidates in cmodel/metrics/oracle.hpp): "
                             "the exhaustive search would take too long; use fewer kernels");
      out.push_back(c);
      return;
    }
    for (uint32_t v = 1; v <= top[i]; ++v) {
      c[i] = v;
      if (!fits(c)) break;
      walk(i + 1);
    }
    c[i] = 1;
  };
  walk(0);
  return out;
}

OracleRun run_oracle(const GpuConfig& cfg, const Mix& mix, const SchedOptions& sched_opt, const RunOptions& run_opt,
                     AloneRunCache& cache, const CycleHook& hook, const OracleProgress& progress) {
  const std::vector<std::vector<uint32_t>> cands = oracle_candidates(cfg, mix);
  OracleRun out;
  SchedOptions opt = sched_opt;
  opt.policy = kAlonePolicy;  // Left-Over with the candidate's caps
  opt.cta_limit = 0;
  opt.sm_sharing = SmSharing::kShared;
  for (size_t n = 0; n < cands.size(); ++n) {
    if (progress) progress(n, cands.size(), cands[n]);
    opt.fixed_ctas = cands[n];
    MixRun r = run_mix_with_alone(cfg, mix, "golden", opt, run_opt, cache, hook);
    out.candidates.push_back(OracleCandidate{cands[n], r.metrics.cycles, r.metrics.ipc});
    if (n == 0 || r.metrics.ipc > out.best.metrics.ipc) {
      out.best = std::move(r);
      out.best_ctas = cands[n];
    }
  }
  return out;
}

}  // namespace gs

// ---- the analysis policy `oracle` (metrics/mix_strategy.hpp)
namespace gs {
namespace {

/// The chosen CTA combination and every candidate's mix IPC, after the table.
Report oracle_report(const OracleRun& o, const Mix& mix) {
  Report rep(spec::ReportKind::kOracle);
  rep.set("objective", "mix IPC");
  for (size_t i = 0; i < mix.kernels.size(); ++i)
    rep.add_row("best").set("kernel", mix.kernels[i].kernel).set("ctas_per_sm", o.best_ctas[i]);
  for (const OracleCandidate& c : o.candidates)
    rep.add_row("candidates")
        .set("ctas_per_sm", c.ctas)
        .set("ipc", c.ipc)
        .set("cycles", c.cycles)
        .set("chosen", c.ctas == o.best_ctas);
  return rep;
}

class OracleStrategy final : public MixStrategy {
 public:
  MixRun run(const StrategyRun& r, std::vector<Report>& reports) override {
    const OracleProgress progress = [&r](size_t i, size_t n, const std::vector<uint32_t>& c) {
      std::string ctas;
      for (uint32_t v : c) ctas += (ctas.empty() ? "" : ",") + std::to_string(v);
      r.note("oracle: CTA combination " + std::to_string(i + 1) + " of " + std::to_string(n) + " (" + ctas +
             " per SM)");
    };
    OracleRun o = run_oracle(r.cfg, r.mix, r.sched, r.run, r.cache, r.hook, progress);
    reports.push_back(oracle_report(o, r.mix));
    return std::move(o.best);
  }
};

}  // namespace

std::unique_ptr<MixStrategy> make_mix_strategy_oracle(const std::string&) { return std::make_unique<OracleStrategy>(); }

}  // namespace gs
