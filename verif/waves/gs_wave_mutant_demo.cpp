// gs_wave_mutant_demo: a lockstep mismatch of a real RTL bug, with the full mismatch waveform.
//
//   gs_wave_mutant_demo [--policy ppq-excl] [--preempt drain] [--seed 1]
//
// Runs one short co-simulation (a seeded random mix on the 16-SM Warped-Slicer preset, the
// same mix settings as gs_mutation_check) with the golden scheduler as reference and, as DUT,
// the traced gs_top with its GS_MUT_DISPATCH_RESERVED switch on (gs_sm_driver keeps sending CTAs
// to an SM that is reserved for a preemption; docs/rtl/mutations.md) -- a traced model, so the
// mismatch waveform holds the DUT's internals as well as the REF and DUT decision records.
// Prints the mismatch report (the last lines name the files and the gtkwave command) and
// exits 0 when the run ends in a lockstep mismatch, 1 otherwise. docs/waveforms.md walks
// through the waveform it leaves in the working directory. It checks the port only
// (SchedOptions::lockstep_state_check off), as the walk-through follows a port mismatch.
#include <CLI/CLI.hpp>
#include <iostream>

#include "cosim/cosim_runner.hpp"
#include "cosim/mix_generator.hpp"
#include "rtl_sched/lockstep_scheduler.hpp"
#include "rtl_sched/rtl_scheduler.hpp"

namespace {

// The traced gs_top with the GS_MUT_DISPATCH_RESERVED switch on.
std::unique_ptr<gs::rtl::RtlModel> make_mutant() {
  return gs::rtl::make_mutant_gs_top("GS_MUT_DISPATCH_RESERVED", true);
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"Lockstep run against the traced GS_MUT_DISPATCH_RESERVED mutant; writes its mismatch waveform"};
  std::string policy = "ppq-excl", preempt = "drain";
  uint64_t seed = 1;
  app.add_option("--policy", policy, "policy")->capture_default_str();
  app.add_option("--preempt", preempt, "drain or switch")
      ->check(CLI::IsMember({"drain", "switch"}))
      ->capture_default_str();
  app.add_option("--seed", seed, "mix seed")->capture_default_str();
  CLI11_PARSE(app, argc, argv);

  const gs::GpuConfig cfg = gs::load_gpu_config("warped-slicer");
  const auto lib = gs::load_kernel_library();
  gs::cosim::MixGenOptions gen;  // as gs_mutation_check
  gen.min_kernels = 3;
  gen.max_kernels = 6;
  gen.max_grid = 200;
  gen.max_insts_per_warp = 40;
  gen.max_arrival = 3000;
  gen.contexts = cfg.max_contexts;
  const gs::Mix mix = gs::cosim::random_mix(lib, cfg, seed, gen);

  gs::SchedOptions opt;
  opt.policy = policy;
  opt.preempt = preempt == "switch" ? gs::PreemptMode::kSwitch : gs::PreemptMode::kDrain;
  opt.seed = seed;
  // The walk-through starts from a port mismatch (its REF/DUT rows are what the view shows):
  // the state check would stop this run at the table entry instead (docs/cosim.md).
  opt.lockstep_state_check = false;
  auto maker = [](const gs::SchedOptions& o) -> std::unique_ptr<gs::SchedulerPort> {
    return std::make_unique<gs::LockstepScheduler>(
        gs::make_scheduler("golden", o),
        std::make_unique<gs::RtlScheduler>(o, &make_mutant, nullptr, "mutant GS_MUT_DISPATCH_RESERVED"), &make_mutant);
  };
  const auto r = gs::cosim::run_case(cfg, mix, opt, maker, 5'000'000);
  std::cout << gs::cosim::describe_mix(mix) << r.message << "\n";
  if (r.outcome != gs::cosim::Outcome::kMismatch) {
    std::cout << "no lockstep mismatch (" << gs::cosim::outcome_name(r.outcome) << ")\n";
    return 1;
  }
  return 0;
}
