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
std::string format_oracle(const OracleRun& o, const Mix& mix) {
  std::string out = "\noracle: best of " + std::to_string(o.candidates.size()) +
                    " CTA combinations (highest mix IPC, golden left-over with per-kernel caps):";
  for (size_t i = 0; i < mix.kernels.size(); ++i)
    out += " " + mix.kernels[i].kernel + " " + std::to_string(o.best_ctas[i]);
  out += " CTAs per SM\n";
  const int width = static_cast<int>(std::max<size_t>(11, 3 * mix.kernels.size()));
  char buf[128];
  std::snprintf(buf, sizeof buf, "  %-*s %8s %9s\n", width, "ctas_per_sm", "mix_IPC", "cycles");
  out += buf;
  for (const OracleCandidate& c : o.candidates) {
    std::string ctas;
    for (uint32_t v : c.ctas) ctas += (ctas.empty() ? "" : ",") + std::to_string(v);
    std::snprintf(buf, sizeof buf, "  %-*s %8.3f %9llu%s\n", width, ctas.c_str(), c.ipc,
                  static_cast<unsigned long long>(c.cycles), c.ctas == o.best_ctas ? "  <- oracle" : "");
    out += buf;
  }
  return out;
}

/// --json: "oracle": {"objective", "best": [{"kernel", "ctas_per_sm"}], "candidates": [...]}.
nlohmann::ordered_json oracle_json(const OracleRun& o, const Mix& mix) {
  nlohmann::ordered_json best = nlohmann::ordered_json::array();
  for (size_t i = 0; i < mix.kernels.size(); ++i)
    best.push_back({{"kernel", mix.kernels[i].kernel}, {"ctas_per_sm", o.best_ctas[i]}});
  nlohmann::ordered_json cands = nlohmann::ordered_json::array();
  for (const OracleCandidate& c : o.candidates)
    cands.push_back({{"ctas_per_sm", c.ctas}, {"ipc", c.ipc}, {"cycles", c.cycles}});
  return {{"objective", "mix IPC"}, {"best", best}, {"candidates", cands}};
}

class OracleStrategy final : public MixStrategy {
 public:
  MixRun run(const StrategyRun& r, StrategyReport& report) override {
    const OracleProgress progress = [&r](size_t i, size_t n, const std::vector<uint32_t>& c) {
      std::string ctas;
      for (uint32_t v : c) ctas += (ctas.empty() ? "" : ",") + std::to_string(v);
      r.note("oracle: CTA combination " + std::to_string(i + 1) + " of " + std::to_string(n) + " (" + ctas +
             " per SM)");
    };
    OracleRun o = run_oracle(r.cfg, r.mix, r.sched, r.run, r.cache, r.hook, progress);
    report.text = format_oracle(o, r.mix);
    report.json_key = "oracle";
    report.json = oracle_json(o, r.mix);
    return std::move(o.best);
  }
};

}  // namespace

std::unique_ptr<MixStrategy> make_mix_strategy_oracle(const std::string&) { return std::make_unique<OracleStrategy>(); }

}  // namespace gs
