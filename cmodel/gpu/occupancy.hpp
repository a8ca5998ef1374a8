// gsched: per-CTA resource rounding, SM occupancy and context-switch accounting.
//
// Contract:
//   * cta_resources() (declared in gpu/gpu.hpp, defined in occupancy.cpp) rounds a kernel's
//     per-CTA needs to the allocation units of sm_types[0] (the config loader guarantees every
//     SM type shares them): warps = ceil(threads / warp_size); registers are allocated per warp
//     in multiples of reg_alloc_unit (reg_alloc_scope kWarp), or per CTA as threads x registers
//     rounded to reg_alloc_unit (kCta, Tanasic Table 1); shared memory per CTA in multiples of
//     shmem_alloc_unit.
//   * shared_mem_carveout() picks the SM's shared-memory size for a CTA needing `shmem` bytes:
//     the default (first) entry of shared_mem_options, or the first bigger option that holds
//     the CTA (Tanasic ISCA'14, Table 2 footnote); shared_mem_bytes when there are no options.
//   * unified_l1_carveout() (l1_carveout "dynamic"): the smallest entry of shared_mem_options
//     that holds the SM's resident CTAs' shared memory; unified_l1_bytes() what it leaves to
//     the L1 (l1_size_bytes minus the carve-out; the L1 rounds it down to whole ways).
//   * occupancy() gives the most CTAs of one kernel an SM of a type can hold, the resource
//     that limits it, and Tanasic's context-switch figures (Table 1, Sec. 3.2): storage share
//     (registers at 4 B + shared memory of the resident CTAs over the SM's register file plus
//     its largest shared memory), context bytes per SM and the time to save them at the SM's
//     share of peak DRAM bandwidth. A kernel one CTA of which cannot fit throws InputError.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "config/gpu_config.hpp"
#include "gpu/gpu.hpp"
#include "workload/kernel_desc.hpp"

namespace gs {

/// Bytes per architectural register (32-bit registers).
constexpr uint32_t kRegisterBytes = 4;

struct Occupancy {
  uint32_t max_ctas = 0;           // resident CTAs per SM when the kernel runs alone
  std::string limiter;             // "threads", "warps", "registers", "shared memory", "CTA slots"
  CtaResources per_cta;            // after allocation rounding
  uint32_t shared_mem_config = 0;  // shared-memory carve-out the SM is configured with (bytes)
  uint64_t sm_storage_bytes = 0;   // register file bytes + largest shared-memory size
  uint64_t context_bytes = 0;      // registers (4 B each) + shared memory of max_ctas CTAs
  double storage_share = 0.0;      // context_bytes / sm_storage_bytes (0..1)
  double save_time_us = 0.0;       // context_bytes at peak DRAM bandwidth / num_sms
};

/// Rounds `v` up to a multiple of `unit` (unit 0 or 1: unchanged).
uint64_t round_up(uint64_t v, uint32_t unit);

/// Shared-memory size the SM is configured with when a CTA needs `shmem` bytes: the default
/// (first) option if it fits, else the first bigger option; if none fits, the largest
/// (the caller's capacity check then fails). shared_mem_bytes when the type has no options.
uint32_t shared_mem_carveout(const SmTypeConfig& t, uint32_t shmem);
uint32_t unified_l1_carveout(const SmTypeConfig& t, uint32_t resident_shmem);
uint32_t unified_l1_bytes(const SmTypeConfig& t, uint32_t resident_shmem);

/// Largest shared memory an SM of this type can be configured with.
uint32_t max_shared_mem(const SmTypeConfig& t);

/// On-chip storage that a context switch may have to move: register file + largest shared memory.
uint64_t sm_storage_bytes(const SmTypeConfig& t);

/// Bytes of one CTA's context: its registers (4 B each) and its shared memory.
uint64_t context_bytes(const CtaResources& r);

/// Occupancy and context-switch accounting of kernel `k` alone on an SM of type `t`.
/// Throws InputError naming the kernel, the resource, need and capacity if one CTA cannot fit.
Occupancy occupancy(const KernelDesc& k, const GpuConfig& cfg, const SmTypeConfig& t);

/// Whether ctas[i] CTAs of kernel i (per-CTA needs res[i], after allocation rounding) fit one
/// SM of every type of `cfg` together: threads, warps, registers, shared memory (the type's
/// shared_mem_bytes) and CTA slots. The Oracle's candidates and MPMax's caps use it.
bool ctas_fit_together(const GpuConfig& cfg, const std::vector<CtaResources>& res, const std::vector<uint32_t>& ctas);

}  // namespace gs
