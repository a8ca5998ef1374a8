// gsched block bench: rtl/policy/gs_dss_unit.sv, the Dynamic Spatial Sharing unit (Tanasic
// Sec. 3.4, Algorithm 1), vs. its golden twin DssUnitTwin every cycle at 132 SMs: the outputs
// (owner_wr_o, req_o, tok_req_o, tok_o after the acceptance) and every register through
// state_o. The environment is gs_top's loop around the unit (the KSRT's tokens, the SMST's
// owners and reservations, gs_preempt_ctrl's acceptance) with random disturbances the unit
// must tolerate: tokens, ranks (ties among them), pending and valid bits, resident CTAs and SM
// states change under it, events arrive at random, en_i drops, num_sms varies. Token counts
// stay in a narrow range so that ties and the steady-state boundary (a difference of one)
// come up often. Each mutant of gs_dss_unit.sv (GS_MUT_DSS_*, docs/rtl/mutations.md) is built
// as its own model, and the same stimulus must find a difference: the mutation tests below.
#include <catch2/catch.hpp>

#include <algorithm>
#include <numeric>
#include <sstream>
#include <vector>

#include "Vbench_gs_dss_unit.h"
#include "bench_harness.hpp"
#include "common/rng.hpp"
#include "gs_dss_unit_mutants.hpp"  // generated: GS_BENCH_MUTANTS(X), one Verilated model per GS_MUT_DSS_*
#include "sched/golden/gs_dss_unit.hpp"

namespace {
using namespace gs::bench;
using gs::golden::ActiveQueue;
using gs::golden::DssUnitTwin;
using gs::golden::Ksrt;
using gs::golden::KsrtEntry;
using gs::golden::OwnerWr;
using gs::golden::PolicyState;
using gs::golden::PreemptReq;
using gs::golden::Smst;
using gs::golden::SmstEntry;
using gs::golden::SmState;
using gs::golden::TokenUpd;
namespace lay = gs::spec::layout::dss_state_t;
constexpr uint32_t N = gs::spec::MaxSms;
constexpr uint32_t K = gs::spec::MaxKernels;

/// What the stimulus made the unit do, so a test can check it was not vacuous.
struct Counts {
  uint64_t passes = 0, releases = 0, assigns = 0, preempts = 0, refused = 0, rechecks = 0;
};

template <class V>
class DssBench {
 public:
  explicit DssBench(uint32_t seed) : rtl_(seed) {
    ksrt_.reset(K);
    aq_.reset(K);
    smst_.reset(N, K);
    gold_.reset(K);
    drive(false, false);
    rtl_.reset();
  }

  /// The start: every kernel valid with a few tokens, most with CTAs to issue, all SMs idle.
  void init(gs::Rng& r) {
    for (uint32_t k = 0; k < K; ++k) {
      ksrt_.q.tbl[k].valid = k < 5;
      ksrt_.q.tbl[k].tokens = int32_t(r.below(7)) - 1;
      aq_.q.rank[k] = k;
      if (k < 5 && r.chance_permille(800)) pending_ |= 1u << k;
    }
  }

  /// Runs `cycles` cycles of the random environment: "" or "cycle C: <first difference>".
  std::string run(gs::Rng& r, uint64_t cycles, Counts& n) {
    for (uint64_t c = 0; c < cycles; ++c) {
      if (!quiet) disturb(r);
      const bool trigger = quiet ? c == 0 : r.chance_permille(30);
      bool en = true;  // now and then the policy is deselected for a while
      if (en_off_ > 0) {
        en = false;
        --en_off_;
      } else if (!quiet && r.chance_permille(2)) {
        en_off_ = 1 + r.below(40);
      }
      drive(en, trigger);
      // the twin's outputs and the RTL's with the request not yet accepted
      const DssUnitTwin::Out o = gold_.comb(en, pending_, ksrt_, aq_, smst_);
      rtl_.dut().accept_i = 0;
      rtl_.settle();
      std::string diff = compare(o);
      // gs_preempt_ctrl takes a request when its SM is not reserved (and, here, not always)
      const bool accepted = o.req.valid && !gs::golden::reserved(smst_.entry(o.req.sm)) && !r.chance_permille(150);
      rtl_.dut().accept_i = accepted;
      rtl_.settle();
      const TokenUpd tok = DssUnitTwin::tokens(o, accepted);
      const TokenUpd rtl_tok = gs::rtl::get_rec<TokenUpd>(rtl_.dut().tok_o);
      if (!(rtl_tok == tok)) diff += "tok_o differs; ";
      if (!diff.empty()) return "cycle " + std::to_string(c) + ": " + diff;
      if (gold_.q.st == DssUnitTwin::St::kSel) ++n.passes;
      if (gold_.q.st == DssUnitTwin::St::kAct && o.changed && !o.owner_wr.valid && !o.req.valid) ++n.rechecks;
      if ((o.owner_wr.valid || o.req.valid) && first_act == 0) first_act = c;
      if (o.owner_wr.valid) ++(o.owner_wr.owner_valid ? n.assigns : n.releases);
      if (o.req.valid) ++(accepted ? n.preempts : n.refused);
      gold_.next(en, trigger, o, pending_, ksrt_, aq_, smst_, num_sms_, gold_.d);
      rtl_.tick();
      gold_.commit();
      apply(o, accepted, tok);
    }
    return "";
  }

 private:
  /// The tables as gs_top would change them around the unit, plus disturbances.
  void disturb(gs::Rng& r) {
    if (r.chance_permille(2)) num_sms_ = r.chance_permille(500) ? N : 1 + r.below(12);
    for (uint32_t k = 0; k < K; ++k) {
      KsrtEntry& e = ksrt_.q.tbl[k];
      if (r.chance_permille(3)) e.valid = !e.valid;
      if (r.chance_permille(3)) e.tokens = int32_t(r.below(9)) - 3;
      if (r.chance_permille(8)) pending_ ^= 1u << k;
    }
    if (r.chance_permille(5)) {  // a new arrival order; now and then two kernels share a rank
      std::vector<uint32_t> p(K);
      std::iota(p.begin(), p.end(), 0u);
      for (uint32_t i = K - 1; i > 0; --i) std::swap(p[i], p[r.below(i + 1)]);
      if (r.chance_permille(200)) p[r.below(K)] = p[r.below(K)];
      for (uint32_t k = 0; k < K; ++k) aq_.q.rank[k] = p[k];
    }
    for (int i = 0; i < 3; ++i) {  // a few SMs change under the unit
      const uint32_t s = r.below(num_sms_);
      SmstEntry& m = smst_.q.tbl[s];
      const uint32_t x = r.below(1000);
      if (m.state == SmState::kReserved) {
        if (x < 40) {  // kPreemptDone: the SM goes to the kernel it was reserved for
          m.state = SmState::kRunning;
          m.owner_valid = m.next_valid;
          m.owner = m.next;
          m.next_valid = false;
          for (uint32_t k = 0; k < K; ++k) smst_.q.resident[s * K + k] = 0;
        }
      } else if (x < 60) {  // a CTA of the owner issued or retired
        if (m.owner_valid) {
          uint32_t& res = smst_.q.resident[s * K + m.owner];
          res = r.chance_permille(500) ? std::min<uint32_t>(res + 1, 3) : (res > 0 ? res - 1 : 0);
        }
      } else if (x < 64) {  // another kernel's CTA left over on the SM
        smst_.q.resident[s * K + r.below(K)] = r.below(2);
      } else if (x < 66) {  // an owner the unit did not write (a disturbance the re-checks see)
        m.owner_valid = r.chance_permille(700);
        m.owner = r.below(K);
        m.state = m.owner_valid ? SmState::kRunning : SmState::kIdle;
      } else if (x < 67) {  // reserved behind the unit's back
        m.state = SmState::kReserved;
        m.next_valid = r.chance_permille(800);
        m.next = r.below(K);
      }
    }
  }

  void drive(bool en, bool trigger) {
    V& d = rtl_.dut();
    d.en_i = en;
    d.trigger_i = trigger;
    d.cfg_num_sms_i = num_sms_;
    d.pending_i = pending_;
    d.rank_i = 0;
    for (uint32_t k = 0; k < K; ++k) {
      gs::rtl::put_rec(d.ksrt_i, ksrt_.entry(k), k * gs::spec::KsrtW);
      set_bits(d.rank_i, k * gs::spec::SlotW, gs::spec::SlotW, aq_.q.rank[k]);
    }
    for (uint32_t s = 0; s < N; ++s) {
      gs::rtl::put_rec(d.smst_i, smst_.entry(s), s * gs::spec::SmstW);
      for (uint32_t k = 0; k < K; ++k)
        set_bits(d.resident_i, (s * K + k) * gs::spec::CtaCntW, gs::spec::CtaCntW, smst_.resident(s, k));
    }
  }

  /// The unit's writes, as gs_top applies them (owner write, the accepted reservation, tokens).
  void apply(const DssUnitTwin::Out& o, bool accepted, const TokenUpd& tok) {
    if (o.owner_wr.valid) {
      SmstEntry& m = smst_.q.tbl[o.owner_wr.sm];
      m.owner_valid = o.owner_wr.owner_valid;
      m.owner = o.owner_wr.owner_valid ? o.owner_wr.owner : 0;
      m.state = m.owner_valid ? SmState::kRunning : SmState::kIdle;
    }
    if (accepted) {
      SmstEntry& m = smst_.q.tbl[o.req.sm];
      m.state = SmState::kReserved;
      m.next_valid = o.req.next_valid && o.req.assign_next;
      m.next = o.req.next;
    }
    if (tok.inc_valid) ++ksrt_.q.tbl[tok.inc].tokens;
    if (tok.dec_valid) --ksrt_.q.tbl[tok.dec].tokens;
  }

  std::string compare(const DssUnitTwin::Out& o) {
    const V& d = rtl_.dut();
    std::ostringstream s;
    const auto wr = gs::rtl::get_rec<OwnerWr>(d.owner_wr_o);
    if (!(wr == o.owner_wr))
      s << "owner_wr_o RTL " << wr.valid << "/" << wr.sm << "/" << wr.owner_valid << "/" << wr.owner << " golden "
        << o.owner_wr.valid << "/" << o.owner_wr.sm << "/" << o.owner_wr.owner_valid << "/" << o.owner_wr.owner << "; ";
    const auto req = gs::rtl::get_rec<PreemptReq>(d.req_o);
    if (!(req == o.req))
      s << "req_o RTL " << req.valid << "/" << req.sm << "/" << req.victim << "/" << req.next << " golden "
        << o.req.valid << "/" << o.req.sm << "/" << o.req.victim << "/" << o.req.next << "; ";
    const auto treq = gs::rtl::get_rec<TokenUpd>(d.tok_req_o);
    if (!(treq == o.tok_pre)) s << "tok_req_o differs; ";
    PolicyState st;
    gold_.state(st);
    for (const auto& f : lay::kFields) {
      for (uint32_t at = 0; at < f.width; at += 64) {  // wide fields in 64-bit pieces
        const uint32_t w = std::min<uint32_t>(64, f.width - at);
        const uint64_t rv = get_bits(d.state_o, f.lsb + at, w), gv = st.get(f.lsb + at, w);
        if (rv != gv) s << f.name << "[" << at + w - 1 << ":" << at << "] RTL " << rv << " golden " << gv << "; ";
      }
    }
    if (rtl_.errors() != 0) s << "RTL assertion failed; ";
    return s.str();
  }

  Bench<V> rtl_;
  DssUnitTwin gold_;

 public:
  bool quiet = false;      // no disturbances, no events but the trigger at cycle 0
  uint64_t first_act = 0;  // the first cycle with an owner write or a request
  uint32_t num_sms_ = N;
  uint32_t pending_ = 0;
  Ksrt ksrt_;
  Smst smst_;

 private:
  ActiveQueue aq_;
  uint32_t en_off_ = 0;
};

/// The stimulus every model sees: 4 kernels' worth of tokens to begin with, then random. The
/// stimulus reads only the golden side, so each model sees the same cycles up to its first
/// difference.
template <class V>
std::string first_difference(uint64_t cycles, Counts* counts = nullptr) {
  gs::Rng r(2026);
  Counts n;
  DssBench<V> b(7);
  b.init(r);
  const std::string diff = b.run(r, cycles, n);
  if (counts) *counts = n;
  return diff;
}

constexpr uint64_t kCycles = 30000;

}  // namespace

TEST_CASE("gs_dss_unit random environment against its twin", "[rtl][bench]") {
  Counts n;
  const std::string diff = first_difference<Vbench_gs_dss_unit>(kCycles, &n);
  INFO(diff);
  REQUIRE(diff == "");
  INFO("passes " << n.passes << " releases " << n.releases << " assigns " << n.assigns << " preempts " << n.preempts
                 << " refused " << n.refused << " re-checks failed " << n.rechecks);
  CHECK(n.passes > 100);
  CHECK(n.releases > 10);
  CHECK(n.assigns > 10);
  CHECK(n.preempts > 10);
  CHECK(n.rechecks > 0);
  WARN("passes " << n.passes << ", releases " << n.releases << ", assigns " << n.assigns << ", preempts " << n.preempts
                 << " (+ " << n.refused << " refused), acts whose re-check failed " << n.rechecks);
}

TEST_CASE("gs_dss_unit latency: an event to the act cycle, num_sms + 3 cycles", "[rtl][bench]") {
  // docs/rtl/dss.md and constraints/latency.json: the trigger in cycle 0, the scan in cycles
  // 1..num_sms, SEL, CHK, then ACT in cycle num_sms + 3 (an idle SM to the only kernel)
  for (const uint32_t sms : {1u, 5u, N}) {
    DssBench<Vbench_gs_dss_unit> b(3);
    gs::Rng r(1);
    b.quiet = true;
    b.num_sms_ = sms;
    b.ksrt_.q.tbl[0].valid = true;
    b.ksrt_.q.tbl[0].tokens = 2;
    b.pending_ = 1;
    Counts n;
    REQUIRE(b.run(r, sms + 10, n) == "");
    CHECK(b.first_act == sms + 3);
    CHECK(n.assigns == 1);
  }
}

// One test per mutant: the same stimulus must find a difference.
#define GS_DSS_MUTANT_TEST(define, model)                                           \
  TEST_CASE("gs_dss_unit mutant " #define " is caught", "[rtl][bench][mutation]") { \
    const std::string diff = first_difference<model>(kCycles);                      \
    INFO(diff);                                                                     \
    CHECK(diff != "");                                                              \
    WARN(#define " caught: " << diff);                                              \
  }
GS_BENCH_MUTANTS(GS_DSS_MUTANT_TEST)
