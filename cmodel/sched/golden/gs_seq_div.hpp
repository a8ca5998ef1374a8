// gsched golden twin of rtl/policy/gs_seq_div.sv: unsigned restoring division, one quotient
// bit per cycle, QuoW cycles; a quotient of QuoW bits or more (or a zero divisor) gives all
// ones at once. Same registers and arithmetic as the RTL at the user's widths (the module's
// parameters; the operands fit uint64_t). Contract: docs/rtl/gs_seq_div.md.
#pragma once
#include <cstdint>

#include "sched/golden/golden_types.hpp"

namespace gs::golden {

template <uint32_t NumW, uint32_t DenW, uint32_t QuoW>
class SeqDiv {
 public:
  static_assert(NumW <= 63 && DenW + 1 <= 63 && QuoW <= 63 && QuoW >= 2 && NumW > QuoW,
                "operands are held in uint64_t; the dividend's low QuoW bits shift out");
  static constexpr uint32_t kCntW = sv_clog2(QuoW + 1);
  static constexpr uint32_t kStateW = 1 + kCntW + 2 * DenW + QuoW;  // gs_seq_div's state_o
  struct Regs {
    bool busy = false;  // busy
    uint32_t cnt = 0;   // quotient bits still to produce (kCntW bits)
    uint64_t rem = 0;   // partial remainder, < den (DenW bits)
    uint64_t den = 0;   // divisor (DenW bits)
    uint64_t quo = 0;   // dividend bits shifting out at the top, quotient bits in (QuoW bits)
  };

  void reset() { q = d = Regs{}; }
  bool busy() const { return q.busy; }
  uint64_t quo() const { return q.quo; }

  /// The next state into d; start loads num / den (any running division is abandoned).
  void next(bool start, uint64_t num, uint64_t den) {
    d = q;
    if (start) {
      num &= width_mask64(NumW);
      den &= width_mask64(DenW);
      const uint64_t hi = num >> QuoW;
      d.den = den;
      d.cnt = QuoW;
      if (den == 0 || hi >= den) {
        d.quo = width_mask64(QuoW);
        d.rem = 0;
        d.busy = false;
      } else {
        d.quo = num & width_mask64(QuoW);
        d.rem = hi;
        d.busy = true;
      }
    } else if (q.busy) {
      const uint64_t trial = q.rem << 1 | (q.quo >> (QuoW - 1) & 1u);
      d.quo = (q.quo << 1) & width_mask64(QuoW);
      d.rem = trial & width_mask64(DenW);
      if (trial >= q.den) {
        d.rem = trial - q.den;
        d.quo |= 1u;
      }
      d.cnt = q.cnt - 1;
      d.busy = q.cnt != 1;
    }
  }
  void commit() { q = d; }

  /// q as gs_seq_div's state_o ({busy, cnt, rem, den, quo}, MSB first) at bit `lsb` of `st`.
  void state(PolicyState& st, uint32_t lsb) const {
    st.put(lsb, QuoW, q.quo);
    st.put(lsb + QuoW, DenW, q.den);
    st.put(lsb + QuoW + DenW, DenW, q.rem);
    st.put(lsb + QuoW + 2 * DenW, kCntW, q.cnt);
    st.put(lsb + QuoW + 2 * DenW + kCntW, 1, q.busy);
  }

  Regs q, d;
};

}  // namespace gs::golden
