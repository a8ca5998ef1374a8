// gsched tests: a tiny driver for the GoldenScheduler in unit tests (no GPU model).
//
// Builds a uniform GpuConfig in code, presents launches and SM events one per cycle, and
// records every decision. Tests apply the decisions themselves (e.g. finish CTAs) to keep
// each hand-worked case explicit.
#pragma once
#include <deque>
#include <vector>

#include "config/gpu_config.hpp"
#include "sched/golden/golden_scheduler.hpp"

namespace gs::test {

inline GpuConfig small_gpu(uint32_t sms, uint32_t threads = 1536, uint32_t regs = 32768, uint32_t shmem = 48 * 1024,
                           uint32_t ctas = 8, uint32_t slots = 8) {
  GpuConfig cfg;
  cfg.name = "unit-test";
  SmTypeConfig t;
  t.count = sms;
  t.max_threads = threads;
  t.max_warps = threads / 32;
  t.registers = regs;
  t.shared_mem_bytes = shmem;
  t.max_ctas = ctas;
  cfg.sm_types = {t};
  cfg.sm_type_of.assign(sms, 0);
  cfg.max_active_kernels = slots;
  cfg.max_contexts = 8;
  return cfg;
}

inline LaunchCmd launch_cmd(KernelId id, uint32_t grid, uint16_t threads, uint32_t regs, uint32_t shmem,
                            uint16_t prio = 0, uint16_t tokens = 0, uint8_t ctx = 0) {
  LaunchCmd l;
  l.valid = true;
  l.kernel = id;
  l.ctx = ctx;
  l.prio = prio;
  l.tokens = tokens;
  l.threads = threads;
  l.warps = static_cast<uint16_t>((threads + 31) / 32);
  l.regs = regs;
  l.shmem = shmem;
  l.grid = grid;
  return l;
}

struct Harness {
  GpuConfig cfg;
  SchedOptions opt;
  GoldenScheduler g;
  uint64_t cycle = 0;
  std::deque<LaunchCmd> launches;
  std::deque<SmEvent> events;
  std::vector<DispatchCmd> dispatches;
  std::vector<PreemptCmd> preempts;
  std::vector<QuotaCmd> quotas;
  bool ready = true;

  Harness(const GpuConfig& c, const std::string& policy, PreemptMode mode = PreemptMode::kDrain,
          SmSharing sharing = SmSharing::kShared)
      : cfg(c), opt(make_opt(policy, mode, sharing)), g(opt) {
    g.reset(cfg, opt);
  }
  static SchedOptions make_opt(const std::string& policy, PreemptMode mode, SmSharing sharing) {
    SchedOptions o;
    o.policy = policy;
    o.preempt = mode;
    o.sm_sharing = sharing;
    return o;
  }
  /// One cycle: at most one launch (when ready) and one queued event.
  SchedOutputs step() {
    SchedInputs in;
    in.cycle = cycle++;
    if (ready && !launches.empty()) {
      in.launch = launches.front();
      launches.pop_front();
    }
    if (!events.empty()) {
      in.event = events.front();
      events.pop_front();
    }
    SchedOutputs out = g.step(in);
    ready = out.launch_ready;
    if (out.dispatch.valid) dispatches.push_back(out.dispatch);
    if (out.preempt.valid) preempts.push_back(out.preempt);
    if (out.quota.valid) quotas.push_back(out.quota);
    return out;
  }
  void run(uint32_t cycles) {
    for (uint32_t i = 0; i < cycles; ++i) step();
  }
  void finish(const DispatchCmd& d) { events.push_back(SmEvent{SmEventType::kCtaFinished, d.sm, d.kernel, d.cta}); }
  uint32_t count_on(KernelId k, SmId sm) const {
    uint32_t n = 0;
    for (const auto& d : dispatches)
      if (d.kernel == k && d.sm == sm) ++n;
    return n;
  }
};

}  // namespace gs::test
