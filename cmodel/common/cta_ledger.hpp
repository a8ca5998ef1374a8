// gsched: CtaLedger -- the exactly-once record of one kernel's CTAs (docs/verification.md,
// "Verification layers" item 4), shared by the model (gs::Gpu, per kernel) and the golden
// scheduler (per KSRT slot).
//
// Every CTA id of a grid goes not started -> running -> (saved -> running)* -> done: a fresh
// issue only from not started, a resume only from saved, a finish or a save only from running,
// and a kernel ends only with every CTA done. Each transition reports what was wrong instead
// of throwing, so each caller words the error in its own terms (cycle, SM, kernel id or slot).
// Sized once per kernel by admit() (at admission); no transition allocates.
#pragma once
#include <cstdint>
#include <vector>

namespace gs {

class CtaLedger {
 public:
  enum class State : uint8_t { kNotStarted = 0, kRunning = 1, kSaved = 2, kDone = 3 };
  enum class Fault : uint8_t {
    kNone,
    kBeyondGrid,  // the CTA id is not below the grid
    kNotFresh,    // a fresh issue of a CTA that was issued before
    kNotSaved,    // a resume of a CTA that was not saved
    kNotRunning,  // a finish or save of a CTA that is not running
  };

  /// A kernel of `grid` CTAs is admitted: every CTA not started.
  void admit(uint32_t grid) {
    state_.assign(grid, State::kNotStarted);
    done_ = 0;
  }
  uint32_t grid() const { return static_cast<uint32_t>(state_.size()); }
  uint32_t done() const { return done_; }
  State state(uint32_t cta) const { return state_[cta]; }

  /// The CTA starts on an SM: fresh (from not started) or resumed (from saved).
  Fault start(uint32_t cta, bool resume) {
    if (cta >= state_.size()) return Fault::kBeyondGrid;
    if (state_[cta] != (resume ? State::kSaved : State::kNotStarted))
      return resume ? Fault::kNotSaved : Fault::kNotFresh;
    state_[cta] = State::kRunning;
    return Fault::kNone;
  }
  /// The CTA retires (kCtaFinished) or is saved by a context switch (kCtaSaved).
  Fault retire(uint32_t cta, bool saved) {
    if (cta >= state_.size()) return Fault::kBeyondGrid;
    if (state_[cta] != State::kRunning) return Fault::kNotRunning;
    state_[cta] = saved ? State::kSaved : State::kDone;
    done_ += saved ? 0 : 1;
    return Fault::kNone;
  }
  /// The first CTA that is not done, or grid() when every CTA finished exactly once.
  uint32_t first_not_done() const {
    if (done_ == state_.size()) return grid();
    for (uint32_t c = 0; c < state_.size(); ++c)
      if (state_[c] != State::kDone) return c;
    return grid();
  }
  uint32_t count(State s) const {
    uint32_t n = 0;
    for (State x : state_) n += x == s;
    return n;
  }

  static const char* name(State s) {
    switch (s) {
      case State::kNotStarted: return "not started";
      case State::kRunning: return "running";
      case State::kSaved: return "saved (preempted)";
      case State::kDone: return "done";
    }
    return "?";
  }

 private:
  std::vector<State> state_;
  uint32_t done_ = 0;
};

}  // namespace gs
