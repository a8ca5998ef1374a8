// gsched: alone runs + shared run -> MixMetrics (contract in mix_runner.hpp).
#include "metrics/mix_runner.hpp"

#include "common/error.hpp"

namespace gs {

namespace {

/// Everything an alone run's outcome depends on, as one string. The kernel descriptor is
/// identified by name: within one process the kernel library is loaded once. The entry's
/// priority is not part of it: the alone policy (Left-Over) issues in arrival order only, so
/// SJF (pai_baselines.hpp), which sets priorities from the alone runs, reuses them.
std::string alone_key(const GpuConfig& cfg, const MixEntry& e, const std::string& kind, const SchedOptions& opt,
                      const RunOptions& run, uint64_t window_cycles, uint64_t window_start) {
  return kind + '|' + cfg.name + '|' + cfg.file + '|' + e.kernel + '|' + std::to_string(e.grid_ctas) + '|' +
         std::to_string(e.tokens) + '|' + bypass_level_name(e.bypass) + '|' +
         std::to_string(static_cast<int>(opt.preempt)) + '|' + std::to_string(opt.seed) + '|' +
         std::to_string(run.seed) + '|' + std::to_string(run.max_cycles) + '|' + std::to_string(run.watchdog_cycles) +
         '|' + std::to_string(window_cycles) + '@' + std::to_string(window_start);
}

RunOptions alone_run_options(const RunOptions& shared, const SchedOptions& alone_sched) {
  RunOptions r = shared;
  r.sched = alone_sched;
  r.on_cycle = nullptr;  // per-cycle hooks (waveforms, traces) belong to the shared run
  return r;
}

RunOptions with_hook(const RunOptions& run_opt, const SchedOptions& sched_opt, const CycleHook& hook,
                     const RunPhase& phase) {
  RunOptions shared_run = run_opt;
  shared_run.sched = sched_opt;
  if (hook) {
    auto inner = run_opt.on_cycle;
    shared_run.on_cycle = [inner, &hook, &phase](uint64_t c) {
      if (inner) inner(c);
      hook(phase, c + 1);
    };
  }
  return shared_run;
}

/// A kernel's runtimes as the shared run reports them (the alone figures are the caller's).
KernelRuntimes runtimes_of(const Mix& mix, size_t i, const KernelResult& s) {
  KernelRuntimes k;
  k.name = s.name.empty() ? mix.kernels[i].kernel : s.name;
  k.arrival_cycle = s.arrival_cycle;
  k.priority = mix.kernels[i].priority;
  k.instructions = s.instructions;
  return k;
}

}  // namespace

// A process mix: each process alone, then the mix (contract in mix_runner.hpp).
static MixRun run_process_mix(const GpuConfig& cfg, const Mix& mix, const std::string& scheduler_kind,
                              const SchedOptions& sched_opt, const RunOptions& run_opt, AloneRunCache& cache,
                              const CycleHook& hook) {
  MixRun out;
  const uint32_t np = static_cast<uint32_t>(mix.processes.size());
  out.alone.resize(mix.kernels.size());
  out.alone_counters.resize(mix.kernels.size());
  for (uint32_t p = 0; p < np; ++p) {
    const RunPhase phase{false, p + 1, np, mix.processes[p].name};
    const AloneRunCache::ProcessAlone& a = cache.get_process(cfg, mix, p, scheduler_kind, sched_opt, run_opt, hook,
                                                             phase);
    out.alone_processes.push_back(a.process);
    const std::vector<uint32_t>& steps = mix.processes[p].steps;
    for (size_t s = 0; s < steps.size(); ++s) {
      out.alone[steps[s]] = a.kernels.at(s);
      if (s < a.counters.size()) out.alone_counters[steps[s]] = a.counters[s];
    }
  }
  const RunPhase shared_phase{true, 0, np, {}};
  const RunOptions shared_run = with_hook(run_opt, sched_opt, hook, shared_phase);
  auto sched = make_scheduler(scheduler_kind, sched_opt);
  Gpu gpu(cfg, mix, *sched, shared_run);
  out.shared = gpu.run();
  if (out.shared.processes.size() != np)
    throw InvariantError("shared run reported " + std::to_string(out.shared.processes.size()) +
                         " processes for a mix of " + std::to_string(np));

  std::vector<ProcessRuntimes> procs;
  for (uint32_t p = 0; p < np; ++p) {
    ProcessRuntimes pr;
    pr.name = mix.processes[p].name;
    pr.priority = mix.processes[p].priority;
    pr.runs = mix.processes[p].runs;
    const ProcessResult& s = out.shared.processes[p];
    for (size_t r = 0; r < s.completed(); ++r) pr.shared.push_back(s.turnaround(r));
    const ProcessResult& a = out.alone_processes[p];
    for (size_t r = 0; r < a.completed(); ++r) pr.alone.push_back(a.turnaround(r));
    procs.push_back(std::move(pr));
  }
  std::vector<KernelRuntimes> rt;
  for (size_t i = 0; i < mix.kernels.size(); ++i) {
    const KernelResult& s = out.shared.kernels[i];
    KernelRuntimes k = runtimes_of(mix, i, s);
    k.launches = s.launches;
    k.completions = s.completions;
    rt.push_back(std::move(k));
  }
  out.metrics = compute_process_metrics(procs, rt, out.shared.cycles);
  return out;
}

Mix alone_mix(const Mix& mix, const MixEntry& entry) {
  Mix m;
  m.name = mix.name + ":alone:" + entry.kernel;
  m.file = mix.file;
  m.window_cycles = mix.window_cycles;
  m.window_start = mix.window_start;
  MixEntry e = entry;
  e.arrival_cycle = 0;
  e.arrival_pct = 0;
  e.context = 0;
  m.kernels.push_back(std::move(e));
  return m;
}

Mix alone_process_mix(const Mix& mix, uint32_t p) {
  const MixProcess& src = mix.processes.at(p);
  Mix m;
  m.name = mix.name + ":alone:" + src.name;
  m.file = mix.file;
  MixProcess proc = src;
  proc.context = 0;
  proc.start_cycle = 0;
  proc.steps.clear();
  for (uint32_t k : src.steps) {
    MixEntry e = mix.kernels.at(k);
    e.context = 0;
    e.arrival_cycle = 0;
    proc.steps.push_back(static_cast<uint32_t>(m.kernels.size()));
    m.kernels.push_back(std::move(e));
  }
  m.processes.push_back(std::move(proc));
  return m;
}

SchedOptions alone_sched_options(const SchedOptions& shared_opt) {
  SchedOptions o = shared_opt;
  o.policy = kAlonePolicy;
  o.cta_limit = 0;  // alone, the kernel gets the whole GPU
  o.fixed_ctas.clear();
  o.srtf_known_cycles.clear();
  o.sbm_fixed_reg.reset();
  o.sm_kernels.clear();               // a static SM mapping is of the shared run
  o.sm_sharing = SmSharing::kShared;  // (one kernel: nothing to share)
  o.wave_file.clear();                // a requested waveform is of the shared run only
  return o;
}

const KernelResult& AloneRunCache::get(const GpuConfig& cfg, const MixEntry& entry, const std::string& kind,
                                       const SchedOptions& shared_opt, const RunOptions& run_opt, const CycleHook& hook,
                                       const RunPhase& phase, uint64_t window_cycles, uint64_t window_start) {
  const SchedOptions opt = alone_sched_options(shared_opt);
  RunOptions run = alone_run_options(run_opt, opt);
  if (hook) run.on_cycle = [&hook, &phase](uint64_t c) { hook(phase, c + 1); };
  const std::string key = alone_key(cfg, entry, kind, opt, run, window_cycles, window_start);
  auto it = cache_.find(key);
  if (it != cache_.end()) return it->second.kernel;

  Mix windowed;
  windowed.window_cycles = window_cycles;
  windowed.window_start = window_start;
  const Mix mix = alone_mix(windowed, entry);
  auto sched = make_scheduler(kind, opt);
  Gpu gpu(cfg, mix, *sched, run);
  RunResult r = gpu.run();
  ++runs_;
  if (r.kernels.size() != 1)
    throw InvariantError("alone run of '" + entry.kernel + "' reported " + std::to_string(r.kernels.size()) +
                         " kernels instead of 1");
  CounterGroup counters = summarize_counters(cfg, r, &mix).kernels[0].all;
  return cache_.emplace(key, Entry{std::move(r.kernels[0]), std::move(counters)}).first->second.kernel;
}

const AloneRunCache::ProcessAlone& AloneRunCache::get_process(const GpuConfig& cfg, const Mix& mix, uint32_t p,
                                                              const std::string& kind, const SchedOptions& shared_opt,
                                                              const RunOptions& run_opt, const CycleHook& hook,
                                                              const RunPhase& phase) {
  const SchedOptions opt = alone_sched_options(shared_opt);
  RunOptions run = alone_run_options(run_opt, opt);
  if (hook) run.on_cycle = [&hook, &phase](uint64_t c) { hook(phase, c + 1); };
  const Mix alone = alone_process_mix(mix, p);
  // Everything a kernel's alone run depends on, for each step, plus the gaps and the runs.
  std::string key = "process|" + std::to_string(alone.processes[0].runs);
  for (size_t s = 0; s < alone.kernels.size(); ++s)
    key += "|" + alone_key(cfg, alone.kernels[s], kind, opt, run, 0, 0) + "+" +
           std::to_string(alone.processes[0].host_gap_cycles[s]);
  auto it = process_cache_.find(key);
  if (it != process_cache_.end()) return it->second;

  auto sched = make_scheduler(kind, opt);
  Gpu gpu(cfg, alone, *sched, run);
  RunResult r = gpu.run();
  ++runs_;
  if (r.processes.size() != 1 || r.kernels.size() != alone.kernels.size())
    throw InvariantError("alone run of process '" + alone.processes[0].name + "' reported " +
                         std::to_string(r.processes.size()) + " processes");
  ProcessAlone a;
  a.process = std::move(r.processes[0]);
  a.kernels = r.kernels;
  const CountersSummary summary = summarize_counters(cfg, r, &alone);
  for (const auto& k : summary.kernels) a.counters.push_back(k.all);
  return process_cache_.emplace(key, std::move(a)).first->second;
}

const CounterGroup* AloneRunCache::counters_of(const KernelResult& result) const {
  for (const auto& [key, e] : cache_)
    if (&e.kernel == &result) return &e.counters;
  return nullptr;
}

void AloneRunCache::put(const GpuConfig& cfg, const MixEntry& entry, const std::string& kind,
                        const SchedOptions& shared_opt, const RunOptions& run_opt, uint64_t window_cycles,
                        uint64_t window_start, const KernelResult& result, const CounterGroup& counters) {
  const SchedOptions opt = alone_sched_options(shared_opt);
  const RunOptions run = alone_run_options(run_opt, opt);
  cache_.insert_or_assign(alone_key(cfg, entry, kind, opt, run, window_cycles, window_start), Entry{result, counters});
}

bool same_as_alone_run(const Mix& mix, const SchedOptions& o) {
  if (mix.kernels.size() != 1 || !mix.processes.empty()) return false;
  const MixEntry& e = mix.kernels[0];
  return e.arrival_cycle == 0 && e.arrival_pct == 0 && e.context == 0 && o.policy == kAlonePolicy && o.cta_limit == 0 &&
         o.fixed_ctas.empty() && o.srtf_known_cycles.empty() && !o.sbm_fixed_reg && o.sm_kernels.empty() &&
         o.sm_sharing == SmSharing::kShared && o.wave_file.empty();
}

MixRun run_mix_with_alone(const GpuConfig& cfg, const Mix& mix, const std::string& scheduler_kind,
                          const SchedOptions& sched_opt, const RunOptions& run_opt, AloneRunCache& cache,
                          const CycleHook& hook) {
  if (mix.kernels.empty()) throw InputError(mix.file.empty() ? mix.name : mix.file, "kernels", "the mix is empty");
  if (!mix.processes.empty()) return run_process_mix(cfg, mix, scheduler_kind, sched_opt, run_opt, cache, hook);
  MixRun out;
  const uint32_t n = static_cast<uint32_t>(mix.kernels.size());
  const bool once = same_as_alone_run(mix, sched_opt);
  for (uint32_t i = 0; i < n && !once; ++i) {
    const RunPhase phase{false, i + 1, n, mix.kernels[i].kernel};
    const KernelResult& alone = cache.get(cfg, mix.kernels[i], scheduler_kind, sched_opt, run_opt, hook, phase,
                                          mix.window_cycles, mix.window_start);
    out.alone.push_back(alone);
    out.alone_counters.push_back(*cache.counters_of(alone));
  }

  // arrival_pct (Pai Sec. 6.2.5): now that kernels[0]'s alone turnaround is known. `resolved`
  // outlives the shared run (Gpu keeps pointers into its entries).
  Mix resolved = mix;
  for (MixEntry& e : resolved.kernels)
    if (e.arrival_pct != 0) {
      e.arrival_cycle = mix.kernels[0].arrival_cycle + out.alone[0].cycles() * e.arrival_pct / 100;
      e.arrival_pct = 0;
    }

  RunOptions shared_run = run_opt;
  shared_run.sched = sched_opt;
  const RunPhase shared_phase{true, 0, n, {}};
  if (hook) {
    auto inner = run_opt.on_cycle;
    shared_run.on_cycle = [inner, &hook, &shared_phase](uint64_t c) {
      if (inner) inner(c);
      hook(shared_phase, c + 1);
    };
  }
  auto sched = make_scheduler(scheduler_kind, sched_opt);
  Gpu gpu(cfg, resolved, *sched, shared_run);
  out.shared = gpu.run();
  if (out.shared.kernels.size() != mix.kernels.size())
    throw InvariantError("shared run reported " + std::to_string(out.shared.kernels.size()) + " kernels for a mix of " +
                         std::to_string(mix.kernels.size()));
  if (once) {
    const CounterGroup counters = summarize_counters(cfg, out.shared, &mix).kernels[0].all;
    cache.put(cfg, mix.kernels[0], scheduler_kind, sched_opt, run_opt, mix.window_cycles, mix.window_start,
              out.shared.kernels[0], counters);
    out.alone.push_back(out.shared.kernels[0]);
    out.alone_counters.push_back(counters);
  }

  std::vector<KernelRuntimes> rt;
  for (size_t i = 0; i < mix.kernels.size(); ++i) {
    const KernelResult& s = out.shared.kernels[i];
    KernelRuntimes k = runtimes_of(mix, i, s);
    if (mix.window_cycles != 0) {
      k.instructions_alone = out.alone[i].instructions;
      k.launches = s.launches;
      k.completions = s.completions;
    } else {
      k.cycles_alone = out.alone[i].cycles();
      k.cycles_shared = s.cycles();
    }
    rt.push_back(std::move(k));
  }
  out.metrics = mix.window_cycles != 0 ? compute_window_metrics(rt, mix.window_cycles)
                                       : compute_mix_metrics(rt, out.shared.cycles);
  out.metrics.window_start = mix.window_start;
  return out;
}

}  // namespace gs
