// gsched: the GPU top -- command dispatcher, SM array, memory system, scheduler port glue,
// model-side invariants and the no-progress watchdog. See gpu.hpp for the per-cycle order.
#include "gpu/gpu.hpp"

#include <algorithm>
#include <cstdio>
#include <deque>
#include <sstream>
#include <unordered_map>

#include "common/cta_ledger.hpp"
#include "common/error.hpp"
#include "common/parallel_for.hpp"
#include "common/rng.hpp"
#include "gpu/mem_iface.hpp"
#include "gpu/occupancy.hpp"
#include "gpu/sm.hpp"
#include "sched/golden/golden_scheduler.hpp"

namespace gs {

namespace {

uint64_t cta_key(KernelId k, CtaId c) { return (uint64_t(k) << 32) | c; }

}  // namespace

struct Gpu::Impl {
  struct KernelState {
    const MixEntry* entry = nullptr;
    CtaResources res;
    uint32_t grid = 0;
    bool arrived = false, launched = false, finished = false, dispatched_any = false;
    bool relaunch_due = false;   // fixed window: finished, relaunch once its events reached the port
                                 // (process mix: advance its process then)
    uint32_t queued_events = 0;  // fixed window, process mix: its SM events still in event_q
    int process = -1;            // process mix: the process it is a step of
    CtaLedger ctas;              // the exactly-once record of this kernel's CTAs
    KernelResult result;
  };

  const GpuConfig& cfg;
  const Mix& mix;
  SchedulerPort& sched;
  RunOptions opt;

  std::unique_ptr<MemoryIface> mem;
  std::vector<std::unique_ptr<Sm>> sms;
  std::vector<KernelState> kernels;
  std::vector<uint32_t> arrival_order;  // mix indices sorted by (arrival, index)
  size_t next_arrival = 0;
  std::deque<KernelId> pending_launch;  // arrived, not yet accepted by the scheduler
  std::deque<SmEvent> event_q;          // SM events waiting for the scheduler port
  std::unordered_map<uint64_t, SavedCta> saved;
  std::vector<uint16_t> quota;  // [sm][kernel] max resident CTAs (0xFFFF = none)
  bool launch_ready = true;
  uint64_t window = 0;                   // Mix::window_cycles (0: run every kernel once)
  uint64_t window_start = 0;             // Mix::window_start: the run lasts window_start + window
  std::vector<uint64_t> insts_at_start;  // [kernel] instructions before window_start (reserved)
  uint32_t kernels_finished = 0;
  // Process mix (Mix::processes): each process's position in its sequence.
  static constexpr uint64_t kNever = ~uint64_t(0);
  struct ProcState {
    const MixProcess* proc = nullptr;
    uint32_t step = 0;       // the step under way (or due)
    uint64_t run_start = 0;  // cycle the current run started
    uint64_t due = kNever;   // cycle the current step arrives; kNever once it has arrived
    uint32_t completed = 0;  // runs completed
    ProcessResult result;
  };
  std::vector<ProcState> procs;
  uint32_t procs_done = 0;       // processes that have completed their runs
  bool counting_events = false;  // fixed window or process mix: count each kernel's queued events
  uint64_t last_progress = 0;
  std::vector<CtaRecord> records;
  std::vector<PreemptRecord> preempts;

  // Reused buffers (no per-cycle allocation).
  std::vector<SmEvent> ev_buf;
  std::vector<SavedCta> saved_buf;

  // The per-SM part of a cycle: SM s, then its side of the memory system (MemoryIface::tick_sm).
  // Neither reads another SM's state, so RunOptions::threads threads run it for disjoint SMs.
  struct TickSm {
    Impl* im;
    uint64_t now;
    void operator()(uint32_t s) const {
      im->sms[s]->tick(now);
      im->mem->tick_sm(s, now);
    }
  } tick_sm{this, 0};
  std::unique_ptr<ParallelFor> pool;  // null with one thread

  // Observation channel (RunOptions::obs_interval): the counters at the last sample, per
  // [sm][kernel], and the samples waiting for the port, in a ring that holds one epoch's worth.
  struct ObsBase {
    uint64_t insts = 0, mem_stall = 0, l1_miss = 0, l2_miss = 0;
  };
  std::vector<ObsBase> obs_base;
  std::vector<ObsSample> obs_ring;
  size_t obs_head = 0, obs_count = 0;

  Impl(const GpuConfig& c, const Mix& m, SchedulerPort& s, const RunOptions& o) : cfg(c), mix(m), sched(s), opt(o) {}
};

GpuConfig run_config(const GpuConfig& cfg, const Mix& mix) {
  GpuConfig run = cfg;
  uint32_t largest_shmem = 0;
  for (const auto& e : mix.kernels) largest_shmem = std::max(largest_shmem, cta_resources(e.desc, cfg).shmem);
  for (auto& t : run.sm_types) {
    // A dynamic (unified L1) carve-out changes per SM as CTAs come and go (Sm), not per run.
    if (t.shared_mem_options.empty() || t.l1_carveout == L1Carveout::kDynamic) continue;
    t.shared_mem_bytes = shared_mem_carveout(t, largest_shmem);
    t.shared_mem_options.clear();
  }
  return run;
}

Gpu::Gpu(const GpuConfig& caller_cfg, const Mix& mix, SchedulerPort& sched, const RunOptions& opt)
    : cfg_(run_config(caller_cfg, mix)), impl_(std::make_unique<Impl>(cfg_, mix, sched, opt)) {
  const GpuConfig& cfg = cfg_;
  auto& im = *impl_;
  if (mix.kernels.empty()) throw InputError(mix.file, "kernels", "the mix has no kernels");
  if (mix.kernels.size() >= kNoKernel) throw InputError(mix.file, "kernels", "too many kernels in one mix");
  const uint32_t nk = static_cast<uint32_t>(mix.kernels.size());
  counters_.resize(cfg.num_sms(), nk);
  im.mem = make_memory_system(cfg, counters_);
  for (uint32_t s = 0; s < cfg.num_sms(); ++s)
    im.sms.push_back(std::make_unique<Sm>(s, cfg, *im.mem, counters_, opt.seed));
  im.kernels.resize(nk);
  for (uint32_t i = 0; i < nk; ++i) {
    auto& k = im.kernels[i];
    k.entry = &mix.kernels[i];
    if (k.entry->arrival_pct != 0)
      throw InputError(mix.file, "kernels[" + std::to_string(i) + "].arrival_pct",
                       "an arrival relative to the first kernel's alone runtime is resolved by gsim run and gsim "
                       "sweep (after the alone runs); this command takes arrival_cycle only");
    k.res = cta_resources(k.entry->desc, cfg);
    k.grid = k.entry->grid_ctas ? k.entry->grid_ctas : k.entry->desc.grid_ctas;
    if (k.grid == 0) throw InputError(mix.file, "kernels[" + std::to_string(i) + "].grid_ctas", "grid is empty");
    bool fits_somewhere = false;
    for (uint32_t s = 0; s < cfg.num_sms(); ++s) fits_somewhere |= im.sms[s]->fits(k.res);
    if (!fits_somewhere)
      throw InputError(mix.file, "kernels[" + std::to_string(i) + "]",
                       "kernel '" + k.entry->kernel + "' cannot fit one CTA on any SM of config '" + cfg.name +
                           "' (run `gsim occupancy` for the limiting resource)");
    k.ctas.admit(k.grid);
    k.result.name = k.entry->kernel;
    k.result.id = static_cast<KernelId>(i);
    k.result.arrival_cycle = k.entry->arrival_cycle;
    k.result.ctas = k.grid;
    k.process = mix.process_of(i);
    if (k.process < 0) im.arrival_order.push_back(i);  // a process's steps arrive by its sequence
  }
  if (!mix.processes.empty()) {
    if (mix.window_cycles != 0)
      throw InputError(mix.file, "window_cycles", "a process mix is measured over its runs, not a fixed window");
    std::vector<bool> seen(nk, false);
    for (size_t p = 0; p < mix.processes.size(); ++p) {
      const MixProcess& mp = mix.processes[p];
      const std::string where = "processes[" + std::to_string(p) + "]";
      if (mp.steps.empty() || mp.steps.size() != mp.host_gap_cycles.size() || mp.runs == 0)
        throw InputError(mix.file, where, "a process needs at least one step, a host gap per step and runs >= 1");
      for (uint32_t s : mp.steps) {
        if (s >= nk || seen[s])
          throw InputError(mix.file, where + ".kernels",
                           "step kernel " + std::to_string(s) + " out of range or in two processes");
        seen[s] = true;
      }
      Impl::ProcState ps;
      ps.proc = &mp;
      ps.run_start = mp.start_cycle;
      ps.due = mp.start_cycle + mp.host_gap_cycles[0];
      ps.result.name = mp.name;
      ps.result.runs = mp.runs;
      // Room for the required runs and as many replays again: the per-cycle path seldom grows them.
      ps.result.run_start.reserve(2 * size_t(mp.runs));
      ps.result.run_end.reserve(2 * size_t(mp.runs));
      ps.result.steps.reserve(2 * size_t(mp.runs) * mp.steps.size());
      im.procs.push_back(std::move(ps));
    }
    for (uint32_t i = 0; i < nk; ++i)
      if (!seen[i])
        throw InputError(mix.file, "kernels[" + std::to_string(i) + "]",
                         "a process mix launches only its processes' steps; this kernel belongs to none");
  }
  im.counting_events = mix.window_cycles != 0 || !mix.processes.empty();
  std::stable_sort(im.arrival_order.begin(), im.arrival_order.end(),
                   [&](uint32_t a, uint32_t b) { return mix.kernels[a].arrival_cycle < mix.kernels[b].arrival_cycle; });
  im.quota.assign(size_t(cfg.num_sms()) * nk, 0xFFFF);
  for (uint32_t i = 0; i < nk; ++i)  // a mix entry's cache bypass, on every SM (MixEntry::bypass)
    if (mix.kernels[i].bypass != BypassLevel::kNone)
      for (uint32_t s = 0; s < cfg.num_sms(); ++s)
        im.mem->set_bypass(s, static_cast<KernelId>(i), mix.kernels[i].bypass);
  im.window = mix.window_cycles;
  im.window_start = mix.window_cycles != 0 ? mix.window_start : 0;
  im.insts_at_start.assign(nk, 0);
  if (im.window > opt.max_cycles || im.window_start > opt.max_cycles - im.window)
    throw InputError(mix.file, "window_cycles",
                     std::to_string(im.window_start) + " + " + std::to_string(im.window) +
                         " cycles: the run (window_start + window_cycles) is longer than it may last (--max-cycles " +
                         std::to_string(opt.max_cycles) + ")");
  if (opt.threads == 0 || opt.threads > ParallelFor::kMaxThreads)
    throw InputError("--threads", "threads",
                     std::to_string(opt.threads) + ": must be 1.." + std::to_string(ParallelFor::kMaxThreads));
  if (opt.threads > 1) im.pool = std::make_unique<ParallelFor>(std::min(opt.threads, cfg.num_sms()));
  // A policy that reads the observation channel (registry flag `observes`) gets an epoch even
  // when none was asked for: without samples its profiling would never end.
  const spec::PolicyInfo& pol = spec::kPolicies[static_cast<uint8_t>(parse_policy(opt.sched.policy))];
  if (pol.observes && im.opt.obs_interval == 0)
    im.opt.obs_interval = std::max<uint64_t>(kDefaultObsInterval, uint64_t(cfg.num_sms()) * nk);
  // A profiling window spans at most max(sample, epoch) cycles (its first epoch always counts);
  // the instructions of one SM in it (or of every SM, `all_sms`) must fit the register that holds
  // them (a setting's `window` in the registry: e.g. warped-slicer's performance table, sbm's
  // per-task sums of the profiling counters, which gs_policy_sbm reads without a saturation check).
  const auto check_window_fits = [&](uint64_t sample_cycles, const char* field, unsigned bits, const char* holder,
                                     const char* width_name, bool all_sms) {
    uint64_t scheds = 0;  // the warp schedulers of the widest SM, or of every SM
    for (uint32_t s = 0; s < cfg.num_sms(); ++s)
      scheds = all_sms ? scheds + cfg.sm(s).warp_schedulers : std::max<uint64_t>(scheds, cfg.sm(s).warp_schedulers);
    const uint64_t window = std::max<uint64_t>(sample_cycles, im.opt.obs_interval);
    const uint64_t limit = (uint64_t(1) << bits) - 1;
    if (window * scheds > limit)
      throw InputError("config " + cfg.name, field,
                       "a profiling window of " + std::to_string(window) + " cycles x " + std::to_string(scheds) +
                           (all_sms ? " warp schedulers (every SM's)" : " warp schedulers") +
                           " may issue more instructions than " + holder + " holds (" + std::to_string(limit) + ", " +
                           width_name + " in rtl/spec/gs_spec.toml): shorten the sample or the --obs-interval epoch");
  };
  for (uint32_t i = 0; i < spec::kSettingCount; ++i) {
    const spec::SettingInfo& s = spec::kSettings[i];
    if (s.window_bits != 0 && spec::policy_reads_section(pol, s.section))
      check_window_fits(spec::setting_value(cfg.settings, i), (std::string(s.section) + "." + s.name).c_str(),
                        s.window_bits, s.window_holder, s.window_param, s.window_all_sms);
  }
  if (im.opt.obs_interval != 0) {
    const uint64_t per_epoch = uint64_t(cfg.num_sms()) * nk;
    if (im.opt.obs_interval < per_epoch || im.opt.obs_interval > kMaxObsInterval)
      throw InputError("--obs-interval", "obs_interval",
                       std::to_string(im.opt.obs_interval) + " cycles: must be 0 (no samples) or " +
                           std::to_string(per_epoch) + ".." + std::to_string(kMaxObsInterval) +
                           " (at least SMs x kernels = " + std::to_string(cfg.num_sms()) + " x " + std::to_string(nk) +
                           ", so one epoch's samples reach the port before the next epoch's)");
    im.obs_base.assign(per_epoch, Impl::ObsBase{});
    im.obs_ring.assign(per_epoch, ObsSample{});
  }
  sched.reset(cfg, opt.sched);
}

Gpu::~Gpu() = default;

bool Gpu::done() const {
  const auto& im = *impl_;
  if (!im.procs.empty()) return im.procs_done == im.procs.size();
  return im.window != 0 ? cycle_ >= im.window_start + im.window : im.kernels_finished == im.kernels.size();
}

bool Gpu::step() {
  auto& im = *impl_;
  if (done()) return false;
  const uint64_t now = cycle_;
  if (im.window_start != 0 && now == im.window_start)  // the measured window opens: what came before is not counted
    for (uint32_t i = 0; i < im.kernels.size(); ++i) im.insts_at_start[i] = counters_.kernel_total(i).insts_issued;
  bool progress = false;

  // 1. Arrivals enter the command dispatcher's pending queue.
  while (im.next_arrival < im.arrival_order.size() &&
         im.kernels[im.arrival_order[im.next_arrival]].entry->arrival_cycle <= now) {
    const uint32_t k = im.arrival_order[im.next_arrival++];
    im.kernels[k].arrived = true;
    im.pending_launch.push_back(static_cast<KernelId>(k));
  }
  // A process's next step arrives when due (processes in mix order on the same cycle).
  for (auto& ps : im.procs) {
    if (ps.due > now) continue;
    ps.due = Impl::kNever;
    const KernelId kid = static_cast<KernelId>(ps.proc->steps[ps.step]);
    auto& k = im.kernels[kid];
    if (k.arrived) {  // an instance of an earlier run: the same kernel id again (as relaunch())
      k.finished = false;
      k.launched = false;
      k.ctas.admit(k.grid);  // same grid: no allocation
      --im.kernels_finished;
    }
    k.arrived = true;
    k.result.arrival_cycle = now;
    im.pending_launch.push_back(kid);
  }

  // 2. This cycle's port inputs: at most one launch, at most one SM event.
  SchedInputs in;
  in.cycle = now;
  if (im.launch_ready && !im.pending_launch.empty()) {
    const KernelId kid = im.pending_launch.front();
    im.pending_launch.pop_front();
    auto& k = im.kernels[kid];
    k.launched = true;
    ++k.result.launches;
    LaunchCmd& l = in.launch;
    l.valid = true;
    l.kernel = kid;
    l.ctx = k.entry->context;
    l.prio = k.entry->priority;
    l.tokens = static_cast<int32_t>(k.entry->tokens);
    l.threads = k.res.threads;
    l.warps = k.res.warps;
    l.regs = k.res.regs;
    l.shmem = k.res.shmem;
    l.grid = k.grid;
  }
  if (!im.event_q.empty()) {
    in.event = im.event_q.front();
    im.event_q.pop_front();
    // Fixed window: the scheduler gets the last event of a finished kernel now, so the launch of
    // its next instance can follow from the next cycle on (its KSRT slot is free by then).
    if (im.counting_events && in.event.kernel < im.kernels.size()) {
      auto& k = im.kernels[in.event.kernel];
      if (--k.queued_events == 0 && k.relaunch_due) {
        if (k.process >= 0) {
          k.relaunch_due = false;
          advance_process(static_cast<uint32_t>(k.process), now);
        } else {
          relaunch(in.event.kernel);
        }
      }
    }
  }
  if (im.obs_count != 0) {
    in.obs = im.obs_ring[im.obs_head];
    im.obs_head = (im.obs_head + 1) % im.obs_ring.size();
    --im.obs_count;
  }

  // 3. The scheduler decides; the model applies its decisions in the same cycle.
  const SchedOutputs out = im.sched.step(in);
  im.launch_ready = out.launch_ready;

  if (out.quota.valid) {
    if (out.quota.sm >= cfg_.num_sms() || out.quota.kernel >= im.kernels.size())
      throw InvariantError("cycle " + std::to_string(now) + ": quota for sm " + std::to_string(out.quota.sm) +
                           " kernel " + std::to_string(out.quota.kernel) + " out of range");
    im.quota[size_t(out.quota.sm) * im.kernels.size() + out.quota.kernel] = out.quota.max_ctas;
  }
  if (out.bypass.valid) {
    if (out.bypass.sm >= cfg_.num_sms() || out.bypass.kernel >= im.kernels.size())
      throw InvariantError("cycle " + std::to_string(now) + ": bypass for sm " + std::to_string(out.bypass.sm) +
                           " kernel " + std::to_string(out.bypass.kernel) + " out of range");
    im.mem->set_bypass(out.bypass.sm, out.bypass.kernel, out.bypass.level);
  }
  if (out.dispatch.valid) {
    const DispatchCmd& d = out.dispatch;
    auto fail = [&](const std::string& why) {
      throw InvariantError("cycle " + std::to_string(now) + ": dispatch of kernel " + std::to_string(d.kernel) +
                           " CTA " + std::to_string(d.cta) + " to SM " + std::to_string(d.sm) +
                           (d.resume ? " (resume)" : "") + ": " + why);
    };
    if (d.sm >= cfg_.num_sms()) fail("no such SM");
    if (d.kernel >= im.kernels.size() || !im.kernels[d.kernel].launched) fail("kernel was never launched");
    auto& k = im.kernels[d.kernel];
    if (d.cta >= k.grid) fail("CTA id beyond grid size " + std::to_string(k.grid));
    const CtaLedger::State st = k.ctas.state(d.cta);
    if (k.ctas.start(d.cta, d.resume) != CtaLedger::Fault::kNone)
      fail(std::string("CTA is ") + CtaLedger::name(st) + " (each CTA runs to completion exactly once)");
    Sm& sm = *im.sms[d.sm];
    if (!sm.fits(k.res)) {
      const SmUsage u = sm.used();
      fail("does not fit: SM uses threads " + std::to_string(u.threads) + " warps " + std::to_string(u.warps) +
           " regs " + std::to_string(u.regs) + " shmem " + std::to_string(u.shmem) + " ctas " + std::to_string(u.ctas));
    }
    if (im.opt.sched.sm_sharing == SmSharing::kExclusive)
      for (uint32_t other = 0; other < im.kernels.size(); ++other)
        if (other != d.kernel && sm.resident_ctas(other) != 0)
          fail("SM holds " + std::to_string(sm.resident_ctas(other)) + " CTA(s) of kernel " + std::to_string(other) +
               " and --sm-sharing exclusive runs one kernel per SM");
    const uint16_t q = im.quota[size_t(d.sm) * im.kernels.size() + d.kernel];
    if (q != 0xFFFF && sm.resident_ctas(d.kernel) >= q) fail("over the SM's quota of " + std::to_string(q) + " CTAs");
    const SavedCta* resume = nullptr;
    if (d.resume) resume = &im.saved.at(cta_key(d.kernel, d.cta));
    sm.start_cta(d.kernel, k.entry->desc, k.res, d.cta, now, resume);
    if (resume) im.saved.erase(cta_key(d.kernel, d.cta));
    if (!k.dispatched_any) k.result.first_dispatch_cycle = now, k.dispatched_any = true;
    progress = true;
  }
  if (out.preempt.valid) {
    if (out.preempt.sm >= cfg_.num_sms())
      throw InvariantError("cycle " + std::to_string(now) + ": preempt of SM " + std::to_string(out.preempt.sm) +
                           ": no such SM");
    // A drain in a run configured for context switch is gs_preempt_ctrl's fallback when the
    // PTBQ cannot take the SM's CTAs: counted per victim kernel, and reported (switch_fallbacks).
    if (out.preempt.mode == PreemptMode::kDrain && im.opt.sched.preempt == PreemptMode::kSwitch) {
      const Sm& sm = *im.sms[out.preempt.sm];
      for (uint32_t k = 0; k < im.kernels.size(); ++k)
        if ((out.preempt.victim == kNoKernel ? k != out.preempt.next : out.preempt.victim == k) &&
            sm.resident_ctas(k) != 0)
          ++counters_.at(out.preempt.sm, k).switch_fallbacks;
    }
    im.sms[out.preempt.sm]->preempt(out.preempt.mode, out.preempt.victim, out.preempt.next, now);
    im.preempts.push_back(PreemptRecord{now, out.preempt.sm, out.preempt.mode, out.preempt.victim});
    progress = true;
  }

  // 4. SMs and the memory system advance; SM events queue up for the scheduler.
  im.tick_sm.now = now;
  if (im.pool) im.pool->run(cfg_.num_sms(), im.tick_sm);
  else
    for (uint32_t s = 0; s < cfg_.num_sms(); ++s) im.tick_sm(s);
  for (auto& sm : im.sms) progress |= sm->issued_last_tick() != 0;
  im.mem->tick_shared(now);
  for (auto& smp : im.sms) {
    im.ev_buf.clear();
    im.saved_buf.clear();
    smp->take_events(im.ev_buf, im.saved_buf, im.records);
    size_t saved_i = 0;
    for (const SmEvent& e : im.ev_buf) {
      progress = true;
      if (e.type == SmEventType::kCtaFinished || e.type == SmEventType::kCtaSaved) {
        if (e.kernel >= im.kernels.size() || e.cta >= im.kernels[e.kernel].grid)
          throw InvariantError("SM " + std::to_string(e.sm) + " reported an unknown CTA");
        auto& k = im.kernels[e.kernel];
        const CtaLedger::State st = k.ctas.state(e.cta);
        if (k.ctas.retire(e.cta, e.type == SmEventType::kCtaSaved) != CtaLedger::Fault::kNone)
          throw InvariantError("cycle " + std::to_string(now) + ": SM " + std::to_string(e.sm) + " retired kernel " +
                               std::to_string(e.kernel) + " CTA " + std::to_string(e.cta) + " which is " +
                               CtaLedger::name(st));
        if (e.type == SmEventType::kCtaFinished) {
          if (k.ctas.done() == k.grid) {
            k.finished = true;
            k.result.end_cycle = now + 1;
            ++k.result.completions;
            ++im.kernels_finished;
            k.relaunch_due = im.window != 0 || k.process >= 0;
            if (k.process >= 0) {
              auto& ps = im.procs[static_cast<size_t>(k.process)];
              ProcessResult& pr = ps.result;
              pr.steps.push_back(ProcessStepRecord{static_cast<uint32_t>(pr.run_end.size()), ps.step, e.kernel,
                                                   k.result.arrival_cycle, k.result.end_cycle});
              if (ps.step + 1 == ps.proc->steps.size()) {  // the run is complete
                pr.run_start.push_back(ps.run_start);
                pr.run_end.push_back(k.result.end_cycle);
                if (++ps.completed == ps.proc->runs) ++im.procs_done;
              }
            }
          }
        } else {
          ++k.result.preemptions;
          if (saved_i >= im.saved_buf.size()) throw InvariantError("SM reported kCtaSaved without the saved state");
          im.saved[cta_key(e.kernel, e.cta)] = im.saved_buf[saved_i++];
        }
      }
      if (im.counting_events && e.kernel < im.kernels.size()) ++im.kernels[e.kernel].queued_events;
      im.event_q.push_back(e);
    }
  }

  // 5. The last cycle of an observation epoch: queue this epoch's samples.
  if (im.opt.obs_interval != 0 && (now + 1) % im.opt.obs_interval == 0) sample_observations(now);

  // 6. Watchdog: outstanding work but nothing issued, dispatched or retired for too long.
  bool waiting_for_work = im.pending_launch.empty();
  if (waiting_for_work)
    for (const auto& k : im.kernels) waiting_for_work &= (!k.arrived || k.finished);
  if (progress || waiting_for_work) im.last_progress = now;
  if (now - im.last_progress > im.opt.watchdog_cycles)
    throw WatchdogError("no forward progress for " + std::to_string(im.opt.watchdog_cycles) + " cycles\n" +
                        dump_state());

  if (impl_->opt.on_cycle) impl_->opt.on_cycle(now);
  ++cycle_;
  // (a window ends the run by itself: the constructor checked window_start + window <= --max-cycles)
  if (im.window == 0 && cycle_ >= im.opt.max_cycles && !done())
    throw WatchdogError("run exceeded --max-cycles " + std::to_string(im.opt.max_cycles) + "\n" + dump_state());
  if (im.opt.progress_every && cycle_ % im.opt.progress_every == 0)
    std::fprintf(stderr, "gsim: cycle %llu, %u/%zu kernels finished\n", (unsigned long long)cycle_, im.kernels_finished,
                 im.kernels.size());
  return !done();
}

void Gpu::advance_process(uint32_t p, uint64_t now) {
  auto& ps = impl_->procs[p];
  const uint64_t end = impl_->kernels[ps.proc->steps[ps.step]].result.end_cycle;
  if (++ps.step == ps.proc->steps.size()) {  // the next run starts where this one ended
    ps.step = 0;
    ps.run_start = end;
  }
  ps.due = std::max(end + ps.proc->host_gap_cycles[ps.step], now + 1);
}

void Gpu::relaunch(KernelId kid) {
  auto& im = *impl_;
  auto& k = im.kernels[kid];
  k.relaunch_due = false;
  k.finished = false;
  k.launched = false;
  k.ctas.admit(k.grid);  // same grid: no allocation
  --im.kernels_finished;
  im.pending_launch.push_back(kid);
}

void Gpu::sample_observations(uint64_t now) {
  auto& im = *impl_;
  const uint32_t nk = static_cast<uint32_t>(im.kernels.size());
  for (uint32_t s = 0; s < cfg_.num_sms(); ++s) {
    for (uint32_t k = 0; k < nk; ++k) {
      const KernelSmCounters& c = counters_.at(s, k);
      Impl::ObsBase& base = im.obs_base[size_t(s) * nk + k];
      const Impl::ObsBase now_ctr{c.insts_issued, c.stall_cycles[int(StallReason::kMemLatency)], c.l1_misses,
                                  c.l2_misses};
      const uint64_t d_insts = now_ctr.insts - base.insts, d_stall = now_ctr.mem_stall - base.mem_stall,
                     d_l1 = now_ctr.l1_miss - base.l1_miss, d_l2 = now_ctr.l2_miss - base.l2_miss;
      base = now_ctr;
      if ((d_insts | d_stall | d_l1 | d_l2) == 0) continue;  // nothing of this kernel moved on this SM
      if (std::max({d_insts, d_stall, d_l1, d_l2}) > ((uint64_t(1) << spec::ObsCntW) - 1))
        throw InvariantError("cycle " + std::to_string(now) + ": SM " + std::to_string(s) + " kernel " +
                             std::to_string(k) + ": an observation count exceeds the port's " +
                             std::to_string(spec::ObsCntW) + " bits (ObsCntW, rtl/spec/gs_spec.toml)");
      if (im.obs_count == im.obs_ring.size())
        throw InvariantError("cycle " + std::to_string(now) + ": observation samples of the last epoch still queued");
      ObsSample& o = im.obs_ring[(im.obs_head + im.obs_count++) % im.obs_ring.size()];
      o.valid = true;
      o.sm = static_cast<SmId>(s);
      o.kernel = static_cast<KernelId>(k);
      o.cycle = static_cast<uint32_t>(now);
      o.insts = static_cast<uint32_t>(d_insts);
      o.mem_stall = static_cast<uint32_t>(d_stall);
      o.l1_miss = static_cast<uint32_t>(d_l1);
      o.l2_miss = static_cast<uint32_t>(d_l2);
    }
  }
}

RunResult Gpu::run() {
  while (step()) {
  }
  auto& im = *impl_;
  RunResult r;
  r.cycles = cycle_;
  r.window_cycles = im.window;
  r.window_start = im.window_start;
  for (uint32_t i = 0; i < im.kernels.size(); ++i) {
    auto& k = im.kernels[i];
    k.result.instructions = counters_.kernel_total(i).insts_issued - im.insts_at_start[i];
    r.kernels.push_back(k.result);
  }
  for (const auto& ps : im.procs) r.processes.push_back(ps.result);
  r.counters = counters_;
  im.mem->dram_counters(r.dram);
  r.ctas = im.records;
  r.preempts = im.preempts;
  if (const auto* p = im.sched.records()) r.records = *p;
  r.records_dropped = im.sched.records_dropped();
  return r;
}

std::string Gpu::dump_state() const {
  const auto& im = *impl_;
  std::ostringstream os;
  os << "state at cycle " << cycle_ << " (watchdog window " << im.opt.watchdog_cycles << " cycles)\n";
  os << "kernels:\n";
  for (const auto& k : im.kernels) {
    os << "  " << k.result.id << " " << k.result.name << ": arrived " << k.arrived << " launched " << k.launched
       << " done " << k.ctas.done() << "/" << k.grid << " running " << k.ctas.count(CtaLedger::State::kRunning)
       << " saved " << k.ctas.count(CtaLedger::State::kSaved) << " not started "
       << k.ctas.count(CtaLedger::State::kNotStarted) << "\n";
  }
  for (const auto& ps : im.procs)
    os << "  process " << ps.result.name << ": run " << ps.completed << "/" << ps.proc->runs << " step " << ps.step
       << "/" << ps.proc->steps.size()
       << (ps.due == Impl::kNever ? std::string(" under way") : " due at cycle " + std::to_string(ps.due)) << "\n";
  os << "pending launches " << im.pending_launch.size() << ", queued SM events " << im.event_q.size()
     << ", launch_ready " << im.launch_ready << ", memory idle " << im.mem->idle() << "\n";
  os << "SMs:\n";
  for (const auto& sm : im.sms) os << sm->dump_state();
  os << "scheduler " << im.sched.name() << ":\n" << im.sched.dump_state();
  return os.str();
}

}  // namespace gs
