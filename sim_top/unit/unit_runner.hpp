// gsched: `gsim unit <block> --input F.json` -- one scheduler decision unit run alone.
//
// run_unit() parses the JSON state, runs the golden twin of the unit until it goes idle and
// returns its actions as JSON text: {"block", "input", "golden": {...}}. Other
// implementations of the same unit (the Verilated RTL block, registered by the RTL library
// through register_unit_side()) are run on the same parsed input and added as further keys
// ("rtl": {...}) with "match": true when every side's result equals the golden one (gsim exits 3
// when it is false).
// Blocks: "dss" (Tanasic Algorithm 1; input format in docs/rtl/dss.md), "waterfill"
// (Warped-Slicer Algorithm 1; input format in docs/rtl/gs_waterfill.md), "sbm" (SBM's
// profiling flow; docs/rtl/gs_sbm_ctrl.md), "hetero" (HeteroCore's mapping decision;
// docs/rtl/gs_hetero_sel.md).
// Throws InputError for an unknown block or a malformed input (exit 2).
#pragma once
#include <functional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace gs {

std::string run_unit(const std::string& block, const std::string& input_json_text, const std::string& file);

/// What `gsim unit <block> --input F` does with F's text: strict JSON first (an empty or malformed
/// file is reported with file:line:column), then run_unit(); a field of the wrong JSON type is
/// an InputError naming the file too. Every malformed input throws InputError, nothing else
/// (the fuzz target verif/fuzz/gs_fuzz_loaders.cpp holds it to that).
std::string run_unit_checked(const std::string& block, const std::string& input_json_text, const std::string& file);

/// Golden result of one unit on a parsed, validated input (what run_unit reports as "golden").
nlohmann::json run_unit_golden(const std::string& block, const nlohmann::json& input, const std::string& file);

/// The decision units run_unit knows.
std::vector<std::string> list_units();

/// Another implementation of a unit: returns a result object of the same shape as the golden
/// one (dss: "actions", "tokens", "sms", "cycles"; waterfill: "ctas", "spatial", "cycles"), null
/// when it does not implement the block, or throws.
using UnitSide = std::function<nlohmann::json(const std::string& block, const nlohmann::json& input)>;
void register_unit_side(const std::string& name, UnitSide side);

}  // namespace gs
