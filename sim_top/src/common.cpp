// gsim: helpers shared by the subcommands (declarations and contracts in commands.hpp).
#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "commands.hpp"
#include "common/error.hpp"
#include "config/gpu_config.hpp"
#include "config/json_reader.hpp"
#include "gpu/gpu.hpp"
#include "sched/scheduler_port.hpp"
#include "workload/kernel_desc.hpp"

// The RTL schedulers ("rtl", "lockstep") live in the Verilator library, which defines
// GS_HAVE_RTL for its users and provides gs::register_rtl_schedulers().
#if defined(GS_HAVE_RTL)
#if __has_include("rtl_sched/register.hpp")
#include "rtl_sched/register.hpp"
#include "rtl_sched/rtl_limits.hpp"
#else
#error "GS_HAVE_RTL is defined but rtl_sched/register.hpp is not on the include path"
#endif
#endif

namespace gsim {

std::string default_scheduler_kind() {
#if defined(GS_HAVE_RTL)
  return "lockstep";
#else
  return "golden";
#endif
}

void register_build_schedulers() {
#if defined(GS_HAVE_RTL)
  static const bool registered = (gs::register_rtl_schedulers(), true);
  (void)registered;
#endif
}

namespace {

std::string join(const std::vector<std::string>& names) {
  std::string out;
  for (const auto& n : names) out += (out.empty() ? "" : ", ") + n;
  return out;
}

}  // namespace

void check_scheduler_and_policy(const std::string& kind, const std::string& policy) {
  const auto kinds = gs::list_scheduler_kinds();
  if (std::find(kinds.begin(), kinds.end(), kind) == kinds.end())
    throw gs::InputError("--scheduler: unknown scheduler '" + kind + "' (this build has: " + join(kinds) + ")");
  (void)gs::canonical_policy_name(policy);  // a name or alias of the registry, or an InputError listing them
}


std::vector<gs::KernelDesc> select_kernels(const std::vector<gs::KernelDesc>& lib,
                                           const std::vector<std::string>& names, const std::string& suite) {
  std::vector<gs::KernelDesc> chosen;
  for (const std::string& name : names) chosen.push_back(gs::find_kernel(lib, name));
  if (suite.empty()) return chosen;
  std::vector<std::string> suites;
  const size_t before = chosen.size();
  for (const gs::KernelDesc& k : lib) {
    if (std::find(suites.begin(), suites.end(), k.suite) == suites.end()) suites.push_back(k.suite);
    if (suite == "all" || k.suite == suite) chosen.push_back(k);
  }
  if (chosen.size() == before)
    throw gs::InputError("--kernels " + suite + ": no such suite (suites: " + gs::join_names(suites) + ", or all)");
  return chosen;
}

std::string read_text_file(const std::string& path, const std::string& option) {
  std::error_code ec;
  if (std::filesystem::exists(path, ec) && !std::filesystem::is_regular_file(path, ec))
    throw gs::InputError(option + " " + path + ": not a regular file");
  if (std::filesystem::is_regular_file(path, ec) && std::filesystem::file_size(path, ec) > (64ull << 20))
    throw gs::InputError(option + " " + path + ": too large for an input file (at most 64 MiB)");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw gs::InputError(option + " " + path + ": cannot read the file: " + std::strerror(errno));
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::string rtl_unfit_reason(const gs::GpuConfig& cfg, const gs::SchedOptions& opt, const gs::Mix& mix) {
#if defined(GS_HAVE_RTL)
  try {
    (void)gs::rtl::to_port_config(gs::run_config(cfg, mix), opt);
    for (size_t i = 0; i < mix.kernels.size(); ++i) {
      const gs::MixEntry& e = mix.kernels[i];
      const gs::CtaResources r = gs::cta_resources(e.desc, cfg);
      gs::LaunchCmd l;
      l.valid = true;
      l.kernel = static_cast<gs::KernelId>(i);
      l.ctx = e.context;
      l.prio = e.priority;
      l.tokens = static_cast<int32_t>(e.tokens);
      l.threads = r.threads;
      l.warps = r.warps;
      l.regs = r.regs;
      l.shmem = r.shmem;
      l.grid = e.grid_ctas ? e.grid_ctas : e.desc.grid_ctas;
      try {
        gs::rtl::check_launch(l);
      } catch (const gs::InputError& err) {
        throw gs::InputError((mix.file.empty() ? mix.name : mix.file) + ": field 'kernels[" + std::to_string(i) +
                             "]' (" + e.kernel + "): " + err.what());
      }
    }
  } catch (const gs::InputError& e) {
    return e.what();
  }
  return {};
#else
  (void)cfg, (void)opt, (void)mix;
  return {};
#endif
}

std::string choose_scheduler(bool given, const std::string& scheduler, const gs::GpuConfig& cfg,
                             const gs::SchedOptions& opt, const gs::Mix& mix, bool want_wave, bool quiet) {
  register_build_schedulers();
  const std::string kind = given ? scheduler : default_scheduler_kind();
  check_scheduler_and_policy(kind, opt.policy);
  if (kind == "golden") return kind;
  const std::string why = rtl_unfit_reason(cfg, opt, mix);
  if (why.empty()) return kind;
  const std::string where = "config " + cfg.file + ": ";
  if (given)
    throw gs::InputError("--scheduler " + kind + ": " + where + why +
                         " (use --scheduler golden, which has no such limit)");
  if (want_wave) throw gs::InputError("--wave needs the RTL scheduler, but " + where + why);
  if (!quiet)
    std::fprintf(stderr,
                 "gsim: note: running the golden scheduler: this config or mix exceeds the RTL build (%s); "
                 "give --scheduler to choose\n",
                 why.c_str());
  return "golden";
}

std::string locate_run_error(const std::string& what, const gs::GpuConfig& cfg, const gs::Mix& mix) {
  const std::string mix_file = mix.file.empty() ? mix.name : mix.file;
  static const std::string launch = "launch of kernel ";
  if (what.compare(0, launch.size(), launch) == 0) {
    size_t n = 0;
    const unsigned long id = std::stoul(what.substr(launch.size()), &n);
    const std::string rest = what.substr(launch.size() + n);
    if (id < mix.kernels.size())
      return mix_file + ": field 'kernels[" + std::to_string(id) + "]' (" + mix.kernels[id].kernel + ") on config " +
             cfg.file + rest;
  }
  static const std::string config = "config ";
  if (what.compare(0, config.size(), config) == 0) return cfg.file + ": " + what;
  return what;
}

}  // namespace gsim
