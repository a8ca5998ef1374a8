// gsim list: names of the shipped configs, kernels, mixes, the policies and the scheduler
// kinds of this build, one per line (for scripts: `for c in $(gsim list configs)`).
#include <CLI/CLI.hpp>
#include <cstdio>
#include <memory>

#include "commands.hpp"
#include "config/gpu_config.hpp"
#include "sched/scheduler_port.hpp"
#include "workload/kernel_desc.hpp"

namespace gsim {

namespace {

std::vector<std::string> names_of(const std::string& what) {
  if (what == "configs") return gs::list_gpu_configs();
  if (what == "mixes") return gs::list_mixes();
  if (what == "policies") return gs::list_policies();
  if (what == "schedulers") {
    register_build_schedulers();
    return gs::list_scheduler_kinds();
  }
  std::vector<std::string> names;   // "kernels"
  for (const gs::KernelDesc& k : gs::load_kernel_library()) names.push_back(k.name);
  return names;
}

}  // namespace

Command add_list_command(CLI::App& top) {
  auto what = std::make_shared<std::string>();
  CLI::App* app = top.add_subcommand("list", "List configs, kernels, mixes, policies or schedulers, one per line");
  app->add_option("what", *what, "configs | kernels | mixes | policies | schedulers")
      ->required()
      ->check(CLI::IsMember({"configs", "kernels", "mixes", "policies", "schedulers"}));
  return {app, [what] {
            for (const std::string& n : names_of(*what)) std::printf("%s\n", n.c_str());
            return 0;
          }};
}

}  // namespace gsim
