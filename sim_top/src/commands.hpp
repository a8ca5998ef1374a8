// gsim: the subcommands of the command-line front end (reference: docs/cli.md).
//
// Each add_*_command() registers one CLI11 subcommand on the top-level app, binds its options
// to state it owns, and returns the action to run once parsing succeeded. Actions return the
// process exit code and report failures by throwing the gs:: error types, which main() maps
// to exit codes (2 input, 3 check mismatch, 4 invariant, 5 watchdog). Actions write results
// to stdout only, diagnostics and progress to stderr, so stdout is byte-stable for scripts.
#pragma once
#include <functional>
#include <string>

namespace CLI {
class App;
}

namespace gsim {

struct Command {
  CLI::App* app = nullptr;       // the subcommand (parsed() tells whether it was chosen)
  std::function<int()> action;   // runs it; returns the exit code
};

Command add_run_command(CLI::App& top);
Command add_occupancy_command(CLI::App& top);
Command add_list_command(CLI::App& top);
Command add_bench_command(CLI::App& top);
Command add_unit_command(CLI::App& top);

// --- helpers shared by the subcommands (common.cpp) ---

/// Scheduler kind used when --scheduler is not given: "lockstep" in builds with the RTL
/// (GS_HAVE_RTL), else "golden".
std::string default_scheduler_kind();
/// Registers the scheduler kinds this build provides beyond "golden" (the RTL ones). Idempotent.
void register_build_schedulers();
/// Throws gs::InputError naming the value and the known ones if `kind` is not a registered
/// scheduler kind or `policy` is not a known policy -- before any simulation starts.
void check_scheduler_and_policy(const std::string& kind, const std::string& policy);
/// Writes `text` to `path`; throws gs::InputError naming the file and `option` on failure.
void write_text_file(const std::string& path, const std::string& text, const std::string& option);
/// Reads a whole file; throws gs::InputError naming the file on failure.
std::string read_text_file(const std::string& path, const std::string& option);

}  // namespace gsim
