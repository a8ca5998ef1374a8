// gsched rtl_sched: LockstepScheduler (see lockstep_scheduler.hpp).
#include "rtl_sched/lockstep_scheduler.hpp"

#include <sstream>

#include "common/error.hpp"
#include "sched/golden/golden_scheduler.hpp"

namespace gs {

LockstepScheduler::LockstepScheduler(std::unique_ptr<SchedulerPort> ref, std::unique_ptr<RtlScheduler> dut,
                                     rtl::RtlModelMaker replay, uint64_t wave_window)
    : ref_(std::move(ref)), dut_(std::move(dut)), replay_(std::move(replay)), wave_window_(wave_window),
      decisions_(wave_window) {
  golden_ = dynamic_cast<const GoldenScheduler*>(ref_.get());
}

void LockstepScheduler::reset(const GpuConfig& cfg, const SchedOptions& opt) {
  opt_ = opt;
  dut_->reset(cfg, opt);  // first: it refuses configs the RTL cannot carry
  ref_->reset(cfg, opt);
  checker_.reset();
  state_checker_.reset();
  state_check_ = opt.lockstep_state_check && golden_ != nullptr;
  dut_tables_ = nullptr;  // the reset may have replaced the model
  dut_skipped_ = 0;
  tables_compared_ = false;
  decisions_.reset();
  step_ = 0;
}

SchedOutputs LockstepScheduler::step(const SchedInputs& in) {
  const SchedOutputs ref = ref_->step(in);
  const SchedOutputs dut = dut_->step(in);
  decisions_.record(step_++, ref, dut);  // for the mismatch waveform (mismatch_wave.hpp)
  if (!checker_.check(in.cycle, in, ref, dut)) fail(in);
  if (state_check_) check_tables(in, ref, dut);
  return dut;
}

// The tables after this cycle's edge. A cycle the RTL skipped at its fixed point left its
// tables as they were, so they are not read again. The golden's may still have moved in such a
// cycle; the golden knows whether its last edge wrote a table (tables_quiet(): every write
// enable off), and its policy's registers are compared with their value at the last
// comparison (a few words). When neither side changed since the last comparison -- which
// matched, or the run would have stopped -- this one would match too, and is skipped.
void LockstepScheduler::check_tables(const SchedInputs& in, const SchedOutputs& ref, const SchedOutputs& dut) {
  const uint64_t skipped = dut_->model_skipped();
  if (dut_tables_ == nullptr || skipped == dut_skipped_) dut_tables_ = &dut_->tables();  // evaluated
  dut_skipped_ = skipped;
  golden_->policy_twin().state(ref_policy_state_);
  if (tables_compared_ && golden_->tables_quiet() && dut_tables_->version == compared_version_ &&
      ref_policy_state_ == compared_policy_state_)
    return;
  tables_compared_ = true;
  compared_version_ = dut_tables_->version;
  compared_policy_state_ = ref_policy_state_;
  if (state_checker_.check(in.cycle, *golden_, *dut_tables_)) return;
  checker_.fail_state(state_checker_.mismatch(), ref, dut);
  fail(in);
}

void LockstepScheduler::fail(const SchedInputs& in) {
  std::ostringstream os;
  os << checker_.report();
  const uint64_t mismatch_step = dut_->steps() - 1;  // the step that just returned
  const std::string whole_run = dut_->flush_wave();
  if (!whole_run.empty()) {
    os << "waveform (whole run): " << whole_run << " (cycle " << in.cycle << " at " << mismatch_step
       << " ns: 1 ns = 1 cycle)\n";
  }
  os << write_mismatch_wave(mismatch_step);
  os << "DUT state: " << dut_->dump_state() << "\n";
  throw CheckMismatch(os.str());
}

std::string LockstepScheduler::write_mismatch_wave(uint64_t mismatch_step) {
  std::ostringstream name;
  name << "gsched_mismatch_" << opt_.policy << "_" << (opt_.preempt == PreemptMode::kDrain ? "drain" : "switch")
       << "_seed" << opt_.seed << "_cycle" << mismatch_step;
  rtl::MismatchWaveSpec spec;
  spec.base = name.str();
  spec.mismatch = mismatch_step;
  spec.first = mismatch_step >= wave_window_ ? mismatch_step - wave_window_ + 1 : 0;
  spec.signal = checker_.mismatch().signal;
  spec.ref_value = checker_.mismatch().ref;
  spec.dut_value = checker_.mismatch().dut;
  spec.num_sms = dut_->port_config().num_sms;
  std::string note;
  if (replay_) {  // without a traced model the file holds the decision records only
    const std::string dut_fst = spec.base + ".dut.fst";  // replay of the DUT, merged below
    try {
      auto model = replay_();
      model->reset(dut_->port_config());
      const auto& log = dut_->input_log();
      std::size_t next = 0;
      bool open = false;
      for (uint64_t s = 0; s <= mismatch_step + 1; ++s) {  // one extra cycle shows the outputs' effect
        if (s == spec.first) open = model->open_wave(dut_fst);
        SchedInputs in;
        if (next < log.size() && log[next].step == s) in = log[next++].in;
        model->step(in);
      }
      model->close_wave();
      if (open) spec.dut_fst = dut_fst;
      else note = "waveform: could not open " + dut_fst + "\n";
    } catch (const std::exception& e) {
      note = std::string("waveform: replay failed: ") + e.what() + "\n";
    }
  }
  return note + rtl::write_mismatch_wave(spec, decisions_.entries());
}

std::string LockstepScheduler::name() const { return "lockstep(" + ref_->name() + " vs " + dut_->name() + ")"; }

std::string LockstepScheduler::dump_state() const {
  std::ostringstream os;
  os << "REF: " << ref_->dump_state() << "\nDUT: " << dut_->dump_state() << "\nchecked " << checker_.cycles_checked()
     << " cycles, " << checker_.decisions_checked() << " decisions (" << checker_.counts() << "), "
     << (state_check_ ? std::to_string(state_checker_.cycles_checked()) + " cycles of tables" : "tables not compared")
     << "\n"
     << "recent history:\n"
     << checker_.history();
  return os.str();
}

std::unique_ptr<LockstepScheduler> make_lockstep_scheduler(const SchedOptions& opt) {
  return std::make_unique<LockstepScheduler>(make_scheduler("golden", opt), make_rtl_scheduler(opt),
                                             &rtl::make_traced_gs_top);
}

}  // namespace gs
