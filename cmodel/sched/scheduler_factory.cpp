// gsched: the scheduler registry (kind name -> maker) and the policy list.
//
// gs_model registers "golden" itself; the Verilator library adds "rtl" and "lockstep" through
// gs::register_rtl_schedulers(), so the model library never depends on Verilated code.
#include <map>

#include "common/error.hpp"
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

const char* partition_mode_name(PartitionRecord::Mode m) {
  switch (m) {
    case PartitionRecord::kShared: return "shared";
    case PartitionRecord::kSpatial: return "spatial";
    case PartitionRecord::kAlone: return "alone";
  }
  return "?";
}

bool policy_takes_sm_sharing(const std::string& policy) {
  return spec::kPolicies[static_cast<uint8_t>(parse_policy(policy))].sm_sharing;
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
