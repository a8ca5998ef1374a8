// gsched golden: twin of rtl/policy/gs_sbm_ctrl.sv -- SBM's profiling flow (Bitalebi et al.,
// Sec. 3.2): Algorithm 1 over the phases Base, B1_L12, B2_L12, B1_L2, B2_L2, then Algorithm 2's
// tuning phases (occ_th 0..3 on a shared mapping), ending in SBM_REG (Table 4).
//
// Same registers (sbm_ctrl_state_t), same timing (a result taken at an edge, summed and compared
// in SbmChunks chunks of ArithChunkW bits over the next 2 x SbmChunks + 1 cycles, the phase
// moving at the last: ack()), same integer comparisons as the RTL; docs/rtl/gs_sbm_ctrl.md. sbm_flow_reference()
// below is the algorithm read straight from the paper's text, for the bench and the unit runner.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "sched/golden/golden_types.hpp"

namespace gs::golden {

class SbmCtrl {
 public:
  // The phases as numbers (the FSM counts through them, as the RTL does), from the spec's sbm_phase_e.
  static constexpr uint32_t kBase = uint32_t(SbmPhase::kBase), kB1L12 = uint32_t(SbmPhase::kB1L12),
                            kB2L12 = uint32_t(SbmPhase::kB2L12), kB1L2 = uint32_t(SbmPhase::kB1L2),
                            kB2L2 = uint32_t(SbmPhase::kB2L2), kTune0 = uint32_t(SbmPhase::kTune0),
                            kTune3 = uint32_t(SbmPhase::kTune3);
  static constexpr uint32_t kPhases = kTune3 + 1;

  struct Regs {
    bool busy = false;
    uint32_t phase = kBase;
    uint64_t p_base = 0, p12 = 0, p2 = 0, p_alg1 = 0, p_tune = 0;
    bool b12 = false, b2 = false, ci = false, done = false;
    SbmReg alg1, sbm_reg;
    uint32_t t_best = 0;
    // a result being summed and compared in chunks (calc, step k)
    bool calc = false;
    uint32_t k = 0;
    uint64_t acc = 0, r2 = 0;
    bool cy = false, ci_gt = false, ga = false, gb = false, gc = false;
  };

  void reset() { q = d = Regs{}; }

  /// The configuration of the running phase (busy), or SBM_REG (cfg_o).
  SbmReg cfg() const { return q.busy ? phase_cfg(q) : q.sbm_reg; }
  bool busy() const { return q.busy; }
  /// res_ack_o: the result's decision registers at this edge (cfg() and busy() are the next
  /// phase's from the next cycle).
  bool ack() const { return q.calc && q.k == 2 * kChunks; }
  /// A result is being summed and compared (a result given now is ignored).
  bool calc() const { return q.calc; }

  /// The configuration phase `r.phase` runs (docs/rtl/gs_sbm_ctrl.md, "Phases").
  static SbmReg phase_cfg(const Regs& r) {
    SbmReg c;
    switch (r.phase) {
      case kBase: c.arch = SbmArch::kBase; break;
      case kB1L12: c.arch = SbmArch::kBL12, c.fcache = true; break;
      case kB2L12: c.arch = SbmArch::kBL12, c.fcache = false; break;
      case kB1L2: c.arch = SbmArch::kBL2, c.fcache = true; break;
      case kB2L2: c.arch = SbmArch::kBL2, c.fcache = false; break;
      default:
        c.arch = r.alg1.arch == SbmArch::kBase ? SbmArch::kMwg : SbmArch::kMwgb;
        c.fcache = r.alg1.fcache;
        c.ci = r.ci;
        c.occ_th = (r.phase - kTune0) & 3u;
        break;
    }
    return c;
  }

  /// The next state into d: start (a new pair), a phase's result taken (both tasks'
  /// instructions; ignored while calculating), or a step of its sums and compares.
  void next(bool start, uint32_t occ1, uint32_t occ2, bool res_valid, uint64_t res1, uint64_t res2) {
    d = q;
    if (start) {
      d.busy = true;
      d.phase = kBase;
      d.done = false;
      d.calc = false;
      d.k = 0;
      return;
    }
    if (res_valid && q.busy && !q.calc) {  // take the result
      d.calc = true;
      d.k = 0;
      d.acc = res1 & kInstMask;
      d.r2 = res2 & kInstMask;
      d.cy = d.ci_gt = d.ga = d.gb = d.gc = false;
      return;
    }
    if (!q.calc) return;
    d.k = q.k + 1;
    const uint32_t ka = (q.k - 1) & kStepMask, kb = (q.k - (kChunks + 1)) & kStepMask;
    // compare A's reference, compare B's operands (docs/rtl/gs_sbm_ctrl.md, "Timing")
    const uint64_t refa = q.phase == kB2L12 ? q.p12 : q.phase == kB2L2 ? q.p2 : q.p_tune;
    const uint64_t b1l = q.phase == kB2L2 ? q.p12 : q.p_tune, b1r = q.phase == kB2L2 ? q.p2 : q.p_alg1;
    const uint64_t sa = chunk(q.acc, q.k), sb = chunk(q.r2, q.k);
    const uint64_t sum = sa + sb + (q.cy ? 1 : 0);
    const bool ci_gt = sb > sa || (sb == sa && q.ci_gt);
    const bool ga = lsb_first_gt(chunk(q.acc, ka), chunk(refa, ka), q.ga);
    const bool gb = lsb_first_gt(chunk(b1l, kb), chunk(b1r, kb), q.gb);
    const bool gc = lsb_first_gt(chunk(q.p2, kb), chunk(q.p_base, kb), q.gc);
    const bool improved = q.phase == kTune0 || ga;
    const uint32_t t = (q.phase - kTune0) & 3u;
    if (q.k < kChunks) {  // sum chunk k
      const uint32_t lo = q.k * kCh;
      const uint64_t m = ((uint64_t(1) << kCh) - 1) << lo;
      d.acc = ((q.acc & ~m) | ((sum << lo) & m)) & kIpcMask;
      d.cy = (sum >> kCh) & 1u;
      d.ci_gt = ci_gt;
    }
    if (q.k >= 1 && q.k <= kChunks) d.ga = ga;
    if (q.k > kChunks) d.gb = gb, d.gc = gc;
    if (q.k == kChunks) {  // p is complete and compared: the phase's registers take it
      switch (q.phase) {
        case kBase: d.p_base = q.acc; break;
        case kB1L12: d.p12 = q.acc, d.b12 = false; break;
        case kB2L12:
          if (ga) d.p12 = q.acc, d.b12 = true;
          break;
        case kB1L2: d.p2 = q.acc, d.b2 = false; break;
        case kB2L2:
          if (ga) d.p2 = q.acc, d.b2 = true;
          break;
        default:  // Algorithm 2: tuning phase t
          d.ga = improved;
          if (improved) d.p_tune = q.acc, d.t_best = t;
          break;
      }
    }
    if (q.k != 2 * kChunks) return;
    // the decision
    d.calc = false;
    d.k = 0;
    switch (q.phase) {
      case kBase:
      case kB1L12:
      case kB2L12:
      case kB1L2: d.phase = q.phase + 1; break;
      case kB2L2:  // Algorithm 1, lines 2-4
        d.alg1 = SbmReg{};
        if (gb) {  // p12 > p2
          d.alg1.arch = SbmArch::kBL12, d.alg1.fcache = !q.b12, d.p_alg1 = q.p12;
        } else if (gc) {  // p2 > p_base
          d.alg1.arch = SbmArch::kBL2, d.alg1.fcache = !q.b2, d.p_alg1 = q.p2;
        } else {
          d.alg1.arch = SbmArch::kBase, d.p_alg1 = q.p_base;
        }
        d.phase = kTune0;
        break;
      default: {  // Algorithm 2: tuning phase t
        const bool ci = q.phase == kTune0 ? q.ci_gt : q.ci;
        d.ci = ci;
        const uint32_t occ_ci = ci ? occ2 : occ1, occ_other = ci ? occ1 : occ2;
        const uint32_t step = t + 1;
        const bool can_step = q.ga && q.phase != kTune3 && (occ_other >> 1) > step && (occ_ci >> 1) + step <= occ_ci;
        if (can_step) {
          d.phase = q.phase + 1;
        } else {  // the end: SBM_REG
          d.busy = false;
          d.done = true;
          if (gb) {  // p_tune > p_alg1
            d.sbm_reg = SbmReg{q.alg1.arch == SbmArch::kBase ? SbmArch::kMwg : SbmArch::kMwgb, q.alg1.fcache, ci,
                               q.t_best};
          } else {
            d.sbm_reg = q.alg1;
          }
        }
        break;
      }
    }
  }
  void commit() { q = d; }

  /// The registers as state_o carries them, at bit `lsb` of a policy state record.
  void state(PolicyState& st, uint32_t lsb) const { spec::pack_sbm_ctrl_state_t(st, lsb, q); }

  Regs q, d;

 private:
  static constexpr uint64_t kInstMask = (uint64_t(1) << spec::SbmInstW) - 1;
  static constexpr uint64_t kIpcMask = (uint64_t(1) << spec::SbmIpcW) - 1;
  static constexpr uint32_t kCh = spec::ArithChunkW, kChunks = spec::SbmChunks;
  static constexpr uint32_t kStepMask = (1u << spec::SbmStepW) - 1;
  static_assert(kCh * kChunks < 64, "the chunks of a result fit uint64_t");

  /// Chunk c (kCh bits) of x; 0 for a chunk index past the last (as the RTL's chunk select).
  static uint64_t chunk(uint64_t x, uint32_t c) {
    return c < kChunks ? (x >> (c * kCh)) & ((uint64_t(1) << kCh) - 1) : 0;
  }
  /// One step of an LSB-first compare: this chunk decides unless equal.
  static bool lsb_first_gt(uint64_t a, uint64_t b, bool lower) { return a > b || (a == b && lower); }
};

/// One phase of SBM's profiling flow as sbm_flow_reference() ran it: its name, configuration
/// and the instructions it was given.
struct SbmPhaseRun {
  std::string name;
  SbmReg cfg;
  uint64_t insts1 = 0, insts2 = 0;
};

/// The phase names of SbmCtrl's phases 0..8, as docs/rtl/gs_sbm_ctrl.md and Table 3 write them.
inline std::string sbm_phase_name(uint32_t phase, const SbmReg& cfg) {
  static const char* kAlg1[] = {"Base", "B1_L12", "B2_L12", "B1_L2", "B2_L2"};
  if (phase < SbmCtrl::kTune0) return kAlg1[phase];
  return std::string(cfg.arch == SbmArch::kMwg ? "MWG"
                     : cfg.fcache              ? "MWGB1"
                                               : "MWGB2") +
         " occ_th " + std::to_string(cfg.occ_th);
}

/// SBM_REG as Table 6 names the configuration (B1_L2, MWGB2, ...).
inline std::string sbm_config_name(const SbmReg& r) {
  const char* task = r.fcache ? "1" : "2";  // the bypassed task is the one that is not $F
  switch (r.arch) {
    case SbmArch::kBase: return "Base";
    case SbmArch::kBL2: return std::string("B") + task + "_L2";
    case SbmArch::kBL12: return std::string("B") + task + "_L12";
    case SbmArch::kMwg: return "MWG";
    case SbmArch::kMwgb: return std::string("MWGB") + task;
  }
  return "?";
}

/// Algorithms 1 and 2 read straight from Sec. 3.2, independent of SbmCtrl's registers:
/// measure(cfg) gives both tasks' instructions under a configuration. Returns SBM_REG and the
/// phases in the order run.
template <class Measure>
SbmReg sbm_flow_reference(uint32_t occ1, uint32_t occ2, Measure&& measure, std::vector<SbmPhaseRun>& runs) {
  runs.clear();
  auto run = [&](const std::string& name, const SbmReg& cfg) {
    SbmPhaseRun r{name, cfg, 0, 0};
    measure(cfg, r.insts1, r.insts2);
    runs.push_back(r);
    return r.insts1 + r.insts2;
  };
  // Algorithm 1, line 1: the five configurations (B<x>_* bypasses task x: $F is the other)
  const uint64_t base = run("Base", SbmReg{SbmArch::kBase, false, false, 0});
  const uint64_t b1l12 = run("B1_L12", SbmReg{SbmArch::kBL12, true, false, 0});
  const uint64_t b2l12 = run("B2_L12", SbmReg{SbmArch::kBL12, false, false, 0});
  const uint64_t b1l2 = run("B1_L2", SbmReg{SbmArch::kBL2, true, false, 0});
  const uint64_t b2l2 = run("B2_L2", SbmReg{SbmArch::kBL2, false, false, 0});
  // lines 2-4: L12 if bypassing L1 and L2 beats both L2 phases, else the best of L2 and Base
  SbmReg alg1;
  uint64_t p_alg1;
  const uint64_t best12 = std::max(b1l12, b2l12), best2 = std::max(b1l2, b2l2);
  if (best12 > best2) {
    alg1 = SbmReg{SbmArch::kBL12, !(b2l12 > b1l12), false, 0};
    p_alg1 = best12;
  } else if (best2 > base) {
    alg1 = SbmReg{SbmArch::kBL2, !(b2l2 > b1l2), false, 0};
    p_alg1 = best2;
  } else {
    alg1 = SbmReg{SbmArch::kBase, false, false, 0};
    p_alg1 = base;
  }
  // Algorithm 2: tuning phases on the shared mapping, CI from the first one, while IPC improves
  const SbmArch shared = alg1.arch == SbmArch::kBase ? SbmArch::kMwg : SbmArch::kMwgb;
  SbmReg cfg{shared, alg1.fcache, false, 0};
  const uint64_t p0 = run(sbm_phase_name(SbmCtrl::kTune0, cfg), cfg);
  const bool ci = runs.back().insts2 > runs.back().insts1;
  uint64_t best = p0;
  uint32_t t_best = 0;
  const uint32_t occ_ci = ci ? occ2 : occ1, occ_other = ci ? occ1 : occ2;
  for (uint32_t t = 1; t <= 3; ++t) {
    if (!((occ_other >> 1) > t && (occ_ci >> 1) + t <= occ_ci)) break;  // the occupancy limit
    cfg = SbmReg{shared, alg1.fcache, ci, t};
    const uint64_t p = run(sbm_phase_name(SbmCtrl::kTune0 + t, cfg), cfg);
    if (!(p > best)) break;  // IPC starts to degrade: keep the previous phase
    best = p;
    t_best = t;
  }
  return best > p_alg1 ? SbmReg{shared, alg1.fcache, ci, t_best} : alg1;
}

}  // namespace gs::golden
