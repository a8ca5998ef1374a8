// gsched golden twin of rtl/policy/gs_seq_div.sv: unsigned restoring division, one quotient
// bit per cycle, DivQW cycles; a quotient of DivQW bits or more (or a zero divisor) gives all
// ones at once. Same registers and arithmetic as the RTL (the operands fit uint64_t).
#pragma once
#include <cstdint>

#include "sched/golden/golden_types.hpp"

namespace gs::golden {

class SeqDiv {
 public:
  static constexpr uint32_t QW = spec::DivQW;
  static_assert(spec::DivNW <= 63 && spec::DivDW + spec::DivQW <= 63, "operands are held in uint64_t");
  struct Regs {
    bool busy = false;  // busy
    uint32_t b = 0;     // one-hot quotient bit
    uint64_t rem = 0;   // partial remainder (DivNW bits)
    uint64_t dsh = 0;   // divisor << the bit's index (DivDW + DivQW - 1 bits)
    uint32_t quo = 0;   // quotient (DivQW bits)
  };

  void reset() { q = d = Regs{}; }
  bool busy() const { return q.busy; }
  uint32_t quo() const { return q.quo; }

  /// The next state into d; start loads num / den (any running division is abandoned).
  void next(bool start, uint64_t num, uint64_t den) {
    d = q;
    if (start) {
      num &= mask64(spec::DivNW);
      den &= mask64(spec::DivDW);
      d.quo = 0;
      d.rem = num;
      d.dsh = den << (QW - 1);
      d.b = 1u << (QW - 1);
      d.busy = true;
      if (den == 0 || num >= (den << QW)) {
        d.quo = width_mask(QW);
        d.busy = false;
      }
    } else if (q.busy) {
      if (q.rem >= q.dsh) {
        d.rem = q.rem - q.dsh;
        d.quo = q.quo | q.b;
      }
      d.dsh = q.dsh >> 1;
      d.b = q.b >> 1;
      d.busy = (q.b & 1u) == 0;
    }
  }
  void commit() { q = d; }

  /// q as gs_seq_div's state_o (div_state_t) at bit `lsb` of `st`.
  void state(PolicyState& st, uint32_t lsb) const {
    namespace L = spec::layout::div_state_t;
    st.put(lsb + L::busy_lsb, L::busy_width, q.busy);
    st.put(lsb + L::b_lsb, L::b_width, q.b);
    st.put(lsb + L::rem_lsb, L::rem_width, q.rem);
    st.put(lsb + L::dsh_lsb, L::dsh_width, q.dsh);
    st.put(lsb + L::quo_lsb, L::quo_width, q.quo);
  }

  Regs q, d;

 private:
  static constexpr uint64_t mask64(uint32_t w) { return w >= 64 ? ~0ull : (1ull << w) - 1; }
};

}  // namespace gs::golden
