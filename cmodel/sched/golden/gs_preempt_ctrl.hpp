// gsched golden twin of rtl/framework/gs_preempt_ctrl.sv (preemption control, Tanasic Sec. 3.2).
//
// comb(): a request is accepted when its SM is not already reserved (accept_o); preempt_o is
// registered. A context switch is used when requested (PreemptReq::mode_sel, mode) or configured and the PTBQs can hold the SM's
// resident CTAs on top of the CTAs promised to switches in flight (save credit); otherwise
// the SM is drained. The credit is held as PTBQ room (PtbqDepth - credit) in the RTL's
// registers: room() = room_q + rel_q - (the last cycle's request switched ? ctas_q : 0), so
// the test max PTBQ count + credit + CTAs <= PtbqDepth is max + CTAs <= room(). next() loads
// the preempt record (port output of the next cycle), the request's CTAs, the release of a
// kPreemptDone (its SM's credited CTAs; ctas_q when the SM's switch was requested last cycle,
// whose credited row is written only now) and this cycle's room.
#pragma once
#include <vector>

#include "sched/golden/golden_types.hpp"
#include "sched/golden/gs_ksrt.hpp"
#include "sched/golden/gs_smst.hpp"

namespace gs::golden {

class PreemptCtrl {
 public:
  struct In {
    PreemptMode cfg_mode = PreemptMode::kDrain;  // cfg_preempt_mode_i
    PreemptReq req;                              // req_i
    const Smst* smst = nullptr;                  // smst_i (registered table)
    const Ksrt* ksrt = nullptr;                  // ksrt_i (registered table)
    uint32_t ptbq_max = 0;                       // the fullest PTBQ, from ptbq_count_i
    bool ev_done = false;                        // ev_done_i
    uint32_t ev_sm = 0;                          // ev_sm_i
  };
  struct Out {
    bool accept = false;  // accept_o
  };
  struct Regs {
    PreemptCmd preempt;              // preempt_q
    uint32_t ctas = 0;               // ctas_q: the last cycle's accepted request's resident CTAs
    uint32_t rel = 0;                // rel_q: the CTAs the last cycle's kPreemptDone released
    uint32_t room = PtbqDepth;       // room_q: the last cycle's room
    std::vector<uint32_t> credited;  // credited_q, per SM
  };
  struct D {
    PreemptCmd preempt;
    uint32_t ctas = 0, rel = 0, room = PtbqDepth;
    ArrayD<uint32_t> credited;
  };

  void reset(uint32_t sms) {
    q = Regs{};
    q.credited.assign(sms, 0);
    d.credited.reset(sms);
  }
  const PreemptCmd& preempt() const { return q.preempt; }

  /// The last cycle's accepted request was switched: its CTAs are credited from this cycle.
  bool last_switch() const { return q.preempt.valid && q.preempt.mode == PreemptMode::kSwitch; }
  /// This cycle's PTBQ room, PtbqDepth - save credit (PtbqCntW bits, as the RTL's `room`).
  uint32_t room() const { return (q.room + q.rel - (last_switch() ? q.ctas : 0)) & width_mask(PtbqCntW); }
  /// The save credit: CTAs promised to the switches in flight.
  uint32_t credit() const { return PtbqDepth - room(); }

  static bool accept(const PreemptReq& req, const Smst& smst) { return req.valid && !reserved(smst.entry(req.sm)); }
  bool switch_ok(PreemptMode mode, const Smst& smst, uint32_t sm, uint32_t ptbq_max) const {
    return mode == PreemptMode::kSwitch && ptbq_max + smst.entry(sm).ctas <= room();
  }
  /// Reads req and smst only.
  Out comb(const In& in) const { return Out{accept(in.req, *in.smst)}; }

  /// `out` is this cycle's comb(in).
  void next(const In& in, const Out& out, D& n) const {
    const Smst& smst = *in.smst;
    const PreemptReq& req = in.req;
    PreemptCmd p;
    // the request's own mechanism (HeteroCore's adaptive preemption) or the configured one
    const PreemptMode mode = req.mode_sel ? req.mode : in.cfg_mode;
    const bool sw = out.accept && switch_ok(mode, smst, req.sm, in.ptbq_max);
    if (out.accept) {
      p.valid = true;
      p.sm = static_cast<SmId>(req.sm);
      p.mode = sw ? PreemptMode::kSwitch : PreemptMode::kDrain;
      p.victim = req.victim_all ? kNoKernel : in.ksrt->entry(req.victim).kernel;
      p.next = req.next_valid ? in.ksrt->entry(req.next).kernel : kNoKernel;
    }
    // the last cycle's switch writes its credited row now; a kPreemptDone of the same SM in
    // this cycle releases those CTAs (forwarded) and clears the row
    const bool last = last_switch();
    uint32_t released = 0;
    if (in.ev_done) released = (last && in.ev_sm == q.preempt.sm) ? q.ctas : q.credited[in.ev_sm];
    if (last) n.credited.at(q.credited, q.preempt.sm) = q.ctas;
    if (in.ev_done) n.credited.at(q.credited, in.ev_sm) = 0;
    n.ctas = out.accept ? smst.entry(req.sm).ctas : 0;
    n.rel = released;
    n.room = room();
    n.preempt = p;
  }
  void commit() {
    d.credited.commit(q.credited);
    q.ctas = d.ctas;
    q.rel = d.rel;
    q.room = d.room;
    q.preempt = d.preempt;
  }
  /// One clock edge on its own (block benches, unit tests): comb(), next(), commit().
  void clock(const In& in) {
    next(in, comb(in), d);
    commit();
  }

  Regs q;  // registered state
  D d;     // next state, written by next(), committed by commit()
};

}  // namespace gs::golden
