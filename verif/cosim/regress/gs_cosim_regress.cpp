// gs_cosim_regress: the co-simulation regression (docs/verification.md).
//
// For every policy (golden's list, or --policy) x preemption mechanism (drain, switch, or
// --preempt) x SM sharing (shared, and exclusive for the policies that take it), runs --mixes
// seeded random mixes (cosim::random_mix: 2..8 library kernels, random arrivals) through gs::Gpu under the lockstep scheduler (golden vs. Verilated gs_top,
// compared every cycle). Any mismatch, invariant violation, watchdog or refused input is a
// failure: its mix, seed and message are printed and the exit code is 1. Output: one summary
// line per policy x mechanism x sharing on stdout (byte-stable for a given command line).
// Reproduce one failing case:
//   --policy P --preempt M --sm-sharing X --first-seed S --mixes 1 [--wave F.fst].
#include <CLI/CLI.hpp>
#include <cstdio>
#include <iostream>
#include <string>
#include <vector>

#include "common/error.hpp"
#include "cosim/cosim_runner.hpp"
#include "cosim/mix_generator.hpp"
#include "rtl_sched/lockstep_scheduler.hpp"
#include "rtl_sched/register.hpp"

int main(int argc, char** argv) {
  CLI::App app{"gsched co-simulation regression: random mixes under --scheduler lockstep"};
  std::string config = "warped-slicer";
  std::vector<std::string> policies;
  std::vector<std::string> preempts{"drain", "switch"};
  std::vector<std::string> sharings{"shared", "exclusive"};
  uint32_t mixes = 3;
  uint64_t first_seed = 1;
  gs::cosim::MixGenOptions gen;
  gen.max_grid = 24;
  gen.max_insts_per_warp = 200;
  gen.max_arrival = 5000;
  bool verbose = false;
  bool full_eval = false;
  std::string wave;
  app.add_option("--config", config, "GPU config preset or file")->capture_default_str();
  app.add_option("--policy", policies, "policies to run (default: every policy)");
  app.add_option("--preempt", preempts, "preemption mechanisms")->capture_default_str();
  app.add_option("--sm-sharing", sharings, "SM sharing modes (exclusive runs only for the policies that take it)")
      ->check(CLI::IsMember({"shared", "exclusive"}))
      ->capture_default_str();
  app.add_option("--mixes", mixes, "random mixes per policy x mechanism")->capture_default_str();
  app.add_option("--first-seed", first_seed, "seed of the first mix (mix i uses first-seed + i)")
      ->capture_default_str();
  app.add_option("--max-grid", gen.max_grid, "largest grid per kernel")->capture_default_str();
  app.add_option("--max-insts", gen.max_insts_per_warp, "cap on instructions per warp (0 = descriptor)")
      ->capture_default_str();
  app.add_option("--max-arrival", gen.max_arrival, "latest arrival cycle")->capture_default_str();
  app.add_flag("-v,--verbose", verbose, "one line per case on stderr");
  app.add_flag("--rtl-full-eval", full_eval, "evaluate the RTL at every edge (no fixed-point skip)");
  app.add_option("--wave", wave,
                 "dump each case's whole run as FST to this file (the last case wins; use with --mixes 1)");
  CLI11_PARSE(app, argc, argv);

  try {
    gs::register_rtl_schedulers();
    const gs::GpuConfig cfg = gs::cosim::case_config(gs::load_gpu_config(config));
    const auto lib = gs::load_kernel_library();
    gen.contexts = cfg.max_contexts;
    if (policies.empty()) policies = gs::list_scheduler_policies();
    uint32_t failures = 0;
    std::printf("RTL evaluation: %s\n", full_eval ? "every edge (--rtl-full-eval)" : "fixed-point skip");
    std::printf("%-12s %-7s %-9s %6s %6s %12s %12s\n", "policy", "preempt", "sharing", "mixes", "fails", "cycles",
                "decisions");
    for (const auto& policy : policies) {
      const gs::GpuConfig pcfg = gs::cosim::case_config_for(policy, cfg);
      for (const auto& pm : preempts) {
        if (pm != "drain" && pm != "switch") throw gs::InputError("--preempt", "preempt", "drain or switch, not " + pm);
        for (const auto& sharing : sharings) {
          if (sharing == "exclusive" && !gs::policy_takes_sm_sharing(policy)) continue;
          uint64_t cycles = 0, decisions = 0;
          uint32_t fails = 0;
          for (uint32_t i = 0; i < mixes; ++i) {
            const uint64_t seed = first_seed + i;
            const gs::Mix mix = gs::cosim::random_mix(lib, pcfg, seed, gs::cosim::case_mix_options(policy, gen));
            gs::SchedOptions opt;
            opt.policy = policy;
            opt.preempt = pm == "drain" ? gs::PreemptMode::kDrain : gs::PreemptMode::kSwitch;
            opt.sm_sharing = sharing == "exclusive" ? gs::SmSharing::kExclusive : gs::SmSharing::kShared;
            opt.seed = seed;
            opt.wave_file = wave;
            opt.rtl_fixed_point_skip = !full_eval;
            const auto r = gs::cosim::run_case(pcfg, mix, opt, [](const gs::SchedOptions& o) {
              return std::unique_ptr<gs::SchedulerPort>(gs::make_lockstep_scheduler(o));
            });
            cycles += r.cycles;
            decisions += r.decisions_checked;
            if (verbose)
              std::cerr << policy << " " << pm << " " << sharing << " seed " << seed << ": "
                        << gs::cosim::outcome_name(r.outcome) << " (" << r.cycles << " cycles, " << r.decisions_checked
                        << " decisions)\n";
            if (r.outcome != gs::cosim::Outcome::kPass) {
              ++fails;
              std::cerr << "FAIL " << gs::cosim::outcome_name(r.outcome) << ": policy " << policy << " --preempt " << pm
                        << " --sm-sharing " << sharing << " seed " << seed << " (" << mix.kernels.size()
                        << " kernels)\n"
                        << gs::cosim::describe_mix(mix) << r.message << "\n";
            }
          }
          failures += fails;
          std::printf("%-12s %-7s %-9s %6u %6u %12llu %12llu\n", policy.c_str(), pm.c_str(), sharing.c_str(), mixes,
                      fails, static_cast<unsigned long long>(cycles), static_cast<unsigned long long>(decisions));
          std::fflush(stdout);
        }
      }
    }
    std::printf("%s: %u failing case(s)\n", failures ? "FAILED" : "PASSED", failures);
    return failures ? 1 : 0;
  } catch (const gs::InputError& e) {
    std::cerr << "error: " << e.what() << "\n";
    return 2;
  }
}
