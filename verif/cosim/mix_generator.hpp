// gsched cosim: seeded random workload mixes for the co-simulation regression.
//
// Contract: random_mix(lib, cfg, seed, opt) is a pure function of its arguments (gs::Rng, no
// std:: distributions): 2..8 kernels drawn from the shipped library (only kernels one CTA of
// which fits an SM of `cfg`), random arrival cycles, contexts, priorities and DSS token
// budgets within the RTL's field widths, and grids cut to at most opt.max_grid CTAs. With
// opt.max_insts_per_warp > 0 each kernel's instruction stream is shortened too, so a run
// exercises many scheduling decisions in few simulated cycles.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "config/gpu_config.hpp"
#include "workload/kernel_desc.hpp"

namespace gs::cosim {

struct MixGenOptions {
  uint32_t min_kernels = 2;
  uint32_t max_kernels = 8;
  uint32_t max_grid = 64;           // grid of each kernel in [1, min(desc grid, max_grid)]
  uint32_t max_insts_per_warp = 0;  // 0 = keep the descriptor's length
  uint64_t max_arrival = 20000;     // arrivals uniform in [0, max_arrival]
  uint32_t contexts = 8;            // contexts 0..contexts-1
  uint32_t max_priority = 15;       // NPQ/PPQ priorities 0..max_priority
  uint32_t max_tokens = 64;         // DSS budgets 0..max_tokens (0 = policy default)
};

/// Kernels of `lib` one CTA of which fits every SM type of `cfg`, in library order.
std::vector<const KernelDesc*> fitting_kernels(const std::vector<KernelDesc>& lib, const GpuConfig& cfg);

/// The seeded random mix (see the header comment). Throws InputError if no kernel fits.
Mix random_mix(const std::vector<KernelDesc>& lib, const GpuConfig& cfg, uint64_t seed, const MixGenOptions& opt);

/// One line per kernel: "name arrival=.. ctx=.. prio=.. tokens=.. grid=.. insts=.." (reproduction aid).
std::string describe_mix(const Mix& mix);

}  // namespace gs::cosim
