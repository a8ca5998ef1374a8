// gsched golden twin of rtl/framework/gs_sm_driver.sv (SM driver, Tanasic Sec. 3.2-3.3), a
// pipeline (candidates, pick, issue) over a registered ready bitmap; the same registers, cycle
// for cycle.
//
// comb() (issue_*_o, stage 2): the registered pick (pick_valid, pick_sm, pick_slot) holds if its
// ready bit still holds, no quota write or configuration change is pending on its row (qdirty,
// ev_qwr, ev_chg), the SM is usable, its slot has work, is eligible now and is not being
// admitted. PTBQ head before fresh CTAs.
// next(): stage 1a (per SM the best ready kernel: ready & work & elig & ~col_clr, by the
// registered order `beats`; a candidate if the SM is usable and its row not dirty), stage 1b
// (the registered candidates round-robin from rr, not the SM picked last cycle), the rows read
// for a fit check (RowRead lo, hi, pk: the refresh of the lowest and the highest dirty row,
// which rows registered in ref_*, found when dirty is written, leaving out the row picked in
// that cycle, whose SMST resources land a cycle late; the issued SM's row, its CTA counted),
// their K fit checks each a cycle later (the issued SM's row as it will be after its CTA,
// written last), the column sweep of newly admitted slots (SmdSweepSms SMs per cycle), the
// quota marks (qdirty: set by the last cycle's quota write or configuration change, cleared
// when a refresh's fit check lands), the dirty rows of the last cycle's events (a freed CTA's SM, a quota write's SM, a
// configuration change: registered in ev_*), rr and the dispatch record. The RTL holds
// `ready` as r_q with the rows written in the last cycle (the refresh's, the issue's, the
// sweep's bits) laid over it, and puts them into r_q a cycle later: the bitmap it reads and
// reports (ready_o) is this one, bit for bit.
// Nothing allocates per cycle: reset() sizes every vector.
#pragma once
#include <vector>

#include "gs_spec.hpp"
#include "sched/golden/golden_types.hpp"
#include "sched/golden/gs_ksrt.hpp"
#include "sched/golden/gs_ptbq.hpp"
#include "sched/golden/gs_smst.hpp"

namespace gs::golden {

/// What the SM driver reads besides the tables: the selected policy's outputs (gs_top's
/// policy_out_t), the quota table and the configured CTA limit.
struct DriverPolicy {
  const std::vector<uint32_t>* elig = nullptr;   // elig_i: per SM, bit k = slot k may issue
  bool quota_en = false;                         // quota_en_i
  const std::vector<uint32_t>* quota = nullptr;  // quota_i [sm * slots + slot]
  uint32_t cta_limit = 0;                        // cfg_cta_limit_i (0 = none)
  const std::vector<OrderKey>* key = nullptr;    // key_i, per slot
};

class SmDriver {
 public:
  struct In {
    const std::vector<SmCaps>* caps = nullptr;  // cfg_sm_*_i
    uint32_t num_sms = 0;                       // cfg_num_sms_i
    const Smst* smst = nullptr;                 // smst_i, resident_i (registered tables)
    const Ksrt* ksrt = nullptr;                 // ksrt_i
    const Ptbq* ptbq = nullptr;                 // ptbq_count_i, ptbq_head_i
    DriverPolicy pol;                           // elig_i, quota_en_i, quota_i, cfg_cta_limit_i, key_i
    // rows and columns whose inputs change at the coming edge (besides this driver's issue)
    bool free_valid = false;      // free_valid_i: an SM event frees a CTA on free_sm
    uint32_t free_sm = 0;         // free_sm_i
    bool quota_wr_valid = false;  // quota_wr_valid_i: a quota write of SM quota_wr_sm
    uint32_t quota_wr_sm = 0;     // quota_wr_sm_i
    uint32_t col_clr = 0;         // col_clr_i: slots admitting a kernel
  };
  struct Issue {
    bool valid = false;
    uint32_t sm = 0, slot = 0;
    bool resume = false;
    uint32_t cta = 0;
    CtaRes res;
  };
  using Out = Issue;  // issue_*_o; dispatch_o is the registered dispatch()
  /// A row in the fit stage (the RTL's f*_q): read in the last cycle, checked against every
  /// slot's demand in this one, its bits in the overlay after this edge.
  struct RowRead {
    bool valid = false;
    uint32_t sm = 0;
    uint32_t threads = 0, warps = 0, regs = 0, shmem = 0, ctas = 0;  // the SM's resources in use
    uint32_t under = 0;  // bit k: slot k under its quota and the CTA limit (at the read)
    bool after = false;  // the issued SM's row: a CTA on top, with the demand below (read with the row)
    uint32_t dthreads = 0, dwarps = 0, dregs = 0, dshmem = 0;
  };
  struct Regs {
    std::vector<uint32_t> ready;     // ready_o: per SM, bit k (the RTL's r_q with its overlay rows laid over it)
    std::vector<uint8_t> dirty;      // dirty_q
    std::vector<uint8_t> qdirty;     // qdirty_q: the row's limits may predate a quota write / configuration change
    RowRead lo, hi, pk;              // the fit stage: flo_*, fhi_*, fpk_*
    bool ref_valid = false;          // rlo_q / rhi_q != 0: a dirty row to refresh
    uint32_t ref_lo = 0;             // rlo_q: the lowest dirty row (one-hot in the RTL)
    uint32_t ref_hi = 0;             // rhi_q: the highest dirty row
    std::vector<uint32_t> beats;     // beats_q as columns: beats[k] bit j = slot j goes before slot k
    std::vector<uint8_t> cand;       // cand_q: stage 1a, SM s has a candidate
    std::vector<uint8_t> cand_slot;  // cslot_q: its best slot (of the SM's ready slots, also when not a candidate)
    bool pick_valid = false;         // pv_q: stage 1b's pick
    uint32_t pick_sm = 0;            // psm_q
    uint32_t pick_slot = 0;          // pslot_q
    uint32_t swait = 0;              // swait_q
    bool sact = false;               // sact_q
    uint32_t scol = 0;               // scol_q
    uint32_t sptr = 0;               // sptr_q
    bool qen = false;                // qen_q
    uint32_t limit = 0;              // limit_q
    bool ev_free = false;            // last cycle's free_valid_i (its row is marked dirty now)
    uint32_t ev_free_sm = 0;         // and free_sm_i (the RTL holds both as one-hot rows: evf_oh_q)
    bool ev_qwr = false;             // evq_v_q: last cycle's quota_wr_valid_i
    uint32_t ev_qwr_sm = 0;          // evq_sm_q (and one-hot: evq_oh_q)
    bool ev_chg = false;             // chg_q: last cycle's configuration change (every row is marked)
    uint32_t waits = 0;              // waits_q (16 b, saturating)
    uint32_t rr = 0;                 // rr_q
    DispatchCmd dispatch;            // dispatch_q
  };
  using D = Regs;  // next() writes all of it (same sizes: the copy allocates nothing)

  static constexpr uint32_t kSweep = spec::SmdSweepSms;
  static constexpr uint32_t kWaitsMax = 0xFFFFu;

  /// sms: the GPU's SMs (cfg_num_sms_i); slots: KSRT slots.
  void reset(uint32_t sms, uint32_t slots) {
    Regs r;
    r.ready.assign(sms, 0);
    r.dirty.assign(sms, 0);
    r.qdirty.assign(sms, 0);
    r.beats.assign(slots, 0);
    r.cand.assign(sms, 0);
    r.cand_slot.assign(sms, 0);
    for (uint32_t k = 0; k < slots; ++k) r.beats[k] = (1u << k) - 1;  // index order
    q = r;
    d = r;
  }
  const DispatchCmd& dispatch() const { return q.dispatch; }

  /// Kernels with CTAs to issue (the RTL's `work` vector): the PTBQ head once it is ready, else a
  /// fresh CTA when the PTBQ is empty.
  static uint32_t work_mask(const Ksrt& ksrt, const Ptbq& ptbq) {
    uint32_t w = 0;
    for (uint32_t k = 0; k < ksrt.slots(); ++k) {
      const KsrtEntry& e = ksrt.entry(k);
      if (e.valid && (ptbq.count(k) != 0 ? ptbq.ready(k) : e.next_cta != e.grid)) w |= 1u << k;
    }
    return w;
  }

  /// quota_en_i or cfg_cta_limit_i differ from last cycle's (every row is stale)
  bool cfg_changed(const In& in) const { return in.pol.quota_en != q.qen || in.pol.cta_limit != q.limit; }

  /// Whether this cycle's edge may move the driver's registers without a table write: a dirty
  /// row to refresh or one to mark, a column sweep, a changed quota_en_i / cfg_cta_limit_i.
  /// (The candidates, which follow the policy's inputs too, are compared after next(): cand_moved.)
  bool busy(const In& in) const {
    if (q.sact || q.swait != 0 || cfg_changed(in) || q.ev_free || q.ev_qwr || q.ev_chg) return true;
    if (q.lo.valid || q.hi.valid || q.pk.valid) return true;
    for (uint8_t d : q.dirty)
      if (d) return true;
    return false;
  }

  /// SM s is usable: inside the GPU and not reserved.
  static bool usable(const In& in, uint32_t s) { return s < in.num_sms && !reserved(in.smst->entry(s)); }

  /// Whether next() moved the candidates (d against q), for tables_quiet.
  bool cand_moved() const { return d.cand != q.cand || d.cand_slot != q.cand_slot; }

  /// Stage 2: the issue of this cycle (the pick of the last cycle, if it still holds).
  Out comb(const In& in) const {
    Issue is;
    if (!q.pick_valid || cfg_changed(in)) return is;
    const uint32_t s = q.pick_sm, k = q.pick_slot;
    // resources, quota and CTA limit: the ready bit now (docs/rtl/gs_sm_driver.md, Pipeline: it
    // holds every CTA issued to the SM, a free only adds room), unless a quota write or a
    // configuration change is pending on the row (marked, or in the event registers)
    if (!(q.ready[s] >> k & 1u)) return is;
    if (q.ev_chg || q.qdirty[s] || (q.ev_qwr && q.ev_qwr_sm == s) || !usable(in, s)) return is;
    if (!(work_mask(*in.ksrt, *in.ptbq) >> k & 1u) || !((*in.pol.elig)[s] >> k & 1u) || (in.col_clr >> k & 1u))
      return is;
    const KsrtEntry& e = in.ksrt->entry(k);
    is.valid = true;
    is.sm = s;
    is.slot = k;
    is.resume = in.ptbq->count(k) != 0;
    is.cta = is.resume ? in.ptbq->head(k) : e.next_cta;
    is.res = CtaRes{e.threads, e.warps, e.regs, e.shmem};
    return is;
  }

  /// Slot k on SM s with `resid` CTAs resident: under its quota (with quota_en) and the CTA limit,
  /// as registered (qen_q, limit_q: a cycle whose inputs differ picks and issues nothing and
  /// dirties every row, so the bits computed then are recomputed before they are used).
  bool under_limits(const In& in, uint32_t s, uint32_t k, uint32_t resid) const {
    if (q.qen && !(resid < (*in.pol.quota)[s * in.ksrt->slots() + k])) return false;
    return q.limit == 0 || resid < q.limit;
  }

  /// One ready bit read at once (the column sweep): SM s against slot k's per-CTA demand, its
  /// quota and the CTA limit.
  bool fits(const In& in, uint32_t s, uint32_t k) const {
    RowRead r = read_used(in, s);
    if (under_limits(in, s, k, in.smst->resident(s, k))) r.under = 1u << k;
    return fits_read(in, r, k);
  }

  /// The read stage of a row: SM s's resources in use and its slots' limits now; `after`: the
  /// issued SM's row, one CTA of slot `x` counted (its resident count now; its demand, read now
  /// too, added at the fit).
  RowRead read_row(const In& in, uint32_t s, bool after = false, uint32_t x = 0) const {
    RowRead r = read_used(in, s);
    r.after = after;
    if (after) {
      const KsrtEntry& ex = in.ksrt->entry(x);
      r.dthreads = ex.threads;
      r.dwarps = ex.warps;
      r.dregs = ex.regs;
      r.dshmem = ex.shmem;
    }
    for (uint32_t k = 0; k < in.ksrt->slots(); ++k)
      if (under_limits(in, s, k, in.smst->resident(s, k) + (after && x == k ? 1u : 0u))) r.under |= 1u << k;
    return r;
  }

  /// SM s's resources in use, as the SMST holds them now.
  static RowRead read_used(const In& in, uint32_t s) {
    const SmstEntry& m = in.smst->entry(s);
    RowRead r;
    r.valid = true;
    r.sm = s;
    r.threads = m.threads;
    r.warps = m.warps;
    r.regs = m.regs;
    r.shmem = m.shmem;
    r.ctas = m.ctas;
    return r;
  }

  /// The fit stage of a row: slot k's demand (as the KSRT holds it now) on top of the row read.
  bool fits_read(const In& in, const RowRead& r, uint32_t k) const {
    if (!(r.under >> k & 1u)) return false;
    const SmCaps& c = (*in.caps)[r.sm];
    const KsrtEntry& e = in.ksrt->entry(k);
    const uint32_t n = r.after ? 1u : 0u;
    return r.threads + r.dthreads + e.threads <= c.threads && r.warps + r.dwarps + e.warps <= c.warps &&
           r.regs + r.dregs + e.regs <= c.regs && r.shmem + r.dshmem + e.shmem <= c.shmem && r.ctas + n < c.ctas;
  }

  /// `is` is this cycle's comb(in).
  void next(const In& in, const Issue& is, D& n) const {
    n = q;
    const uint32_t sms = static_cast<uint32_t>(q.ready.size());
    const uint32_t slots = static_cast<uint32_t>(q.beats.size());
    const bool chg = cfg_changed(in);
    const uint32_t work = work_mask(*in.ksrt, *in.ptbq);

    // the order: slot j before slot k
    const std::vector<OrderKey>& key = *in.pol.key;
    for (uint32_t k = 0; k < slots; ++k) {
      uint32_t col = 0;
      for (uint32_t j = 0; j < slots; ++j)
        if (key[j] < key[k] || (key[j] == key[k] && j < k)) col |= 1u << j;
      n.beats[k] = col;
    }

    // stage 1a: per SM the best ready kernel
    for (uint32_t s = 0; s < sms; ++s) {
      const uint32_t rdy = q.ready[s] & work & (*in.pol.elig)[s] & ~in.col_clr;
      uint32_t best = 0;
      for (uint32_t k = 0; k < slots; ++k)
        if ((rdy >> k & 1u) && (rdy & q.beats[k]) == 0) best |= k;
      n.cand[s] = rdy != 0 && usable(in, s) && !q.dirty[s];
      n.cand_slot[s] = static_cast<uint8_t>(best);
    }
    // stage 1b: the registered candidates round-robin from rr, not the SM picked last cycle
    n.pick_valid = false;
    for (uint32_t i = 0; i < sms && !chg; ++i) {
      const uint32_t s = (q.rr + i) % sms;
      if (!q.cand[s] || (q.pick_valid && q.pick_sm == s)) continue;
      n.pick_valid = true;
      n.pick_sm = s;
      n.pick_slot = q.cand_slot[s];
      n.rr = (s + 1 >= in.num_sms) ? 0 : s + 1;
      break;
    }
    if (!n.pick_valid) {
      n.pick_sm = 0;
      n.pick_slot = 0;
    }

    // refresh: the lowest and the highest dirty row, found when dirty was written (registered)
    const bool lo_v = q.ref_valid, hi_v = q.ref_valid;
    const uint32_t lo = q.ref_lo, hi = q.ref_hi;

    // ready bits: the sweep's, the refreshed rows', the issued SM's row after its CTA, then the
    // admitted columns cleared
    const uint32_t base = q.sptr * kSweep;
    if (q.sact) {
      for (uint32_t j = 0; j < kSweep && base + j < sms; ++j) {
        const uint32_t s = base + j;
        n.ready[s] = (n.ready[s] & ~(1u << q.scol)) | (fits(in, s, q.scol) ? 1u << q.scol : 0u);
      }
    }
    if (q.lo.valid) n.ready[q.lo.sm] = row(in, q.lo, slots);
    if (q.hi.valid && q.hi.sm != q.lo.sm) n.ready[q.hi.sm] = row(in, q.hi, slots);
    if (q.pk.valid) n.ready[q.pk.sm] = row(in, q.pk, slots);
    if (in.col_clr != 0)
      for (uint32_t s = 0; s < sms; ++s) n.ready[s] &= ~in.col_clr;
    // the rows read now, checked in the next cycle: the refresh's two, the issued SM's
    n.lo = lo_v ? read_row(in, lo) : RowRead{};
    n.hi = hi_v ? read_row(in, hi) : RowRead{};
    n.pk = is.valid ? read_row(in, is.sm, true, is.slot) : RowRead{};

    // dirty rows: the refreshed ones leave, the rows of the last cycle's events enter
    const bool waited = dirty_left(lo_v, lo, hi_v, hi);
    if (lo_v) n.dirty[lo] = 0;
    if (hi_v) n.dirty[hi] = 0;
    if (q.ev_free && q.ev_free_sm < sms) n.dirty[q.ev_free_sm] = 1;
    if (q.ev_qwr && q.ev_qwr_sm < sms) n.dirty[q.ev_qwr_sm] = 1;
    if (q.ev_chg)
      for (uint32_t s = 0; s < sms; ++s) n.dirty[s] = 1;
    // a row's limits are current again when a refresh that read it after the quota write lands
    if (q.lo.valid) n.qdirty[q.lo.sm] = 0;
    if (q.hi.valid) n.qdirty[q.hi.sm] = 0;
    if (q.ev_qwr && q.ev_qwr_sm < sms) n.qdirty[q.ev_qwr_sm] = 1;
    if (q.ev_chg)
      for (uint32_t s = 0; s < sms; ++s) n.qdirty[s] = 1;
    if (waited && q.waits != kWaitsMax) n.waits = q.waits + 1;
    n.ev_free = in.free_valid;
    n.ev_free_sm = in.free_sm;
    n.ev_qwr = in.quota_wr_valid;
    n.ev_qwr_sm = in.quota_wr_sm;
    n.ev_chg = chg;
    // the rows the next cycle refreshes: the new dirty vector's lowest and highest, leaving out
    // the row whose SMST resources change at the next edge (this cycle's pick, issuing now)
    n.ref_valid = false;
    n.ref_lo = n.ref_hi = 0;
    for (uint32_t s = 0; s < sms; ++s)
      if (n.dirty[s] && !(q.pick_valid && q.pick_sm == s)) {
        if (!n.ref_valid) n.ref_lo = s;
        n.ref_valid = true;
        n.ref_hi = s;
      }

    // the column sweep
    const bool restart = q.sact && (in.col_clr >> q.scol & 1u);
    const bool last = (q.sptr + 1) * kSweep >= in.num_sms;
    if (restart) {
      n.sptr = 0;
    } else if (q.sact) {
      if (last) n.sact = false;
      else n.sptr = q.sptr + 1;
    }
    // columns to sweep besides the one under way (an idle sweep starts the lowest at once)
    n.swait = q.swait | (in.col_clr & ~(restart ? 1u << q.scol : 0u));
    if (!n.sact && n.swait != 0) {
      n.sact = true;
      n.sptr = 0;
      n.scol = static_cast<uint32_t>(__builtin_ctz(n.swait));
      n.swait &= ~(1u << n.scol);
    }
    n.qen = in.pol.quota_en;
    n.limit = in.pol.cta_limit;

    DispatchCmd dc;
    if (is.valid) {
      dc.valid = true;
      dc.sm = static_cast<SmId>(is.sm);
      dc.kernel = in.ksrt->entry(is.slot).kernel;
      dc.cta = is.cta;
      dc.resume = is.resume;
    }
    n.dispatch = dc;
  }
  void commit() { std::swap(q, d); }
  /// One clock edge on its own (block benches): next() with a given comb(in), then commit().
  void clock(const In& in, const Issue& is) {
    next(in, is, d);
    commit();
  }

  Regs q;  // registered state
  D d;     // next state, written by next(), committed by commit()

 private:
  uint32_t row(const In& in, const RowRead& rd, uint32_t slots) const {
    uint32_t r = 0;
    for (uint32_t k = 0; k < slots; ++k)
      if (fits_read(in, rd, k)) r |= 1u << k;
    return r;
  }
  /// A dirty row other than the two refreshed ones waits (the RTL's waits_q count).
  /// (the row left out of the search, picked in the cycle before, waits too)
  bool dirty_left(bool lo_v, uint32_t lo, bool hi_v, uint32_t hi) const {
    for (uint32_t s = 0; s < q.dirty.size(); ++s)
      if (q.dirty[s] && !(lo_v && s == lo) && !(hi_v && s == hi)) return true;
    return false;
  }
};

}  // namespace gs::golden
