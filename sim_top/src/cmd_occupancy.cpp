// gsim occupancy: how many CTAs of one kernel fit on each SM type of a config, what limits
// them, and Tanasic's context-switch figures (Table 1: TBs/SM, Resour./SM, Save Time).
// Figures come from gs::occupancy() (gpu/occupancy.hpp). A kernel whose CTA fits on no SM
// type of the config is an input error (exit 2); on a heterogeneous GPU a type it does not
// fit shows "does not fit" with the reason.
#include <CLI/CLI.hpp>
#include <algorithm>
#include <cstdio>
#include <memory>
#include <vector>

#include "commands.hpp"
#include "common/error.hpp"
#include "config/gpu_config.hpp"
#include "gpu/occupancy.hpp"
#include "metrics/report.hpp"
#include "workload/kernel_desc.hpp"

namespace gsim {

namespace {

struct OccupancyArgs {
  std::string config, kernel;
  std::vector<std::string> kernel_files;  // --kernels: the user's kernel libraries
};

std::string pad(const std::string& s, size_t w, bool left) {
  if (s.size() >= w) return s;
  return left ? s + std::string(w - s.size(), ' ') : std::string(w - s.size(), ' ') + s;
}

int occupancy_action(const OccupancyArgs& a) {
  const std::vector<gs::KernelDesc> lib = gs::load_kernel_library(a.kernel_files);
  const gs::KernelDesc& k = gs::find_kernel(lib, a.kernel);
  std::string config = a.config;
  if (config.empty()) {  // the preset the kernel's suite file names
    if (k.preset.empty())
      throw gs::InputError("--config is required: the suite file of kernel " + k.name +
                           " names no preset ('gsim list configs' lists them)");
    config = k.preset;
    std::fprintf(stderr, "gsim: note: config %s, as named by the suite file of kernel %s\n", config.c_str(),
                 k.name.c_str());
  }
  const gs::GpuConfig cfg = gs::load_gpu_config(config);

  const std::vector<std::string> titles = {"sm_type",        "count",     "max_ctas",  "limiter",
                                           "shmem_config_B", "storage_%", "context_B", "save_time_us"};
  std::vector<std::vector<std::string>> rows;
  std::vector<std::string> misfits;  // "type: reason" for types the CTA does not fit
  const gs::CtaResources r = gs::cta_resources(k, cfg);
  for (const gs::SmTypeConfig& t : cfg.sm_types) {
    try {
      const gs::Occupancy o = gs::occupancy(k, cfg, t);
      rows.push_back({t.name, std::to_string(t.count), std::to_string(o.max_ctas), o.limiter,
                      std::to_string(o.shared_mem_config), gs::format_fixed(100.0 * o.storage_share, 1),
                      std::to_string(o.context_bytes), gs::format_fixed(o.save_time_us, 2)});
    } catch (const gs::InputError& e) {
      if (cfg.sm_types.size() == 1) throw;
      misfits.push_back(e.what());
      rows.push_back({t.name, std::to_string(t.count), "0", "does not fit", "-", "-", "-", "-"});
    }
  }
  if (misfits.size() == cfg.sm_types.size())
    throw gs::InputError("kernel '" + k.name + "' fits on no SM type of config '" + cfg.name + "': " + misfits.front());

  std::printf("kernel %s on config %s (%u SMs)\n", k.name.c_str(), cfg.name.c_str(), cfg.num_sms());
  std::printf("per CTA after allocation rounding: %u threads, %u warps, %u registers, %u B shared memory\n\n",
              r.threads, r.warps, r.regs, r.shmem);
  std::vector<size_t> w(titles.size());
  for (size_t c = 0; c < titles.size(); ++c) {
    w[c] = titles[c].size();
    for (const auto& row : rows) w[c] = std::max(w[c], row[c].size());
  }
  auto print_row = [&](const std::vector<std::string>& cells) {
    std::string line;
    for (size_t c = 0; c < cells.size(); ++c) {
      if (c) line += "  ";
      line += pad(cells[c], w[c], c == 0 || c == 3);
    }
    while (!line.empty() && line.back() == ' ') line.pop_back();
    std::printf("%s\n", line.c_str());
  };
  print_row(titles);
  for (const auto& row : rows) print_row(row);
  for (const auto& m : misfits) std::printf("note: %s\n", m.c_str());
  return 0;
}

}  // namespace

Command add_occupancy_command(CLI::App& top) {
  auto args = std::make_shared<OccupancyArgs>();
  CLI::App* app = top.add_subcommand(
      "occupancy", "Resident CTAs per SM of one kernel, the limiting resource, and its context-switch cost");
  app->add_option("--config", args->config,
                  "GPU config: preset name (gsim list configs) or JSON file; default: the preset the kernel's "
                  "suite file names");
  app->add_option("--kernel", args->kernel, "Kernel name (gsim list kernels)")->required();
  app->add_option("--kernels", args->kernel_files,
                  "A kernel library file of your own, read beside the shipped ones; repeatable (as gsim run --kernels)")
      ->type_name("FILE.json")
      ->allow_extra_args(false);
  app->footer(
      "Columns: max_ctas = resident CTAs per SM running the kernel alone; limiter = the resource that runs out "
      "first; shmem_config_B = shared-memory carve-out chosen; storage_% = context of max_ctas CTAs over register "
      "file + largest shared memory; context_B = their registers (4 B each) + shared memory; save_time_us = "
      "context_B at the SM's share of peak DRAM bandwidth (Tanasic ISCA'14 Table 1).");
  return {app, [args] { return occupancy_action(*args); }};
}

}  // namespace gsim
