// gsched lockstep: the lockstep checker (see lockstep_checker.hpp).
#include "lockstep/lockstep_checker.hpp"

#include <sstream>

#include "lockstep/sched_records.hpp"

namespace gs::lockstep {
namespace {

std::string value_str(bool v) { return v ? "1" : "0"; }
std::string value_str(KernelId v) { return v == kNoKernel ? std::string("none") : std::to_string(v); }
std::string value_str(uint32_t v) { return std::to_string(v); }
std::string value_str(PreemptMode v) { return v == PreemptMode::kDrain ? "drain" : "switch"; }
std::string value_str(BypassLevel v) { return std::to_string(unsigned(v)); }

}  // namespace

LockstepChecker::LockstepChecker(std::size_t history) : ring_(history == 0 ? 1 : history) {}

void LockstepChecker::reset() {
  ring_next_ = ring_count_ = 0;
  mismatch_ = {};
  cycles_checked_ = decisions_checked_ = 0;
}

template <class T>
bool LockstepChecker::field(uint64_t cycle, const char* signal, T ref, T dut) {
  if (ref == dut) return true;
  mismatch_.cycle = cycle;
  mismatch_.signal = signal;
  mismatch_.ref = value_str(ref);
  mismatch_.dut = value_str(dut);
  return false;
}

// One check per record, fixed order; fields only when the record is valid in both.
bool LockstepChecker::compare(uint64_t c, const SchedOutputs& r, const SchedOutputs& d) {
  if (!field(c, "dispatch_valid_o", r.dispatch.valid, d.dispatch.valid)) return false;
  if (r.dispatch.valid) {
    ++decisions_checked_;
    if (!field<uint32_t>(c, "dispatch_sm_o", r.dispatch.sm, d.dispatch.sm) ||
        !field(c, "dispatch_kernel_o", r.dispatch.kernel, d.dispatch.kernel) ||
        !field<uint32_t>(c, "dispatch_cta_o", r.dispatch.cta, d.dispatch.cta) ||
        !field(c, "dispatch_resume_o", r.dispatch.resume, d.dispatch.resume))
      return false;
  }
  if (!field(c, "preempt_valid_o", r.preempt.valid, d.preempt.valid)) return false;
  if (r.preempt.valid) {
    ++decisions_checked_;
    if (!field<uint32_t>(c, "preempt_sm_o", r.preempt.sm, d.preempt.sm) ||
        !field(c, "preempt_mode_o", r.preempt.mode, d.preempt.mode) ||
        !field(c, "preempt_victim_o", r.preempt.victim, d.preempt.victim) ||
        !field(c, "preempt_next_o", r.preempt.next, d.preempt.next))
      return false;
  }
  if (!field(c, "quota_valid_o", r.quota.valid, d.quota.valid)) return false;
  if (r.quota.valid) {
    ++decisions_checked_;
    if (!field<uint32_t>(c, "quota_sm_o", r.quota.sm, d.quota.sm) ||
        !field(c, "quota_kernel_o", r.quota.kernel, d.quota.kernel) ||
        !field<uint32_t>(c, "quota_max_ctas_o", r.quota.max_ctas, d.quota.max_ctas))
      return false;
  }
  if (!field(c, "bypass_valid_o", r.bypass.valid, d.bypass.valid)) return false;
  if (r.bypass.valid) {
    ++decisions_checked_;
    if (!field(c, "bypass_kernel_o", r.bypass.kernel, d.bypass.kernel) ||
        !field(c, "bypass_level_o", r.bypass.level, d.bypass.level))
      return false;
  }
  return field(c, "launch_ready_o", r.launch_ready, d.launch_ready);
}

void LockstepChecker::remember(uint64_t cycle, const SchedInputs& in, const SchedOutputs& ref,
                               const SchedOutputs& dut) {
  Entry& e = ring_[ring_next_];
  e.cycle = cycle;
  e.in = in;
  e.ref = ref;
  e.dut = dut;
  ring_next_ = (ring_next_ + 1) % ring_.size();
  if (ring_count_ < ring_.size()) ++ring_count_;
}

bool LockstepChecker::check(uint64_t cycle, const SchedInputs& in, const SchedOutputs& ref, const SchedOutputs& dut) {
  ++cycles_checked_;
  const bool ok = compare(cycle, ref, dut);
  if (!ok || has_input(in) || has_decision(ref) || has_decision(dut) || ref.launch_ready != dut.launch_ready)
    remember(cycle, in, ref, dut);
  if (!ok) {
    mismatch_ref_ = ref;
    mismatch_dut_ = dut;
  }
  return ok;
}

std::string LockstepChecker::history() const {
  std::ostringstream os;
  const std::size_t first = (ring_next_ + ring_.size() - ring_count_) % ring_.size();
  for (std::size_t i = 0; i < ring_count_; ++i) {
    const Entry& e = ring_[(first + i) % ring_.size()];
    os << "  cycle " << e.cycle << "\n";
    if (has_input(e.in)) os << "    IN  " << format_inputs(e.in) << "\n";
    os << "    REF " << format_outputs(e.ref) << "\n";
    os << "    DUT " << format_outputs(e.dut) << "\n";
  }
  return os.str();
}

std::string LockstepChecker::report() const {
  std::ostringstream os;
  os << "lockstep mismatch at cycle " << mismatch_.cycle << ": signal " << mismatch_.signal
     << "  REF=" << mismatch_.ref << "  DUT=" << mismatch_.dut << "\n"
     << "  REF " << format_outputs(mismatch_ref_) << "\n"
     << "  DUT " << format_outputs(mismatch_dut_) << "\n"
     << "last " << ring_count_ << " cycles with inputs or decisions (oldest first):\n"
     << history();
  return os.str();
}

}  // namespace gs::lockstep
