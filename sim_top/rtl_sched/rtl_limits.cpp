// gsched rtl_sched: RTL build limits and port configuration (see rtl_limits.hpp).
#include "rtl_sched/rtl_limits.hpp"

#include <sstream>

#include "common/error.hpp"
#include "gs_rtl_params.hpp"
#include "gs_rtl_ports.hpp"
#include "sched/golden/golden_scheduler.hpp"

namespace gs::rtl {
namespace {

constexpr uint64_t max_of_width(unsigned width) { return width >= 64 ? ~0ull : (1ull << width) - 1; }

std::string build_prefix() { return "RTL built with "; }

void require_fits(const std::string& what, uint64_t value, unsigned width, const std::string& port,
                  const std::string& where) {
  if (value > max_of_width(width)) {
    std::ostringstream os;
    os << where << ": " << what << " = " << value << " does not fit gs_top port " << port << " (" << width
       << " bits, max " << max_of_width(width) << "); widen it in rtl/spec/gs_spec.toml";
    throw InputError(os.str());
  }
}

}  // namespace

// Policy names, aliases and encodings come from the registry in rtl/spec/gs_spec.toml, the
// source of gs_pkg::policy_e as well: one list for gsim, the golden model and the RTL.
std::vector<std::string> rtl_policies() { return golden_policy_names(); }

uint32_t policy_code(const std::string& policy) { return static_cast<uint32_t>(parse_policy(policy)); }

std::string describe_build() {
  std::ostringstream os;
  bool first = true;
  for (const auto& p : kParams) {
    os << (first ? "" : " ") << p.name << "=" << p.value;
    first = false;
  }
  return os.str();
}

PortConfig to_port_config(const GpuConfig& cfg, const SchedOptions& opt) {
  const std::string where = "config " + (cfg.name.empty() ? cfg.file : cfg.name);
  if (cfg.num_sms() == 0) throw InputError(where + ": has no SMs");
  if (cfg.num_sms() > MaxSms) {
    std::ostringstream os;
    os << build_prefix() << "MaxSms=" << MaxSms << ", " << where << " has " << cfg.num_sms() << " SMs";
    throw InputError(os.str());
  }
  if (cfg.max_active_kernels != MaxKernels || cfg.max_contexts != MaxContexts) {
    std::ostringstream os;
    os << build_prefix() << "MaxKernels=" << MaxKernels << " MaxContexts=" << MaxContexts << ", " << where
       << " asks for max_active_kernels=" << cfg.max_active_kernels << " max_contexts=" << cfg.max_contexts
       << " (the golden and the RTL must model the same hardware; change rtl/spec/gs_spec.toml or the config)";
    throw InputError(os.str());
  }
  require_fits("cta_limit (CTAs per SM per kernel)", opt.cta_limit, port_width::cfg_cta_limit_i, "cfg_cta_limit_i",
               "scheduler options");

  PortConfig pc;
  pc.num_sms = cfg.num_sms();
  pc.policy = policy_code(opt.policy);
  pc.preempt_mode = static_cast<uint32_t>(opt.preempt);
  pc.cta_limit = opt.cta_limit;
  for (uint32_t s = 0; s < cfg.num_sms(); ++s) {
    const SmTypeConfig& t = cfg.sm(s);
    const std::string sm_where = where + " SM " + std::to_string(s) + " (" + t.name + ")";
    require_fits("max_threads", t.max_threads, port_width::cfg_sm_threads_i / MaxSms, "cfg_sm_threads_i", sm_where);
    require_fits("max_warps", t.max_warps, port_width::cfg_sm_warps_i / MaxSms, "cfg_sm_warps_i", sm_where);
    require_fits("registers", t.registers, port_width::cfg_sm_regs_i / MaxSms, "cfg_sm_regs_i", sm_where);
    require_fits("shared_mem_bytes", t.shared_mem_bytes, port_width::cfg_sm_shmem_i / MaxSms, "cfg_sm_shmem_i", sm_where);
    require_fits("max_ctas", t.max_ctas, port_width::cfg_sm_ctas_i / MaxSms, "cfg_sm_ctas_i", sm_where);
    if (t.max_ctas > MaxCtasPerSm) {
      std::ostringstream os;
      os << build_prefix() << "MaxCtasPerSm=" << MaxCtasPerSm << ", " << sm_where << " has max_ctas=" << t.max_ctas;
      throw InputError(os.str());
    }
    pc.sm_threads.push_back(t.max_threads);
    pc.sm_warps.push_back(t.max_warps);
    pc.sm_regs.push_back(t.registers);
    pc.sm_shmem.push_back(t.shared_mem_bytes);
    pc.sm_ctas.push_back(t.max_ctas);
  }
  return pc;
}

void check_launch(const LaunchCmd& l) {
  const std::string where = "launch of kernel " + std::to_string(l.kernel);
  // All ones is the RTL's "no kernel": the last usable id is one below.
  if (l.kernel >= max_of_width(port_width::launch_kernel_i)) {
    std::ostringstream os;
    os << build_prefix() << "KernelIdW=" << port_width::launch_kernel_i << ": a mix may hold at most "
       << max_of_width(port_width::launch_kernel_i) << " kernels, " << where << " is beyond";
    throw InputError(os.str());
  }
  if (l.ctx >= MaxContexts) {
    std::ostringstream os;
    os << build_prefix() << "MaxContexts=" << MaxContexts << ", " << where << " uses context " << unsigned(l.ctx);
    throw InputError(os.str());
  }
  require_fits("priority", l.prio, port_width::launch_prio_i, "launch_prio_i", where);
  require_fits("tokens", l.tokens, port_width::launch_tokens_i, "launch_tokens_i", where);
  require_fits("threads per CTA", l.threads, port_width::launch_threads_i, "launch_threads_i", where);
  require_fits("warps per CTA", l.warps, port_width::launch_warps_i, "launch_warps_i", where);
  require_fits("registers per CTA", l.regs, port_width::launch_regs_i, "launch_regs_i", where);
  require_fits("shared memory per CTA", l.shmem, port_width::launch_shmem_i, "launch_shmem_i", where);
  require_fits("grid", l.grid, port_width::launch_grid_i, "launch_grid_i", where);
  // CTA ids travel on dispatch_cta_o / event_cta_i: the last CTA id must fit them.
  if (l.grid > 0) require_fits("last CTA id", l.grid - 1, port_width::dispatch_cta_o, "dispatch_cta_o", where);
}

}  // namespace gs::rtl
