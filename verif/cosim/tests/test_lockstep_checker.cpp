// gsched cosim tests: the lockstep checker and the per-record checkers on hand-made REF/DUT
// outputs (no RTL needed).
#include <catch2/catch.hpp>
#include <string>

#include "lockstep/lockstep_checker.hpp"

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
