// gsched rtl_sched: the Verilated gs_sbm_ctrl (SBM's profiling flow) behind gs::SbmCtrlUnit:
// the RTL side of `gsim unit sbm`, with the same validated input as the golden side
// (unit/unit_sbm.hpp) and the same result shape.
#pragma once
#include <memory>

#include <nlohmann/json.hpp>

#include "unit/unit_sbm.hpp"

namespace gs::rtl {

std::unique_ptr<SbmCtrlUnit> make_rtl_sbm_unit();
nlohmann::json run_rtl_sbm_unit(const nlohmann::json& input);

}  // namespace gs::rtl
