// gsched rtl_sched: what the RTL build can carry, checked before it is asked to.
//
// The scheduler's field widths and limits are checked by cmodel/config/limits.hpp
// (limits::check_scheduler_config, limits::check_launch), the same checks and texts as the
// golden scheduler's. This file adds only what the RTL build fixes: MaxSms, MaxKernels and
// MaxContexts (gs_rtl_params.hpp, from rtl/spec/gs_spec.toml), and compile-time checks that
// every gs_top port (gs_rtl_ports.hpp) carries its field. A GpuConfig, policy or launch beyond
// them is refused with gs::InputError -- never truncated. to_port_config() turns a validated
// GpuConfig + SchedOptions into port values.
#pragma once
#include <string>
#include <vector>

#include "config/gpu_config.hpp"
#include "rtl_sched/rtl_model.hpp"
#include "sched/scheduler_port.hpp"

namespace gs::rtl {

/// gs_pkg::policy_e value of a policy name ("left-over", "dss", ...); InputError if the RTL has none.
uint32_t policy_code(const std::string& policy);
/// Policy names the RTL implements (from gs_pkg::policy_e), in encoding order.
std::vector<std::string> rtl_policies();
/// Validates `cfg` and `opt` against the RTL build; InputError on the first violation.
PortConfig to_port_config(const GpuConfig& cfg, const SchedOptions& opt);
/// Validates one launch command (limits::check_launch with this build's MaxContexts).
void check_launch(const LaunchCmd& launch);
/// "MaxSms=32 MaxKernels=8 ..." for messages and `gsim` banners.
std::string describe_build();

}  // namespace gs::rtl
