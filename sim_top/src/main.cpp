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
//   7 gsim calibrate --check: a kernel out of its band (gsim::kExitOutOfBand)
//   130 interrupted by Ctrl-C / SIGTERM (gs::Interrupted; outputs untouched, waveform closed)
// `gsim` alone lists the subcommands; `gsim --version` (-V) prints the version and git commit.
// CLI11's own parse errors get the same prefix, and an unknown option the closest known one.
#include <CLI/CLI.hpp>
#include <cstdio>
#include <exception>
#include <string>
#include <vector>

#include "commands.hpp"
#include "common/error.hpp"
#include "config/json_reader.hpp"

namespace {

enum ExitCode : int {
  kOk = 0,
  kInternal = 1,
  kInput = 2,
  kMismatch = 3,
  kInvariant = 4,
  kWatchdog = 5,
  kInterrupted = 130
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

/// A CLI11 parse error in gsim's words: "gsim: error: " + CLI11's message, and for an unknown
/// option (`--polcy even`) the option named with the closest option of the subcommand.
std::string parse_error_message(const CLI::App& app, const CLI::ParseError& e) {
  std::string msg = e.what();
  const std::vector<CLI::App*> chosen = app.get_subcommands();
  const CLI::App* cmd = chosen.empty() ? &app : chosen.front();
  const std::string where = chosen.empty() ? "gsim" : "gsim " + cmd->get_name();
  if (dynamic_cast<const CLI::ExtrasError*>(&e) == nullptr) return msg + " (" + where + " --help lists the options)";
  std::vector<std::string> known;
  for (const CLI::Option* o : cmd->get_options())
    for (const std::string& n : o->get_lnames()) known.push_back("--" + n);
  for (const std::string& extra : app.remaining(true)) {
    if (extra.size() < 2 || extra[0] != '-') continue;
    const std::string opt = extra.substr(0, extra.find('='));
    std::string m = "unknown option '" + opt + "' for " + where;
    const std::vector<std::string> close = gs::closest_names(opt, known, 1);
    if (!close.empty()) m += " (did you mean '" + close.front() + "'?)";
    return m + "; " + where + " --help lists the options";
  }
  return msg + " (" + where + " --help lists the options)";
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"gsim: GPU multiprogramming scheduler simulator (gsched). See docs/cli.md.", "gsim"};
  app.require_subcommand(0, 1);
  app.set_version_flag("-V,--version", gsim::version_string());
  const std::vector<gsim::Command> commands = {gsim::add_run_command(app),     gsim::add_occupancy_command(app),
                                               gsim::add_list_command(app),    gsim::add_bench_command(app),
                                               gsim::add_unit_command(app),    gsim::add_sweep_command(app),
                                               gsim::add_profile_command(app), gsim::add_accuracy_command(app),
                                               gsim::add_show_command(app),    gsim::add_calibrate_command(app)};
  if (argc < 2) {  // bare `gsim`: what it can do
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
    if (e.get_exit_code() == static_cast<int>(CLI::ExitCodes::Success)) return app.exit(e);  // --help, --version
    return fail(kInput, parse_error_message(app, e).c_str());
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
