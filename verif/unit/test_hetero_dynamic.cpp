// hetero-dynamic (gs_policy_hetero's golden twin, cmodel/sched/golden/gs_policy_hetero.hpp) on the
// heterocore preset: the spatial-profiling split (4 big + 4 small SMs per kernel, Sec. 4.3), the
// selection of Algorithm 2 from the window's counts, the mapping it puts in force, where CTAs go,
// and the adaptive preemption's per-request mechanism.
#include <catch2/catch.hpp>

#include <algorithm>
#include <memory>
#include <set>
#include <utility>

#include "common/error.hpp"
#include "config/gpu_config.hpp"
#include "config/limits.hpp"
#include "gpu/gpu.hpp"
#include "sched/golden/golden_scheduler.hpp"
#include "sched/golden/gs_policy_hetero.hpp"
#include "sched/scheduler_port.hpp"
#include "workload/kernel_desc.hpp"
#include "test_support.hpp"

using namespace gs;
using golden::PolicyHetero;

namespace {

GpuConfig short_windows(GpuConfig cfg) {
  cfg.settings.hetero.warmup_cycles = 3000;
  cfg.settings.hetero.sample_cycles = 3000;
  return cfg;
}

RunOptions dynamic_options() {
  RunOptions ro;
  ro.sched.policy = "hetero-dynamic";
  return ro;
}

/// A golden hetero-dynamic run of `mix` on `cfg` that the test steps, and the policy twin it watches.
struct DynamicRun {
  Mix mix;
  RunOptions ro = dynamic_options();
  std::unique_ptr<SchedulerPort> sched = make_scheduler("golden", ro.sched);
  Gpu gpu;
  const PolicyHetero& twin;
  DynamicRun(const GpuConfig& cfg, Mix m)
      : mix(std::move(m)), gpu(cfg, mix, *sched, ro), twin(dynamic_cast<const PolicyHetero&>(golden().policy_twin())) {}
  const GoldenScheduler& golden() const { return dynamic_cast<const GoldenScheduler&>(*sched); }
};

/// FDTD3D with LAVAMD (both thick to Algorithm 2's line 8 on heterocore) under hetero-dynamic on
/// `cfg`: true when a selection was made and every selection kept the split (no remapping scan).
bool selection_keeps_split(const GpuConfig& cfg) {
  DynamicRun run(cfg, test::window_mix("hetero-dynamic-test", {"hc.FDTD3D", "hc.LAVAMD"}, 30000));
  bool selected = false, kept = true;
  PolicyHetero::St prev = PolicyHetero::St::kIdle;
  while (run.gpu.step()) {
    if (prev == PolicyHetero::St::kSel && run.twin.q.st != PolicyHetero::St::kSel) {  // the decision's edge
      selected = true;
      kept &= run.twin.q.even && run.twin.q.st == PolicyHetero::St::kIdle;  // (big keeps gs_hetero_sel's big_o)
    }
    prev = run.twin.q.st;
  }
  return selected && kept;
}

}  // namespace

TEST_CASE("hetero-dynamic: profiling split, Algorithm 2's mapping, CTAs on their kernel's SMs", "[hetero]") {
  const GpuConfig cfg = short_windows(load_gpu_config("heterocore"));
  REQUIRE(cfg.num_sms() == 16);
  for (uint32_t s = 0; s < 16; ++s) REQUIRE(cfg.sm_is_big(s) == (s < 8));
  REQUIRE(cfg.base_sm.ctas > 0);  // from heterocore-baseline

  // FDTD3D (thick-TLP) with SYRK (lean-TLP, Table 3): Algorithm 2 maps FDTD3D on the big SMs
  DynamicRun run(cfg, test::window_mix("hetero-dynamic-test", {"hc.FDTD3D", "hc.SYRK"}, 60000));
  Gpu& gpu = run.gpu;
  const PolicyHetero& twin = run.twin;

  bool split_seen = false, selected = false, mapped = false;
  uint64_t mapped_at = 0;
  std::array<uint8_t, spec::MaxSms> split{}, final_grp{};
  uint32_t big = 0;
  bool even = false;
  PolicyHetero::St prev = PolicyHetero::St::kIdle;
  std::set<std::pair<bool, PreemptMode>> requests;  // (mode_sel, mode) of requests made
  while (gpu.step()) {
    const auto& q = twin.q;
    if (prev == PolicyHetero::St::kScan && q.st == PolicyHetero::St::kWarm) {  // the profiling split is in force
      split_seen = true;
      split = q.grp;
      CHECK(q.nbig == 8);
      CHECK(q.nsmall == 8);
      CHECK(q.nb0 == 4);
      CHECK(q.ns0 == 4);
    }
    if (prev == PolicyHetero::St::kSel && run.twin.q.st != PolicyHetero::St::kSel) {  // the decision's edge
      selected = true;
      big = q.big;
      even = q.even;
      // the estimate's CTA counts: a big SM holds at least a small SM's CTAs of either kernel
      for (uint32_t c = 0; c < 2; ++c) CHECK(q.cta_b[c] >= q.cta_s[c]);
    }
    if (prev == PolicyHetero::St::kScan && q.st == PolicyHetero::St::kIdle && q.chosen && !mapped) {
      mapped = true;
      mapped_at = gpu.cycle();
      final_grp = q.grp;
    }
    const PreemptReq& r = run.golden().policy_out().req;
    if (r.valid) requests.insert({r.mode_sel, r.mode});
    prev = q.st;
  }
  REQUIRE(split_seen);
  // round robin by type: big SMs 0..7 and small SMs 8..15 alternate between the two kernels
  for (uint32_t s = 0; s < 16; ++s) CHECK(split[s] == s % 2);
  REQUIRE(selected);
  INFO("selection: big " << big << " even " << even);
  REQUIRE_FALSE(even);
  {
    REQUIRE(big == 1);  // FDTD3D, group 0
    REQUIRE(mapped);
    const uint32_t gb = 0;
    for (uint32_t s = 0; s < 16; ++s) CHECK(final_grp[s] == (s < 8 ? gb : 1 - gb));
    // every CTA started after the mapping is on an SM of its kernel (group c = mix kernel c:
    // both arrive at cycle 0 and take the KSRT's first two slots in mix order)
    // the same run again, whole (the model is deterministic), for its CTA records
    auto sched2 = make_scheduler("golden", run.ro.sched);
    const RunResult res = Gpu(cfg, run.mix, *sched2, run.ro).run();
    uint32_t after = 0;
    for (const CtaRecord& t : res.ctas) {
      if (t.start_cycle <= mapped_at) continue;
      INFO("kernel " << t.kernel << " CTA " << t.cta << " on SM " << t.sm << " at " << t.start_cycle);
      CHECK(final_grp[t.sm] == t.kernel);
      ++after;
    }
    CHECK(after > 0);
    // the selection's preemptions carry their own mechanism (adaptive preemption)
    bool adaptive = false;
    for (const auto& m : requests) adaptive |= m.first;
    CHECK(adaptive);
    // the run's records: the split, its window, then the mapping
    REQUIRE(res.records.size() == 3);
    CHECK(res.records[0].kind == spec::ReportKind::kPartition);
    CHECK(res.records[1].kind == spec::ReportKind::kWindow);
    CHECK(res.records[2].kind == spec::ReportKind::kPartition);
    const Report p0 = report_of(res.records[0], run.mix), w = report_of(res.records[1], run.mix),
                 p1 = report_of(res.records[2], run.mix);
    CHECK(test::int_field(p0, "mode") == spec::PartitionReport::kModeSpatial);
    CHECK((test::cell(p0, 0, "big_sms") == 4 && test::cell(p0, 0, "small_sms") == 4 &&
           test::cell(p0, 1, "big_sms") == 4 && test::cell(p0, 1, "small_sms") == 4));
    CHECK(test::cell(w, 0, "insts") > 0);
    CHECK(test::int_field(w, "to") > test::int_field(w, "from"));
    CHECK(test::row_kernel(p1, 0) == run.mix.kernels[0].kernel);
    CHECK((test::cell(p1, 0, "big_sms") == 8 && test::cell(p1, 0, "small_sms") == 0 &&
           test::cell(p1, 1, "big_sms") == 0 && test::cell(p1, 1, "small_sms") == 8));
  }
}

TEST_CASE("hetero-dynamic's chunked window sums equal the tagged counters summed outright", "[hetero]") {
  // a window long enough that a group's sum passes 2**ArithChunkW: a carry crosses a chunk
  GpuConfig cfg = load_gpu_config("heterocore");
  cfg.settings.hetero.warmup_cycles = 3000;
  cfg.settings.hetero.sample_cycles = 16000;
  DynamicRun run(cfg, test::window_mix("hetero-dynamic-test", {"hc.FDTD3D", "hc.SYRK"}, 60000));
  PolicyHetero::St prev = PolicyHetero::St::kIdle;
  bool summed = false;
  while (!summed && run.gpu.step()) {
    const auto& q = run.twin.q;
    if (prev == PolicyHetero::St::kSumCarry && q.st == PolicyHetero::St::kOccLoad) {  // the sums are final
      // group c is mix kernel c in KSRT slot c; the counters are frozen since the window closed
      summed = true;
      std::array<uint64_t, 2> big{}, small{};
      for (uint32_t s = 0; s < 16; ++s) {  // SM s's pair counts its group's kernel (the split's tag)
        CHECK(run.twin.prof.q.tag[s] == int32_t(q.grp[s]));
        (s < 8 ? big : small)[q.grp[s]] += run.twin.prof.insts(s);
      }
      uint64_t most = 0;
      for (uint32_t c = 0; c < 2; ++c) {
        CHECK(q.bsum[c] == big[c]);
        CHECK(q.ssum[c] == small[c]);
        most = std::max({most, big[c], small[c]});
      }
      CHECK(most > (uint64_t(1) << spec::ArithChunkW));
      CHECK((q.has_b && q.fb == 0 && q.has_s && q.fs == 8));  // the SMs whose capacities OCC takes
    }
    prev = q.st;
  }
  REQUIRE(summed);
}

TEST_CASE("hetero-dynamic keeps the profiling split when both kernels are thick-TLP", "[hetero]") {
  CHECK(selection_keeps_split(short_windows(load_gpu_config("heterocore"))));
}

TEST_CASE("hetero-dynamic on a GPU of one SM type keeps its profiling split", "[hetero]") {
  // no group has a big SM: no IPC^B to weigh
  CHECK(selection_keeps_split(short_windows(load_gpu_config("warped-slicer"))));
}

TEST_CASE("hetero-dynamic on big SMs without a conventional GPU is refused naming the field", "[hetero][config]") {
  GpuConfig cfg = load_gpu_config("heterocore");
  cfg.settings.hetero.baseline_config.clear();
  cfg.base_sm = {};
  SchedOptions so;
  so.policy = "hetero-dynamic";
  try {
    limits::check_scheduler_config(cfg, so);
    FAIL("accepted");
  } catch (const InputError& e) {
    CHECK(std::string(e.what()).find("hetero.baseline_config") != std::string::npos);
  }
  so.policy = "left-over";
  CHECK_NOTHROW(limits::check_scheduler_config(cfg, so));
}
