// gsched: kernel descriptors and workload mixes (format: docs/workloads.md).
//
// Real CUDA binaries cannot run here, so a kernel is a descriptor: its per-CTA resources
// (threads, registers per thread, shared memory) and grid size, taken from the papers' tables
// where given, plus the parameters of the synthetic instruction stream its warps execute.
// All ratios are integer per-mille so instruction streams are bit-identical everywhere.
#pragma once
#include <cstdint>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <vector>

#include "gs_spec.hpp"  // BypassLevel

namespace gs {

enum class MemPattern : uint8_t {
  kStreaming,  // each warp walks its own slice of a large array once (no reuse)
  kTiled,      // CTA re-reads a tile of tile_bytes repeatedly (reuse inside the CTA)
  kRandom,     // uniformly random lines over footprint_bytes (shared by all CTAs)
  kPerCtaWs,   // each CTA has a private working set of ws_bytes, touched at random
};

struct KernelDesc {
  std::string name;       // "HOT", "sgemm.mysgemmNT", ...
  std::string suite;      // "warped-slicer", "pai", "tanasic", "heterocore", "sbm", "test"
  std::string source;     // paper table it comes from
  std::string behaviour;  // documented class, e.g. "compute-nonsat", "memory", "cache"
  std::string preset;     // the GPU config its suite file names ("" = none): gsim's default for it
  // Per-CTA resources and grid.
  uint32_t threads_per_cta = 256;
  uint32_t regs_per_thread = 16;
  uint32_t shmem_per_cta = 0;  // bytes
  uint32_t grid_ctas = 1;
  // Synthetic instruction stream, per warp.
  uint32_t insts_per_warp = 1000;    // dynamic warp instructions each warp of a CTA executes
  uint32_t cta_spread_pct = 0;       // +- spread of insts_per_warp across CTAs (CTA-duration spread)
  uint32_t cta_work_cycle = 0;       // 0 = off; else CTA c runs insts_per_warp x (c mod this + 1)
  uint32_t sfu_permille = 0;         // share of SFU instructions
  uint32_t ldst_permille = 0;        // share of global loads/stores
  uint32_t shmem_permille = 0;       // share of shared-memory instructions
  uint32_t shmem_conflict_ways = 1;  // bank-conflict degree: a shared-memory access is replayed this many times
  uint32_t store_permille = 0;       // of the global ldst instructions, share that are stores
  uint32_t dep_distance = 4;         // a result is consumed this many instructions later
  MemPattern pattern = MemPattern::kStreaming;
  uint64_t footprint_bytes = 64ull << 20;  // kRandom / kStreaming address range
  uint32_t tile_bytes = 16 * 1024;         // kTiled per-CTA tile
  uint32_t ws_bytes = 8 * 1024;            // kPerCtaWs per-CTA working set
  uint32_t lines_per_access = 1;           // coalescing: distinct 128 B lines one warp access touches (1..32)

  uint32_t warps_per_cta(uint32_t warp_size) const { return (threads_per_cta + warp_size - 1) / warp_size; }
};

/// One kernel launch in a mix.
struct MixEntry {
  std::string kernel;  // kernel name in the library
  uint64_t arrival_cycle = 0;
  /// Non-zero: the entry arrives when kernels[0] has run this percentage of its alone
  /// turnaround (Pai et al. Sec. 6.2.5, "the second kernel arrives at 25% and 50% of the runtime
  /// of the first kernel"): arrival_cycle = kernels[0].arrival_cycle + T_alone * pct / 100,
  /// resolved by run_mix_with_alone() after the alone runs (metrics/mix_runner.hpp); a Gpu
  /// refuses a mix with one unresolved.
  uint32_t arrival_pct = 0;
  uint32_t context = 0;    // command buffer (process / stream) it is launched into
  uint32_t priority = 0;   // NPQ/PPQ: higher value = more important
  uint32_t tokens = 0;     // DSS token budget (0 = policy default)
  uint32_t grid_ctas = 0;  // 0 = the descriptor's grid size
  /// Cache bypass of its accesses from every SM, set when the run starts (the memory model's
  /// per-SM, per-kernel level; a scheduler's BypassCmd may change it later).
  BypassLevel bypass = BypassLevel::kNone;
  KernelDesc desc;  // resolved descriptor (filled by the loader)
};

/// Mix-file name of a bypass level: its bypass_level_e member without "BYPASS_", lower case
/// ("none", "l1", "l1l2", "l2"), so the names follow rtl/spec/gs_spec.toml.
std::string bypass_level_name(BypassLevel level);
/// Every level's name, in bypass_level_e order.
std::vector<std::string> bypass_level_names();

/// One process of a process mix (docs/workloads.md, "Processes"): an application that launches
/// its kernels one after another into its own command buffer, each `host_gap_cycles` after the
/// one before it finished (host work between launches), and replays the whole sequence. Tanasic
/// et al. Sec. 4.1: every benchmark is replayed once it completes until all have completed at
/// least `runs` times; statistics over the completed executions.
struct MixProcess {
  std::string name;
  uint32_t context = 0;      // its command buffer (default: its index in "processes")
  uint32_t priority = 0;     // every launch of the process carries it (NPQ/PPQ)
  uint32_t tokens = 0;       // DSS token budget of its launches (0 = policy default)
  uint32_t runs = 1;         // how many times the whole sequence must complete
  uint64_t start_cycle = 0;  // its first run starts here (the first step's host gap counts from it)
  /// Its steps in order: the index of each step's launch in Mix::kernels (one kernel id per step,
  /// relaunched every run) and the host cycles before that launch.
  std::vector<uint32_t> steps;
  std::vector<uint64_t> host_gap_cycles;
};

struct Mix {
  std::string name;
  std::string file;
  std::string config;  // preset the mix was written for ("" = any); a hint for tools
  /// Fixed-window method (SBM Sec. 6.2 IPC/ANTT, HeteroCore Sec. 5 "Performance and Power
  /// Metrics"): when non-zero, every kernel relaunches (same id, context and priority) each time
  /// it finishes, the run stops after this many cycles, and the metrics are taken over the
  /// window (docs/workloads.md, docs/metrics.md). 0: each kernel runs once, to completion.
  uint64_t window_cycles = 0;
  /// Fixed-window method only: the measured window opens at this cycle (the run lasts
  /// window_start + window_cycles; instructions before it are not counted, alone runs alike).
  /// SBM Fig. 7 measures under the chosen configuration, after the profiling (docs/workloads.md).
  uint64_t window_start = 0;
  std::vector<MixEntry> kernels;
  /// Process mix (non-empty): `kernels` holds every process's steps, in process then step order,
  /// and gs::Gpu launches them as the processes' sequences, not at their arrival_cycle. A mix has
  /// either processes or a plain kernel list in its file, never both, and no fixed window.
  std::vector<MixProcess> processes;
  /// The process that `kernels[k]` is a step of, -1 for none (a kernel mix).
  int process_of(uint32_t k) const {
    for (size_t p = 0; p < processes.size(); ++p)
      for (uint32_t s : processes[p].steps)
        if (s == k) return static_cast<int>(p);
    return -1;
  }
};

/// Kernel library: every descriptor shipped in <data>/workloads/kernels/*.json, then those of
/// `user_files` (suite files of the user's own, gsim run --kernels FILE), each validated alike;
/// a name defined twice (case-insensitively, across all files) is an InputError naming both files.
std::vector<KernelDesc> load_kernel_library(const std::vector<std::string>& user_files = {});
/// The files load_kernel_library(user_files) reads, in that order (a run's inputs).
std::vector<std::string> kernel_library_files(const std::vector<std::string>& user_files = {});
/// One descriptor object (a suite file's kernels[i], or a mix entry's inline "kernel"), validated
/// as the library's; `path` is its field path in `file` for messages.
KernelDesc parse_kernel_desc(const nlohmann::json& v, const std::string& file, const std::string& path,
                             const std::string& suite);
/// The descriptors of one suite file (any path), validated as load_kernel_library does.
std::vector<KernelDesc> load_kernel_file(const std::string& path);
/// Finds a kernel by name; throws InputError listing close names when unknown.
const KernelDesc& find_kernel(const std::vector<KernelDesc>& lib, const std::string& name);
/// The mix of one kernel alone: `k` at cycle 0 in context 0, named "kernel:<name>", for the
/// config its suite file names (gsim run --kernel, occupancy, profile, accuracy, calibrate).
Mix single_kernel_mix(const KernelDesc& k);
/// Loads a mix (path or name in <data>/workloads/mixes), resolving kernels. Throws InputError.
Mix load_mix(const std::string& path_or_name, const std::vector<KernelDesc>& lib);
/// Validates and resolves a mix document as load_mix does; `path` names it in errors and becomes
/// Mix::file (a mix generated in memory, e.g. by gsim sweep, before it is written there).
Mix parse_mix(const nlohmann::json& doc, const std::string& path, const std::vector<KernelDesc>& lib);
std::vector<std::string> list_mixes();

/// Why `mix`'s fixed window cannot run as it stands (empty: it can, or it has none): a kernel
/// with arrival_pct, or one arriving after the window ends. `field` gets the mix field at fault.
std::string window_problem(const Mix& mix, std::string& field);

/// A fixed window given from outside the mix file (gsim run --window-cycles/--window-start, a
/// sweep file's "window_cycles"/"window_start"; docs/cli.md, docs/sweep.md). cycles 0 keeps the
/// mix's length; no start keeps the mix's start (0 for a mix without a window).
struct WindowOverride {
  uint64_t cycles = 0;
  std::optional<uint64_t> start;
};
/// Replaces `mix`'s window by `w`, checked as the mix file's keys are (same range, every kernel
/// arrives inside the window, no arrival_pct). Throws InputError naming `source` (the option or
/// field) and the mix.
void override_window(Mix& mix, const WindowOverride& w, const std::string& source);

}  // namespace gs
