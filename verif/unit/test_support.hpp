// Helpers shared by the unit tests: a scratch directory, a scoped environment variable, mixes
// and a run's policy records read as Reports.
#pragma once
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <string>
#include <system_error>

#include "common/error.hpp"
#include "metrics/policy_report.hpp"
#include "workload/kernel_desc.hpp"

namespace gs::test {

/// A scratch directory, removed with everything in it when the object goes out of scope.
struct TempDir {
  std::filesystem::path path;
  explicit TempDir(const std::string& prefix = "gsched_test") {
    static int counter = 0;
    path = std::filesystem::temp_directory_path() /
           (prefix + "_" + std::to_string(::getpid()) + "_" + std::to_string(counter++));
    std::filesystem::create_directories(path);
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  /// Writes `text` to `name` (relative to the directory, subfolders created) and returns the path.
  std::string write(const std::string& name, const std::string& text) const {
    const auto p = path / name;
    std::filesystem::create_directories(p.parent_path());
    std::ofstream(p) << text;
    return p.string();
  }
};

/// Sets an environment variable for the scope of a test and restores it afterwards.
struct ScopedEnv {
  std::string name;
  bool had = false;
  std::string old;
  ScopedEnv(const std::string& n, const std::string& value) : name(n) {
    if (const char* v = std::getenv(n.c_str())) {
      had = true;
      old = v;
    }
    ::setenv(n.c_str(), value.c_str(), 1);
  }
  ~ScopedEnv() {
    if (had) ::setenv(name.c_str(), old.c_str(), 1);
    else ::unsetenv(name.c_str());
  }
  ScopedEnv(const ScopedEnv&) = delete;
  ScopedEnv& operator=(const ScopedEnv&) = delete;
};

/// Message of the gs::InputError `f` throws, or "" when it throws nothing.
inline std::string input_error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const gs::InputError& e) {
    return e.what();
  }
  return "";
}

inline bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

/// A fixed-window mix (Mix::window_cycles) of library kernels, all at cycle 0, kernel i in
/// context i, each with its library grid: the SBM and HeteroCore tests' task sets.
inline gs::Mix window_mix(const std::string& name, const std::vector<std::string>& kernels, uint64_t window) {
  const auto lib = gs::load_kernel_library();
  gs::Mix mix;
  mix.name = name;
  mix.window_cycles = window;
  for (size_t i = 0; i < kernels.size(); ++i) {
    gs::MixEntry e;
    e.kernel = kernels[i];
    e.desc = gs::find_kernel(lib, kernels[i]);
    e.grid_ctas = e.desc.grid_ctas;
    e.context = static_cast<uint32_t>(i);
    mix.kernels.push_back(e);
  }
  return mix;
}

/// The policy records of `kind` a run kept (RunResult::records), as Reports, in order.
inline std::vector<Report> reports_of_kind(const std::vector<PolicyRecord>& all, spec::ReportKind kind,
                                           const Mix& mix) {
  std::vector<Report> out;
  for (const PolicyRecord& r : all)
    if (r.kind == kind) out.push_back(report_of(r, mix));
  return out;
}
/// An int (or named) field of a report; -1 when it was not given.
inline int64_t int_field(const Report& r, const std::string& name) {
  const ReportValue& v = r.field(name);
  return std::holds_alternative<int64_t>(v) ? std::get<int64_t>(v) : -1;
}
/// Row `row` of a per_edge report's kernels table: column `col` as an int (-1: not given).
inline int64_t cell(const Report& r, size_t row, const std::string& col) {
  const ReportValue& v = r.rows("kernels").at(row).at(col);
  return std::holds_alternative<int64_t>(v) ? std::get<int64_t>(v) : -1;
}
/// The kernel (name) of row `row` of a per_edge report.
inline std::string row_kernel(const Report& r, size_t row) {
  return std::get<std::string>(r.rows("kernels").at(row).at("kernel"));
}

}  // namespace gs::test
