// gsched memory system: DRAM timing conversion (see dram_timing.hpp).
#include "gpu/mem/dram_timing.hpp"

#include "common/error.hpp"
#include "config/gpu_config.hpp"

namespace gs::mem {

uint32_t DramTiming::to_core(uint32_t dram_cycles, uint32_t core_mhz, uint32_t dram_mhz) {
  const uint64_t num = uint64_t(dram_cycles) * core_mhz;
  return uint32_t((num + dram_mhz - 1) / dram_mhz);
}

DramTiming DramTiming::from_config(const GpuConfig& cfg) {
  if (cfg.core_clock_mhz == 0 || cfg.dram_clock_mhz == 0)
    throw InputError("memory system: core_clock_mhz and dram_clock_mhz must be > 0");
  if (cfg.dram_bus_bytes == 0 || cfg.dram_transfers_per_clock == 0)
    throw InputError("memory system: dram_bus_bytes and dram_transfers_per_clock must be > 0");
  const uint32_t c = cfg.core_clock_mhz, d = cfg.dram_clock_mhz;
  DramTiming t;
  t.tCL = to_core(cfg.tCL, c, d);
  t.tWL = t.tCL;
  t.tRP = to_core(cfg.tRP, c, d);
  t.tRC = to_core(cfg.tRC, c, d);
  t.tRAS = to_core(cfg.tRAS, c, d);
  t.tRCD = to_core(cfg.tRCD, c, d);
  t.tRRD = to_core(cfg.tRRD, c, d);
  t.tCCD = to_core(cfg.tCCD, c, d);
  t.tWR = to_core(cfg.tWR, c, d);
  const uint64_t num = uint64_t(cfg.line_bytes) * kFixedOne * c;
  const uint64_t den = uint64_t(cfg.dram_bus_bytes) * cfg.dram_transfers_per_clock * d;
  t.burst_fp = (num + den - 1) / den;
  t.burst = uint32_t((t.burst_fp + kFixedOne - 1) / kFixedOne);
  return t;
}

}  // namespace gs::mem
