// gsched: limits of configs, kernels and mixes (contract in limits.hpp).
#include "config/limits.hpp"

#include <algorithm>
#include <vector>

#include "common/error.hpp"
#include "config/gpu_config.hpp"
#include "gpu/gpu.hpp"
#include "gpu/occupancy.hpp"
#include "workload/kernel_desc.hpp"

namespace gs::limits {

namespace {

// Per cache line the model keeps a tag, an LRU stamp, a dirty byte and a meta word
// (gpu/mem/set_assoc_cache.hpp); per MSHR and per queued request a few dozen bytes.
constexpr uint64_t kBytesPerLine = 8 + 8 + 1 + 4;
constexpr uint64_t kBytesPerMshr = 64;
constexpr uint64_t kBytesPerQueueEntry = 64;
constexpr uint64_t kBytesPerBank = 64;

struct Part {
  const char* field;
  uint64_t bytes;
};

std::vector<Part> parts(const GpuConfig& cfg) {
  uint64_t l1 = 0, l1_mshr = 0;
  for (const SmTypeConfig& t : cfg.sm_types) {
    l1 += uint64_t(t.count) * (t.l1_size_bytes / std::max(1u, cfg.line_bytes)) * kBytesPerLine;
    l1_mshr += uint64_t(t.count) * t.l1_mshrs * kBytesPerMshr;
  }
  const uint64_t ch = cfg.dram_channels;
  return {{"sm_types[].l1_size_bytes", l1},
          {"sm_types[].l1_mshrs", l1_mshr},
          {"l2_slice_bytes", ch * (cfg.l2_slice_bytes / std::max(1u, cfg.line_bytes)) * kBytesPerLine},
          {"l2_mshrs", ch * cfg.l2_mshrs * kBytesPerMshr},
          {"dram_queue_depth", ch * cfg.dram_queue_depth * kBytesPerQueueEntry},
          {"dram_banks", ch * cfg.dram_banks * kBytesPerBank}};
}

std::string mib(uint64_t b) { return std::to_string((b + (1u << 20) - 1) >> 20) + " MiB"; }

}  // namespace

uint64_t model_bytes(const GpuConfig& cfg) {
  uint64_t sum = 0;
  for (const Part& p : parts(cfg)) sum += p.bytes;
  return sum;
}

std::string largest_memory_field(const GpuConfig& cfg) {
  const auto ps = parts(cfg);
  return std::max_element(ps.begin(), ps.end(), [](const Part& a, const Part& b) { return a.bytes < b.bytes; })->field;
}

std::string describe_memory(const GpuConfig& cfg) {
  std::string out;
  for (const Part& p : parts(cfg)) {
    if (p.bytes < (1u << 20)) continue;
    out += (out.empty() ? "" : ", ") + std::string(p.field) + " " + mib(p.bytes);
  }
  const auto ps = parts(cfg);
  out += "; L2 = l2_slice_bytes " + std::to_string(cfg.l2_slice_bytes) + " x dram_channels " +
         std::to_string(cfg.dram_channels);
  return out;
}

void check_mix_fits(const GpuConfig& cfg, const Mix& mix) {
  const std::string file = mix.file.empty() ? mix.name : mix.file;
  const std::string on = "config '" + cfg.name + "' (" + cfg.file + ")";
  if (mix.kernels.size() > kMaxMixKernels)
    throw InputError(file, "kernels",
                     std::to_string(mix.kernels.size()) + " launches; a mix may hold at most " +
                         std::to_string(kMaxMixKernels) + " (kernel ids are " + std::to_string(spec::KernelIdW) +
                         " bits, all ones means 'no kernel')");
  for (size_t i = 0; i < mix.kernels.size(); ++i) {
    const MixEntry& e = mix.kernels[i];
    const std::string at = "kernels[" + std::to_string(i) + "]";
    if (e.context >= cfg.max_contexts)
      throw InputError(file, at + ".context",
                       "context " + std::to_string(e.context) + " but " + on + " has max_contexts = " +
                           std::to_string(cfg.max_contexts) + " command buffers (0.." +
                           std::to_string(cfg.max_contexts - 1) +
                           "); an entry without 'context' takes its own index, so give launches beyond " +
                           std::to_string(cfg.max_contexts) + " an explicit shared context, or raise max_contexts "
                           "in the config (at most " + std::to_string(kMaxContexts) + ")");
    const CtaResources r = cta_resources(e.desc, cfg);
    const std::string k = "kernel '" + e.kernel + "'";
    auto width = [&](const char* what, uint64_t v, uint32_t max) {
      if (v > max)
        throw InputError(file, at + ".kernel",
                         k + ": " + what + " per CTA = " + std::to_string(v) + " on " + on + " exceeds " +
                             std::to_string(max) + " (" + kFieldReason + ")");
    };
    width("threads", r.threads, kMaxSmThreads);
    width("warps", r.warps, kMaxSmWarps);
    width("registers (after allocation rounding)", r.regs, kMaxSmRegisters);
    width("shared memory bytes (after rounding)", r.shmem, kMaxSmSharedMem);
    const uint32_t grid = e.grid_ctas ? e.grid_ctas : e.desc.grid_ctas;
    if (grid > kMaxGridCtas)
      throw InputError(file, at + (e.grid_ctas ? ".grid_ctas" : ".kernel"),
                       k + ": grid of " + std::to_string(grid) + " CTAs exceeds " + std::to_string(kMaxGridCtas) +
                           " (" + kFieldReason + ")");
    std::string why;
    bool fits = false;
    for (const SmTypeConfig& t : cfg.sm_types) {
      try {
        (void)occupancy(e.desc, cfg, t);
        fits = true;
        break;
      } catch (const InputError& err) {
        if (why.empty()) why = err.what();
      }
    }
    if (!fits) throw InputError(file, at + ".kernel", "does not fit any SM of " + on + ": " + why);
  }
}

}  // namespace gs::limits
