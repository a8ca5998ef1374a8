// gsched: workload mixes -- which kernels are launched, when, into which context, with which
// priority and DSS token budget (format: docs/workloads.md, "Mix files").
//
// {"name", "config", "notes", "window_cycles", "kernels": [{"kernel", "arrival_cycle" or "arrival_pct", "context",
// "priority", "tokens", "grid_ctas", "bypass"}]}. Entries keep their file order (ties in arrival are
// launched in that order). "window_cycles" (optional) selects the fixed-window method
// (Mix::window_cycles); every kernel must arrive inside the window. Each entry's descriptor is copied from the library into MixEntry::desc, with
// grid_ctas overridden when the entry gives one.
// Instead of "kernels" (and without a window): "processes": [{"name", "context", "priority", "tokens", "runs",
// "start_cycle", "kernels": [{"kernel", "grid_ctas", "host_gap_cycles"}]}] (MixProcess; each step becomes one
// entry of Mix::kernels, in process then step order).
#include <algorithm>
#include <cctype>
#include <optional>
#include <filesystem>

#include "common/error.hpp"
#include "config/gpu_config.hpp"
#include "config/json_reader.hpp"
#include "config/limits.hpp"
#include "workload/kernel_desc.hpp"

namespace gs {

using nlohmann::json;

namespace {

bool lower_case_equal(const std::string& a, const std::string& b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
         });
}

std::string mixes_dir() { return data_dir() + "/workloads/mixes"; }

// The same bound as arrival_cycle; in practice --max-cycles bounds a window (gs::Gpu checks it).
constexpr uint64_t kMaxWindowCycles = 1ull << 48;
// arrival_pct: up to 100 alone runtimes of the first kernel after its arrival.
constexpr uint32_t kMaxArrivalPct = 10000;

// "kernel": a library kernel's name, or a descriptor object of the mix's own (docs/workloads.md,
// "Describe your own kernel"), validated as the library's and named apart from them. Sets
// e.kernel; returns the inline descriptor, if any (resolve_desc() then finds the descriptor).
std::optional<KernelDesc> read_kernel_field(ObjectReader& r, const json& v, const std::string& file,
                                            const std::vector<KernelDesc>& lib, MixEntry& e) {
  r.require("kernel");
  std::optional<KernelDesc> inline_desc;
  if (const json* k = r.has("kernel") && v.at("kernel").is_object() ? r.object("kernel") : nullptr) {
    inline_desc = parse_kernel_desc(*k, file, r.field("kernel"), "inline");
    e.kernel = inline_desc->name;
    for (const KernelDesc& l : lib)
      if (lower_case_equal(l.name, e.kernel))
        r.fail("kernel", "inline kernel '" + e.kernel + "' has the name of a library kernel (" + l.suite +
                             "); give yours another name");
  } else {
    r.str("kernel", e.kernel);
  }
  return inline_desc;
}

// e.desc from the library (or the inline descriptor), with the entry's grid_ctas override.
void resolve_desc(ObjectReader& r, const std::optional<KernelDesc>& inline_desc, const std::vector<KernelDesc>& lib,
                  MixEntry& e) {
  try {
    e.desc = inline_desc ? *inline_desc : find_kernel(lib, e.kernel);
  } catch (const InputError& err) {
    r.fail("kernel", err.what());
  }
  if (e.grid_ctas != 0) e.desc.grid_ctas = e.grid_ctas;
}

MixEntry parse_entry(const json& v, const std::string& file, const std::string& path, uint32_t index,
                     const std::vector<KernelDesc>& lib) {
  ObjectReader r(v, file, path);
  MixEntry e;
  const std::optional<KernelDesc> inline_desc = read_kernel_field(r, v, file, lib, e);
  r.u64("arrival_cycle", e.arrival_cycle, 0, 1ull << 48);
  if (r.has("arrival_pct")) {
    if (r.has("arrival_cycle")) r.fail("arrival_pct", "give arrival_cycle or arrival_pct, not both");
    if (index == 0)
      r.fail("arrival_pct", "the first kernel is the one arrival_pct counts from (its alone runtime); give it "
                            "arrival_cycle");
    r.u32("arrival_pct", e.arrival_pct, 1, kMaxArrivalPct,
          "a percentage of the first kernel's alone runtime, at most 100 times over");
  }
  // Default: every launch in its own context (process), as in the papers' multiprogrammed runs.
  e.context = index;
  r.u32("context", e.context, 0, limits::kMaxContexts - 1, limits::kMaskReason);
  r.u32("priority", e.priority, 0, limits::kMaxPriority, limits::kFieldReason);
  r.u32("tokens", e.tokens, 0, limits::kMaxTokens, "DSS budgets are signed 16-bit counters (rtl/spec/gs_spec.toml)");
  if (r.has("grid_ctas")) r.u32("grid_ctas", e.grid_ctas, 1, limits::kMaxGridCtas, limits::kFieldReason);
  const int bypass = r.choice("bypass", bypass_level_names());
  if (bypass >= 0) e.bypass = static_cast<BypassLevel>(spec::kBypassLevelMembers[bypass].value);
  r.notes("notes");
  r.reject_unknown_keys({{"name", "the kernel is named by 'kernel'"},
                         {"arrival", "the launch time is 'arrival_cycle' (core cycles)"},
                         {"stream", "the command buffer is 'context'"}});
  resolve_desc(r, inline_desc, lib, e);
  return e;
}

// The same bound as arrival_cycle.
constexpr uint64_t kMaxProcessCycles = 1ull << 48;
// Runs a process must complete (Tanasic Sec. 4.1 uses 3); bounded so a typo cannot ask for a
// practically endless run.
constexpr uint32_t kMaxProcessRuns = 1000;

// processes[p]: its steps are appended to mix.kernels (context, priority and tokens the process's).
void parse_process(const json& v, const std::string& file, const std::string& path, uint32_t index,
                   const std::vector<KernelDesc>& lib, Mix& mix) {
  ObjectReader r(v, file, path);
  MixProcess p;
  r.require("name");
  r.str("name", p.name);
  p.context = index;  // each process its own command buffer by default (Tanasic Sec. 3.3)
  r.u32("context", p.context, 0, limits::kMaxContexts - 1, limits::kMaskReason);
  r.u32("priority", p.priority, 0, limits::kMaxPriority, limits::kFieldReason);
  r.u32("tokens", p.tokens, 0, limits::kMaxTokens, "DSS budgets are signed 16-bit counters (rtl/spec/gs_spec.toml)");
  r.u32("runs", p.runs, 1, kMaxProcessRuns,
        "the times the whole kernel sequence must complete (Tanasic Sec. 4.1 uses 3), 1..1000");
  r.u64("start_cycle", p.start_cycle, 0, kMaxProcessCycles);
  r.notes("notes");
  r.require("kernels");
  const json* steps = r.array("kernels");
  r.reject_unknown_keys({{"arrival_cycle", "a process starts at 'start_cycle'; its kernels follow one another"},
                         {"stream", "the command buffer is 'context'"},
                         {"repeat", "the times the sequence must complete is 'runs'"}});
  for (const MixProcess& other : mix.processes) {
    if (other.name == p.name) r.fail("name", "two processes named '" + p.name + "'; give each its own name");
    if (other.context == p.context)
      r.fail("context", "process '" + other.name + "' uses context " + std::to_string(p.context) +
                            " too; each process has its own command buffer (Tanasic Sec. 3.3)");
  }
  if (steps->empty()) r.fail("kernels", "a process launches at least one kernel");
  for (size_t i = 0; i < steps->size(); ++i) {
    const std::string step_path = r.field("kernels") + "[" + std::to_string(i) + "]";
    ObjectReader sr((*steps)[i], file, step_path);
    MixEntry e;
    const std::optional<KernelDesc> inline_desc = read_kernel_field(sr, (*steps)[i], file, lib, e);
    if (sr.has("grid_ctas")) sr.u32("grid_ctas", e.grid_ctas, 1, limits::kMaxGridCtas, limits::kFieldReason);
    uint64_t gap = 0;
    sr.u64("host_gap_cycles", gap, 0, kMaxProcessCycles,
           "host cycles before the launch (after the previous kernel finished, or the run started)");
    sr.notes("notes");
    sr.reject_unknown_keys({{"arrival_cycle",
                             "a process's kernel launches 'host_gap_cycles' after the one before it finished"},
                            {"context", "set on the process: every kernel of a process goes to its command buffer"},
                            {"priority", "set on the process"},
                            {"tokens", "set on the process"},
                            {"name", "the kernel is named by 'kernel'"}});
    resolve_desc(sr, inline_desc, lib, e);
    e.context = p.context;
    e.priority = p.priority;
    e.tokens = p.tokens;
    e.arrival_cycle = p.start_cycle;
    if (mix.kernels.size() >= limits::kMaxMixKernels)
      sr.fail("kernel", "more than " + std::to_string(limits::kMaxMixKernels) +
                            " kernels over all processes (each step is one kernel id, 8 bits, all ones = no kernel)");
    p.steps.push_back(static_cast<uint32_t>(mix.kernels.size()));
    p.host_gap_cycles.push_back(gap);
    mix.kernels.push_back(std::move(e));
  }
  mix.processes.push_back(std::move(p));
}

}  // namespace

std::string bypass_level_name(BypassLevel level) {
  for (const spec::EnumMember& m : spec::kBypassLevelMembers) {
    if (m.value != static_cast<uint32_t>(level)) continue;
    std::string name = m.member;
    const std::string prefix = "BYPASS_";
    if (name.rfind(prefix, 0) == 0) name.erase(0, prefix.size());
    for (char& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return name;
  }
  return "?";
}

std::vector<std::string> bypass_level_names() {
  std::vector<std::string> names;
  for (const spec::EnumMember& m : spec::kBypassLevelMembers)
    names.push_back(bypass_level_name(static_cast<BypassLevel>(m.value)));
  return names;
}

Mix single_kernel_mix(const KernelDesc& k) {
  Mix m;
  m.name = "kernel:" + k.name;
  m.config = k.preset;
  MixEntry e;
  e.kernel = k.name;
  e.desc = k;
  m.kernels.push_back(std::move(e));
  return m;
}

Mix load_mix(const std::string& path_or_name, const std::vector<KernelDesc>& lib) {
  if (path_or_name.empty()) throw InputError("mix name is empty; available mixes: " + join_names(list_mixes()));
  const bool is_path = looks_like_path(path_or_name);
  const std::string path = is_path ? path_or_name : mixes_dir() + "/" + path_or_name + ".json";
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) {
    const auto mixes = list_mixes();
    std::string msg = path_or_name + ": no such mix " + (is_path ? "file." : "(looked for " + path + ").");
    const auto close = closest_names(std::filesystem::path(path_or_name).stem().string(), mixes);
    if (!close.empty()) msg += " Did you mean " + join_names(close) + "?";
    msg += " Shipped mixes: " + (mixes.empty() ? std::string("none") : join_names(mixes));
    throw InputError(msg);
  }
  return parse_mix(parse_json_strict(read_text_file(path), path), path, lib);
}

Mix parse_mix(const json& doc, const std::string& path, const std::vector<KernelDesc>& lib) {
  ObjectReader r(doc, path, "");
  Mix mix;
  mix.file = path;
  mix.name = std::filesystem::path(path).stem().string();
  r.str("name", mix.name);
  r.str("config", mix.config);
  r.notes("notes");
  r.u64("window_cycles", mix.window_cycles, 1, kMaxWindowCycles,
        "the fixed-window method needs a window of at least one cycle (leave the key out to run each kernel once)");
  r.u64("window_start", mix.window_start, 0, kMaxWindowCycles,
        "the cycle the measured window opens (fixed-window method), at most the window's own limit");
  if (doc.is_object() && doc.contains("window_start") && mix.window_cycles == 0)
    r.fail("window_start", "goes with window_cycles (the fixed-window method); a mix without a window runs each "
                           "kernel once and has no window to open");
  const json* processes = r.array("processes");
  if (processes) {
    if (r.has("kernels"))
      r.fail("processes", "give 'kernels' (single launches) or 'processes' (kernel sequences over time), not both");
    r.reject_unknown_keys();
    if (mix.window_cycles != 0)
      r.fail("window_cycles", "a process mix is measured over its processes' runs (Tanasic Sec. 4.1), not a fixed "
                              "window; leave window_cycles out");
    if (processes->empty()) r.fail("processes", "a process mix needs at least one process");
    if (processes->size() > limits::kMaxContexts)
      r.fail("processes", std::to_string(processes->size()) + " processes; each needs its own context, at most " +
                              std::to_string(limits::kMaxContexts));
    for (size_t i = 0; i < processes->size(); ++i)
      parse_process((*processes)[i], path, "processes[" + std::to_string(i) + "]", static_cast<uint32_t>(i), lib, mix);
    return mix;
  }
  r.require("kernels");
  const json* kernels = r.array("kernels");
  r.reject_unknown_keys();
  if (kernels->empty()) r.fail("kernels", "a mix needs at least one kernel");
  if (kernels->size() > limits::kMaxMixKernels)
    r.fail("kernels", std::to_string(kernels->size()) + " launches; a mix holds at most " +
                          std::to_string(limits::kMaxMixKernels) + " (kernel ids are 8 bits, all ones = no kernel)");
  for (size_t i = 0; i < kernels->size(); ++i)
    mix.kernels.push_back(parse_entry((*kernels)[i], path, "kernels[" + std::to_string(i) + "]",
                                      static_cast<uint32_t>(i), lib));
  std::string field;
  if (const std::string why = window_problem(mix, field); !why.empty()) r.fail(field, why);
  return mix;
}

std::string window_problem(const Mix& mix, std::string& field) {
  if (mix.window_cycles == 0) return {};
  if (!mix.processes.empty()) {
    field = "window_cycles";
    return "a process mix is measured over its processes' runs (Tanasic Sec. 4.1), not over a fixed window";
  }
  for (size_t i = 0; i < mix.kernels.size(); ++i) {
    const MixEntry& e = mix.kernels[i];
    if (e.arrival_pct != 0) {
      field = "kernels[" + std::to_string(i) + "].arrival_pct";
      return "a fixed-window mix has no alone turnaround to take a percentage of; give arrival_cycle";
    }
    if (e.arrival_cycle >= mix.window_start + mix.window_cycles) {
      field = "window_cycles";
      return std::to_string(mix.window_cycles) + " cycles from cycle " + std::to_string(mix.window_start) +
             ": kernels[" + std::to_string(i) + "] arrives at cycle " + std::to_string(e.arrival_cycle) +
             ", after the window has ended (it would never run)";
    }
  }
  return {};
}

void override_window(Mix& mix, const WindowOverride& w, const std::string& source) {
  if (w.cycles == 0 && !w.start) return;
  const std::string name = mix.file.empty() ? mix.name : mix.file;
  if (!mix.processes.empty())  // before anything changes: the mix stays as loaded
    throw InputError(source + ": mix " + name +
                     " is a process mix, measured over its processes' runs (Tanasic Sec. 4.1), not a fixed window");
  if (w.cycles > kMaxWindowCycles || (w.start && *w.start > kMaxWindowCycles))
    throw InputError(source + ": a window of at most " + std::to_string(kMaxWindowCycles) + " cycles, opening by then");
  if (w.cycles == 0 && mix.window_cycles == 0)
    throw InputError(source + ": a window start goes with a window length; mix " + name +
                     " has no window_cycles, so give the window's length too");
  if (w.cycles != 0) mix.window_cycles = w.cycles;
  if (w.start) mix.window_start = *w.start;
  std::string field;
  if (const std::string why = window_problem(mix, field); !why.empty())
    throw InputError(source + ": mix " + name + ", " + field + ": " + why);
}

std::vector<std::string> list_mixes() { return json_stems_in(mixes_dir()); }

}  // namespace gs
