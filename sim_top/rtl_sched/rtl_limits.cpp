// gsched rtl_sched: RTL build limits and port configuration (see rtl_limits.hpp).
#include "rtl_sched/rtl_limits.hpp"

#include <sstream>

#include "common/error.hpp"
#include "config/limits.hpp"
#include "gs_rtl_params.hpp"
#include "gs_rtl_ports.hpp"
#include "sched/golden/golden_scheduler.hpp"

namespace gs::rtl {
namespace {

// A build variant (cmake -DGS_MAX_KERNELS=16) names its override, so a refusal says which
// RTL it came from: "RTL built with MaxKernels=16 (build option; spec otherwise), MaxSms=132, ...".
std::string build_prefix() {
  const std::string overrides = spec::kSpecOverrides;
  return overrides.empty() ? "RTL built with " : "RTL built with " + overrides + " (build option; spec otherwise), ";
}

// gs_top's ports are generated from rtl/spec/gs_spec.toml: each carries the scheduler field
// that limits::check_scheduler_config() / limits::check_launch() check, so no value those
// accept is truncated on a port. A spec change that breaks this fails the build here. (The
// record port groups -- launch_*, dispatch_*, ... -- are checked field by field, exactly,
// by GS_PORT_FIELDS in gs_top_driver.hpp; the configuration ports are checked here.)
static_assert(port_width::cfg_type_threads_i / MaxSmTypes >= spec::ThreadW, "cfg_type_threads_i narrower than ThreadW");
static_assert(port_width::cfg_type_warps_i / MaxSmTypes >= spec::WarpW, "cfg_type_warps_i narrower than WarpW");
static_assert(port_width::cfg_type_regs_i / MaxSmTypes >= spec::RegW, "cfg_type_regs_i narrower than RegW");
static_assert(port_width::cfg_type_shmem_i / MaxSmTypes >= spec::ShmemW, "cfg_type_shmem_i narrower than ShmemW");
static_assert((1u << (port_width::cfg_type_ctas_i / MaxSmTypes)) > spec::MaxCtasPerSm,
              "cfg_type_ctas_i cannot hold MaxCtasPerSm");
static_assert(port_width::cfg_type_big_i == MaxSmTypes && (1u << (port_width::cfg_sm_type_i / MaxSms)) >= MaxSmTypes,
              "cfg_type_big_i is one bit per SM type and cfg_sm_type_i holds a type per SM");
static_assert((1u << port_width::cfg_cta_limit_i) > spec::MaxCtasPerSm, "cfg_cta_limit_i cannot hold MaxCtasPerSm");
static_assert((1u << port_width::cfg_warp_scheds_i) > 64, "cfg_warp_scheds_i cannot hold warp_schedulers (up to 64)");
static_assert(port_width::cfg_base_sm_i == spec::WfResW && spec::WfResW <= 64,
              "cfg_base_sm_i is a wf_res_t (held in 64 bits)");
// the settings: one policy_settings_t, packed by spec::pack_settings (ranges: the config loader)
static_assert(port_width::cfg_settings_i == spec::PolicySettingsW, "cfg_settings_i is not a policy_settings_t");

}  // namespace

// Policy names, aliases and encodings come from the registry in rtl/spec/gs_spec.toml, the
// source of gs_pkg::policy_e as well: one list for gsim, the golden model and the RTL.
std::vector<std::string> rtl_policies() { return list_scheduler_policies(); }

uint32_t policy_code(const std::string& policy) { return static_cast<uint32_t>(parse_policy(policy)); }

std::string describe_build() {
  std::ostringstream os;
  bool first = true;
  for (const auto& p : kParams) {
    os << (first ? "" : " ") << p.name << "=" << p.value;
    first = false;
  }
  if (*spec::kSpecOverrides) os << " (build option " << spec::kSpecOverrides << ")";
  return os.str();
}

PortConfig to_port_config(const GpuConfig& cfg, const SchedOptions& opt) {
  // the scheduler's own limits, shared with the golden scheduler; then this build's sizes
  limits::check_scheduler_config(cfg, opt);
  const std::string where = "config " + (cfg.name.empty() ? cfg.file : cfg.name);
  if (!opt.srtf_known_cycles.empty())
    throw InputError("scheduler options: srtf_known_cycles (zero-sampling SRTF's given runtimes) are C++ only: "
                     "gs_policy_srtf has no port for them; use the golden scheduler");
  if (opt.sbm_fixed_reg)
    throw InputError("scheduler options: sbm_fixed_reg (EWM's SBM_REG from standalone profiles) is C++ only: "
                     "gs_policy_sbm has no port for a given SBM_REG; use the golden scheduler");
  if (!opt.sm_kernels.empty())
    throw InputError("scheduler options: sm_kernels (HeteroCore's static SM mapping) is C++ only: gs_top has no "
                     "per-SM kernel mask; run it with --scheduler golden");
  if (!opt.fixed_ctas.empty())
    throw InputError("scheduler options: fixed_ctas (the Oracle's per-kernel CTA caps) are C++ only: gs_top has no "
                     "per-kernel cap register; run it with --scheduler golden");
  if (cfg.num_sms() > MaxSms) {
    std::ostringstream os;
    os << build_prefix() << "MaxSms=" << MaxSms << ", " << where << " has " << cfg.num_sms() << " SMs";
    throw InputError(os.str());
  }
  if (cfg.max_active_kernels != MaxKernels || cfg.max_contexts != MaxContexts) {
    std::ostringstream os;
    os << build_prefix() << "MaxKernels=" << MaxKernels << " MaxContexts=" << MaxContexts << ", " << where
       << " asks for max_active_kernels=" << cfg.max_active_kernels << " max_contexts=" << cfg.max_contexts
       << " (the golden and the RTL must model the same hardware; change the config, rtl/spec/gs_spec.toml or the "
          "build option GS_MAX_KERNELS)";
    throw InputError(os.str());
  }

  PortConfig pc;
  pc.num_sms = cfg.num_sms();
  pc.policy = policy_code(opt.policy);
  pc.preempt_mode = static_cast<uint32_t>(opt.preempt);
  pc.cta_limit = opt.cta_limit;
  pc.sm_exclusive = opt.sm_sharing == SmSharing::kExclusive;
  pc.warp_scheds = cfg.sm(0).warp_schedulers;
  pc.settings = cfg.settings;
  {
    const auto& b = cfg.base_sm;
    pc.base_sm = 0;
    gs::pack(WfRes{b.threads, b.warps, b.regs, b.shmem, b.ctas},
             [&](uint64_t val, unsigned w) { pc.base_sm = pc.base_sm << w | (val & ((uint64_t(1) << w) - 1)); });
  }
  // gs_top holds the capacities per SM type (the distinct capacities and big/small pairs)
  std::vector<golden::SmCaps> caps;
  std::vector<uint8_t> big;
  for (uint32_t s = 0; s < cfg.num_sms(); ++s) {
    const SmTypeConfig& t = cfg.sm(s);
    caps.push_back({t.max_threads, t.max_warps, t.registers, t.shared_mem_bytes, t.max_ctas});
    big.push_back(cfg.sm_is_big(s) ? 1 : 0);
  }
  const golden::SmTypeTable types = golden::sm_type_table(caps, big);
  if (types.caps.size() > MaxSmTypes) {
    std::ostringstream os;
    os << build_prefix() << "MaxSmTypes=" << MaxSmTypes << ", " << where << " has " << types.caps.size()
       << " distinct SM types in sm_types (capacities max_threads, max_warps, registers, shared_mem_bytes, max_ctas "
          "and big/small; gs_top holds each type's capacities once and a type per SM)";
    throw InputError(os.str());
  }
  for (size_t i = 0; i < types.caps.size(); ++i) {
    const golden::SmCaps& c = types.caps[i];
    pc.type_threads.push_back(c.threads);
    pc.type_warps.push_back(c.warps);
    pc.type_regs.push_back(c.regs);
    pc.type_shmem.push_back(c.shmem);
    pc.type_ctas.push_back(c.ctas);
    pc.type_big.push_back(types.big[i]);
  }
  pc.sm_type = types.of_sm;
  return pc;
}

// The launch fields are the scheduler's (limits::check_launch); contexts are this build's.
void check_launch(const LaunchCmd& l) { limits::check_launch(l, MaxContexts); }

}  // namespace gs::rtl
