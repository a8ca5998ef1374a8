// gsim sweep --backend slurm: script, submission, wait (contracts in sweep_slurm.hpp).
#include "sweep_slurm.hpp"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <thread>

#include "commands.hpp"
#include "common/error.hpp"
#include "config/json_reader.hpp"
#include "sweep_plan.hpp"

extern char** environ;

namespace gsim::sweep {

namespace {

/// A value that goes into an #SBATCH line or a Slurm command line as it is: no blanks, quotes
/// or shell characters (partition names and time limits never need them).
bool plain_slurm_word(const std::string& s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || std::strchr("_.,:+-", c) != nullptr;
  });
}

std::string trim(std::string s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.pop_back();
  size_t b = 0;
  while (b < s.size() && std::isspace(static_cast<unsigned char>(s[b]))) ++b;
  return s.substr(b);
}

bool all_digits(const std::string& s) {
  return !s.empty() && s.size() <= 9 && std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

/// A Slurm time limit in one of sbatch's formats: MM, MM:SS, HH:MM:SS, D-HH, D-HH:MM, D-HH:MM:SS
/// (whole numbers; seconds and minutes after the first field below 60, hours after a day below 24).
bool slurm_time(const std::string& t) {
  std::string rest = t;
  bool days = false;
  if (const size_t dash = t.find('-'); dash != std::string::npos) {
    if (!all_digits(t.substr(0, dash))) return false;
    days = true;
    rest = t.substr(dash + 1);
  }
  std::vector<std::string> parts;
  size_t pos = 0;
  while (true) {
    const size_t colon = rest.find(':', pos);
    parts.push_back(rest.substr(pos, colon == std::string::npos ? std::string::npos : colon - pos));
    if (colon == std::string::npos) break;
    pos = colon + 1;
  }
  if (parts.size() > 3 || std::any_of(parts.begin(), parts.end(), [](const std::string& p) { return !all_digits(p); }))
    return false;
  // without a day: MM, MM:SS, HH:MM:SS; with one: D-HH, D-HH:MM, D-HH:MM:SS
  for (size_t i = 1; i < parts.size(); ++i)
    if (std::stoul(parts[i]) >= 60) return false;
  if (days && std::stoul(parts[0]) >= 24) return false;
  if (!days && parts.size() == 3 && parts[0].size() > 9) return false;
  return true;
}

/// `s` with every '%' doubled: #SBATCH --output expands %A, %a, ... and takes %% as a '%'.
std::string escape_percent(const std::string& s) {
  std::string out;
  for (const char c : s) out += c == '%' ? std::string("%%") : std::string(1, c);
  return out;
}

}  // namespace

uint32_t runs_per_task(const SlurmOptions& opt, size_t pending) {
  if (opt.chunk > 0) return opt.chunk;
  return static_cast<uint32_t>(std::max<size_t>(1, (pending + kMaxArrayTasks - 1) / kMaxArrayTasks));
}

void check_slurm_options(const SlurmOptions& opt) {
  if (!opt.partition.empty() && !plain_slurm_word(opt.partition))
    throw gs::InputError("--partition: \"" + opt.partition + "\" is not a partition name ([A-Za-z0-9_.,:+-]+)");
  if (!opt.time_limit.empty() && !slurm_time(opt.time_limit))
    throw gs::InputError("--time: \"" + opt.time_limit +
                         "\" is not a Slurm time limit: give MM, MM:SS, HH:MM:SS, D-HH, "
                         "D-HH:MM or D-HH:MM:SS (e.g. 90, 01:30:00, 2-00:00:00)");
}

std::string sbatch_script(const SlurmJob& job, const SlurmOptions& opt) {
  const uint32_t per_task = runs_per_task(opt, job.pending.size());
  const uint32_t tasks = task_of(job.pending.size() - 1, per_task) + 1;
  const std::string slurm_dir = job.out_dir + "/slurm";
  std::string s = "#!/bin/bash\n";
  s += "# gsim sweep " + job.sweep_name + ": " + std::to_string(job.pending.size()) + " pending runs of " +
       std::to_string(job.total) + ", " + std::to_string(per_task) + " per array task (docs/sweep.md, \"Slurm\").\n";
  s += "# Written by `gsim sweep --backend slurm`, which submits it and collects the results.\n";
  s += "#SBATCH --job-name=gsim-sweep-" + job.sweep_name + "\n";
  s += "#SBATCH --array=0-" + std::to_string(tasks - 1) +
       (opt.array_max > 0 ? "%" + std::to_string(opt.array_max) : std::string()) + "\n";
  s += "#SBATCH --output=" + escape_percent(slurm_dir) + "/%A_%a.out\n";  // a '%' of --out is no pattern
  s += "#SBATCH --chdir=" + job.work_dir + "\n";
  s += "#SBATCH --ntasks=1\n";
  s += "#SBATCH --cpus-per-task=1\n";
  if (!opt.partition.empty()) s += "#SBATCH --partition=" + opt.partition + "\n";
  if (!opt.time_limit.empty()) s += "#SBATCH --time=" + opt.time_limit + "\n";
  s += "set -u\n";
  s += "# the plan indices (gsim sweep --list order) each task runs; runs already done are skipped\n";
  s += "RUNS=(\n";
  for (uint32_t t = 0; t < tasks; ++t) {
    s += "  ";
    for (size_t i = size_t{t} * per_task; i < std::min(job.pending.size(), size_t{t + 1} * per_task); ++i)
      s += (i == size_t{t} * per_task ? "" : ",") + std::to_string(job.pending[i]);
    s += "\n";
  }
  s += ")\n";
  s += "exec " + shell_line(job.program, {"sweep", job.sweep_file, "--out", job.out_dir, "--quiet"}) +
       " --run-index \"${RUNS[$SLURM_ARRAY_TASK_ID]}\"\n";
  return s;
}

std::string find_on_path(const std::string& name) {
  const char* path = std::getenv("PATH");
  if (path == nullptr) return {};
  std::string dirs = path;
  size_t pos = 0;
  while (pos <= dirs.size()) {
    const size_t end = std::min(dirs.find(':', pos), dirs.size());
    const std::string dir = end > pos ? dirs.substr(pos, end - pos) : ".";
    const std::string candidate = dir + "/" + name;
    if (::access(candidate.c_str(), X_OK) == 0 && std::filesystem::is_regular_file(candidate))
      return std::filesystem::absolute(candidate).string();
    pos = end + 1;
  }
  return {};
}

int run_tool(const std::vector<std::string>& argv_s, const std::string& scratch_dir, std::string& out,
             std::string& err) {
  const std::string out_path = scratch_dir + "/.tool.stdout", err_path = scratch_dir + "/.tool.stderr";
  std::vector<char*> argv;
  std::vector<std::string> copy = argv_s;
  for (std::string& a : copy) argv.push_back(a.data());
  argv.push_back(nullptr);
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&fa, 1, out_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_addopen(&fa, 2, err_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  pid_t pid = -1;
  const int rc = posix_spawn(&pid, argv_s[0].c_str(), &fa, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&fa);
  if (rc != 0) throw gs::InputError("sweep: cannot start " + argv_s[0] + ": " + std::strerror(rc));
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  auto slurp = [](const std::string& p) {
    std::string text;
    try {
      text = gs::read_text_file(p);
    } catch (const gs::InputError&) {
    }
    std::error_code ec;
    std::filesystem::remove(p, ec);
    return text;
  };
  out = slurp(out_path);
  err = slurp(err_path);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

std::string submit(const std::string& sbatch, const std::string& script, const std::string& scratch_dir) {
  std::string out, err;
  const int rc = run_tool({sbatch, "--parsable", script}, scratch_dir, out, err);
  if (rc != 0) throw gs::InputError("sbatch refused " + script + " (exit " + std::to_string(rc) + "):\n" + trim(err));
  // --parsable prints "jobid" or "jobid;cluster"
  const std::string id = trim(out.substr(0, out.find(';')));
  if (id.empty() ||
      !std::all_of(id.begin(), id.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); }))
    throw gs::InputError("sbatch printed no job id for " + script + ": \"" + trim(out) + "\" " + trim(err));
  return id;
}

bool wait_for_job(const std::string& job_id, const std::string& scratch_dir, unsigned poll_ms,
                  const std::function<void()>& progress) {
  const std::string squeue = find_on_path("squeue");
  if (squeue.empty()) throw gs::InputError("squeue is not on PATH: cannot follow Slurm job " + job_id);
  auto last_warning = std::chrono::steady_clock::time_point{};
  for (;;) {
    std::string out, err;
    const int rc = run_tool({squeue, "-h", "-j", job_id, "-o", "%i"}, scratch_dir, out, err);
    progress();
    if (rc == 0 && trim(out).empty()) return true;                                // no task left in the queue
    if (rc != 0 && err.find("Invalid job id") != std::string::npos) return true;  // ended and purged
    if (rc != 0 && std::chrono::steady_clock::now() - last_warning > std::chrono::minutes(1)) {
      std::fprintf(stderr, "gsim: warning: squeue -j %s failed (exit %d), retrying: %s\n", job_id.c_str(), rc,
                   trim(err).c_str());
      last_warning = std::chrono::steady_clock::now();
    }
    for (unsigned waited = 0; waited < poll_ms; waited += 50) {
      if (interrupted()) return false;
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
  }
}

}  // namespace gsim::sweep
