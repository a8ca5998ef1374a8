// gsched: the counters a researcher checks first, summarized once at the end of a run
// (definitions: docs/metrics.md, "Counters"; formats: docs/cli.md).
//
// Input is what the model counted during the shared run: the per-SM, per-kernel CounterBank
// (gpu/counters.hpp) and the per-channel DRAM command counts (RunResult::dram). Output groups
// them per kernel and SM type (sm_types[] of the config; one group when the config has one
// type), per kernel over all SMs, over all kernels, and GPU-wide for DRAM.
//
// Like metrics.hpp, these are analysis figures in double precision computed after the
// simulation; nothing here runs per cycle or feeds a scheduling decision. A ratio whose
// denominator is zero (no accesses, no issue-less cycles) is reported as 0.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "config/gpu_config.hpp"
#include "gpu/gpu.hpp"
#include "workload/kernel_desc.hpp"

namespace gs {

/// Issue-less warp-scheduler cycles by cause (StallReason grouped as docs/metrics.md says).
struct StallBreakdown {
  uint64_t memory = 0;           // kMemLatency + kMshrFull
  uint64_t dependency = 0;       // kRaw
  uint64_t functional_unit = 0;  // kExecBusy
  uint64_t idle = 0;             // kIdle
  uint64_t total() const { return memory + dependency + functional_unit + idle; }
  /// part / total(), 0 when there was no issue-less cycle.
  double share(uint64_t part) const { return total() ? double(part) / double(total()) : 0.0; }
};

/// One group of SMs x kernels: a kernel on one SM type, a kernel on every SM, or all kernels.
struct CounterGroup {
  uint32_t sms = 0;                       // SMs in the group
  uint64_t instructions = 0;              // warp instructions issued
  uint64_t thread_instructions = 0;       // thread instructions: each warp instruction times the threads
                                          // of its warp (threads per CTA / warps per CTA: the synthetic
                                          // kernels do not diverge); 0 when the mix was not given
  uint64_t cycles = 0;                    // the IPC and bandwidth window (kernel turnaround, or the run;
                                          // a fixed-window mix: the window)
  uint64_t active_sm_cycles = 0;          // SM-cycles with a CTA of the kernel resident
  uint64_t l1_accesses = 0, l1_hits = 0;  // accesses that looked the level up; misses = accesses - hits
  uint64_t l2_accesses = 0, l2_hits = 0;
  uint64_t l1_bypassed = 0, l2_bypassed = 0;  // accesses that went around the level (cache bypass)
  uint64_t dram_bytes = 0;                    // charged to the group's SMs and kernels
  StallBreakdown stalls;
  uint64_t ctas_started = 0, ctas_finished = 0;
  uint64_t ctas_preempted_drain = 0, ctas_preempted_switch = 0;
  uint64_t switch_fallbacks = 0;  // (SM, kernel) drains in a run that asked for switch (PTBQ full)
  uint64_t context_save_bytes = 0, context_restore_bytes = 0;
  uint64_t context_save_cycles = 0, context_restore_cycles = 0;

  double ipc() const { return cycles ? double(instructions) / double(cycles) : 0.0; }  // warp IPC
  double thread_ipc() const { return cycles ? double(thread_instructions) / double(cycles) : 0.0; }
  double ipc_per_active_sm() const { return active_sm_cycles ? double(instructions) / double(active_sm_cycles) : 0.0; }
  double l1_hit_rate() const { return l1_accesses ? double(l1_hits) / double(l1_accesses) : 0.0; }
  double l2_hit_rate() const { return l2_accesses ? double(l2_hits) / double(l2_accesses) : 0.0; }
  /// dram_bytes over what the preset's peak moves in `cycles`.
  double dram_share_of_peak(double peak_bytes_per_cycle) const {
    return cycles && peak_bytes_per_cycle > 0 ? double(dram_bytes) / (double(cycles) * peak_bytes_per_cycle) : 0.0;
  }
};

/// One kernel: its figures on every SM, and per SM type in sm_types[] order.
struct KernelCounters {
  std::string name;
  CounterGroup all;
  std::vector<std::string> sm_type_names;
  std::vector<CounterGroup> by_sm_type;  // parallel to sm_type_names
};

/// GPU-wide DRAM, from the channels' command counts.
struct DramSummary {
  uint32_t channels = 0;
  uint32_t line_bytes = 0;
  double peak_bytes_per_cycle = 0;  // GpuConfig::dram_peak_bytes_per_core_cycle()
  uint64_t cycles = 0;              // the shared run
  uint64_t reads = 0, writes = 0, activates = 0, precharges = 0;
  uint64_t row_hits = 0;                // column commands that needed no activate of their own
  std::vector<uint64_t> channel_bytes;  // (reads + writes) * line_bytes per channel
  uint64_t bytes() const { return (reads + writes) * line_bytes; }
  double row_buffer_hit_rate() const { return reads + writes ? double(row_hits) / double(reads + writes) : 0.0; }
  double bandwidth_share() const {
    return cycles && peak_bytes_per_cycle > 0 ? double(bytes()) / (double(cycles) * peak_bytes_per_cycle) : 0.0;
  }
};

struct CountersSummary {
  bool thread_counts = false;           // thread_instructions known (summarize_counters got the mix)
  std::vector<KernelCounters> kernels;  // mix order
  std::vector<CounterGroup> alone;      // mix order: each kernel's alone run on every SM (empty: not known)
  CounterGroup gpu;                     // all kernels on all SMs over the whole run; dram_bytes = dram.bytes()
  DramSummary dram;
};

/// Sums one SM's counters of one kernel into `g` (StallReason grouped into StallBreakdown).
void add_counters(CounterGroup& g, const KernelSmCounters& c);
/// The summary of a finished run. `cfg` is the config it ran on (SM types and DRAM peak).
/// Throws InvariantError when the run's counters do not match the config's SM count.
/// With `mix` (the mix that ran), thread instructions are counted too (CounterGroup::thread_instructions).
CountersSummary summarize_counters(const GpuConfig& cfg, const RunResult& run, const Mix* mix = nullptr);

}  // namespace gs
