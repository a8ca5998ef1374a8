// gsched: the GPU configuration (one schema for every preset; see docs/config_schema.md).
//
// Loaded from JSON by load_gpu_config(); every field is validated where it is parsed and a
// bad value raises gs::InputError naming the file, the field and the reason.
// Timing fields are in core cycles unless the name says otherwise (DRAM timings are in DRAM
// command-clock cycles, as the papers' tables give them, and converted once at load).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "gs_spec.hpp"

namespace gs {

enum class WarpSchedPolicy : uint8_t { kGto, kLrr };

/// How registers are counted against the register file (reg_alloc_unit is the granule):
///   kWarp: each warp takes regs_per_thread * warp_size rounded up to reg_alloc_unit
///          (real GPUs and GPGPU-Sim; a partial warp pays for a whole one);
///   kCta:  a CTA takes threads_per_cta * regs_per_thread rounded up to reg_alloc_unit
///          (Tanasic ISCA'14 Table 1: "# Regs/TB" = threads x registers, e.g. lbm 120 x 36 = 4320,
///          which its TBs/SM, Resour./SM and Save Time columns are computed from).
enum class RegAllocScope : uint8_t { kWarp, kCta };

/// How shared memory and the L1 data cache share an SM's SRAM:
///   kFixed:   separate sizes for the whole run (shared_mem_bytes, or the one carve-out of
///             shared_mem_options the run's largest CTA needs; l1_size_bytes), the default;
///   kDynamic: one unified array of l1_size_bytes (Volta and later; Hopper 256 KiB). The
///             scheduler sees shared_mem_bytes, the largest carve-out, as the SM's capacity; the
///             SM's carve-out is at every moment the smallest entry of shared_mem_options that
///             holds its resident CTAs' shared memory, and the L1 keeps what is left, in whole
///             ways (docs/config_schema.md).
enum class L1Carveout : uint8_t { kFixed, kDynamic };

/// One kind of SM. A GPU may mix kinds (HeteroCore big/small SMs, ROADMAP item 4).
struct SmTypeConfig {
  std::string name = "sm";  // "sm", "big", "small", ...
  uint32_t count = 1;       // how many SMs of this type
  // Storage and slot capacities (Warped-Slicer Table I "Resources / Core").
  uint32_t max_threads = 1536;
  uint32_t max_ctas = 8;
  uint32_t max_warps = 48;                               // normally max_threads / warp_size
  uint32_t registers = 32768;                            // 32-bit registers in the register file
  uint32_t reg_alloc_unit = 64;                          // registers are allocated per warp in multiples of this
  RegAllocScope reg_alloc_scope = RegAllocScope::kWarp;  // per warp (default) or per CTA (Tanasic)
  uint32_t shared_mem_bytes = 48 * 1024;
  uint32_t shmem_alloc_unit = 128;  // shared memory allocated per CTA in multiples of this
  // Alternative shared-memory carve-outs (Tanasic Table 2: 16/32/48 KB). Empty = fixed size.
  std::vector<uint32_t> shared_mem_options;
  // Execution.
  uint32_t warp_schedulers = 2;
  WarpSchedPolicy warp_sched_policy = WarpSchedPolicy::kGto;
  // HeteroCore Sec. 3.2: a big SM's warp slots in two groups, the first as many as the baseline
  // SM has (slots below this), the second the rest. A scheduler considers the warps of one group
  // at a time and moves to the other, losing that cycle, when none of its group is ready. Warps
  // take the lowest free slot. 0 = one group (every other SM).
  uint32_t warp_group_slots = 0;
  uint32_t alu_lanes = 32;  // SIMT width per scheduler; a warp instr occupies warp_size/alu_lanes cycles
  uint32_t sfu_lanes = 4;
  uint32_t ldst_lanes = 16;
  uint32_t alu_latency = 10;
  uint32_t sfu_latency = 20;
  uint32_t shmem_latency = 24;
  // L1 data cache (per SM).
  uint32_t l1_size_bytes = 16 * 1024;
  uint32_t l1_assoc = 4;
  uint32_t l1_mshrs = 64;
  uint32_t l1_hit_latency = 20;
  L1Carveout l1_carveout = L1Carveout::kFixed;
  // Cycles from a fresh CTA's dispatch to its first instruction (launch overhead; 0 = none).
  uint32_t cta_launch_cycles = 0;
};

/// A conventional SM's capacities: HeteroCore's #CTA^base (Sec. 4.3), derived from the config's
/// hetero.baseline_config (its one SM type; zeros without one), policy_cfg_t.base_sm.
struct BaseSm {
  uint32_t threads = 0, warps = 0, regs = 0, shmem = 0, ctas = 0;
};

struct GpuConfig {
  std::string name;    // preset name, e.g. "warped-slicer"
  std::string source;  // paper and table the numbers come from
  std::string file;    // file it was loaded from (for error messages)
  uint32_t core_clock_mhz = 1400;
  uint32_t warp_size = 32;
  uint32_t line_bytes = 128;  // L1/L2 line size
  std::vector<SmTypeConfig> sm_types;
  std::vector<uint32_t> sm_type_of;  // derived: per SM index, index into sm_types

  // Crossbar (SM <-> L2 slices).
  uint32_t xbar_latency = 8;           // one-way traversal, core cycles
  uint32_t xbar_bytes_per_cycle = 32;  // per port (SM port and slice port), each direction

  // L2: one slice per memory channel.
  uint32_t l2_slice_bytes = 128 * 1024;
  uint32_t l2_assoc = 8;
  uint32_t l2_mshrs = 64;
  uint32_t l2_hit_latency = 30;

  // DRAM (GDDR5).
  uint32_t dram_channels = 6;
  uint32_t dram_banks = 16;
  uint32_t dram_clock_mhz = 924;          // command clock
  uint32_t dram_bus_bytes = 4;            // per channel, bytes per transfer (32-bit bus)
  uint32_t dram_transfers_per_clock = 4;  // GDDR5 quad data rate on the command clock
  uint32_t dram_row_bytes = 2048;
  uint32_t dram_queue_depth = 32;  // per channel request queue (FR-FCFS window)
  // Timings in DRAM command-clock cycles (Warped-Slicer Table I, Pai Table 4, ...).
  uint32_t tCL = 12, tRP = 12, tRC = 40, tRAS = 28, tRCD = 12, tRRD = 6, tCCD = 2, tWR = 12;

  // Scheduler hardware sizing (the RTL build parameters; one source of truth, rtl/spec/gs_spec.toml).
  uint32_t max_active_kernels = 8;  // KSRT entries
  uint32_t max_contexts = 8;        // command buffers
  /// The policies' settings: one config object per section of the registry (rtl/spec/gs_spec.toml,
  /// [[policy.setting]]; docs/config_schema.md), e.g. "warped_slicer": {"warmup_cycles": 20000}.
  spec::PolicySettings settings;
  BaseSm base_sm;  // derived from settings.hetero.baseline_config

  uint32_t num_sms() const { return static_cast<uint32_t>(sm_type_of.size()); }
  const SmTypeConfig& sm(uint32_t sm_index) const { return sm_types[sm_type_of[sm_index]]; }
  /// A HeteroCore big SM: its SM type is named "big" (policy_cfg_t.sm_big).
  bool sm_is_big(uint32_t sm_index) const { return sm(sm_index).name == "big"; }
  /// Peak DRAM bandwidth of the whole GPU in bytes per second.
  double dram_peak_bytes_per_sec() const {
    return double(dram_channels) * dram_bus_bytes * dram_transfers_per_clock * dram_clock_mhz * 1e6;
  }
  /// Peak DRAM bandwidth in bytes per core cycle (all channels).
  double dram_peak_bytes_per_core_cycle() const { return dram_peak_bytes_per_sec() / (double(core_clock_mhz) * 1e6); }
};

/// Loads and validates a config. `path_or_name` is a file path or a preset name
/// (resolved in the configs directory). Throws InputError. A file other than the preset that
/// carries a preset's "name" is named "NAME@PATH", so a changed copy never reports as the preset.
GpuConfig load_gpu_config(const std::string& path_or_name);
/// Loads a config and applies `overrides` ("key=value", gsim run --set) to its JSON before it is
/// validated, exactly as if the file said so. Keys are field paths: "l2_slice_bytes",
/// "sm_types[0].count", "sm_types[*].l1_assoc" (every SM type); the value is JSON (a number, a
/// string in quotes, ...) or else taken as a string. The result's name is the preset's name
/// followed by the overrides in braces, e.g. "warped-slicer{l2_assoc=16}", so results never
/// report a changed config under the preset's name. Errors name the file, the option and the field.
GpuConfig load_gpu_config(const std::string& path_or_name, const std::vector<std::string>& overrides);
/// Path of the config file `path_or_name` resolves to (a preset name or a path); InputError if none.
std::string resolve_config_path(const std::string& path_or_name);
/// Parses a config from JSON text; `file` is used in error messages only.
GpuConfig parse_gpu_config(const std::string& json_text, const std::string& file);
/// Names of the shipped presets, one per JSON file in the configs directory, sorted.
std::vector<std::string> list_gpu_configs();
/// Directory holding the shipped data (configs/, workloads/): $GSCHED_DATA_DIR or the build-time path.
std::string data_dir();

}  // namespace gs
