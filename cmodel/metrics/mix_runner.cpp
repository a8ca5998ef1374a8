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

}  // namespace

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
  if (mix.kernels.size() != 1) return false;
  const MixEntry& e = mix.kernels[0];
  return e.arrival_cycle == 0 && e.arrival_pct == 0 && e.context == 0 && o.policy == kAlonePolicy && o.cta_limit == 0 &&
         o.fixed_ctas.empty() && o.srtf_known_cycles.empty() && !o.sbm_fixed_reg && o.sm_kernels.empty() &&
         o.sm_sharing == SmSharing::kShared && o.wave_file.empty();
}

MixRun run_mix_with_alone(const GpuConfig& cfg, const Mix& mix, const std::string& scheduler_kind,
                          const SchedOptions& sched_opt, const RunOptions& run_opt, AloneRunCache& cache,
                          const CycleHook& hook) {
  if (mix.kernels.empty()) throw InputError(mix.file.empty() ? mix.name : mix.file, "kernels", "the mix is empty");
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
    KernelRuntimes k;
    k.name = s.name.empty() ? mix.kernels[i].kernel : s.name;
    k.arrival_cycle = s.arrival_cycle;
    k.priority = mix.kernels[i].priority;
    k.instructions = s.instructions;
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
