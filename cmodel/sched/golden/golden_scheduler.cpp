// gsched: GoldenScheduler implementation (see golden_scheduler.hpp). The body of step() is
// gs_top.sv line by line: combinational signals from registered state first, then every
// block's clock() in an order in which no block reads another's already-updated state.
// The policy is a PolicyTwin from the generated registry (gs_policy_twins.hpp), composed
// through the policy contract exactly as gs_top composes gs_policies: no policy is named here.
#include "sched/golden/golden_scheduler.hpp"

#include <sstream>

#include "gs_policy_twins.hpp"

#include "common/error.hpp"
#include "config/gpu_config.hpp"

namespace gs {

using namespace golden;

namespace {

enum : uint8_t { kCtaNever = 0, kCtaRunning = 1, kCtaSaved = 2, kCtaDone = 3 };

void require_width(const std::string& where, const char* field, uint32_t value, uint32_t width) {
  if (value > width_mask(width)) {
    std::ostringstream os;
    os << where << ": " << field << " = " << value << " exceeds the scheduler's " << width
       << "-bit field (max " << width_mask(width) << ", rtl/spec/gs_spec.toml)";
    throw InputError(os.str());
  }
}

}  // namespace

Policy parse_policy(const std::string& name) {
  std::string known;
  for (uint8_t i = 0; i < std::size(spec::kPolicies); ++i) {
    const spec::PolicyInfo& p = spec::kPolicies[i];
    if (name == p.name) return static_cast<Policy>(i);
    std::istringstream aliases(p.aliases);
    for (std::string a; std::getline(aliases, a, ',');)
      if (name == a) return static_cast<Policy>(i);
    known += (known.empty() ? "" : ", ") + std::string(p.name);
    if (*p.aliases) known += " (alias " + std::string(p.aliases) + ")";
  }
  throw InputError("--policy", "policy", "unknown policy '" + name + "' (known: " + known + ")");
}

std::vector<std::string> golden_policy_names() {
  std::vector<std::string> names;
  for (const auto& p : spec::kPolicies) names.emplace_back(p.name);
  return names;
}

std::string policy_name(Policy p) { return spec::kPolicies[uint8_t(p)].name; }

GoldenScheduler::GoldenScheduler(const SchedOptions& opt) : opt_(opt), policy_(parse_policy(opt.policy)) {}

std::string GoldenScheduler::name() const { return "golden/" + policy_name(policy_); }

void GoldenScheduler::reset(const GpuConfig& cfg, const SchedOptions& opt) {
  opt_ = opt;
  policy_ = parse_policy(opt.policy);
  const std::string where = "config " + (cfg.name.empty() ? cfg.file : cfg.name);
  num_sms_ = cfg.num_sms();
  if (num_sms_ == 0 || num_sms_ > kGoldenMaxSms)
    throw InputError(where + ": the golden scheduler supports 1.." + std::to_string(kGoldenMaxSms) + " SMs, not " +
                     std::to_string(num_sms_));
  slots_ = cfg.max_active_kernels;
  contexts_ = cfg.max_contexts;
  if (slots_ == 0 || slots_ > kGoldenMaxSlots)
    throw InputError(where, "max_active_kernels", "must be 1.." + std::to_string(kGoldenMaxSlots));
  if (contexts_ == 0 || contexts_ > kGoldenMaxContexts)
    throw InputError(where, "max_contexts", "must be 1.." + std::to_string(kGoldenMaxContexts));
  if (opt.cta_limit > MaxCtasPerSm)
    throw InputError("scheduler options: cta_limit " + std::to_string(opt.cta_limit) + " exceeds MaxCtasPerSm=" +
                     std::to_string(MaxCtasPerSm));
  caps_.assign(num_sms_, SmCaps{});
  for (uint32_t s = 0; s < num_sms_; ++s) {
    const SmTypeConfig& t = cfg.sm(s);
    const std::string sw = where + " SM " + std::to_string(s) + " (" + t.name + ")";
    require_width(sw, "max_threads", t.max_threads, ThreadW);
    require_width(sw, "max_warps", t.max_warps, WarpW);
    require_width(sw, "registers", t.registers, RegW);
    require_width(sw, "shared_mem_bytes", t.shared_mem_bytes, ShmemW);
    if (t.max_ctas > MaxCtasPerSm)
      throw InputError(sw + ": max_ctas " + std::to_string(t.max_ctas) + " exceeds MaxCtasPerSm=" +
                       std::to_string(MaxCtasPerSm));
    caps_[s] = SmCaps{t.max_threads, t.max_warps, t.registers, t.shared_mem_bytes, t.max_ctas};
  }
  cycle_ = 0;
  tables_quiet_ = false;
  driver_idle_ = false;
  bypass_q_ = BypassCmd{};

  cmd_.reset(contexts_);
  aq_.reset(slots_);
  ksrt_.reset(slots_);
  smst_.reset(num_sms_, slots_);
  ptbq_.reset(slots_);
  driver_.reset();
  preempt_.reset(num_sms_);
  quota_.reset(num_sms_, slots_);
  pol_cfg_ = PolicyCfg{policy_, num_sms_, slots_, opt.cta_limit, &caps_};
  policy_twin_ = make_policy_twin(policy_);
  policy_twin_->reset(pol_cfg_);
  pol_out_.size(num_sms_, slots_);
  pol_last_.size(num_sms_, slots_);
  cta_state_.assign(slots_, {});
  slot_kernel_.assign(slots_, kNoKernel);
}

Launch GoldenScheduler::to_launch(const LaunchCmd& l) const {
  const std::string where = "launch of kernel " + std::to_string(l.kernel);
  if (l.ctx >= contexts_)
    throw InputError(where + ": context " + std::to_string(l.ctx) + " >= max_contexts " + std::to_string(contexts_));
  if (l.grid == 0) throw InputError(where + ": empty grid");
  if (l.tokens < 0 || l.tokens > int32_t(width_mask(TokenW - 1)))
    throw InputError(where + ": tokens " + std::to_string(l.tokens) + " outside 0.." +
                     std::to_string(width_mask(TokenW - 1)) + " (TokenW-bit signed, rtl/spec/gs_spec.toml)");
  require_width(where, "priority", l.prio, PrioW);
  require_width(where, "grid", l.grid, CtaIdW);
  require_width(where, "threads per CTA", l.threads, ThreadW);
  require_width(where, "warps per CTA", l.warps, WarpW);
  require_width(where, "registers per CTA", l.regs, RegW);
  require_width(where, "shared memory per CTA", l.shmem, ShmemW);
  return l.record();
}

SchedOutputs GoldenScheduler::step(const SchedInputs& in) {
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
  const ActiveQueue::Alloc alloc = aq_.alloc(head_valid, ksrt_valid);

  // ------------------------------------------------------------ event decode
  const SmEvent& ev = in.event;
  const bool ev_valid = ev.type != SmEventType::kNone;
  const Ksrt::Lookup lk = ksrt_.lookup(ev.kernel);
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

  uint32_t pending = 0;
  for (uint32_t k = 0; k < slots_; ++k) {
    const KsrtEntry& e = ksrt_.entry(k);
    if (e.valid && (e.next_cta != e.grid || ptbq_.count(k) != 0)) pending |= 1u << k;
  }

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
  const PolicyOut& pol = pol_out_;

  DriverPolicy dp;
  dp.elig = &pol.elig;
  dp.quota_en = pol.quota_en;
  dp.quota = &quota_.quota();
  dp.cta_limit = opt_.cta_limit;
  dp.key = &pol.key;
  // Speed only: the SM driver is a function of the tables and the policy's key/elig/quota_en.
  // When the last cycle issued nothing, the last clock edge wrote no table and those outputs
  // are unchanged, this cycle issues nothing either (identical result, no scan).
  const bool driver_quiet = tables_quiet_ && driver_idle_ && pol.quota_en == pol_last_.quota_en &&
                            pol.key == pol_last_.key && pol.elig == pol_last_.elig;
  const SmDriver::Issue issue = driver_quiet ? SmDriver::Issue{} : driver_.issue(caps_, smst_, ksrt_, ptbq_, dp);

  const PreemptReq& req = pol.req;
  const OwnerWr& owner_wr = pol.owner_wr;
  const bool accepted = PreemptCtrl::accept(req, smst_);
  // a token update that goes with a preemption request moves only if the request is accepted
  const TokenUpd tok = (req.valid && !accepted) ? TokenUpd{} : pol.tok;
  const uint32_t ptbq_max = ptbq_.max_count();

  // ------------------------------------------------------------ invariant checks of this cycle
  if (issue.valid) track_issue(issue.slot, issue.cta, issue.resume);
  if (ev_finished || ev_saved) {
    if (smst_.resident(ev.sm, lk.slot) == 0)
      throw InvariantError("cycle " + std::to_string(in.cycle) + ": SM " + std::to_string(ev.sm) +
                           " retired/saved CTA " + std::to_string(ev.cta) + " of kernel " +
                           std::to_string(ev.kernel) + " but holds none of that kernel");
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
                  !tok.dec_valid && !pol.quota_wr.valid;
  driver_idle_ = !issue.valid;

  // ------------------------------------------------------------ clock edge
  // the bypass port register: the policy's write, its slot named by the kernel id
  bypass_q_ = pol.bypass.valid ? BypassCmd{true, static_cast<SmId>(pol.bypass.sm), ksrt_.entry(pol.bypass.slot).kernel,
                                           pol.bypass.level}
                               : BypassCmd{};
  policy_twin_->clock(pol_cfg_, view, pev, pol, accepted);
  quota_.clock(pol.quota_wr, free_mask, ksrt_);
  driver_.clock(issue, ksrt_, num_sms_);
  preempt_.clock(opt_.preempt, req, accepted, smst_, ksrt_, ptbq_max, ev_done, ev.sm);
  ptbq_.clock(ev_saved, lk.slot, ev.cta, issue.valid && issue.resume, issue.slot);

  Smst::Writes w;
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
  smst_.clock(w);
  if (issue.valid) check_capacity(issue.sm);

  ksrt_.clock(alloc.valid, alloc.slot, head, issue.valid && !issue.resume, issue.slot, ev_finished, lk.slot, tok);
  if (alloc.valid) {
    cta_state_[alloc.slot].assign(head.grid, kCtaNever);
    slot_kernel_[alloc.slot] = head.kernel;
  }
  aq_.clock(ksrt_valid, free_mask, alloc);
  cmd_.clock(push, launch, alloc.valid);

  std::swap(pol_last_, pol_out_);   // keep this cycle's out_o; no allocation (sizes kept)
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
       << c.warps << " regs " << m.regs << "/" << c.regs << " shmem " << m.shmem << "/" << c.shmem << " ctas "
       << m.ctas << "/" << c.ctas;
    throw InvariantError(os.str());
  }
}

void GoldenScheduler::track_issue(uint32_t slot, uint32_t cta, bool resume) {
  auto& st = cta_state_[slot];
  const KernelId kernel = slot_kernel_[slot];
  if (cta >= st.size())
    throw InvariantError("kernel " + std::to_string(kernel) + ": CTA " + std::to_string(cta) + " issued beyond grid " +
                         std::to_string(st.size()));
  const uint8_t want = resume ? kCtaSaved : kCtaNever;
  if (st[cta] != want)
    throw InvariantError("kernel " + std::to_string(kernel) + ": CTA " + std::to_string(cta) +
                         (resume ? " resumed but it was not saved" : " issued twice") + " (state " +
                         std::to_string(st[cta]) + ")");
  st[cta] = kCtaRunning;
}

void GoldenScheduler::track_event(const SmEvent& ev, uint32_t slot) {
  auto& st = cta_state_[slot];
  if (ev.cta >= st.size() || st[ev.cta] != kCtaRunning)
    throw InvariantError("kernel " + std::to_string(ev.kernel) + ": SM " + std::to_string(ev.sm) + " reported CTA " +
                         std::to_string(ev.cta) + (ev.type == SmEventType::kCtaSaved ? " saved" : " finished") +
                         " but it was not running");
  st[ev.cta] = ev.type == SmEventType::kCtaSaved ? kCtaSaved : kCtaDone;
}

void GoldenScheduler::track_free(uint32_t slot) {
  const auto& st = cta_state_[slot];
  for (uint32_t c = 0; c < st.size(); ++c)
    if (st[c] != kCtaDone)
      throw InvariantError("kernel " + std::to_string(slot_kernel_[slot]) + " finished but CTA " + std::to_string(c) +
                           " did not complete exactly once (state " + std::to_string(st[c]) + ")");
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

std::vector<std::string> list_policies() { return golden_policy_names(); }

}  // namespace gs
