// gsim list: the shipped configs, kernels and mixes, the policies and the scheduler kinds of
// this build, one per line with a short description; --names prints the bare names (for
// scripts: `for c in $(gsim list configs --names)`).
#include <CLI/CLI.hpp>
#include <cstdio>
#include <memory>
#include <utility>

#include "commands.hpp"
#include "metrics/oracle.hpp"
#include "metrics/ewm.hpp"
#include "metrics/hetero_static.hpp"
#include "metrics/pai_baselines.hpp"
#include "common/error.hpp"
#include "config/gpu_config.hpp"
#include "gs_spec.hpp"
#include "sched/scheduler_port.hpp"
#include "workload/kernel_desc.hpp"

namespace gsim {

namespace {

using Entry = std::pair<std::string, std::string>;   // name, description

std::string shorten(std::string s, size_t max = 90) {
  if (const auto cut = s.find("; see "); cut != std::string::npos) s.erase(cut);
  if (s.size() > max) s = s.substr(0, max - 3) + "...";
  return s;
}

/// A policy's line: its registry doc (rtl/spec/gs_spec.toml, the one source of truth), its
/// aliases, and whether it takes --sm-sharing.
std::string policy_description(const std::string& p) {
  for (const auto& info : gs::spec::kPolicies) {
    if (p != info.name) continue;
    std::string d = info.doc;
    if (*info.aliases) d += "; aliases " + std::string(info.aliases);
    if (info.sm_sharing) d += "; takes --sm-sharing";
    return d;
  }
  throw gs::InvariantError("gsim list: policy '" + p + "' is not in the registry");
}

std::string scheduler_description(const std::string& k) {
  if (k == "golden") return "C++ reference model of the scheduler RTL (no size limit of the RTL build)";
  if (k == "rtl") return "the Verilated scheduler RTL drives the GPU model";
  if (k == "lockstep") return "RTL drives the model, checked against golden every cycle (exit 3 on a mismatch)";
  return "scheduler implementation";
}

std::vector<Entry> entries_of(const std::string& what) {
  std::vector<Entry> out;
  if (what == "configs") {
    for (const std::string& n : gs::list_gpu_configs()) {
      std::string d;
      try {
        const gs::GpuConfig c = gs::load_gpu_config(n);
        d = std::to_string(c.num_sms()) + " SMs, " + std::to_string(c.core_clock_mhz) + " MHz; " + c.source;
      } catch (const gs::InputError& e) {
        d = std::string("(does not load: ") + e.what() + ")";
      }
      out.emplace_back(n, shorten(d));
    }
  } else if (what == "mixes") {
    const std::vector<gs::KernelDesc> lib = gs::load_kernel_library();
    for (const std::string& n : gs::list_mixes()) {
      std::string d;
      try {
        const gs::Mix m = gs::load_mix(n, lib);
        std::string ks;
        for (const gs::MixEntry& e : m.kernels) ks += (ks.empty() ? "" : " + ") + e.kernel;
        d = (m.config.empty() ? std::string("any config: ") : "for " + m.config + ": ") + ks;
      } catch (const gs::InputError& e) {
        d = std::string("(does not load: ") + e.what() + ")";
      }
      out.emplace_back(n, shorten(d));
    }
  } else if (what == "policies") {
    for (const std::string& p : gs::list_policies()) out.emplace_back(p, policy_description(p));
    out.emplace_back(gs::kOraclePolicy,
                     "Warped-Slicer's Oracle: the best of every static CTA combination per SM (exhaustive search over "
                     "golden left-over runs; C++ only, gsim run and sweep)");
    out.emplace_back(gs::kSjfPolicy,
                     "Pai et al.'s SJF: npq with priorities from the alone runtimes, shortest first (an oracle: the "
                     "runtimes are known before the run; any scheduler)");
    out.emplace_back(gs::kMpmaxPolicy,
                     "Pai et al.'s Just-in-Time MPMax: FIFO, each kernel capped to leave one CTA of every co-runner "
                     "room per SM (golden left-over with per-kernel caps; C++ only)");
    out.emplace_back(gs::kSrtfZsPolicy,
                     "Pai et al.'s zero-sampling SRTF: srtf given the alone runtimes instead of sampling and "
                     "predicting (an oracle; golden srtf, C++ only)");
    out.emplace_back(gs::kEwmPolicy,
                     "SBM's EWM baseline: mwg with the computation-intensive task and occ_th chosen from standalone "
                     "profiles of each task (golden, C++ only)");
    out.emplace_back("hetero-agnostic",
                     "HeteroCore's TLP-agnostic mapping: each of two kernels half of the big and half of the small SMs "
                     "(Sec. 4.1; golden, C++ only)");
    out.emplace_back("hetero-class",
                     "HeteroCore's classification: the thick-TLP kernel on the big SMs, the lean one on the small SMs, "
                     "from standalone profiles (Sec. 4.2.1; golden, C++ only)");
    out.emplace_back("hetero-stp",
                     "HeteroCore's STP-optimized static mapping: Algorithm 1 on standalone profiles (Sec. 4.2.2; "
                     "golden, C++ only)");
    out.emplace_back("hetero-balanced",
                     "HeteroCore's STP/ANTT-balanced static mapping: the even split when both kernels gain on big "
                     "SMs, else Algorithm 1 (Sec. 4.2.3; golden, C++ only)");
  } else if (what == "schedulers") {
    register_build_schedulers();
    for (const std::string& k : gs::list_scheduler_kinds())
      out.emplace_back(k, scheduler_description(k) + (k == default_scheduler_kind() ? " [default]" : ""));
  } else {   // "kernels"
    for (const gs::KernelDesc& k : gs::load_kernel_library())
      out.emplace_back(k.name, k.suite + ", " + k.behaviour + ", " + std::to_string(k.threads_per_cta) +
                                   " threads x " + std::to_string(k.grid_ctas) + " CTAs");
  }
  return out;
}

}  // namespace

Command add_list_command(CLI::App& top) {
  auto what = std::make_shared<std::string>();
  auto names_only = std::make_shared<bool>(false);
  CLI::App* app = top.add_subcommand("list", "List configs, kernels, mixes, policies or schedulers with a description");
  app->add_option("what", *what, "configs | kernels | mixes | policies | schedulers")
      ->required()
      ->check(CLI::IsMember({"configs", "kernels", "mixes", "policies", "schedulers"}));
  app->add_flag("--names", *names_only, "Names only, one per line (for scripts)");
  return {app, [what, names_only] {
            const std::vector<Entry> entries = entries_of(*what);
            size_t w = 0;
            for (const Entry& e : entries) w = std::max(w, e.first.size());
            for (const Entry& e : entries) {
              if (*names_only) std::printf("%s\n", e.first.c_str());
              else std::printf("%-*s  %s\n", int(w), e.first.c_str(), e.second.c_str());
            }
            return 0;
          }};
}

}  // namespace gsim
