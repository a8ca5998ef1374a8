// gsched block benches: one harness for every policy module, through the policy contract.
//
// Every policy module has the same ports (policy_cfg_t, policy_view_t, policy_event_t,
// accept_i -> policy_out_t; docs/adding-a-policy.md), so PolicyBench<V> drives any of them:
// it owns golden tables (KSRT, SMST with resident CTAs, PTBQ, Active Queue), mutates them at
// random between cycles (a block bench needs legal encodings, not a consistent GPU), packs them
// into the RTL's view_i with the generated layout (gs_spec.hpp, spec::layout), draws an event,
// and each cycle compares the whole out_o with the golden twin's comb() (key and eligibility of
// the configured SMs, quota_en, and the quota, owner, token and preemption records) and, for a
// module with registers, its state_o with the twin's state(), then clocks both with the same
// acceptance (gs_preempt_ctrl's rule on the compared request). A policy that does not map by
// SM type sees two contiguous SM types (the last third of the SMs with other capacities), as a
// config's sm_types give. In soft mode (a mutant model) the first difference is recorded
// instead of failing the test.
// A bench of a new policy is generated from the registry (gs_policy_benches.cpp).
// A module that profiles is Verilated inside gs_policies (verif/rtl/benches/CMakeLists.txt), so
// its bench drives the shared profiling counters too.
#pragma once
#include <memory>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

#include "bench_records.hpp"
#include "common/rng.hpp"
#include "gs_policy_twins.hpp"
#include "sched/golden/gs_preempt_ctrl.hpp"

namespace gs::bench {

namespace pl = gs::spec::layout;

/// Whether a Verilated policy module has the state_o port (a module with registers).
template <class V, class = void>
struct HasStateO : std::false_type {};
template <class V>
struct HasStateO<V, std::void_t<decltype(std::declval<V&>().state_o)>> : std::true_type {};

/// Whether the model has en_i: a policy module alone does; gs_policies, the model of a module
/// that reads the shared profiling counters, selects by policy_i instead.
template <class V, class = void>
struct HasEnI : std::false_type {};
template <class V>
struct HasEnI<V, std::void_t<decltype(std::declval<V&>().en_i)>> : std::true_type {};

/// Whether the model has set_i: the modules with settings (and gs_policies) do.
template <class V, class = void>
struct HasSetI : std::false_type {};
template <class V>
struct HasSetI<V, std::void_t<decltype(std::declval<V&>().set_i)>> : std::true_type {};

template <class V>
class PolicyBench {
 public:
  PolicyBench(Policy policy, uint64_t seed, uint32_t num_sms, bool sm_exclusive = false)
      : rtl_(static_cast<uint32_t>(seed)), rng_(seed), twin_(make_policy_twin(policy)) {
    caps_.assign(num_sms, SmCaps{2048, 64, 65536, 49152, 16});
    // a policy that maps by SM type (registry flag sm_types): every other SM a big one, with 1.5x
    // the resources and twice the CTA slots (within ThreadW, WarpW, RegW: the port holds what a
    // config may give)
    sm_big_.assign(num_sms, 0);
    if (spec::kPolicies[static_cast<uint8_t>(policy)].sm_types)
      for (uint32_t s = 1; s < num_sms; s += 2) sm_big_[s] = 1, caps_[s] = SmCaps{3072, 96, 98304, 98304, 32};
    else
      for (uint32_t s = num_sms - num_sms / 3; s < num_sms; ++s) caps_[s] = SmCaps{1536, 48, 65536, 65536, 24};
    // the settings from each one's `bench` range in the registry: short profiling phases, so a
    // bench run passes through all of them
    cfg_ = PolicyCfg{policy,
                     num_sms,
                     MaxKernels,
                     0,
                     sm_exclusive,
                     &caps_,
                     2,
                     &sm_big_,
                     WfRes{1536, 48, 32768, 49152, 8},
                     spec::bench_settings([&](uint32_t n) { return rng_.below(n); })};
    ksrt_.reset(MaxKernels);
    smst_.reset(num_sms, MaxKernels);
    ptbq_.reset(MaxKernels);
    aq_.reset(MaxKernels);
    for (uint32_t k = 0; k < MaxKernels; ++k) aq_.q.rank[k] = k;
    out_.size(num_sms, MaxKernels);
    twin_->reset(cfg_);
    auto& d = rtl_.dut();
    if constexpr (HasEnI<V>::value) d.en_i = 1;
    d.policy_i = static_cast<uint32_t>(policy);
    drive_cfg();
    drive_view(pending());
    drive_event(PolicyEvent{});
    d.accept_i = 0;
    rtl_.reset();
  }

  /// Kernels leave the KSRT (slot_free events) this often, per mille of cycles.
  void set_slot_free_permille(uint32_t p) { slot_free_permille_ = p; }
  /// `cycles` random cycles: mutate the tables, draw an event, compare, clock.
  void run(int cycles, uint32_t mutate_permille = 80) {
    for (int i = 0; i < cycles && diff_.empty(); ++i) {
      if (rng_.chance_permille(mutate_permille)) mutate();
      cycle(random_event());
    }
  }

  uint64_t requests() const { return requests_; }
  uint64_t owner_writes() const { return owner_writes_; }
  uint64_t quota_writes() const { return quota_writes_; }
  uint64_t state_compares() const { return state_compares_; }
  /// Soft mode (a mutant model): record the first difference instead of failing.
  void set_soft(bool soft) { soft_ = soft; }
  /// The first difference in soft mode ("cycle N: what"), empty while RTL and twin agree.
  const std::string& first_difference() const { return diff_; }
  const Ksrt& ksrt() const { return ksrt_; }
  const std::vector<SmCaps>& caps() const { return caps_; }
  /// The last quota written for (SM, slot), or -1 when none was.
  int64_t last_quota(uint32_t sm, uint32_t slot) const { return last_quota_[sm * MaxKernels + slot]; }
  uint32_t pending() const {
    uint32_t p = 0;
    for (uint32_t k = 0; k < MaxKernels; ++k) {
      const KsrtEntry& e = ksrt_.entry(k);
      if (e.valid && (e.next_cta != e.grid || ptbq_.count(k) != 0)) p |= 1u << k;
    }
    return p;
  }

 private:
  void mutate() {
    const uint32_t n = cfg_.num_sms;
    switch (rng_.below(5)) {
      case 0: {  // a KSRT entry appears, changes or leaves
        KsrtEntry& e = ksrt_.q.tbl[rng_.below(MaxKernels)];
        e.valid = rng_.chance_permille(800);
        e.kernel = KernelId(rng_.below(200));
        e.prio = rng_.below(1u << PrioW);
        e.tokens = int32_t(rng_.below(9)) - 4;
        e.threads = 32 * (1 + rng_.below(32));
        e.warps = e.threads / 32;
        e.regs = 256 * rng_.below(64);
        e.shmem = 1024 * rng_.below(24);
        e.grid = 1 + rng_.below(200);
        e.next_cta = rng_.below(e.grid + 1);
        e.done = rng_.below(e.next_cta + 1);
        break;
      }
      case 1: {  // an SM changes state, owner or occupancy
        SmstEntry& m = smst_.q.tbl[rng_.below(n)];
        m.state = static_cast<SmState>(rng_.below(3));
        m.owner_valid = rng_.chance_permille(500);
        m.owner = rng_.below(MaxKernels);
        m.next_valid = rng_.chance_permille(300);
        m.next = rng_.below(MaxKernels);
        m.ctas = rng_.below(17);
        break;
      }
      case 2:  // resident CTAs of one kernel on one SM
        smst_.q.resident[rng_.below(n) * MaxKernels + rng_.below(MaxKernels)] = rng_.below(5);
        break;
      case 3: {  // preempted CTAs wait in a PTBQ (count only is read)
        const uint32_t k = rng_.below(MaxKernels);
        ptbq_.q.cnt[k] = rng_.chance_permille(300) ? rng_.below(4) : 0;
        break;
      }
      default: {  // two kernels swap arrival ranks
        const uint32_t a = rng_.below(MaxKernels), b = rng_.below(MaxKernels);
        std::swap(aq_.q.rank[a], aq_.q.rank[b]);
        break;
      }
    }
  }

  PolicyEvent random_event() {
    PolicyEvent ev;
    ev.ev_valid = rng_.chance_permille(100);
    if (ev.ev_valid) ev.ev_type = static_cast<SmEventType>(1 + rng_.below(3));
    ev.ev_sm = rng_.below(cfg_.num_sms);
    ev.ev_slot = rng_.below(MaxKernels);
    // the event CTA and its residency stamps (modulo 2**CycleW: the end may wrap past the start)
    ev.ev_cta = rng_.below(200);
    ev.ev_start_cycle = static_cast<uint32_t>(rng_.next());
    ev.ev_end_cycle = ev.ev_start_cycle + rng_.below(40000);
    ev.alloc_valid = rng_.chance_permille(30);
    ev.alloc_slot = rng_.below(MaxKernels);
    ev.slot_free = rng_.chance_permille(slot_free_permille_) ? 1u << rng_.below(MaxKernels) : 0u;
    // observation samples: epochs of 16 cycles, stamped with the epoch's last cycle
    ++now_;
    ev.obs.valid = rng_.chance_permille(250);
    if (ev.obs.valid) {
      ev.obs.sm = static_cast<SmId>(rng_.below(cfg_.num_sms));
      ev.obs.kernel = static_cast<KernelId>(rng_.below(200));
      ev.obs.cycle = (now_ & ~15u) - 1;
      ev.obs.insts = rng_.below(4000);
      ev.obs.mem_stall = rng_.below(64);
      ev.obs_hit = rng_.chance_permille(850);
      ev.obs_slot = rng_.below(MaxKernels);
    }
    return ev;
  }

  void drive_cfg() {
    auto& d = rtl_.dut();
    namespace L = pl::policy_cfg_t;
    set_bits(d.cfg_i, L::num_sms_lsb, L::num_sms_width, cfg_.num_sms);
    set_bits(d.cfg_i, L::cta_limit_lsb, L::cta_limit_width, cfg_.cta_limit);
    set_bits(d.cfg_i, L::sm_exclusive_lsb, 1, cfg_.sm_exclusive);
    set_bits(d.cfg_i, L::warp_scheds_lsb, L::warp_scheds_width, cfg_.warp_scheds);
    put_rec(d.cfg_i, cfg_.base_sm, L::base_sm_lsb);
    if constexpr (HasSetI<V>::value) {
      // a module alone reads its own section; gs_policies (HasEnI false) and a module built from
      // other modules (settings_of) read policy_settings_t
      const spec::PolicyInfo& info = spec::kPolicies[static_cast<uint32_t>(cfg_.policy)];
      const char* section = HasEnI<V>::value && !*info.settings_of ? info.settings : "";
      unsigned at = 0;
      spec::pack_settings(cfg_.settings, section, [&](uint64_t, unsigned w) { at += w; });
      spec::pack_settings(cfg_.settings, section, [&](uint64_t bits, unsigned w) {
        at -= w;
        set_bits(d.set_i, at, w, bits);
      });
    }
    // the SMs by type, as gs_top holds them
    const SmTypeTable types = sm_type_table(caps_, sm_big_);
    REQUIRE(types.caps.size() <= MaxSmTypes);
    for (uint32_t t = 0; t < MaxSmTypes; ++t) {
      const SmCaps c = t < types.caps.size() ? types.caps[t] : SmCaps{};
      set_bits(d.cfg_i, L::type_threads_lsb + t * ThreadW, ThreadW, c.threads);
      set_bits(d.cfg_i, L::type_warps_lsb + t * WarpW, WarpW, c.warps);
      set_bits(d.cfg_i, L::type_regs_lsb + t * RegW, RegW, c.regs);
      set_bits(d.cfg_i, L::type_shmem_lsb + t * ShmemW, ShmemW, c.shmem);
      set_bits(d.cfg_i, L::type_ctas_lsb + t * CtaCntW, CtaCntW, c.ctas);
      set_bits(d.cfg_i, L::type_big_lsb + t, 1, t < types.big.size() && types.big[t]);
    }
    for (uint32_t s = 0; s < MaxSms; ++s)
      set_bits(d.cfg_i, L::sm_type_lsb + s * SmTypeW, SmTypeW, s < cfg_.num_sms ? types.of_sm[s] : 0);
  }

  void drive_view(uint32_t pend) {
    auto& d = rtl_.dut();
    namespace L = pl::policy_view_t;
    for (uint32_t k = 0; k < MaxKernels; ++k) {
      put_rec(d.view_i, ksrt_.entry(k), L::ksrt_lsb + k * KsrtW);
      set_bits(d.view_i, L::ptbq_count_lsb + k * PtbqCntW, PtbqCntW, ptbq_.count(k));
      set_bits(d.view_i, L::rank_lsb + k * SlotW, SlotW, aq_.q.rank[k]);
    }
    for (uint32_t s = 0; s < MaxSms; ++s) {
      const bool in = s < cfg_.num_sms;
      put_rec(d.view_i, in ? smst_.entry(s) : SmstEntry{}, L::smst_lsb + s * SmstW);
      for (uint32_t k = 0; k < MaxKernels; ++k)
        set_bits(d.view_i, L::resident_lsb + (s * MaxKernels + k) * CtaCntW, CtaCntW, in ? smst_.resident(s, k) : 0);
    }
    set_bits(d.view_i, L::pending_lsb, L::pending_width, pend);
  }

  void drive_event(const PolicyEvent& ev) {
    auto& d = rtl_.dut();
    namespace L = pl::policy_event_t;
    set_bits(d.event_i, L::ev_valid_lsb, 1, ev.ev_valid);
    set_bits(d.event_i, L::ev_type_lsb, L::ev_type_width, static_cast<uint32_t>(ev.ev_type));
    set_bits(d.event_i, L::ev_sm_lsb, L::ev_sm_width, ev.ev_sm);
    set_bits(d.event_i, L::ev_slot_lsb, L::ev_slot_width, ev.ev_slot);
    set_bits(d.event_i, L::alloc_valid_lsb, 1, ev.alloc_valid);
    set_bits(d.event_i, L::alloc_slot_lsb, L::alloc_slot_width, ev.alloc_slot);
    set_bits(d.event_i, L::slot_free_lsb, L::slot_free_width, ev.slot_free);
    set_bits(d.event_i, L::ev_cta_lsb, L::ev_cta_width, ev.ev_cta);
    set_bits(d.event_i, L::ev_start_cycle_lsb, L::ev_start_cycle_width, ev.ev_start_cycle);
    set_bits(d.event_i, L::ev_end_cycle_lsb, L::ev_end_cycle_width, ev.ev_end_cycle);
    put_rec(d.event_i, ev.obs, L::obs_lsb);
    set_bits(d.event_i, L::obs_hit_lsb, 1, ev.obs_hit);
    set_bits(d.event_i, L::obs_slot_lsb, L::obs_slot_width, ev.obs_slot);
  }

  void cycle(const PolicyEvent& ev) {
    const uint32_t pend = pending();
    const PolicyView view{&ksrt_, &smst_, &ptbq_, &aq_, pend};
    drive_view(pend);
    drive_event(ev);
    out_.clear();
    twin_->comb(cfg_, view, ev, out_);
    const bool accepted = PreemptCtrl::accept(out_.req, smst_);
    auto& d = rtl_.dut();
    d.accept_i = accepted;
    rtl_.settle();
    std::string diff = out_difference(d.out_o);
    if constexpr (HasStateO<V>::value)
      if (diff.empty()) diff = state_difference(d.state_o);
    if (!diff.empty()) {
      if (!soft_) FAIL("cycle " << rtl_.cycle() << ": " << diff);
      diff_ = "cycle " + std::to_string(rtl_.cycle()) + ": " + diff;
    }
    if (out_.quota_wr.valid) last_quota_[out_.quota_wr.sm * MaxKernels + out_.quota_wr.slot] = out_.quota_wr.max_ctas;
    rtl_.tick();
    twin_->clock(cfg_, view, ev, out_, accepted);
    REQUIRE(rtl_.errors() == 0);
    requests_ += out_.req.valid;
    owner_writes_ += out_.owner_wr.valid;
    quota_writes_ += out_.quota_wr.valid;
  }

  /// out_o against the twin's comb(): the first field that differs, or "".
  template <class Port>
  std::string out_difference(const Port& o) const {
    namespace L = pl::policy_out_t;
    std::ostringstream m;
    for (uint32_t k = 0; k < MaxKernels; ++k) {
      const uint64_t rtl = get_bits(o, L::key_lsb + k * OrderKeyW, OrderKeyW);
      const uint64_t golden = (out_.key[k].major << SlotW) | out_.key[k].rank;
      if (rtl != golden) return (m << "key of slot " << k << ": RTL " << rtl << ", golden " << golden, m.str());
    }
    for (uint32_t s = 0; s < cfg_.num_sms; ++s) {
      const uint64_t rtl = get_bits(o, L::elig_lsb + s * MaxKernels, MaxKernels);
      const uint64_t golden = out_.elig[s] & width_mask(MaxKernels);
      if (rtl != golden) return (m << "elig of SM " << s << ": RTL " << rtl << ", golden " << golden, m.str());
    }
    if (get_bits(o, L::quota_en_lsb, 1) != out_.quota_en) return "quota_en";
    const QuotaWr qw = get_rec<QuotaWr>(o, L::quota_wr_lsb);
    const OwnerWr ow = get_rec<OwnerWr>(o, L::owner_wr_lsb);
    const TokenUpd tk = get_rec<TokenUpd>(o, L::tok_lsb);
    const PreemptReq rq = get_rec<PreemptReq>(o, L::req_lsb);
    if (qw == out_.quota_wr && ow == out_.owner_wr && tk == out_.tok && rq == out_.req) return "";
    m << "RTL quota_wr " << qw << " owner_wr " << ow << " tok " << tk << " req " << rq << "; golden quota_wr "
      << out_.quota_wr << " owner_wr " << out_.owner_wr << " tok " << out_.tok << " req " << out_.req;
    return m.str();
  }

  /// state_o (the registers before this cycle's edge) against the twin's state(), field by
  /// field: the first that differs, or "".
  template <class Port>
  std::string state_difference(const Port& o) {
    const spec::PolicyInfo& info = spec::kPolicies[static_cast<unsigned>(cfg_.policy)];
    twin_->state(state_);
    for (uint32_t i = 0; i < info.state_field_count; ++i) {
      const spec::FieldInfo& f = info.state_fields[i];
      for (uint32_t off = 0; off < f.width; off += 64) {
        const uint32_t w = f.width - off < 64 ? f.width - off : 64;
        const uint64_t rtl = get_bits(o, f.lsb + off, w), golden = state_.get(f.lsb + off, w);
        if (rtl != golden) {
          std::ostringstream m;
          m << info.module << " state_o." << f.name << " bits " << off << ".." << off + w - 1 << ": RTL " << rtl
            << ", golden " << golden;
          return m.str();
        }
      }
    }
    ++state_compares_;
    return "";
  }

  Bench<V> rtl_;
  PolicyState state_;
  uint64_t state_compares_ = 0;
  gs::Rng rng_;
  std::unique_ptr<PolicyTwin> twin_;
  std::vector<SmCaps> caps_;
  std::vector<uint8_t> sm_big_;  // PolicyCfg::sm_big
  PolicyCfg cfg_;
  Ksrt ksrt_;
  Smst smst_;
  Ptbq ptbq_;
  ActiveQueue aq_;
  PolicyOut out_;
  uint64_t requests_ = 0, owner_writes_ = 0, quota_writes_ = 0;
  uint32_t slot_free_permille_ = 20;
  uint32_t now_ = 0;  // the bench's cycle, for observation stamps
  bool soft_ = false;
  std::string diff_;
  std::vector<int64_t> last_quota_ = std::vector<int64_t>(MaxSms * MaxKernels, -1);
};

}  // namespace gs::bench
