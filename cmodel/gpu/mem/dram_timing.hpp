// gsched memory system: GDDR5 timing parameters converted to core cycles.
//
// The config gives tCL, tRP, tRC, tRAS, tRCD, tRRD, tCCD, tWR in DRAM command-clock cycles
// (dram_clock_mhz), as the papers' tables do. The model runs on core cycles, so each is
// converted once, rounding up: t_core = ceil(t_dram * core_clock_mhz / dram_clock_mhz).
// Write latency (tWL) is not in the tables; the model uses tWL = tCL.
//
// The data bus is tracked in fixed point, kFixedOne units per core cycle: one line occupies it
//   burst_fp = ceil(line_bytes * kFixedOne * core_mhz / (bus_bytes * transfers_per_clock * dram_mhz))
// so back-to-back lines reach the configured peak (GpuConfig::dram_peak_bytes_per_core_cycle)
// to within one part in burst_fp, never above it.
#pragma once
#include <cstdint>

namespace gs {
struct GpuConfig;
}

namespace gs::mem {

constexpr uint64_t kFixedOne = 1024;  // fixed-point units per core cycle (data bus time)

struct DramTiming {
  uint32_t tCL = 0, tWL = 0, tRP = 0, tRC = 0, tRAS = 0, tRCD = 0, tRRD = 0, tCCD = 0, tWR = 0;
  uint64_t burst_fp = 0;  // data-bus time of one line, fixed point
  uint32_t burst = 0;     // ceil(burst_fp / kFixedOne): whole core cycles of one line

  /// Converts and validates (throws gs::InputError on zero clocks or bus width).
  static DramTiming from_config(const GpuConfig& cfg);
  /// ceil(dram_cycles * core_mhz / dram_mhz)
  static uint32_t to_core(uint32_t dram_cycles, uint32_t core_mhz, uint32_t dram_mhz);
};

}  // namespace gs::mem
