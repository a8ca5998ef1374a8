// gsched: HeteroCore's static mappings (Zhao et al., "HeteroCore GPU to Exploit TLP-Resource
// Diversity", TPDS 2019, ../shared/seeds/004_*.txt, Sec. 4.1 and 4.2): two kernels on a GPU of
// big and small SMs, each kernel given a fixed set of SMs for the whole run from offline
// (standalone) profiles.
//
//   hetero-agnostic  Sec. 4.1: each kernel half of the big SMs and half of the small SMs (the
//                    even split: kernel 0 the first halves in SM order, kernel 1 the rest). No
//                    profiling.
//   hetero-class     Sec. 4.2.1: a kernel is lean-TLP when it runs at least as fast on the GPU's
//                    small SMs as on as many conventional SMs (IPC^S >= IPC^base_n; the paper's
//                    8 small against 8 baseline SMs), thick-TLP otherwise. One thick and one lean kernel: the thick one on every
//                    big SM, the lean one on every small SM; two of a kind: the even split.
//   hetero-stp       Sec. 4.2.2, Algorithm 1: STP_{K0(B)K1(S)} = IPC^B_0 / IPC^base_0 +
//                    IPC^S_1 / IPC^base_1 against STP_{K1(B)K0(S)}; K0 takes the big SMs when its
//                    STP is higher, else K1 (line 6: ties to K1).
//   hetero-balanced  Sec. 4.2.3: both kernels faster per SM on the big SMs (IPC^B / #big >
//                    IPC^S / #small: both "benefit from executing on the big-SMs"): the even
//                    split; otherwise hetero-stp's.
// Profiles, each kernel alone under golden Left-Over over the mix's window (its fixed window, or
// the kernel's whole run): IPC^base on the conventional GPU (config field hetero.baseline_config,
// every SM), IPC^base_n on its first #small SMs, IPC^B on the heterogeneous GPU's big SMs
// only and IPC^S on its small SMs only ("big" and "small": the config's SM type names). An IPC is
// the kernel's instructions over the window (or its run) divided by the window's (its run's) cycles.
// The shared run is golden Left-Over with SchedOptions::sm_kernels holding the mapping for the
// whole run: the paper's static mappings are measured with the fixed-window method (every kernel
// relaunched until the window ends), so a kernel that finishes early leaves its SMs idle in a run
// without one. Golden only: gs_top has no per-SM kernel mask.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "metrics/mix_runner.hpp"

namespace gs {

/// The static HeteroCore policies gsim accepts as --policy, in Sec. 4's order.
inline constexpr const char* kHeteroStaticPolicies[] = {"hetero-agnostic", "hetero-class", "hetero-stp",
                                                        "hetero-balanced"};
bool is_hetero_static_policy(const std::string& policy);

/// One kernel's standalone IPCs (zero where the policy does not profile).
struct HeteroProfile {
  double ipc_base = 0, ipc_base_n = 0, ipc_big = 0, ipc_small = 0;
  bool lean = false;  // IPC^S >= IPC^base_n (hetero-class)
};

/// `entry` of `mix` alone under golden left-over on `cfg`, its CTAs allowed on `sms` only (empty:
/// all); its IPC over the mix's window, or over its own run without one.
double hetero_alone_ipc(const GpuConfig& cfg, const Mix& mix, const MixEntry& entry, const std::vector<uint32_t>& sms,
                        const RunOptions& run_opt);

/// `cfg`'s SMs of the SM types named "big" and "small"; an InputError naming `cfg`'s sm_types
/// and `who` (what needs them) when either is missing.
void hetero_sm_kinds(const GpuConfig& cfg, const std::string& who, std::vector<uint32_t>& big_sms,
                     std::vector<uint32_t>& small_sms);

/// `entry`'s standalone IPCs (Sec. 4.2): on all of `base` (ipc_base), on `cfg`'s big and small
/// SMs, and with `with_base_n` on as many of `base`'s SMs as there are small SMs (ipc_base_n,
/// hetero-class's lean test). gsim calibrate reads the same profile alone.
HeteroProfile hetero_profile(const GpuConfig& cfg, const GpuConfig& base, const Mix& mix, const MixEntry& entry,
                             const std::vector<uint32_t>& big_sms, const std::vector<uint32_t>& small_sms,
                             bool with_base_n, const RunOptions& run_opt);

/// The mapping and what it was made from.
struct HeteroChoice {
  std::string policy;
  std::vector<HeteroProfile> profiles;    // per kernel (empty: hetero-agnostic)
  int big_kernel = -1;                    // the kernel on every big SM; -1: the even split
  double stp_k0_big = 0, stp_k1_big = 0;  // Algorithm 1's two estimates (hetero-stp, -balanced)
  std::string reason;                     // one line: why this mapping
  std::vector<uint32_t> sm_kernels;       // per SM: bit i = kernel i may issue there
  std::vector<uint32_t> big_sms, small_sms;
};

/// Profiles (as the policy needs) and the mapping. Throws InputError naming the mix (not two
/// kernels), the config (no SM types named big and small; hetero.baseline_config missing for a
/// policy that profiles) or the baseline config it cannot load.
HeteroChoice hetero_choose(const GpuConfig& cfg, const Mix& mix, const std::string& policy, const RunOptions& run_opt);

/// Runs `mix` under the static HeteroCore policy `policy`: hetero_choose, then the alone runs and
/// the shared run (golden left-over with the mapping; sched_opt.policy is replaced).
/// `choice` (optional) receives the decision.
MixRun run_hetero_static(const GpuConfig& cfg, const Mix& mix, const std::string& policy, const SchedOptions& sched_opt,
                         const RunOptions& run_opt, AloneRunCache& cache, const CycleHook& hook = {},
                         HeteroChoice* choice = nullptr);

}  // namespace gs
