// gsched golden twin of rtl/framework/gs_preempt_ctrl.sv (preemption control, Tanasic Sec. 3.2).
//
// accept(): a request is taken when its SM is not already reserved. A context switch is used
// when configured and the PTBQs can hold the SM's resident CTAs on top of the CTAs promised
// to switches in flight (save credit); otherwise the SM is drained. clock() loads the preempt
// record (port output of the next cycle) and the credit bookkeeping; kPreemptDone releases
// the SM's credit.
#pragma once
#include <vector>

#include "sched/golden/golden_types.hpp"
#include "sched/golden/gs_ksrt.hpp"
#include "sched/golden/gs_smst.hpp"

namespace gs::golden {

class PreemptCtrl {
 public:
  struct Regs {
    PreemptCmd preempt;               // preempt_q
    uint32_t credit = 0;              // credit_q
    std::vector<uint32_t> credited;   // credited_q, per SM
  };

  void reset(uint32_t sms) {
    q = Regs{};
    q.credited.assign(sms, 0);
  }
  const PreemptCmd& preempt() const { return q.preempt; }

  static bool accept(const PreemptReq& req, const Smst& smst) {
    return req.valid && !reserved(smst.entry(req.sm));
  }
  bool switch_ok(PreemptMode cfg_mode, const Smst& smst, uint32_t sm, uint32_t ptbq_max) const {
    return cfg_mode == PreemptMode::kSwitch && ptbq_max + q.credit + smst.entry(sm).ctas <= PtbqDepth;
  }

  void clock(PreemptMode cfg_mode, const PreemptReq& req, bool accepted, const Smst& smst, const Ksrt& ksrt,
             uint32_t ptbq_max, bool ev_done, uint32_t ev_sm) {
    PreemptCmd p;
    const bool sw = accepted && switch_ok(cfg_mode, smst, req.sm, ptbq_max);
    if (accepted) {
      p.valid = true;
      p.sm = static_cast<SmId>(req.sm);
      p.mode = sw ? PreemptMode::kSwitch : PreemptMode::kDrain;
      p.victim = req.victim_all ? kNoKernel : ksrt.entry(req.victim).kernel;
      p.next = req.next_valid ? ksrt.entry(req.next).kernel : kNoKernel;
    }
    uint32_t released = 0;
    if (ev_done) {
      released = q.credited[ev_sm];
      q.credited[ev_sm] = 0;
    }
    const uint32_t add = sw ? smst.entry(req.sm).ctas : 0;
    if (sw) q.credited[req.sm] = add;
    q.credit = (q.credit - released + add) & width_mask(11);
    q.preempt = p;
  }

  Regs q;
};

}  // namespace gs::golden
