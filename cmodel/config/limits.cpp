// gsched: limits of configs, kernels and mixes (contract in limits.hpp).
#include "config/limits.hpp"

#include <algorithm>
#include <vector>

#include "common/error.hpp"
#include "config/gpu_config.hpp"
#include "gpu/gpu.hpp"
#include "gpu/occupancy.hpp"
#include "sched/golden/golden_scheduler.hpp"
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

// The checks below run for every launch: `where` is a callable that builds the message's
// location only when a check fails, so a passing check allocates nothing.

/// `value` must fit the `width`-bit field `field` of the scheduler's records.
template <class Where>
void require_width(const Where& where, const char* field, uint64_t value, uint32_t width) {
  if (value > golden::width_mask(width))
    throw InputError(where(), field,
                     std::to_string(value) + " exceeds the scheduler's " + std::to_string(width) + "-bit field (max " +
                         std::to_string(golden::width_mask(width)) + ", rtl/spec/gs_spec.toml)");
}

/// `value` must lie in [lo, hi]; `why` names the limit's source.
template <class Where>
void require_range(const Where& where, const char* field, uint64_t value, uint64_t lo, uint64_t hi, const char* why) {
  if (value < lo || value > hi)
    throw InputError(where(), field,
                     std::to_string(value) + " is outside " + std::to_string(lo) + ".." + std::to_string(hi) + " (" +
                         why + ")");
}

}  // namespace

void check_scheduler_config(const GpuConfig& cfg, const SchedOptions& opt) {
  const auto where = [&] { return "config " + (cfg.name.empty() ? cfg.file : cfg.name); };
  const char* kCtaSlots = "MaxCtasPerSm in rtl/spec/gs_spec.toml: the SMST's CTA slots per SM";
  require_range(where, "number of SMs", cfg.num_sms(), 1, kMaxSms, kMaxSmsReason);
  require_range(where, "max_active_kernels", cfg.max_active_kernels, 1, kMaxActiveKernels, kMaskReason);
  require_range(where, "max_contexts", cfg.max_contexts, 1, kMaxContexts, kMaskReason);
  require_range([] { return std::string("scheduler options"); }, "cta_limit", opt.cta_limit, 0, kMaxCtasPerSm,
                kCtaSlots);
  // the golden-only options: each goes with the policies whose registry entry `takes` it
  const spec::PolicyInfo& policy = spec::kPolicies[static_cast<uint8_t>(parse_policy(opt.policy))];
  const struct {
    const char* name;
    bool set;
    const char* what;
  } taken[] = {{"fixed_ctas", !opt.fixed_ctas.empty(), "the Oracle's per-kernel CTA caps"},
               {"srtf_known_cycles", !opt.srtf_known_cycles.empty(), "zero-sampling SRTF's given runtimes"},
               {"sbm_fixed_reg", opt.sbm_fixed_reg.has_value(), "a given SBM_REG, EWM's"}};
  for (const auto& o : taken) {
    if (!o.set || spec::policy_takes(policy, o.name)) continue;
    std::string takers;
    for (const auto& q : spec::kPolicies)
      if (spec::policy_takes(q, o.name)) takers += (takers.empty() ? "" : " or ") + std::string(q.name);
    throw InputError("scheduler options: " + std::string(o.name) + " (" + o.what + ") go with policy " + takers +
                     ", not " + opt.policy);
  }
  for (size_t i = 0; i < opt.fixed_ctas.size(); ++i) {
    const std::string field = "fixed_ctas[" + std::to_string(i) + "]";
    require_range([] { return std::string("scheduler options"); }, field.c_str(), opt.fixed_ctas[i], 1, kMaxCtasPerSm,
                  kCtaSlots);
  }
  if (!opt.sm_kernels.empty() && opt.sm_kernels.size() != cfg.num_sms())
    throw InputError("scheduler options: sm_kernels (a static SM mapping) has " +
                     std::to_string(opt.sm_kernels.size()) + " entries; config " +
                     (cfg.name.empty() ? cfg.file : cfg.name) + " has " + std::to_string(cfg.num_sms()) + " SMs");
  if (policy.sm_types && cfg.base_sm.ctas == 0) {
    // a policy that maps by SM type weighs the big SMs against a conventional one (the registry's
    // base_sm setting); without big SMs it keeps its split anyway
    for (uint32_t s = 0; s < cfg.num_sms(); ++s)
      if (cfg.sm_is_big(s))
        throw InputError(cfg.file.empty() ? cfg.name : cfg.file,
                         std::string(spec::kBaseSmSection) + "." + spec::kBaseSmSetting,
                         "policy " + std::string(policy.name) +
                             " weighs the big SMs against a conventional GPU's SM: name that GPU's config");
  }
  if (opt.sm_sharing == SmSharing::kExclusive) {
    if (!policy.sm_sharing) {
      std::string takers;
      for (const auto& q : spec::kPolicies)
        if (q.sm_sharing) takers += (takers.empty() ? "" : ", ") + std::string(q.name);
      throw InputError("--sm-sharing exclusive: policy " + std::string(policy.name) +
                       " decides how kernels share SMs itself (" + policy.doc + "); exclusive applies to " + takers);
    }
  }
  for (uint32_t s = 0; s < cfg.num_sms(); ++s) {
    const SmTypeConfig& t = cfg.sm(s);
    const auto sm_where = [&] { return where() + " SM " + std::to_string(s) + " (" + t.name + ")"; };
    require_width(sm_where, "max_threads", t.max_threads, spec::ThreadW);
    require_width(sm_where, "max_warps", t.max_warps, spec::WarpW);
    require_width(sm_where, "registers", t.registers, spec::RegW);
    require_width(sm_where, "shared_mem_bytes", t.shared_mem_bytes, spec::ShmemW);
    require_range(sm_where, "max_ctas", t.max_ctas, 0, kMaxCtasPerSm, kCtaSlots);
    require_width(sm_where, "warp_schedulers", t.warp_schedulers, spec::WarpSchedW);
  }
}

void check_launch(const LaunchCmd& l, uint32_t contexts) {
  const auto where = [&] { return "launch of kernel " + std::to_string(l.kernel); };
  // all ones is the scheduler's "no kernel": the last usable id is one below
  require_range(where, "kernel", l.kernel, 0, kMaxMixKernels - 1,
                "kernel ids are KernelIdW bits of rtl/spec/gs_spec.toml, all ones means 'no kernel'");
  require_range(where, "context", l.ctx, 0, contexts - 1, "the config's max_contexts command buffers");
  require_range(where, "grid", l.grid, 1, kMaxGridCtas, kFieldReason);
  require_width(where, "priority", l.prio, spec::PrioW);
  // a budget is a TokenW-bit two's complement count that starts non-negative
  require_width(where, "tokens", l.tokens, spec::TokenW - 1);
  require_width(where, "threads per CTA", l.threads, spec::ThreadW);
  require_width(where, "warps per CTA", l.warps, spec::WarpW);
  require_width(where, "registers per CTA", l.regs, spec::RegW);
  require_width(where, "shared memory per CTA", l.shmem, spec::ShmemW);
}

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
    std::string at = "kernels[" + std::to_string(i) + "]", ctx_field = at + ".context";
    if (const int p = mix.process_of(static_cast<uint32_t>(i)); p >= 0) {  // a process mix names its fields
      const auto& steps = mix.processes[static_cast<size_t>(p)].steps;
      const auto s = std::find(steps.begin(), steps.end(), static_cast<uint32_t>(i)) - steps.begin();
      at = "processes[" + std::to_string(p) + "].kernels[" + std::to_string(s) + "]";
      ctx_field = "processes[" + std::to_string(p) + "].context";
    }
    if (e.context >= cfg.max_contexts)
      throw InputError(file, ctx_field,
                       "context " + std::to_string(e.context) + " but " + on +
                           " has max_contexts = " + std::to_string(cfg.max_contexts) + " command buffers (0.." +
                           std::to_string(cfg.max_contexts - 1) +
                           "); an entry without 'context' takes its own index, so give launches beyond " +
                           std::to_string(cfg.max_contexts) +
                           " an explicit shared context, or raise max_contexts "
                           "in the config (at most " +
                           std::to_string(kMaxContexts) + ")");
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
