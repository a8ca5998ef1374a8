// gsim sweep: runs every combination a sweep file describes, locally, in parallel, resumably
// (reference: docs/sweep.md).
//
// Steps: load and validate the whole sweep file (sweep_plan.cpp; exit 2 before anything runs),
// write the generated pair mixes, skip runs whose result already records the same inputs,
// run the others as child `gsim run` processes (sweep_runner.cpp), then write results.csv
// and failures.txt. Exit 0 when every run succeeded, kExitRunsFailed when some failed, 130
// when interrupted (completed results are kept, temporaries removed).
#include <fcntl.h>
#include <sched.h>
#include <sys/file.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <cerrno>
#include <climits>
#include <cstring>
#include <cstdio>
#include <filesystem>
#include <map>

#include <nlohmann/json.hpp>

#include "commands.hpp"
#include "common/error.hpp"
#include "common/output_file.hpp"
#include "config/json_reader.hpp"
#include "sweep_plan.hpp"
#include "sweep_runner.hpp"

namespace gsim {

namespace {

namespace fs = std::filesystem;
using sweep::Run;

struct SweepArgs {
  std::string file, out;
  unsigned jobs = 0;
  bool list = false, quiet = false;
  CLI::Option *o_jobs = nullptr, *o_out = nullptr;
};

unsigned available_cpus() {
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof set, &set) != 0) return 1;
  return static_cast<unsigned>(std::max(1, CPU_COUNT(&set)));
}

std::string self_exe() {
  char buf[PATH_MAX];
  const ssize_t n = ::readlink("/proc/self/exe", buf, sizeof buf - 1);
  if (n <= 0) throw gs::InputError("sweep: cannot find the gsim binary (/proc/self/exe): " + std::string(std::strerror(errno)));
  return std::string(buf, static_cast<size_t>(n));
}

std::string hex64(uint64_t v) {
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(v));
  return buf;
}

/// Fingerprint of what a run reads: its arguments and the bytes of its input files (each
/// length-prefixed, so no two different input sets concatenate to the same bytes).
std::string inputs_fingerprint(const Run& run, std::map<std::string, std::string>& file_cache) {
  uint64_t h = sweep::kFnvOffset;
  auto add = [&h](const std::string& bytes) {
    h = sweep::fnv1a64(std::to_string(bytes.size()) + ":", h);
    h = sweep::fnv1a64(bytes, h);
  };
  for (const std::string& a : run.args) add(a);
  for (const std::string& f : run.input_files) {
    auto it = file_cache.find(f);
    if (it == file_cache.end()) it = file_cache.emplace(f, gs::read_text_file(f)).first;
    add(it->second);
  }
  return hex64(h);
}

/// True if `path` holds a result whose "sweep_inputs" match `run` and `fingerprint`.
bool result_is_current(const std::string& path, const Run& run, const std::string& fingerprint) {
  std::error_code ec;
  if (!fs::is_regular_file(path, ec)) return false;
  try {
    const nlohmann::json doc = nlohmann::json::parse(gs::read_text_file(path));
    const nlohmann::json& in = doc.at("sweep_inputs");
    return in.at("args") == nlohmann::json(run.args) && in.at("inputs_fnv1a64") == fingerprint;
  } catch (const std::exception&) {   // torn by hand, not JSON, no sweep_inputs: run it again
    return false;
  }
}

/// Writes `text` to `path` (atomically) unless the file already holds exactly these bytes, so
/// a re-run leaves unchanged files untouched.
void write_if_changed(const std::string& what, const std::string& path, const std::string& text) {
  std::error_code ec;
  if (fs::is_regular_file(path, ec)) {
    try {
      if (gs::read_text_file(path) == text) return;
    } catch (const gs::InputError&) {
    }
  }
  gs::write_file_atomically(what, path, text);
}

void make_dir(const std::string& dir) {
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec || !fs::is_directory(dir, ec))
    throw gs::InputError("--out: cannot create the directory " + dir + (ec ? ": " + ec.message() : ""));
}

/// Holds an exclusive lock on <out>/.lock for the life of the sweep, so two sweeps never share
/// an output directory (the second would remove the first's temporaries). The kernel drops the
/// lock when the process ends, however it ends.
void lock_out_dir(const std::string& out_dir) {
  const std::string path = out_dir + "/.lock";
  const int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (fd < 0) throw gs::InputError("--out: cannot create " + path + ": " + std::strerror(errno));
  if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
    ::close(fd);
    throw gs::InputError("--out " + out_dir + ": another gsim sweep is using this directory (" + path +
                         " is locked); wait for it or give another --out");
  }
  // fd stays open (and locked) until exit
}

/// Removes the temporaries a killed sweep may have left: every dot file in <out>/runs.
void remove_stale_temporaries(const std::string& runs_dir) {
  std::error_code ec;
  for (const fs::directory_entry& e : fs::directory_iterator(runs_dir, ec)) {
    const std::string name = e.path().filename().string();
    if (!name.empty() && name[0] == '.' && e.is_regular_file(ec)) fs::remove(e.path(), ec);
  }
}

std::string csv_field(const std::string& s) {
  if (s.find_first_of(",\"\n") == std::string::npos) return s;
  std::string out = "\"";
  for (const char c : s) out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

std::string json_scalar(const nlohmann::json& v) { return v.is_string() ? v.get<std::string>() : v.dump(); }

/// results.csv: one row per kernel per current result of the sweep (docs/sweep.md).
std::string format_results_csv(const sweep::Plan& plan, const std::vector<std::string>& fingerprints) {
  std::string out =
      "run_id,config,mix,policy,preempt,seed,sm_sharing,kernel,arrival,cycles_alone,cycles_shared,ntt,stp,antt,"
      "strictf,cycles\n";
  for (size_t i = 0; i < plan.runs.size(); ++i) {
    const Run& run = plan.runs[i];
    const std::string path = plan.out_dir + "/runs/" + run.id + ".json";
    if (!result_is_current(path, run, fingerprints[i])) continue;
    const nlohmann::json r = nlohmann::json::parse(gs::read_text_file(path));
    std::string head = csv_field(run.id);
    for (const char* k : {"config", "mix", "policy", "preempt", "seed", "sm_sharing"})
      head += "," + csv_field(json_scalar(r.at(k)));
    std::string tail;
    for (const char* k : {"stp", "antt", "strictf", "cycles"}) tail += "," + json_scalar(r.at(k));
    for (const nlohmann::json& k : r.at("kernels"))
      out += head + "," + csv_field(k.at("name").get<std::string>()) + "," + json_scalar(k.at("arrival_cycle")) + "," +
             json_scalar(k.at("cycles_alone")) + "," + json_scalar(k.at("cycles_shared")) + "," +
             json_scalar(k.at("ntt")) + tail + "\n";
  }
  return out;
}

std::string format_failures(const std::vector<sweep::Failure>& failures) {
  std::string out;
  for (const sweep::Failure& f : failures) {
    out += "run " + f.id + ": exit " + std::to_string(f.exit_code) + "\n  command: " + f.command + "\n";
    if (!f.stderr_tail.empty()) {
      out += "  stderr (last lines):\n";
      size_t pos = 0;
      while (pos < f.stderr_tail.size()) {
        const size_t nl = f.stderr_tail.find('\n', pos);
        out += "    " + f.stderr_tail.substr(pos, nl == std::string::npos ? std::string::npos : nl - pos) + "\n";
        pos = nl == std::string::npos ? f.stderr_tail.size() : nl + 1;
      }
    }
  }
  return out;
}

int sweep_action(const SweepArgs& a) {
  if (a.o_out->count() && a.out.empty()) throw gs::InputError("--out: the directory name is empty");
  const sweep::Plan plan = sweep::load_sweep_plan(a.file, a.out);
  const std::string program = self_exe();
  if (a.list) {
    for (const Run& run : plan.runs) std::printf("%s\n", sweep::shell_line(program, run.args).c_str());
    return 0;
  }
  const unsigned jobs = a.o_jobs->count() ? a.jobs : std::min(256u, available_cpus());

  // ---- output directory, generated mixes, what is already done
  const std::string runs_dir = plan.out_dir + "/runs";
  make_dir(runs_dir);
  lock_out_dir(plan.out_dir);
  if (!plan.pair_mixes.empty()) make_dir(plan.out_dir + "/mixes");
  for (const sweep::PairMix& m : plan.pair_mixes) write_if_changed("pair mix", m.path, m.text);
  remove_stale_temporaries(runs_dir);

  std::map<std::string, std::string> file_cache;
  std::vector<std::string> fingerprints;
  std::vector<const Run*> pending;
  std::vector<std::string> pending_fingerprints;
  for (const Run& run : plan.runs) {
    fingerprints.push_back(inputs_fingerprint(run, file_cache));
    if (result_is_current(runs_dir + "/" + run.id + ".json", run, fingerprints.back())) continue;
    pending.push_back(&run);
    pending_fingerprints.push_back(fingerprints.back());
  }
  const uint32_t already = static_cast<uint32_t>(plan.runs.size() - pending.size());
  if (!a.quiet)
    std::fprintf(stderr, "gsim: sweep %s: %zu runs, %u already done, %zu to run with %u jobs; results in %s\n",
                 plan.name.c_str(), plan.runs.size(), already, pending.size(), jobs, plan.out_dir.c_str());

  // ---- the runs
  sweep::RunnerOptions opt;
  opt.program = program;
  opt.runs_dir = runs_dir;
  opt.jobs = jobs;
  opt.quiet = a.quiet;
  opt.already_done = already;
  opt.total = static_cast<uint32_t>(plan.runs.size());
  const sweep::RunnerResult res = sweep::run_pending(plan.name, pending, pending_fingerprints, opt);

  // ---- combined outputs, from every current result (also after a stop)
  write_if_changed("results.csv", plan.out_dir + "/results.csv", format_results_csv(plan, fingerprints));
  const std::string failures_path = plan.out_dir + "/failures.txt";
  if (res.interrupted)
    throw gs::Interrupted("sweep " + plan.name + " interrupted: " + std::to_string(already + res.completed) + " of " +
                          std::to_string(plan.runs.size()) +
                          " runs have results; running children stopped, no temporary left; run the same command "
                          "again to resume");
  if (res.failures.empty()) {
    std::error_code ec;
    fs::remove(failures_path, ec);
  } else {
    gs::write_file_atomically("failures.txt", failures_path, format_failures(res.failures));
  }
  if (!a.quiet || !res.failures.empty())
    std::fprintf(stderr, "gsim: sweep %s: %u ran, %u already done, %zu failed%s; %s/results.csv\n", plan.name.c_str(),
                 res.completed, already, res.failures.size(),
                 res.failures.empty() ? "" : (" (listed in " + failures_path + ")").c_str(), plan.out_dir.c_str());
  return res.failures.empty() ? 0 : kExitRunsFailed;
}

}  // namespace

Command add_sweep_command(CLI::App& top) {
  auto args = std::make_shared<SweepArgs>();
  CLI::App* app = top.add_subcommand("sweep", "Run every combination of a sweep file in parallel, resumably (docs/sweep.md)");
  app->add_option("file", args->file, "Sweep file (JSON, docs/sweep.md)")->required();
  args->o_jobs = app->add_option("-j,--jobs", args->jobs, "Runs at a time (default: the CPUs this process may use)")
                     ->check(whole_number(1, 256));
  args->o_out = app->add_option("--out", args->out, "Output directory (default: sweep-results/<name> in the current directory)");
  app->add_flag("--list", args->list, "Print the expanded runs, one gsim command line each, and exit");
  app->add_flag("-q,--quiet", args->quiet, "No progress on stderr (failures still)");
  return {app, [args] { return sweep_action(*args); }};
}

}  // namespace gsim
