// gsched block bench: rtl/framework/gs_preempt_ctrl.sv vs. golden PreemptCtrl, every cycle.
//
// The block reads the SMST, KSRT and PTBQ counts; the bench keeps them in the golden Smst /
// Ksrt / Ptbq and wires the block's outputs back as gs_top does (reserve / unreserve into the
// SMST, kCtaSaved pushes into the PTBQ). Around it the bench plays the GPU: CTAs arrive on and
// finish from SMs that are not reserved, resumed CTAs leave the PTBQ, and a reserved SM works
// off its preemption with the mechanism the preempt record named -- switch: one kCtaSaved per
// resident CTA; drain: its CTAs finish -- then reports kPreemptDone (one SM event per cycle).
// Compared every cycle: accept_o, the SMST reserve/unreserve ports, the PTBQ push port
// (against gs_top's / GoldenScheduler's wiring of the same signals) and the whole preempt_o
// record, idle or not (an idle record is zeros with victim = next = none on both sides).
#include <catch2/catch.hpp>

#include <type_traits>
#include <vector>

#include "Vbench_gs_preempt_ctrl.h"
#include "bench_records.hpp"
#include "common/rng.hpp"
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

struct PreemptBench {
  Bench<Vbench_gs_preempt_ctrl> rtl;
  PreemptMode cfg_mode;
  Smst smst;
  Ksrt ksrt;
  Ptbq ptbq;
  PreemptCtrl gold;

  PreemptBench(uint32_t seed, PreemptMode mode) : rtl(seed), cfg_mode(mode) {
    smst.reset(MaxSms, MaxKernels);
    ksrt.reset(MaxKernels);
    ptbq.reset(MaxKernels);
    for (uint32_t k = 0; k < MaxKernels; ++k) set_kernel(k, KernelId(20 + 3 * k));
    gold.reset(MaxSms);
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
  /// Returns whether the request was accepted.
  bool cycle(const PreemptReq& req = {}, const Event& ev = {}, const Env& env = {}) {
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
    const bool accepted = o.accept;
    INFO("cycle " << rtl.cycle() << " req v=" << req.valid << " sm=" << req.sm << " ev saved=" << ev.saved
                  << " done=" << ev.done << " sm=" << ev.sm << " credit=" << gold.q.credit);
    REQUIRE(bool(d.accept_o) == accepted);
    REQUIRE(bool(d.reserve_valid_o) == accepted);
    REQUIRE(uint32_t(d.reserve_sm_o) == req.sm);
    REQUIRE(bool(d.reserve_next_valid_o) == (req.next_valid && req.assign_next));
    REQUIRE(uint32_t(d.reserve_next_o) == req.next);
    REQUIRE(bool(d.unreserve_valid_o) == ev.done);
    REQUIRE(uint32_t(d.unreserve_sm_o) == ev.sm);
    REQUIRE(bool(d.ptbq_push_valid_o) == ev.saved);
    REQUIRE(uint32_t(d.ptbq_push_slot_o) == ev.slot);
    REQUIRE(uint32_t(d.ptbq_push_cta_o) == ev.cta);
    const PreemptCmd& gp = gold.preempt();
    // the whole record, idle or not (an idle record is zeros with victim = next = none)
    const PreemptCmd rp = get_rec<PreemptCmd>(d.preempt_o);
    INFO("RTL preempt " << rp << " golden " << gp);
    REQUIRE(rp == gp);

    rtl.tick();
    REQUIRE(rtl.errors() == 0);

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
    w.reserve_valid = accepted;
    w.reserve_sm = req.sm;
    w.reserve_next_valid = req.next_valid && req.assign_next;
    w.reserve_next = req.next;
    Ptbq::In pin;
    pin.push = ev.saved;
    pin.push_slot = ev.slot;
    pin.push_cta = ev.cta;
    pin.pop = env.pop;
    pin.pop_slot = env.pop_slot;
    // one clock edge, as gs_top: every next state from registered state, then commit all
    gold.next(in, o, gold.d);
    smst.next(w, smst.d);
    ptbq.next(pin, ptbq.d);
    gold.commit();
    smst.commit();
    ptbq.commit();
    return accepted;
  }

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

}  // namespace

TEST_CASE("gs_preempt_ctrl directed: context switch with kCtaSaved and kPreemptDone", "[rtl][bench]") {
  PreemptBench b(51, PreemptMode::kSwitch);
  b.load(3, 1, 4);
  REQUIRE(b.cycle(request(3, false, 1, true, 2, true)));
  REQUIRE(reserved(b.smst.entry(3)));
  const PreemptCmd p = b.gold.preempt();  // registered: on the port one cycle after the request
  REQUIRE(p.valid);
  REQUIRE(p.sm == 3);
  REQUIRE(p.mode == PreemptMode::kSwitch);
  REQUIRE(p.victim == b.ksrt.entry(1).kernel);
  REQUIRE(p.next == b.ksrt.entry(2).kernel);
  REQUIRE(b.gold.q.credit == 4);
  REQUIRE_FALSE(b.cycle(request(3, true, 0, false, 0, false)));  // SM 3 already reserved: ignored
  for (uint32_t i = 0; i < 4; ++i) b.cycle({}, saved(3, 1, 100 + i));
  REQUIRE(b.ptbq.count(1) == 4);
  REQUIRE(b.ptbq.head(1) == 100);
  REQUIRE(b.smst.entry(3).ctas == 0);
  b.cycle({}, done(3));
  REQUIRE_FALSE(reserved(b.smst.entry(3)));
  REQUIRE(b.smst.entry(3).owner_valid);  // assign_next: SM 3 now belongs to slot 2
  REQUIRE(b.smst.entry(3).owner == 2);
  REQUIRE(b.gold.q.credit == 0);
  b.cycle();
}

TEST_CASE("gs_preempt_ctrl directed: PTBQ room decides switch or drain then drains", "[rtl][bench]") {
  PreemptBench b(53, PreemptMode::kSwitch);
  b.ptbq.q.cnt[0] = gs::spec::PtbqDepth - 3;  // the fullest PTBQ: 3 entries left
  b.load(6, 4, 3);
  b.load(5, 4, 4);
  REQUIRE(b.cycle(request(6, true, 0, false, 0, false)));  // (depth - 3) + 0 + 3 <= depth: switch
  REQUIRE(b.gold.preempt().mode == PreemptMode::kSwitch);
  REQUIRE(b.gold.preempt().victim == gs::kNoKernel);
  REQUIRE(b.gold.preempt().next == gs::kNoKernel);
  REQUIRE(b.gold.q.credit == 3);
  REQUIRE(b.cycle(request(5, false, 4, true, 7, false)));  // (depth - 3) + 3 + 4 > depth: drain
  REQUIRE(b.gold.preempt().mode == PreemptMode::kDrain);
  REQUIRE(b.gold.preempt().next == b.ksrt.entry(7).kernel);
  REQUIRE(b.gold.q.credit == 3);
  REQUIRE(b.cycle(request(9, true, 0, false, 0, false)));  // empty SM: (depth - 3) + 3 + 0 fits, switch
  REQUIRE(b.gold.preempt().mode == PreemptMode::kSwitch);
  // SM 6 saves its CTAs, SM 5 drains (its CTAs finish, no PTBQ push), then kPreemptDone
  Env fin;
  fin.finish = true;
  fin.finish_sm = 5;
  fin.finish_slot = 4;
  for (uint32_t i = 0; i < 3; ++i) b.cycle({}, saved(6, 4, 7 + i));
  REQUIRE(b.ptbq.count(4) == 3);
  for (uint32_t i = 0; i < 4; ++i) b.cycle({}, {}, fin);
  REQUIRE(b.smst.entry(5).ctas == 0);
  b.cycle({}, done(5));  // a drained SM held no credit
  REQUIRE(b.gold.q.credit == 3);
  b.cycle({}, done(6));
  REQUIRE(b.gold.q.credit == 0);
  b.cycle({}, done(9));
  REQUIRE(b.smst.entry(5).state == SmState::kIdle);
  REQUIRE_FALSE(b.smst.entry(5).owner_valid);  // next without assign_next: no owner
  b.cycle();
}

TEST_CASE("gs_preempt_ctrl directed: drain configured", "[rtl][bench]") {
  PreemptBench b(55, PreemptMode::kDrain);
  b.load(0, 0, 2);
  REQUIRE(b.cycle(request(0, false, 0, false, 0, false)));
  REQUIRE(b.gold.preempt().mode == PreemptMode::kDrain);
  REQUIRE(b.gold.q.credit == 0);
  b.cycle({}, done(0));
  b.cycle();
}

TEST_CASE("gs_preempt_ctrl random preemptions saves and drains", "[rtl][bench]") {
  gs::Rng r(4242);
  uint64_t switches = 0, drains = 0, fallbacks = 0, ignored = 0, saves = 0, dones = 0;
  // 16000 cycles configured for context switch (credit runs out, so drains too), 4000 drain
  for (int phase = 0; phase < 2; ++phase) {
    PreemptBench b(60 + phase, phase == 0 ? PreemptMode::kSwitch : PreemptMode::kDrain);
    std::vector<bool> known(MaxSms, false);
    std::vector<PreemptMode> mode(MaxSms, PreemptMode::kDrain);
    const int cycles = phase == 0 ? 16000 : 4000;
    KernelId next_id = 100;
    for (int i = 0; i < cycles; ++i) {
      const PreemptCmd& p = b.gold.preempt();
      if (p.valid) {  // the mechanism of the preemption that started last cycle
        known[p.sm] = true;
        mode[p.sm] = p.mode;
        (p.mode == PreemptMode::kSwitch ? switches : drains) += 1;
        if (phase == 0 && p.mode == PreemptMode::kDrain) ++fallbacks;  // switch configured, no PTBQ room
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
        if (reserved(b.smst.entry(req.sm))) ++ignored;
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
          ++dones;
          break;
        }
        uint32_t k = 0;
        while (b.smst.resident(s, k) == 0) ++k;
        if (mode[s] == PreemptMode::kSwitch) {
          if (b.ptbq.count(k) < PtbqDepth) {
            ev = saved(s, k, r.below(1u << CtaIdW));
            ++saves;
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
      if (b.ptbq.count(ps) != 0 && !(ev.saved && ev.slot == ps) && r.chance_permille(pop_permille)) {
        env.pop = true;
        env.pop_slot = ps;
      }
      if (r.chance_permille(5)) b.set_kernel(r.below(MaxKernels), next_id++);  // a slot gets a new kernel
      b.cycle(req, ev, env);
    }
  }
  INFO("switches " << switches << " drains " << drains << " fallbacks " << fallbacks << " ignored " << ignored
                   << " saves " << saves << " dones " << dones);
  REQUIRE(switches > 50);
  REQUIRE(drains > 50);
  REQUIRE(fallbacks > 10);
  REQUIRE(ignored > 20);
  REQUIRE(saves > 1000);
  REQUIRE(dones > 100);
}
