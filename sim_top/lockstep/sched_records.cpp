// gsched lockstep: text form of the scheduler-port records (see sched_records.hpp).
#include "lockstep/sched_records.hpp"

#include <sstream>

namespace gs::lockstep {
namespace {

std::string kernel_str(KernelId k) { return k == kNoKernel ? std::string("-") : std::to_string(k); }

const char* event_name(SmEventType t) {
  switch (t) {
    case SmEventType::kNone: return "none";
    case SmEventType::kCtaFinished: return "cta-finished";
    case SmEventType::kCtaSaved: return "cta-saved";
    case SmEventType::kPreemptDone: return "preempt-done";
  }
  return "?";
}

}  // namespace

std::string format(const LaunchCmd& c) {
  std::ostringstream os;
  os << "launch{kernel=" << kernel_str(c.kernel) << " context=" << unsigned(c.context) << " priority=" << c.priority
     << " tokens=" << c.tokens << " threads=" << c.threads << " warps=" << c.warps << " regs=" << c.regs
     << " shmem=" << c.shmem << " grid=" << c.grid << "}";
  return os.str();
}

std::string format(const SmEvent& e) {
  std::ostringstream os;
  os << "event{" << event_name(e.type) << " sm=" << e.sm << " kernel=" << kernel_str(e.kernel) << " cta=" << e.cta
     << "}";
  return os.str();
}

// Decision records: the field list and order generated from rtl/spec/gs_spec.toml.
std::string format(const DispatchCmd& d) { return d.valid ? "dispatch" + record_str(d) : "dispatch{-}"; }
std::string format(const PreemptCmd& p) { return p.valid ? "preempt" + record_str(p) : "preempt{-}"; }
std::string format(const QuotaCmd& q) { return q.valid ? "quota" + record_str(q) : "quota{-}"; }
std::string format(const BypassCmd& b) { return b.valid ? "bypass" + record_str(b) : "bypass{-}"; }

std::string format_inputs(const SchedInputs& in) {
  std::string s;
  if (in.launch.valid) s += format(in.launch);
  if (in.event.type != SmEventType::kNone) s += (s.empty() ? "" : " ") + format(in.event);
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
