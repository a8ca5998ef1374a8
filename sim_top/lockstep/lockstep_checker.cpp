// gsched lockstep: the lockstep checker (see lockstep_checker.hpp).
#include "lockstep/lockstep_checker.hpp"

#include <sstream>

#include "lockstep/sched_records.hpp"

namespace gs::lockstep {

LockstepChecker::LockstepChecker(std::size_t history) : ring_(history == 0 ? 1 : history) {}

void LockstepChecker::reset() {
  dispatch_.reset();
  preempt_.reset();
  quota_.reset();
  bypass_.reset();
  launch_ready_.reset();
  ring_next_ = ring_count_ = 0;
  mismatch_ = {};
  cycles_checked_ = 0;
}

// One checker per record, fixed order, stop at the first difference.
bool LockstepChecker::compare(uint64_t c, const SchedOutputs& r, const SchedOutputs& d) {
  const Mismatch* m = nullptr;
  if (!dispatch_.check(c, r.dispatch, d.dispatch)) m = &dispatch_.last_mismatch();
  else if (!preempt_.check(c, r.preempt, d.preempt)) m = &preempt_.last_mismatch();
  else if (!quota_.check(c, r.quota, d.quota)) m = &quota_.last_mismatch();
  else if (!bypass_.check(c, r.bypass, d.bypass)) m = &bypass_.last_mismatch();
  else if (!launch_ready_.check(c, r.launch_ready, d.launch_ready)) m = &launch_ready_.last_mismatch();
  if (m == nullptr) return true;
  mismatch_ = *m;
  return false;
}

uint64_t LockstepChecker::decisions_checked() const {
  return dispatch_.checked() + preempt_.checked() + quota_.checked() + bypass_.checked();
}

std::string LockstepChecker::counts() const {
  std::ostringstream os;
  os << "dispatch " << dispatch_.checked() << " preempt " << preempt_.checked() << " quota " << quota_.checked()
     << " bypass " << bypass_.checked();
  return os.str();
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

void LockstepChecker::fail_state(const Mismatch& m, const SchedOutputs& ref, const SchedOutputs& dut) {
  mismatch_ = m;
  mismatch_ref_ = ref;
  mismatch_dut_ = dut;
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
  os << "lockstep mismatch at cycle " << mismatch_.cycle << (mismatch_.in_state ? ": state " : ": signal ")
     << mismatch_.signal << "  REF=" << mismatch_.ref << "  DUT=" << mismatch_.dut << "\n"
     << "  REF " << format_outputs(mismatch_ref_) << "\n"
     << "  DUT " << format_outputs(mismatch_dut_) << "\n"
     << "last " << ring_count_ << " cycles with inputs or decisions (oldest first):\n"
     << history();
  return os.str();
}

}  // namespace gs::lockstep
