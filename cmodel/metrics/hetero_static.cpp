// gsched: HeteroCore's static mappings (contract in hetero_static.hpp).
#include "metrics/hetero_static.hpp"

#include "common/error.hpp"

namespace gs {

namespace {

/// `entry` alone under golden left-over on `cfg`, its CTAs allowed on `sms` only (empty: all);
/// its IPC over the mix's window, or over its own run without one.
double alone_ipc(const GpuConfig& cfg, const Mix& mix, const MixEntry& entry, const std::vector<uint32_t>& sms,
                 const RunOptions& run_opt) {
  const Mix alone = alone_mix(mix, entry);
  SchedOptions opt;
  opt.policy = kAlonePolicy;
  opt.seed = run_opt.sched.seed;
  if (!sms.empty()) {
    opt.sm_kernels.assign(cfg.num_sms(), 0);
    for (uint32_t s : sms) opt.sm_kernels[s] = 1;   // kernel 0 of the alone mix
  }
  RunOptions run = run_opt;
  run.sched = opt;
  run.on_cycle = nullptr;
  auto sched = make_scheduler("golden", opt);
  Gpu gpu(cfg, alone, *sched, run);
  const RunResult r = gpu.run();
  const KernelResult& k = r.kernels.at(0);
  const uint64_t cycles = r.window_cycles ? r.window_cycles : k.cycles();
  return cycles ? double(k.instructions) / double(cycles) : 0.0;
}

}  // namespace

bool is_hetero_static_policy(const std::string& policy) {
  for (const char* p : kHeteroStaticPolicies)
    if (policy == p) return true;
  return false;
}

HeteroChoice hetero_choose(const GpuConfig& cfg, const Mix& mix, const std::string& policy, const RunOptions& run_opt) {
  const std::string where = mix.file.empty() ? mix.name : mix.file;
  const std::string cfg_where = cfg.file.empty() ? cfg.name : cfg.file;
  if (!is_hetero_static_policy(policy)) throw InvariantError("hetero_choose: not a static HeteroCore policy: " + policy);
  if (mix.kernels.size() != 2)
    throw InputError(where, "kernels",
                     "policy " + policy + " maps two kernels (HeteroCore Sec. 4); this mix has " +
                         std::to_string(mix.kernels.size()));
  HeteroChoice c;
  c.policy = policy;
  for (uint32_t s = 0; s < cfg.num_sms(); ++s) {
    if (cfg.sm(s).name == "big") c.big_sms.push_back(s);
    else if (cfg.sm(s).name == "small") c.small_sms.push_back(s);
  }
  if (c.big_sms.empty() || c.small_sms.empty())
    throw InputError(cfg_where, "sm_types",
                     "policy " + policy + " needs SM types named \"big\" and \"small\" (a HeteroCore GPU, e.g. preset heterocore)");

  // the even split: kernel 0 the first half of each type (the larger half of an odd count)
  auto even = [&] {
    c.big_kernel = -1;
    c.sm_kernels.assign(cfg.num_sms(), 0);
    for (const auto* type : {&c.big_sms, &c.small_sms})
      for (size_t i = 0; i < type->size(); ++i) c.sm_kernels[(*type)[i]] = i < (type->size() + 1) / 2 ? 1u : 2u;
  };
  auto big_to = [&](int k) {
    c.big_kernel = k;
    c.sm_kernels.assign(cfg.num_sms(), 0);
    for (uint32_t s : c.big_sms) c.sm_kernels[s] = 1u << k;
    for (uint32_t s : c.small_sms) c.sm_kernels[s] = 1u << (1 - k);
  };
  if (policy == "hetero-agnostic") {
    even();
    c.reason = "TLP-agnostic: half of each SM type per kernel";
    return c;
  }

  if (cfg.hetero.baseline_config.empty())
    throw InputError(cfg_where, "hetero.baseline_config",
                     "policy " + policy + " profiles on the conventional GPU: name it (e.g. \"heterocore-baseline\")");
  GpuConfig base;
  try {
    base = load_gpu_config(cfg.hetero.baseline_config);
  } catch (const InputError& e) {
    throw InputError(cfg_where, "hetero.baseline_config", std::string("cannot load it: ") + e.what());
  }
  const uint32_t n_small = uint32_t(c.small_sms.size()), n_big = uint32_t(c.big_sms.size());
  if (base.num_sms() < n_small)
    throw InputError(cfg_where, "hetero.baseline_config",
                     base.name + " has " + std::to_string(base.num_sms()) + " SMs, fewer than the " +
                         std::to_string(n_small) + " small SMs it is compared with");
  std::vector<uint32_t> base_n;
  for (uint32_t s = 0; s < n_small; ++s) base_n.push_back(s);
  const GpuConfig rc = run_config(cfg, mix), rb = run_config(base, mix);
  for (const MixEntry& e : mix.kernels) {
    HeteroProfile p;
    p.ipc_base = alone_ipc(rb, mix, e, {}, run_opt);
    p.ipc_big = alone_ipc(rc, mix, e, c.big_sms, run_opt);
    p.ipc_small = alone_ipc(rc, mix, e, c.small_sms, run_opt);
    if (policy == "hetero-class") p.ipc_base_n = alone_ipc(rb, mix, e, base_n, run_opt);
    p.lean = p.ipc_small >= p.ipc_base_n;
    c.profiles.push_back(p);
  }
  const HeteroProfile &p0 = c.profiles[0], &p1 = c.profiles[1];
  if (policy == "hetero-class") {
    if (p0.lean != p1.lean) {
      big_to(p0.lean ? 1 : 0);
      c.reason = "classification: the thick-TLP kernel on the big SMs, the lean-TLP one on the small SMs";
    } else {
      even();
      c.reason = std::string("classification: both kernels ") + (p0.lean ? "lean" : "thick") + "-TLP: the even split";
    }
    return c;
  }
  // Algorithm 1 (an IPC^base of 0, a kernel that issued nothing alone, counts as 0 STP)
  auto ratio = [](double a, double b) { return b > 0 ? a / b : 0.0; };
  c.stp_k0_big = ratio(p0.ipc_big, p0.ipc_base) + ratio(p1.ipc_small, p1.ipc_base);
  c.stp_k1_big = ratio(p1.ipc_big, p1.ipc_base) + ratio(p0.ipc_small, p0.ipc_base);
  const bool thick0 = p0.ipc_big / n_big > p0.ipc_small / n_small, thick1 = p1.ipc_big / n_big > p1.ipc_small / n_small;
  if (policy == "hetero-balanced" && thick0 && thick1) {
    even();
    c.reason = "STP/ANTT-balanced: both kernels faster per SM on big SMs: the even split";
    return c;
  }
  big_to(c.stp_k0_big > c.stp_k1_big ? 0 : 1);
  c.reason = "STP-optimized (Algorithm 1): the mapping with the higher estimated STP";
  return c;
}

MixRun run_hetero_static(const GpuConfig& cfg, const Mix& mix, const std::string& policy, const SchedOptions& sched_opt,
                         const RunOptions& run_opt, AloneRunCache& cache, const CycleHook& hook, HeteroChoice* choice) {
  RunOptions profile_run = run_opt;
  profile_run.sched = sched_opt;
  const HeteroChoice c = hetero_choose(cfg, mix, policy, profile_run);
  if (choice) *choice = c;
  SchedOptions opt = sched_opt;
  opt.policy = kAlonePolicy;
  opt.sm_kernels = c.sm_kernels;
  return run_mix_with_alone(cfg, mix, "golden", opt, run_opt, cache, hook);
}

}  // namespace gs
