// gsim: the subcommands of the command-line front end (reference: docs/cli.md).
//
// Each add_*_command() registers one CLI11 subcommand on the top-level app, binds its options
// to state it owns, and returns the action to run once parsing succeeded. Actions return the
// process exit code and report failures by throwing the gs:: error types, which main() maps
// to exit codes (2 input, 3 check mismatch, 4 invariant, 5 watchdog; 6 = some runs of a sweep failed). Actions write results
// to stdout only, diagnostics and progress to stderr, so stdout is byte-stable for scripts.
#pragma once
#include <cstdint>
#include <functional>
#include <limits>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

namespace gs {
struct GpuConfig;
struct KernelDesc;
struct Mix;
struct SchedOptions;
}  // namespace gs

namespace gsim {

struct Command {
  CLI::App* app = nullptr;      // the subcommand (parsed() tells whether it was chosen)
  std::function<int()> action;  // runs it; returns the exit code
};

Command add_run_command(CLI::App& top);
Command add_occupancy_command(CLI::App& top);
Command add_list_command(CLI::App& top);
Command add_bench_command(CLI::App& top);
Command add_unit_command(CLI::App& top);
Command add_sweep_command(CLI::App& top);
Command add_profile_command(CLI::App& top);
Command add_accuracy_command(CLI::App& top);
Command add_show_command(CLI::App& top);
Command add_calibrate_command(CLI::App& top);

/// Exit code of `gsim sweep` when some of its runs failed (the others completed; docs/sweep.md).
constexpr int kExitRunsFailed = 6;
/// Exit code of `gsim calibrate --check` when a measured target is outside its band (docs/cli.md).
constexpr int kExitOutOfBand = 7;
/// gsim bench --require-partitions: a scheduler's policy put fewer partitions in force.
constexpr int kExitTooFewPartitions = 8;

// --- helpers shared by the subcommands (common.cpp) ---

/// Scheduler kind used when --scheduler is not given: "lockstep" in builds with the RTL
/// (GS_HAVE_RTL), else "golden".
std::string default_scheduler_kind();
/// Registers the scheduler kinds this build provides beyond "golden" (the RTL ones). Idempotent.
void register_build_schedulers();
/// Throws gs::InputError naming the value and the known ones if `kind` is not a registered
/// scheduler kind or `policy` is not a known policy -- before any simulation starts.
void check_scheduler_and_policy(const std::string& kind, const std::string& policy);
/// Why `cfg` + `mix` under `opt` cannot run on the RTL build ("" = it can, or no RTL in this
/// build): the RTL limits of sim_top/rtl_sched/rtl_limits.hpp, with the mix entry named.
std::string rtl_unfit_reason(const gs::GpuConfig& cfg, const gs::SchedOptions& opt, const gs::Mix& mix);
/// The scheduler kind to run: `scheduler` when `given` (--scheduler), else the build default. A
/// config or mix beyond the RTL build is an error when rtl/lockstep was asked for (or --wave,
/// which needs the RTL), else the default falls back to golden with a note on stderr.
std::string choose_scheduler(bool given, const std::string& scheduler, const gs::GpuConfig& cfg,
                             const gs::SchedOptions& opt, const gs::Mix& mix, bool want_wave, bool quiet);
/// Adds the file and field to a scheduler's InputError that names only "launch of kernel N"
/// or "config NAME ..." (raised while a run starts).
std::string locate_run_error(const std::string& what, const gs::GpuConfig& cfg, const gs::Mix& mix);
/// Reads a whole file; throws gs::InputError naming the file on failure.
std::string read_text_file(const std::string& path, const std::string& option);
/// The kernels `--kernel NAME` (each of `names`, library order kept as given) and `--kernels
/// SUITE|all` (`suite`, empty = none) select from `lib`; throws gs::InputError for an unknown
/// kernel or suite (naming the suites there are).
std::vector<gs::KernelDesc> select_kernels(const std::vector<gs::KernelDesc>& lib,
                                           const std::vector<std::string>& names, const std::string& suite);

// --- command-line hardening and conveniences (cli_support.cpp) ---

/// CLI11 validator for unsigned options: a plain decimal number (no sign, no spaces, not
/// empty) within [min, max]. CLI11 2.1 converts "-1" to 2^64-1 and "" to 0 by itself; this
/// check runs on the text first, so such values are exit-2 errors naming the option.
CLI::Validator whole_number(uint64_t min = 0, uint64_t max = std::numeric_limits<uint64_t>::max());
/// The thread count a --threads N run uses: N, or the CPUs this process may run on
/// (sched_getaffinity) when fewer, with a note on stderr unless `quiet`. The SM ticks of a
/// cycle end in a barrier, so threads without a core of their own only wait for each other
/// (docs/performance.md, "Threads"); the output is the same either way.
unsigned usable_threads(unsigned requested, bool quiet);
/// "gsim 0.1 (git abc1234)" -- the version and, when built from a git checkout, the commit.
std::string version_string();
/// The commit alone ("abc1234", "abc1234-dirty"), or "" when not built from a checkout.
std::string git_commit();

/// SIGINT/SIGTERM set a flag that the run loops poll (interrupted()); a second Ctrl-C kills
/// at once. SIGBUS (an FST writer's memory-mapped file on a full disk) removes the waveform
/// registered with set_wave_cleanup() and exits 2 with a message instead of dumping core.
void install_signal_handlers();
bool interrupted();
/// Throws gs::Interrupted naming `where` if a stop was requested.
void throw_if_interrupted(const std::string& where);
void set_wave_cleanup(const std::string& path);

/// Progress of a `gsim run` on stderr: phase (alone run k/n or shared), simulated cycles,
/// simulated cycles per second and an estimated time to the end.
struct ProgressOptions {
  bool live = false;   // one status line rewritten in place (stderr is a terminal)
  uint64_t every = 0;  // or: one line per `every` simulated cycles (--progress=N)
};
class ProgressReporter {
 public:
  explicit ProgressReporter(ProgressOptions opt);
  ~ProgressReporter();
  /// Per-cycle hook for gs::run_mix_with_alone (also polls interrupted()).
  void on_cycle(bool shared, uint32_t index, uint32_t count, const std::string& kernel, uint64_t cycle);
  /// Clears the live line (before results are printed).
  void finish();

 private:
  struct Impl;
  Impl* impl_;
};

}  // namespace gsim
