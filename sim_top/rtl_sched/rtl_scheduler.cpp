// gsched rtl_sched: RtlScheduler (see rtl_scheduler.hpp).
#include "rtl_sched/rtl_scheduler.hpp"

#include <algorithm>
#include <sstream>

#include "common/error.hpp"
#include "lockstep/sched_records.hpp"
#include "rtl_sched/rtl_limits.hpp"

namespace gs {

RtlScheduler::RtlScheduler(const SchedOptions& opt, rtl::RtlModelMaker fast, rtl::RtlModelMaker traced,
                           std::string label)
    : opt_(opt), make_fast_(std::move(fast)), make_traced_(std::move(traced)), label_(std::move(label)) {
  input_log_.reserve(1 << 14);
}

RtlScheduler::~RtlScheduler() = default;

void RtlScheduler::reset(const GpuConfig& cfg, const SchedOptions& opt) {
  opt_ = opt;
  port_cfg_ = rtl::to_port_config(cfg, opt);
  const bool want_wave = !opt.wave_file.empty();
  if (want_wave && !make_traced_)
    throw InputError("--wave", "wave", "the " + label_ + " scheduler has no traced model to write " + opt.wave_file);
  model_ = want_wave ? make_traced_() : make_fast_();
  model_->reset(port_cfg_);
  model_->set_fixed_point_skip(opt.rtl_fixed_point_skip);
  errors_at_reset_ = model_->assertion_errors();
  if (errors_at_reset_ != 0)
    throw InvariantError(label_ + ": gs_top RTL assertion failed during reset (see the %Error line above)");
  wave_open_ = false;
  if (want_wave && opt.wave_from == 0) open_wave_file();
  input_log_.clear();
  last_out_ = {};
}

SchedOutputs RtlScheduler::step(const SchedInputs& in) {
  if (in.launch.valid) rtl::check_launch(in.launch);
  if (in.launch.valid || in.event.type != SmEventType::kNone) input_log_.push_back({model_->cycle(), in});
  if (!wave_open_ && !opt_.wave_file.empty() && model_->cycle() == opt_.wave_from && opt_.wave_from != 0)
    open_wave_file();  // --wave-from: the window starts here
  last_out_ = model_->step(in);
  if (wave_open_ && model_->cycle() > opt_.wave_to) flush_wave();  // --wave-to: the window is complete
  if (model_->assertion_errors() != errors_at_reset_) {
    errors_at_reset_ = model_->assertion_errors();
    std::ostringstream os;
    os << label_ << ": gs_top RTL assertion failed in cycle " << in.cycle
       << " (the %Error line above names it); inputs: " << lockstep::format_inputs(in);
    if (wave_open_) os << "; waveform: " << flush_wave();
    throw InvariantError(os.str());
  }
  return last_out_;
}

void RtlScheduler::open_wave_file() {
  wave_open_ = model_->open_wave(opt_.wave_file);
  if (!wave_open_) throw InputError("--wave", "wave", "cannot open FST file " + opt_.wave_file);
}

std::string RtlScheduler::flush_wave() {
  if (!wave_open_) return {};
  model_->close_wave();  // closing flushes; the run is over once anyone asks for the file
  wave_open_ = false;
  return opt_.wave_file;
}

std::string RtlScheduler::name() const { return label_ + "/" + opt_.policy; }

std::string RtlScheduler::dump_state() const {
  std::ostringstream os;
  os << name() << " (" << (model_ ? model_->model_name() : "no model") << ", " << rtl::describe_build() << "): cycle "
     << steps() << ", last outputs " << lockstep::format_outputs(last_out_) << ", " << input_log_.size()
     << " input cycles so far, " << model_skipped() << " cycles skipped at a fixed point";
  if (!opt_.wave_file.empty() && model_ && model_->cycle() > opt_.wave_from)  // kept: closed when the run stops
    os << "; waveform " << opt_.wave_file << " holds cycles " << opt_.wave_from << ".."
       << std::min<uint64_t>(model_->cycle() - 1, opt_.wave_to) << " (1 ns = 1 cycle)";
  return os.str();
}

SchedEvalStats RtlScheduler::eval_stats() const {
  if (!model_) return {};
  return {model_->cycle(), model_->skipped_cycles()};
}

std::unique_ptr<RtlScheduler> make_rtl_scheduler(const SchedOptions& opt) {
  return std::make_unique<RtlScheduler>(opt, &rtl::make_fast_gs_top, &rtl::make_traced_gs_top, "rtl");
}

}  // namespace gs
