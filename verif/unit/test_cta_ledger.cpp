// gsched tests: CtaLedger, the exactly-once record shared by gs::Gpu and the golden scheduler.
#include <catch2/catch.hpp>

#include "common/cta_ledger.hpp"

using gs::CtaLedger;
using Fault = CtaLedger::Fault;
using State = CtaLedger::State;

TEST_CASE("CTA ledger follows a CTA through issue, save, resume and finish", "[ledger]") {
  CtaLedger l;
  l.admit(2);
  CHECK(l.grid() == 2);
  CHECK(l.state(0) == State::kNotStarted);
  CHECK(l.start(0, false) == Fault::kNone);
  CHECK(l.retire(0, true) == Fault::kNone);  // saved by a context switch
  CHECK(l.state(0) == State::kSaved);
  CHECK(l.start(0, true) == Fault::kNone);    // resumed
  CHECK(l.retire(0, false) == Fault::kNone);  // finished
  CHECK(l.start(1, false) == Fault::kNone);
  CHECK(l.retire(1, false) == Fault::kNone);
  CHECK(l.done() == 2);
  CHECK(l.first_not_done() == l.grid());
}

TEST_CASE("CTA ledger catches a double issue", "[ledger]") {
  CtaLedger l;
  l.admit(3);
  REQUIRE(l.start(1, false) == Fault::kNone);
  CHECK(l.start(1, false) == Fault::kNotFresh);  // while running
  REQUIRE(l.retire(1, false) == Fault::kNone);
  CHECK(l.start(1, false) == Fault::kNotFresh);  // after it finished
  CHECK(l.start(3, false) == Fault::kBeyondGrid);
}

TEST_CASE("CTA ledger catches a resume without a save", "[ledger]") {
  CtaLedger l;
  l.admit(2);
  CHECK(l.start(0, true) == Fault::kNotSaved);  // never issued
  REQUIRE(l.start(1, false) == Fault::kNone);
  CHECK(l.start(1, true) == Fault::kNotSaved);      // running, not saved
  CHECK(l.retire(0, false) == Fault::kNotRunning);  // a finish of a CTA that never ran
}

TEST_CASE("CTA ledger catches a kernel finishing with a CTA not done", "[ledger]") {
  CtaLedger l;
  l.admit(3);
  for (uint32_t c = 0; c < 3; ++c) REQUIRE(l.start(c, false) == Fault::kNone);
  REQUIRE(l.retire(0, false) == Fault::kNone);
  REQUIRE(l.retire(2, true) == Fault::kNone);  // CTA 2 saved, never resumed
  CHECK(l.first_not_done() == 1);              // CTA 1 still running
  REQUIRE(l.retire(1, false) == Fault::kNone);
  CHECK(l.first_not_done() == 2);
  CHECK(l.state(2) == State::kSaved);
  CHECK(l.count(State::kSaved) == 1);
}
