// gsched golden twin of rtl/policy/gs_dss_unit.sv (the Dynamic Spatial Sharing unit, Tanasic
// Sec. 3.4, Algorithm 1). Event-triggered passes: a serial SMST scan (one SM per cycle)
// records the first idle SM, the first releasable SM and an owned SM per kernel; one ACT
// cycle then releases (tokens + 1), assigns an idle SM to kmax (tokens - 1), or reserves and
// preempts an SM of kmin for kmax when tokens[kmax] > tokens[kmin] + 1 (kmin + 1, kmax - 1).
#pragma once
#include <vector>

#include "sched/golden/gs_active_queue.hpp"
#include "sched/golden/gs_ksrt.hpp"
#include "sched/golden/gs_smst.hpp"

namespace gs::golden {

class DssUnitTwin {
 public:
  enum class St : uint8_t { kIdle = 0, kScan = 1, kAct = 2 };
  struct Regs {
    St st = St::kIdle;             // st_q
    uint32_t s = 0;                // s_q
    bool dirty = false;            // dirty_q
    bool idle_found = false;       // idle_found_q
    uint32_t idle_sm = 0;          // idle_sm_q
    bool rel_found = false;        // rel_found_q
    uint32_t rel_sm = 0;           // rel_sm_q
    uint32_t own_found = 0;        // own_found_q
    std::vector<uint32_t> own_sm;  // own_sm_q
  };
  /// The next state: the scalar registers whole, own_sm_q through its one write port.
  struct D {
    St st = St::kIdle;
    uint32_t s = 0;
    bool dirty = false;
    bool idle_found = false;
    uint32_t idle_sm = 0;
    bool rel_found = false;
    uint32_t rel_sm = 0;
    uint32_t own_found = 0;
    bool own_we = false;  // own_sm_q[own_slot] <= own_val
    uint32_t own_slot = 0, own_val = 0;
  };
  /// Combinational outputs of one cycle.
  struct Out {
    OwnerWr owner_wr;
    TokenUpd tok_pre;  // before the preemption's acceptance gate
    PreemptReq req;
    bool changed = false;
  };
  struct Pick {
    bool valid = false;
    uint32_t slot = 0;
    int32_t tokens = 0;
  };

  void reset(uint32_t slots) {
    q = Regs{};
    q.own_sm.assign(slots, 0);
    d = D{};
  }

  /// kmax: most tokens among kernels with CTAs to issue (ties: oldest).
  static Pick kmax(uint32_t pending, const Ksrt& ksrt, const ActiveQueue& aq) {
    Pick p;
    uint32_t rank = 0;
    for (uint32_t k = 0; k < ksrt.slots(); ++k) {
      if (!(pending >> k & 1u)) continue;
      const int32_t t = ksrt.entry(k).tokens;
      if (!p.valid || t > p.tokens || (t == p.tokens && aq.q.rank[k] < rank)) {
        p = Pick{true, k, t};
        rank = aq.q.rank[k];
      }
    }
    return p;
  }
  /// kmin: fewest tokens among kernels owning a non-reserved SM seen by the scan (ties: youngest).
  Pick kmin(const Ksrt& ksrt, const ActiveQueue& aq) const {
    Pick p;
    uint32_t rank = 0;
    for (uint32_t k = 0; k < ksrt.slots(); ++k) {
      if (!ksrt.entry(k).valid || !(q.own_found >> k & 1u)) continue;
      const int32_t t = ksrt.entry(k).tokens;
      if (!p.valid || t < p.tokens || (t == p.tokens && aq.q.rank[k] > rank)) {
        p = Pick{true, k, t};
        rank = aq.q.rank[k];
      }
    }
    return p;
  }

  static bool can_release(const Smst& smst, uint32_t s, uint32_t pending) {
    const SmstEntry& m = smst.entry(s);
    return !reserved(m) && m.owner_valid && !(pending >> m.owner & 1u) && smst.resident(s, m.owner) == 0;
  }

  Out comb(bool en, uint32_t pending, const Ksrt& ksrt, const ActiveQueue& aq, const Smst& smst) const {
    Out o;
    if (q.st != St::kAct) return o;
    (void)en;
    const Pick hi = kmax(pending, ksrt, aq);
    const Pick lo = kmin(ksrt, aq);
    if (q.rel_found) {
      o.changed = true;
      if (can_release(smst, q.rel_sm, pending)) {
        o.owner_wr = OwnerWr{true, static_cast<SmId>(q.rel_sm), false, 0};
        o.tok_pre.inc_valid = true;
        o.tok_pre.inc = smst.entry(q.rel_sm).owner;
      }
    } else if (q.idle_found && hi.valid) {
      o.changed = true;
      const SmstEntry& mi = smst.entry(q.idle_sm);
      if (!reserved(mi) && !mi.owner_valid) {
        o.owner_wr = OwnerWr{true, static_cast<SmId>(q.idle_sm), true, hi.slot};
        o.tok_pre.dec_valid = true;
        o.tok_pre.dec = hi.slot;
      }
    } else if (hi.valid && lo.valid && hi.tokens > lo.tokens + 1) {
      o.changed = true;
      const uint32_t sm = q.own_sm[lo.slot];
      const SmstEntry& mp = smst.entry(sm);
      if (!reserved(mp) && mp.owner_valid && mp.owner == lo.slot) {
        o.req = PreemptReq{true, static_cast<SmId>(sm), false, lo.slot, true, hi.slot, true};
        o.tok_pre = TokenUpd{true, lo.slot, true, hi.slot};
      }
    }
    return o;
  }

  static TokenUpd tokens(const Out& o, bool accepted) {
    if (o.req.valid && !accepted) return TokenUpd{};
    return o.tok_pre;
  }

  /// The next state from q, this cycle's inputs and comb() outputs `o`; q is not touched.
  void next(bool en, bool trigger, const Out& o, uint32_t pending, const Smst& smst, uint32_t num_sms, D& n) const {
    n = D{q.st, q.s, q.dirty, q.idle_found, q.idle_sm, q.rel_found, q.rel_sm, q.own_found, false, 0, 0};
    bool dirty = q.dirty || trigger;
    switch (q.st) {
      case St::kIdle:
        if (en && dirty) {
          start_pass(n);
          dirty = false;
        }
        break;
      case St::kScan: {
        const SmstEntry& m = smst.entry(q.s);
        if (!reserved(m)) {
          if (m.owner_valid) {
            n.own_found = q.own_found | 1u << m.owner;
            n.own_we = true;
            n.own_slot = m.owner;
            n.own_val = q.s;
            if (!q.rel_found && can_release(smst, q.s, pending)) {
              n.rel_found = true;
              n.rel_sm = q.s;
            }
          } else if (!q.idle_found) {
            n.idle_found = true;
            n.idle_sm = q.s;
          }
        }
        if (q.s + 1 >= num_sms) n.st = St::kAct;
        n.s = q.s + 1;
        break;
      }
      case St::kAct:
        if (o.changed || dirty) {
          start_pass(n);
          dirty = false;
        } else {
          n.st = St::kIdle;
        }
        break;
    }
    if (!en) n.st = St::kIdle;
    n.dirty = dirty;
  }
  void commit() {
    q.st = d.st;
    q.s = d.s;
    q.dirty = d.dirty;
    q.idle_found = d.idle_found;
    q.idle_sm = d.idle_sm;
    q.rel_found = d.rel_found;
    q.rel_sm = d.rel_sm;
    q.own_found = d.own_found;
    if (d.own_we) q.own_sm[d.own_slot] = d.own_val;
  }
  /// One clock edge on its own (gsim unit dss): next() then commit().
  void clock(bool en, bool trigger, const Out& o, uint32_t pending, const Smst& smst, uint32_t num_sms) {
    next(en, trigger, o, pending, smst, num_sms, d);
    commit();
  }

  /// q as gs_dss_unit's state_o (dss_state_t).
  void state(PolicyState& st) const {
    namespace L = spec::layout::dss_state_t;
    st.clear();
    st.put(L::st_lsb, L::st_width, static_cast<uint32_t>(q.st));
    st.put(L::s_lsb, L::s_width, q.s);
    st.put(L::dirty_lsb, L::dirty_width, q.dirty);
    st.put(L::idle_found_lsb, L::idle_found_width, q.idle_found);
    st.put(L::idle_sm_lsb, L::idle_sm_width, q.idle_sm);
    st.put(L::rel_found_lsb, L::rel_found_width, q.rel_found);
    st.put(L::rel_sm_lsb, L::rel_sm_width, q.rel_sm);
    st.put(L::own_found_lsb, L::own_found_width, q.own_found);
    for (uint32_t k = 0; k < q.own_sm.size() && k < MaxKernels; ++k)
      st.put(L::own_sm_lsb + k * SmIdW, SmIdW, q.own_sm[k]);
  }

  Regs q;  // registered state
  D d;     // next state

 private:
  static void start_pass(D& n) {
    n.st = St::kScan;
    n.s = 0;
    n.idle_found = false;
    n.rel_found = false;
    n.own_found = 0;
  }
};

}  // namespace gs::golden
