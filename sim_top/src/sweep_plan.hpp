// gsim sweep: the sweep file and the runs it expands to (format: docs/sweep.md).
//
// load_sweep_plan() reads and validates a sweep file completely -- names of configs, mixes,
// kernels, policies, preemption modes, the policy / sm_sharing combinations and every mix
// against every config -- and expands the Cartesian product into runs, each one `gsim run`
// command line. Nothing is written and nothing runs here, so a bad sweep file is exit 2 with
// the file and the field named before the first run starts.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace gsim::sweep {

/// One run of the sweep: `gsim run` with `args` (argv without the program name and without
/// --json, which the runner adds).
struct Run {
  std::string id;                        // readable and unique: config__mix__policy__preempt__s<seed>[__<sm_sharing>]
  std::vector<std::string> args;         // "run", "--config", ...
  std::vector<std::string> input_files;  // what the run reads: config file, mix file, kernel library files
};

/// A mix generated from the sweep file's "pairs" or "groups", written to <out>/mixes/<name>.json.
struct GeneratedMix {
  std::string name;
  std::string path;
  std::string text;  // the mix JSON, in the format of sim_top/workloads/mixes/
};

/// Limits on what a sweep file may ask for (docs/sweep.md, "Limits"), checked before anything
/// of the plan is allocated or a mix is generated.
constexpr uint64_t kMaxRuns = 100000;         // runs of one sweep (counted, not enumerated)
constexpr uint64_t kMaxComboPicks = 1000000;  // product of the "combos" list lengths
constexpr int kMaxNesting = 64;               // lists/objects inside each other in the sweep file

struct Plan {
  std::string name;     // the sweep's "name"
  std::string file;     // the sweep file
  std::string out_dir;  // --out, or sweep-results/<name>
  std::vector<GeneratedMix> generated_mixes;
  std::vector<Run> runs;
  bool has_window_mixes = false;   // a listed mix has window_cycles: its rows go to windows.csv
  bool has_process_mixes = false;  // a listed mix has processes: its rows go to processes.csv
};

/// Reads, validates and expands `file`; `out_dir` "" = sweep-results/<name>. Throws
/// gs::InputError naming the file, the field ("policies[2]") and the reason, and
/// gs::Interrupted when SIGINT/SIGTERM arrive while it plans.
/// A relative config or mix path in the file is looked up against the sweep file's directory,
/// then the data directory (gs::data_dir()), then the working directory; the runs get the path
/// found.
Plan load_sweep_plan(const std::string& file, const std::string& out_dir);

/// FNV-1a, 64 bits: a fast fingerprint to notice changed inputs. Not a cryptographic hash.
constexpr uint64_t kFnvOffset = 0xcbf29ce484222325ull;
constexpr uint64_t fnv1a64(std::string_view bytes, uint64_t h = kFnvOffset) {
  for (const char c : bytes) {
    h ^= static_cast<unsigned char>(c);
    h *= 0x100000001b3ull;
  }
  return h;
}
// Reference values of the FNV-1a 64 definition.
static_assert(fnv1a64("") == 0xcbf29ce484222325ull);
static_assert(fnv1a64("a") == 0xaf63dc4c8601ec8cull);
static_assert(fnv1a64("foobar") == 0x85944171f73967e8ull);

/// A command line as a shell would take it back: arguments with characters beyond
/// [A-Za-z0-9_./=:@%+,-] are single-quoted.
std::string shell_line(const std::string& program, const std::vector<std::string>& args);

}  // namespace gsim::sweep
