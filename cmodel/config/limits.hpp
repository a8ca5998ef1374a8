// gsched: the limits a config, a kernel and a mix must stay within, in one place, each with
// the reason (docs/config_schema.md "Limits", docs/workloads.md "Limits").
//
// Two kinds of limit:
//   * scheduler fields: the golden scheduler mirrors the RTL's packed records bit for bit
//     (cmodel/sched/golden/golden_types.hpp = rtl/spec/gs_spec.toml), so an SM capacity or a per-CTA
//     figure wider than its field cannot be represented; the golden model's run-time sets
//     (KSRT slots, command buffers) are 32-bit masks and its SM arrays are bounded;
//   * host memory: the model allocates its caches, MSHRs and queues up front, so a config whose
//     structures would not fit in memory is refused by size before anything is allocated.
// The loaders (config, kernel and mix files) enforce these where they read the field, so a
// violation names the file and the field. check_mix_fits() checks a mix against a config (the
// figures that depend on both: per-CTA resources after rounding, contexts) before a run.
// check_scheduler_config() and check_launch() are the scheduler's own checks, run by the
// golden scheduler (GoldenScheduler::reset(), every launch) and by the RTL scheduler
// (sim_top/rtl_sched/rtl_limits.cpp) alike, so both refuse the same input with the same text.
// The default RTL build is narrower still (MaxSms, MaxKernels, MaxContexts in rtl/spec/gs_spec.toml);
// rtl_limits.cpp adds only those build-parameter checks, and gsim falls back to the golden
// scheduler when a config exceeds them (docs/cli.md).
#pragma once
#include <cstdint>
#include <string>

#include "sched/golden/golden_types.hpp"

namespace gs {

struct GpuConfig;
struct Mix;

namespace limits {

// ---- SM capacities (config sm_types[]): the widths of the SMST capacity fields.
constexpr uint32_t kMaxSmThreads = golden::width_mask(spec::ThreadW);   // 4095
constexpr uint32_t kMaxSmWarps = golden::width_mask(spec::WarpW);       // 127
constexpr uint32_t kMaxSmRegisters = golden::width_mask(spec::RegW);    // 131071
constexpr uint32_t kMaxSmSharedMem = golden::width_mask(spec::ShmemW);  // 131071
constexpr uint32_t kMaxCtasPerSm = spec::MaxCtasPerSm;                  // 32
// ---- GPU-wide (config): golden run-time sizes.
constexpr uint32_t kMaxSms = golden::kGoldenMaxSms;              // 256
constexpr uint32_t kMaxActiveKernels = golden::kGoldenMaxSlots;  // 32
constexpr uint32_t kMaxContexts = golden::kGoldenMaxContexts;    // 32
// ---- per launch (kernel descriptors, mix entries): launch_t field widths.
constexpr uint32_t kMaxGridCtas = golden::width_mask(spec::CtaIdW);       // 1048575
constexpr uint32_t kMaxPriority = golden::width_mask(spec::PrioW);        // 15
constexpr uint32_t kMaxTokens = 4096;                                     // < 2^(kTokenW-1): signed budget
constexpr uint32_t kMaxMixKernels = golden::width_mask(spec::KernelIdW);  // 255 (all ones = no kernel)
// ---- host memory.
constexpr uint64_t kMaxModelBytes = 4ull << 30;

inline constexpr const char* kFieldReason =
    "the scheduler holds it in a fixed-width field of rtl/spec/gs_spec.toml that the golden model mirrors";
inline constexpr const char* kMaxSmsReason =
    "the golden scheduler's per-SM state arrays, cmodel/sched/golden/golden_types.hpp kGoldenMaxSms";
inline constexpr const char* kMaskReason =
    "the golden scheduler keeps this set as a 32-bit mask, cmodel/sched/golden/golden_types.hpp";

/// The scheduler's checks of a config and its options: 1..kMaxSms SMs, max_active_kernels and
/// max_contexts within the golden masks, every SM capacity within its SMST field (max_ctas and
/// cta_limit at most MaxCtasPerSm), and sm_sharing exclusive only for a policy whose registry
/// entry has sm_sharing. Throws InputError("config <name>[ SM <s> (<type>)]",
/// field, "<value> exceeds <limit> (<why>)").
void check_scheduler_config(const GpuConfig& cfg, const SchedOptions& opt);
/// The scheduler's checks of one launch: kernel id below the all-ones "none" code, context
/// below the config's `contexts`, a non-empty grid, priority, tokens, per-CTA resources and
/// grid within their launch_t fields. Throws InputError("launch of kernel <k>", field, reason).
void check_launch(const LaunchCmd& launch, uint32_t contexts);

/// Approximate bytes the model allocates for `cfg` (caches, MSHRs, DRAM queues), before any run.
uint64_t model_bytes(const GpuConfig& cfg);
/// The config field that contributes most to model_bytes() (for the error message).
std::string largest_memory_field(const GpuConfig& cfg);
/// "L1 ... MiB, L2 ... MiB, ..." breakdown of model_bytes().
std::string describe_memory(const GpuConfig& cfg);

/// Checks every entry of `mix` against `cfg`: context < max_contexts, per-CTA threads, warps,
/// registers and shared memory (after the config's allocation rounding) within the launch
/// fields, and one CTA fitting at least one SM type. Throws InputError naming the mix file and
/// the entry's field ("kernels[3].context", ...) and the config.
void check_mix_fits(const GpuConfig& cfg, const Mix& mix);

}  // namespace limits
}  // namespace gs
