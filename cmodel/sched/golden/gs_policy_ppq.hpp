// gsched golden twin of rtl/policy/gs_policy_ppq.sv (preemptive priority queues, Tanasic
// Sec. 4.2-4.3). A rise of the top pending priority starts a scan of the SMs (one per cycle);
// each non-reserved SM with CTAs of less important kernels is preempted (victim: all, or the
// least important resident kernel when more important ones share the SM). Exclusive: only
// top-priority kernels may issue.
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
  };
  struct Top {
    bool valid = false;
    uint32_t prio = 0, slot = 0;
  };

  void reset(const PolicyCfg&) override { q = d = Regs{}; }

  // Policy contract: priority order; exclusive mode lets only the top priority issue while
  // it has work (elig per SM = allow); the scan's preemption request.
  void comb(const PolicyCfg& cfg, const PolicyView& v, const PolicyEvent&, PolicyOut& out) const override {
    const Top t = top(v.pending, *v.ksrt, *v.aq);
    order_keys(true, v, out.key);
    const uint32_t a = allow(cfg.policy == Policy::kPpqExcl, t, *v.ksrt);
    for (auto& e : out.elig) e = a;
    excl_elig(cfg, v, out.elig);
    out.req = request(true, t, *v.ksrt, *v.smst);
  }
  void next(const PolicyCfg& cfg, const PolicyView& v, const PolicyEvent&, const PolicyOut& out,
            bool accepted) override {
    next(true, top(v.pending, *v.ksrt, *v.aq), out.req, accepted, cfg.num_sms, d);
  }
  void commit() override { q = d; }
  void state(PolicyState& st) const override {  // ppq_state_t
    namespace L = spec::layout::ppq_state_t;
    st.clear();
    st.put(L::busy_lsb, L::busy_width, q.busy);
    st.put(L::s_lsb, L::s_width, q.s);
    st.put(L::target_lsb, L::target_width, q.target);
    st.put(L::seen_lsb, L::seen_width, q.seen);
    st.put(L::next_lsb, L::next_width, q.next);
    st.put(L::seen_valid_lsb, L::seen_valid_width, q.seen_valid);
  }

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

  static uint32_t allow(bool excl, const Top& t, const Ksrt& ksrt) {
    if (!excl || !t.valid) return ~0u;
    uint32_t a = 0;
    for (uint32_t k = 0; k < ksrt.slots(); ++k)
      if (ksrt.entry(k).prio >= t.prio) a |= 1u << k;
    return a;
  }

  PreemptReq request(bool en, const Top& t, const Ksrt& ksrt, const Smst& smst) const {
    PreemptReq r;
    if (!en || starts(en, t) || !q.busy) return r;
    const SmstEntry& m = smst.entry(q.s);
    bool has_low = false, has_high = false;
    uint32_t low_prio = 0, low_slot = 0;
    for (uint32_t k = 0; k < ksrt.slots(); ++k) {
      const KsrtEntry& e = ksrt.entry(k);
      if (!e.valid || smst.resident(q.s, k) == 0) continue;
      if (e.prio < q.target) {
        if (!has_low || e.prio < low_prio) {
          low_prio = e.prio;
          low_slot = k;
        }
        has_low = true;
      } else {
        has_high = true;
      }
    }
    if (!has_low || reserved(m)) return r;
    r.valid = true;
    r.sm = static_cast<SmId>(q.s);
    r.victim_all = !has_high;
    r.victim = low_slot;
    r.next_valid = true;
    r.next = q.next;
    r.assign_next = false;
    return r;
  }

  void next(bool en, const Top& t, const PreemptReq& req, bool accepted, uint32_t num_sms, Regs& n) const {
    n = q;
    if (!en) {
      n.busy = false;
      n.seen_valid = false;
    } else if (starts(en, t)) {
      n.busy = true;
      n.s = 0;
      n.target = t.prio;
      n.next = t.slot;
      n.seen = t.prio;
      n.seen_valid = true;
    } else {
      if (!t.valid) n.seen_valid = false;
      else if (t.prio < q.seen) n.seen = t.prio;
      if (q.busy && (!req.valid || accepted)) {
        if (q.s + 1 >= num_sms) n.busy = false;
        n.s = q.s + 1;
      }
    }
  }

  Regs q;  // registered state
  Regs d;  // next state

 private:
  bool starts(bool en, const Top& t) const { return en && t.valid && (!q.seen_valid || t.prio > q.seen); }
};

}  // namespace gs::golden
