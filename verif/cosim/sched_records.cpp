// gsched cosim: text form of the scheduler-port records (see sched_records.hpp).
#include "cosim/sched_records.hpp"

#include <sstream>

namespace gs::cosim {
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

const char* bypass_name(BypassLevel l) {
  switch (l) {
    case BypassLevel::kNone: return "none";
    case BypassLevel::kL1: return "l1";
    case BypassLevel::kL1L2: return "l1+l2";
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

std::string format(const DispatchCmd& d) {
  if (!d.valid) return "dispatch{-}";
  std::ostringstream os;
  os << "dispatch{sm=" << d.sm << " kernel=" << kernel_str(d.kernel) << " cta=" << d.cta
     << " resume=" << (d.resume ? 1 : 0) << "}";
  return os.str();
}

std::string format(const PreemptCmd& p) {
  if (!p.valid) return "preempt{-}";
  std::ostringstream os;
  os << "preempt{sm=" << p.sm << " mode=" << (p.mode == PreemptMode::kDrain ? "drain" : "switch")
     << " victim=" << kernel_str(p.victim) << " next=" << kernel_str(p.next) << "}";
  return os.str();
}

std::string format(const QuotaCmd& q) {
  if (!q.valid) return "quota{-}";
  std::ostringstream os;
  os << "quota{sm=" << q.sm << " kernel=" << kernel_str(q.kernel) << " max_ctas=" << q.max_ctas << "}";
  return os.str();
}

std::string format(const BypassCmd& b) {
  if (!b.valid) return "bypass{-}";
  std::ostringstream os;
  os << "bypass{kernel=" << kernel_str(b.kernel) << " level=" << bypass_name(b.level) << "}";
  return os.str();
}

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

}  // namespace gs::cosim
