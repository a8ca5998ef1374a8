// gsched golden: the policy contract, twin of gs_pkg's policy_cfg_t / policy_view_t /
// policy_event_t -> policy_out_t (rtl/spec/gs_spec.toml) and of the generated gs_policies mux.
//
// Every golden policy twin (cmodel/sched/golden/<module>.hpp, class Policy<Name>) implements
// PolicyTwin, in the shape of the framework twins (golden_scheduler.hpp): per cycle
// GoldenScheduler calls comb() (the module's out_o from registered state and this cycle's
// events; never from the acceptance of its own preemption request, as in the RTL), then the
// framework computes the acceptance, then next() (the next state into the twin's d, reading
// only its registered q and the inputs), and commit() (q <= d) at the clock edge it shares
// with every framework block.
// The records below are the C++ form of the SystemVerilog structs, field for field: the flat
// vectors become views of the golden tables (PolicyView) and per-slot / per-SM arrays
// (PolicyOut); docs/adding-a-policy.md lists them side by side.
#pragma once
#include <array>
#include <vector>

#include "sched/golden/golden_types.hpp"
#include "sched/golden/gs_active_queue.hpp"
#include "sched/golden/gs_ksrt.hpp"
#include "sched/golden/gs_ptbq.hpp"
#include "sched/golden/gs_smst.hpp"
#include "sched/policy_record.hpp"

namespace gs::golden {

/// policy_cfg_t: the GPU a policy schedules, and set_i: its settings (registered in gs_top).
struct PolicyCfg {
  Policy policy = spec::kDefaultPolicy;          // policy_i (modules with several policies)
  uint32_t num_sms = 0;                          // num_sms
  uint32_t slots = 0;                            // KSRT slots (MaxKernels in the RTL)
  uint32_t cta_limit = 0;                        // cta_limit
  bool sm_exclusive = false;                     // sm_exclusive
  const std::vector<SmCaps>* caps = nullptr;     // per SM: type_threads .. type_ctas of its sm_type
  uint32_t warp_scheds = 0;                      // warp_scheds: warp schedulers of SM 0
  const std::vector<uint8_t>* sm_big = nullptr;  // per SM, 1 = a big SM: type_big of its sm_type
  WfRes base_sm;                                 // base_sm: a conventional SM's capacities
  /// set_i: the module's settings section (spec::PolicySettings::<section>, the registry's
  /// [[policy.setting]]); gs_top's cfg_settings_i carries every section.
  spec::PolicySettings settings;
};

/// policy_view_t: read-only view of the framework tables (registered state).
struct PolicyView {
  const Ksrt* ksrt = nullptr;       // ksrt
  const Smst* smst = nullptr;       // smst, resident
  const Ptbq* ptbq = nullptr;       // ptbq_count
  const ActiveQueue* aq = nullptr;  // rank
  uint32_t pending = 0;             // pending
};

/// policy_event_t: this cycle's events, as the tables see them at the coming clock edge.
struct PolicyEvent {
  bool ev_valid = false;
  SmEventType ev_type = SmEventType::kNone;
  uint32_t ev_sm = 0;
  uint32_t ev_slot = 0;
  bool alloc_valid = false;
  uint32_t alloc_slot = 0;
  uint32_t slot_free = 0;
  uint32_t ev_cta = 0;
  uint32_t ev_start_cycle = 0;  // the event CTA's residency began (modulo 2**CycleW)
  uint32_t ev_end_cycle = 0;
  ObsSample obs;          // this cycle's observation sample
  bool obs_hit = false;   // its kernel is in the KSRT ...
  uint32_t obs_slot = 0;  // ... at this slot
};

/// policy_out_t: the decisions the framework blocks read.
struct PolicyOut {
  std::vector<OrderKey> key;   // key: per slot, lower issues first
  std::vector<uint32_t> elig;  // elig: per SM, bit k = slot k may issue there
  bool quota_en = false;       // quota_en: the SM driver enforces the quota table
  QuotaWr quota_wr;            // quota_wr
  OwnerWr owner_wr;            // owner_wr
  TokenUpd tok;                // tok: applied only if a request in `req` is accepted
  PreemptReq req;              // req
  BypassWr bypass;             // bypass: onto the bypass port at the coming edge

  /// Sized once per run (no allocation per cycle); clear() keeps the sizes.
  void size(uint32_t sms, uint32_t slots) {
    key.assign(slots, OrderKey{});
    elig.assign(sms, 0);
  }
  /// The all-zeros record (out_o = '0), sizes kept.
  void clear() {
    for (auto& k : key) k = OrderKey{};
    for (auto& e : elig) e = 0;
    quota_en = false;
    quota_wr = QuotaWr{};
    owner_wr = OwnerWr{};
    tok = TokenUpd{};
    req = PreemptReq{};
    bypass = BypassWr{};
  }
};

/// A policy module's golden twin.
class PolicyTwin {
 public:
  virtual ~PolicyTwin() = default;
  /// Reset (rst_ni low); cfg holds the run's sizes.
  virtual void reset(const PolicyCfg& cfg) = 0;
  /// After reset(): the run's golden-only inputs of an analysis policy that runs under this one
  /// (SchedOptions: zero-sampling SRTF's given runtimes, EWM's given SBM_REG), which no port of
  /// the module carries; limits::check_scheduler_config() allows each with its policy only.
  /// A twin that takes none ignores them (the default).
  virtual void take_options(const SchedOptions& opt) { (void)opt; }
  /// out_o of this cycle (combinational in the RTL). `out` arrives cleared.
  virtual void comb(const PolicyCfg& cfg, const PolicyView& view, const PolicyEvent& ev, PolicyOut& out) const = 0;
  /// The next state (the twin's d) from its registered state q, this cycle's inputs, outputs
  /// and the acceptance of out.req by gs_preempt_ctrl (accept_i); q is not touched.
  virtual void next(const PolicyCfg& cfg, const PolicyView& view, const PolicyEvent& ev, const PolicyOut& out,
                    bool accepted) = 0;
  /// The clock edge: q <= d.
  virtual void commit() = 0;
  /// The registered state q as the module's state_o carries it (its registry `state` record);
  /// all zeros for a module without registers (the default).
  virtual void state(PolicyState& s) const { s.clear(); }
  /// The records the last clock edge made for the run's report -- a partition put in force, a
  /// profiling window closed (per_edge kinds of the spec's [[report]]; docs/cli.md, "Policy
  /// reports") -- each by sink.add(kind), then its fields and its slots' columns. Called after
  /// commit(); the default reports nothing.
  virtual void report(PolicyRecordSink& sink) const { (void)sink; }
  /// One clock edge on its own (policy benches): next() then commit().
  void clock(const PolicyCfg& cfg, const PolicyView& view, const PolicyEvent& ev, const PolicyOut& out, bool accepted) {
    next(cfg, view, ev, out, accepted);
    commit();
  }
};

/// A policy twin as a sub-unit of a combined policy's register record: a field of its parent's
/// record whose type is the twin's own *_state_t, W bits (spec::pack_<record> calls
/// state(st, lsb)). The twin's record is copied in at `lsb`.
template <uint32_t W>
struct NestedPolicyState {
  static constexpr uint32_t kStateW = W;
  const PolicyTwin& twin;
  template <class St>
  void state(St& st, uint32_t lsb) const {
    PolicyState own;
    twin.state(own);
    for (uint32_t at = 0; at < W; at += 64) {
      const uint32_t w = W - at < 64 ? W - at : 64;
      st.put(lsb + at, w, own.get(at, w));
    }
  }
};

/// Per-slot order keys shared by the policies (rtl/policy/gs_order_keys.sv): {~prio, rank}
/// with priorities, {0, rank} (arrival order) without.
inline void order_keys(bool prio_en, const PolicyView& v, std::vector<OrderKey>& key) {
  for (uint32_t k = 0; k < key.size(); ++k)
    key[k] = OrderKey{prio_en ? width_mask(PrioW) & ~v.ksrt->entry(k).prio : 0u, v.aq->q.rank[k]};
}

/// Eligibility of owned SMs (rtl/policy/gs_owner_elig.sv): slot k on SM s iff s's owner is k.
inline void owner_elig(const PolicyView& v, std::vector<uint32_t>& elig) {
  for (uint32_t s = 0; s < elig.size(); ++s) {
    const SmstEntry& m = v.smst->entry(s);
    elig[s] = m.owner_valid ? 1u << m.owner : 0u;
  }
}

/// Every slot eligible on every SM.
inline void all_elig(uint32_t slots, std::vector<uint32_t>& elig) {
  const uint32_t all = slots >= 32 ? ~0u : (1u << slots) - 1u;
  for (auto& e : elig) e = all;
}

/// One kernel per SM (rtl/policy/gs_excl_elig.sv), ANDed into `elig`: with cfg.sm_exclusive,
/// slot k stays eligible on SM s only while no other slot has CTAs resident there.
inline void excl_elig(const PolicyCfg& cfg, const PolicyView& v, std::vector<uint32_t>& elig) {
  if (!cfg.sm_exclusive) return;
  for (uint32_t s = 0; s < elig.size(); ++s) {
    uint32_t occupied = 0;
    for (uint32_t k = 0; k < cfg.slots; ++k)
      if (v.smst->resident(s, k) != 0) occupied |= 1u << k;
    uint32_t sole = 0;
    for (uint32_t k = 0; k < cfg.slots; ++k)
      if ((occupied & ~(1u << k)) == 0) sole |= 1u << k;
    elig[s] &= sole;
  }
}

}  // namespace gs::golden
