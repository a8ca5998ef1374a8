// gsched cosim tests: whole runs of gs::Gpu under the rtl and lockstep schedulers.
//
// Uses the 16-SM Warped-Slicer preset and short seeded random mixes (cosim::random_mix).
// The mismatch test wraps the golden reference in a decorator that corrupts one dispatch,
// so the checker must stop the run with the cycle, the signal, both values, the history and
// a replayed FST waveform of the cycles before it.
#include <catch2/catch.hpp>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "common/error.hpp"
#include "cosim/cosim_runner.hpp"
#include "cosim/mix_generator.hpp"
#include "gs_rtl_params.hpp"
#include "lockstep/sched_records.hpp"
#include "rtl_sched/lockstep_scheduler.hpp"
#include "rtl_sched/rtl_limits.hpp"
#include "rtl_sched/register.hpp"
#include "rtl_sched/rtl_scheduler.hpp"
#include "sched/golden/golden_scheduler.hpp"
#include "sched/golden/gs_policy_hetero.hpp"
#include "sched/golden/gs_policy_warped_slicer.hpp"
#include "gpu/gpu.hpp"

namespace {

const gs::GpuConfig& cosim_config() {
  static const gs::GpuConfig cfg = gs::load_gpu_config("warped-slicer");
  return cfg;
}

const std::vector<gs::KernelDesc>& library() {
  static const auto lib = gs::load_kernel_library();
  return lib;
}

gs::Mix short_mix(uint64_t seed) {
  gs::cosim::MixGenOptions gen;
  gen.max_kernels = 4;
  gen.max_grid = 16;
  gen.max_insts_per_warp = 100;
  gen.max_arrival = 2000;
  gen.contexts = cosim_config().max_contexts;
  return gs::cosim::random_mix(library(), cosim_config(), seed, gen);
}

uint64_t file_size(const std::string& path) {
  std::ifstream f(path, std::ios::binary | std::ios::ate);
  return f ? static_cast<uint64_t>(f.tellg()) : 0;
}

/// Golden reference whose `n`-th dispatch names the wrong CTA (the model never sees it:
/// it runs on the DUT's decisions), so the first lockstep check after it must fail.
class CorruptedGolden final : public gs::SchedulerPort {
 public:
  CorruptedGolden(const gs::SchedOptions& opt, uint32_t n) : inner_(gs::make_scheduler("golden", opt)), n_(n) {}
  void reset(const gs::GpuConfig& cfg, const gs::SchedOptions& opt) override { inner_->reset(cfg, opt); }
  gs::SchedOutputs step(const gs::SchedInputs& in) override {
    gs::SchedOutputs o = inner_->step(in);
    if (o.dispatch.valid && ++seen_ == n_) o.dispatch.cta += 1;
    return o;
  }
  std::string name() const override { return "corrupted-golden"; }

 private:
  std::unique_ptr<gs::SchedulerPort> inner_;
  uint32_t n_, seen_ = 0;
};

gs::cosim::SchedMaker kind(const std::string& k) {
  return [k](const gs::SchedOptions& o) { return gs::make_scheduler(k, o); };
}

}  // namespace

TEST_CASE("rtl and lockstep kinds are registered", "[cosim]") {
  gs::register_rtl_schedulers();
  const auto kinds = gs::list_scheduler_kinds();
  CHECK(std::find(kinds.begin(), kinds.end(), "rtl") != kinds.end());
  CHECK(std::find(kinds.begin(), kinds.end(), "lockstep") != kinds.end());
}

TEST_CASE("rtl scheduler runs are deterministic and match golden cycle counts", "[cosim]") {
  gs::register_rtl_schedulers();
  const gs::Mix mix = short_mix(7);
  gs::SchedOptions opt;
  opt.seed = 7;
  const auto a = gs::cosim::run_case(cosim_config(), mix, opt, kind("rtl"));
  const auto b = gs::cosim::run_case(cosim_config(), mix, opt, kind("rtl"));
  const auto g = gs::cosim::run_case(cosim_config(), mix, opt, kind("golden"));
  INFO(a.message);
  REQUIRE(a.outcome == gs::cosim::Outcome::kPass);
  CHECK(a.cycles == b.cycles);
  CHECK(a.cycles > 0);
  // RTL and golden make the same decisions cycle for cycle, so the runs take equally long.
  CHECK(g.cycles == a.cycles);
}

TEST_CASE("lockstep run of a short mix is clean and checks decisions", "[cosim]") {
  gs::register_rtl_schedulers();
  gs::SchedOptions opt;
  opt.seed = 3;
  const auto r = gs::cosim::run_case(cosim_config(), short_mix(3), opt, kind("lockstep"));
  INFO(r.message);
  CHECK(r.outcome == gs::cosim::Outcome::kPass);
  CHECK(r.decisions_checked > 0);
}

TEST_CASE("lockstep mismatch stops the run with history and a waveform window", "[cosim]") {
  gs::SchedOptions opt;
  opt.seed = 5;
  opt.policy = "left-over";
  auto maker = [](const gs::SchedOptions& o) -> std::unique_ptr<gs::SchedulerPort> {
    return std::make_unique<gs::LockstepScheduler>(std::make_unique<CorruptedGolden>(o, 3), gs::make_rtl_scheduler(o),
                                                   &gs::rtl::make_traced_gs_top, 32);
  };
  const auto r = gs::cosim::run_case(cosim_config(), short_mix(5), opt, maker);
  REQUIRE(r.outcome == gs::cosim::Outcome::kMismatch);
  const std::string& msg = r.message;
  INFO(msg);
  CHECK(msg.find("lockstep mismatch at cycle") != std::string::npos);
  CHECK(msg.find("signal dispatch_cta_o") != std::string::npos);
  CHECK(msg.find("REF=") != std::string::npos);
  CHECK(msg.find("DUT=") != std::string::npos);
  CHECK(msg.find("    REF dispatch{") != std::string::npos);  // history lines
  const auto at = msg.find("gsched_mismatch_left-over_drain_seed5_cycle");
  REQUIRE(at != std::string::npos);
  const std::string wave = msg.substr(at, msg.find(".fst", at) + 4 - at);
  CHECK(file_size(wave) > 100);
  // the waveform and what gsim writes beside it to open it (the view, its enum lookup file)
  const std::string base = wave.substr(0, wave.size() - 4);
  for (const std::string& f : {wave, base + ".gtkw", base + "_preempt_mode.txt"}) std::remove(f.c_str());
}

TEST_CASE("wave option dumps the whole run as FST", "[cosim]") {
  gs::register_rtl_schedulers();
  gs::SchedOptions opt;
  opt.seed = 11;
  opt.wave_file = "gs_cosim_test_wave.fst";
  std::remove(opt.wave_file.c_str());
  const auto r = gs::cosim::run_case(cosim_config(), short_mix(11), opt, kind("rtl"));
  INFO(r.message);
  REQUIRE(r.outcome == gs::cosim::Outcome::kPass);
  CHECK(file_size(opt.wave_file) > 1000);
  std::remove(opt.wave_file.c_str());
}

TEST_CASE("rtl scheduler refuses a config beyond MaxSms", "[cosim]") {
  gs::GpuConfig big = cosim_config();
  const uint32_t n = gs::rtl::MaxSms + 8;  // within the golden's kGoldenMaxSms, beyond the RTL
  big.sm_types.resize(1);
  big.sm_types[0].count = n;
  big.sm_type_of.assign(n, 0);
  gs::SchedOptions opt;
  auto s = gs::make_rtl_scheduler(opt);
  CHECK_THROWS_WITH(s->reset(big, opt), Catch::Contains("MaxSms=" + std::to_string(gs::rtl::MaxSms)) &&
                                            Catch::Contains(std::to_string(n) + " SMs"));
}

// Throughput of the three scheduler kinds on one mix of the 16-SM preset (not a pass/fail
// test: run with `gs_cosim_tests "[bench]"`; gsim bench is the user-facing benchmark).
TEST_CASE("scheduler kind throughput", "[.][bench]") {
  gs::register_rtl_schedulers();
  gs::cosim::MixGenOptions gen;
  gen.min_kernels = gen.max_kernels = 2;
  gen.max_grid = 400;
  gen.max_insts_per_warp = 2000;
  gen.max_arrival = 0;
  gen.contexts = cosim_config().max_contexts;
  const gs::Mix mix = gs::cosim::random_mix(library(), cosim_config(), 77, gen);
  for (const char* k : {"golden", "rtl", "lockstep"}) {
    gs::SchedOptions opt;
    opt.seed = 77;
    const auto t0 = std::chrono::steady_clock::now();
    const auto r = gs::cosim::run_case(cosim_config(), mix, opt, kind(k));
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    REQUIRE(r.outcome == gs::cosim::Outcome::kPass);
    WARN(k << ": " << r.cycles << " cycles in " << s << " s = " << (r.cycles / s) << " cycles/s");
  }
}

namespace {

/// Golden scheduler that records every cycle's inputs (a whole run's port stream).
class RecordingGolden final : public gs::SchedulerPort {
 public:
  RecordingGolden(const gs::SchedOptions& opt, std::vector<gs::SchedInputs>* log)
      : inner_(gs::make_scheduler("golden", opt)), log_(log) {}
  void reset(const gs::GpuConfig& cfg, const gs::SchedOptions& opt) override { inner_->reset(cfg, opt); }
  gs::SchedOutputs step(const gs::SchedInputs& in) override {
    log_->push_back(in);
    return inner_->step(in);
  }
  std::string name() const override { return "recording-golden"; }

 private:
  std::unique_ptr<gs::SchedulerPort> inner_;
  std::vector<gs::SchedInputs>* log_;
};

}  // namespace

TEST_CASE("fixed-point skip gives the outputs of evaluating every edge", "[cosim]") {
  gs::register_rtl_schedulers();
  for (const char* policy : {"left-over", "even", "dss"}) {
    for (const gs::PreemptMode pm : {gs::PreemptMode::kDrain, gs::PreemptMode::kSwitch}) {
      gs::SchedOptions opt;
      opt.seed = 11;
      opt.policy = policy;
      opt.preempt = pm;
      std::vector<gs::SchedInputs> stream;
      const auto r = gs::cosim::run_case(cosim_config(), short_mix(11), opt, [&](const gs::SchedOptions& o) {
        return std::unique_ptr<gs::SchedulerPort>(new RecordingGolden(o, &stream));
      });
      REQUIRE(r.outcome == gs::cosim::Outcome::kPass);
      REQUIRE(stream.size() > 1000);

      const gs::rtl::PortConfig pc = gs::rtl::to_port_config(cosim_config(), opt);
      auto every_edge = gs::rtl::make_fast_gs_top();
      auto skipping = gs::rtl::make_fast_gs_top();
      every_edge->reset(pc);
      skipping->reset(pc);
      skipping->set_fixed_point_skip(true);
      uint64_t differing = 0;
      for (const gs::SchedInputs& in : stream) {
        const gs::SchedOutputs a = every_edge->step(in);
        const gs::SchedOutputs b = skipping->step(in);
        if (gs::lockstep::format_outputs(a) != gs::lockstep::format_outputs(b) || a.launch_ready != b.launch_ready)
          ++differing;
      }
      INFO(policy << " " << (pm == gs::PreemptMode::kDrain ? "drain" : "switch"));
      CHECK(differing == 0);
      CHECK(every_edge->skipped_cycles() == 0);
      // The stream is mostly idle (CTAs run for hundreds of cycles): most edges are skipped.
      CHECK(skipping->skipped_cycles() * 2 > stream.size());
      CHECK(skipping->cycle() == stream.size());
    }
  }
}

// The regression (gs_cosim_regress) and the mutation check run warped-slicer on random mixes;
// they only check its profile, water-filling and quotas when a mix lasts past the profile.
// cosim::case_config() shortens the windows so that most do.
TEST_CASE("random-mix cases reach Warped-Slicer's partition on the case config", "[cosim][warped-slicer]") {
  const gs::GpuConfig cfg = gs::cosim::case_config(cosim_config());
  gs::cosim::MixGenOptions gen = gs::cosim::case_mix_options("warped-slicer", {});
  gen.contexts = cfg.max_contexts;
  uint32_t partitioned = 0;
  const uint32_t seeds = 6;
  for (uint64_t seed = 1; seed <= seeds; ++seed) {
    const gs::Mix mix = gs::cosim::random_mix(library(), cfg, seed, gen);
    gs::RunOptions ro;
    ro.seed = seed;
    ro.sched.policy = "warped-slicer";
    auto sched = gs::make_scheduler("golden", ro.sched);
    gs::Gpu gpu(cfg, mix, *sched, ro);
    const auto& twin = dynamic_cast<const gs::golden::PolicyWarpedSlicer&>(
        dynamic_cast<const gs::GoldenScheduler&>(*sched).policy_twin());
    bool reached = false;
    while (gpu.step())
      reached |= twin.q.st == gs::golden::PolicyWarpedSlicer::St::kWfWait;  // a measured profile is water-filled
    INFO("seed " << seed << ": " << mix.kernels.size() << " kernels, " << gpu.cycle() << " cycles");
    partitioned += reached;
  }
  CHECK(partitioned * 2 >= seeds);
}

TEST_CASE("random-mix cases reach hetero-dynamic's selection and its adaptive preemption", "[cosim][hetero]") {
  // the cases of the lockstep regression and the mutation check (case_config_for: heterocore)
  const gs::GpuConfig cfg = gs::cosim::case_config_for("hetero-dynamic", gs::cosim::case_config(cosim_config()));
  REQUIRE(cfg.sm_is_big(0));
  gs::cosim::MixGenOptions gen = gs::cosim::case_mix_options("hetero-dynamic", {});
  gen.contexts = cfg.max_contexts;
  uint32_t selected = 0, remapped = 0, adaptive = 0;
  const uint32_t seeds = 6;
  for (uint64_t seed = 1; seed <= seeds; ++seed) {
    const gs::Mix mix = gs::cosim::random_mix(library(), cfg, seed, gen);
    gs::RunOptions ro;
    ro.seed = seed;
    ro.sched.policy = "hetero-dynamic";
    auto sched = gs::make_scheduler("golden", ro.sched);
    gs::Gpu gpu(cfg, mix, *sched, ro);
    const auto& gsched = dynamic_cast<const gs::GoldenScheduler&>(*sched);
    const auto& twin = dynamic_cast<const gs::golden::PolicyHetero&>(gsched.policy_twin());
    bool sel = false, remap = false, adapt = false;
    while (gpu.step()) {
      sel |= twin.q.st == gs::golden::PolicyHetero::St::kSel;
      remap |= twin.q.st == gs::golden::PolicyHetero::St::kScan && twin.q.chosen;
      adapt |= gsched.policy_out().req.valid && gsched.policy_out().req.mode_sel;
    }
    INFO("seed " << seed << ": " << mix.kernels.size() << " kernels, " << gpu.cycle() << " cycles");
    selected += sel;
    remapped += remap;
    adaptive += adapt;
  }
  CHECK(selected * 2 >= seeds);
  CHECK(remapped >= 1);
  CHECK(adaptive >= 1);
}
