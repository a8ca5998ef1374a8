// gsched rtl_sched: the "rtl" side of `gsim unit waterfill` -- the Verilated gs_waterfill alone.
//
// Vgs_waterfill (rtl/CMakeLists.txt: gs_pkg.sv + policy/gs_waterfill.sv, -Wall -O3
// --x-assign fast) behind gs::WaterfillUnit: the same validated input as the golden side
// (unit/unit_waterfill.hpp, parse_waterfill), driven onto the ports with the layouts generated
// from rtl/spec/gs_spec.toml, clocked from a start pulse to done_o.
#pragma once
#include <memory>

#include <nlohmann/json.hpp>

#include "unit/unit_waterfill.hpp"

namespace gs::rtl {

/// A fresh Verilated gs_waterfill (own VerilatedContext) behind WaterfillUnit.
std::unique_ptr<WaterfillUnit> make_rtl_waterfill_unit();

/// Unit side "rtl" for block "waterfill".
nlohmann::json run_rtl_waterfill_unit(const nlohmann::json& input);

}  // namespace gs::rtl
