// gsched rtl_sched: the Verilated gs_hetero_sel (HeteroCore's mapping decision) behind
// gs::HeteroSelUnit: the RTL side of `gsim unit hetero`, with the same validated input as the
// golden side (unit/unit_hetero.hpp) and the same result shape.
#pragma once
#include <nlohmann/json.hpp>

namespace gs::rtl {

nlohmann::json run_rtl_hetero_unit(const nlohmann::json& input);

}  // namespace gs::rtl
