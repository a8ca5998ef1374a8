// gsched: the analysis policies -- registry entries with `runs_under` in rtl/spec/gs_spec.toml
// (oracle, sjf, mpmax, srtf-zs, ewm, the static HeteroCore mappings).
//
// An analysis policy is not a scheduler: it is a way of running a mix with the golden or RTL
// scheduler of another registry policy (`runs_under`), deciding something before or around the
// shared run (CTA caps from an exhaustive search, priorities from the alone runtimes, a static
// SM mapping from standalone profiles). Each one is a MixStrategy in its own file under
// cmodel/metrics/, made by the make_mix_strategy_<strategy>() its registry entry names
// (generated gs_mix_strategies.hpp). gsim run and gsim sweep know none of them by name: they
// look the policy up here, run it through MixStrategy::run() and print the Reports it made.
//
// Contract of every strategy: the returned MixRun has the alone runs (through `cache`) and the
// shared run of the whole mix, as run_mix_with_alone returns them, on the scheduler kind it is
// given (always "golden" for a golden_only entry); `hook` sees every simulated cycle; a stop
// (--max-cycles, the watchdog, Ctrl-C) propagates as the gs:: error it is.
#pragma once
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include <vector>

#include "gs_spec.hpp"
#include "metrics/mix_runner.hpp"
#include "metrics/policy_report.hpp"

namespace gs {

/// One run of a mix under an analysis policy.
struct StrategyRun {
  const GpuConfig& cfg;
  const Mix& mix;
  const std::string& scheduler;  // scheduler kind of the shared run
  const SchedOptions& sched;     // sched.policy is the entry's runs_under
  const RunOptions& run;
  AloneRunCache& cache;
  const CycleHook& hook;
  /// A progress note for the user (stderr; does nothing under --quiet). Without "gsim: ".
  std::function<void(const std::string&)> note;
};

class MixStrategy {
 public:
  virtual ~MixStrategy() = default;
  /// The alone runs and the shared run of `r.mix` under this policy; appends what it decided
  /// to `reports` (a kind of the spec's [[report]] entries, metrics/policy_report.hpp).
  virtual MixRun run(const StrategyRun& r, std::vector<Report>& reports) = 0;
  /// The shared run's scheduler options (from `sched`) when they follow from the config and the
  /// mix alone, without any run (mpmax's caps: gsim accuracy simulates such a policy's shared run
  /// by itself); std::nullopt for a strategy that decides from runs. InputError as run() would.
  virtual std::optional<SchedOptions> shared_options(const GpuConfig& cfg, const Mix& mix,
                                                     const SchedOptions& sched) const {
    (void)cfg, (void)mix, (void)sched;
    return std::nullopt;
  }
};

/// The registry entry of an analysis policy, nullptr for any other name (aliases resolved).
const spec::DerivedPolicyInfo* find_derived_policy(const std::string& name);

/// A fresh strategy of analysis policy `name`, nullptr when `name` is a scheduler policy.
std::unique_ptr<MixStrategy> make_mix_strategy_for(const std::string& name);

}  // namespace gs
