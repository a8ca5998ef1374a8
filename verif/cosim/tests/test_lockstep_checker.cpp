// gsched cosim tests: the lockstep checker on hand-made REF/DUT outputs, the per-record
// checkers, and the state check on a golden scheduler's tables against corrupted copies (no RTL
// needed).
#include <catch2/catch.hpp>
#include <string>

#include "config/gpu_config.hpp"
#include "lockstep/lockstep_checker.hpp"
#include "lockstep/state_checker.hpp"
#include "sched/golden/golden_scheduler.hpp"

namespace {

gs::SchedOutputs dispatch(uint16_t sm, uint16_t kernel, uint32_t cta) {
  gs::SchedOutputs o;
  o.dispatch.valid = true;
  o.dispatch.sm = sm;
  o.dispatch.kernel = kernel;
  o.dispatch.cta = cta;
  return o;
}

}  // namespace

TEST_CASE("checker accepts identical outputs and ignores fields of invalid records", "[cosim][checker]") {
  gs::lockstep::LockstepChecker chk;
  gs::SchedInputs in;
  CHECK(chk.check(0, in, dispatch(1, 2, 3), dispatch(1, 2, 3)));
  gs::SchedOutputs ref, dut;
  dut.preempt.sm = 7;  // valid = 0 in both: the model ignores the fields, so must the checker
  CHECK(chk.check(1, in, ref, dut));
  CHECK(chk.cycles_checked() == 2);
  CHECK(chk.decisions_checked() == 1);
}

TEST_CASE("checker names the first differing signal with REF and DUT values", "[cosim][checker]") {
  gs::lockstep::LockstepChecker chk;
  gs::SchedInputs in;
  in.cycle = 41;
  REQUIRE_FALSE(chk.check(41, in, dispatch(1, 2, 3), dispatch(4, 2, 3)));
  CHECK(chk.mismatch().cycle == 41);
  CHECK(chk.mismatch().signal == "dispatch_sm_o");
  CHECK(chk.mismatch().ref == "1");
  CHECK(chk.mismatch().dut == "4");
  const std::string rep = chk.report();
  CHECK(rep.find("cycle 41") != std::string::npos);
  CHECK(rep.find("REF=1") != std::string::npos);
  CHECK(rep.find("DUT=4") != std::string::npos);
}

TEST_CASE("checker order is dispatch preempt quota bypass launch_ready", "[cosim][checker]") {
  gs::lockstep::LockstepChecker chk;
  gs::SchedInputs in;
  gs::SchedOutputs ref, dut;
  ref.quota.valid = true;
  ref.launch_ready = false;  // differs too, but quota comes first
  REQUIRE_FALSE(chk.check(5, in, ref, dut));
  CHECK(chk.mismatch().signal == "quota_valid_o");
  gs::SchedOutputs r2, d2;
  d2.launch_ready = false;
  REQUIRE_FALSE(chk.check(6, in, r2, d2));
  CHECK(chk.mismatch().signal == "launch_ready_o");
  gs::SchedOutputs r3 = dispatch(0, gs::kNoKernel, 0), d3 = dispatch(0, 5, 0);
  REQUIRE_FALSE(chk.check(7, in, r3, d3));
  CHECK(chk.mismatch().signal == "dispatch_kernel_o");
  CHECK(chk.mismatch().ref == "none");
}

TEST_CASE("checker history keeps the last non-idle cycles in a ring", "[cosim][checker]") {
  gs::lockstep::LockstepChecker chk(4);
  gs::SchedInputs idle;
  for (uint64_t c = 0; c < 10; ++c) {
    CHECK(chk.check(c, idle, dispatch(0, 0, uint32_t(c)), dispatch(0, 0, uint32_t(c))));
    CHECK(chk.check(100 + c, idle, {}, {}));  // idle cycles are not remembered
  }
  const std::string h = chk.history();
  CHECK(h.find("cycle 5\n") == std::string::npos);
  CHECK(h.find("cycle 6\n") != std::string::npos);
  CHECK(h.find("cycle 9\n") != std::string::npos);
  CHECK(h.find("cycle 105") == std::string::npos);
  CHECK(h.find("cta=9") != std::string::npos);
}

// ---- the state check: tables of REF (golden) and DUT --------------------------------------

namespace {

/// The golden's tables in the DUT's form: what a correct RTL would show after the same cycles.
gs::lockstep::SchedTables tables_of(const gs::GoldenScheduler& g) {
  gs::lockstep::SchedTables t;
  const uint32_t slots = g.ksrt().slots();
  for (uint32_t k = 0; k < slots; ++k) {
    t.ksrt[k] = g.ksrt().entry(k);
    t.ptbq_count[k] = g.ptbq().count(k);
    t.ptbq_head[k] = g.ptbq().count(k) ? g.ptbq().head(k) : 0;
    t.ptbq_ready |= g.ptbq().ready(k) ? 1u << k : 0u;
    t.rank[k] = g.active_queue().q.rank[k];
  }
  t.ptbq_fill = g.ptbq().fill();
  t.smst_pend_alloc = g.smst().pend_alloc();
  t.smst_pend_free = g.smst().pend_free();
  for (uint32_t s = 0; s < g.smst().sms(); ++s) {
    t.smst[s] = g.smst().entry(s);
    for (uint32_t k = 0; k < slots; ++k) {
      t.resident[s * t.kSlots + k] = g.smst().resident(s, k);
      t.quota[s * t.kSlots + k] = g.quota_table().quota()[s * slots + k];
    }
  }
  g.policy_twin().state(t.policy_state);
  const gs::golden::SmDriver& drv = g.sm_driver();
  for (uint32_t s = 0; s < drv.q.ready.size(); ++s) {
    t.smd_ready[s] = drv.q.ready[s];
    t.smd_dirty[s] = drv.q.dirty[s];
    t.smd_qdirty[s] = drv.q.qdirty[s];
    t.smd_cand[s] = drv.q.cand[s];
    t.smd_cand_slot[s] = drv.q.cand_slot[s];
  }
  t.smd_waits = drv.q.waits;
  return t;
}

/// A golden scheduler on the 16-SM preset that admitted one kernel and dispatched a few CTAs.
std::unique_ptr<gs::GoldenScheduler> busy_golden(const std::string& policy = "left-over") {
  const gs::GpuConfig cfg = gs::load_gpu_config("warped-slicer");
  gs::SchedOptions opt;
  opt.policy = policy;
  auto g = std::make_unique<gs::GoldenScheduler>(opt);
  g->reset(cfg, opt);
  gs::SchedInputs in;
  in.launch.valid = true;
  in.launch.kernel = 3;
  in.launch.prio = 1;
  in.launch.threads = 128;
  in.launch.warps = 4;
  in.launch.regs = 4096;
  in.launch.shmem = 1024;
  in.launch.grid = 40;
  g->step(in);
  for (uint64_t c = 1; c < 30; ++c) g->step(gs::SchedInputs{});
  return g;
}

}  // namespace

TEST_CASE("state check accepts the golden's own tables", "[cosim][checker]") {
  const auto g = busy_golden();
  REQUIRE(g->ksrt().entry(0).valid);         // the kernel took a slot
  REQUIRE(g->ksrt().entry(0).next_cta > 0);  // and CTAs went out
  gs::lockstep::StateChecker chk;
  CHECK(chk.check(30, *g, tables_of(*g)));
  CHECK(chk.cycles_checked() == 1);
}

TEST_CASE("state check names the corrupted table, entry and field", "[cosim][checker]") {
  const auto g = busy_golden();
  const gs::lockstep::SchedTables good = tables_of(*g);
  gs::lockstep::StateChecker chk;

  gs::lockstep::SchedTables t = good;
  t.ksrt[0].next_cta -= 1;  // a CTA id handed out twice (GS_MUT_CTA_REISSUE's symptom)
  REQUIRE_FALSE(chk.check(1234, *g, t));
  CHECK(chk.mismatch().cycle == 1234);
  CHECK(chk.mismatch().signal == "KSRT[0].next_cta");
  CHECK(chk.mismatch().ref == std::to_string(good.ksrt[0].next_cta));
  CHECK(chk.mismatch().dut == std::to_string(good.ksrt[0].next_cta - 1));
  CHECK(chk.mismatch().in_state);

  t = good;
  t.ksrt[0].kernel = gs::kNoKernel;  // kernel ids print as the port does: none
  REQUIRE_FALSE(chk.check(1235, *g, t));
  CHECK(chk.mismatch().signal == "KSRT[0].kernel");
  CHECK(chk.mismatch().ref == "3");
  CHECK(chk.mismatch().dut == "none");

  t = good;
  t.smst[5].state = gs::SmState::kReserved;
  t.smst[9].ctas += 1;  // later in the table: the first difference is reported
  REQUIRE_FALSE(chk.check(1236, *g, t));
  CHECK(chk.mismatch().signal == "SMST[5].state");
  CHECK(chk.mismatch().dut == "SM_RESERVED");

  t = good;
  t.resident[2 * t.kSlots + 0] += 1;
  REQUIRE_FALSE(chk.check(1237, *g, t));
  CHECK(chk.mismatch().signal == "SMST[2].resident[0]");

  t = good;
  t.ptbq_count[1] = 1;  // a CTA saved in the DUT only
  REQUIRE_FALSE(chk.check(1238, *g, t));
  CHECK(chk.mismatch().signal == "PTBQ[1].count");
  CHECK(chk.mismatch().ref == "0");
  CHECK(chk.mismatch().dut == "1");

  t = good;
  t.rank[0] = 2;
  REQUIRE_FALSE(chk.check(1239, *g, t));
  CHECK(chk.mismatch().signal == "AQ[0].rank");

  t = good;
  t.smd_ready[4] ^= 1u;  // the SM driver's ready bit of SM 4, slot 0
  REQUIRE_FALSE(chk.check(1239, *g, t));
  CHECK(chk.mismatch().signal == "SMD[4].ready");

  t = good;
  t.quota[15 * t.kSlots + 0] = 7;
  REQUIRE_FALSE(chk.check(1240, *g, t));
  CHECK(chk.mismatch().signal == "QUOTA[15][0]");

  // per-table counters and first mismatches (difftest style)
  using SC = gs::lockstep::StateChecker;
  CHECK(chk.mismatches(SC::kKsrt) == 2);
  CHECK(chk.first_mismatch(SC::kKsrt).signal == "KSRT[0].next_cta");
  CHECK(chk.mismatches(SC::kSmst) == 2);
  CHECK(chk.mismatches(SC::kQuota) == 1);

  // the lockstep report gives a state mismatch the port mismatch's form
  gs::lockstep::LockstepChecker lc;
  gs::SchedInputs in;
  REQUIRE(lc.check(1240, in, dispatch(1, 3, 7), dispatch(1, 3, 7)));
  lc.fail_state(chk.mismatch(), dispatch(1, 3, 7), dispatch(1, 3, 7));
  const std::string rep = lc.report();
  CHECK(rep.find("lockstep mismatch at cycle 1240: state QUOTA[15][0]  REF=0  DUT=7") != std::string::npos);
  CHECK(rep.find("cta=7") != std::string::npos);
}

TEST_CASE("state check names a differing policy register by its state record's field", "[cosim][checker]") {
  gs::lockstep::StateChecker chk;
  using SC = gs::lockstep::StateChecker;
  namespace L = gs::spec::layout::ppq_state_t;
  const auto g = busy_golden("ppq-excl");
  const gs::lockstep::SchedTables good = tables_of(*g);
  REQUIRE(good.policy_state.get(L::seen_valid_lsb, 1) == 1);  // the kernel's arrival was seen
  REQUIRE(chk.check(40, *g, good));

  gs::lockstep::SchedTables t = good;
  const uint64_t seen = good.policy_state.get(L::seen_lsb, L::seen_width);
  t.policy_state.put(L::seen_lsb, L::seen_width, seen + 1);  // GS_MUT_PPQ_SEEN_STUCK's symptom
  REQUIRE_FALSE(chk.check(41, *g, t));
  CHECK(chk.mismatch().signal == "POLICY.gs_policy_ppq.seen");
  CHECK(chk.mismatch().ref == std::to_string(seen));
  CHECK(chk.mismatch().dut == std::to_string(seen + 1));
  CHECK(chk.mismatches(SC::kPolicy) == 1);

  // nested records name their leaf fields; wide fields print in hex
  const auto sp = busy_golden("spatial");
  t = tables_of(*sp);
  REQUIRE(chk.check(42, *sp, t));
  namespace S = gs::spec::layout::spatial_state_t;
  namespace C = gs::spec::layout::scan_state_t;
  t.policy_state.put(S::scan_lsb + C::done_lsb, C::done_width,
                     t.policy_state.get(S::scan_lsb + C::done_lsb, C::done_width) ^ 4u);
  REQUIRE_FALSE(chk.check(43, *sp, t));
  CHECK(chk.mismatch().signal == "POLICY.gs_policy_spatial.scan.done");

  // a module without registers compares as all zeros
  const auto lo = busy_golden("left-over");
  t = tables_of(*lo);
  REQUIRE(chk.check(44, *lo, t));
  t.policy_state.put(3, 1, 1);
  REQUIRE_FALSE(chk.check(45, *lo, t));
  CHECK(chk.mismatch().signal == "POLICY.gs_policy_left_over(bits)");
  const size_t nibbles = (gs::spec::PolicyStateW + 3) / 4;  // wider than 64 bits: hex
  CHECK(chk.mismatch().ref == "0x" + std::string(nibbles, '0'));
  CHECK(chk.mismatch().dut == "0x" + std::string(nibbles - 1, '0') + "8");
}

TEST_CASE("record checkers keep their own counts and first mismatch", "[cosim][checker]") {
  gs::lockstep::RecordChecker<gs::PreemptCmd> chk("preempt");
  gs::PreemptCmd a, b;
  CHECK(chk.check(1, a, b));  // both invalid: not a decision
  a.valid = b.valid = true;
  a.mode = gs::PreemptMode::kSwitch;
  REQUIRE_FALSE(chk.check(2, a, b));
  CHECK(chk.first_mismatch().signal == "preempt_mode_o");
  CHECK(chk.first_mismatch().ref == "PREEMPT_SWITCH");
  b.mode = gs::PreemptMode::kSwitch;
  b.next = 4;
  REQUIRE_FALSE(chk.check(3, a, b));
  CHECK(chk.last_mismatch().signal == "preempt_next_o");
  CHECK(chk.last_mismatch().ref == "none");
  CHECK(chk.first_mismatch().cycle == 2);
  CHECK(chk.checked() == 2);
  CHECK(chk.mismatches() == 2);
}
