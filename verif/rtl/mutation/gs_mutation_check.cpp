// gs_mutation_check: shows that the lockstep checker or an invariant catches each RTL mutant.
//
// Usage: gs_mutation_check --list | --mutant GS_MUT_<X> | --mutant none  [--no-state-check]
// For one mutant (a $test$plusargs switch of the GS_MUTANTS build, rtl::make_mutant_gs_top)
// it runs a fixed list of short co-simulations (every policy x both preemption
// mechanisms x SM sharing -- shared, and exclusive for the policies that take it -- x a few
// seeded random mixes on the 16-SM preset) with the golden reference
// against gs_top with that switch on, stopping at the first case that ends in CheckMismatch or
// InvariantError (an RTL assertion counts: RtlScheduler raises InvariantError). Exit 0 when
// caught. A watchdog stop or a clean pass through every case means the bug slipped through:
// exit 1. `--mutant none` runs the same cases on the same model with every switch off and must pass
// them all (the control: it proves the cases are clean and the switches off by default, so a
// catch means the mutant).
// The lockstep scheduler compares the tables every cycle too (the state check); with
// --no-state-check only gs_top's outputs, which shows how much later a bug reaches the port.
#include <CLI/CLI.hpp>
#include <algorithm>
#include <iostream>
#include <sstream>
#include <string>

#include "common/error.hpp"
#include "cosim/cosim_runner.hpp"
#include "cosim/mix_generator.hpp"
#include "mutation/mutant_table.hpp"
#include "rtl_sched/lockstep_scheduler.hpp"
#include "rtl_sched/rtl_scheduler.hpp"

namespace {

struct CaseSpec {
  std::string policy;
  gs::PreemptMode mode;
  gs::SmSharing sharing;
  uint64_t seed;
};

std::vector<CaseSpec> case_list(uint32_t seeds) {
  std::vector<CaseSpec> cases;
  for (uint64_t s = 1; s <= seeds; ++s)
    for (const auto& p : gs::list_scheduler_policies())
      for (auto m : {gs::PreemptMode::kDrain, gs::PreemptMode::kSwitch})
        for (auto x : {gs::SmSharing::kShared, gs::SmSharing::kExclusive})
          if (x == gs::SmSharing::kShared || gs::policy_takes_sm_sharing(p)) cases.push_back({p, m, x, s});
  return cases;
}

gs::Mix case_mix(const gs::GpuConfig& cfg, const std::vector<gs::KernelDesc>& lib, uint64_t seed,
                 gs::cosim::MixGenOptions gen) {
  gen.contexts = cfg.max_contexts;
  return gs::cosim::random_mix(lib, cfg, seed, gen);
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"gsched mutation check: the lockstep checker must catch every GS_MUT_* bug"};
  std::string mutant;
  std::string config = "warped-slicer";
  uint32_t seeds = 6;
  bool list = false;
  bool no_state_check = false;
  gs::cosim::MixGenOptions gen;
  gen.min_kernels = 3;
  gen.max_kernels = 6;
  // Many short CTAs: issues and retirements of one kernel often fall into the same cycle,
  // which is where table-update bugs live (GS_MUT_CTA_REISSUE needs exactly that).
  gen.max_grid = 200;
  gen.max_insts_per_warp = 40;
  gen.max_arrival = 3000;
  app.add_option("--mutant", mutant, "GS_MUT_<X>, or 'none' for the unmutated control");
  app.add_option("--config", config, "GPU config preset")->capture_default_str();
  app.add_option("--seeds", seeds, "random mixes per policy x mechanism")->capture_default_str();
  app.add_flag("--list", list, "list the mutants built into this binary");
  app.add_flag("--no-state-check", no_state_check, "lockstep compares gs_top's outputs only, not the tables");
  app.add_option("--max-grid", gen.max_grid, "largest grid per kernel")->capture_default_str();
  app.add_option("--max-insts", gen.max_insts_per_warp, "cap on instructions per warp")->capture_default_str();
  CLI11_PARSE(app, argc, argv);

  const auto& names = gs::mutation::lockstep_mutants();
  if (list) {
    for (const auto& m : names) std::cout << m << "\n";
    return 0;
  }
  if (mutant != "none" && std::find(names.begin(), names.end(), mutant) == names.end()) {
    std::cerr << "error: unknown mutant '" << mutant << "' (--list shows them)\n";
    return 2;
  }
  // The control runs the same model with every switch off.
  const gs::rtl::RtlModelMaker dut_model = [&] { return gs::rtl::make_mutant_gs_top(mutant == "none" ? "" : mutant); };
  const gs::GpuConfig cfg = gs::cosim::case_config(gs::load_gpu_config(config));
  const auto lib = gs::load_kernel_library();
  const std::string label = mutant == "none" ? "rtl" : "mutant " + mutant;
  auto maker = [&](const gs::SchedOptions& o) -> std::unique_ptr<gs::SchedulerPort> {
    return std::make_unique<gs::LockstepScheduler>(gs::make_scheduler("golden", o),
                                                   std::make_unique<gs::RtlScheduler>(o, dut_model, nullptr, label),
                                                   nullptr);
  };
  uint32_t run = 0;
  for (const auto& c : case_list(seeds)) {
    gs::SchedOptions opt;
    opt.policy = c.policy;
    opt.preempt = c.mode;
    opt.sm_sharing = c.sharing;
    opt.seed = c.seed;
    opt.lockstep_state_check = !no_state_check;
    const gs::GpuConfig pcfg = gs::cosim::case_config_for(c.policy, cfg);
    const gs::Mix mix = case_mix(pcfg, lib, c.seed, gs::cosim::case_mix_options(c.policy, gen));
    const auto r = gs::cosim::run_case(pcfg, mix, opt, maker, 5'000'000);
    ++run;
    const std::string where = "policy " + c.policy + " --preempt " +
                              (c.mode == gs::PreemptMode::kDrain ? "drain" : "switch") + " --sm-sharing " +
                              gs::sm_sharing_name(c.sharing) + " seed " + std::to_string(c.seed);
    const bool caught = r.outcome == gs::cosim::Outcome::kMismatch || r.outcome == gs::cosim::Outcome::kInvariant;
    if (mutant == "none") {
      if (r.outcome != gs::cosim::Outcome::kPass) {
        std::cout << "CONTROL FAILED (" << gs::cosim::outcome_name(r.outcome) << ") " << where << "\n"
                  << gs::cosim::describe_mix(mix) << r.message << "\n";
        return 1;
      }
      continue;
    }
    if (caught) {
      std::cout << mutant << " CAUGHT by " << gs::cosim::outcome_name(r.outcome) << " in case " << run << " (" << where
                << ") at cycle " << r.cycles << ":\n"
                << r.message.substr(0, r.message.find('\n')) << "\n";
      std::istringstream lines(r.message);  // the mismatch waveform and how to open it
      for (std::string l; std::getline(lines, l);)
        if (l.rfind("waveform", 0) == 0 || l.rfind("open it with", 0) == 0) std::cout << l << "\n";
      return 0;
    }
    if (r.outcome != gs::cosim::Outcome::kPass)
      std::cout << "  case " << run << " (" << where << "): " << gs::cosim::outcome_name(r.outcome)
                << " -- not a checker catch\n";
  }
  if (mutant == "none") {
    std::cout << "control: all " << run << " cases clean\n";
    return 0;
  }
  std::cout << mutant << " ESCAPED: " << run << " cases ran without a mismatch or invariant failure\n";
  return 1;
}
