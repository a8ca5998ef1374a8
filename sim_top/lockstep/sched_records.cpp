// gsched lockstep: text form of the scheduler-port records (see sched_records.hpp).
#include "lockstep/sched_records.hpp"

#include <sstream>

namespace gs::lockstep {

// Every record: the field list and order generated from rtl/spec/gs_spec.toml.
std::string format(const LaunchCmd& c) { return "launch" + record_str(c.record()); }
std::string format(const SmEvent& e) { return "event" + record_str(e); }
std::string format(const ObsSample& o) { return "obs" + record_str(o); }
std::string format(const DispatchCmd& d) { return d.valid ? "dispatch" + record_str(d) : "dispatch{-}"; }
std::string format(const PreemptCmd& p) { return p.valid ? "preempt" + record_str(p) : "preempt{-}"; }
std::string format(const QuotaCmd& q) { return q.valid ? "quota" + record_str(q) : "quota{-}"; }
std::string format(const BypassCmd& b) { return b.valid ? "bypass" + record_str(b) : "bypass{-}"; }

std::string format_inputs(const SchedInputs& in) {
  std::string s;
  if (in.launch.valid) s += format(in.launch);
  if (in.event.type != SmEventType::kNone) s += (s.empty() ? "" : " ") + format(in.event);
  if (in.obs.valid) s += (s.empty() ? "" : " ") + format(in.obs);
  return s.empty() ? "-" : s;
}

std::string format_outputs(const SchedOutputs& o) {
  std::string s;
  if (o.dispatch.valid) s += format(o.dispatch) + " ";
  if (o.preempt.valid) s += format(o.preempt) + " ";
  if (o.quota.valid) s += format(o.quota) + " ";
  if (o.bypass.valid) s += format(o.bypass) + " ";
  s += o.launch_ready ? "ready" : "not-ready";
  return s;
}

}  // namespace gs::lockstep
