// gsched: HeteroCore's static mappings (contract in hetero_static.hpp).
#include "metrics/hetero_static.hpp"
#include "metrics/mix_strategy.hpp"

#include <cstdio>

#include "common/error.hpp"

namespace gs {

double hetero_alone_ipc(const GpuConfig& cfg, const Mix& mix, const MixEntry& entry, const std::vector<uint32_t>& sms,
                        const RunOptions& run_opt) {
  const Mix alone = alone_mix(mix, entry);
  SchedOptions opt;
  opt.policy = kAlonePolicy;
  opt.seed = run_opt.sched.seed;
  if (!sms.empty()) {
    opt.sm_kernels.assign(cfg.num_sms(), 0);
    for (uint32_t s : sms) opt.sm_kernels[s] = 1;  // kernel 0 of the alone mix
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

void hetero_sm_kinds(const GpuConfig& cfg, const std::string& who, std::vector<uint32_t>& big_sms,
                     std::vector<uint32_t>& small_sms) {
  big_sms.clear();
  small_sms.clear();
  for (uint32_t s = 0; s < cfg.num_sms(); ++s) {
    if (cfg.sm(s).name == "big") big_sms.push_back(s);
    else if (cfg.sm(s).name == "small") small_sms.push_back(s);
  }
  if (big_sms.empty() || small_sms.empty())
    throw InputError(cfg.file.empty() ? cfg.name : cfg.file, "sm_types",
                     who + " needs SM types named \"big\" and \"small\" (a HeteroCore GPU, e.g. preset heterocore)");
}

HeteroProfile hetero_profile(const GpuConfig& cfg, const GpuConfig& base, const Mix& mix, const MixEntry& entry,
                             const std::vector<uint32_t>& big_sms, const std::vector<uint32_t>& small_sms,
                             bool with_base_n, const RunOptions& run_opt) {
  std::vector<uint32_t> base_n;
  for (uint32_t s = 0; s < uint32_t(small_sms.size()); ++s) base_n.push_back(s);
  const GpuConfig rc = run_config(cfg, mix), rb = run_config(base, mix);
  HeteroProfile p;
  p.ipc_base = hetero_alone_ipc(rb, mix, entry, {}, run_opt);
  p.ipc_big = hetero_alone_ipc(rc, mix, entry, big_sms, run_opt);
  p.ipc_small = hetero_alone_ipc(rc, mix, entry, small_sms, run_opt);
  if (with_base_n) p.ipc_base_n = hetero_alone_ipc(rb, mix, entry, base_n, run_opt);
  p.lean = p.ipc_small >= p.ipc_base_n;
  return p;
}

bool is_hetero_static_policy(const std::string& policy) {
  for (const char* p : kHeteroStaticPolicies)
    if (policy == p) return true;
  return false;
}

HeteroChoice hetero_choose(const GpuConfig& cfg, const Mix& mix, const std::string& policy, const RunOptions& run_opt) {
  const std::string where = mix.file.empty() ? mix.name : mix.file;
  const std::string cfg_where = cfg.file.empty() ? cfg.name : cfg.file;
  if (!is_hetero_static_policy(policy))
    throw InvariantError("hetero_choose: not a static HeteroCore policy: " + policy);
  if (mix.kernels.size() != 2)
    throw InputError(where, "kernels",
                     "policy " + policy + " maps two kernels (HeteroCore Sec. 4); this mix has " +
                         std::to_string(mix.kernels.size()));
  HeteroChoice c;
  c.policy = policy;
  hetero_sm_kinds(cfg, "policy " + policy, c.big_sms, c.small_sms);

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

  if (cfg.settings.hetero.baseline_config.empty())
    throw InputError(cfg_where, "hetero.baseline_config",
                     "policy " + policy + " profiles on the conventional GPU: name it (e.g. \"heterocore-baseline\")");
  GpuConfig base;
  try {
    base = load_gpu_config(cfg.settings.hetero.baseline_config);
  } catch (const InputError& e) {
    throw InputError(cfg_where, "hetero.baseline_config", std::string("cannot load it: ") + e.what());
  }
  const uint32_t n_small = uint32_t(c.small_sms.size()), n_big = uint32_t(c.big_sms.size());
  if (base.num_sms() < n_small)
    throw InputError(cfg_where, "hetero.baseline_config",
                     base.name + " has " + std::to_string(base.num_sms()) + " SMs, fewer than the " +
                         std::to_string(n_small) + " small SMs it is compared with");
  for (const MixEntry& e : mix.kernels)
    c.profiles.push_back(hetero_profile(cfg, base, mix, e, c.big_sms, c.small_sms, policy == "hetero-class", run_opt));
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

// ---- the analysis policies hetero-agnostic, -class, -stp, -balanced (metrics/mix_strategy.hpp)
namespace gs {
namespace {

/// Big and small SMs kernel k may issue on.
std::pair<uint32_t, uint32_t> sms_of(const HeteroChoice& c, size_t k) {
  uint32_t big = 0, small = 0;
  for (uint32_t s : c.big_sms) big += c.sm_kernels[s] >> k & 1u;
  for (uint32_t s : c.small_sms) small += c.sm_kernels[s] >> k & 1u;
  return {big, small};
}

/// The profiles, the mapping and why, after the table.
Report hetero_report(const HeteroChoice& c, const Mix& mix) {
  Report rep(spec::ReportKind::kHetero);
  rep.set("policy", c.policy).set("reason", c.reason).set("big_kernel", c.big_kernel);
  if (c.stp_k0_big > 0 || c.stp_k1_big > 0) rep.set("stp_k0_big", c.stp_k0_big).set("stp_k1_big", c.stp_k1_big);
  for (size_t i = 0; i < c.profiles.size(); ++i) {
    const HeteroProfile& p = c.profiles[i];
    ReportRow& row = rep.add_row("profiles")
                         .set("kernel", mix.kernels.at(i).kernel)
                         .set("ipc_base", p.ipc_base)
                         .set("ipc_big", p.ipc_big)
                         .set("ipc_small", p.ipc_small);
    if (p.ipc_base_n > 0) row.set("ipc_base_n", p.ipc_base_n);
    if (c.policy == "hetero-class") row.set("lean", p.lean);
  }
  for (size_t k = 0; k < mix.kernels.size(); ++k) {
    const auto [big, small] = sms_of(c, k);
    rep.add_row("sms").set("kernel", mix.kernels[k].kernel).set("big", big).set("small", small);
  }
  return rep;
}

class HeteroStaticStrategy final : public MixStrategy {
 public:
  explicit HeteroStaticStrategy(std::string policy) : policy_(std::move(policy)) {}
  MixRun run(const StrategyRun& r, std::vector<Report>& reports) override {
    if (policy_ != "hetero-agnostic")
      r.note(policy_ + ": profiling each kernel alone (conventional GPU " + r.cfg.settings.hetero.baseline_config +
             ", big SMs, small SMs)");
    HeteroChoice choice;
    MixRun result = run_hetero_static(r.cfg, r.mix, policy_, r.sched, r.run, r.cache, r.hook, &choice);
    reports.push_back(hetero_report(choice, r.mix));
    return result;
  }

 private:
  std::string policy_;
};

}  // namespace

std::unique_ptr<MixStrategy> make_mix_strategy_hetero_static(const std::string& policy) {
  return std::make_unique<HeteroStaticStrategy>(policy);
}

}  // namespace gs
