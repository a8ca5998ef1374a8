// gsched: end-of-run counter summary (contract in counters_summary.hpp).
#include "metrics/counters_summary.hpp"

#include "common/error.hpp"

namespace gs {

void add_counters(CounterGroup& g, const KernelSmCounters& c) {
  auto stall = [&c](StallReason r) { return c.stall_cycles[static_cast<int>(r)]; };
  g.instructions += c.insts_issued;
  g.active_sm_cycles += c.active_cycles;
  g.l1_accesses += c.l1_accesses;
  g.l1_hits += c.l1_accesses - c.l1_misses;
  g.l2_accesses += c.l2_accesses;
  g.l2_hits += c.l2_accesses - c.l2_misses;
  g.l1_bypassed += c.l1_bypassed;
  g.l2_bypassed += c.l2_bypassed;
  g.dram_bytes += c.dram_bytes;
  g.stalls.memory += stall(StallReason::kMemLatency) + stall(StallReason::kMshrFull);
  g.stalls.dependency += stall(StallReason::kRaw);
  g.stalls.functional_unit += stall(StallReason::kExecBusy);
  g.stalls.idle += stall(StallReason::kIdle);
  g.ctas_started += c.ctas_started;
  g.ctas_finished += c.ctas_finished;
  g.ctas_preempted_drain += c.ctas_drained;
  g.ctas_preempted_switch += c.ctas_switched;
  g.switch_fallbacks += c.switch_fallbacks;
  g.context_save_bytes += c.ctx_save_bytes;
  g.context_restore_bytes += c.ctx_restore_bytes;
  g.context_save_cycles += c.ctx_save_cycles;
  g.context_restore_cycles += c.ctx_restore_cycles;
}

CountersSummary summarize_counters(const GpuConfig& cfg, const RunResult& run, const Mix* mix) {
  const CounterBank& bank = run.counters;
  if (bank.sms() != cfg.num_sms() || bank.kernels() != run.kernels.size())
    throw InvariantError("counter summary: the run counted " + std::to_string(bank.sms()) + " SMs x " +
                         std::to_string(bank.kernels()) + " kernels, the config has " + std::to_string(cfg.num_sms()) +
                         " SMs and the run " + std::to_string(run.kernels.size()) + " kernels");
  const size_t types = cfg.sm_types.size();
  if (mix && mix->kernels.size() != run.kernels.size())
    throw InvariantError("counter summary: a mix of " + std::to_string(mix->kernels.size()) + " kernels for a run of " +
                         std::to_string(run.kernels.size()));
  CountersSummary s;
  s.thread_counts = mix != nullptr;
  s.gpu.cycles = run.cycles;
  s.gpu.sms = cfg.num_sms();
  for (uint32_t k = 0; k < bank.kernels(); ++k) {
    KernelCounters kc;
    kc.name = run.kernels[k].name;
    kc.all.sms = cfg.num_sms();
    // A kernel's window is its turnaround; under the fixed-window method, and for the relaunched
    // steps of a process mix, the whole run (counters span it).
    kc.all.cycles = run.window_cycles != 0 || !run.processes.empty() ? run.cycles : run.kernels[k].cycles();
    kc.by_sm_type.assign(types, CounterGroup{});
    for (size_t t = 0; t < types; ++t) {
      kc.sm_type_names.push_back(cfg.sm_types[t].name);
      kc.by_sm_type[t].cycles = kc.all.cycles;
    }
    // Every warp of a CTA runs the same instructions, so a warp instruction carries
    // threads_per_cta / warps_per_cta threads on average (the last warp may be partial).
    uint64_t tpc = 0, wpc = 1;
    if (mix) {
      tpc = mix->kernels[k].desc.threads_per_cta;
      wpc = mix->kernels[k].desc.warps_per_cta(cfg.warp_size);
    }
    for (uint32_t sm = 0; sm < bank.sms(); ++sm) {
      const KernelSmCounters& c = bank.at(sm, k);
      CounterGroup& g = kc.by_sm_type[cfg.sm_type_of[sm]];
      ++g.sms;
      add_counters(g, c);
      add_counters(kc.all, c);
      add_counters(s.gpu, c);
      const uint64_t threads = c.insts_issued * tpc / wpc;
      g.thread_instructions += threads;
      kc.all.thread_instructions += threads;
      s.gpu.thread_instructions += threads;
    }
    s.kernels.push_back(std::move(kc));
  }

  DramSummary& d = s.dram;
  d.channels = static_cast<uint32_t>(run.dram.size());
  d.line_bytes = cfg.line_bytes;
  d.peak_bytes_per_cycle = cfg.dram_peak_bytes_per_core_cycle();
  d.cycles = run.cycles;
  for (const DramChannelCounters& ch : run.dram) {
    d.reads += ch.reads;
    d.writes += ch.writes;
    d.activates += ch.activates;
    d.precharges += ch.precharges;
    d.row_hits += ch.row_hits;
    d.channel_bytes.push_back((ch.reads + ch.writes) * cfg.line_bytes);
  }
  // GPU-wide DRAM bytes are what the channels moved: the lines charged to kernels plus any
  // write still in flight when the last kernel finished.
  s.gpu.dram_bytes = d.bytes();
  return s;
}

}  // namespace gs
