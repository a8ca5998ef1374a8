// gsched rtl_sched: the "rtl" side of `gsim unit srtf-predict` -- the Verilated gs_srtf_predict alone.
//
// Vgs_srtf_predict (rtl/CMakeLists.txt: gs_pkg.sv + policy/gs_srtf_predict.sv, -Wall -O2) behind
// gs::SrtfPredictUnit: the same validated events as the golden side (unit/unit_srtf_predict.hpp,
// parse_srtf_predict), one per cycle on the event ports; a slot's Table 1 state is read from
// state_o with the layout generated from rtl/spec/gs_spec.toml, Pred_Cycles from pred_o.
#pragma once
#include <memory>

#include <nlohmann/json.hpp>

#include "unit/unit_srtf_predict.hpp"

namespace gs::rtl {

/// A fresh Verilated gs_srtf_predict (own VerilatedContext) behind SrtfPredictUnit.
std::unique_ptr<SrtfPredictUnit> make_rtl_srtf_predict_unit();

/// Unit side "rtl" for block "srtf-predict".
nlohmann::json run_rtl_srtf_predict_unit(const nlohmann::json& input);

}  // namespace gs::rtl
