// gsched: GoldenScheduler implementation (see golden_scheduler.hpp). The body of step() is
// gs_top.sv line by line: combinational signals from registered state first, then every
// block's next() (reading registered state only), then one clock edge that commits all
// blocks at once, so the order of the next() calls does not matter.
// The policy is a PolicyTwin from the generated registry (gs_policy_twins.hpp), composed
// through the policy contract exactly as gs_top composes gs_policies: no policy is named here.
#include "sched/golden/golden_scheduler.hpp"

#include <sstream>

#include "gs_policy_twins.hpp"

#include "common/error.hpp"
#include "config/gpu_config.hpp"
#include "config/limits.hpp"

namespace gs {

using namespace golden;

Policy parse_policy(const std::string& name) {
  const std::string canonical = canonical_policy_name(name);  // InputError for an unknown name
  for (uint8_t i = 0; i < std::size(spec::kPolicies); ++i)
    if (canonical == spec::kPolicies[i].name) return static_cast<Policy>(i);
  throw InputError("--policy " + name +
                   ": an analysis policy (cmodel/metrics/mix_strategy.hpp), not one a scheduler "
                   "runs; gsim run and gsim sweep run it");
}

std::string policy_name(Policy p) { return spec::kPolicies[uint8_t(p)].name; }

GoldenScheduler::GoldenScheduler(const SchedOptions& opt) : opt_(opt), policy_(parse_policy(opt.policy)) {}

std::string GoldenScheduler::name() const { return "golden/" + policy_name(policy_); }

void GoldenScheduler::reset(const GpuConfig& cfg, const SchedOptions& opt) {
  opt_ = opt;
  policy_ = parse_policy(opt.policy);
  limits::check_scheduler_config(cfg, opt);
  num_sms_ = cfg.num_sms();
  slots_ = cfg.max_active_kernels;
  contexts_ = cfg.max_contexts;
  caps_.assign(num_sms_, SmCaps{});
  sm_big_.assign(num_sms_, 0);
  for (uint32_t s = 0; s < num_sms_; ++s) {
    const SmTypeConfig& t = cfg.sm(s);
    caps_[s] = SmCaps{t.max_threads, t.max_warps, t.registers, t.shared_mem_bytes, t.max_ctas};
    sm_big_[s] = cfg.sm_is_big(s);
  }
  cycle_ = 0;
  tables_quiet_ = false;
  bypass_q_ = BypassCmd{};

  cmd_.reset(contexts_);
  aq_.reset(slots_);
  ksrt_.reset(slots_);
  smst_.reset(num_sms_, slots_);
  ptbq_.reset(slots_);
  driver_.reset(num_sms_, slots_);
  preempt_.reset(num_sms_);
  quota_.reset(num_sms_, slots_);
  pol_cfg_ = PolicyCfg{
      policy_,
      num_sms_,
      slots_,
      opt.cta_limit,
      opt.sm_sharing == SmSharing::kExclusive,
      &caps_,
      cfg.sm(0).warp_schedulers,
      &sm_big_,
      WfRes{cfg.base_sm.threads, cfg.base_sm.warps, cfg.base_sm.regs, cfg.base_sm.shmem, cfg.base_sm.ctas},
      cfg.settings};
  policy_twin_ = make_policy_twin(policy_);
  policy_twin_->reset(pol_cfg_);
  policy_twin_->take_options(opt_);  // after reset(): an analysis policy's golden-only inputs
  pol_out_.size(num_sms_, slots_);
  pol_last_.size(num_sms_, slots_);
  ctas_.assign(slots_, CtaLedger{});
  slot_kernel_.assign(slots_, kNoKernel);
  records_.reset();
  sm_mask_kernel_.assign(opt.sm_kernels.empty() ? 0 : slots_, kNoKernel);
  sm_slot_mask_.assign(opt.sm_kernels.empty() ? 0 : num_sms_, 0);
  fixed_slot_cap_.assign(opt.fixed_ctas.empty() ? 0 : slots_, UINT32_MAX);
  fixed_quota_.assign(opt.fixed_ctas.empty() ? 0 : size_t(num_sms_) * slots_, UINT32_MAX);
}

void GoldenScheduler::refresh_sm_mask() {
  // SchedOptions::sm_kernels names mix kernels; the SM driver's eligibility names KSRT slots:
  // rebuild the per-SM slot masks when a slot's kernel changed (admission, retirement)
  bool changed = false;
  for (uint32_t k = 0; k < slots_; ++k) {
    const KsrtEntry& e = ksrt_.entry(k);
    const KernelId id = e.valid ? e.kernel : kNoKernel;
    if (id != sm_mask_kernel_[k]) sm_mask_kernel_[k] = id, changed = true;
  }
  if (!changed) return;
  for (uint32_t s = 0; s < num_sms_; ++s) {
    uint32_t m = 0;
    for (uint32_t k = 0; k < slots_; ++k) {
      const KernelId id = sm_mask_kernel_[k];
      if (id != kNoKernel && id < 32 && (opt_.sm_kernels[s] >> id & 1u)) m |= 1u << k;
    }
    sm_slot_mask_[s] = m;
  }
}

uint32_t GoldenScheduler::pending_slots() const {
  uint32_t pending = 0;
  for (uint32_t k = 0; k < slots_; ++k) {
    const KsrtEntry& e = ksrt_.entry(k);
    if (e.valid && (e.next_cta != e.grid || ptbq_.count(k) != 0)) pending |= 1u << k;
  }
  return pending;
}

uint32_t GoldenScheduler::refresh_fixed_quota() {
  // The partition holds while two or more kernels have CTAs to issue; a kernel left alone takes
  // the whole SM, as under warped-slicer (mode alone) and the paper's Oracle, whose finished
  // kernel releases its resources to the slower one (Warped-Slicer Sec. V).
  const bool shared = popcount32(pending_slots()) >= 2;
  uint32_t changed = 0;
  for (uint32_t k = 0; k < slots_; ++k) {
    const KsrtEntry& e = ksrt_.entry(k);
    const uint32_t cap = shared && e.valid && e.kernel < opt_.fixed_ctas.size() ? opt_.fixed_ctas[e.kernel]
                                                                                : UINT32_MAX;
    if (cap == fixed_slot_cap_[k]) continue;
    fixed_slot_cap_[k] = cap;
    changed |= 1u << k;
    for (uint32_t s = 0; s < num_sms_; ++s) fixed_quota_[size_t(s) * slots_ + k] = cap;
  }
  return changed;
}

Launch GoldenScheduler::to_launch(const LaunchCmd& l) const {
  limits::check_launch(l, contexts_);
  return l.record();
}

SchedOutputs GoldenScheduler::step(const SchedInputs& in) {
  // ------------------------------------------------------------ registered outputs
  SchedOutputs out;
  out.dispatch = driver_.dispatch();
  out.preempt = preempt_.preempt();
  out.quota = quota_.report();
  out.bypass = bypass_q_;

  // ------------------------------------------------------------ command path
  const bool push = in.launch.valid;
  Launch launch;
  if (push) {
    launch = to_launch(in.launch);
    if (!cmd_.ready())
      throw InvariantError("cycle " + std::to_string(in.cycle) + ": launch of kernel " +
                           std::to_string(in.launch.kernel) + " presented while the command buffers were full");
  }
  const bool head_valid = cmd_.head_valid();
  const Launch head = head_valid ? cmd_.head() : Launch{};
  const uint32_t ksrt_valid = ksrt_.valid_mask();
  ActiveQueue::In aq_in;
  aq_in.head_valid = head_valid;
  aq_in.ksrt_valid = ksrt_valid;
  const ActiveQueue::Alloc alloc = aq_.comb(aq_in);

  // ------------------------------------------------------------ event decode
  const SmEvent& ev = in.event;
  const bool ev_valid = ev.type != SmEventType::kNone;
  // without an event the lookup (of kNoKernel, an id no launch may use) misses: skip it
  const Ksrt::Lookup lk = ev_valid ? ksrt_.lookup(ev.kernel) : Ksrt::Lookup{};
  if (ev_valid && ev.sm >= num_sms_)
    throw InvariantError("cycle " + std::to_string(in.cycle) + ": event for SM " + std::to_string(ev.sm) +
                         " beyond the GPU's " + std::to_string(num_sms_));
  if (ev_valid && ev.type != SmEventType::kPreemptDone && !lk.hit)
    throw InvariantError("cycle " + std::to_string(in.cycle) + ": SM " + std::to_string(ev.sm) +
                         " reported an event for kernel " + std::to_string(ev.kernel) + " that is not active");
  const bool ev_finished = ev.type == SmEventType::kCtaFinished && lk.hit;
  const bool ev_saved = ev.type == SmEventType::kCtaSaved && lk.hit;
  const bool ev_done = ev.type == SmEventType::kPreemptDone;
  const uint32_t free_mask = ksrt_.free_mask(ev_finished, lk.slot);
  const KsrtEntry& ev_entry = ksrt_.entry(lk.slot);
  const CtaRes ev_res{ev_entry.threads, ev_entry.warps, ev_entry.regs, ev_entry.shmem};
  aq_in.free_mask = free_mask;

  const uint32_t pending = pending_slots();

  // ------------------------------------------------------------ the policy (gs_policies)
  const PolicyView view{&ksrt_, &smst_, &ptbq_, &aq_, pending};
  PolicyEvent pev;
  pev.ev_valid = ev_valid;
  pev.ev_type = ev.type;
  pev.ev_sm = ev.sm;
  pev.ev_slot = lk.slot;
  pev.alloc_valid = alloc.valid;
  pev.alloc_slot = alloc.slot;
  pev.slot_free = free_mask;
  pev.ev_cta = ev.cta;
  pev.ev_start_cycle = ev.start_cycle;
  pev.ev_end_cycle = ev.end_cycle;
  pev.obs = in.obs;
  if (in.obs.valid) {
    const Ksrt::Lookup ol = ksrt_.lookup(in.obs.kernel);
    pev.obs_hit = ol.hit;
    pev.obs_slot = ol.slot;
  }
  pol_out_.clear();
  policy_twin_->comb(pol_cfg_, view, pev, pol_out_);
  if (!opt_.sm_kernels.empty()) {  // HeteroCore's static mapping: each SM issues its kernels only
    refresh_sm_mask();
    for (uint32_t s = 0; s < num_sms_; ++s) pol_out_.elig[s] &= sm_slot_mask_[s];
  }
  const PolicyOut& pol = pol_out_;

  // ------------------------------------------------------------ SM driver and preemption control
  SmDriver::In drv_in;
  drv_in.caps = &caps_;
  drv_in.num_sms = num_sms_;
  drv_in.smst = &smst_;
  drv_in.ksrt = &ksrt_;
  drv_in.ptbq = &ptbq_;
  drv_in.pol.elig = &pol.elig;
  drv_in.pol.quota_en = pol.quota_en;
  drv_in.pol.quota = &quota_.quota();
  // the rows and columns whose inputs change at this edge: a freed CTA's SM, a quota write's SM,
  // an admitted kernel's slot (gs_top's wiring of the driver)
  drv_in.free_valid = ev_finished || ev_saved;
  drv_in.free_sm = ev.sm;
  drv_in.quota_wr_valid = pol.quota_wr.valid;
  drv_in.quota_wr_sm = pol.quota_wr.sm;
  drv_in.col_clr = alloc.valid ? 1u << alloc.slot : 0u;
  if (!opt_.fixed_ctas.empty()) {  // the Oracle's static partition instead of a policy's quotas
    // a slot whose fixed quota changes this cycle is treated as newly admitted (its column of
    // the driver's ready bitmap is cleared and swept again)
    drv_in.col_clr |= refresh_fixed_quota();
    pol_out_.quota_en = true;
    drv_in.pol.quota_en = true;
    drv_in.pol.quota = &fixed_quota_;
  }
  drv_in.pol.cta_limit = opt_.cta_limit;
  drv_in.pol.key = &pol.key;
  const SmDriver::Issue issue = driver_.comb(drv_in);

  PreemptCtrl::In pc_in;
  pc_in.cfg_mode = opt_.preempt;
  pc_in.req = pol.req;
  pc_in.smst = &smst_;
  pc_in.ksrt = &ksrt_;
  pc_in.ev_done = ev_done;
  pc_in.ev_sm = ev.sm;
  const PreemptCtrl::Out pc = preempt_.comb(pc_in);
  pc_in.ptbq_max = pc.accept ? ptbq_.max_count() : 0;  // read by next() only for an accepted request
  const PreemptReq& req = pol.req;
  const OwnerWr& owner_wr = pol.owner_wr;
  const bool accepted = pc.accept;
  // a token update that goes with a preemption request moves only if the request is accepted
  const TokenUpd tok = (req.valid && !accepted) ? TokenUpd{} : pol.tok;

  // ------------------------------------------------------------ invariant checks of this cycle
  if (issue.valid) track_issue(issue.slot, issue.cta, issue.resume);
  if (ev_finished || ev_saved) {
    if (smst_.resident(ev.sm, lk.slot) == 0)
      throw InvariantError("cycle " + std::to_string(in.cycle) + ": SM " + std::to_string(ev.sm) +
                           " retired/saved CTA " + std::to_string(ev.cta) + " of kernel " + std::to_string(ev.kernel) +
                           " but holds none of that kernel");
    track_event(ev, lk.slot);
  }
  if (ev_done && !reserved(smst_.entry(ev.sm)))
    throw InvariantError("cycle " + std::to_string(in.cycle) + ": kPreemptDone from SM " + std::to_string(ev.sm) +
                         " which was not being preempted");
  if (ev_saved && ptbq_.count(lk.slot) >= PtbqDepth)
    throw InvariantError("cycle " + std::to_string(in.cycle) + ": PTBQ of kernel " + std::to_string(ev.kernel) +
                         " overflows");
  if (free_mask != 0) track_free(lk.slot);

  tables_quiet_ = !issue.valid && !ev_valid && !alloc.valid && !accepted && !owner_wr.valid && !tok.inc_valid &&
                  !tok.dec_valid && !pol.quota_wr.valid && !driver_.busy(drv_in) && !ptbq_.busy();

  // ------------------------------------------------------------ next state of every block
  // Each next() reads only registered state (q) and this cycle's inputs, and writes its
  // block's d; nothing is committed before every block has computed its next state.
  policy_twin_->next(pol_cfg_, view, pev, pol, accepted);

  QuotaTable::In quota_in;
  quota_in.wr = pol.quota_wr;
  quota_in.slot_free = free_mask;
  quota_in.ksrt = &ksrt_;
  quota_.next(quota_in, quota_.d);
  driver_.next(drv_in, issue, driver_.d);
  tables_quiet_ = tables_quiet_ && !driver_.cand_moved();  // the candidates follow the policy's outputs too
  preempt_.next(pc_in, pc, preempt_.d);

  Ptbq::In ptbq_in;
  ptbq_in.push = ev_saved;
  ptbq_in.push_slot = lk.slot;
  ptbq_in.push_cta = ev.cta;
  ptbq_in.pop = issue.valid && issue.resume;
  ptbq_in.pop_slot = issue.slot;
  ptbq_.next(ptbq_in, ptbq_.d);

  Smst::In w;
  w.alloc_valid = issue.valid;
  w.alloc_sm = issue.sm;
  w.alloc_slot = issue.slot;
  w.alloc_res = issue.res;
  w.free_valid = ev_finished || ev_saved;
  w.free_sm = ev.sm;
  w.free_slot = lk.slot;
  w.free_res = ev_res;
  w.unreserve_valid = ev_done;
  w.unreserve_sm = ev.sm;
  w.reserve_valid = accepted;
  w.reserve_sm = req.sm;
  w.reserve_next_valid = req.next_valid && req.assign_next;
  w.reserve_next = req.next;
  w.owner_wr = owner_wr;
  w.slot_free = free_mask;
  smst_.next(w, smst_.d);

  Ksrt::In ksrt_in;
  ksrt_in.alloc_valid = alloc.valid;
  ksrt_in.alloc_slot = alloc.slot;
  ksrt_in.launch = head;
  ksrt_in.issue_valid = issue.valid && !issue.resume;
  ksrt_in.issue_slot = issue.slot;
  ksrt_in.done_valid = ev_finished;
  ksrt_in.done_slot = lk.slot;
  ksrt_in.tok = tok;
  ksrt_in.lookup = ev.kernel;
  ksrt_.next(ksrt_in, ksrt_.d);
  aq_.next(aq_in, alloc, aq_.d);

  CmdBuffers::In cmd_in;
  cmd_in.push = push;
  cmd_in.launch = launch;
  cmd_in.pop = alloc.valid;
  cmd_.next(cmd_in, cmd_.d);

  // gs_top's bypass port register: the policy's write, its slot named by the kernel id
  const BypassCmd bypass_d = pol.bypass.valid ? BypassCmd{true, static_cast<SmId>(pol.bypass.sm),
                                                          ksrt_.entry(pol.bypass.slot).kernel, pol.bypass.level}
                                              : BypassCmd{};

  // ------------------------------------------------------------ clock edge: q <= d, all blocks at once
  // the CTA whose resources the SMST adds at this edge (issued in the last cycle)
  const bool landed = smst_.pend_alloc().valid;
  const uint32_t landed_sm = smst_.pend_alloc().sm;
  policy_twin_->commit();
  const size_t reported = records_.list().size();
  policy_twin_->report(records_);
  for (size_t i = reported; i < records_.list().size(); ++i) {  // the edge's records: its cycle, its kernels
    PolicyRecord& r = records_.list()[i];
    r.cycle = in.cycle;
    for (uint32_t k = 0; k < slots_; ++k)
      if (r.slots >> k & 1u) r.kernel[k] = ksrt_.entry(k).kernel;
  }
  quota_.commit();
  driver_.commit();
  preempt_.commit();
  ptbq_.commit();
  smst_.commit();
  ksrt_.commit();
  aq_.commit();
  cmd_.commit();
  bypass_q_ = bypass_d;
  if (landed) check_capacity(landed_sm);
  if (alloc.valid) {
    ctas_[alloc.slot].admit(head.grid);
    slot_kernel_[alloc.slot] = head.kernel;
  }

  std::swap(pol_last_, pol_out_);  // keep this cycle's out_o; no allocation (sizes kept)
  out.launch_ready = cmd_.ready();
  cycle_ = in.cycle + 1;
  return out;
}

void GoldenScheduler::check_capacity(uint32_t sm) const {
  const SmstEntry& m = smst_.entry(sm);
  const SmCaps& c = caps_[sm];
  if (m.threads > c.threads || m.warps > c.warps || m.regs > c.regs || m.shmem > c.shmem || m.ctas > c.ctas) {
    std::ostringstream os;
    os << "SM " << sm << " over capacity: threads " << m.threads << "/" << c.threads << " warps " << m.warps << "/"
       << c.warps << " regs " << m.regs << "/" << c.regs << " shmem " << m.shmem << "/" << c.shmem << " ctas " << m.ctas
       << "/" << c.ctas;
    throw InvariantError(os.str());
  }
}

void GoldenScheduler::track_issue(uint32_t slot, uint32_t cta, bool resume) {
  CtaLedger& ledger = ctas_[slot];
  const KernelId kernel = slot_kernel_[slot];
  const CtaLedger::State before = cta < ledger.grid() ? ledger.state(cta) : CtaLedger::State::kNotStarted;
  switch (ledger.start(cta, resume)) {
    case CtaLedger::Fault::kNone: return;
    case CtaLedger::Fault::kBeyondGrid:
      throw InvariantError("kernel " + std::to_string(kernel) + ": CTA " + std::to_string(cta) +
                           " issued beyond grid " + std::to_string(ledger.grid()));
    default:
      throw InvariantError("kernel " + std::to_string(kernel) + ": CTA " + std::to_string(cta) +
                           (resume ? " resumed but it was not saved" : " issued twice") + " (state " +
                           std::to_string(unsigned(before)) + ")");
  }
}

void GoldenScheduler::track_event(const SmEvent& ev, uint32_t slot) {
  const bool saved = ev.type == SmEventType::kCtaSaved;
  if (ctas_[slot].retire(ev.cta, saved) != CtaLedger::Fault::kNone)
    throw InvariantError("kernel " + std::to_string(ev.kernel) + ": SM " + std::to_string(ev.sm) + " reported CTA " +
                         std::to_string(ev.cta) + (saved ? " saved" : " finished") + " but it was not running");
}

void GoldenScheduler::track_free(uint32_t slot) {
  const CtaLedger& ledger = ctas_[slot];
  const uint32_t c = ledger.first_not_done();
  if (c != ledger.grid())
    throw InvariantError("kernel " + std::to_string(slot_kernel_[slot]) + " finished but CTA " + std::to_string(c) +
                         " did not complete exactly once (state " + std::to_string(unsigned(ledger.state(c))) + ")");
}

std::string GoldenScheduler::dump_state() const {
  std::ostringstream os;
  os << "golden scheduler, policy " << policy_name(policy_) << ", cycle " << cycle_ << "\n";
  for (uint32_t k = 0; k < slots_; ++k) {
    const KsrtEntry& e = ksrt_.entry(k);
    if (!e.valid) continue;
    os << "  KSRT[" << k << "] kernel " << e.kernel << " rank " << aq_.q.rank[k] << " prio " << e.prio << " tokens "
       << e.tokens << " next_cta " << e.next_cta << " done " << e.done << "/" << e.grid << " ptbq " << ptbq_.count(k)
       << "\n";
  }
  static const char* kState[] = {"idle", "running", "reserved"};
  for (uint32_t s = 0; s < num_sms_; ++s) {
    const SmstEntry& m = smst_.entry(s);
    os << "  SMST[" << s << "] " << kState[uint8_t(m.state)];
    if (m.owner_valid) os << " owner " << m.owner;
    if (m.next_valid) os << " next " << m.next;
    os << " used thr " << m.threads << " warps " << m.warps << " regs " << m.regs << " shmem " << m.shmem << " ctas "
       << m.ctas << " resident";
    for (uint32_t k = 0; k < slots_; ++k) os << " " << smst_.resident(s, k);
    os << "\n";
  }
  return os.str();
}

std::unique_ptr<SchedulerPort> make_golden_scheduler(const SchedOptions& opt) {
  return std::make_unique<GoldenScheduler>(opt);
}


}  // namespace gs
