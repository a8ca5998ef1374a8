// gsched: the water-filling unit run alone (see unit_waterfill.hpp).
#include "unit/unit_waterfill.hpp"

#include "common/error.hpp"

namespace gs {

using nlohmann::json;

golden::WfResult GoldenWaterfillUnit::run(const golden::WfInputs& in) {
  twin_.reset();
  return golden::run_waterfill(twin_, in);
}

namespace {

/// `v` as a non-negative integer of at most `width` bits; `name` is the field in errors.
uint32_t as_uint(const json& v, const std::string& name, uint32_t width, const std::string& file) {
  if (!v.is_number_integer()) throw InputError(file, name, "must be an integer, not " + v.dump());
  if (!v.is_number_unsigned() && v.get<int64_t>() < 0)
    throw InputError(file, name, "must not be negative (" + v.dump() + ")");
  const uint64_t max = (uint64_t(1) << width) - 1;
  if (v.get<uint64_t>() > max)
    throw InputError(file, name,
                     v.dump() + " does not fit " + std::to_string(width) + " bits (at most " + std::to_string(max) +
                         ")");
  return static_cast<uint32_t>(v.get<uint64_t>());
}

uint32_t field_uint(const json& obj, const char* key, const std::string& where, uint32_t width,
                    const std::string& file) {
  if (!obj.contains(key)) throw InputError(file, where + key, "missing");
  return as_uint(obj.at(key), where + key, width, file);
}

WfRes parse_res(const json& obj, const std::string& where, const std::string& file) {
  if (!obj.is_object()) throw InputError(file, where.substr(0, where.size() - 1), "must be an object");
  return WfRes{field_uint(obj, "threads", where, spec::ThreadW, file),
               field_uint(obj, "warps", where, spec::WarpW, file), field_uint(obj, "regs", where, spec::RegW, file),
               field_uint(obj, "smem", where, spec::ShmemW, file),
               field_uint(obj, "slots", where, spec::CtaCntW, file)};
}

}  // namespace

WaterfillInput parse_waterfill(const json& input, const std::string& file) {
  WaterfillInput w;
  if (!input.is_object()) throw InputError(file, "json", "the input must be an object");
  if (!input.contains("resources")) throw InputError(file, "resources", "missing");
  w.in.avail = parse_res(input.at("resources"), "resources.", file);
  if (!input.contains("kernels")) throw InputError(file, "kernels", "missing");
  const json& ks = input.at("kernels");
  if (!ks.is_array() || ks.empty() || ks.size() > spec::WfMaxKernels)
    throw InputError(file, "kernels",
                     "must list 1.." + std::to_string(spec::WfMaxKernels) +
                         " kernels (K at most WfMaxKernels = " + std::to_string(spec::WfMaxKernels) + "), not " +
                         (ks.is_array() ? std::to_string(ks.size()) : ks.dump()));
  w.kernels = static_cast<uint32_t>(ks.size());
  for (uint32_t i = 0; i < w.kernels; ++i) {
    const std::string where = "kernels[" + std::to_string(i) + "].";
    if (!ks[i].is_object()) throw InputError(file, "kernels[" + std::to_string(i) + "]", "must be an object");
    if (!ks[i].contains("cta")) throw InputError(file, where + "cta", "missing");
    golden::WfKernel& k = w.in.k[i];
    k.cta = parse_res(ks[i].at("cta"), where + "cta.", file);
    const WfRes& r = k.cta;
    const WfRes& a = w.in.avail;
    const struct {
      const char* key;
      uint32_t need, have;
    } comps[] = {{"threads", r.threads, a.threads},
                 {"warps", r.warps, a.warps},
                 {"regs", r.regs, a.regs},
                 {"smem", r.shmem, a.shmem},
                 {"slots", r.slots, a.slots}};
    for (const auto& c : comps)
      if (c.need > c.have)
        throw InputError(file, where + "cta." + c.key,
                         "one CTA does not fit the resources alone (" + std::to_string(c.need) + " > resources." +
                             c.key + " = " + std::to_string(c.have) + ")");
    if (!ks[i].contains("perf")) throw InputError(file, where + "perf", "missing");
    const json& p = ks[i].at("perf");
    if (!p.is_array()) throw InputError(file, where + "perf", "must be an array of integers");
    if (p.empty()) throw InputError(file, where + "perf", "N = 0: at least the performance with 1 CTA");
    if (p.size() > spec::WfMaxSteps)
      throw InputError(file, where + "perf",
                       "N = " + std::to_string(p.size()) + " above WfMaxSteps = " + std::to_string(spec::WfMaxSteps));
    k.nsteps = static_cast<uint32_t>(p.size());
    for (uint32_t j = 0; j < k.nsteps; ++j) {
      k.perf[j] = as_uint(p[j], where + "perf[" + std::to_string(j) + "]", spec::WfPerfW, file);
    }
  }
  return w;
}

json run_waterfill_unit(WaterfillUnit& unit, const json& input, const std::string& file) {
  const WaterfillInput w = parse_waterfill(input, file);
  const golden::WfResult r = unit.run(w.in);
  json ctas = json::array();
  for (uint32_t i = 0; i < w.kernels; ++i) ctas.push_back(r.ctas[i]);
  return json{{"ctas", ctas}, {"spatial", r.spatial}, {"cycles", r.cycles}};
}

}  // namespace gs
