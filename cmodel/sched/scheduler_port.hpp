// gsched: SchedulerPort, the one seam between the GPU model and a scheduler (docs/architecture.md).
//
// Contract, one call of step() per core cycle:
//   * The model gathers this cycle's inputs (at most one kernel launch, one SM event and one
//     observation sample; the model queues the rest so that every implementation sees an
//     identical, bounded input stream -- exactly what the RTL port can carry) and calls step(in).
//   * step() returns this cycle's decisions (at most one of each kind). The model applies
//     them in the same cycle: a dispatch starts the CTA on that SM (the model checks that it
//     fits, an InvariantError otherwise), a preempt starts draining or context-saving.
//   * Decisions are registered outputs: a decision returned in cycle t may depend on
//     inputs up to cycle t-1 only in the RTL; golden twins mirror the same timing.
// Three implementations: GoldenScheduler (C++), RtlScheduler (Verilated gs_top) and
// LockstepScheduler (drives the model from RTL, compares with golden every cycle).
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <array>
#include <string>
#include <vector>

#include "gs_spec.hpp"
#include "sched/policy_record.hpp"

namespace gs {

struct GpuConfig;

// KernelId, SmId, CtaId, kNoKernel, the enums PreemptMode, SmEventType, BypassLevel and every
// record that crosses the port -- LaunchCmd (Launch + valid), SmEvent, ObsSample, DispatchCmd,
// PreemptCmd, QuotaCmd, BypassCmd -- are generated from rtl/spec/gs_spec.toml (gs_spec.hpp), as
// the RTL's gs_pkg and gs_top's drive/sample (gs_top_port.hpp) are: one definition for all.
//
// Inputs: LaunchCmd is a kernel launch as written into a command buffer (Tanasic Sec. 3.3);
// resource figures are per CTA, already rounded to the SM's allocation units. SmEvent: a CTA
// finished or was saved (with the cycles its residency on the SM began and ended), or an SM
// finished a preemption. ObsSample: one SM's counters for one kernel over one epoch (the
// observation channel; RunOptions::obs_interval in cmodel/gpu/gpu.hpp sets the epoch, 0 = no
// samples). Stamps are cycles modulo 2**CycleW.
// Decisions: DispatchCmd starts CTA `cta` of `kernel` on `sm` (resume = a preempted CTA whose
// context the model restores first, PTBQ handle). PreemptCmd preempts the CTAs of `victim`
// (kNoKernel = every kernel) on `sm` and reserves it for `next` (drain: no new CTAs, wait;
// switch: save contexts through memory). QuotaCmd: at most `max_ctas` CTAs of `kernel`
// resident on `sm` (Warped-Slicer). BypassCmd: cache bypass of `kernel` on `sm` (SBM).

struct SchedInputs {
  uint64_t cycle = 0;
  LaunchCmd launch;
  SmEvent event;
  ObsSample obs;
};

struct SchedOutputs {
  DispatchCmd dispatch;
  PreemptCmd preempt;
  QuotaCmd quota;
  BypassCmd bypass;
  /// Whether a launch may be presented in the NEXT step() (command buffers have room after this
  /// cycle's update). RTL: launch_ready_o sampled after the clock edge. Assumed true before cycle 0.
  bool launch_ready = true;
};

/// How kernels share an SM (gsim --sm-sharing). kShared: a kernel may use what the SM's
/// other kernels leave free. kExclusive: one kernel per SM at a time, the static partitioning
/// of Kepler under which Tanasic's FCFS and NPQ baselines run (Sec. 2.3); only policies whose
/// registry entry has sm_sharing (rtl/spec/gs_spec.toml) accept it.
enum class SmSharing : uint8_t { kShared = 0, kExclusive = 1 };
const char* sm_sharing_name(SmSharing s);

/// Options a policy is built with (from the CLI and the mix).
struct SchedOptions {
  std::string policy = spec::kDefaultPolicyName;
  PreemptMode preempt = PreemptMode::kDrain;
  uint64_t seed = 1;
  /// Left-over only: at most this many CTAs of a kernel per SM (0 = no limit). Used by the
  /// Warped-Slicer Fig. 3a sweeps (a kernel alone with 1..max CTAs per SM).
  uint32_t cta_limit = 0;
  /// Golden left-over only, the Oracle's runs (cmodel/metrics/oracle.hpp): kernel i (mix order)
  /// keeps at most fixed_ctas[i] CTAs per SM (1..MaxCtasPerSm; a kernel past the list's end has
  /// no cap) while two or more kernels have CTAs to issue; the last one takes the whole SM.
  /// Empty = none. The RTL has no per-kernel cap register: rtl and lockstep refuse it.
  std::vector<uint32_t> fixed_ctas;
  /// Golden srtf only, Pai et al.'s zero-sampling SRTF (Sec. 6.2.2; metrics/pai_baselines.hpp):
  /// kernel i (mix order) is given srtf_known_cycles[i] as its runtime from its launch on, so
  /// nothing is sampled and no prediction is made. Empty = the predictor. The RTL has no port
  /// for it: rtl and lockstep refuse it.
  std::vector<uint64_t> srtf_known_cycles;
  /// Golden mwg only: this SBM_REG (any configuration) instead of MWG's fixed one (occ_th 0),
  /// as SBM's EWM baseline gives it (metrics/ewm.hpp). Empty = MWG's. The RTL has no port for
  /// it: rtl and lockstep refuse it.
  std::optional<SbmReg> sbm_fixed_reg;
  /// Golden only, HeteroCore's static mappings (metrics/hetero_static.hpp): per SM index, the
  /// mix kernels (bit i: kernel i in mix order) whose CTAs may issue there, for the whole run
  /// (the policy's eligibility is ANDed with it; 0 = the SM stays idle). Empty = none. The RTL
  /// has no such mask: rtl and lockstep refuse it.
  std::vector<uint32_t> sm_kernels;
  /// One kernel per SM, or shared leftovers (policies with sm_sharing; else InputError).
  SmSharing sm_sharing = SmSharing::kShared;
  /// RTL schedulers: dump the whole run as an FST waveform to this file ("" = none).
  std::string wave_file;
  /// RTL schedulers, with wave_file: dump only cycles wave_from..wave_to (inclusive; gsim run
  /// --wave-from/--wave-to). The file's time axis still reads the run's cycle numbers.
  uint64_t wave_from = 0;
  uint64_t wave_to = UINT64_MAX;
  /// RTL schedulers: skip evaluating cycles at which the Verilated model provably sits at a
  /// fixed point (GsTopDriver). Results are identical either way; off = evaluate every edge.
  bool rtl_fixed_point_skip = true;
  /// lockstep: also compare the scheduler's tables (KSRT, SMST, PTBQ, Active Queue, quotas) of
  /// RTL and golden after every cycle, not only the port (gsim --no-state-check turns it off).
  bool lockstep_state_check = true;
};

/// How much RTL evaluation a scheduler did (zero for golden): cycles stepped and, of those,
/// cycles the Verilated model skipped at a proven fixed point (SchedOptions::rtl_fixed_point_skip).
struct SchedEvalStats {
  uint64_t rtl_cycles = 0;
  uint64_t rtl_skipped = 0;
};

class SchedulerPort {
 public:
  virtual ~SchedulerPort() = default;
  /// Called once before cycle 0.
  virtual void reset(const GpuConfig& cfg, const SchedOptions& opt) = 0;
  /// One core cycle.
  virtual SchedOutputs step(const SchedInputs& in) = 0;
  virtual std::string name() const = 0;
  /// Human-readable state for watchdog dumps and mismatch reports.
  virtual std::string dump_state() const { return {}; }
  virtual SchedEvalStats eval_stats() const { return {}; }
  /// The records the policy made for the run's report (partitions, profiling windows:
  /// sched/policy_record.hpp), in order; nullptr: this scheduler keeps none. At most
  /// kMaxRecords; records_dropped() counts the rest.
  virtual const std::vector<PolicyRecord>* records() const { return nullptr; }
  virtual uint64_t records_dropped() const { return 0; }
  static constexpr size_t kMaxRecords = 256;
};

/// Builds a scheduler of one kind ("golden", "rtl", "lockstep").
using SchedulerMaker = std::function<std::unique_ptr<SchedulerPort>(const SchedOptions&)>;
/// Registers a scheduler kind (the RTL library registers "rtl" and "lockstep" at start-up
/// through gs::register_rtl_schedulers()). Re-registering a kind replaces it.
void register_scheduler_kind(const std::string& kind, SchedulerMaker maker);
/// Kinds registered so far, sorted.
std::vector<std::string> list_scheduler_kinds();

/// Creates a scheduler: kind is "golden", "rtl" or "lockstep". Throws InputError for an
/// unknown kind or policy.
std::unique_ptr<SchedulerPort> make_scheduler(const std::string& kind, const SchedOptions& opt);
/// Every policy name of the registry (gsim list policies): the scheduler policies in policy_e
/// order, then the analysis policies (entries with runs_under, metrics/mix_strategy.hpp).
std::vector<std::string> list_policies();
/// The scheduler policies only (registry entries with an RTL module, policy_e order): what the
/// golden and RTL schedulers run, and what the lockstep regressions loop over.
std::vector<std::string> list_scheduler_policies();
/// The registry name of `name`, a policy's name or one of its aliases (both kinds of entry).
/// Throws InputError naming the known policies, their aliases and the closest name otherwise.
std::string canonical_policy_name(const std::string& name);
/// Whether `policy` accepts SmSharing::kExclusive (its registry entry has sm_sharing).
/// Throws InputError for an unknown policy.
bool policy_takes_sm_sharing(const std::string& policy);

}  // namespace gs
