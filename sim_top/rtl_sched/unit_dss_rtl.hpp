// gsched rtl_sched: the "rtl" side of `gsim unit dss` -- the Verilated gs_policy_dss alone.
//
// Vgs_policy_dss (rtl/CMakeLists.txt: gs_pkg.sv + policy/gs_dss_unit.sv, -Wall -O3
// --x-assign fast; unit_dss_rtl.vlt makes st_q readable) behind gs::DssUnit, so it runs in the
// very environment loop the golden twin runs in (unit/unit_dss.hpp, run_dss_unit): the same
// JSON state, the same owner writes / token updates / acceptances applied to the same golden
// KSRT and SMST, the same result shape. register_rtl_schedulers() registers run_rtl_unit as
// the unit side "rtl", so `gsim unit dss` prints "golden", "rtl" and "match".
#pragma once
#include <memory>
#include <string>

#include <nlohmann/json.hpp>

#include "unit/unit_dss.hpp"

namespace gs::rtl {

/// A fresh Verilated gs_policy_dss (own VerilatedContext) behind DssUnit; call reset() first.
std::unique_ptr<DssUnit> make_rtl_dss_unit();

/// UnitSide "rtl": block "dss" on the Verilated unit; null for a block without an RTL unit.
nlohmann::json run_rtl_unit(const std::string& block, const nlohmann::json& input);

}  // namespace gs::rtl
