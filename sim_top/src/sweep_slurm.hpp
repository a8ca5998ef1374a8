// gsim sweep --backend slurm: the job-array script, its submission and the wait for its end
// (docs/sweep.md, "Slurm").
//
// The array's tasks run `gsim sweep F --out OUT --run-index I,J,...`, which runs those runs of
// the plan with the local runner (sweep_runner.cpp), so both backends write results the same
// way; cmd_sweep.cpp collects them afterwards exactly as after a local sweep.
#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace gsim::sweep {

struct SlurmOptions {
  std::string partition;   // --partition, "" = the cluster's default
  std::string time_limit;  // --time, "" = the partition's default
  uint32_t array_max = 0;  // --array-max: tasks running at once (%N), 0 = no limit
  uint32_t chunk = 0;      // --chunk: runs per array task, 0 = as few as fit kMaxArrayTasks
};

/// Slurm's default MaxArraySize is 1001 (task ids 0..1000); the default chunking stays within it.
constexpr uint32_t kMaxArrayTasks = 1000;

/// What the script needs to know about the sweep.
struct SlurmJob {
  std::string sweep_name;
  std::string program;            // absolute path of the gsim binary
  std::string sweep_file;         // absolute
  std::string out_dir;            // absolute
  std::string work_dir;           // absolute: the tasks run here (relative names in the sweep file)
  std::vector<uint32_t> pending;  // plan indices of the runs without a current result
  uint32_t total = 0;             // runs of the plan
};

/// The runs per task: opt.chunk, or the smallest that keeps the array within kMaxArrayTasks.
uint32_t runs_per_task(const SlurmOptions& opt, size_t pending);

/// Index of the array task that runs pending[i].
inline uint32_t task_of(size_t i, uint32_t per_task) { return static_cast<uint32_t>(i / per_task); }

/// The sbatch script: `#SBATCH --array=0-(T-1)[%N]`, job name gsim-sweep-<name>, output
/// <out>/slurm/%A_%a.out, optional partition and time; task k runs its chunk of `pending`.
std::string sbatch_script(const SlurmJob& job, const SlurmOptions& opt);

/// Throws gs::InputError for --partition / --time values that are not a single plain word.
void check_slurm_options(const SlurmOptions& opt);

/// The absolute path of `name` found on $PATH, or "".
std::string find_on_path(const std::string& name);

/// Runs `argv` (argv[0] an absolute path), stdout and stderr to files under `scratch_dir`;
/// returns the exit status (128 + signal when killed) and fills `out` and `err`.
int run_tool(const std::vector<std::string>& argv, const std::string& scratch_dir, std::string& out, std::string& err);

/// `sbatch --parsable SCRIPT`; the job id. Throws gs::InputError with sbatch's stderr if it
/// refuses the script or prints no job id.
std::string submit(const std::string& sbatch, const std::string& script, const std::string& scratch_dir);

/// Polls `squeue -h -j JOB` every `poll_ms` until the job has left the queue, calling
/// `progress()` after every poll. Returns false if interrupted() (Ctrl-C) first.
bool wait_for_job(const std::string& job_id, const std::string& scratch_dir, unsigned poll_ms,
                  const std::function<void()>& progress);

}  // namespace gsim::sweep
