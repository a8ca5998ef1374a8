// gsched: HeteroCore's mapping decision run alone (see unit_hetero.hpp).
#include "unit/unit_hetero.hpp"

#include <cmath>
#include <vector>

#include "common/error.hpp"
#include "unit/unit_numbers.hpp"

namespace gs {

using nlohmann::json;

void GoldenHeteroSelUnit::run(const golden::HeteroSelIn& in, uint32_t& thick, uint32_t& big, bool& even,
                              uint64_t& cycles) {
  golden::HeteroSel sel;  // the twin of the sequential unit, from reset: start, then edges until idle
  sel.reset();
  cycles = 0;
  for (bool start = true; start || sel.busy(); start = false, ++cycles) {
    sel.next(start, in);
    sel.commit();
  }
  thick = sel.thick();
  big = sel.big();
  even = sel.even();
}

namespace {

uint64_t get_uint(const json& obj, const std::string& key, const std::string& where, const std::string& file,
                  uint64_t lo, uint64_t hi, uint64_t dflt, bool required) {
  if (!obj.contains(key)) {
    if (required) throw InputError(file, where + key, "missing");
    return dflt;
  }
  return unit_uint(obj.at(key), file, where + key, lo, hi);
}

double get_ipc(const json& obj, const std::string& key, const std::string& where, const std::string& file) {
  if (!obj.contains(key)) throw InputError(file, where + key, "missing");
  const json& v = obj.at(key);
  if (!v.is_number() || !std::isfinite(v.get<double>()) || v.get<double>() < 0)
    throw InputError(file, where + key, "must be a finite IPC >= 0, not " + v.dump());
  return v.get<double>();
}

}  // namespace

json run_hetero_unit(HeteroSelUnit& unit, const json& input, const std::string& file) {
  if (!input.is_object()) throw InputError(file, "json", "the input must be an object");
  for (const auto& [k, v] : input.items())
    if (k != "window_cycles" && k != "sms_big" && k != "sms_small" && k != "kernels")
      throw InputError(file, k, "unknown key (known: window_cycles, sms_big, sms_small, kernels)");
  const uint64_t window = get_uint(input, "window_cycles", "", file, 1, uint64_t(1) << 30, 20000, false);
  const uint32_t max_sms = (1u << spec::SmIdW) - 1;
  golden::HeteroSelIn in;
  in.sms_big = uint32_t(get_uint(input, "sms_big", "", file, 1, max_sms, 4, false));
  in.sms_small = uint32_t(get_uint(input, "sms_small", "", file, 1, max_sms, 4, false));
  if (!input.contains("kernels") || !input.at("kernels").is_array())
    throw InputError(file, "kernels", "missing or not a list");
  const json& ks = input.at("kernels");
  if (ks.empty() || ks.size() > golden::kHcKernels)
    throw InputError(file, "kernels",
                     "must list 1.." + std::to_string(golden::kHcKernels) + " kernels (HcMaxKernels), not " +
                         std::to_string(ks.size()));
  in.nk = uint32_t(ks.size());
  const uint32_t max_cta = (1u << spec::CtaCntW) - 1;
  std::vector<std::string> names;
  std::vector<double> base_est, gain;
  for (size_t c = 0; c < ks.size(); ++c) {
    const json& k = ks[c];
    const std::string where = "kernels[" + std::to_string(c) + "].";
    if (!k.is_object()) throw InputError(file, "kernels[" + std::to_string(c) + "]", "must be an object");
    for (const auto& [key, v] : k.items())
      if (key != "name" && key != "ipc_big" && key != "ipc_small" && key != "ctas_big" && key != "ctas_small" &&
          key != "ctas_base")
        throw InputError(file, where + key,
                         "unknown key (known: name, ipc_big, ipc_small, ctas_big, ctas_small, ctas_base)");
    std::string name = "K" + std::to_string(c);
    if (k.contains("name")) {
      if (!k.at("name").is_string()) throw InputError(file, where + "name", "must be a string");
      name = k.at("name").get<std::string>();
    }
    names.push_back(name);
    const double ipc_b = get_ipc(k, "ipc_big", where, file), ipc_s = get_ipc(k, "ipc_small", where, file);
    in.big_insts[c] = unit_insts(ipc_b, window, spec::HcInstW, "HcInstW", file, where + "ipc_big");
    in.small_insts[c] = unit_insts(ipc_s, window, spec::HcInstW, "HcInstW", file, where + "ipc_small");
    in.cta_big[c] = uint32_t(get_uint(k, "ctas_big", where, file, 0, max_cta, 0, true));
    in.cta_small[c] = uint32_t(get_uint(k, "ctas_small", where, file, 0, max_cta, 0, true));
    in.cta_base[c] = uint32_t(get_uint(k, "ctas_base", where, file, 0, max_cta, 0, true));
    // for reading: the paper's estimate and the STP gain, per SM, in floating point
    const double pb = ipc_b / in.sms_big, ps = ipc_s / in.sms_small;
    double base = pb;
    if (in.cta_big[c] > in.cta_small[c])
      base = (double(in.cta_base[c]) - in.cta_small[c]) / (double(in.cta_big[c]) - in.cta_small[c]) * (pb - ps) + ps;
    base_est.push_back(base * in.sms_big);  // as an IPC over sms_big SMs, like ipc_big
    gain.push_back(base > 0 ? (pb - ps) / base : 0.0);
  }
  uint32_t thick = 0, big = 0;
  bool even = false;
  uint64_t cycles = 0;
  unit.run(in, thick, big, even, cycles);
  json kernels = json::array();
  std::string mapping;
  for (uint32_t c = 0; c < in.nk; ++c) {
    const std::string sms = even ? "even" : (big >> c & 1u) ? "big" : "small";
    kernels.push_back(json{{"name", names[c]},
                           {"thick", (thick >> c & 1u) != 0},
                           {"sms", sms},
                           {"ipc_base_estimate", std::round(base_est[c] * 1e4) / 1e4},
                           {"stp_gain", std::round(gain[c] * 1e4) / 1e4}});
    if (!even) mapping += (mapping.empty() ? "" : ", ") + names[c] + " on the " + sms + " SMs";
  }
  if (even) mapping = in.nk < 2 ? "one kernel: every SM" : "every kernel thick: the even split stays";
  return json{{"kernels", kernels}, {"mapping", mapping}, {"decision_cycles", cycles}};
}

}  // namespace gs
