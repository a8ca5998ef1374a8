// gsim sweep: runs every combination a sweep file describes, locally, in parallel, resumably
// (reference: docs/sweep.md).
//
// --backend slurm submits the pending runs as a Slurm job array whose tasks run
// `gsim sweep F --run-index I,J,...` (sweep_slurm.cpp), waits for it and collects the same way.
//
// Steps: load and validate the whole sweep file (sweep_plan.cpp; exit 2 before anything runs),
// write the generated mixes, skip runs whose result already records the same inputs,
// run the others as child `gsim run` processes (sweep_runner.cpp), then write results.csv
// and failures.txt. Exit 0 when every run succeeded, kExitRunsFailed when some failed, 130
// when interrupted (completed results are kept, temporaries removed).
#include <fcntl.h>
#include <sched.h>
#include <sys/file.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <cerrno>
#include <cctype>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <cstdio>
#include <filesystem>
#include <map>
#include <set>
#include <signal.h>

#include <nlohmann/json.hpp>

#include "commands.hpp"
#include "common/error.hpp"
#include "common/output_file.hpp"
#include "config/json_reader.hpp"
#include "sweep_plan.hpp"
#include "sweep_runner.hpp"
#include "sweep_slurm.hpp"

namespace gsim {

namespace {

namespace fs = std::filesystem;
using sweep::Run;

struct SweepArgs {
  std::string file, out, backend = "local", run_index;
  unsigned jobs = 0;
  bool list = false, quiet = false, dry_run = false;
  sweep::SlurmOptions slurm;
  CLI::Option *o_jobs = nullptr, *o_out = nullptr, *o_run_index = nullptr;
  std::vector<CLI::Option*> slurm_only;  // options that mean something with --backend slurm only
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
  if (n <= 0)
    throw gs::InputError("sweep: cannot find the gsim binary (/proc/self/exe): " + std::string(std::strerror(errno)));
  return std::string(buf, static_cast<size_t>(n));
}

std::string hex64(uint64_t v) {
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(v));
  return buf;
}

/// Fingerprint of what a run reads: the gsim version that runs it, its arguments and the bytes
/// of its input files (each length-prefixed, so no two different input sets concatenate to the
/// same bytes).
std::string inputs_fingerprint(const Run& run, std::map<std::string, std::string>& file_cache) {
  uint64_t h = sweep::kFnvOffset;
  auto add = [&h](const std::string& bytes) {
    h = sweep::fnv1a64(std::to_string(bytes.size()) + ":", h);
    h = sweep::fnv1a64(bytes, h);
  };
  static const std::string version = version_string();
  add(version);
  for (const std::string& a : run.args) add(a);
  for (const std::string& f : run.input_files) {
    auto it = file_cache.find(f);
    if (it == file_cache.end()) it = file_cache.emplace(f, gs::read_text_file(f)).first;
    add(it->second);
  }
  return hex64(h);
}

/// True if `path` holds a result whose "sweep_inputs" match `run` and `fingerprint`.
// The keys of a result that results.csv takes, per run and per kernel, in its column order.
constexpr const char* kCsvRunKeys[] = {"config", "mix", "policy", "preempt", "seed", "sm_sharing"};
constexpr const char* kCsvKernelKeys[] = {"name", "arrival_cycle", "priority", "cycles_alone", "cycles_shared", "ntt"};
constexpr const char* kCsvRunTailKeys[] = {"stp", "antt", "strictf", "cycles"};
// The same for a fixed-window mix's result (windows.csv): figures over the window, no turnarounds.
constexpr const char* kWinRunKeys[] = {"config", "mix", "policy", "preempt", "seed", "sm_sharing", "window_cycles"};
constexpr const char* kWinKernelKeys[] = {"name",         "arrival_cycle",      "priority", "launches",  "completions",
                                          "instructions", "instructions_alone", "ipc",      "ipc_alone", "ntt"};
constexpr const char* kWinRunTailKeys[] = {"ipc", "antt_sbm", "antt", "stp", "strictf"};
// The same for a process mix's result (processes.csv): one row per process.
constexpr const char* kProcRowKeys[] = {
    "name", "priority", "runs", "completed", "mean_alone", "mean_shared", "mean_shared_first_runs", "ntt"};

/// The table a result goes to: a fixed-window result (gsim run --json of a mix with
/// window_cycles) to windows.csv, a process mix's to processes.csv, any other to results.csv.
enum class Table { kResults, kWindows, kProcesses };
Table table_of(const nlohmann::json& doc) {
  if (doc.contains("processes")) return Table::kProcesses;
  return doc.contains("window_cycles") ? Table::kWindows : Table::kResults;
}

/// The type a results.csv / windows.csv key must have in a result: names are non-empty strings,
/// counts and cycles whole numbers, figures numbers (or null, a ratio without a value).
bool key_has_its_type(const std::string& key, const nlohmann::json& v) {
  static const std::set<std::string> strings = {"config", "mix", "policy", "preempt", "sm_sharing", "name"};
  static const std::set<std::string> whole = {
      "seed",     "window_cycles", "arrival_cycle", "priority",           "cycles_alone", "cycles_shared", "cycles",
      "launches", "completions",   "instructions",  "instructions_alone", "runs",         "completed"};
  if (strings.count(key)) return v.is_string() && !v.get_ref<const std::string&>().empty();
  if (whole.count(key)) return v.is_number_unsigned() || (v.is_number_integer() && v.get<int64_t>() >= 0);
  return v.is_number() || v.is_null();  // null: how JSON writes a ratio without a value (x/0)
}

/// `rows`: the array with one CSV row per element ("kernels", or "processes" for a process mix).
template <size_t R, size_t K, size_t T>
bool has_keys(const nlohmann::json& doc, const char* const (&run)[R], const char* const (&kernel)[K],
              const char* const (&tail)[T], const char* rows = "kernels") {
  for (const char* k : run)
    if (!doc.contains(k) || !key_has_its_type(k, doc.at(k))) return false;
  for (const char* k : tail)
    if (!doc.contains(k) || !key_has_its_type(k, doc.at(k))) return false;
  if (!doc.contains(rows) || !doc.at(rows).is_array() || doc.at(rows).empty()) return false;
  for (const nlohmann::json& kn : doc.at(rows)) {
    if (!kn.is_object()) return false;
    for (const char* k : kernel)
      if (!kn.contains(k) || !key_has_its_type(k, kn.at(k))) return false;
  }
  // the per-kernel counters columns: optional, but numbers where given
  if (doc.contains("counters")) {
    const nlohmann::json& c = doc.at("counters");
    if (!c.is_object()) return false;
    if (c.contains("kernels")) {
      if (!c.at("kernels").is_array()) return false;
      for (const nlohmann::json& kn : c.at("kernels")) {
        if (!kn.is_object()) return false;
        for (const char* group : {"all", "alone"}) {
          if (!kn.contains(group)) continue;
          const nlohmann::json& all = kn.at(group);
          if (!all.is_object()) return false;
          for (const char* k : {"ipc", "thread_ipc", "l1_hit_rate", "l2_hit_rate", "dram_share_of_peak"})
            if (all.contains(k) && !all.at(k).is_number() && !all.at(k).is_null()) return false;
          if (all.contains("stall_shares")) {
            if (!all.at("stall_shares").is_object()) return false;
            for (const auto& [k, v] : all.at("stall_shares").items())
              if (!v.is_number() && !v.is_null()) return false;
          }
        }
      }
    }
  }
  return true;
}

/// True when the result holds every key its table (results.csv, windows.csv or processes.csv)
/// takes (one written by an older gsim may not).
bool has_csv_keys(const nlohmann::json& doc) {
  switch (table_of(doc)) {
    case Table::kWindows: return has_keys(doc, kWinRunKeys, kWinKernelKeys, kWinRunTailKeys);
    case Table::kProcesses: return has_keys(doc, kCsvRunKeys, kProcRowKeys, kCsvRunTailKeys, "processes");
    case Table::kResults: break;
  }
  return has_keys(doc, kCsvRunKeys, kCsvKernelKeys, kCsvRunTailKeys);
}

bool result_is_current(const std::string& path, const Run& run, const std::string& fingerprint) {
  std::error_code ec;
  if (!fs::is_regular_file(path, ec)) return false;
  try {
    const nlohmann::json doc = nlohmann::json::parse(gs::read_text_file(path));
    const nlohmann::json& in = doc.at("sweep_inputs");
    return in.at("args") == nlohmann::json(run.args) && in.at("inputs_fnv1a64") == fingerprint && has_csv_keys(doc);
  } catch (const std::exception&) {  // torn by hand, not JSON, no sweep_inputs: run it again
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

/// The marker of a sweep's output directory (docs/sweep.md, "Output directory").
constexpr const char* kMarker = ".gsim-sweep";

/// What a sweep writes at the top of its output directory (and an older gsim's sweep wrote).
bool sweep_entry(const std::string& name) {
  static const std::set<std::string> ours = {"runs",          "mixes",        "slurm", "results.csv", "windows.csv",
                                             "processes.csv", "failures.txt", ".lock", kMarker};
  if (ours.count(name)) return true;
  for (const char* f :
       {"results.csv", "windows.csv", "processes.csv", "failures.txt", kMarker})  // write_file_atomically's temporaries
    if (name.rfind("." + std::string(f) + ".tmp-", 0) == 0) return true;
  return false;
}

/// Takes `out_dir` for the sweep, or refuses it: a new or empty directory is made ours (the
/// marker), one with the marker is ours, one an older gsim's sweep made (.lock, runs/ and only a
/// sweep's files) is marked and taken. Anything else -- a directory of other results -- is exit
/// 2 before anything in it is written or removed.
void claim_out_dir(const std::string& out_dir, const std::string& sweep_name) {
  std::error_code ec;
  const std::string marker = out_dir + "/" + kMarker;
  if (fs::exists(out_dir, ec)) {
    if (!fs::is_directory(out_dir, ec)) throw gs::InputError("--out " + out_dir + ": exists and is not a directory");
    if (fs::is_regular_file(marker, ec)) return;
    const bool older_sweep = fs::is_regular_file(out_dir + "/.lock", ec) && fs::is_directory(out_dir + "/runs", ec);
    bool empty = true;
    std::string foreign;
    fs::directory_iterator it(out_dir, ec);
    if (ec) throw gs::InputError("--out " + out_dir + ": cannot read the directory: " + ec.message());
    for (; it != fs::directory_iterator(); it.increment(ec)) {
      const std::string name = it->path().filename().string();
      if (name == kMarker) return;  // marked since the check above (another process of the sweep)
      if (name.rfind("." + std::string(kMarker) + ".tmp-", 0) == 0) continue;  // another process marking it now
      empty = false;
      if (!sweep_entry(name) && foreign.empty()) foreign = name;
    }
    if (!empty && (!older_sweep || !foreign.empty()) && !fs::is_regular_file(marker, ec))
      throw gs::InputError("--out " + out_dir + ": the directory exists and was not made by gsim sweep (it has no " +
                           kMarker + (foreign.empty() ? std::string() : " and holds " + foreign) +
                           "); a sweep would replace its results.csv: give a new or empty directory");
  }
  make_dir(out_dir);
  gs::write_file_atomically("sweep marker", marker, "gsim sweep " + sweep_name + "\n");
}

/// True when `pid` is a process of this machine other than this one.
bool other_live_process(long pid) {
  if (pid <= 0 || pid == static_cast<long>(::getpid())) return false;
  return ::kill(static_cast<pid_t>(pid), 0) == 0 || errno == EPERM;
}

/// Removes the temporaries a killed sweep may have left in <out>/runs, and nothing else: a
/// child's ".<run-id>.<pid>.part.json" / ".stderr" (unless that sweep process still lives),
/// an older gsim's ".<run-id>.part.json" / ".stderr", and a result's write_file_atomically
/// temporary ".<run-id>.json.tmp-XXXXXX".
void remove_stale_temporaries(const std::string& runs_dir) {
  std::error_code ec;
  for (const fs::directory_entry& e : fs::directory_iterator(runs_dir, ec)) {
    const std::string name = e.path().filename().string();
    if (name.size() < 2 || name[0] != '.' || !e.is_regular_file(ec)) continue;
    std::string stem;
    for (const std::string suffix : {sweep::kPartSuffix, sweep::kStderrSuffix})
      if (name.size() > suffix.size() + 1 && name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0)
        stem = name.substr(1, name.size() - suffix.size() - 1);
    if (!stem.empty()) {
      const size_t dot = stem.rfind('.');
      const std::string tail = dot == std::string::npos ? std::string() : stem.substr(dot + 1);
      if (!tail.empty() && tail.size() <= 10 && tail.find_first_not_of("0123456789") == std::string::npos &&
          other_live_process(std::stol(tail)))
        continue;  // a running sweep's (--run-index tasks share the directory)
      fs::remove(e.path(), ec);
    } else if (name.find(".json.tmp-") != std::string::npos) {
      fs::remove(e.path(), ec);
    }
  }
}

std::string csv_field(const std::string& s) {
  if (s.find_first_of(",\"\n") == std::string::npos) return s;
  std::string out = "\"";
  for (const char c : s) out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

std::string json_scalar(const nlohmann::json& v) { return v.is_string() ? v.get<std::string>() : v.dump(); }

/// The per-kernel counter columns appended to results.csv and windows.csv (docs/sweep.md): from
/// the result's counters.kernels[i].all (the shared run), then the same of .alone (its alone
/// run); a cell is empty where the result lacks the key.
constexpr const char* kCounterHeader =
    ",ipc_warp,ipc_thread,l1_hit_rate,l2_hit_rate,dram_share_of_peak,stall_memory_share,stall_dependency_share,"
    "stall_functional_unit_share,stall_idle_share,ipc_warp_alone,ipc_thread_alone,l1_hit_rate_alone,"
    "l2_hit_rate_alone,dram_share_of_peak_alone,stall_memory_share_alone,stall_dependency_share_alone,"
    "stall_functional_unit_share_alone,stall_idle_share_alone";

std::string counter_cells(const nlohmann::json& r, size_t i, const nlohmann::json& kernel) {
  const nlohmann::json* k = nullptr;
  if (r.contains("counters") && r.at("counters").contains("kernels")) {
    const nlohmann::json& ks = r.at("counters").at("kernels");
    if (i < ks.size() && ks[i].value("name", std::string()) == kernel.value("name", std::string())) k = &ks[i];
  }
  const auto cell = [](const nlohmann::json* obj, const char* key) {
    return obj != nullptr && obj->contains(key) ? "," + json_scalar(obj->at(key)) : std::string(",");
  };
  std::string out;
  for (const char* group : {"all", "alone"}) {
    const nlohmann::json* g = k != nullptr && k->contains(group) ? &k->at(group) : nullptr;
    for (const char* key : {"ipc", "thread_ipc", "l1_hit_rate", "l2_hit_rate", "dram_share_of_peak"})
      out += cell(g, key);
    const nlohmann::json* stalls = g != nullptr && g->contains("stall_shares") ? &g->at("stall_shares") : nullptr;
    for (const char* key : {"memory", "dependency", "functional_unit", "idle"}) out += cell(stalls, key);
  }
  return out;
}

/// One table of current results (docs/sweep.md): results.csv (run-to-completion mixes) and
/// windows.csv (fixed-window mixes) one row per kernel per run, with its counters;
/// processes.csv (process mixes) one row per process per run.
template <size_t R, size_t K, size_t T>
std::string format_table(const sweep::Plan& plan, const std::vector<std::string>& fingerprints, Table table,
                         const char* header, const char* const (&run_keys)[R], const char* const (&kernel_keys)[K],
                         const char* const (&tail_keys)[T]) {
  const bool per_kernel = table != Table::kProcesses;
  std::string out = std::string(header) + (per_kernel ? kCounterHeader : "") + "\n";
  for (size_t i = 0; i < plan.runs.size(); ++i) {
    const Run& run = plan.runs[i];
    const std::string path = plan.out_dir + "/runs/" + run.id + ".json";
    if (!result_is_current(path, run, fingerprints[i])) continue;
    const nlohmann::json r = nlohmann::json::parse(gs::read_text_file(path));
    if (table_of(r) != table) continue;
    std::string head = csv_field(run.id);
    for (const char* k : run_keys) head += "," + csv_field(json_scalar(r.at(k)));
    std::string tail;
    for (const char* k : tail_keys) tail += "," + json_scalar(r.at(k));
    const nlohmann::json& rows = r.at(per_kernel ? "kernels" : "processes");
    for (size_t k = 0; k < rows.size(); ++k) {
      out += head;
      for (const char* key : kernel_keys) out += "," + csv_field(json_scalar(rows[k].at(key)));
      out += tail + (per_kernel ? counter_cells(r, k, rows[k]) : "") + "\n";
    }
  }
  return out;
}

/// results.csv and, when the sweep has fixed-window mixes, windows.csv; with process mixes,
/// processes.csv.
void write_tables(const sweep::Plan& plan, const std::vector<std::string>& fingerprints) {
  write_if_changed("results.csv", plan.out_dir + "/results.csv",
                   format_table(plan, fingerprints, Table::kResults,
                                "run_id,config,mix,policy,preempt,seed,sm_sharing,kernel,arrival,priority,cycles_alone,"
                                "cycles_shared,ntt,stp,antt,strictf,cycles",
                                kCsvRunKeys, kCsvKernelKeys, kCsvRunTailKeys));
  if (plan.has_window_mixes)
    write_if_changed(
        "windows.csv", plan.out_dir + "/windows.csv",
        format_table(plan, fingerprints, Table::kWindows,
                     "run_id,config,mix,policy,preempt,seed,sm_sharing,window_cycles,kernel,arrival,priority,"
                     "launches,completions,instructions,instructions_alone,ipc,ipc_alone,ntt,mix_ipc,"
                     "antt_sbm,antt,stp,strictf",
                     kWinRunKeys, kWinKernelKeys, kWinRunTailKeys));
  if (plan.has_process_mixes)
    write_if_changed("processes.csv", plan.out_dir + "/processes.csv",
                     format_table(plan, fingerprints, Table::kProcesses,
                                  "run_id,config,mix,policy,preempt,seed,sm_sharing,process,priority,runs,completed,"
                                  "mean_alone,mean_shared,mean_shared_first_runs,ntt,stp,antt,strictf,cycles",
                                  kCsvRunKeys, kProcRowKeys, kCsvRunTailKeys));
}

std::string format_failures(const std::vector<sweep::Failure>& failures) {
  std::string out;
  for (const sweep::Failure& f : failures) {
    out += "run " + f.id + ": " + (f.reason.empty() ? "exit " + std::to_string(f.exit_code) : f.reason) +
           "\n  command: " + f.command + "\n";
    if (!f.stderr_tail.empty()) {
      out += f.reason.empty() ? "  stderr (last lines):\n" : "  task output:\n";
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

/// Refuses to replace a file at a generated mix's path that gsim sweep did not generate (a mix
/// put there by hand): a generated mix's first note says so.
void refuse_foreign_mix(const sweep::GeneratedMix& m) {
  std::error_code ec;
  if (!fs::exists(m.path, ec)) return;
  bool ours = false;
  try {
    const std::string text = gs::read_text_file(m.path);
    if (text == m.text) return;
    const nlohmann::json doc = nlohmann::json::parse(text);
    ours = doc.at("notes").at(0).get<std::string>().rfind("Generated by gsim sweep", 0) == 0;
  } catch (const std::exception&) {
  }
  if (!ours)
    throw gs::InputError("--out: " + m.path +
                         " exists and was not generated by gsim sweep; the sweep would replace "
                         "it with its generated mix " +
                         m.name + ": move that file or give another --out");
}

/// The output directory made ready for runs, and what is left to do.
struct Prepared {
  std::string runs_dir;
  std::vector<std::string> fingerprints;  // per plan run
  std::vector<uint32_t> pending;          // plan indices of the runs without a current result
};

/// Makes <out>/runs, takes the directory's lock, writes the generated mixes, removes stale
/// temporaries and finds the runs that have no current result.
Prepared prepare_out_dir(const sweep::Plan& plan) {
  Prepared p;
  p.runs_dir = plan.out_dir + "/runs";
  claim_out_dir(plan.out_dir, plan.name);
  make_dir(p.runs_dir);
  lock_out_dir(plan.out_dir);
  if (!plan.generated_mixes.empty()) make_dir(plan.out_dir + "/mixes");
  for (const sweep::GeneratedMix& m : plan.generated_mixes) refuse_foreign_mix(m);
  for (const sweep::GeneratedMix& m : plan.generated_mixes) write_if_changed("generated mix", m.path, m.text);
  remove_stale_temporaries(p.runs_dir);
  std::map<std::string, std::string> file_cache;
  for (uint32_t i = 0; i < plan.runs.size(); ++i) {
    p.fingerprints.push_back(inputs_fingerprint(plan.runs[i], file_cache));
    if (!result_is_current(p.runs_dir + "/" + plan.runs[i].id + ".json", plan.runs[i], p.fingerprints.back()))
      p.pending.push_back(i);
  }
  return p;
}

/// results.csv (windows.csv) and failures.txt from every current result, then the closing line; the exit code.
/// ", windows.csv" and " and processes.csv" for the closing line, as the sweep has them.
std::string other_tables(const sweep::Plan& plan) {
  std::string out;
  if (plan.has_window_mixes) out += " and " + plan.out_dir + "/windows.csv";
  if (plan.has_process_mixes) out += " and " + plan.out_dir + "/processes.csv";
  return out;
}

int finish(const SweepArgs& a, const sweep::Plan& plan, const Prepared& p, uint32_t ran,
           const std::vector<sweep::Failure>& failures) {
  const uint32_t already = static_cast<uint32_t>(plan.runs.size() - p.pending.size());
  write_tables(plan, p.fingerprints);
  const std::string failures_path = plan.out_dir + "/failures.txt";
  if (failures.empty()) {
    std::error_code ec;
    fs::remove(failures_path, ec);
  } else {
    gs::write_file_atomically("failures.txt", failures_path, format_failures(failures));
  }
  if (!a.quiet || !failures.empty())
    std::fprintf(stderr, "gsim: sweep %s: %u ran, %u already done, %zu failed%s; %s/results.csv%s\n", plan.name.c_str(),
                 ran, already, failures.size(), failures.empty() ? "" : (" (listed in " + failures_path + ")").c_str(),
                 plan.out_dir.c_str(), other_tables(plan).c_str());
  return failures.empty() ? 0 : kExitRunsFailed;
}

[[noreturn]] void throw_interrupted(const sweep::Plan& plan, const Prepared& p, uint32_t ran, const std::string& what) {
  const size_t have = plan.runs.size() - p.pending.size() + ran;
  throw gs::Interrupted("sweep " + plan.name + " interrupted: " + std::to_string(have) + " of " +
                        std::to_string(plan.runs.size()) + " runs have results; " + what +
                        "; run the same command again to resume");
}

/// --run-index I,J,...: runs those runs of the plan (an array task of the Slurm backend) with
/// the local runner, skipping those already done. No lock (the submitting sweep holds it), no
/// results.csv (it writes that): exit 0, or kExitRunsFailed with the failures on stderr.
int run_indexed(const SweepArgs& a, const sweep::Plan& plan, const std::string& program) {
  std::vector<const Run*> runs;
  std::vector<std::string> fingerprints;
  std::map<std::string, std::string> file_cache;
  const std::string runs_dir = plan.out_dir + "/runs";
  claim_out_dir(plan.out_dir, plan.name);
  make_dir(runs_dir);
  size_t pos = 0;
  while (pos <= a.run_index.size()) {
    const size_t end = std::min(a.run_index.find(',', pos), a.run_index.size());
    const std::string item = a.run_index.substr(pos, end - pos);
    pos = end + 1;
    char* rest = nullptr;
    const unsigned long i = std::strtoul(item.c_str(), &rest, 10);
    if (item.empty() || *rest != '\0' || i >= plan.runs.size())
      throw gs::InputError("--run-index: \"" + item + "\" is not a run of " + plan.file + " (0.." +
                           std::to_string(plan.runs.size() - 1) + ")");
    const Run& run = plan.runs[i];
    std::string fp = inputs_fingerprint(run, file_cache);
    if (result_is_current(runs_dir + "/" + run.id + ".json", run, fp)) continue;
    runs.push_back(&run);
    fingerprints.push_back(std::move(fp));
  }
  sweep::RunnerOptions opt;
  opt.program = program;
  opt.runs_dir = runs_dir;
  opt.jobs = a.o_jobs->count() ? a.jobs : 1;
  opt.quiet = true;
  opt.total = static_cast<uint32_t>(runs.size());
  const sweep::RunnerResult res = sweep::run_pending(plan.name, runs, fingerprints, opt);
  if (res.interrupted) throw gs::Interrupted("sweep " + plan.name + " --run-index " + a.run_index + " interrupted");
  return res.failures.empty() ? 0 : kExitRunsFailed;
}

int run_local(const SweepArgs& a, const sweep::Plan& plan, const std::string& program) {
  const unsigned jobs = a.o_jobs->count() ? a.jobs : std::min(256u, available_cpus());
  const Prepared p = prepare_out_dir(plan);
  const uint32_t already = static_cast<uint32_t>(plan.runs.size() - p.pending.size());
  if (!a.quiet)
    std::fprintf(stderr, "gsim: sweep %s: %zu runs, %u already done, %zu to run with %u jobs; results in %s\n",
                 plan.name.c_str(), plan.runs.size(), already, p.pending.size(), jobs, plan.out_dir.c_str());
  std::vector<const Run*> pending;
  std::vector<std::string> pending_fingerprints;
  for (const uint32_t i : p.pending) {
    pending.push_back(&plan.runs[i]);
    pending_fingerprints.push_back(p.fingerprints[i]);
  }
  sweep::RunnerOptions opt;
  opt.program = program;
  opt.runs_dir = p.runs_dir;
  opt.jobs = jobs;
  opt.quiet = a.quiet;
  opt.already_done = already;
  opt.total = static_cast<uint32_t>(plan.runs.size());
  const sweep::RunnerResult res = sweep::run_pending(plan.name, pending, pending_fingerprints, opt);
  if (res.interrupted) {
    write_tables(plan, p.fingerprints);
    throw_interrupted(plan, p, res.completed, "running children stopped, no temporary left");
  }
  return finish(a, plan, p, res.completed, res.failures);
}

std::string absolute(const std::string& path) { return fs::absolute(path).lexically_normal().string(); }

/// The part of a task's output about `run_id`: the runner's failure report for it, else (a
/// task killed by Slurm, e.g. at its time limit) the output's last lines.
std::string task_output_about(const std::string& path, const std::string& run_id) {
  std::string text;
  try {
    text = gs::read_text_file(path);
  } catch (const gs::InputError&) {
    return "(no output file " + path + ": the task never started, e.g. cancelled while pending)";
  }
  const size_t at = text.find("run " + run_id + " failed");
  if (at == std::string::npos) return sweep::stderr_summary(path, 8);
  const size_t line_start = text.rfind('\n', at);
  const size_t from = line_start == std::string::npos ? 0 : line_start + 1;
  const size_t next = text.find("\ngsim: sweep ", at);
  std::string part = text.substr(from, next == std::string::npos ? std::string::npos : next - from);
  while (!part.empty() && part.back() == '\n') part.pop_back();
  return part;
}

/// A Slurm job of an earlier sweep into this directory that is still queued or running ("" if none).
std::string earlier_job_still_queued(const std::string& slurm_dir) {
  const std::string id_file = slurm_dir + "/job_id";
  std::error_code ec;
  if (!fs::is_regular_file(id_file, ec)) return {};
  std::string id = gs::read_text_file(id_file);
  while (!id.empty() && std::isspace(static_cast<unsigned char>(id.back()))) id.pop_back();
  const std::string squeue = sweep::find_on_path("squeue");
  if (id.empty() || squeue.empty()) return {};
  std::string out, err;
  const int rc = sweep::run_tool({squeue, "-h", "-j", id, "-o", "%i"}, slurm_dir, out, err);
  return rc == 0 && out.find_first_not_of(" \n") != std::string::npos ? id : std::string();
}

int run_slurm(const SweepArgs& a, const sweep::Plan& plan, const std::string& program) {
  sweep::check_slurm_options(a.slurm);
  const std::string sbatch = a.dry_run ? std::string() : sweep::find_on_path("sbatch");
  if (!a.dry_run && sbatch.empty())
    throw gs::InputError("--backend slurm: sbatch is not on PATH (run on a Slurm login node, or use --dry-run to "
                         "write the script only)");
  const std::string slurm_dir = plan.out_dir + "/slurm";
  // before prepare_out_dir, which removes stale temporaries: an earlier job's tasks may be writing
  if (!a.dry_run)
    if (const std::string id = earlier_job_still_queued(slurm_dir); !id.empty())
      throw gs::InputError("--out " + plan.out_dir + ": Slurm job " + id +
                           " of an earlier sweep into this directory is still queued or running; wait for it or "
                           "cancel it (scancel " +
                           id + "), then run this command again");
  const Prepared p = prepare_out_dir(plan);
  make_dir(slurm_dir);
  const uint32_t already = static_cast<uint32_t>(plan.runs.size() - p.pending.size());
  if (p.pending.empty()) {
    if (!a.quiet)
      std::fprintf(stderr, "gsim: sweep %s: all %zu runs already done; nothing to submit\n", plan.name.c_str(),
                   plan.runs.size());
    return a.dry_run ? 0 : finish(a, plan, p, 0, {});
  }

  sweep::SlurmJob job;
  job.sweep_name = plan.name;
  job.program = program;
  job.sweep_file = absolute(plan.file);
  job.out_dir = absolute(plan.out_dir);
  job.work_dir = fs::current_path().string();
  job.pending = p.pending;
  job.total = static_cast<uint32_t>(plan.runs.size());
  for (const std::string* path : {&job.out_dir, &job.work_dir})
    if (path->find_first_of(" \t\n\"'") != std::string::npos)
      throw gs::InputError("--backend slurm: \"" + *path +
                           "\" holds a blank or a quote, which #SBATCH lines cannot "
                           "carry; give --out and run from a directory without them");
  const std::string script = job.out_dir + "/slurm/sweep.sbatch";
  gs::write_file_atomically("sbatch script", script, sweep::sbatch_script(job, a.slurm));
  const uint32_t per_task = sweep::runs_per_task(a.slurm, p.pending.size());
  const uint32_t tasks = sweep::task_of(p.pending.size() - 1, per_task) + 1;
  if (a.dry_run) {
    std::printf("%s\nsbatch --parsable %s\n", script.c_str(), script.c_str());
    if (!a.quiet)
      std::fprintf(stderr,
                   "gsim: sweep %s: %zu runs to run (%u already done) in %u array tasks; not submitted (--dry-run)\n",
                   plan.name.c_str(), p.pending.size(), already, tasks);
    return 0;
  }

  const std::string job_id = sweep::submit(sbatch, script, slurm_dir);
  gs::write_file_atomically("Slurm job id", slurm_dir + "/job_id", job_id + "\n");
  if (!a.quiet)
    std::fprintf(stderr,
                 "gsim: sweep %s: %zu runs, %u already done, %zu to run in Slurm job %s (%u array tasks); "
                 "results in %s\n",
                 plan.name.c_str(), plan.runs.size(), already, p.pending.size(), job_id.c_str(), tasks,
                 plan.out_dir.c_str());

  // progress: the pending runs that have a current result by now
  std::vector<bool> done(p.pending.size(), false);
  uint32_t ran = 0, printed = UINT32_MAX;
  const uint32_t step = std::max<uint32_t>(1, static_cast<uint32_t>(plan.runs.size() / 20));
  auto count_done = [&] {
    for (size_t k = 0; k < p.pending.size(); ++k) {
      if (done[k]) continue;
      const Run& run = plan.runs[p.pending[k]];
      if (result_is_current(p.runs_dir + "/" + run.id + ".json", run, p.fingerprints[p.pending[k]])) {
        done[k] = true;
        ++ran;
      }
    }
    if (!a.quiet && ran != printed &&
        (printed == UINT32_MAX || ran / step != printed / step || ran == p.pending.size())) {
      std::fprintf(stderr, "sweep %s: %u/%zu done (Slurm job %s)\n", plan.name.c_str(), already + ran, plan.runs.size(),
                   job_id.c_str());
      printed = ran;
    }
  };
  const bool ended = sweep::wait_for_job(job_id, slurm_dir, 1000, count_done);
  if (!ended) {
    if (const std::string scancel = sweep::find_on_path("scancel"); !scancel.empty()) {
      std::string out, err;
      if (sweep::run_tool({scancel, job_id}, slurm_dir, out, err) == 0) {
        std::error_code ec;
        fs::remove(slurm_dir + "/job_id", ec);  // cancelled: no longer blocks the directory
      }
    }
    write_tables(plan, p.fingerprints);
    throw_interrupted(plan, p, ran, "Slurm job " + job_id + " cancelled (scancel " + job_id + ")");
  }
  std::error_code ec;
  fs::remove(slurm_dir + "/job_id", ec);
  count_done();

  std::vector<sweep::Failure> failures;
  for (size_t k = 0; k < p.pending.size(); ++k) {
    if (done[k]) continue;
    const Run& run = plan.runs[p.pending[k]];
    const uint32_t task = sweep::task_of(k, per_task);
    const std::string task_out = slurm_dir + "/" + job_id + "_" + std::to_string(task) + ".out";
    sweep::Failure f;
    f.id = run.id;
    f.reason = "no result after Slurm job " + job_id + " ended (array task " + std::to_string(task) + ", output " +
               task_out + ")";
    f.command = sweep::shell_line(program, run.args);
    f.stderr_tail = task_output_about(task_out, run.id);
    std::fprintf(stderr, "gsim: sweep %s: run %s failed: %s: %s\n", plan.name.c_str(), f.id.c_str(), f.reason.c_str(),
                 f.command.c_str());
    failures.push_back(std::move(f));
  }
  return finish(a, plan, p, ran, failures);
}

int sweep_action(const SweepArgs& a) {
  if (a.o_out->count() && a.out.empty()) throw gs::InputError("--out: the directory name is empty");
  if (a.backend != "local" && a.backend != "slurm")
    throw gs::InputError("--backend: \"" + a.backend + "\" is not a backend (local, slurm)");
  if (a.backend != "slurm")
    for (const CLI::Option* o : a.slurm_only)
      if (o->count()) throw gs::InputError(o->get_name() + ": only with --backend slurm");
  for (const CLI::Option* o : a.slurm_only)
    if (o->count() && ((o->get_name() == "--time" && a.slurm.time_limit.empty()) ||
                       (o->get_name() == "--partition" && a.slurm.partition.empty())))
      throw gs::InputError(o->get_name() + ": the value is empty");
  if (a.backend == "slurm" && a.o_jobs->count())
    throw gs::InputError("--jobs: not with --backend slurm (each array task runs its runs one after another)");
  const sweep::Plan plan = sweep::load_sweep_plan(a.file, a.out);
  const std::string program = self_exe();
  if (a.list) {
    for (const Run& run : plan.runs) std::printf("%s\n", sweep::shell_line(program, run.args).c_str());
    return 0;
  }
  if (a.o_run_index->count()) {
    if (a.backend != "local") throw gs::InputError("--run-index: runs in an array task, not with --backend slurm");
    return run_indexed(a, plan, program);
  }
  return a.backend == "slurm" ? run_slurm(a, plan, program) : run_local(a, plan, program);
}
}  // namespace

Command add_sweep_command(CLI::App& top) {
  auto args = std::make_shared<SweepArgs>();
  CLI::App* app = top.add_subcommand("sweep",
                                     "Run every combination of a sweep file in parallel, resumably (docs/sweep.md)");
  app->add_option("file", args->file, "Sweep file (JSON, docs/sweep.md)")->required();
  args->o_jobs = app->add_option("-j,--jobs", args->jobs, "Runs at a time (default: the CPUs this process may use)")
                     ->check(whole_number(1, 256));
  args->o_out = app->add_option("--out", args->out,
                                "Output directory (default: sweep-results/<name> in the current directory)");
  app->add_flag("--list", args->list, "Print the expanded runs, one gsim command line each, and exit");
  app->add_flag("-q,--quiet", args->quiet, "No progress on stderr (failures still)");
  app->add_option("--backend", args->backend,
                  "Where the runs run: local (child processes, default) or slurm (a job array)");
  args->slurm_only = {
      app->add_option("--partition", args->slurm.partition, "Slurm partition (default: the cluster's)"),
      app->add_option("--time", args->slurm.time_limit, "Slurm time limit per array task, e.g. 01:00:00"),
      app->add_option("--array-max", args->slurm.array_max, "Array tasks running at once (%N; default: no limit)")
          ->check(whole_number(1, 1000000)),
      app->add_option("--chunk", args->slurm.chunk,
                      "Runs per array task (default: as few as keep the array within 1000 tasks)")
          ->check(whole_number(1, 100000000)),
      app->add_flag("--dry-run", args->dry_run,
                    "Write the sbatch script, print its path and the sbatch command; submit nothing"),
  };
  // internal: what a Slurm array task runs (docs/sweep.md, "Slurm")
  args->o_run_index = app->add_option("--run-index", args->run_index,
                                      "Run these runs of the plan (I,J,...) and nothing else")
                          ->group("");
  return {app, [args] { return sweep_action(*args); }};
}

}  // namespace gsim
