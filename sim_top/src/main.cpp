// gsim: command-line front end of gsched (reference: docs/cli.md).
//
// Parses the command line with CLI11, runs the chosen subcommand and maps failures to exit
// codes, each with a message on stderr prefixed "gsim: error: ":
//   0 success (also --help)
//   1 internal error (a bug: an exception that is none of the below)
//   2 bad input: unknown name, malformed file, bad option (gs::InputError, CLI11 parse errors)
//   3 lockstep check mismatch (gs::CheckMismatch)
//   4 model invariant violated (gs::InvariantError)
//   5 no forward progress / --max-cycles exceeded (gs::WatchdogError, with the state dump)
//   6 gsim sweep: some runs failed, the others completed (gsim::kExitRunsFailed, docs/sweep.md)
//   130 interrupted by Ctrl-C / SIGTERM (gs::Interrupted; outputs untouched, waveform closed)
// `gsim` alone lists the subcommands; `gsim --version` prints the version and git commit.
#include <CLI/CLI.hpp>
#include <cstdio>
#include <exception>
#include <string>
#include <vector>

#include "commands.hpp"
#include "common/error.hpp"

namespace {

enum ExitCode : int {
  kOk = 0, kInternal = 1, kInput = 2, kMismatch = 3, kInvariant = 4, kWatchdog = 5, kInterrupted = 130
};

int fail(int code, const char* what) {
  std::fprintf(stderr, "gsim: error: %s\n", what);
  return code;
}

/// CLI11 reports a mistyped subcommand as "A subcommand is required"; this names it instead.
/// Returns the error message, or "" when argv[1] is an option or a known subcommand.
std::string unknown_subcommand(int argc, char** argv, const std::vector<gsim::Command>& commands) {
  if (argc < 2 || argv[1][0] == '-') return {};
  std::string known;
  for (const gsim::Command& c : commands) {
    if (c.app->check_name(argv[1])) return {};
    known += (known.empty() ? "" : ", ") + c.app->get_name();
  }
  return std::string("unknown subcommand '") + argv[1] + "' (known: " + known + ")";
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"gsim: GPU multiprogramming scheduler simulator (gsched). See docs/cli.md.", "gsim"};
  app.require_subcommand(0, 1);
  app.set_version_flag("--version", gsim::version_string());
  const std::vector<gsim::Command> commands = {gsim::add_run_command(app), gsim::add_occupancy_command(app),
                                               gsim::add_list_command(app), gsim::add_bench_command(app),
                                               gsim::add_unit_command(app), gsim::add_sweep_command(app),
                                               gsim::add_profile_command(app),
                                               gsim::add_accuracy_command(app)};
  if (argc < 2) {   // bare `gsim`: what it can do
    std::printf("%s\nusage: gsim <subcommand> [options]   (gsim <subcommand> --help for its options)\n\nsubcommands:\n",
                gsim::version_string().c_str());
    for (const gsim::Command& c : commands)
      std::printf("  %-10s %s\n", c.app->get_name().c_str(), c.app->get_description().c_str());
    std::printf("\nquick start: gsim run --mix default   (docs/cli.md)\n");
    return kOk;
  }
  if (const std::string bad = unknown_subcommand(argc, argv, commands); !bad.empty()) return fail(kInput, bad.c_str());
  gsim::install_signal_handlers();
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int code = app.exit(e);   // prints help for --help, else the parse error
    return code == 0 ? kOk : kInput;
  }

  try {
    for (const gsim::Command& c : commands)
      if (c.app->parsed()) return c.action();
    return fail(kInput, "no subcommand given (run `gsim` alone for the list)");
  } catch (const gs::InputError& e) {
    return fail(kInput, e.what());
  } catch (const gs::CheckMismatch& e) {
    return fail(kMismatch, e.what());
  } catch (const gs::InvariantError& e) {
    return fail(kInvariant, e.what());
  } catch (const gs::WatchdogError& e) {
    return fail(kWatchdog, e.what());
  } catch (const gs::Interrupted& e) {
    return fail(kInterrupted, e.what());
  } catch (const std::exception& e) {
    std::fprintf(stderr, "gsim: internal error: %s\n", e.what());
    return kInternal;
  }
}
