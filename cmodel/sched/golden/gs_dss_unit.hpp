// gsched golden twin of rtl/policy/gs_dss_unit.sv (the Dynamic Spatial Sharing unit, Tanasic
// Sec. 3.4, Algorithm 1). Event-triggered passes: a serial SMST scan (one SM per cycle)
// records the first idle SM, the first releasable SM and an owned SM per kernel and copies the
// KSRT's tokens, ranks, pending and valid bits (every SCAN cycle); SEL registers kmax and kmin
// (one-hot) from the copy and re-checks the releasable SM; CHK registers the steady-state test
// tokens[kmax] > tokens[kmin] + 1 and re-checks the idle SM, kmin's SM, kmax's pending and
// kmin's valid bit; one ACT cycle then, from registers only, releases (tokens + 1), assigns an
// idle SM to kmax (tokens - 1), or reserves and preempts an SM of kmin for kmax (kmin + 1,
// kmax - 1). num_sms + 3 cycles a pass.
#pragma once
#include <array>

#include "sched/golden/gs_active_queue.hpp"
#include "sched/golden/gs_ksrt.hpp"
#include "sched/golden/gs_smst.hpp"

namespace gs::golden {

class DssUnitTwin {
 public:
  using St = DssSt;  // gs_pkg::dss_st_e, from the spec
  struct Regs {
    St st = St::kIdle;        // st_q
    uint32_t s = 0;           // s_q: the SM under scan; the releasable SM in SEL, the idle one in CHK
    bool dirty = false;       // dirty_q
    bool idle_found = false;  // idle_found_q
    uint32_t idle_sm = 0;     // idle_sm_q
    bool rel_found = false;   // rel_found_q
    uint32_t rel_sm = 0;      // rel_sm_q
    uint32_t own_found = 0;   // own_found_q
    std::array<uint32_t, spec::MaxKernels> own_sm{};  // own_sm_q
    std::array<int32_t, spec::MaxKernels> tok{};      // tok_q: the KSRT copy (SCAN)
    std::array<uint32_t, spec::MaxKernels> rank{};    // rank_q
    uint32_t pend = 0;                                // pend_q
    uint32_t valid = 0;                               // valid_q
    uint32_t kmax = 0;                                // kmax_q, one-hot (SEL)
    uint32_t kmin = 0;                                // kmin_q, one-hot (SEL)
    bool rel_pre = false;                             // rel_pre_q (SEL)
    uint32_t rel_own = 0;                             // rel_own_q (SEL)
    bool gap = false;                                 // gap_q (CHK)
    bool rel_ok = false;                              // rel_ok_q (CHK)
    bool idle_ok = false;                             // idle_ok_q (CHK)
    bool pre_ok = false;                              // pre_ok_q (CHK)
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
    bool snap = false;  // SCAN: tok_q, rank_q, pend_q, valid_q <= the KSRT, ranks, pending
    std::array<int32_t, spec::MaxKernels> tok{};
    std::array<uint32_t, spec::MaxKernels> rank{};
    uint32_t pend = 0, valid = 0;
    uint32_t kmax = 0, kmin = 0;
    bool rel_pre = false;
    uint32_t rel_own = 0;
    bool gap = false, rel_ok = false, idle_ok = false, pre_ok = false;
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
    d = D{};
    slots_ = slots;
  }

  /// kmax: most tokens among kernels with CTAs to issue (ties: oldest, then the lower slot),
  /// over the KSRT copy; one-hot, 0 when none.
  static uint32_t kmax(const Regs& r) {
    Pick p;
    uint32_t rank = 0;
    for (uint32_t k = 0; k < r.tok.size(); ++k) {
      if (!(r.pend >> k & 1u)) continue;
      const int32_t t = r.tok[k];
      if (!p.valid || t > p.tokens || (t == p.tokens && r.rank[k] < rank)) {
        p = Pick{true, k, t};
        rank = r.rank[k];
      }
    }
    return p.valid ? 1u << p.slot : 0;
  }
  /// kmin: fewest tokens among valid kernels owning a non-reserved SM seen by the scan (ties:
  /// youngest, then the lower slot), over the KSRT copy; one-hot, 0 when none.
  static uint32_t kmin(const Regs& r) {
    Pick p;
    uint32_t rank = 0;
    for (uint32_t k = 0; k < r.tok.size(); ++k) {
      if (!(r.valid >> k & 1u) || !(r.own_found >> k & 1u)) continue;
      const int32_t t = r.tok[k];
      if (!p.valid || t < p.tokens || (t == p.tokens && r.rank[k] > rank)) {
        p = Pick{true, k, t};
        rank = r.rank[k];
      }
    }
    return p.valid ? 1u << p.slot : 0;
  }
  static uint32_t oh_idx(uint32_t oh) { return oh ? static_cast<uint32_t>(__builtin_ctz(oh)) : 0; }
  /// kmin's owned SM (req_o.sm)
  uint32_t pre_sm() const { return q.kmin ? q.own_sm[oh_idx(q.kmin)] : 0; }

  static bool can_release(const Smst& smst, uint32_t s, uint32_t pending) {
    const SmstEntry& m = smst.entry(s);
    return !reserved(m) && m.owner_valid && !(pending >> m.owner & 1u) && smst.resident(s, m.owner) == 0;
  }

  /// The outputs, from registers only (the ACT cycle); the table arguments are unused (the
  /// SMST entries were re-checked in SEL and CHK).
  Out comb(bool en, uint32_t pending, const Ksrt& ksrt, const ActiveQueue& aq, const Smst& smst) const {
    Out o;
    (void)en;
    (void)pending;
    (void)ksrt;
    (void)aq;
    (void)smst;
    if (q.st != St::kAct) return o;
    const uint32_t hi = oh_idx(q.kmax), lo = oh_idx(q.kmin);
    if (q.rel_found) {
      o.changed = true;
      if (q.rel_ok) {
        o.owner_wr = OwnerWr{true, static_cast<SmId>(q.rel_sm), false, 0};
        o.tok_pre.inc_valid = true;
        o.tok_pre.inc = q.rel_own;
      }
    } else if (q.idle_found && q.kmax != 0) {
      o.changed = true;
      if (q.idle_ok) {
        o.owner_wr = OwnerWr{true, static_cast<SmId>(q.idle_sm), true, hi};
        o.tok_pre.dec_valid = true;
        o.tok_pre.dec = hi;
      }
    } else if (q.gap) {
      o.changed = true;
      if (q.pre_ok) {
        o.req = PreemptReq{true, static_cast<SmId>(pre_sm()), false, lo, true, hi, true};
        o.tok_pre = TokenUpd{true, lo, true, hi};
      }
    }
    return o;
  }

  static TokenUpd tokens(const Out& o, bool accepted) {
    if (o.req.valid && !accepted) return TokenUpd{};
    return o.tok_pre;
  }

  /// The next state from q, this cycle's inputs and comb() outputs `o`; q is not touched.
  void next(bool en, bool trigger, const Out& o, uint32_t pending, const Ksrt& ksrt, const ActiveQueue& aq,
            const Smst& smst, uint32_t num_sms, D& n) const {
    n.st = q.st;
    n.s = q.s;
    n.dirty = q.dirty;
    n.idle_found = q.idle_found;
    n.idle_sm = q.idle_sm;
    n.rel_found = q.rel_found;
    n.rel_sm = q.rel_sm;
    n.own_found = q.own_found;
    n.own_we = false;
    n.own_slot = 0;
    n.own_val = 0;
    n.snap = false;
    n.kmax = q.kmax;
    n.kmin = q.kmin;
    n.rel_pre = q.rel_pre;
    n.rel_own = q.rel_own;
    n.gap = q.gap;
    n.rel_ok = q.rel_ok;
    n.idle_ok = q.idle_ok;
    n.pre_ok = q.pre_ok;
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
        // the KSRT copy SEL reads (the last SCAN cycle's)
        n.snap = true;
        n.valid = 0;
        for (uint32_t k = 0; k < slots_; ++k) {
          const KsrtEntry& e = ksrt.entry(k);
          n.tok[k] = e.tokens;
          n.rank[k] = aq.q.rank[k];
          n.valid |= uint32_t(e.valid) << k;
        }
        n.pend = pending;
        n.s = q.s + 1;
        if (q.s + 1 >= num_sms) {
          n.st = St::kSel;
          n.s = n.rel_sm;  // the SMST read port's index: the releasable SM in SEL
        }
        break;
      }
      case St::kSel:
        n.kmax = kmax(q);
        n.kmin = kmin(q);
        // the releasable SM as it is now; its owner's pending bit is checked again in CHK
        n.rel_pre = can_release(smst, q.rel_sm, pending);
        n.rel_own = smst.entry(q.rel_sm).owner;
        n.s = q.idle_sm;  // and the idle SM in CHK
        n.st = St::kChk;
        break;
      case St::kChk: {
        n.gap = q.kmax != 0 && q.kmin != 0 && q.tok[oh_idx(q.kmax)] > q.tok[oh_idx(q.kmin)] + 1;
        // no issue of the owner in SEL or CHK: its resident CTAs are still as SEL saw them
        n.rel_ok = q.rel_pre && !(pending >> q.rel_own & 1u);
        // kmax still has CTAs to issue and kmin is still valid (as Algorithm 1 would see them)
        const bool hi_pending = (q.kmax & pending) != 0;
        const bool lo_valid = q.kmin != 0 && ksrt.entry(oh_idx(q.kmin)).valid;
        const SmstEntry& mi = smst.entry(q.idle_sm);
        n.idle_ok = !reserved(mi) && !mi.owner_valid && hi_pending;
        const SmstEntry& mp = smst.entry(pre_sm());
        n.pre_ok = !reserved(mp) && mp.owner_valid && mp.owner == oh_idx(q.kmin) && hi_pending && lo_valid;
        n.st = St::kAct;
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
    if (d.snap) {
      q.tok = d.tok;
      q.rank = d.rank;
      q.pend = d.pend;
      q.valid = d.valid;
    }
    q.kmax = d.kmax;
    q.kmin = d.kmin;
    q.rel_pre = d.rel_pre;
    q.rel_own = d.rel_own;
    q.gap = d.gap;
    q.rel_ok = d.rel_ok;
    q.idle_ok = d.idle_ok;
    q.pre_ok = d.pre_ok;
  }
  /// One clock edge on its own (gsim unit dss): next() then commit().
  void clock(bool en, bool trigger, const Out& o, uint32_t pending, const Ksrt& ksrt, const ActiveQueue& aq,
             const Smst& smst, uint32_t num_sms) {
    next(en, trigger, o, pending, ksrt, aq, smst, num_sms, d);
    commit();
  }

  /// q as gs_dss_unit's state_o (dss_state_t).
  void state(PolicyState& st) const {
    st.clear();
    spec::pack_dss_state_t(st, 0, q);
  }

  Regs q;  // registered state
  D d;     // next state

 private:
  uint32_t slots_ = 0;  // the KSRT slots in use (reset())

  static void start_pass(D& n) {
    n.st = St::kScan;
    n.s = 0;
    n.idle_found = false;
    n.rel_found = false;
    n.own_found = 0;
  }
};

}  // namespace gs::golden
