// gsched cosim: seeded random workload mixes (see mix_generator.hpp).
#include "cosim/mix_generator.hpp"

#include <algorithm>
#include <sstream>

#include "common/error.hpp"
#include "common/rng.hpp"
#include "gpu/gpu.hpp"

namespace gs::cosim {
namespace {

bool fits_every_sm_type(const KernelDesc& k, const GpuConfig& cfg) {
  const CtaResources r = cta_resources(k, cfg);
  for (const SmTypeConfig& t : cfg.sm_types) {
    uint32_t shmem = t.shared_mem_bytes;
    for (uint32_t opt : t.shared_mem_options) shmem = std::max(shmem, opt);
    if (r.threads > t.max_threads || r.warps > t.max_warps || r.regs > t.registers || r.shmem > shmem ||
        t.max_ctas == 0)
      return false;
  }
  return true;
}

}  // namespace

std::vector<const KernelDesc*> fitting_kernels(const std::vector<KernelDesc>& lib, const GpuConfig& cfg) {
  std::vector<const KernelDesc*> out;
  for (const KernelDesc& k : lib)
    if (fits_every_sm_type(k, cfg)) out.push_back(&k);
  return out;
}

Mix random_mix(const std::vector<KernelDesc>& lib, const GpuConfig& cfg, uint64_t seed, const MixGenOptions& opt) {
  const auto pool = fitting_kernels(lib, cfg);
  if (pool.empty()) throw InputError("no kernel of the library fits an SM of config '" + cfg.name + "'");
  Rng rng(Rng::mix(seed, 0xC051AULL));
  Mix mix;
  mix.name = "random-" + std::to_string(seed);
  mix.file = "(generated: cosim::random_mix seed " + std::to_string(seed) + ")";
  const uint32_t span = opt.max_kernels >= opt.min_kernels ? opt.max_kernels - opt.min_kernels + 1 : 1;
  const uint32_t n = opt.min_kernels + rng.below(span);
  for (uint32_t i = 0; i < n; ++i) {
    const KernelDesc& d = *pool[rng.below(static_cast<uint32_t>(pool.size()))];
    MixEntry e;
    e.kernel = d.name;
    e.desc = d;
    e.arrival_cycle = rng.below(static_cast<uint32_t>(std::min<uint64_t>(opt.max_arrival, 0xFFFFFFFEu)) + 1);
    e.context = rng.below(std::max(1u, opt.contexts));
    e.priority = rng.below(opt.max_priority + 1);
    e.tokens = rng.below(opt.max_tokens + 1);
    const uint32_t grid_cap = std::max(1u, std::min(d.grid_ctas, opt.max_grid));
    e.grid_ctas = 1 + rng.below(grid_cap);
    if (opt.max_insts_per_warp > 0 && e.desc.insts_per_warp > opt.max_insts_per_warp)
      e.desc.insts_per_warp = opt.max_insts_per_warp;
    mix.kernels.push_back(std::move(e));
  }
  return mix;
}

std::string describe_mix(const Mix& mix) {
  std::ostringstream os;
  for (std::size_t i = 0; i < mix.kernels.size(); ++i) {
    const MixEntry& e = mix.kernels[i];
    os << "  k" << i << " " << e.kernel << " arrival=" << e.arrival_cycle << " ctx=" << e.context
       << " prio=" << e.priority << " tokens=" << e.tokens << " grid=" << e.grid_ctas
       << " insts/warp=" << e.desc.insts_per_warp << "\n";
  }
  return os.str();
}

}  // namespace gs::cosim
