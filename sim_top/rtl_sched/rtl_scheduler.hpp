// gsched rtl_sched: RtlScheduler, the SchedulerPort over a Verilated gs_top.
//
// Contract: as SchedulerPort. reset() validates the GpuConfig and options against the RTL
// build (rtl_limits.hpp; InputError) and resets the model; step() checks each launch against
// the port widths, clocks the model once and throws InvariantError when an RTL assertion
// fired in that cycle (Verilator prints the assertion's %Error line on stdout just before).
// With SchedOptions::wave_file set it runs the traced model and dumps the whole run as FST
// (or cycles wave_from..wave_to only).
// It also logs every cycle that carried an input (sparse), so a lockstep mismatch can be
// replayed on the traced model to write the waveform window before it (LockstepScheduler).
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "rtl_sched/rtl_model.hpp"
#include "sched/scheduler_port.hpp"

namespace gs {

class RtlScheduler final : public SchedulerPort {
 public:
  /// `fast` builds the model for plain runs, `traced` the one for --wave (may be empty: then
  /// --wave is refused). `label` names the build in messages ("rtl", "mutant GS_MUT_X").
  RtlScheduler(const SchedOptions& opt, rtl::RtlModelMaker fast, rtl::RtlModelMaker traced, std::string label = "rtl");
  ~RtlScheduler() override;

  void reset(const GpuConfig& cfg, const SchedOptions& opt) override;
  SchedOutputs step(const SchedInputs& in) override;
  std::string name() const override;
  std::string dump_state() const override;
  SchedEvalStats eval_stats() const override;

  /// A cycle that carried an input, by step index since reset (for replay).
  struct LoggedInput {
    uint64_t step;
    SchedInputs in;
  };
  const std::vector<LoggedInput>& input_log() const { return input_log_; }
  const rtl::PortConfig& port_config() const { return port_cfg_; }
  const SchedOptions& options() const { return opt_; }
  /// Path of the whole-run waveform being written ("" = none); flushes it.
  std::string flush_wave();
  uint64_t steps() const { return model_ ? model_->cycle() : 0; }
  uint64_t model_skipped() const { return model_ ? model_->skipped_cycles() : 0; }
  /// gs_top's tables after the last step (the lockstep state check; after reset() only).
  const lockstep::SchedTables& tables() { return model_->tables(); }

 private:
  SchedOptions opt_;
  rtl::RtlModelMaker make_fast_, make_traced_;
  std::string label_;
  std::unique_ptr<rtl::RtlModel> model_;
  rtl::PortConfig port_cfg_;
  std::vector<LoggedInput> input_log_;
  int errors_at_reset_ = 0;
  bool wave_open_ = false;
  SchedOutputs last_out_;
  void open_wave_file();
};

/// The default "rtl" scheduler: Vgs_top, with Vgs_top_trace for --wave.
std::unique_ptr<RtlScheduler> make_rtl_scheduler(const SchedOptions& opt);

}  // namespace gs
