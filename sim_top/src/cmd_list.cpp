// gsim list: the shipped configs, kernels and mixes, the policies and the scheduler kinds of
// this build, one per line with a short description; --names prints the bare names (for
// scripts: `for c in $(gsim list configs --names)`).
#include <CLI/CLI.hpp>
#include <cstdio>
#include <memory>
#include <utility>

#include "commands.hpp"
#include "common/error.hpp"
#include "config/gpu_config.hpp"
#include "gs_spec.hpp"
#include "sched/scheduler_port.hpp"
#include "workload/kernel_desc.hpp"

namespace gsim {

namespace {

using Entry = std::pair<std::string, std::string>;  // name, description

std::string shorten(std::string s, size_t max = 90) {
  if (const auto cut = s.find("; see "); cut != std::string::npos) s.erase(cut);
  if (s.size() > max) s = s.substr(0, max - 3) + "...";
  return s;
}

/// A policy's line: its registry doc (rtl/spec/gs_spec.toml, the one source of truth), its
/// aliases, and how it runs; `long_form` adds the RTL module or the policy it runs under.
std::string policy_description(const std::string& p, bool long_form) {
  for (const auto& info : gs::spec::kPolicies) {
    if (p != info.name) continue;
    std::string d = info.doc;
    if (*info.aliases) d += "; aliases " + std::string(info.aliases);
    if (info.sm_sharing) d += "; takes --sm-sharing";
    if (long_form) d += std::string("; RTL module ") + info.module + (info.observes ? "; reads counter samples" : "");
    if (long_form && *info.settings) {  // --set policy.<name>.<setting>=v, docs/config_schema.md
      d += std::string("; settings (config object ") + info.settings + "):";
      for (const auto& s : gs::spec::kSettings)
        if (std::string(s.section) == info.settings) d += std::string(" ") + s.name + "=" + s.def_text;
    }
    if (long_form && *info.settings_of)  // a combined policy: its parents' sections
      d += std::string("; reads the settings of ") + info.settings_of;
    return d;
  }
  for (const auto& info : gs::spec::kDerivedPolicies) {
    if (p != info.name) continue;
    std::string d = info.doc;
    if (*info.aliases) d += "; aliases " + std::string(info.aliases);
    d += info.golden_only ? "; C++ only (golden)" : "; any scheduler";
    if (long_form) d += std::string("; analysis policy, runs under ") + info.runs_under;
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

std::vector<Entry> entries_of(const std::string& what, bool long_form) {
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
      out.emplace_back(n, long_form ? d : shorten(d));
    }
  } else if (what == "mixes") {
    const std::vector<gs::KernelDesc> lib = gs::load_kernel_library();
    for (const std::string& n : gs::list_mixes()) {
      std::string d;
      try {
        const gs::Mix m = gs::load_mix(n, lib);
        std::string ks;
        for (const gs::MixEntry& e : m.kernels) ks += (ks.empty() ? "" : " + ") + e.kernel;
        if (!m.processes.empty()) {  // a process mix: its processes and runs
          ks = std::to_string(m.processes.size()) + " processes:";
          for (const gs::MixProcess& p : m.processes)
            ks += " " + p.name + " (" + std::to_string(p.steps.size()) + " kernels x " + std::to_string(p.runs) + ")";
        }
        d = (m.config.empty() ? std::string("any config: ") : "for " + m.config + ": ") + ks;
      } catch (const gs::InputError& e) {
        d = std::string("(does not load: ") + e.what() + ")";
      }
      out.emplace_back(n, long_form ? d : shorten(d));
    }
  } else if (what == "policies") {
    for (const std::string& p : gs::list_policies()) out.emplace_back(p, policy_description(p, long_form));
  } else if (what == "schedulers") {
    register_build_schedulers();
    for (const std::string& k : gs::list_scheduler_kinds())
      out.emplace_back(k, scheduler_description(k) + (k == default_scheduler_kind() ? " [default]" : ""));
  } else {  // "kernels"
    for (const gs::KernelDesc& k : gs::load_kernel_library())
      out.emplace_back(k.name, k.suite + ", " + k.behaviour + ", " + std::to_string(k.threads_per_cta) + " threads x " +
                                   std::to_string(k.grid_ctas) + " CTAs" +
                                   (long_form ? ", " + std::to_string(k.regs_per_thread) + " regs/thread, " +
                                                    std::to_string(k.shmem_per_cta) + " B shared/CTA, " +
                                                    std::to_string(k.insts_per_warp) + " warp insts/warp; " + k.source
                                              : ""));
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
  auto long_form = std::make_shared<bool>(false);
  CLI::Option* names = app->add_flag("--names", *names_only, "Names only, one per line (for scripts)");
  app->add_flag("-l,--long", *long_form,
                "Whole descriptions, not cut at 90 characters, and more per entry (a policy's RTL module or the "
                "policy it runs under; a kernel's registers, shared memory, length and source)")
      ->excludes(names);
  return {app, [what, names_only, long_form] {
            const std::vector<Entry> entries = entries_of(*what, *long_form);
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
