// gsched: the analysis policies' look-up (contract in mix_strategy.hpp).
#include "metrics/mix_strategy.hpp"

#include "gs_mix_strategies.hpp"
#include "sched/scheduler_port.hpp"

namespace gs {

const spec::DerivedPolicyInfo* find_derived_policy(const std::string& name) {
  const std::string canonical = canonical_policy_name(name);
  for (const spec::DerivedPolicyInfo& p : spec::kDerivedPolicies)
    if (canonical == p.name) return &p;
  return nullptr;
}

std::unique_ptr<MixStrategy> make_mix_strategy_for(const std::string& name) {
  const spec::DerivedPolicyInfo* p = find_derived_policy(name);
  return p ? make_mix_strategy(p->name) : nullptr;
}

}  // namespace gs
