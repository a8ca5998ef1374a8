// gsched: decision units run alone (see unit_runner.hpp).
//
// The registry of sides and the per-block dispatch; each block's input format and environment
// live with the block: DSS in unit/unit_dss.hpp (its golden side is GoldenDssUnit), the
// water-filler in unit/unit_waterfill.hpp (GoldenWaterfillUnit), SBM's profiling flow in
// unit/unit_sbm.hpp (GoldenSbmCtrlUnit), HeteroCore's mapping decision in unit/unit_hetero.hpp
// (GoldenHeteroSelUnit).
#include "unit/unit_runner.hpp"

#include <map>

#include "common/error.hpp"
#include "config/json_reader.hpp"
#include "unit/unit_dss.hpp"
#include "unit/unit_hetero.hpp"
#include "unit/unit_sbm.hpp"
#include "unit/unit_waterfill.hpp"

namespace gs {

using nlohmann::json;

namespace {

std::map<std::string, UnitSide>& sides() {
  static std::map<std::string, UnitSide> s;
  return s;
}

}  // namespace

std::vector<std::string> list_units() { return {"dss", "waterfill", "sbm", "hetero"}; }

void register_unit_side(const std::string& name, UnitSide side) { sides()[name] = std::move(side); }

json run_unit_golden(const std::string& block, const json& input, const std::string& file) {
  if (block == "dss") {
    GoldenDssUnit unit;
    return run_dss_unit(unit, input, file);
  }
  if (block == "waterfill") {
    GoldenWaterfillUnit unit;
    return run_waterfill_unit(unit, input, file);
  }
  if (block == "sbm") {
    GoldenSbmCtrlUnit unit;
    return run_sbm_unit(unit, input, file);
  }
  if (block == "hetero") {
    GoldenHeteroSelUnit unit;
    return run_hetero_unit(unit, input, file);
  }
  std::string known;
  for (const auto& u : list_units()) known += (known.empty() ? "" : ", ") + u;
  throw InputError("gsim unit", "block", "unknown decision unit '" + block + "' (known: " + known + ")");
}

std::string run_unit(const std::string& block, const std::string& input_json_text, const std::string& file) {
  json input;
  try {
    input = json::parse(input_json_text);
  } catch (const json::exception& e) {
    throw InputError(file, "json", e.what());
  }
  json out{{"block", block}, {"input", file}};
  const json golden = run_unit_golden(block, input, file);
  out["golden"] = golden;
  bool match = true;
  for (const auto& [name, side] : sides()) {
    const json r = side(block, input);
    if (r.is_null()) continue;  // this side has no implementation of the block
    out[name] = r;
    match = match && r == golden;
  }
  if (!sides().empty()) out["match"] = match;
  return out.dump(2) + "\n";
}

std::string run_unit_checked(const std::string& block, const std::string& input_json_text, const std::string& file) {
  (void)parse_json_strict(input_json_text, file);
  try {
    return run_unit(block, input_json_text, file);
  } catch (const json::exception& e) {  // a field of the wrong JSON type
    throw InputError(file + ": " + e.what());
  }
}

}  // namespace gs
