// The observation channel of the scheduler port (docs/architecture.md, "The observation
// channel"): CTA start/end stamps on SM events, per-epoch counter samples, per-SM bypass.
#include <catch2/catch.hpp>

#include <map>
#include <memory>

#include "common/error.hpp"
#include "config/gpu_config.hpp"
#include "gpu/gpu.hpp"
#include "metrics/metrics.hpp"
#include "sched/golden/golden_scheduler.hpp"
#include "workload/kernel_desc.hpp"

using namespace gs;

namespace {

/// A golden scheduler that records the inputs the model presents.
class Recorder final : public SchedulerPort {
 public:
  explicit Recorder(const SchedOptions& opt) : golden_(opt) {}
  void reset(const GpuConfig& cfg, const SchedOptions& opt) override { golden_.reset(cfg, opt); }
  SchedOutputs step(const SchedInputs& in) override {
    if (in.obs.valid) samples.push_back({in.cycle, in.obs});
    if (in.event.type != SmEventType::kNone) events.push_back(in.event);
    return golden_.step(in);
  }
  std::string name() const override { return "recorder"; }

  struct Sample {
    uint64_t presented;
    ObsSample obs;
  };
  std::vector<Sample> samples;
  std::vector<SmEvent> events;

 private:
  GoldenScheduler golden_;
};

struct Totals {
  uint64_t insts = 0, mem_stall = 0, l1_miss = 0, l2_miss = 0;
  bool operator==(const Totals& o) const {
    return insts == o.insts && mem_stall == o.mem_stall && l1_miss == o.l1_miss && l2_miss == o.l2_miss;
  }
};

}  // namespace

TEST_CASE("observation samples are the per-epoch counter changes, one per cycle", "[obs]") {
  const GpuConfig cfg = load_gpu_config("warped-slicer");
  const auto lib = load_kernel_library();
  const Mix mix = load_mix("test-pair", lib);
  const uint64_t interval = 2000;
  RunOptions ro;
  ro.obs_interval = interval;
  Recorder rec(ro.sched);
  Gpu gpu(cfg, mix, rec, ro);
  // the counters of each kernel, summed over SMs, at the last cycle of every epoch
  std::map<uint64_t, std::vector<Totals>> at_epoch_end;
  while (gpu.step()) {
    const uint64_t c = gpu.cycle() - 1;  // the cycle step() just simulated
    if ((c + 1) % interval != 0) continue;
    auto& v = at_epoch_end[c];
    for (uint32_t k = 0; k < mix.kernels.size(); ++k) {
      const KernelSmCounters t = gpu.counters().kernel_total(k);
      v.push_back({t.insts_issued, t.stall_cycles[int(StallReason::kMemLatency)], t.l1_misses, t.l2_misses});
    }
  }
  REQUIRE(at_epoch_end.size() >= 3);
  REQUIRE_FALSE(rec.samples.empty());

  // Presented one per cycle, after their epoch ended, SM-major, each (SM, kernel) once per epoch.
  std::map<uint64_t, std::vector<Totals>> summed;  // epoch end -> per-kernel sums of the samples
  uint64_t last_presented = 0;
  std::pair<uint32_t, uint32_t> last_key{0, 0};
  uint32_t last_epoch = UINT32_MAX;
  for (const auto& s : rec.samples) {
    const ObsSample& o = s.obs;
    CHECK((uint64_t(o.cycle) + 1) % interval == 0);
    CHECK(s.presented > o.cycle);
    CHECK(s.presented < uint64_t(o.cycle) + interval);  // drained before the next epoch ends
    CHECK((s.presented > last_presented || &s == &rec.samples.front()));
    if (o.cycle == last_epoch) CHECK(std::make_pair(uint32_t(o.sm), uint32_t(o.kernel)) > last_key);
    CHECK((o.insts | o.mem_stall | o.l1_miss | o.l2_miss) != 0);
    last_presented = s.presented;
    last_key = {o.sm, o.kernel};
    last_epoch = o.cycle;
    auto& v = summed[o.cycle];
    v.resize(mix.kernels.size());
    v[o.kernel].insts += o.insts;
    v[o.kernel].mem_stall += o.mem_stall;
    v[o.kernel].l1_miss += o.l1_miss;
    v[o.kernel].l2_miss += o.l2_miss;
  }
  // Summed over SMs, the samples of an epoch are the counters' change over that epoch.
  std::vector<Totals> prev(mix.kernels.size());
  uint32_t epochs_with_samples = 0;
  for (const auto& [end, totals] : at_epoch_end) {
    std::vector<Totals> delta(mix.kernels.size());
    for (uint32_t k = 0; k < mix.kernels.size(); ++k) {
      delta[k] = {totals[k].insts - prev[k].insts, totals[k].mem_stall - prev[k].mem_stall,
                  totals[k].l1_miss - prev[k].l1_miss, totals[k].l2_miss - prev[k].l2_miss};
    }
    prev = totals;
    auto it = summed.find(end);
    std::vector<Totals> got = it == summed.end() ? std::vector<Totals>(mix.kernels.size()) : it->second;
    got.resize(mix.kernels.size());
    for (uint32_t k = 0; k < mix.kernels.size(); ++k) {
      INFO("epoch ending at " << end << " kernel " << k);
      CHECK(got[k] == delta[k]);
    }
    epochs_with_samples += it != summed.end();
  }
  CHECK(epochs_with_samples >= 3);
}

TEST_CASE("samples change nothing for policies that do not read them", "[obs]") {
  const GpuConfig cfg = load_gpu_config("warped-slicer");
  const auto lib = load_kernel_library();
  const Mix mix = load_mix("test-pair", lib);
  auto run = [&](uint64_t interval) {
    RunOptions ro;
    ro.obs_interval = interval;
    ro.sched.policy = "even";
    auto sched = make_scheduler("golden", ro.sched);
    Gpu gpu(cfg, mix, *sched, ro);
    const RunResult r = gpu.run();
    std::vector<uint64_t> ends;
    for (const auto& k : r.kernels) ends.push_back(k.end_cycle);
    return ends;
  };
  CHECK(run(0) == run(1000));
}

TEST_CASE("SM events carry the CTA's residency start and end cycle", "[obs]") {
  const GpuConfig cfg = load_gpu_config("warped-slicer");
  const auto lib = load_kernel_library();
  const Mix mix = load_mix("test-pair", lib);
  RunOptions ro;
  Recorder rec(ro.sched);
  Gpu gpu(cfg, mix, rec, ro);
  const RunResult r = gpu.run();
  std::map<std::pair<uint32_t, uint32_t>, CtaRecord> by_cta;
  for (const CtaRecord& c : r.ctas) by_cta[{c.kernel, c.cta}] = c;
  uint32_t finished = 0;
  for (const SmEvent& e : rec.events) {
    if (e.type != SmEventType::kCtaFinished) continue;
    ++finished;
    const CtaRecord& c = by_cta.at({e.kernel, e.cta});
    CHECK(e.start_cycle == uint32_t(c.start_cycle));
    CHECK(e.end_cycle == uint32_t(c.end_cycle));
    CHECK(e.end_cycle > e.start_cycle);
  }
  // The run ends when the model retires the last CTA; the events of the last cycles are still
  // queued for the port then (at most one per SM), every other one reached the scheduler.
  CHECK(finished <= r.ctas.size());
  CHECK(r.ctas.size() - finished <= cfg.num_sms());
  CHECK(finished > r.ctas.size() / 2);
}

TEST_CASE("an observation interval shorter than one epoch's samples is refused", "[obs][hardening]") {
  const GpuConfig cfg = load_gpu_config("warped-slicer");
  const auto lib = load_kernel_library();
  const Mix mix = load_mix("test-pair", lib);
  RunOptions ro;
  ro.obs_interval = cfg.num_sms() * mix.kernels.size() - 1;
  GoldenScheduler sched(ro.sched);
  CHECK_THROWS_WITH(Gpu(cfg, mix, sched, ro), Catch::Contains("--obs-interval") && Catch::Contains("SMs x kernels"));
  ro.obs_interval = kMaxObsInterval + 1;
  CHECK_THROWS_WITH(Gpu(cfg, mix, sched, ro), Catch::Contains("--obs-interval"));
}
