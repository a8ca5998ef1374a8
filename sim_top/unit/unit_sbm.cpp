// gsched: SBM's profiling flow run alone (see unit_sbm.hpp).
#include "unit/unit_sbm.hpp"

#include <cmath>
#include <map>

#include "common/error.hpp"
#include "unit/unit_numbers.hpp"

namespace gs {

using nlohmann::json;

SbmReg GoldenSbmCtrlUnit::run(uint32_t occ1, uint32_t occ2, const SbmMeasure& measure, std::vector<SbmReg>& phases,
                              uint32_t& cycles) {
  twin_.reset();
  phases.clear();
  twin_.next(true, occ1, occ2, false, 0, 0);
  twin_.commit();
  cycles = 1;
  while (twin_.busy()) {
    const SbmReg c = twin_.cfg();
    phases.push_back(c);
    uint64_t a = 0, b = 0;
    measure(c, a, b);
    // the result held (as gs_policy_sbm holds it) until the controller has decided
    for (bool ack = false; !ack; ++cycles) {
      ack = twin_.ack();
      twin_.next(false, occ1, occ2, true, a, b);
      twin_.commit();
    }
    if (phases.size() > golden::SbmCtrl::kPhases)
      throw InvariantError("gs_sbm_ctrl golden: more than " + std::to_string(golden::SbmCtrl::kPhases) + " phases");
  }
  return twin_.cfg();
}

namespace {

/// The input's key of a configuration: Table 3's name; the shared ones without occ_th.
std::string config_key(const SbmReg& c) { return golden::sbm_config_name(SbmReg{c.arch, c.fcache, false, 0}); }

struct SbmInput {
  uint32_t occ1 = 0, occ2 = 0;
  uint64_t window = 25000;
  std::map<std::string, std::pair<double, double>> fixed;               // Base .. B2_L2
  std::map<std::string, std::vector<std::pair<double, double>>> tuned;  // MWG, MWGB1, MWGB2 by occ_th
};

std::pair<double, double> parse_pair(const json& v, const std::string& where, const std::string& file) {
  if (!v.is_array() || v.size() != 2 || !v[0].is_number() || !v[1].is_number())
    throw InputError(file, where, "must be [IPC of task 1, IPC of task 2], not " + v.dump());
  const double a = v[0].get<double>(), b = v[1].get<double>();
  if (!(a >= 0) || !(b >= 0) || !std::isfinite(a) || !std::isfinite(b))
    throw InputError(file, where, "IPCs must be finite and not negative, not " + v.dump());
  return {a, b};
}

SbmInput parse_sbm(const json& input, const std::string& file) {
  SbmInput in;
  if (!input.is_object()) throw InputError(file, "json", "the input must be an object");
  for (const auto& [k, v] : input.items())
    if (k != "occupancy" && k != "window_cycles" && k != "ipc")
      throw InputError(file, k, "unknown key (known: occupancy, window_cycles, ipc)");
  if (!input.contains("occupancy")) throw InputError(file, "occupancy", "missing");
  const json& o = input.at("occupancy");
  if (!o.is_array() || o.size() != 2)
    throw InputError(file, "occupancy",
                     "must be [occ1, occ2], workgroups of each task that fit one SM, not " + o.dump());
  in.occ1 = uint32_t(unit_uint(o[0], file, "occupancy[0]", 0, spec::MaxCtasPerSm, "MaxCtasPerSm"));
  in.occ2 = uint32_t(unit_uint(o[1], file, "occupancy[1]", 0, spec::MaxCtasPerSm, "MaxCtasPerSm"));
  if (input.contains("window_cycles"))
    in.window = unit_uint(input.at("window_cycles"), file, "window_cycles", 1, uint64_t(1) << 30,
                          "cycles, 2^30 at most");
  if (!input.contains("ipc") || !input.at("ipc").is_object()) throw InputError(file, "ipc", "missing or not an object");
  for (const auto& [k, v] : input.at("ipc").items()) {
    const std::string where = "ipc." + k;
    if (k == "Base" || k == "B1_L12" || k == "B2_L12" || k == "B1_L2" || k == "B2_L2") {
      in.fixed[k] = parse_pair(v, where, file);
    } else if (k == "MWG" || k == "MWGB1" || k == "MWGB2") {
      if (!v.is_array() || v.empty() || v.size() > 4)
        throw InputError(file, where, "must list [ipc1, ipc2] for occ_th 0, 1, ... (1..4 entries)");
      for (size_t t = 0; t < v.size(); ++t)
        in.tuned[k].push_back(parse_pair(v[t], where + "[" + std::to_string(t) + "]", file));
    } else {
      throw InputError(file, where,
                       "unknown configuration (known: Base, B1_L12, B2_L12, B1_L2, B2_L2, MWG, MWGB1, MWGB2)");
    }
  }
  return in;
}

uint64_t to_insts(double ipc, uint64_t window, const std::string& where, const std::string& file) {
  return unit_insts(ipc, window, spec::SbmInstW, "SbmInstW", file, where);
}

}  // namespace

json run_sbm_unit(SbmCtrlUnit& unit, const json& input, const std::string& file) {
  const SbmInput in = parse_sbm(input, file);
  json phases = json::array();
  auto measure = [&](const SbmReg& c, uint64_t& a, uint64_t& b) {
    const std::string key = config_key(c);
    std::pair<double, double> ipc;
    std::string where = "ipc." + key;
    if (golden::sbm_shared(c)) {
      where += "[" + std::to_string(c.occ_th) + "]";
      const auto it = in.tuned.find(key);
      if (it == in.tuned.end() || c.occ_th >= it->second.size())
        throw InputError(file, where, "missing: the flow runs " + key + " with occ_th " + std::to_string(c.occ_th));
      ipc = it->second[c.occ_th];
    } else {
      const auto it = in.fixed.find(key);
      if (it == in.fixed.end()) throw InputError(file, where, "missing: the flow runs " + key);
      ipc = it->second;
    }
    a = to_insts(ipc.first, in.window, where, file);
    b = to_insts(ipc.second, in.window, where, file);
    phases.push_back(json{{"phase", golden::sbm_shared(c) ? key + " occ_th " + std::to_string(c.occ_th) : key},
                          {"ipc", json::array({ipc.first, ipc.second})}});
  };
  std::vector<SbmReg> cfgs;
  uint32_t cycles = 0;
  const SbmReg r = unit.run(in.occ1, in.occ2, measure, cfgs, cycles);
  return json{{"phases", phases},
              {"sbm_reg",
               {{"config", golden::sbm_config_name(r)},
                {"arch_cfg", to_string(r.arch)},
                {"f", r.fcache ? 1 : 0},
                {"ci", r.ci ? 1 : 0},
                {"occ_th", r.occ_th}}},
              {"cycles", cycles}};
}

}  // namespace gs
