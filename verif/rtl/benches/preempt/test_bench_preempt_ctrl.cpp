// gsched block bench: rtl/framework/gs_preempt_ctrl.sv vs. golden PreemptCtrl, every cycle.
//
// The block reads the SMST, KSRT and PTBQ counts; the bench keeps them in the golden Smst /
// Ksrt / Ptbq and wires the block's outputs back as gs_top does (reserve / unreserve into the
// SMST, kCtaSaved pushes into the PTBQ). Around it the bench plays the GPU: CTAs arrive on and
// finish from SMs that are not reserved, resumed CTAs leave the PTBQ, and a reserved SM works
// off its preemption with the mechanism the preempt record named -- switch: one kCtaSaved per
// resident CTA; drain: its CTAs finish -- then reports kPreemptDone (one SM event per cycle).
// Compared every cycle: accept_o, the SMST reserve/unreserve ports, the PTBQ push port
// (against gs_top's / GoldenScheduler's wiring of the same signals), the whole preempt_o
// record, idle or not (an idle record is zeros with victim = next = none on both sides), and
// every register (ctas_q, rel_q, room_q, credited_q, read through gs_preempt_ctrl_state.vlt).
// The bench also keeps the save credit the plain way (+ CTAs of a switch, - an SM's credited
// CTAs at its kPreemptDone) and checks every cycle that the twin's room is PtbqDepth minus it,
// so a decision is still max PTBQ count + credit + CTAs <= PtbqDepth on this cycle's counts.
// Every cycle returns the first difference instead of failing on it, so the whole stimulus
// (directed cases, then the random run) is the control on the unmutated block and runs on each
// GS_MUT_PCTRL_* mutant of gs_preempt_ctrl.sv, which must differ from the golden
// (docs/rtl/mutations.md, docs/rtl/gs_preempt_ctrl.md).
#include <catch2/catch.hpp>

#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "Vbench_gs_preempt_ctrl.h"
#include "Vbench_gs_preempt_ctrl___024root.h"
#include "bench_records.hpp"
#include "common/rng.hpp"
#include "gs_preempt_ctrl_mutants.hpp"  // generated: GS_BENCH_MUTANTS(X), one model per mutant
#include "sched/golden/gs_preempt_ctrl.hpp"
#include "sched/golden/gs_ptbq.hpp"

namespace {
using namespace gs::bench;
using gs::PreemptCmd;
using gs::PreemptMode;

const CtaRes kCta{32, 1, 256, 128};  // the block sees CTA counts only

/// The SM event of one cycle (gs_top decodes one event per cycle).
struct Event {
  bool saved = false, done = false;
  uint32_t sm = 0, slot = 0, cta = 0;
};

/// What the rest of the GPU does to the block's inputs in one cycle.
struct Env {
  bool alloc = false;
  uint32_t alloc_sm = 0, alloc_slot = 0;
  bool finish = false;  // a CTA retires (not through this block)
  uint32_t finish_sm = 0, finish_slot = 0;
  bool pop = false;  // the SM driver resumes a PTBQ head
  uint32_t pop_slot = 0;
};

template <class V>
struct PreemptBench {
  Bench<V> rtl;
  PreemptMode cfg_mode;
  Smst smst;
  Ksrt ksrt;
  Ptbq ptbq;
  PreemptCtrl gold;
  uint32_t ref_credit = 0;             // the save credit, kept the plain way
  std::vector<uint32_t> ref_credited;  // per SM: the CTAs its switch promised

  PreemptBench(uint32_t seed, PreemptMode mode) : rtl(seed), cfg_mode(mode) {
    smst.reset(MaxSms, MaxKernels);
    ksrt.reset(MaxKernels);
    ptbq.reset(MaxKernels);
    for (uint32_t k = 0; k < MaxKernels; ++k) set_kernel(k, KernelId(20 + 3 * k));
    gold.reset(MaxSms);
    ref_credited.assign(MaxSms, 0);
    drive(PreemptReq{}, Event{});
    rtl.reset();
  }
  void set_kernel(uint32_t slot, KernelId id) {
    KsrtEntry& e = ksrt.q.tbl[slot];
    e.valid = true;
    e.kernel = id;
    e.grid = 1000;
  }

  void drive(const PreemptReq& req, const Event& ev) {
    auto& d = rtl.dut();
    d.cfg_preempt_mode_i = cfg_mode == PreemptMode::kSwitch;
    put_rec(d.req_i, req);
    for (uint32_t s = 0; s < MaxSms; ++s) put_smst(d.smst_i, smst.entry(s), s * SmstW);
    for (uint32_t k = 0; k < MaxKernels; ++k) {
      put_ksrt(d.ksrt_i, ksrt.entry(k), k * KsrtW);
      set_bits(d.ptbq_count_i, k * PtbqCntW, PtbqCntW, ptbq.count(k));
    }
    d.ev_saved_i = ev.saved;
    d.ev_done_i = ev.done;
    d.ev_sm_i = ev.sm;
    d.ev_slot_i = ev.slot;
    d.ev_cta_i = ev.cta;
  }

  /// One cycle: compare, clock the block and its twin, then update SMST / PTBQ as gs_top does.
  /// Returns "" or the first difference (cycle, port, RTL and golden values); `accepted` gets
  /// whether the request was accepted.
  std::string step(const PreemptReq& req, const Event& ev, const Env& env, bool* accepted = nullptr) {
    drive(req, ev);
    rtl.settle();
    auto& d = rtl.dut();
    PreemptCtrl::In in;
    in.cfg_mode = cfg_mode;
    in.req = req;
    in.smst = &smst;
    in.ksrt = &ksrt;
    in.ptbq_max = ptbq.max_count();
    in.ev_done = ev.done;
    in.ev_sm = ev.sm;
    const PreemptCtrl::Out o = gold.comb(in);
    const bool acc = o.accept;
    std::ostringstream os;
    const auto port = [&os](const char* name, uint64_t rtl_value, uint64_t want) {
      if (os.tellp() == 0 && rtl_value != want) os << name << " RTL " << rtl_value << " golden " << want;
    };
    port("accept_o", d.accept_o, acc);
    port("reserve_valid_o", d.reserve_valid_o, acc);
    port("reserve_sm_o", d.reserve_sm_o, req.sm);
    port("reserve_next_valid_o", d.reserve_next_valid_o, req.next_valid && req.assign_next);
    port("reserve_next_o", d.reserve_next_o, req.next);
    port("unreserve_valid_o", d.unreserve_valid_o, ev.done);
    port("unreserve_sm_o", d.unreserve_sm_o, ev.sm);
    port("ptbq_push_valid_o", d.ptbq_push_valid_o, ev.saved);
    port("ptbq_push_slot_o", d.ptbq_push_slot_o, ev.slot);
    port("ptbq_push_cta_o", d.ptbq_push_cta_o, ev.cta);
    const PreemptCmd& gp = gold.preempt();
    // the whole record, idle or not (an idle record is zeros with victim = next = none)
    const PreemptCmd rp = get_rec<PreemptCmd>(d.preempt_o);
    if (os.tellp() == 0 && !(rp == gp)) os << "preempt_o RTL " << rp << " golden " << gp;
    // every register
    const auto* root = d.rootp;
    port("ctas_q", root->gs_preempt_ctrl__DOT__ctas_q, gold.q.ctas);
    port("rel_q", root->gs_preempt_ctrl__DOT__rel_q, gold.q.rel);
    port("room_q", root->gs_preempt_ctrl__DOT__room_q, gold.q.room);
    for (uint32_t s = 0; s < MaxSms && os.tellp() == 0; ++s) {
      const uint64_t v = get_bits(root->gs_preempt_ctrl__DOT__credited_q, s * CtaCntW, CtaCntW);
      if (v != gold.q.credited[s]) os << "credited_q[" << s << "] RTL " << v << " golden " << gold.q.credited[s];
    }
    // the twin's room is the plain credit's (a bench self-check, the same for every model)
    if (os.tellp() == 0 && gold.credit() != ref_credit)
      os << "golden room " << gold.room() << " is not PtbqDepth - save credit " << ref_credit;
    const auto at = [&] {
      std::ostringstream c;
      c << "cycle " << rtl.cycle() << " (req v=" << req.valid << " sm=" << req.sm << ", ev saved=" << ev.saved
        << " done=" << ev.done << " sm=" << ev.sm << ", credit=" << ref_credit << "): ";
      return c.str();
    };
    if (os.tellp() != 0) return at() + os.str();

    rtl.tick();
    if (rtl.errors() != 0) return at() + "RTL assertion failed";

    Smst::In w;
    w.alloc_valid = env.alloc;
    w.alloc_sm = env.alloc_sm;
    w.alloc_slot = env.alloc_slot;
    w.alloc_res = kCta;
    w.free_valid = ev.saved || env.finish;
    w.free_sm = ev.saved ? ev.sm : env.finish_sm;
    w.free_slot = ev.saved ? ev.slot : env.finish_slot;
    w.free_res = kCta;
    w.unreserve_valid = ev.done;
    w.unreserve_sm = ev.sm;
    w.reserve_valid = acc;
    w.reserve_sm = req.sm;
    w.reserve_next_valid = req.next_valid && req.assign_next;
    w.reserve_next = req.next;
    Ptbq::In pin;
    pin.push = ev.saved;
    pin.push_slot = ev.slot;
    pin.push_cta = ev.cta;
    pin.pop = env.pop;
    pin.pop_slot = env.pop_slot;
    // the plain credit: a switch adds its CTAs, a kPreemptDone releases its SM's promise at the
    // edge (a decision in the done's own cycle still counts it: gs_preempt_ctrl's rel_q)
    if (acc) {  // the decision rule on this cycle's counts: max + credit + CTAs <= PtbqDepth
      const PreemptMode want = req.mode_sel ? req.mode : cfg_mode;
      const uint32_t c = smst.entry(req.sm).ctas;
      const bool sw = want == PreemptMode::kSwitch && in.ptbq_max + ref_credit + c <= PtbqDepth;
      if (sw != gold.switch_ok(want, smst, req.sm, in.ptbq_max)) return at() + "golden decision is not the rule's";
      if (sw) {
        ref_credit += c;
        ref_credited[req.sm] = c;
      }
    }
    if (ev.done) {
      ref_credit -= ref_credited[ev.sm];
      ref_credited[ev.sm] = 0;
    }
    // one clock edge, as gs_top: every next state from registered state, then commit all
    gold.next(in, o, gold.d);
    smst.next(w, smst.d);
    ptbq.next(pin, ptbq.d);
    gold.commit();
    smst.commit();
    ptbq.commit();
    if (accepted) *accepted = acc;
    return "";
  }
  /// The directed cases' cycle: step() until the first difference, which `diff` keeps (later
  /// cycles do nothing then). Returns whether the request was accepted.
  bool cycle(const PreemptReq& req = {}, const Event& ev = {}, const Env& env = {}) {
    bool acc = false;
    if (diff.empty()) diff = step(req, ev, env, &acc);
    return acc;
  }
  /// A directed case's expectation of the golden side (before any difference): a failed one is
  /// kept in `diff` too.
  void expect(bool ok, const char* what) {
    if (diff.empty() && !ok) diff = "cycle " + std::to_string(rtl.cycle()) + ": expected " + what;
  }
  std::string diff;  // the first difference of the directed cycles, or ""

  /// Puts `ctas` CTAs of `slot` on `sm` (one per cycle).
  void load(uint32_t sm, uint32_t slot, uint32_t ctas) {
    Env e;
    e.alloc = true;
    e.alloc_sm = sm;
    e.alloc_slot = slot;
    for (uint32_t i = 0; i < ctas; ++i) cycle({}, {}, e);
  }
};

PreemptReq request(uint32_t sm, bool victim_all, uint32_t victim, bool next_valid, uint32_t next, bool assign) {
  PreemptReq r;
  r.valid = true;
  r.sm = sm;
  r.victim_all = victim_all;
  r.victim = victim;
  r.next_valid = next_valid;
  r.next = next;
  r.assign_next = assign;
  return r;
}

Event saved(uint32_t sm, uint32_t slot, uint32_t cta) { return {true, false, sm, slot, cta}; }
Event done(uint32_t sm) { return {false, true, sm, 0, 0}; }

// A directed case's REQUIRE: the bench keeps the first failure with its text.
#define PCTRL_EXPECT(b, cond) (b).expect((cond), #cond)

/// Context switch with kCtaSaved and kPreemptDone: "" or the first difference.
template <class V>
std::string directed_switch() {
  PreemptBench<V> b(51, PreemptMode::kSwitch);
  b.load(3, 1, 4);
  PCTRL_EXPECT(b, b.cycle(request(3, false, 1, true, 2, true)));
  PCTRL_EXPECT(b, reserved(b.smst.entry(3)));
  const PreemptCmd p = b.gold.preempt();  // registered: on the port one cycle after the request
  PCTRL_EXPECT(b, p.valid);
  PCTRL_EXPECT(b, p.sm == 3);
  PCTRL_EXPECT(b, p.mode == PreemptMode::kSwitch);
  PCTRL_EXPECT(b, p.victim == b.ksrt.entry(1).kernel);
  PCTRL_EXPECT(b, p.next == b.ksrt.entry(2).kernel);
  PCTRL_EXPECT(b, b.gold.credit() == 4);
  PCTRL_EXPECT(b, !b.cycle(request(3, true, 0, false, 0, false)));  // SM 3 already reserved: ignored
  for (uint32_t i = 0; i < 4; ++i) b.cycle({}, saved(3, 1, 100 + i));
  PCTRL_EXPECT(b, b.ptbq.count(1) == 4);
  PCTRL_EXPECT(b, b.ptbq.head(1) == 100);
  PCTRL_EXPECT(b, b.smst.entry(3).ctas == 0);
  b.cycle({}, done(3));
  PCTRL_EXPECT(b, !reserved(b.smst.entry(3)));
  PCTRL_EXPECT(b, b.smst.entry(3).owner_valid);  // assign_next: SM 3 now belongs to slot 2
  PCTRL_EXPECT(b, b.smst.entry(3).owner == 2);
  PCTRL_EXPECT(b, b.gold.credit() == 0);
  b.cycle();
  return b.diff;
}

/// PTBQ room decides switch or drain, then the SMs are worked off: "" or the first difference.
template <class V>
std::string directed_room() {
  PreemptBench<V> b(53, PreemptMode::kSwitch);
  b.ptbq.q.cnt[0] = gs::spec::PtbqDepth - 3;  // the fullest PTBQ: 3 entries left
  b.load(6, 4, 3);
  b.load(5, 4, 4);
  PCTRL_EXPECT(b, b.cycle(request(6, true, 0, false, 0, false)));  // (depth - 3) + 0 + 3 <= depth: switch
  PCTRL_EXPECT(b, b.gold.preempt().mode == PreemptMode::kSwitch);
  PCTRL_EXPECT(b, b.gold.preempt().victim == gs::kNoKernel);
  PCTRL_EXPECT(b, b.gold.preempt().next == gs::kNoKernel);
  PCTRL_EXPECT(b, b.gold.credit() == 3);
  PCTRL_EXPECT(b, b.cycle(request(5, false, 4, true, 7, false)));  // (depth - 3) + 3 + 4 > depth: drain
  PCTRL_EXPECT(b, b.gold.preempt().mode == PreemptMode::kDrain);
  PCTRL_EXPECT(b, b.gold.preempt().next == b.ksrt.entry(7).kernel);
  PCTRL_EXPECT(b, b.gold.credit() == 3);
  PCTRL_EXPECT(b, b.cycle(request(9, true, 0, false, 0, false)));  // empty SM: (depth - 3) + 3 + 0 fits, switch
  PCTRL_EXPECT(b, b.gold.preempt().mode == PreemptMode::kSwitch);
  // SM 6 saves its CTAs, SM 5 drains (its CTAs finish, no PTBQ push), then kPreemptDone
  Env fin;
  fin.finish = true;
  fin.finish_sm = 5;
  fin.finish_slot = 4;
  for (uint32_t i = 0; i < 3; ++i) b.cycle({}, saved(6, 4, 7 + i));
  PCTRL_EXPECT(b, b.ptbq.count(4) == 3);
  for (uint32_t i = 0; i < 4; ++i) b.cycle({}, {}, fin);
  PCTRL_EXPECT(b, b.smst.entry(5).ctas == 0);
  b.cycle({}, done(5));  // a drained SM held no credit
  PCTRL_EXPECT(b, b.gold.credit() == 3);
  b.cycle({}, done(6));
  PCTRL_EXPECT(b, b.gold.credit() == 0);
  b.cycle({}, done(9));
  PCTRL_EXPECT(b, b.smst.entry(5).state == SmState::kIdle);
  PCTRL_EXPECT(b, !b.smst.entry(5).owner_valid);  // next without assign_next: no owner
  b.cycle();
  return b.diff;
}

/// A kPreemptDone in the cycle right after its switch (the SM's last CTA retired in the
/// request's cycle): the credit comes back through the forwarding of ctas_q, as the credited
/// row is written only in that cycle. "" or the first difference.
template <class V>
std::string directed_done_next() {
  PreemptBench<V> b(57, PreemptMode::kSwitch);
  b.load(8, 2, 1);
  b.load(4, 3, 2);
  Env fin;
  fin.finish = true;
  fin.finish_sm = 8;
  fin.finish_slot = 2;
  PCTRL_EXPECT(b, b.cycle(request(8, true, 0, false, 0, false), {}, fin));  // switch of 1 CTA, which retires
  PCTRL_EXPECT(b, b.gold.preempt().mode == PreemptMode::kSwitch);
  PCTRL_EXPECT(b, b.gold.credit() == 1);
  PCTRL_EXPECT(b, b.smst.entry(8).ctas == 0);
  PCTRL_EXPECT(b, b.cycle(request(4, true, 0, false, 0, false), done(8)));  // done at once, and a switch of 2
  PCTRL_EXPECT(b, b.gold.q.rel == 1);
  PCTRL_EXPECT(b, b.gold.credit() == 2);
  b.cycle({}, saved(4, 3, 11));
  b.cycle({}, saved(4, 3, 12));
  b.cycle({}, done(4));
  PCTRL_EXPECT(b, b.gold.credit() == 0);
  b.cycle();
  return b.diff;
}

/// Drain configured: "" or the first difference.
template <class V>
std::string directed_drain() {
  PreemptBench<V> b(55, PreemptMode::kDrain);
  b.load(0, 0, 2);
  PCTRL_EXPECT(b, b.cycle(request(0, false, 0, false, 0, false)));
  PCTRL_EXPECT(b, b.gold.preempt().mode == PreemptMode::kDrain);
  PCTRL_EXPECT(b, b.gold.credit() == 0);
  b.cycle({}, done(0));
  b.cycle();
  return b.diff;
}

/// What the random stimulus did, so a test can check it was not vacuous.
struct RandomCounts {
  uint64_t switches = 0, drains = 0, fallbacks = 0, ignored = 0, saves = 0, dones = 0;
};

/// 16000 cycles configured for context switch (credit runs out, so drains too), then 4000
/// configured for drain: "" or the first difference. The stimulus reads only the golden side
/// (twin, SMST, PTBQ), so every model sees the same cycles up to its first difference.
template <class V>
std::string random_run(RandomCounts* counts = nullptr) {
  gs::Rng r(4242);
  RandomCounts n;
  for (int phase = 0; phase < 2; ++phase) {
    PreemptBench<V> b(60 + phase, phase == 0 ? PreemptMode::kSwitch : PreemptMode::kDrain);
    std::vector<bool> known(MaxSms, false);
    std::vector<PreemptMode> mode(MaxSms, PreemptMode::kDrain);
    const int cycles = phase == 0 ? 16000 : 4000;
    KernelId next_id = 100;
    for (int i = 0; i < cycles; ++i) {
      const PreemptCmd& p = b.gold.preempt();
      if (p.valid) {  // the mechanism of the preemption that started last cycle
        known[p.sm] = true;
        mode[p.sm] = p.mode;
        (p.mode == PreemptMode::kSwitch ? n.switches : n.drains) += 1;
        if (phase == 0 && p.mode == PreemptMode::kDrain) ++n.fallbacks;  // switch configured, no PTBQ room
      }
      PreemptReq req;
      if (r.chance_permille(40)) {
        req = request(r.below(MaxSms), r.chance_permille(300), r.below(MaxKernels), r.chance_permille(600),
                      r.below(MaxKernels), r.chance_permille(500));
        if (r.chance_permille(200)) {  // aim at an SM under preemption: must be ignored
          const uint32_t from = r.below(MaxSms);
          for (uint32_t j = 0; j < MaxSms; ++j)
            if (reserved(b.smst.entry((from + j) % MaxSms))) {
              req.sm = (from + j) % MaxSms;
              break;
            }
        }
        if (reserved(b.smst.entry(req.sm))) ++n.ignored;
      }
      Event ev;
      Env env;
      // a reserved SM works off its preemption (the event port serves one SM per cycle)
      const uint32_t start = r.below(MaxSms);
      for (uint32_t j = 0; j < MaxSms; ++j) {
        const uint32_t s = (start + j) % MaxSms;
        if (!known[s] || r.chance_permille(300)) continue;
        if (b.smst.entry(s).ctas == 0) {
          ev = done(s);
          known[s] = false;
          ++n.dones;
          break;
        }
        uint32_t k = 0;
        while (b.smst.resident(s, k) == 0) ++k;
        if (mode[s] == PreemptMode::kSwitch) {
          if (b.ptbq.count(k) < PtbqDepth) {
            ev = saved(s, k, r.below(1u << CtaIdW));
            ++n.saves;
          }
        } else {
          env.finish = true;
          env.finish_sm = s;
          env.finish_slot = k;
        }
        break;
      }
      // CTAs arrive on and retire from SMs that are not reserved
      const uint32_t as = r.below(MaxSms);
      if (!reserved(b.smst.entry(as)) && b.smst.entry(as).ctas < MaxCtasPerSm && r.chance_permille(600)) {
        env.alloc = true;
        env.alloc_sm = as;
        env.alloc_slot = r.below(MaxKernels);
      }
      const uint32_t fs = r.below(MaxSms), fk = r.below(MaxKernels);
      if (!env.finish && !ev.saved && !reserved(b.smst.entry(fs)) && b.smst.resident(fs, fk) != 0 &&
          r.chance_permille(400)) {
        env.finish = true;
        env.finish_sm = fs;
        env.finish_slot = fk;
      }
      const uint32_t ps = r.below(MaxKernels);
      // resumes alternate between fast and slow every 2000 cycles: slow ones fill the PTBQs,
      // so the save credit runs out and switch requests fall back to drain
      const uint32_t pop_permille = (i / 2000) % 2 ? 40 : 500;
      if (b.ptbq.ready(ps) && !(ev.saved && ev.slot == ps) && r.chance_permille(pop_permille)) {
        env.pop = true;
        env.pop_slot = ps;
      }
      if (r.chance_permille(5)) b.set_kernel(r.below(MaxKernels), next_id++);  // a slot gets a new kernel
      const std::string diff = b.step(req, ev, env);
      if (!diff.empty()) return (phase == 0 ? "switch configured, " : "drain configured, ") + diff;
    }
  }
  if (counts) *counts = n;
  return "";
}

/// The whole stimulus, directed cases then the random run: "" or the first difference, named
/// by its case. The control on the unmutated block and the stimulus of every mutant.
template <class V>
std::string first_difference() {
  const std::pair<const char*, std::string (*)()> cases[] = {
      {"directed switch", directed_switch<V>},    {"directed PTBQ room", directed_room<V>},
      {"directed drain", directed_drain<V>},      {"directed done after switch", directed_done_next<V>},
      {"random", [] { return random_run<V>(); }},
  };
  for (const auto& [name, run] : cases) {
    const std::string diff = run();
    if (!diff.empty()) return std::string(name) + ": " + diff;
  }
  return "";
}

using Model = Vbench_gs_preempt_ctrl;

}  // namespace

TEST_CASE("gs_preempt_ctrl directed: context switch with kCtaSaved and kPreemptDone", "[rtl][bench]") {
  CHECK(directed_switch<Model>() == "");
}

TEST_CASE("gs_preempt_ctrl directed: PTBQ room decides switch or drain then drains", "[rtl][bench]") {
  CHECK(directed_room<Model>() == "");
}

TEST_CASE("gs_preempt_ctrl directed: drain configured", "[rtl][bench]") { CHECK(directed_drain<Model>() == ""); }

TEST_CASE("gs_preempt_ctrl directed: kPreemptDone the cycle after its switch", "[rtl][bench]") {
  CHECK(directed_done_next<Model>() == "");
}

TEST_CASE("gs_preempt_ctrl random preemptions saves and drains", "[rtl][bench]") {
  RandomCounts n;
  const std::string diff = random_run<Model>(&n);
  INFO(diff);
  REQUIRE(diff == "");
  INFO("switches " << n.switches << " drains " << n.drains << " fallbacks " << n.fallbacks << " ignored " << n.ignored
                   << " saves " << n.saves << " dones " << n.dones);
  REQUIRE(n.switches > 50);
  REQUIRE(n.drains > 50);
  REQUIRE(n.fallbacks > 10);
  REQUIRE(n.ignored > 20);
  REQUIRE(n.saves > 1000);
  REQUIRE(n.dones > 100);
}

TEST_CASE("gs_preempt_ctrl unmutated: the mutation stimulus finds no difference", "[rtl][bench]") {
  CHECK(first_difference<Model>() == "");
}

// One test per mutant: the same stimulus must find a difference.
#define GS_PCTRL_MUTANT_TEST(define, model)                                             \
  TEST_CASE("gs_preempt_ctrl mutant " #define " is caught", "[rtl][bench][mutation]") { \
    const std::string diff = first_difference<model>();                                 \
    INFO(diff);                                                                         \
    CHECK(diff != "");                                                                  \
    WARN(#define " caught: " << diff);                                                  \
  }
GS_BENCH_MUTANTS(GS_PCTRL_MUTANT_TEST)
