// gsched: the scheduler registry (kind name -> maker) and the policy list.
//
// gs_model registers "golden" itself; the Verilator library adds "rtl" and "lockstep" through
// gs::register_rtl_schedulers(), so the model library never depends on Verilated code.
#include <map>
#include <sstream>

#include "common/error.hpp"
#include "config/json_reader.hpp"
#include "sched/golden/golden_scheduler.hpp"
#include "sched/scheduler_port.hpp"

namespace gs {

std::unique_ptr<SchedulerPort> make_golden_scheduler(const SchedOptions& opt);  // golden/golden_scheduler.cpp

namespace {
std::map<std::string, SchedulerMaker>& registry() {
  static std::map<std::string, SchedulerMaker> r{{"golden", &make_golden_scheduler}};
  return r;
}
}  // namespace

const char* sm_sharing_name(SmSharing s) { return s == SmSharing::kExclusive ? "exclusive" : "shared"; }

namespace {

/// Calls f(name, aliases) for every registry entry: scheduler policies, then analysis policies.
template <class F>
void for_each_policy_entry(F f) {
  for (const spec::PolicyInfo& p : spec::kPolicies) f(p.name, p.aliases);
  for (const spec::DerivedPolicyInfo& p : spec::kDerivedPolicies) f(p.name, p.aliases);
}

}  // namespace

std::vector<std::string> list_policies() {
  std::vector<std::string> names;
  for_each_policy_entry([&](const char* name, const char*) { names.emplace_back(name); });
  return names;
}

std::vector<std::string> list_scheduler_policies() {
  std::vector<std::string> names;
  for (const spec::PolicyInfo& p : spec::kPolicies) names.emplace_back(p.name);
  return names;
}

std::string canonical_policy_name(const std::string& name) {
  std::string found;
  std::vector<std::string> every;  // names and aliases, for the suggestion
  std::string known;
  for_each_policy_entry([&](const char* n, const char* aliases) {
    every.emplace_back(n);
    if (name == n) found = n;
    std::istringstream list(aliases);
    for (std::string a; std::getline(list, a, ',');) {
      every.push_back(a);
      if (name == a) found = n;
    }
    known += (known.empty() ? "" : ", ") + std::string(n);
    if (*aliases) known += " (alias " + std::string(aliases) + ")";
  });
  if (!found.empty()) return found;
  std::string msg = "unknown policy '" + name + "'";
  const std::vector<std::string> close = closest_names(name, every, 1);
  if (!close.empty()) msg += " (did you mean '" + close.front() + "'?)";
  throw InputError("--policy: " + msg + "; known: " + known + " ('gsim list policies' describes each)");
}

bool policy_takes_sm_sharing(const std::string& policy) {
  const std::string name = canonical_policy_name(policy);
  for (const spec::DerivedPolicyInfo& p : spec::kDerivedPolicies)
    if (name == p.name) return p.sm_sharing;
  return spec::kPolicies[static_cast<uint8_t>(parse_policy(name))].sm_sharing;
}

void register_scheduler_kind(const std::string& kind, SchedulerMaker maker) { registry()[kind] = std::move(maker); }

std::vector<std::string> list_scheduler_kinds() {
  std::vector<std::string> kinds;
  for (const auto& [k, m] : registry()) kinds.push_back(k);
  return kinds;
}

std::unique_ptr<SchedulerPort> make_scheduler(const std::string& kind, const SchedOptions& opt) {
  const auto it = registry().find(kind);
  if (it == registry().end()) {
    std::string known;
    for (const auto& k : list_scheduler_kinds()) known += (known.empty() ? "" : ", ") + k;
    throw InputError("--scheduler", "kind", "unknown scheduler '" + kind + "' (this build has: " + known + ")");
  }
  parse_policy(opt.policy);  // InputError naming the known policies (accepts the alias ppq = ppq-excl)
  return it->second(opt);
}

}  // namespace gs
