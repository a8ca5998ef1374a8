// gsched: GoldenScheduler -- the RTL-aligned golden reference of rtl/gs_top.sv.
//
// Composes the golden twins (gs_*.hpp in this folder) exactly as gs_top composes the RTL
// modules, with the same cycle timing: step(t) returns the registered decisions of the state
// at the start of cycle t, then clocks in the inputs of cycle t. launch_ready is sampled
// after that update.
//
// Every framework twin has the shape of an RTL module (docs/verification.md "Golden twins"):
//   struct In    its input ports (tables another block reads arrive as const pointers);
//   struct Out   its combinational outputs, Out comb(const In&) const from registered state
//                and the inputs (Out comb() const for a Moore block, whose outputs are
//                registered: read them with the accessors entry(), count(), report(), ...);
//   struct Regs  its flops, the public member q;
//   struct D     the next state, the public member d: next(in, d) const reads only q and
//                the inputs and writes d (tables through ArrayD, entry by entry), commit()
//                makes q <= d.
// step() calls every block's next() first and commits all of them afterwards (one clock
// edge), so no block can read another's already-updated state and the order of the next()
// calls does not matter. The selected policy's twin (PolicyTwin, gs_policy.hpp) takes part
// the same way: comb(), next(), commit(). Nothing on this path allocates: ArrayD is sized at reset() and a
// commit copies only the entries written in the cycle.
//
// Every cycle it also checks the invariants of docs/verification.md ("Verification layers"
// item 4) and throws gs::InvariantError with details:
//   * no SM over its thread, warp, register, shared-memory or CTA-slot capacity;
//   * CTAs done <= grid; a CTA id is issued fresh at most once and resumed only after it
//     was saved (kCtaSaved), and every CTA finishes exactly once (CtaLedger per slot);
//   * a kernel leaves the KSRT only with exactly grid CTAs done;
//   * events name active kernels / reserved SMs, PTBQs never overflow.
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "common/cta_ledger.hpp"
#include "sched/golden/golden_types.hpp"
#include "sched/golden/gs_active_queue.hpp"
#include "sched/golden/gs_cmd_buffers.hpp"
#include "sched/golden/gs_ksrt.hpp"
#include "sched/golden/gs_policy.hpp"
#include "sched/golden/gs_preempt_ctrl.hpp"
#include "sched/golden/gs_ptbq.hpp"
#include "sched/golden/gs_quota_table.hpp"
#include "sched/golden/gs_sm_driver.hpp"
#include "sched/golden/gs_smst.hpp"
#include "sched/scheduler_port.hpp"

namespace gs {

/// Policy name or alias (gsim --policy) -> gs_pkg::policy_e, from the registry in
/// rtl/spec/gs_spec.toml (gs::spec::kPolicies). Throws InputError for an unknown name.
golden::Policy parse_policy(const std::string& name);
/// The canonical name of a policy.
std::string policy_name(golden::Policy p);

class GoldenScheduler final : public SchedulerPort {
 public:
  explicit GoldenScheduler(const SchedOptions& opt);
  void reset(const GpuConfig& cfg, const SchedOptions& opt) override;
  SchedOutputs step(const SchedInputs& in) override;
  std::string name() const override;
  std::string dump_state() const override;
  const std::vector<PolicyRecord>* records() const override { return &records_.list(); }
  uint64_t records_dropped() const override { return records_.dropped(); }

  // Read access for unit tests and `gsim unit` (registered state of each block).
  const golden::Ksrt& ksrt() const { return ksrt_; }
  const golden::Smst& smst() const { return smst_; }
  const golden::Ptbq& ptbq() const { return ptbq_; }
  const golden::ActiveQueue& active_queue() const { return aq_; }
  const golden::QuotaTable& quota_table() const { return quota_; }
  const golden::SmDriver& sm_driver() const { return driver_; }
  /// The selected policy's twin (golden/<module>.hpp), e.g. for `gsim unit`.
  const golden::PolicyTwin& policy_twin() const { return *policy_twin_; }
  /// The selected policy's out_o of the last step (as the framework read it).
  const golden::PolicyOut& policy_out() const { return pol_out_; }
  golden::Policy policy() const { return policy_; }
  /// Whether the last clock edge wrote no table (KSRT, SMST, PTBQ, Active Queue, quotas, the SM
  /// driver's bitmap): every table write enable of the cycle was off and the SM driver had no row
  /// to refresh or column to sweep. The lockstep state check skips a cycle on it.
  bool tables_quiet() const { return tables_quiet_; }
  uint64_t cycle() const { return cycle_; }

 private:
  golden::Launch to_launch(const LaunchCmd& l) const;
  void check_capacity(uint32_t sm) const;
  void track_issue(uint32_t slot, uint32_t cta, bool resume);
  void track_event(const SmEvent& ev, uint32_t slot);
  void track_free(uint32_t slot);
  uint32_t refresh_fixed_quota();  // the slots whose fixed quota changed
  uint32_t pending_slots() const;  // slots with CTAs left to issue, fresh or preempted (gs_top's `pending`)
  /// SchedOptions::sm_kernels as KSRT slot masks per SM (sm_slot_mask_), after a slot changed.
  void refresh_sm_mask();

  SchedOptions opt_;
  golden::Policy policy_ = spec::kDefaultPolicy;
  uint32_t num_sms_ = 0, slots_ = 0, contexts_ = 0;
  std::vector<golden::SmCaps> caps_;
  std::vector<uint8_t> sm_big_;  // PolicyCfg::sm_big: per SM, a big SM (GpuConfig::sm_is_big)
  uint64_t cycle_ = 0;
  bool tables_quiet_ = false;  // speed only: the last clock edge wrote no table (see step())

  golden::CmdBuffers cmd_;
  golden::ActiveQueue aq_;
  golden::Ksrt ksrt_;
  golden::Smst smst_;
  golden::Ptbq ptbq_;
  golden::SmDriver driver_;
  golden::PreemptCtrl preempt_;
  golden::QuotaTable quota_;
  std::unique_ptr<golden::PolicyTwin> policy_twin_;  // the selected policy (gs_policies)
  golden::PolicyCfg pol_cfg_;
  golden::PolicyOut pol_out_, pol_last_;  // this cycle's and the last cycle's out_o
  BypassCmd bypass_q_;                    // gs_top's bypass port register
  // SchedOptions::fixed_ctas (golden only, the Oracle): the per-slot caps of the kernels in the
  // KSRT now, and the quota rows the SM driver reads instead of the quota table's.
  std::vector<uint32_t> fixed_slot_cap_, fixed_quota_;
  PolicyRecordStore records_{kMaxRecords};  // records(), reserved at reset
  std::vector<KernelId> sm_mask_kernel_;    // per slot, the kernel sm_slot_mask_ was built for
  std::vector<uint32_t> sm_slot_mask_;      // per SM, the slots SchedOptions::sm_kernels allows

  // exactly-once record per KSRT slot, sized at admission, never per cycle
  std::vector<CtaLedger> ctas_;
  std::vector<KernelId> slot_kernel_;
};

}  // namespace gs
