// gsched unit tests: SM preemption (Tanasic ISCA'14 Sec. 3.2) -- draining and context switch,
// the events they produce, the context traffic, and resumed CTAs completing exactly the work
// of an unpreempted run.
#include <catch2/catch.hpp>

#include "common/error.hpp"
#include "test_sm_fake_memory.hpp"

using namespace gs;
using gs_test::alu_kernel;
using gs_test::make_config;
using gs_test::SmHarness;

namespace {

SmTypeConfig sm_type() {
  SmTypeConfig t;
  t.warp_schedulers = 2;
  t.alu_latency = 10;
  return t;
}

KernelDesc mixed_kernel() {
  KernelDesc k = alu_kernel(128, 3000, 3);
  k.ldst_permille = 200;
  k.store_permille = 250;
  k.sfu_permille = 50;
  k.shmem_permille = 100;
  k.shmem_per_cta = 2048;
  k.cta_spread_pct = 20;
  k.lines_per_access = 2;
  return k;
}

std::vector<SmEventType> types_of(const std::vector<SmEvent>& ev) {
  std::vector<SmEventType> t;
  for (const SmEvent& e : ev) t.push_back(e.type);
  return t;
}

}  // namespace

TEST_CASE("sm preempt with nothing to preempt is done at once", "[sm][preempt]") {
  SmHarness h(make_config(sm_type()), 100);
  for (PreemptMode m : {PreemptMode::kDrain, PreemptMode::kSwitch}) {
    h.events.clear();
    h.sm().preempt(m, 1, kNoKernel, h.cycle);
    h.step();
    REQUIRE(h.events.size() == 1);
    CHECK(h.events[0].type == SmEventType::kPreemptDone);
    CHECK(h.events[0].kernel == 1);
  }
  // A victim that is not resident, beside one that is.
  h.events.clear();
  h.start(0, alu_kernel(32, 100, 1), 0);
  h.sm().preempt(PreemptMode::kSwitch, 3, kNoKernel, h.cycle);
  h.step();
  REQUIRE_FALSE(h.events.empty());
  CHECK(h.events[0].type == SmEventType::kPreemptDone);
  CHECK(h.sm().resident_ctas(0) == 1);
}

TEST_CASE("sm drain lets the victim's CTAs finish and then reports done", "[sm][preempt]") {
  SmHarness h(make_config(sm_type()), 100);
  const KernelDesc k = mixed_kernel();
  h.start(0, k, 0);
  h.start(0, k, 1);
  h.start(1, alu_kernel(64, 20000, 2), 0);  // a long CTA of another kernel, not a victim
  for (int i = 0; i < 100; ++i) h.step();
  h.sm().preempt(PreemptMode::kDrain, 0, kNoKernel, h.cycle);
  while (h.sm().resident_ctas(0) > 0) h.step();
  h.step();
  const auto t = types_of(h.events);
  REQUIRE(t.size() == 3);
  CHECK(t[0] == SmEventType::kCtaFinished);
  CHECK(t[1] == SmEventType::kCtaFinished);
  CHECK(t[2] == SmEventType::kPreemptDone);
  CHECK(h.events[2].kernel == 0);
  CHECK(h.sm().resident_ctas(1) == 1);  // the other kernel keeps running
  CHECK(h.mem.transfers.empty());       // draining moves no context
  CHECK(h.counters.at(0, 0).ctas_finished == 2);
}

TEST_CASE("sm context switch saves every victim CTA and a resumed CTA completes the same work", "[sm][preempt]") {
  const KernelDesc k = mixed_kernel();
  // Reference: the same two CTAs, never preempted.
  SmHarness ref(make_config(sm_type()), 100);
  ref.start(0, k, 0);
  ref.start(0, k, 1);
  ref.run();
  const uint64_t ref_insts = ref.insts(0);

  SmHarness h(make_config(sm_type(), 2), 100);
  h.start(0, k, 0, 0);
  h.start(0, k, 1, 0);
  for (int i = 0; i < 2000; ++i) h.step();
  REQUIRE(h.events.empty());
  const uint64_t before = h.insts(0);
  h.sm(0).preempt(PreemptMode::kSwitch, kNoKernel, kNoKernel, h.cycle);
  uint64_t guard = 0;
  while (!h.sm(0).empty() && ++guard < 100000) h.step();
  h.step();

  // Two kCtaSaved (with their progress) then kPreemptDone.
  const auto t = types_of(h.events);
  REQUIRE(t.size() == 3);
  CHECK(t[0] == SmEventType::kCtaSaved);
  CHECK(t[1] == SmEventType::kCtaSaved);
  CHECK(t[2] == SmEventType::kPreemptDone);
  REQUIRE(h.saved.size() == 2);
  const CtaResources r = cta_resources(k, h.cfg);
  REQUIRE(h.mem.transfers.size() == 2);
  for (const ContextTransfer& x : h.mem.transfers) {
    CHECK(x.save);
    CHECK(x.bytes == r.regs * 4 + r.shmem);
  }
  uint64_t saved_pcs = 0;
  for (const SavedCta& s : h.saved) {
    CHECK(s.warp_pc.size() == r.warps);
    CHECK(s.first_start_cycle == 0);
    for (uint32_t pc : s.warp_pc) saved_pcs += pc;
  }
  CHECK(saved_pcs == h.insts(0));  // nothing issued after the stop is lost or double counted
  CHECK(h.insts(0) >= before);
  CHECK(h.sm(0).used().regs == 0);

  // Resume both on the other SM: context read back first, then the rest of the work.
  h.events.clear();
  const size_t transfers_before = h.mem.transfers.size();
  for (const SavedCta& s : h.saved) h.start(0, k, s.cta, 1, &s);
  h.run();
  REQUIRE(h.mem.transfers.size() == transfers_before + 2);
  CHECK_FALSE(h.mem.transfers.back().save);
  CHECK(h.insts(0) == ref_insts);
  const auto t2 = types_of(h.events);
  REQUIRE(t2.size() == 2);
  CHECK(t2[0] == SmEventType::kCtaFinished);
  CHECK(t2[1] == SmEventType::kCtaFinished);
  CHECK(h.counters.at(1, 0).ctas_started == 0);  // a resume is not a new CTA
  CHECK(h.counters.at(1, 0).ctas_finished == 2);
}

TEST_CASE("sm context switch of one kernel leaves the other running", "[sm][preempt]") {
  SmHarness h(make_config(sm_type()), 100);
  const KernelDesc k = mixed_kernel();
  h.start(0, k, 0);
  h.start(1, k, 0);
  for (int i = 0; i < 500; ++i) h.step();
  h.sm().preempt(PreemptMode::kSwitch, 1, kNoKernel, h.cycle);
  uint64_t guard = 0;
  while (h.sm().resident_ctas(1) > 0 && ++guard < 100000) h.step();
  h.step();
  const auto t = types_of(h.events);
  REQUIRE(t.size() == 2);
  CHECK(t[0] == SmEventType::kCtaSaved);
  CHECK(h.events[0].kernel == 1);
  CHECK(t[1] == SmEventType::kPreemptDone);
  CHECK(h.sm().resident_ctas(0) == 1);
  const uint64_t k0 = h.counters.at(0, 0).insts_issued;
  for (int i = 0; i < 200; ++i) h.step();
  CHECK(h.counters.at(0, 0).insts_issued > k0);
}

TEST_CASE("sm all-kernel preemption spares the kernel the SM is handed to", "[sm][preempt]") {
  // A CTA of `next` may reach the SM while the command for every kernel is on its way (the
  // policy decided from resident counts that did not hold it yet): it keeps running, in both
  // mechanisms, and the preemption is done when the other kernels' CTAs are gone.
  const KernelDesc k = mixed_kernel();
  for (PreemptMode m : {PreemptMode::kSwitch, PreemptMode::kDrain}) {
    SmHarness h(make_config(sm_type()), 100);
    h.start(0, k, 0);
    for (int i = 0; i < 500; ++i) h.step();
    h.start(1, k, 0);  // kernel 1, the one the SM is handed to, arrives later (it outlasts kernel 0)
    h.step();
    h.sm().preempt(m, kNoKernel, 1, h.cycle);
    uint64_t guard = 0;
    while (h.sm().resident_ctas(0) > 0 && ++guard < 100000) h.step();
    h.step();
    const auto t = types_of(h.events);
    REQUIRE(t.size() == 2);
    CHECK(t[0] == (m == PreemptMode::kSwitch ? SmEventType::kCtaSaved : SmEventType::kCtaFinished));
    CHECK(h.events[0].kernel == 0);
    CHECK(t[1] == SmEventType::kPreemptDone);
    CHECK(h.sm().resident_ctas(1) == 1);
    CHECK(h.counters.at(0, 1).ctas_switched == 0);
    CHECK(h.counters.at(0, 1).ctas_drained == 0);
    const uint64_t k1 = h.counters.at(0, 1).insts_issued;
    for (int i = 0; i < 200; ++i) h.step();
    CHECK(h.counters.at(0, 1).insts_issued > k1);
  }
}

TEST_CASE("sm context switch during a restore saves again after the restore", "[sm][preempt]") {
  SmHarness h(make_config(sm_type()), 100);
  const KernelDesc k = mixed_kernel();
  SavedCta s;
  s.kernel = 0;
  s.cta = 5;
  s.warp_pc = {100, 3000 * 2, 50, 0};  // pc beyond the length is rejected
  CHECK_THROWS_AS(h.start(0, k, 5, 0, &s), InvariantError);
  CHECK(h.sm().empty());
  s.warp_pc = {100, 200, 50, 0};
  h.start(0, k, 5, 0, &s);
  h.sm().preempt(PreemptMode::kSwitch, 0, kNoKernel, h.cycle);
  uint64_t guard = 0;
  while (!h.sm().empty() && ++guard < 100000) h.step();
  h.step();
  REQUIRE(h.saved.size() == 1);
  CHECK(h.saved[0].warp_pc == s.warp_pc);  // restored, then saved before any issue
  CHECK(h.insts(0) == 0);
  CHECK(types_of(h.events).back() == SmEventType::kPreemptDone);
}
