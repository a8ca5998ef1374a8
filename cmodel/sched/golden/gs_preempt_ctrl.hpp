// gsched golden twin of rtl/framework/gs_preempt_ctrl.sv (preemption control, Tanasic Sec. 3.2).
//
// comb(): a request is accepted when its SM is not already reserved (accept_o); preempt_o is
// registered. A context switch is used when requested (PreemptReq::mode_sel, mode) or configured and the PTBQs can hold the SM's
// resident CTAs on top of the CTAs promised to switches in flight (save credit); otherwise
// the SM is drained. next() loads the preempt record (port output of the next cycle) and the
// credit bookkeeping; kPreemptDone releases the SM's credit.
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
    uint32_t credit = 0;             // credit_q
    std::vector<uint32_t> credited;  // credited_q, per SM
  };
  struct D {
    PreemptCmd preempt;
    uint32_t credit = 0;
    ArrayD<uint32_t> credited;
  };

  void reset(uint32_t sms) {
    q = Regs{};
    q.credited.assign(sms, 0);
    d.credited.reset(sms);
  }
  const PreemptCmd& preempt() const { return q.preempt; }

  static bool accept(const PreemptReq& req, const Smst& smst) { return req.valid && !reserved(smst.entry(req.sm)); }
  bool switch_ok(PreemptMode mode, const Smst& smst, uint32_t sm, uint32_t ptbq_max) const {
    return mode == PreemptMode::kSwitch && ptbq_max + q.credit + smst.entry(sm).ctas <= PtbqDepth;
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
    uint32_t released = 0;
    if (in.ev_done) {
      released = q.credited[in.ev_sm];
      n.credited.at(q.credited, in.ev_sm) = 0;
    }
    const uint32_t add = sw ? smst.entry(req.sm).ctas : 0;
    if (sw) n.credited.at(q.credited, req.sm) = add;
    n.credit = (q.credit - released + add) & width_mask(11);
    n.preempt = p;
  }
  void commit() {
    d.credited.commit(q.credited);
    q.credit = d.credit;
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
