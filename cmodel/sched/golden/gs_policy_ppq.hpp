// gsched golden twin of rtl/policy/gs_policy_ppq.sv (preemptive priority queues, Tanasic
// Sec. 4.2-4.3). A rise of the top pending priority starts a scan of the SMs (one per cycle);
// each non-reserved SM with CTAs of less important kernels is preempted (victim: all, or the
// least important resident kernel when more important ones share the SM). Exclusive: only
// top-priority kernels may issue.
// The same registers as the RTL: the top kernel and the allow mask are registered from the
// tables (one cycle late), the scan is two stages (the SM's row, then its request, whose
// victim_all reads the SM's residency again), and a request is on the port for one cycle from
// its register: a rise in cycle t starts the scan in
// t+1, SM i's request is on the port in t+4+i.
#pragma once
#include <vector>

#include "sched/golden/gs_active_queue.hpp"
#include "sched/golden/gs_ksrt.hpp"
#include "sched/golden/gs_policy.hpp"
#include "sched/golden/gs_smst.hpp"

namespace gs::golden {

class PolicyPpq final : public PolicyTwin {
 public:
  struct Regs {
    bool busy = false;        // busy_q
    uint32_t s = 0;           // s_q
    uint32_t target = 0;      // target_q (priority)
    uint32_t seen = 0;        // seen_q
    uint32_t next = 0;        // next_q (slot)
    bool seen_valid = false;  // seen_valid_q
    bool top_valid = false;   // top_valid_q
    uint32_t top = 0;         // top_q (priority)
    uint32_t top_slot = 0;    // top_slot_q
    uint32_t allow = ~0u;     // allow_q (reset: all ones)
    bool row_valid = false;   // row_valid_q: scan stage 1
    uint32_t row_sm = 0;      // row_sm_q
    uint32_t row_occ = 0;     // row_occ_q: slots with CTAs resident on row_sm
    bool row_rsv = false;     // row_rsv_q: row_sm was reserved
    bool req_valid = false;   // req_valid_q: scan stage 2, the request on the port
    uint32_t req_sm = 0;      // req_sm_q
    bool req_all = false;     // req_all_q
    uint32_t req_victim = 0;  // req_victim_q
  };
  struct Top {
    bool valid = false;
    uint32_t prio = 0, slot = 0;
  };

  void reset(const PolicyCfg&) override { q = d = Regs{}; }

  // Policy contract: priority order; exclusive mode lets only the top priority issue while
  // it has work (elig per SM = allow_q); the registered preemption request.
  void comb(const PolicyCfg& cfg, const PolicyView& v, const PolicyEvent&, PolicyOut& out) const override {
    order_keys(true, v, out.key);
    for (auto& e : out.elig) e = q.allow & width_mask(MaxKernels);
    excl_elig(cfg, v, out.elig);
    out.req = PreemptReq{};
    if (q.req_valid) {
      out.req.valid = true;
      out.req.sm = static_cast<SmId>(q.req_sm);
      out.req.victim_all = q.req_all;
      out.req.victim = q.req_victim;
      out.req.next_valid = true;
      out.req.next = q.next;
      out.req.assign_next = false;
    }
  }
  void next(const PolicyCfg& cfg, const PolicyView& v, const PolicyEvent&, const PolicyOut&, bool) override {
    next(true, cfg.policy == Policy::kPpqExcl, v, cfg.num_sms, d);
  }
  void commit() override { q = d; }
  void state(PolicyState& st) const override {
    st.clear();
    spec::pack_ppq_state_t(st, 0, q);
  }

  /// The most important kernel with CTAs to issue (ties: lowest rank, then lowest slot).
  static Top top(uint32_t pending, const Ksrt& ksrt, const ActiveQueue& aq) {
    Top t;
    uint32_t rank = 0;
    for (uint32_t k = 0; k < ksrt.slots(); ++k) {
      if (!(pending >> k & 1u)) continue;
      const uint32_t p = ksrt.entry(k).prio;
      if (!t.valid || p > t.prio || (p == t.prio && aq.q.rank[k] < rank)) {
        t = Top{true, p, k};
        rank = aq.q.rank[k];
      }
    }
    return t;
  }

  /// Exclusive: the kernels at least as important as every kernel with CTAs to issue.
  static uint32_t allow(bool excl, const Top& t, const Ksrt& ksrt) {
    if (!excl || !t.valid) return width_mask(MaxKernels);
    uint32_t a = 0;
    for (uint32_t k = 0; k < ksrt.slots(); ++k)
      if (ksrt.entry(k).prio >= t.prio) a |= 1u << k;
    return a;
  }

  void next(bool en, bool excl, const PolicyView& v, uint32_t num_sms, Regs& n) const {
    const Ksrt& ksrt = *v.ksrt;
    const Smst& smst = *v.smst;
    n = q;
    // the registered searches of the tables
    const Top t = top(v.pending, ksrt, *v.aq);
    n.top_valid = t.valid;
    n.top = t.valid ? t.prio : 0;
    n.top_slot = t.valid ? t.slot : 0;
    n.allow = allow(excl, t, ksrt);
    n.row_valid = false;
    n.req_valid = false;
    const bool start = en && q.top_valid && (!q.seen_valid || q.top > q.seen);
    if (!en) {
      n.busy = false;
      n.seen_valid = false;
    } else if (start) {  // a rise: (re)start the scan, drop the stages in flight
      n.busy = true;
      n.s = 0;
      n.target = q.top;
      n.next = q.top_slot;
      n.seen = q.top;
      n.seen_valid = true;
    } else {
      if (!q.top_valid) n.seen_valid = false;
      else if (q.top < q.seen) n.seen = q.top;  // the top kernel left: no preemption needed
      if (q.busy) {                             // stage 1 takes SM s
        uint32_t occ = 0;
        for (uint32_t k = 0; k < ksrt.slots(); ++k)
          if (smst.resident(q.s, k) != 0) occ |= 1u << k;
        n.row_valid = true;
        n.row_sm = q.s;
        n.row_occ = occ;
        n.row_rsv = reserved(smst.entry(q.s));
        n.s = (q.s + 1) & width_mask(SmIdW);
        if (q.s + 1 >= num_sms) n.busy = false;
      }
      if (q.row_valid) {  // stage 2 decides on the registered row
        bool has_low = false, has_high = false;
        uint32_t low_prio = 0, low_slot = 0;
        for (uint32_t k = 0; k < ksrt.slots(); ++k) {
          const KsrtEntry& e = ksrt.entry(k);
          if (!e.valid) continue;
          // victim_all: no kernel at least as important as the target on the SM now
          if (e.prio >= q.target && smst.resident(q.row_sm, k) != 0) has_high = true;
          if (!(q.row_occ >> k & 1u)) continue;
          if (e.prio < q.target) {  // the victim: from the registered row
            if (!has_low || e.prio < low_prio) {
              low_prio = e.prio;
              low_slot = k;
            }
            has_low = true;
          }
        }
        n.req_valid = has_low && !q.row_rsv;
        n.req_sm = q.row_sm;
        n.req_all = !has_high;
        n.req_victim = low_slot;
      }
    }
  }

  Regs q;  // registered state
  Regs d;  // next state
};

}  // namespace gs::golden
