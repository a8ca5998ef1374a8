// gsched: the kernel library -- loading and validating kernel descriptor files
// (format: docs/workloads.md).
//
// One JSON file per suite in <data>/workloads/kernels/: {"suite", "source", "preset", "notes",
// "kernels": [ {descriptor}, ... ]}. Descriptor keys are the KernelDesc field names, plus
// "paper" (the paper's table row, kept for documentation and cross-checking tests only).
// Files are read in sorted name order and kernels keep their file order, so the library is
// the same vector on every run. Kernel names must be unique across all files.
#include <algorithm>
#include <cctype>
#include <set>

#include "common/error.hpp"
#include "config/gpu_config.hpp"
#include "config/json_reader.hpp"
#include "config/limits.hpp"
#include "workload/kernel_desc.hpp"

namespace gs {

using nlohmann::json;

namespace {

const std::vector<std::string>& pattern_names() {
  static const std::vector<std::string> names = {"streaming", "tiled", "random", "per_cta_ws"};
  return names;
}

const std::vector<std::string>& behaviour_names() {
  // The four classes of Warped-Slicer Fig. 3a; every stand-in is designed as one of them.
  static const std::vector<std::string> names = {"compute-nonsat", "compute-sat", "memory", "cache"};
  return names;
}

std::string lower_case(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return s;
}

// Names are used on command lines and in file names of results: keep them shell-safe.
bool valid_kernel_name(const std::string& n) {
  if (n.empty()) return false;
  return std::all_of(n.begin(), n.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '-' || c == '_' || c == '+';
  });
}

KernelDesc parse_kernel(const json& v, const std::string& file, const std::string& path, const std::string& suite,
                        const std::string& suite_source) {
  // The name goes into every later error message, so read it first.
  std::string name;
  if (v.is_object()) {
    const auto it = v.find("name");
    if (it != v.end() && it->is_string()) name = it->get<std::string>();
  }
  ObjectReader r(v, file, name.empty() ? path : path + " (" + name + ")");
  KernelDesc k;
  k.suite = suite;
  k.source = suite_source;
  r.require("name");
  r.str("name", k.name);
  if (!valid_kernel_name(k.name)) {
    r.fail("name", "'" + k.name + "' may only contain letters, digits and . - _ +");
  }
  r.str("source", k.source);
  r.require("behaviour");
  const int b = r.choice("behaviour", behaviour_names());
  k.behaviour = behaviour_names()[static_cast<size_t>(b)];
  r.any_object("paper");
  r.notes("notes");

  r.require("threads_per_cta");
  r.u32("threads_per_cta", k.threads_per_cta, 1, limits::kMaxSmThreads, limits::kFieldReason);
  r.u32("regs_per_thread", k.regs_per_thread, 1, 255);
  r.u32("shmem_per_cta", k.shmem_per_cta, 0, 1u << 30);
  r.require("grid_ctas");
  r.u32("grid_ctas", k.grid_ctas, 1, limits::kMaxGridCtas, limits::kFieldReason);

  r.u32("insts_per_warp", k.insts_per_warp, 1, 1u << 26);
  r.u32("cta_spread_pct", k.cta_spread_pct, 0, 100);
  r.u32("cta_work_cycle", k.cta_work_cycle, 0, 32);  // x insts_per_warp (< 2^26) stays below 2^31
  r.u32("sfu_permille", k.sfu_permille, 0, 1000);
  r.u32("ldst_permille", k.ldst_permille, 0, 1000);
  r.u32("shmem_permille", k.shmem_permille, 0, 1000);
  r.u32("shmem_conflict_ways", k.shmem_conflict_ways, 1, 32);
  r.u32("store_permille", k.store_permille, 0, 1000);
  r.u32("dep_distance", k.dep_distance, 1, 64);
  const int p = r.choice("pattern", pattern_names());
  if (p >= 0) k.pattern = static_cast<MemPattern>(p);
  r.u64("footprint_bytes", k.footprint_bytes, 128, 1ull << 40);
  r.u32("tile_bytes", k.tile_bytes, 128, 1u << 30);
  r.u32("ws_bytes", k.ws_bytes, 128, 1u << 30);
  r.u32("lines_per_access", k.lines_per_access, 1, 32);
  r.reject_unknown_keys({{"threads", "per-CTA threads are 'threads_per_cta'"},
                         {"regs", "registers per thread are 'regs_per_thread'"},
                         {"grid", "the number of CTAs is 'grid_ctas'"},
                         {"alu_permille", "ALU is the remainder: 1000 - sfu - ldst - shmem"}});

  const uint32_t mix = k.sfu_permille + k.ldst_permille + k.shmem_permille;
  if (mix > 1000) {
    r.fail("sfu_permille", "sfu_permille + ldst_permille + shmem_permille = " + std::to_string(mix) +
                               " exceeds 1000 (ALU instructions are the remainder)");
  }
  if (k.store_permille > 0 && k.ldst_permille == 0) {
    r.fail("store_permille", "stores are a share of the global ld/st instructions, but ldst_permille is 0");
  }
  return k;
}

std::vector<KernelDesc> parse_kernel_file(const std::string& text, const std::string& file) {
  const json doc = parse_json_strict(text, file);
  ObjectReader r(doc, file, "");
  std::string suite;
  std::string source;
  std::string preset;
  r.require("suite");
  r.str("suite", suite);
  r.str("source", source, true);
  r.str("preset", preset);
  r.notes("notes");
  r.require("kernels");
  const json* kernels = r.array("kernels");
  r.reject_unknown_keys();
  if (kernels->empty()) r.fail("kernels", "no kernels in this suite file");
  std::vector<KernelDesc> out;
  std::set<std::string> names;
  for (size_t i = 0; i < kernels->size(); ++i) {
    KernelDesc k = parse_kernel((*kernels)[i], file, "kernels[" + std::to_string(i) + "]", suite, source);
    k.preset = preset;
    if (!names.insert(k.name).second) {
      throw InputError(file, "kernels[" + std::to_string(i) + "].name", "kernel '" + k.name + "' defined twice");
    }
    out.push_back(std::move(k));
  }
  return out;
}

}  // namespace

KernelDesc parse_kernel_desc(const nlohmann::json& v, const std::string& file, const std::string& path,
                             const std::string& suite) {
  return parse_kernel(v, file, path, suite, file);
}

std::vector<KernelDesc> load_kernel_file(const std::string& path) {
  return parse_kernel_file(read_text_file(path), path);
}

std::vector<std::string> kernel_library_files(const std::vector<std::string>& user_files) {
  const std::string dir = data_dir() + "/workloads/kernels";
  const auto stems = json_stems_in(dir);
  if (stems.empty()) throw InputError(dir + ": no kernel descriptor files (*.json) found");
  std::vector<std::string> files;
  for (const auto& stem : stems) files.push_back(dir + "/" + stem + ".json");
  files.insert(files.end(), user_files.begin(), user_files.end());
  return files;
}

std::vector<KernelDesc> load_kernel_library(const std::vector<std::string>& user_files) {
  std::vector<KernelDesc> lib;
  std::vector<std::string> origin;  // file of each kernel, for duplicate messages
  for (const std::string& path : kernel_library_files(user_files)) {
    std::vector<KernelDesc> suite = load_kernel_file(path);
    for (size_t j = 0; j < suite.size(); ++j) {
      // Names are compared case-insensitively: "NN" and "nn" in two suites would be a trap.
      const std::string name = lower_case(suite[j].name);
      for (size_t i = 0; i < lib.size(); ++i) {
        if (lower_case(lib[i].name) == name) {
          throw InputError(path, "kernels[" + std::to_string(j) + "].name",
                           "kernel '" + suite[j].name + "' is already defined in " + origin[i] +
                               "; kernel names must be unique across all suite files");
        }
      }
      origin.push_back(path);
      lib.push_back(std::move(suite[j]));
    }
  }
  return lib;
}

const KernelDesc& find_kernel(const std::vector<KernelDesc>& lib, const std::string& name) {
  for (const auto& k : lib) {
    if (k.name == name) return k;
  }
  std::vector<std::string> names;
  names.reserve(lib.size());
  for (const auto& k : lib) names.push_back(k.name);
  std::string msg = "unknown kernel '" + name + "'";
  const auto close = closest_names(name, names);
  if (!close.empty()) msg += "; did you mean " + join_names(close) + "?";
  msg += " ('gsim list kernels' lists all " + std::to_string(lib.size()) + ")";
  throw InputError(msg);
}

}  // namespace gs
