// gsched lockstep: text form of the scheduler-port records (REF/DUT lines, ring-buffer dumps).
//
// Contract: pure formatting, one line per record, field names as in the gs_top port
// (dispatch_sm_o -> "sm"), kernel kNoKernel printed as "none". Used only off the hot path
// (mismatch reports, history dumps), so it may allocate.
#pragma once
#include <string>

#include "sched/scheduler_port.hpp"

namespace gs::lockstep {

std::string format(const LaunchCmd& c);
std::string format(const SmEvent& e);
std::string format(const ObsSample& o);
std::string format(const DispatchCmd& d);
std::string format(const PreemptCmd& p);
std::string format(const QuotaCmd& q);
std::string format(const BypassCmd& b);
/// "launch{...} event{...}" or "-" when the cycle carried no input.
std::string format_inputs(const SchedInputs& in);
/// Every valid decision of one cycle plus launch_ready, "-" when nothing was decided.
std::string format_outputs(const SchedOutputs& out);

/// True if the cycle carried a launch or an SM event.
inline bool has_input(const SchedInputs& in) {
  return in.launch.valid || in.event.type != SmEventType::kNone || in.obs.valid;
}
/// True if any decision record is valid.
inline bool has_decision(const SchedOutputs& o) {
  return o.dispatch.valid || o.preempt.valid || o.quota.valid || o.bypass.valid;
}

}  // namespace gs::lockstep
