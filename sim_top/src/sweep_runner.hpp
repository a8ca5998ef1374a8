// gsim sweep: runs the pending runs of a plan as child `gsim run` processes (docs/sweep.md).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "sweep_plan.hpp"

namespace gsim::sweep {

/// The temporaries of a running child in <out>/runs: "." + run id + "." + pid of the sweep that
/// started it + one of these (only files of this form are removed as stale; docs/sweep.md).
constexpr const char* kPartSuffix = ".part.json";
constexpr const char* kStderrSuffix = ".stderr";

/// A run that exited non-zero.
struct Failure {
  std::string id;
  int exit_code = 0;        // the child's exit status, or 128 + signal when a signal ended it
  std::string command;      // the full command line
  std::string stderr_tail;  // its "gsim: error:" line and the last lines of its stderr
  std::string reason;       // when set, said instead of "exit N" (a Slurm run without a result)
};

struct RunnerOptions {
  std::string program;   // the gsim binary the children run
  std::string runs_dir;  // <out>/runs
  unsigned jobs = 1;
  bool quiet = false;
  uint32_t already_done = 0;  // skipped runs, counted in the progress
  uint32_t total = 0;         // all runs of the sweep
};

struct RunnerResult {
  std::vector<Failure> failures;
  uint32_t completed = 0;    // runs that exited 0 and whose result was written
  bool interrupted = false;  // SIGINT/SIGTERM: children killed, their temporaries removed
};

/// The result JSON of `run` with "sweep_inputs" ({"args", "inputs_fnv1a64"}) added; reads
/// the child's output `child_json`. Throws gs::InputError if it cannot be parsed.
std::string result_with_inputs(const std::string& child_json, const Run& run, const std::string& fingerprint);

/// What a failed run said: the "gsim: error:" line of the text in `path` (the cause) and its
/// last `lines` lines; "" if the file cannot be read.
std::string stderr_summary(const std::string& path, size_t lines);

/// Runs `pending` (each with its inputs fingerprint) with at most opt.jobs children at a time;
/// each result goes to <runs_dir>/<id>.json atomically once its child exited 0.
RunnerResult run_pending(const std::string& sweep_name, const std::vector<const Run*>& pending,
                         const std::vector<std::string>& fingerprints, const RunnerOptions& opt);

}  // namespace gsim::sweep
