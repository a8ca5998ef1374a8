// gsched rtl_sched: RtlModel, a clocked Verilated gs_top behind a small virtual interface.
//
// Contract (port contract, "Cycle semantics"):
//   reset(cfg)  drives the static configuration ports and holds rst_ni low for a few clocks;
//               afterwards the model is at cycle 0.
//   step(in)    returns the registered decisions of the state at the start of this cycle, then
//               clocks in `in` (one rising edge); launch_ready is sampled AFTER the edge.
// Decision records whose valid bit is 0 come back default-constructed (their fields are
// don't-care in RTL), so they compare equal to the golden's. The same interface serves the fast
// model, the traced model (waveforms) and the mutants (verif/rtl), which differ only in the
// Verilated class (GsTopDriver<VModel> in gs_top_driver.hpp).
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "lockstep/sched_tables.hpp"
#include "sched/scheduler_port.hpp"

namespace gs::rtl {

/// Values for gs_top's static configuration ports (already validated against the RTL limits).
struct PortConfig {
  uint32_t num_sms = 0;
  uint32_t policy = 0;            // gs_pkg::policy_e encoding
  uint32_t preempt_mode = 0;      // gs_pkg::preempt_mode_e encoding
  uint32_t cta_limit = 0;         // left-over: max CTAs of one kernel per SM (0 = none)
  bool sm_exclusive = false;      // one kernel per SM (SchedOptions::sm_sharing)
  uint32_t warp_scheds = 0;       // warp schedulers of SM 0
  uint64_t base_sm = 0;           // a conventional SM's capacities, as wf_res_t bits
  spec::PolicySettings settings;  // every policy's settings (cfg_settings_i)
  // Per SM type (index < MaxSmTypes; golden::sm_type_table), types beyond these driven with 0
  std::vector<uint32_t> type_threads, type_warps, type_regs, type_shmem, type_ctas;
  std::vector<uint32_t> type_big;  // 1 = a big SM (GpuConfig::sm_is_big)
  std::vector<uint32_t> sm_type;   // per SM (index < num_sms): its type; SMs beyond num_sms 0
};

class RtlModel {
 public:
  virtual ~RtlModel() = default;
  virtual void reset(const PortConfig& cfg) = 0;
  virtual SchedOutputs step(const SchedInputs& in) = 0;
  /// Opens an FST waveform from the current cycle on (traced models only; false otherwise).
  virtual bool open_wave(const std::string& path) = 0;
  virtual void close_wave() = 0;
  /// RTL assertion failures ($error / failed assert) since construction.
  virtual int assertion_errors() const = 0;
  /// Cycles stepped since the last reset.
  virtual uint64_t cycle() const = 0;
  /// Fixed-point skip (GsTopDriver): when the model's whole state did not change over the
  /// last evaluated cycle and the inputs are unchanged, step() returns without evaluating --
  /// exactly what evaluation would give. Off after construction; traced models ignore it.
  virtual void set_fixed_point_skip(bool on) = 0;
  /// Cycles step() skipped that way since the last reset.
  virtual uint64_t skipped_cycles() const = 0;
  /// Name of the Verilated class, e.g. "Vgs_top".
  virtual const char* model_name() const = 0;
  /// gs_top's tables after the last step, decoded (the lockstep state check). Read through the
  /// simulation-only public access of sim_top/rtl_sched/gs_top_state.vlt, not a port.
  virtual const lockstep::SchedTables& tables() = 0;
};

using RtlModelMaker = std::function<std::unique_ptr<RtlModel>()>;

/// The project's own models (models.cpp): fast (no tracing) and traced (--trace-fst).
std::unique_ptr<RtlModel> make_fast_gs_top();
std::unique_ptr<RtlModel> make_traced_gs_top();
/// gs_top with one lockstep mutant switched on: `mutant` is "GS_MUT_<X>" (passed as the plusarg
/// +GS_MUT_<X>; docs/rtl/mutations.md), or "" for none. Vgs_top_mutants, or Vgs_top_trace when
/// `traced` (a waveform with the DUT's internals).
std::unique_ptr<RtlModel> make_mutant_gs_top(const std::string& mutant, bool traced = false);

}  // namespace gs::rtl
