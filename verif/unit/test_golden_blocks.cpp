// gsched tests: hand-worked cases for the golden twins of the framework blocks
// (command buffers, active queue, PTBQ, SM driver, preemption control, profiling counters) and
// the invariants.
#include <catch2/catch.hpp>

#include "common/error.hpp"
#include "golden_harness.hpp"
#include "sched/golden/gs_prof_counters.hpp"

using namespace gs;
using namespace gs::golden;
using gs::test::Harness;
using gs::test::launch_cmd;
using gs::test::small_gpu;

namespace {
Launch mk(KernelId k, uint32_t ctx) {
  Launch l;
  l.kernel = k;
  l.ctx = ctx;
  l.grid = 1;
  return l;
}
CmdBuffers::In cmd_in(bool push, const Launch& l, bool pop) {
  CmdBuffers::In in;
  in.push = push;
  in.launch = l;
  in.pop = pop;
  return in;
}
ActiveQueue::In aq_in(bool head_valid, uint32_t ksrt_valid, uint32_t free_mask) {
  ActiveQueue::In in;
  in.head_valid = head_valid;
  in.ksrt_valid = ksrt_valid;
  in.free_mask = free_mask;
  return in;
}
}  // namespace

TEST_CASE("command buffers keep arrival order across contexts", "[golden][cmdbuf]") {
  CmdBuffers cb;
  cb.reset(8);
  CHECK(cb.ready());
  CHECK_FALSE(cb.head_valid());
  cb.clock(cmd_in(true, mk(5, 2), false));
  cb.clock(cmd_in(true, mk(6, 0), false));
  cb.clock(cmd_in(true, mk(7, 2), false));
  REQUIRE(cb.head_valid());
  CHECK(cb.head().kernel == 5);
  cb.clock(cmd_in(false, Launch{}, true));
  CHECK(cb.head().kernel == 6);
  cb.clock(cmd_in(true, mk(8, 1), true));  // push and pop in one cycle
  CHECK(cb.head().kernel == 7);
  cb.clock(cmd_in(false, Launch{}, true));
  CHECK(cb.head().kernel == 8);
  // a full context buffer drops ready (registered state only)
  for (int i = 0; i < int(CmdBufDepth) - 1; ++i) cb.clock(cmd_in(true, mk(10 + i, 1), false));
  CHECK_FALSE(cb.ready());
  cb.clock(cmd_in(false, Launch{}, true));
  CHECK(cb.ready());
}

TEST_CASE("active queue allocates the lowest free slot and keeps ranks dense", "[golden][activeq]") {
  ActiveQueue aq;
  aq.reset(8);
  auto a = aq.comb(aq_in(true, 0b0000'0101, 0));
  CHECK(a.valid);
  CHECK(a.slot == 1);
  CHECK_FALSE(aq.comb(aq_in(false, 0, 0)).valid);
  CHECK_FALSE(aq.comb(aq_in(true, 0xFF, 0)).valid);
  // admit three kernels into slots 0, 1, 2
  aq.clock(aq_in(true, 0b000, 0));
  aq.clock(aq_in(true, 0b001, 0));
  aq.clock(aq_in(true, 0b011, 0));
  CHECK(aq.q.rank[0] == 0);
  CHECK(aq.q.rank[1] == 1);
  CHECK(aq.q.rank[2] == 2);
  // the oldest finishes while a fourth is admitted into slot 0 in the same cycle? no: slot 0
  // is still valid this cycle, so the new kernel takes slot 3 and ranks after the survivors
  aq.clock(aq_in(true, 0b111, 0b001));
  CHECK(aq.q.rank[1] == 0);
  CHECK(aq.q.rank[2] == 1);
  CHECK(aq.q.rank[3] == 2);
}

TEST_CASE("PTBQ is a FIFO per kernel slot", "[golden][ptbq]") {
  Ptbq p;
  p.reset(2);
  p.clock(Ptbq::In{true, 1, 42, false, 0});
  p.clock(Ptbq::In{true, 1, 7, false, 0});
  p.clock(Ptbq::In{true, 0, 3, false, 0});
  CHECK(p.count(1) == 2);
  CHECK(p.head(1) == 42);
  CHECK(p.max_count() == 2);
  CHECK(p.ready(1));
  p.clock(Ptbq::In{true, 1, 9, true, 1});  // push and pop on the same queue
  CHECK(p.count(1) == 2);
  // the next head is fetched from the two-cycle RAM: read at the next edge, in its register
  // two edges later
  CHECK_FALSE(p.ready(1));
  for (int i = 0; i < 2; ++i) {
    p.clock(Ptbq::In{});
    CHECK_FALSE(p.ready(1));
  }
  p.clock(Ptbq::In{});
  CHECK(p.ready(1));
  CHECK(p.head(1) == 7);
  p.clock(Ptbq::In{false, 0, 0, true, 1});
  for (int i = 0; i < 3; ++i) p.clock(Ptbq::In{});
  CHECK(p.ready(1));
  CHECK(p.head(1) == 9);
  CHECK(p.ready(0));
  CHECK(p.head(0) == 3);
}

TEST_CASE("profiling counters add a staged sample while running, hold at the top, clear in one edge",
          "[golden][prof]") {
  ProfCounters p;
  p.reset(4, 2);
  ProfCounters::In in;
  in.tag = true;  // SM 3's pair counts slot 1: registered at this edge, in the table at the next
  in.tag_sm = 3;
  in.tag_slot = 1;
  p.clock(in);
  CHECK(p.q.tag[3] == -1);
  in.tag = false;
  in.obs.valid = true;
  in.obs.sm = 3;
  in.obs.insts = 100;
  in.obs.mem_stall = 40;
  in.obs_hit = true;
  in.obs_slot = 1;
  p.clock(in);  // staged, not yet counted
  CHECK(p.q.tag[3] == 1);
  CHECK(p.insts(3) == 0);
  in.run = true;  // the staged sample is added with the next cycle's run
  p.clock(in);
  CHECK(p.insts(3) == 100);
  CHECK(p.acc(1) == 100);
  p.clock(in);
  CHECK(p.insts(3) == 200);
  CHECK(p.stall(3) == 80);
  CHECK(p.acc(0) == 0);
  CHECK(p.cycles() == 2);
  in.obs_slot = 0;  // another kernel on SM 3: its sum counts it, SM 3's pair does not
  p.clock(in);      // (adds the slot-1 sample staged before)
  in.obs_slot = 1;
  p.clock(in);
  CHECK(p.insts(3) == 300);
  CHECK(p.acc(0) == 100);
  CHECK(p.acc(1) == 300);
  in.run = false;  // frozen: the staged sample is dropped
  p.clock(in);
  CHECK(p.insts(3) == 300);
  CHECK(p.cycles() == 4);
  in.run = true;
  in.obs.insts = 0xFFFFFFF0u;
  p.clock(in);  // adds the sample staged while frozen
  CHECK(p.insts(3) == 400);
  p.clock(in);  // passes the top: held there, flagged
  CHECK(p.insts(3) == 0xFFFFFFFFu);
  CHECK(p.sat());
  CHECK(p.insts(9) == 0);  // beyond the table reads zero
  in.clear = true;         // wins over the staged sample
  p.clock(in);
  CHECK(p.insts(3) == 0);
  CHECK(p.acc(1) == 0);
  CHECK(p.cycles() == 0);
  CHECK_FALSE(p.sat());
}

TEST_CASE("left-over fills SMs round robin within capacity", "[golden][driver][left-over]") {
  // 2 SMs of 1536 threads; CTAs of 512 threads: 3 per SM
  Harness h(small_gpu(2), "left-over");
  h.launches.push_back(launch_cmd(0, 10, 512, 512 * 16, 0));
  h.run(40);
  REQUIRE(h.dispatches.size() == 6);
  for (size_t i = 0; i < h.dispatches.size(); ++i) {
    CHECK(h.dispatches[i].cta == i);
    CHECK(h.dispatches[i].sm == i % 2);
    CHECK_FALSE(h.dispatches[i].resume);
  }
  CHECK(h.g.smst().entry(0).threads == 1536);
  // a finished CTA frees room for exactly one more
  h.finish(h.dispatches[1]);
  h.run(10);
  REQUIRE(h.dispatches.size() == 7);
  CHECK(h.dispatches[6].sm == 1);
  CHECK(h.dispatches[6].cta == 6);
}

TEST_CASE("left-over gives a younger kernel only what the older leaves", "[golden][driver][left-over]") {
  // one SM: kernel 0 takes 2 CTAs of 640 threads (1280 of 1536); kernel 1 fits in the rest
  Harness h(small_gpu(1), "left-over");
  h.launches.push_back(launch_cmd(0, 5, 640, 640 * 8, 0));
  h.launches.push_back(launch_cmd(1, 5, 256, 256 * 8, 0));
  h.run(40);
  REQUIRE(h.dispatches.size() == 3);
  CHECK(h.dispatches[0].kernel == 0);
  CHECK(h.dispatches[1].kernel == 0);
  CHECK(h.dispatches[2].kernel == 1);
}

TEST_CASE("decisions are registered: a launch is dispatched six cycles later", "[golden][timing]") {
  Harness h(small_gpu(1), "left-over");
  h.launches.push_back(launch_cmd(0, 1, 32, 32, 0));
  SchedOutputs o0 = h.step();  // launch clocked into the command buffer
  SchedOutputs o1 = h.step();  // admitted into the KSRT
  SchedOutputs o2 = h.step();  // the SM driver sweeps the kernel's column of its ready bitmap
  SchedOutputs o3 = h.step();  // SM driver stage 1a: the SM's candidate (registered)
  SchedOutputs o4 = h.step();  // SM driver stage 1b: the pick
  SchedOutputs o5 = h.step();  // SM driver stage 2: the issue (tables written)
  SchedOutputs o6 = h.step();  // decision visible on the port
  CHECK_FALSE(o0.dispatch.valid);
  CHECK_FALSE(o1.dispatch.valid);
  CHECK_FALSE(o2.dispatch.valid);
  CHECK_FALSE(o3.dispatch.valid);
  CHECK_FALSE(o4.dispatch.valid);
  CHECK_FALSE(o5.dispatch.valid);
  CHECK(o6.dispatch.valid);
}

TEST_CASE("preempted CTAs resume from the PTBQ before fresh CTAs", "[golden][ptbq][ppq]") {
  // 1 SM with 2 CTA slots; low-priority kernel 0 (grid 4) runs, high-priority kernel 1 arrives
  Harness h(small_gpu(1, 1536, 32768, 48 * 1024, 2), "ppq-excl", PreemptMode::kSwitch);
  h.launches.push_back(launch_cmd(0, 4, 64, 64 * 8, 0, /*prio*/ 0));
  h.run(10);
  REQUIRE(h.dispatches.size() == 2);
  h.launches.push_back(launch_cmd(1, 1, 64, 64 * 8, 0, /*prio*/ 5));
  h.run(10);
  REQUIRE(h.preempts.size() == 1);
  CHECK(h.preempts[0].sm == 0);
  CHECK(h.preempts[0].mode == PreemptMode::kSwitch);
  CHECK(h.preempts[0].victim == kNoKernel);  // every resident kernel is less important
  CHECK(h.preempts[0].next == 1);
  CHECK(h.g.smst().entry(0).state == SmState::kReserved);
  CHECK(h.dispatches.size() == 2);  // nothing issued to the reserved SM
  h.events.push_back(SmEvent{SmEventType::kCtaSaved, 0, 0, 0});
  h.events.push_back(SmEvent{SmEventType::kCtaSaved, 0, 0, 1});
  h.events.push_back(SmEvent{SmEventType::kPreemptDone, 0, kNoKernel, 0});
  h.run(12);  // three event cycles, then (one SM) a CTA every other cycle
  REQUIRE(h.dispatches.size() >= 4);
  CHECK(h.dispatches[2].kernel == 1);  // the important kernel first
  CHECK(h.dispatches[3].kernel == 0);
  CHECK(h.dispatches[3].resume);  // then the saved CTAs, oldest first
  CHECK(h.dispatches[3].cta == 0);
  h.finish(h.dispatches[2]);
  h.run(10);
  REQUIRE(h.dispatches.size() == 5);
  CHECK(h.dispatches[4].resume);
  CHECK(h.dispatches[4].cta == 1);
  h.finish(h.dispatches[3]);
  h.run(10);
  REQUIRE(h.dispatches.size() == 6);
  CHECK_FALSE(h.dispatches[5].resume);  // fresh CTAs only after the PTBQ is empty
  CHECK(h.dispatches[5].cta == 2);
}

TEST_CASE("a context switch that would overflow the PTBQ falls back to draining", "[golden][preempt]") {
  Smst smst;
  smst.reset(2, 2);
  Smst::In w;
  w.alloc_valid = true;
  w.alloc_sm = 0;
  w.alloc_slot = 0;
  smst.clock(w);
  PreemptCtrl pc;
  pc.reset(2);
  CHECK(pc.switch_ok(PreemptMode::kSwitch, smst, 0, 0));
  CHECK(pc.switch_ok(PreemptMode::kSwitch, smst, 0, PtbqDepth - 1));
  CHECK_FALSE(pc.switch_ok(PreemptMode::kSwitch, smst, 0, PtbqDepth));
  CHECK_FALSE(pc.switch_ok(PreemptMode::kDrain, smst, 0, 0));
}

TEST_CASE("golden invariants catch a CTA finished twice", "[golden][invariant]") {
  Harness h(small_gpu(1), "left-over");
  h.launches.push_back(launch_cmd(0, 4, 64, 64 * 8, 0));
  h.run(20);  // one SM: the SM driver issues to it every third cycle
  REQUIRE(h.dispatches.size() == 4);
  h.finish(h.dispatches[0]);
  h.finish(h.dispatches[0]);
  CHECK_THROWS_AS(h.run(5), InvariantError);
}

TEST_CASE("golden invariants catch an event for an inactive kernel", "[golden][invariant]") {
  Harness h(small_gpu(1), "left-over");
  h.events.push_back(SmEvent{SmEventType::kCtaFinished, 0, 3, 0});
  CHECK_THROWS_AS(h.step(), InvariantError);
}

TEST_CASE("golden refuses launches the RTL fields cannot carry", "[golden][input]") {
  Harness h(small_gpu(1), "left-over");
  h.launches.push_back(launch_cmd(0, 1u << 20, 64, 64, 0));
  CHECK_THROWS_AS(h.step(), InputError);
}

TEST_CASE("a kernel leaves the KSRT only after all its CTAs finished", "[golden][invariant]") {
  Harness h(small_gpu(1), "left-over");
  h.launches.push_back(launch_cmd(0, 3, 64, 64 * 8, 0));
  h.run(20);  // one SM: the SM driver issues to it every third cycle
  REQUIRE(h.dispatches.size() == 3);
  h.finish(h.dispatches[0]);
  h.finish(h.dispatches[2]);
  h.run(5);
  CHECK(h.g.ksrt().entry(0).valid);
  CHECK(h.g.ksrt().entry(0).done == 2);
  h.finish(h.dispatches[1]);
  h.run(5);
  CHECK_FALSE(h.g.ksrt().entry(0).valid);
  CHECK(h.g.smst().entry(0).ctas == 0);
}

TEST_CASE("next() writes only d: registered state changes at commit(), all blocks at once", "[golden][twin]") {
  Ksrt ksrt;
  ksrt.reset(4);
  Smst smst;
  smst.reset(2, 4);
  Ksrt::In kin;
  kin.alloc_valid = true;
  kin.alloc_slot = 2;
  kin.launch = mk(9, 0);
  kin.launch.grid = 3;
  Smst::In sin;
  sin.alloc_valid = true;
  sin.alloc_sm = 1;
  sin.alloc_slot = 2;
  sin.alloc_res = CtaRes{64, 2, 128, 256};
  ksrt.next(kin, ksrt.d);
  smst.next(sin, smst.d);
  // nothing committed yet: every block still shows the state before the edge
  CHECK_FALSE(ksrt.entry(2).valid);
  CHECK(smst.entry(1).threads == 0);
  CHECK(smst.resident(1, 2) == 0);
  smst.commit();
  ksrt.commit();
  CHECK(ksrt.entry(2).valid);
  CHECK(ksrt.entry(2).kernel == 9);
  CHECK(smst.entry(1).ctas == 1);
  CHECK(smst.entry(1).state == SmState::kRunning);
  CHECK(smst.resident(1, 2) == 1);
  CHECK(smst.entry(1).threads == 0);  // the resources in use land at the next edge
  CHECK(smst.pend_alloc().valid);
  smst.clock(Smst::In{});
  CHECK(smst.entry(1).threads == 64);
  CHECK_FALSE(smst.pend_alloc().valid);
  // two write ports on one entry in one cycle: issue and done of slot 2 both apply
  Ksrt::In both;
  both.issue_valid = true;
  both.issue_slot = 2;
  both.done_valid = true;
  both.done_slot = 2;
  both.tok.inc_valid = true;
  both.tok.inc = 2;
  ksrt.clock(both);
  CHECK(ksrt.entry(2).next_cta == 1);
  CHECK(ksrt.entry(2).done == 1);
  CHECK(ksrt.entry(2).tokens == 1);
  // a cycle without writes leaves the table as it was
  ksrt.clock(Ksrt::In{});
  CHECK(ksrt.entry(2).next_cta == 1);
}
