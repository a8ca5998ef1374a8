// gsched: loading and validating GPU configurations (schema: docs/config_schema.md).
//
// A config file is one JSON object whose keys are the GpuConfig field names, plus an
// "sm_types" array of objects whose keys are the SmTypeConfig field names. Absent keys take
// the struct defaults (with one derived default: max_warps = max_threads / warp_size).
// Everything is checked here, once, so the model can trust the config: types and ranges
// per field, then the cross-field rules (cache geometry, warp/thread consistency, allocation
// units shared by all SM types, shared-memory options). Every failure is an InputError
// naming the file and the field.
#include "config/gpu_config.hpp"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <set>

#include "common/error.hpp"
#include "config/json_reader.hpp"
#include "config/limits.hpp"
#include "sched/scheduler_port.hpp"

#ifndef GS_DATA_DIR
#define GS_DATA_DIR "sim_top"
#endif

namespace gs {

using nlohmann::json;

namespace {

bool is_pow2(uint64_t x) { return x != 0 && (x & (x - 1)) == 0; }

std::string configs_dir() { return data_dir() + "/configs"; }

std::string stem_of(const std::string& file) { return std::filesystem::path(file).stem().string(); }

// Sets = size / (line * assoc) must be a whole power of two (index bits of a set-associative cache).
void check_cache_geometry(const std::string& file, const std::string& size_field, uint32_t size, uint32_t assoc,
                          uint32_t line_bytes) {
  if (size % line_bytes != 0) {
    throw InputError(file, size_field,
                     std::to_string(size) + " bytes is not a multiple of line_bytes (" + std::to_string(line_bytes) +
                         ")");
  }
  const uint32_t lines = size / line_bytes;
  if (lines % assoc != 0) {
    throw InputError(file, size_field,
                     std::to_string(lines) + " lines do not divide into " + std::to_string(assoc) + " ways");
  }
  const uint32_t sets = lines / assoc;
  if (!is_pow2(sets)) {
    throw InputError(file, size_field,
                     "gives " + std::to_string(sets) + " sets (" + std::to_string(size) + " B / (" +
                         std::to_string(line_bytes) + " B lines x " + std::to_string(assoc) +
                         " ways)); the number of sets must be a power of two");
  }
}

SmTypeConfig parse_sm_type(const json& v, const std::string& file, const std::string& path, uint32_t warp_size) {
  ObjectReader r(v, file, path);
  SmTypeConfig t;
  r.str("name", t.name);
  r.u32("count", t.count, 1, 4096);
  // Upper bounds of the SM capacities: the scheduler's fields (config/limits.hpp).
  r.u32("max_threads", t.max_threads, 1, limits::kMaxSmThreads, limits::kFieldReason);
  r.u32("max_ctas", t.max_ctas, 1, limits::kMaxCtasPerSm,
        "the SMST and preemption controller track at most MaxCtasPerSm CTAs per SM (rtl/spec/gs_spec.toml)");
  // Derived default: as many warp slots as the thread slots need.
  t.max_warps = std::min(t.max_threads / warp_size, limits::kMaxSmWarps);
  r.u32("max_warps", t.max_warps, 1, limits::kMaxSmWarps, limits::kFieldReason);
  r.u32("registers", t.registers, 1, limits::kMaxSmRegisters, limits::kFieldReason);
  r.u32("reg_alloc_unit", t.reg_alloc_unit, 1, 1u << 20);
  const int scope = r.choice("reg_alloc_scope", {"warp", "cta"});
  if (scope >= 0) t.reg_alloc_scope = scope == 0 ? RegAllocScope::kWarp : RegAllocScope::kCta;
  r.u32("shared_mem_bytes", t.shared_mem_bytes, 0, limits::kMaxSmSharedMem, limits::kFieldReason);
  r.u32("shmem_alloc_unit", t.shmem_alloc_unit, 1, 1u << 20);
  r.u32_list("shared_mem_options", t.shared_mem_options, 0, limits::kMaxSmSharedMem, limits::kFieldReason);
  r.u32("warp_schedulers", t.warp_schedulers, 1, 64);
  r.u32("warp_group_slots", t.warp_group_slots, 0, 65535);
  const int pol = r.choice("warp_sched_policy", {"gto", "lrr"});
  if (pol >= 0) t.warp_sched_policy = pol == 0 ? WarpSchedPolicy::kGto : WarpSchedPolicy::kLrr;
  r.u32("alu_lanes", t.alu_lanes, 1, 1024);
  r.u32("sfu_lanes", t.sfu_lanes, 1, 1024);
  r.u32("ldst_lanes", t.ldst_lanes, 1, 1024);
  r.u32("alu_latency", t.alu_latency, 1, 100000);
  r.u32("sfu_latency", t.sfu_latency, 1, 100000);
  r.u32("shmem_latency", t.shmem_latency, 1, 100000);
  r.u32("l1_size_bytes", t.l1_size_bytes, 1, 1u << 30);
  r.u32("l1_assoc", t.l1_assoc, 1, 1024);
  r.u32("l1_mshrs", t.l1_mshrs, 1, 65536);
  r.u32("l1_hit_latency", t.l1_hit_latency, 1, 100000);
  r.u32("cta_launch_cycles", t.cta_launch_cycles, 0, 1000000);
  const int carve = r.choice("l1_carveout", {"fixed", "dynamic"});
  if (carve >= 0) t.l1_carveout = carve == 0 ? L1Carveout::kFixed : L1Carveout::kDynamic;
  r.notes("notes");
  r.reject_unknown_keys({{"num_sms", "the SM count is the sum of sm_types[].count"},
                         {"sm_count", "the number of SMs of this type is 'count'"}});

  // Cross-field rules of one SM type.
  if (t.max_threads % warp_size != 0) {
    r.fail("max_threads",
           std::to_string(t.max_threads) + " is not a multiple of warp_size (" + std::to_string(warp_size) + ")");
  }
  if (t.max_warps > t.max_threads / warp_size) {
    r.fail("max_warps", std::to_string(t.max_warps) + " warp slots can never be filled: max_threads / warp_size = " +
                            std::to_string(t.max_threads) + " / " + std::to_string(warp_size) + " = " +
                            std::to_string(t.max_threads / warp_size));
  }
  if (t.warp_group_slots != 0 && t.warp_group_slots >= t.max_warps) {
    r.fail("warp_group_slots", std::to_string(t.warp_group_slots) + " is not below max_warps (" +
                                   std::to_string(t.max_warps) +
                                   "): the second warp-slot group would be empty (0 = one group)");
  }
  if (t.warp_schedulers > t.max_warps) {
    r.fail("warp_schedulers",
           std::to_string(t.warp_schedulers) + " schedulers but only " + std::to_string(t.max_warps) + " warp slots");
  }
  const std::pair<const char*, uint32_t> lanes[] = {
      {"alu_lanes", t.alu_lanes}, {"sfu_lanes", t.sfu_lanes}, {"ldst_lanes", t.ldst_lanes}};
  for (const auto& l : lanes) {
    // A warp instruction occupies its unit for warp_size / lanes cycles: must be whole.
    if (l.second > warp_size || warp_size % l.second != 0) {
      r.fail(l.first, std::to_string(l.second) + " lanes must divide warp_size (" + std::to_string(warp_size) + ")");
    }
  }
  if (t.reg_alloc_unit > t.registers) {
    r.fail("reg_alloc_unit", "allocation unit " + std::to_string(t.reg_alloc_unit) +
                                 " is larger than the register file (" + std::to_string(t.registers) + ")");
  }
  if (!t.shared_mem_options.empty()) {
    std::set<uint32_t> seen;
    for (uint32_t o : t.shared_mem_options) {
      if (!seen.insert(o).second) r.fail("shared_mem_options", "value " + std::to_string(o) + " listed twice");
    }
    if (!seen.count(t.shared_mem_bytes)) {
      r.fail("shared_mem_options",
             "must contain shared_mem_bytes (" + std::to_string(t.shared_mem_bytes) + "), the default configuration");
    }
    // Stored default first, then ascending: the occupancy code takes options[0] as the default.
    std::vector<uint32_t> ordered{t.shared_mem_bytes};
    for (uint32_t o : seen) {
      if (o != t.shared_mem_bytes) ordered.push_back(o);
    }
    t.shared_mem_options = ordered;
  }
  if (t.l1_carveout == L1Carveout::kDynamic) {
    // The unified array: the carve-out menu is shared_mem_options, the scheduler's capacity its
    // largest entry, and every carve-out must leave the L1 something to index.
    if (t.shared_mem_options.empty()) r.fail("l1_carveout", "\"dynamic\" needs the carve-out menu shared_mem_options");
    const uint32_t largest = *std::max_element(t.shared_mem_options.begin(), t.shared_mem_options.end());
    if (t.shared_mem_bytes != largest)
      r.fail("shared_mem_bytes", "with l1_carveout \"dynamic\" it is the SM's shared-memory capacity, the largest "
                                 "carve-out of shared_mem_options (" +
                                     std::to_string(largest) + ")");
    if (largest > t.l1_size_bytes)
      r.fail("shared_mem_options", "carve-out " + std::to_string(largest) +
                                       " exceeds the unified array l1_size_bytes (" + std::to_string(t.l1_size_bytes) +
                                       ")");
  }
  return t;
}

}  // namespace

std::string data_dir() {
  const char* env = std::getenv("GSCHED_DATA_DIR");
  if (env && *env) return env;
  return GS_DATA_DIR;
}

std::vector<std::string> list_gpu_configs() { return json_stems_in(configs_dir()); }

GpuConfig parse_gpu_config(const std::string& json_text, const std::string& file) {
  const json doc = parse_json_strict(json_text, file);
  ObjectReader r(doc, file, "");
  GpuConfig cfg;
  cfg.file = file;
  cfg.name = stem_of(file);
  r.str("name", cfg.name);
  r.str("source", cfg.source, /*allow_empty=*/true);
  r.notes("notes");
  r.u32("core_clock_mhz", cfg.core_clock_mhz, 1, 100000);
  r.u32("warp_size", cfg.warp_size, 1, 64);
  if (!is_pow2(cfg.warp_size))
    r.fail("warp_size", "must be a power of two (got " + std::to_string(cfg.warp_size) + ")");
  r.u32("line_bytes", cfg.line_bytes, 16, 4096);
  if (!is_pow2(cfg.line_bytes))
    r.fail("line_bytes", "must be a power of two (got " + std::to_string(cfg.line_bytes) + ")");

  const json* types = r.array("sm_types");
  if (!types)
    r.fail("sm_types", "required field is missing: a GPU needs at least one SM type, e.g. "
                       "\"sm_types\": [{\"name\": \"sm\", \"count\": 16}]");
  if (types->empty()) r.fail("sm_types", "no SM types: the GPU would have 0 SMs");
  std::set<std::string> type_names;
  for (size_t i = 0; i < types->size(); ++i) {
    const std::string path = "sm_types[" + std::to_string(i) + "]";
    SmTypeConfig t = parse_sm_type((*types)[i], file, path, cfg.warp_size);
    if (!type_names.insert(t.name).second) {
      throw InputError(file, path + ".name", "SM type name '" + t.name + "' used twice");
    }
    cfg.sm_types.push_back(std::move(t));
  }

  r.u32("xbar_latency", cfg.xbar_latency, 1, 100000);
  r.u32("xbar_bytes_per_cycle", cfg.xbar_bytes_per_cycle, 1, 1u << 16);
  r.u32("l2_slice_bytes", cfg.l2_slice_bytes, 1, 1u << 30);
  r.u32("l2_assoc", cfg.l2_assoc, 1, 1024);
  r.u32("l2_mshrs", cfg.l2_mshrs, 1, 65536);
  r.u32("l2_hit_latency", cfg.l2_hit_latency, 1, 100000);
  r.u32("dram_channels", cfg.dram_channels, 1, 1024);
  r.u32("dram_banks", cfg.dram_banks, 1, 1024);
  r.u32("dram_clock_mhz", cfg.dram_clock_mhz, 1, 100000);
  r.u32("dram_bus_bytes", cfg.dram_bus_bytes, 1, 1024);
  r.u32("dram_transfers_per_clock", cfg.dram_transfers_per_clock, 1, 64);
  r.u32("dram_row_bytes", cfg.dram_row_bytes, 1, 1u << 20);
  r.u32("dram_queue_depth", cfg.dram_queue_depth, 1, 65536);
  r.u32("tCL", cfg.tCL, 1, 10000);
  r.u32("tRP", cfg.tRP, 1, 10000);
  r.u32("tRC", cfg.tRC, 1, 10000);
  r.u32("tRAS", cfg.tRAS, 1, 10000);
  r.u32("tRCD", cfg.tRCD, 1, 10000);
  r.u32("tRRD", cfg.tRRD, 1, 10000);
  r.u32("tCCD", cfg.tCCD, 1, 10000);
  r.u32("tWR", cfg.tWR, 1, 10000);
  r.u32("max_active_kernels", cfg.max_active_kernels, 1, limits::kMaxActiveKernels, limits::kMaskReason);
  r.u32("max_contexts", cfg.max_contexts, 1, limits::kMaxContexts, limits::kMaskReason);
  // the policies' settings sections, generated from the registry with their ranges
  spec::read_policy_settings(
      [&](const char* section, auto&& read) {
        if (const json* obj = r.object(section)) {
          ObjectReader w(*obj, file, section);
          read(w);
          w.reject_unknown_keys();
        }
      },
      cfg.settings);
  r.reject_unknown_keys({{"num_sms", "the SM count is the sum of sm_types[].count"},
                         {"sm_type_of", "sm_type_of is derived from sm_types[].count, in order"},
                         {"file", "the file name is set by the loader"}});

  // Cross-field rules of the whole GPU.
  const SmTypeConfig& first = cfg.sm_types.front();
  for (size_t i = 0; i < cfg.sm_types.size(); ++i) {
    const SmTypeConfig& t = cfg.sm_types[i];
    const std::string path = "sm_types[" + std::to_string(i) + "]";
    // CTA resources are rounded once per kernel (cta_resources), so every SM type must round alike.
    if (t.reg_alloc_unit != first.reg_alloc_unit || t.reg_alloc_scope != first.reg_alloc_scope) {
      throw InputError(file, path + ".reg_alloc_unit",
                       "all SM types must allocate registers alike (sm_types[0]: unit " +
                           std::to_string(first.reg_alloc_unit) + " per " +
                           (first.reg_alloc_scope == RegAllocScope::kWarp ? "warp" : "cta") + ")");
    }
    if (t.shmem_alloc_unit != first.shmem_alloc_unit) {
      throw InputError(file, path + ".shmem_alloc_unit",
                       "all SM types must use the same shared-memory allocation unit (sm_types[0]: " +
                           std::to_string(first.shmem_alloc_unit) + ")");
    }
    check_cache_geometry(file, path + ".l1_size_bytes", t.l1_size_bytes, t.l1_assoc, cfg.line_bytes);
  }
  check_cache_geometry(file, "l2_slice_bytes", cfg.l2_slice_bytes, cfg.l2_assoc, cfg.line_bytes);
  if (cfg.dram_row_bytes % cfg.line_bytes != 0) {
    r.fail("dram_row_bytes", std::to_string(cfg.dram_row_bytes) + " is not a multiple of line_bytes (" +
                                 std::to_string(cfg.line_bytes) + "): a line must lie in one row");
  }
  if (cfg.tRAS < cfg.tRCD) {
    r.fail("tRAS", "tRAS (" + std::to_string(cfg.tRAS) + ") must be >= tRCD (" + std::to_string(cfg.tRCD) +
                       "): a row stays open at least until it can be read");
  }
  if (cfg.tRC < cfg.tRAS) {
    r.fail("tRC", "tRC (" + std::to_string(cfg.tRC) + ") must be >= tRAS (" + std::to_string(cfg.tRAS) +
                      "): an activate-to-activate cycle includes the row's active time");
  }

  // The golden scheduler's SM bound, named at the count that crosses it.
  {
    uint64_t total = 0;
    for (size_t i = 0; i < cfg.sm_types.size(); ++i) {
      total += cfg.sm_types[i].count;
      if (total > limits::kMaxSms) {
        throw InputError(file, "sm_types[" + std::to_string(i) + "].count",
                         "the GPU would have " + std::to_string(total) + "+ SMs; at most " +
                             std::to_string(limits::kMaxSms) + " are supported (" + limits::kMaxSmsReason + ")");
      }
    }
  }
  // Memory the model would allocate for this config, bounded before anything is allocated.
  if (const uint64_t bytes = limits::model_bytes(cfg); bytes > limits::kMaxModelBytes) {
    throw InputError(file, limits::largest_memory_field(cfg),
                     "the caches and queues of this config would take about " + std::to_string(bytes >> 20) +
                         " MiB of host memory (" + limits::describe_memory(cfg) + "); the limit is " +
                         std::to_string(limits::kMaxModelBytes >> 20) + " MiB");
  }

  // Derived: SM index -> type index, types laid out in the order given.
  for (uint32_t ti = 0; ti < cfg.sm_types.size(); ++ti) {
    cfg.sm_type_of.insert(cfg.sm_type_of.end(), cfg.sm_types[ti].count, ti);
  }
  if (cfg.num_sms() == 0) r.fail("sm_types", "the GPU has 0 SMs");
  return cfg;
}

std::string resolve_config_path(const std::string& path_or_name) {
  if (path_or_name.empty()) {
    throw InputError("config name is empty; available presets: " + join_names(list_gpu_configs()));
  }
  const bool is_path = looks_like_path(path_or_name);
  const std::string path = is_path ? path_or_name : configs_dir() + "/" + path_or_name + ".json";
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) {
    const auto presets = list_gpu_configs();
    std::string msg = path_or_name + ": no such config " + (is_path ? "file" : "preset");
    if (!is_path) msg += " (looked for " + path + ")";
    msg += ".";
    const auto close = closest_names(is_path ? stem_of(path_or_name) : path_or_name, presets);
    if (!close.empty()) msg += " Did you mean " + join_names(close) + "?";
    msg += " Available presets: " + (presets.empty() ? std::string("none in ") + configs_dir() : join_names(presets));
    throw InputError(msg);
  }
  return path;
}

namespace {

/// GpuConfig::base_sm from the config the registry's base_sm setting (hetero.baseline_config)
/// names: its SM type (a conventional GPU has one). The baseline's own settings are not followed.
void load_base_sm(GpuConfig& cfg) {
  const std::string& name = spec::base_sm_config(cfg.settings);
  if (name.empty()) return;
  const std::string where = cfg.file.empty() ? cfg.name : cfg.file;
  const std::string field = std::string(spec::kBaseSmSection) + "." + spec::kBaseSmSetting;
  GpuConfig base;
  try {
    base = parse_gpu_config(read_text_file(resolve_config_path(name)), resolve_config_path(name));
  } catch (const InputError& e) {
    throw InputError(where, field, std::string("cannot load it: ") + e.what());
  }
  if (base.sm_types.size() != 1)
    throw InputError(where, field,
                     name + " has " + std::to_string(base.sm_types.size()) + " SM types; the conventional GPU has one");
  const SmTypeConfig& t = base.sm_types[0];
  cfg.base_sm = {t.max_threads, t.max_warps, t.registers, t.shared_mem_bytes, t.max_ctas};
}

}  // namespace

GpuConfig load_gpu_config(const std::string& path_or_name) {
  const std::string path = resolve_config_path(path_or_name);
  GpuConfig cfg = parse_gpu_config(read_text_file(path), path);
  load_base_sm(cfg);
  // A copy of a preset keeps the preset's "name"; results must not report it as the preset.
  if (looks_like_path(path_or_name)) {
    const auto presets = list_gpu_configs();
    if (std::find(presets.begin(), presets.end(), cfg.name) != presets.end()) {
      std::error_code ec;
      if (!std::filesystem::equivalent(path, configs_dir() + "/" + cfg.name + ".json", ec)) cfg.name += "@" + path;
    }
  }
  return cfg;
}

namespace {

// One step of an override path: a key, then optionally [index] or [*] (index -1).
struct PathStep {
  std::string key;
  bool indexed = false;
  long index = -1;
};

std::vector<PathStep> parse_override_path(const std::string& path, const std::string& opt) {
  std::vector<PathStep> steps;
  size_t i = 0;
  while (i <= path.size()) {
    const size_t end = path.find_first_of(".[", i);
    PathStep st;
    st.key = path.substr(i, end == std::string::npos ? std::string::npos : end - i);
    if (st.key.empty()) throw InputError(opt + ": empty field name in '" + path + "'");
    i = end;
    if (i != std::string::npos && path[i] == '[') {
      const size_t close = path.find(']', i);
      if (close == std::string::npos) throw InputError(opt + ": missing ']' in '" + path + "'");
      const std::string idx = path.substr(i + 1, close - i - 1);
      st.indexed = true;
      if (idx != "*") {
        if (idx.empty() || idx.size() > 6 || idx.find_first_not_of("0123456789") != std::string::npos)
          throw InputError(opt + ": index '" + idx + "' in '" + path + "' is not a whole number or *");
        st.index = std::stol(idx);
      }
      i = close + 1;
    }
    steps.push_back(st);
    if (i == std::string::npos || i >= path.size()) break;
    if (path[i] != '.') throw InputError(opt + ": expected '.' after ']' in '" + path + "'");
    ++i;
  }
  return steps;
}

void apply_override(json& node, const std::vector<PathStep>& steps, size_t k, const json& value,
                    const std::string& opt) {
  const PathStep& st = steps[k];
  if (!node.is_object()) throw InputError(opt + ": '" + st.key + "' is not inside an object");
  const bool last = k + 1 == steps.size();
  if (!st.indexed) {
    if (last) {
      node[st.key] = value;
      return;
    }
    if (!node.contains(st.key)) node[st.key] = json::object();
    apply_override(node[st.key], steps, k + 1, value, opt);
    return;
  }
  if (!node.contains(st.key) || !node[st.key].is_array())
    throw InputError(opt + ": field '" + st.key + "' is not an array in this config");
  json& arr = node[st.key];
  if (st.index >= 0 && size_t(st.index) >= arr.size())
    throw InputError(opt + ": " + st.key + "[" + std::to_string(st.index) + "]: the config has only " +
                     std::to_string(arr.size()) + " entries");
  for (size_t e = 0; e < arr.size(); ++e) {
    if (st.index >= 0 && size_t(st.index) != e) continue;
    if (last) {
      arr[e] = value;
    } else {
      apply_override(arr[e], steps, k + 1, value, opt);
    }
  }
}

}  // namespace

namespace {

// --set policy.<policy>.<setting>=v names a setting by its policy: the field <section>.<setting>
// of the policy's settings section (the registry's `settings`; an analysis policy's is that of
// the policy it runs under). Any other key is a field path as it stands.
std::string settings_field_path(const std::string& key, const std::string& opt) {
  const std::string prefix = "policy.";
  if (key.compare(0, prefix.size(), prefix) != 0) return key;
  const std::string rest = key.substr(prefix.size());
  const size_t dot = rest.find('.');
  if (dot == std::string::npos || dot == 0 || dot + 1 == rest.size())
    throw InputError(opt +
                     ": expected policy.<policy>.<setting>=value, e.g. --set policy.warped-slicer.sample_cycles=2000");
  std::string name;
  try {
    name = canonical_policy_name(rest.substr(0, dot));
  } catch (const InputError& e) {
    throw InputError(opt + ": " + e.what());
  }
  for (const auto& d : spec::kDerivedPolicies)
    if (name == d.name) name = d.runs_under;
  const spec::PolicyInfo* policy = nullptr;
  std::string with;
  for (const auto& p : spec::kPolicies) {
    if (name == p.name) policy = &p;
    if (*p.settings || *p.settings_of) with += (with.empty() ? "" : ", ") + std::string(p.name);
  }
  if (!policy || (!*policy->settings && !*policy->settings_of))
    throw InputError(opt + ": policy " + name + " has no settings (policies with settings: " + with + ")");
  // the sections it reads: its own, or those of the modules it is built from (settings_of)
  const std::string setting = rest.substr(dot + 1);
  std::string found, names;
  for (const auto& s : spec::kSettings) {
    if (!spec::policy_reads_section(*policy, s.section)) continue;
    names += (names.empty() ? "" : ", ") + std::string(s.section) + "." + s.name;
    if (setting != s.name) continue;
    if (!found.empty())
      throw InputError(opt + ": policy " + name + " reads two settings named '" + setting + "' (" + found + ", " +
                       s.section + "." + s.name + "); --set that section's key instead");
    found = std::string(s.section) + "." + s.name;
  }
  if (!found.empty()) return found;
  throw InputError(opt + ": policy " + name + " has no setting '" + setting + "' (it reads " + names +
                   "; docs/config_schema.md)");
}

}  // namespace

GpuConfig load_gpu_config(const std::string& path_or_name, const std::vector<std::string>& overrides) {
  if (overrides.empty()) return load_gpu_config(path_or_name);
  const std::string path = resolve_config_path(path_or_name);
  json doc = parse_json_strict(read_text_file(path), path);
  expect_object(doc, path, "");
  std::string label;
  for (const std::string& ov : overrides) {
    const std::string opt = "--set " + ov;
    const size_t eq = ov.find('=');
    if (eq == std::string::npos || eq == 0)
      throw InputError(opt + ": expected key=value, e.g. --set l2_assoc=16 or --set sm_types[0].count=8");
    const std::string key = ov.substr(0, eq), text = ov.substr(eq + 1);
    if (key == "name" || key == "file")
      throw InputError(opt + ": '" + key + "' cannot be set (the name records the change)");
    json value;
    try {
      value = json::parse(text);
    } catch (const json::exception&) {
      value = text;  // not JSON: a bare word is a string (e.g. --set sm_types[0].warp_sched_policy=lrr)
    }
    apply_override(doc, parse_override_path(settings_field_path(key, opt), opt), 0, value, opt);
    label += (label.empty() ? "" : ",") + key + "=" + text;
  }
  const std::string base = load_gpu_config(path_or_name).name;  // as reported without overrides
  const std::string file = path + " (with --set " + label + ")";
  GpuConfig cfg = parse_gpu_config(doc.dump(), file);
  cfg.name = base + "{" + label + "}";
  load_base_sm(cfg);
  return cfg;
}

}  // namespace gs
